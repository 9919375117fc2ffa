// Side effects MindSpore keeps that compile-time evaluation could drop, and call forms real
// tests use: a call whose value decides an `if` at compile time (`if self.check():` where
// check() assigns and returns True), a call bound to a variable never read, a Cell passed as
// an argument and called there (with `*args` of a length only type inference knows), the
// varargs tuple symbol_resolve builds not moving the call after later statements, a Cell's
// own bprop method, and the builtins reached through F (tuple_len, make_range) and P.Shape.
#include <QtTest>

#include "script_fixture.h"

using script_test::Run;
using script_test::runScript;

namespace {

const char* kPrelude =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, context, Parameter\n"
    "from mindspore.ops import functional as F\n"
    "from mindspore.ops import operations as P\n";

// `body` in GRAPH_MODE then PYNATIVE_MODE.
std::string inBothModes(const std::string& defs, const std::string& body) {
    return std::string(kPrelude) + defs +
           "for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):\n"
           "    context.set_context(mode=mode)\n" +
           body;
}

}  // namespace

class TestMsSideEffects : public QObject {
    Q_OBJECT
private slots:
    // para = x + y happens in check(); the `if` on its constant True is decided at compile
    // time, and the read after it sees the new value: 5 + (2 + 3) = 10.
    void conditionDecidedAtCompileTimeStillRuns() {
        Run r = runScript(
            inBothModes("class Net(nn.Cell):\n"
                        "    def __init__(self):\n"
                        "        super().__init__()\n"
                        "        self.para = Parameter(Tensor(1, ms.int32), name='para')\n"
                        "    def construct(self, x, y):\n"
                        "        if self.check(x, y):\n"
                        "            out = x + y\n"
                        "        else:\n"
                        "            out = x - y\n"
                        "        return self.para + out\n"
                        "    def check(self, x, y):\n"
                        "        self.set(x, y)\n"
                        "        return True\n"
                        "    def set(self, x, y):\n"
                        "        self.para = x + y\n"
                        "        return True\n",
                        "    print(Net()(Tensor(2, ms.int32), Tensor(3, ms.int32)))\n"));
        EXPECT_OUTPUT(r, "10\n10\n");
    }

    // `r = self.check(x, y)` with r never read: the call still runs, before the read.
    void unusedAssignedCallStillRuns() {
        Run r = runScript(
            inBothModes("class Net(nn.Cell):\n"
                        "    def __init__(self):\n"
                        "        super().__init__()\n"
                        "        self.para = Parameter(Tensor(1, ms.int32), name='para')\n"
                        "    def construct(self, x, y):\n"
                        "        r = self.check(x, y)\n"
                        "        return self.para + x\n"
                        "    def check(self, x, y):\n"
                        "        self.para = x + y\n"
                        "        return True\n",
                        "    print(Net()(Tensor(2, ms.int32), Tensor(3, ms.int32)))\n"));
        EXPECT_OUTPUT(r, "7\n7\n");
    }

    // A Cell handed to a method and called there, with the method's *inputs (whose length
    // only type inference knows) and with explicit arguments; its assignment happens before
    // the read that follows the call.
    void cellArgumentCalledWithStarredArgs() {
        const std::string defs =
            "class SetPara(nn.Cell):\n"
            "    def __init__(self, para):\n"
            "        super().__init__()\n"
            "        self.para = para\n"
            "    def construct(self, x, y):\n"
            "        self.para = x + y\n"
            "        return True\n"
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.para = Parameter(Tensor(1, ms.int32), name='para')\n"
            "        self.set_para = SetPara(self.para)\n"
            "    def construct(self, *inputs):\n"
            "        self.call_func(self.set_para, *inputs)\n"
            "        out = self.para + 1\n"
            "        return out\n"
            "    def call_func(self, func, *inputs):\n"
            "        func(*inputs)\n"
            "        return True\n";
        Run r = runScript(
            inBothModes(defs, "    print(Net()(Tensor(2, ms.int32), Tensor(3, ms.int32)))\n"));
        EXPECT_OUTPUT(r, "6\n6\n");
        std::string named = defs;
        named.replace(named.find("func(*inputs)"), 13, "func(inputs[0], inputs[1])");
        r = runScript(
            inBothModes(named, "    print(Net()(Tensor(2, ms.int32), Tensor(3, ms.int32)))\n"));
        EXPECT_OUTPUT(r, "6\n6\n");
        // A starred argument that is not a tuple is a located error.
        r = runScript(std::string(kPrelude) +
                      "class Net(nn.Cell):\n"
                      "    def construct(self, x):\n"
                      "        return self.f(x)\n"
                      "    def f(self, *a):\n"
                      "        t = a[0]\n"
                      "        return ops.add(*t)\n"
                      "context.set_context(mode=context.GRAPH_MODE)\n"
                      "Net()(Tensor(1, ms.int32))\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(r.out.find("a starred argument must be a tuple or list in graph mode") !=
                     std::string::npos,
                 r.out.c_str());
    }

