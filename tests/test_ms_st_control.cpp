// Idioms of MindSpore's control-flow system tests (tests/st/control): the
// tests.st.control.cases_register marks every function there carries, and grad functions
// differentiated again (F.grad(F.grad(f))), F.make_tuple/F.tuple_getitem and the builtin pow,
// ScatterNonAliasingAdd, a function chosen by a tensor `if` and called, in PYNATIVE_MODE and
// GRAPH_MODE.
#include <QtTest>

#include "op_script_fixture.h"

using script_test::Run;
using script_test::runScript;

class TestMsStControl : public QObject {
    Q_OBJECT
private slots:
    // The marks return the function unchanged and record the device and level, so that
    // check_and_run runs the functions registered for one device at one level.
    void casesRegister() {
        const Run r = runScript(
            "from tests.st.control.cases_register import case_register\n"
            "@case_register.level0\n"
            "@case_register.target_gpu\n"
            "@case_register.target_cpu\n"
            "def test_a():\n"
            "    print('a ran')\n"
            "@case_register.level1\n"
            "@case_register.target_cpu\n"
            "def test_b():\n"
            "    print('b ran')\n"
            "@case_register.skip('flaky')\n"
            "@case_register.level0\n"
            "@case_register.target_cpu\n"
            "def test_c():\n"
            "    print('c ran')\n"
            "test_a()\n"
            "print(sorted(case_register.case_targets[test_a]), case_register.case_levels[test_b])\n"
            "case_register.check_and_run('CPU', 0)\n"
            "case_register.check_and_run('Ascend', 1)\n");
        EXPECT_OUTPUT(r, "a ran\n['CPU', 'GPU'] 1\na ran\n");
    }

    // A grad function is itself a function of the same inputs: differentiating it again gives
    // the second (third) derivative; with a tuple of gradients, of their sum.
    void gradOfGradFunction() {
        op_test::expectBothModes(
            op_test::kPrelude +
                "import mindspore.ops.functional as F\n"
                "class Mul3(nn.Cell):\n"
                "    def construct(self, a, b):\n"
                "        return a * a * b\n"
                "def cube(a):\n"
                "    return a * a * a\n",
            "a = Tensor(2.0, ms.float32)\n"
            "b = Tensor(3.0, ms.float32)\n"
            "print(F.grad(F.grad(cube))(a), F.grad(F.grad(F.grad(cube)))(a))\n"
            "g1 = F.grad(Mul3(), grad_position=(0, 1))\n"
            "print(F.grad(g1, grad_position=(0, 1))(a, b))\n"
            "print(ops.GradOperation()(ops.grad(cube))(a))\n",
            "12.0 6.0\n"
            "(Tensor(shape=[], dtype=Float32, value= 10), Tensor(shape=[], dtype=Float32, value= "
            "4))\n"
            "12.0\n");
    }

    // F.make_tuple / F.tuple_getitem build and read tuples (closures included: a function
    // taken out of a tuple is called), and the builtin pow is `**`, in both modes.
    void tupleFunctionsAndPow() {
        op_test::expectBothModes(
            op_test::kPrelude +
                "import mindspore.ops.functional as F\n"
                "def pair(a, b):\n"
                "    def scaled(k):\n"
                "        return pow(a, k) + b\n"
                "    t = F.make_tuple(a * 2, scaled)\n"
                "    return F.tuple_getitem(t, 0) + F.tuple_getitem(t, 1)(2)\n",
            "a = Tensor(np.array([1.0, 3.0], np.float32))\n"
            "b = Tensor(np.array([10.0, 20.0], np.float32))\n"
            "print(Net(pair)(a, b), F.make_tuple(1, 2), F.tuple_getitem((4, 5), 1))\n"
            "print(Net(lambda u: pow(u, 2))(x), Net(lambda: pow(2, 10))())\n",
            "[13. 35.] (1, 2) 5\n"
            "[[ 1. 25.  9.]\n [16.  4. 36.]] 1024\n");
    }

    // A function returning one of two functions under a tensor condition: calling its result
    // calls the one the condition chose (MindSpore's union of function abstracts).
    void functionChosenByTensorIf() {
        op_test::expectBothModes(op_test::kPrelude +
                                     "def plus3(a):\n"
                                     "    return a + 3\n"
                                     "def minus1(a):\n"
                                     "    return a - 1\n"
                                     "def pick(a):\n"
                                     "    if a < 5:\n"
                                     "        return plus3\n"
                                     "    return minus1\n"
                                     "def twice(a):\n"
                                     "    if a > 100:\n"
                                     "        return pick(a)\n"
                                     "    return pick(a * 2)\n",
                                 "f = Net(lambda a: pick(a)(a) * 10)\n"
                                 "print(f(Tensor([10], ms.int32)), f(Tensor([1], ms.int32)))\n"
                                 "h = Net(lambda a: twice(a)(a))\n"
                                 "print(h(Tensor([2], ms.int32)), h(Tensor([4], ms.int32)), "
                                 "h(Tensor([200], ms.int32)))\n",
                                 "[90] [40]\n[5] [3] [199]\n");
    }

