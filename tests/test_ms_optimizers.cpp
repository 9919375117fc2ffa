// MindSpore's optimizer primitives (P.Adam, P.ApplyMomentum, P.SGD, the SparseApply* row
// updates...) writing their state Parameters in place in both modes, the loss-scaled training
// step (mindspore.nn.wrap.loss_scale, mindspore.amp), mindspore.train.Model, the element-wise
// math primitives (Sin ... IsFinite, ReduceAll/Any) and the pytest, re, sys and os modules
// test files import.
// Expected numbers are worked out by hand from each update rule.
#include <QtTest>

#include "script_fixture.h"

using script_test::Run;
using script_test::runScript;

namespace {

const char* kPrelude =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, context\n"
    "from mindspore.common.parameter import Parameter\n"
    "from mindspore.common import dtype as mstype\n"
    "from mindspore.ops import operations as P\n"
    "def close(a, b):\n"
    "    np.testing.assert_allclose(a.asnumpy() if isinstance(a, Tensor) else a, b, rtol=1e-5, "
    "atol=1e-6)\n";

// `body` once in GRAPH_MODE and once in PYNATIVE_MODE.
std::string inBothModes(const std::string& defs, const std::string& body) {
    std::string indented;
    std::size_t start = 0;
    while (start < body.size()) {
        const std::size_t end = body.find('\n', start);
        indented += "    " + body.substr(start, end - start) + "\n";
        start = end == std::string::npos ? body.size() : end + 1;
    }
    return std::string(kPrelude) + defs +
           "for mode in (context.GRAPH_MODE, context.PYNATIVE_MODE):\n"
           "    context.set_context(mode=mode)\n" +
           indented + "print('ok')\n";
}

void expectOk(const Run& r) {
    QVERIFY2(r.result.exitStatus == 0, r.out.c_str());
    QVERIFY2(r.out.size() >= 3 && r.out.compare(r.out.size() - 3, 3, "ok\n") == 0, r.out.c_str());
}

}  // namespace

class TestMsOptimizers : public QObject {
    Q_OBJECT
private slots:
    // Adam writes var, m and v in place; an AddN before it reads the values before the update
    // (its reads are ordered before the write on the U monad).
    void adamUpdatesItsParametersAfterEarlierReads() {
        Run r = runScript(inBothModes(
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.adam = P.Adam()\n"
            "        self.var = Parameter(Tensor(np.ones(2, np.float32)), name='var')\n"
            "        self.m = Parameter(Tensor(np.ones(2, np.float32)), name='m')\n"
            "        self.v = Parameter(Tensor(np.ones(2, np.float32)), name='v')\n"
            "    def construct(self, grad):\n"
            "        before = P.AddN()((self.var, self.m, self.v))\n"
            "        out = self.adam(self.var, self.m, self.v, 0.9, 0.999, 0.001, 0.9, 0.999, "
            "1e-8, grad)\n"
            "        return before, out, self.var\n",
            "net = Net()\n"
            "before, out, var = net(Tensor(np.array([0.5, 1.0], np.float32)))\n"
            "close(before, [3.0, 3.0])\n"
            "close(var, [0.99969947, 0.99968377])\n"
            "close(out[1], [0.95, 1.0])\n"
            "close(out[2], [0.99925, 1.0])\n"
            "close(net.m.asnumpy(), [0.95, 1.0])\n"));
        expectOk(r);
    }