    // F.tuple_len / F.make_range are len / range in graphs; P.Shape is the static shape.
    void functionalBuiltinsAndShape() {
        Run r = runScript(
            inBothModes("def axes(x):\n"
                        "    return F.make_range(0, F.tuple_len(P.Shape()(x)))\n"
                        "class Net(nn.Cell):\n"
                        "    def construct(self, x):\n"
                        "        return P.ReduceMean()(x * x, axes(x)), F.shape(x), F.dtype(x)\n",
                        "    print(Net()(Tensor(np.ones([3, 2], np.float32) * 2)))\n"));
        EXPECT_OUTPUT(r,
                      "(Tensor(shape=[], dtype=Float32, value= 4), (3, 2), Float32)\n"
                      "(Tensor(shape=[], dtype=Float32, value= 4), (3, 2), Float32)\n");
    }

    // A Cell's own bprop gives its gradient: as the grad's target and as a sub-cell (where
    // the rest of the network's gradient adds to it).
    void cellBpropGivesItsGradient() {
        Run r = runScript(
            inBothModes("from mindspore.ops.composite import GradOperation\n"
                        "class Net(nn.Cell):\n"
                        "    def construct(self, x, y):\n"
                        "        return x * y\n"
                        "    def bprop(self, x, y, out, dout):\n"
                        "        return x * 2 + out, y * 3 * dout\n"
                        "class Outer(nn.Cell):\n"
                        "    def __init__(self):\n"
                        "        super().__init__()\n"
                        "        self.net = Net()\n"
                        "    def construct(self, x, y):\n"
                        "        return self.net(x, y) * 2 + x\n"
                        "grad = GradOperation(get_all=True)\n",
                        "    x, y = Tensor([1.0]), Tensor([5.0])\n"
                        "    print(grad(Net())(x, y), grad(Outer())(x, y), Outer()(x, y))\n"));
        // Net: (2*1 + 5, 15 * 1); Outer: dout = 2 -> (2 + 5 + 1, 15 * 2) = (8, 30); value 11.
        const std::string once =
            "(Tensor(shape=[1], dtype=Float32, value= [ 7.00000000e+00]), Tensor(shape=[1], "
            "dtype=Float32, value= [ 1.50000000e+01])) (Tensor(shape=[1], dtype=Float32, value= [ "
            "8.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+01])) [11.]\n";
        EXPECT_OUTPUT(r, once + once);
    }

    // Tensor(<literal list>, dtype) inside construct is a constant; nn.Dense takes its
    // initializers by name.
    void literalTensorsAndNamedInitializers() {
        Run r = runScript(inBothModes(
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.dense = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')\n"
            "    def construct(self, x):\n"
            "        return self.dense(x) + Tensor([[0.5]], ms.float32)\n",
            "    print(Net()(Tensor(np.array([[1.0, 2.0]], np.float32))))\n"));
        EXPECT_OUTPUT(r, "[[3.5]]\n[[3.5]]\n");
    }
};

QTEST_GUILESS_MAIN(TestMsSideEffects)
#include "test_ms_side_effects.moc"