    // A closure returned inside a tuple (or a tuple in a tuple) by a called graph is called
    // through the tuple, and differentiated through, with PyNative's numbers; so is a Cell
    // whose construct takes *args (the grad gathers its inputs into the tuple).
    void closureInReturnedTupleIsCalled() {
        op_test::expectBothModes(op_test::kPrelude +
                                     "def make(a):\n"
                                     "    def scaled(k):\n"
                                     "        return a * k\n"
                                     "    def shifted(k):\n"
                                     "        return a + k\n"
                                     "    return (a, scaled, (shifted, 7))\n"
                                     "def use(a):\n"
                                     "    t = make(a)\n"
                                     "    inner = t[2]\n"
                                     "    return t[1](3) + inner[0](inner[1])\n",
                                 "print(Net(use)(x))\n"
                                 "print(ops.GradOperation()(Net(use))(x))\n",
                                 "[[11. 27. 19.]\n [23. 15. 31.]]\n[[4. 4. 4.]\n [4. 4. 4.]]\n");
        // Tuples of functions out of the branches of a tensor `if`: the element is the
        // function of the branch taken.
        op_test::expectBothModes(op_test::kPrelude +
                                     "def double(k):\n"
                                     "    return k * 2\n"
                                     "def square(k):\n"
                                     "    return k * k\n"
                                     "def pick(a):\n"
                                     "    if a.sum() > 0:\n"
                                     "        return (1, double)\n"
                                     "    return (2, square)\n"
                                     "def use(a):\n"
                                     "    t = pick(a)\n"
                                     "    return t[1](a) + t[0]\n",
                                 "print(Net(use)(Tensor([3.0])), Net(use)(Tensor([-3.0])))\n",
                                 "[7.] [11.]\n");
    }

    // A tuple of built-in cells indexed by a tensor (switch_layer) calls the cell the index
    // chooses at run time; an index that is no int tensor of one element is a TypeError at the
    // line that indexes the tuple.
    void switchLayerOfBuiltInCells() {
        const std::string pick = op_test::kPrelude +
                                 "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                 "class Pick(nn.Cell):\n"
                                 "    def __init__(self):\n"
                                 "        super().__init__()\n"
                                 "        self.layers = (nn.ReLU(), nn.Softmax())\n"
                                 "    def construct(self, a, i):\n"
                                 "        return self.layers[i](a)\n";
        Run r = runScript(pick +
                          "print(Pick()(x - 3, Tensor(0, ms.int32)))\n"
                          "print(Pick()(x, Tensor(1, ms.int32)).asnumpy().round(4))\n");
        QCOMPARE(r.result.exitStatus, 0);
        QCOMPARE(QString::fromStdString(r.out),
                 QStringLiteral("[[0. 2. 0.]\n [1. 0. 3.]]\n"
                                "[[0.0159 0.8668 0.1173]\n [0.1173 0.0159 0.8668]]\n"));
        r = runScript(pick + "print(Pick()(x, Tensor(1.0, ms.float32)))\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(r.out.find("TypeError: The index of a tuple of Cells chosen at run time "
                            "(switch_layer) must be an int tensor of one element, but got "
                            "Tensor[Float32].") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("return self.layers[i](a)") != std::string::npos, r.out.c_str());
    }

    // ScatterNonAliasingAdd adds the updates into the Parameter at index tuples and returns it.
    void scatterNonAliasingAdd() {
        op_test::expectBothModes(
            op_test::kPrelude +
                "class S(nn.Cell):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.op = P.ScatterNonAliasingAdd()\n"
                "        self.p = Parameter(Tensor(np.arange(6, dtype=np.float32)), name='p')\n"
                "    def construct(self, i, u):\n"
                "        return self.op(self.p, i, u), self.p\n",
            "out, p = S()(Tensor(np.array([[1], [4], [1]]), ms.int32),\n"
            "             Tensor(np.array([10, 20, 30], np.float32)))\n"
            "print(out, p.asnumpy())\n",
            "[ 0. 41.  2.  3. 24.  5.] [ 0. 41.  2.  3. 24.  5.]\n");
    }
};

QTEST_GUILESS_MAIN(TestMsStControl)
#include "test_ms_st_control.moc"