    void denseUpdateRules() {
        Run r = runScript(inBothModes(
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.var = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='var')\n"
            "        self.acc = Parameter(Tensor(np.array([0.5, 0.5], np.float32)), name='acc')\n"
            "        self.w = Parameter(Tensor(np.array([1.0], np.float32)), name='w')\n"
            "        self.wacc = Parameter(Tensor(np.array([1.0], np.float32)), name='wacc')\n"
            "        self.lin = Parameter(Tensor(np.array([0.0], np.float32)), name='lin')\n"
            "        self.p = Parameter(Tensor(np.array([1.0], np.float32)), name='p')\n"
            "        self.momentum = P.ApplyMomentum()\n"
            "        self.ftrl = P.ApplyFtrl()\n"
            "        self.pgd = P.ApplyProximalGradientDescent()\n"
            "    def construct(self, g):\n"
            "        v = self.momentum(self.var, self.acc, 0.1, g, 0.9)\n"
            "        f = self.ftrl(self.w, self.wacc, self.lin, Tensor([1.0], mstype.float32), "
            "0.1, 0.0, 0.0, -0.5)\n"
            "        p = self.pgd(self.p, 0.1, 0.5, 1.0, Tensor([1.0], mstype.float32))\n"
            "        return v, f, p\n",
            "net = Net()\n"
            "v, f, p = net(Tensor(np.array([1.0, 1.0], np.float32)))\n"
            "close(v, [0.855, 1.855])\n"
            "close(net.acc, [1.45, 1.45])\n"
            "close(f, [0.22218254])\n"
            "close(net.wacc, [2.0])\n"
            "close(net.lin, [-3.1421356])\n"
            "close(p, [0.77272727])\n"));
        expectOk(r);
    }

    // SGD's accum and stat are written too (a stat > 0 restarts the momentum from the grad).
    void sgdWritesAccumAndStat() {
        Run r = runScript(inBothModes(
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.sgd = P.SGD()\n"
            "        self.var = Parameter(Tensor(np.array([2, -0.5], np.float32)), name='var')\n"
            "        self.acc = Parameter(Tensor(np.array([0.1, 0.3], np.float32)), name='acc')\n"
            "        self.stat = Parameter(Tensor(np.array([1.5, -0.3], np.float32)), "
            "name='stat')\n"
            "    def construct(self, g):\n"
            "        return self.sgd(self.var, g, 0.01, self.acc, 0.1, self.stat)\n",
            "net = Net()\n"
            "close(net(Tensor(np.array([1, -1], np.float32))), [1.99, -0.4903])\n"
            "close(net.acc, [1.0, -0.97])\n"
            "close(net.stat, [0.0, -0.3])\n"));
        expectOk(r);
    }

    // The gradient rows of a repeated index are summed before the row is updated once; rows
    // not named keep their values.
    void sparseRowsSumRepeatedIndices() {
        Run r = runScript(inBothModes(
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.op = P.SparseApplyAdagrad(lr=0.1)\n"
            "        self.var = Parameter(Tensor(np.array([[1, 1], [2, 2], [3, 3]], np.float32)), "
            "name='var')\n"
            "        self.acc = Parameter(Tensor(np.ones((3, 2), np.float32)), name='acc')\n"
            "    def construct(self, g, i):\n"
            "        return self.op(self.var, self.acc, g, i)\n",
            "net = Net()\n"
            "var, acc = net(Tensor(np.ones((2, 2), np.float32)), Tensor([1, 1], mstype.int32))\n"
            "close(var, [[1, 1], [1.91055728, 1.91055728], [3, 3]])\n"
            "close(acc, [[1, 1], [5, 5], [1, 1]])\n"));
        expectOk(r);
    }

    void badStatesAreLocatedErrors() {
        Run r =
            runScript(std::string(kPrelude) +
                      "class Net(nn.Cell):\n"
                      "    def __init__(self):\n"
                      "        super().__init__()\n"
                      "        self.var = Parameter(Tensor(np.ones(3, np.float32)), name='var')\n"
                      "        self.acc = Parameter(Tensor(np.ones(2, np.float32)), name='acc')\n"
                      "    def construct(self, g):\n"
                      "        return P.ApplyAdagrad()(self.var, self.acc, 0.1, g)\n"
                      "Net()(Tensor(np.ones(3, np.float32)))\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(
            r.out.find("For 'ApplyAdagrad', the shape of 'accum' must be the same as the shape "
                       "of 'var' [3], but got [2].") != std::string::npos,
            r.out.c_str());
        QVERIFY2(r.out.find("in construct\n    return P.ApplyAdagrad()") != std::string::npos,
                 r.out.c_str());
        r = runScript(
            std::string(kPrelude) +
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.op = P.SparseApplyAdagrad(lr=0.1)\n"
            "        self.var = Parameter(Tensor(np.ones((2, 2), np.float32)), name='v')\n"
            "        self.acc = Parameter(Tensor(np.ones((2, 2), np.float32)), name='a')\n"
            "    def construct(self, g, i):\n"
            "        return self.op(self.var, self.acc, g, i)\n"
            "Net()(Tensor(np.ones((1, 2), np.float32)), Tensor([5], mstype.int32))\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(r.out.find("the 'indices' value 5 is out of range [0, 2)") != std::string::npos,
                 r.out.c_str());
    }

    // TrainOneStepWithLossScaleCell returns (loss, overflow, scale) and applies the optimizer
    // only without overflow; the dynamic manager grows the scale after scale_window clean
    // steps and halves it on an overflow.
    void lossScaledTrainingStep() {
        Run r = runScript(
            std::string(kPrelude) +
            "from mindspore.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell\n"
            "from mindspore.amp import DynamicLossScaleManager\n"
            "context.set_context(mode=context.GRAPH_MODE)\n"
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.w = Parameter(Tensor(np.ones([1, 1], np.float32)), name='w')\n"
            "    def construct(self, x):\n"
            "        return ops.matmul(x, self.w)\n"
            "net = Net()\n"
            "opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)\n"
            "step = TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,\n"
            "                                     scale_sense=Tensor(np.full((1), 1.0), "
            "mstype.float32))\n"
            "loss, overflow, scale = step(Tensor(np.ones([4, 1], np.float32)), "
            "Tensor(np.zeros([4, 1], np.float32)))\n"
            "print(loss, overflow, scale, net.w.asnumpy())\n"
            "manager = DynamicLossScaleManager(init_loss_scale=8.0, scale_factor=2, "
            "scale_window=1)\n"
            "n2 = Net()\n"
            "step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(n2, nn.MSELoss()),\n"
            "    nn.Momentum(n2.trainable_params(), learning_rate=0.1, momentum=0.9),\n"
            "    scale_sense=manager.get_update_cell())\n"
            "x = Tensor(np.ones([4, 1], np.float32))\n"
            "for label in (0.0, np.inf):\n"
            "    overflow = step(x, Tensor(np.full([4, 1], label, np.float32)))[1]\n"
            "    print(overflow, step.scale_sense.asnumpy(), n2.w.asnumpy())\n");
        // loss = mean((x w)^2) = 1; dL/dw = 2, accum = 2, w = 1 - 0.1 * 2 = 0.8.
        EXPECT_OUTPUT(r,
                      "1.0 False [1.] [[0.8]]\n"
                      "False 16.0 [[0.8]]\n"
                      "True 8.0 [[0.8]]\n");
    }

    void modelPredictsAndTrains() {
        Run r = runScript(std::string(kPrelude) +
                          "from mindspore import Model\n"
                          "from mindspore.train.model import Model as M2\n"
                          "net = nn.Dense(2, 1, weight_init='ones', bias_init='zeros')\n"
                          "model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))\n"
                          "x = Tensor(np.array([[1.0, 2.0]], np.float32))\n"
                          "print(Model is M2, model.predict(x))\n"
                          "model.train(1, [(x, Tensor(np.array([[0.0]], np.float32)))])\n"
                          "print(net.weight.asnumpy())\n");
        // loss = (w.x)^2 = 9; dL/dw = 2 * 3 * x = [6, 12]; w = 1 - 0.1 * [6, 12] in float32.
        EXPECT_OUTPUT(r, "True [[3.]]\n[[ 0.39999998 -0.20000005]]\n");
    }

    void elementwiseMath() {
        Run r = runScript(std::string(kPrelude) +
                          "x = Tensor(np.array([-1.5, 0.5, 2.5], np.float32))\n"
                          "print(P.Floor()(x), ops.ceil(x), x.round(), ops.sign(x))\n"
                          "close(P.Sin()(x), np.sin(np.array([-1.5, 0.5, 2.5])))\n"
                          "close(ops.atan(x), np.arctan(np.array([-1.5, 0.5, 2.5])))\n"
                          "y = Tensor(np.array([1.0, np.inf, np.nan], np.float32))\n"
                          "print(P.IsFinite()(y), ops.isnan(y), y.isinf())\n"
                          "print(P.ReduceAll()(P.IsFinite()(y)), ops.any(ops.isnan(y)))\n"
                          "print(P.Floor()(Tensor([1], mstype.int32)))\n");
        QVERIFY2(r.out.find("[-2.  0.  2.] [-1.  1.  3.] [-2.  0.  2.] [-1.  1.  1.]\n"
                            "[ True False False] [False False  True] [False  True False]\n"
                            "False True\n") != std::string::npos,
                 r.out.c_str());
        QVERIFY2(r.out.find("TypeError: For 'Floor', the type of 'x' must be Tensor[Float16, "
                            "Float32, Float64], but got Tensor[Int32].") != std::string::npos,
                 r.out.c_str());
    }

    // The gradients of the new math ops: d/dx sin = cos, d/dx reciprocal = -1/x^2, floor flat.
    void elementwiseMathGradients() {
        Run r = runScript(std::string(kPrelude) +
                          "context.set_context(mode=context.GRAPH_MODE)\n"
                          "def f(x):\n"
                          "    return ops.sin(x) + P.Reciprocal()(x) + ops.floor(x)\n"
                          "x = Tensor(np.array([0.5, 2.0], np.float32))\n"
                          "close(ops.grad(f)(x), np.cos(np.array([0.5, 2.0])) - 1 / "
                          "np.array([0.25, 4.0]))\n"
                          "print('ok')\n");
        expectOk(r);
    }

    void pytestMarksRaisesAndApprox() {
        Run r = runScript(
            "import pytest\n"
            "@pytest.mark.level0\n"
            "@pytest.mark.platform_x86_cpu\n"
            "@pytest.mark.parametrize('mode', [0, 1])\n"
            "def test_a(mode=0):\n"
            "    return mode + 1\n"
            "print(test_a())\n"
            "with pytest.raises(ValueError) as info:\n"
            "    raise ValueError('bad value')\n"
            "print(type(info.value).__name__, info.value)\n"
            "try:\n"
            "    with pytest.raises(TypeError):\n"
            "        pass\n"
            "except AssertionError as e:\n"
            "    print(e)\n"
            "print(0.1 + 0.2 == pytest.approx(0.3), 0.31 == pytest.approx(0.3))\n");
        EXPECT_OUTPUT(r, "1\nValueError bad value\nDID NOT RAISE TypeError\nTrue False\n");
    }

    void reModule() {
        Run r = runScript(
            "import re, pytest\n"
            "m = re.search(r'(\\d+)-(\\d+)', 'ids 12-345 ok')\n"
            "print(m.group(), m.groups(), m.span(2), re.match('ids', 'ids 1') is not None)\n"
            "print(re.findall(r'\\w+=(\\d)', 'a=1 b=2'), re.sub(r'(\\w)=', r'\\1:', 'a=1 b=2'))\n"
            "print(re.split(r',\\s*', 'x, y,z'), re.fullmatch('[a-z]+', 'abc') is not None, "
            "re.escape('a.b'))\n"
            "with pytest.raises(ValueError, match=r'shape \\[\\d+\\]'):\n"
            "    raise ValueError('bad shape [3]')\n"
            "try:\n"
            "    with pytest.raises(ValueError, match='other'):\n"
            "        raise ValueError('bad shape [3]')\n"
            "except AssertionError as e:\n"
            "    print('no match')\n");
        EXPECT_OUTPUT(r,
                      "12-345 ('12', '345') (7, 10) True\n['1', '2'] a:1 b:2\n"
                      "['x', 'y', 'z'] True a\\.b\nno match\n");
    }

    void sysAndOsModules() {
        Run r = runScript(
            "import os, sys\n"
            "sys.stdout.write('to stdout\\n')\n"
            "sys.stdout.flush()\n"
            "print(os.path.join('a', 'b.py'), os.path.splitext('x/y.tar'), "
            "os.path.basename('/x/y'),\n"
            "      os.path.dirname('/x/y'), os.path.exists('/'), os.path.isfile('/'), "
            "sys.version_info[0])\n"
            "print(os.getenv('IRSCOPE_NO_SUCH_VARIABLE', 'absent'), type(os.environ).__name__)\n"
            "sys.exit(3)\n");
        QCOMPARE(r.result.exitStatus, 3);
        QVERIFY2(
            r.out.find("to stdout\na/b.py ('x/y', '.tar') y /x True False 3\nabsent dict\n") == 0,
            r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMsOptimizers)
#include "test_ms_optimizers.moc"
