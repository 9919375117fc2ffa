// Idioms MindSpore's own system tests (tests/st) use, in PYNATIVE_MODE and GRAPH_MODE: the
// older spelling of a functional op's *args (ops.meshgrid((x, y), 'ij')), a Cell whose
// construct is decorated with @jit, a built-in Cell (nn.ReLU) compiled as the network,
// ScatterNdUpdate's index errors as its CPU kernel reports them, dynamic-shape placeholders
// (Tensor(shape=[None, 3], dtype=...) given to Cell.set_inputs), CumSum's accumulation in its
// dtype, tests.mark_utils, and the numpy helpers their expectations are computed with
// (np.insert, np.delete, np.broadcast_to, ufunc.reduce, views written through).
#include <QtTest>

#include "op_script_fixture.h"

using script_test::Run;
using script_test::runScript;

namespace {

const std::string kPrelude = op_test::kPrelude;

void expectBothModes(const std::string& body, const std::string& once) {
    op_test::expectBothModes(kPrelude, body, once);
}

}  // namespace

class TestMsStIdioms : public QObject {
    Q_OBJECT
private slots:
    // A tuple or list passed as the one argument where *args are expected is the packed input,
    // and the positionals after it bind to the parameters after *args.
    void sequenceForVarargs() {
        expectBothModes(
            "a = Tensor(np.array([1, 2, 3], np.int32))\n"
            "b = Tensor(np.array([4, 5], np.int32))\n"
            "g, h = Net(lambda u, w: ops.meshgrid((u, w), 'ij'))(a, b)\n"
            "print(g.shape, h)\n"
            "g, h = Net(lambda u, w: ops.meshgrid([u, w], indexing='xy'))(a, b)\n"
            "print(g.shape)\n"
            "g, h = Net(lambda u, w: ops.meshgrid(u, w, indexing='ij'))(a, b)\n"
            "print(g.shape)\n"
            "print(Net(lambda v: v.reshape((3, 2)))(x).shape, Net(lambda v: v.reshape(3, "
            "2))(x).shape)\n",
            "(3, 2) [[4 5]\n [4 5]\n [4 5]]\n(2, 3)\n(3, 2)\n(3, 2) (3, 2)\n");
        // Outside any Cell too.
        const Run r = runScript(kPrelude +
                                "g = ops.meshgrid((Tensor(np.ones(2, np.float32)), "
                                "Tensor(np.ones(4, np.float32))), 'ij')\n"
                                "print(g[1].shape)\n");
        EXPECT_OUTPUT(r, "(2, 4)\n");
    }

    // `@jit def construct(self)`: the Cell compiles the method under the decorator.
    void jitDecoratedConstruct() {
        const Run r = runScript(
            kPrelude +
            "from mindspore.common.api import jit\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "class J(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='p')\n"
            "    @jit\n"
            "    def construct(self, y):\n"
            "        return self.p * y\n"
            "print(J()(Tensor(np.array([3.0, 4.0], np.float32))))\n");
        EXPECT_OUTPUT(r, "[3. 8.]\n");
    }

    // A built-in Cell called in GRAPH_MODE is the compiled network itself.
    void builtinCellAsNetwork() {
        expectBothModes(
            "print(nn.ReLU()(x - 3), nn.Dropout(p=0.5).set_train(False)(x).shape)\n"
            "print(nn.Softmax()(Tensor(np.zeros((1, 4), np.float32))))\n",
            "[[0. 2. 0.]\n [1. 0. 3.]] (2, 3)\n[[0.25 0.25 0.25 0.25]]\n");
    }

    // Placeholders with unknown dimensions: their shape reads -1 there; set_inputs keeps them
    // and each call compiles for the shapes it is given.
    void dynamicShapePlaceholders() {
        expectBothModes(
            "p = Tensor(shape=[2, None], dtype=ms.float32)\n"
            "print(p.shape, p.dtype)\n"
            "net = Net(ops.add)\n"
            "net.set_inputs(p, Tensor(shape=(None, None), dtype=ms.float32))\n"
            "print(len(net.get_inputs()), net.get_inputs()[1].shape)\n"
            "print(net(x, x).shape, net(x[:, :2], x[:, :2]))\n",
            "(2, -1) Float32\n2 (-1, -1)\n(2, 3) [[ 2. 10.]\n [ 8.  4.]]\n");
    }

    // np.insert at one index (values broadcast into the new slices) and ufunc.reduce, which
    // reduces along axis 0 unless told otherwise.
    void numpyInsertAndReduce() {
        const Run r = runScript(
            "import numpy as np\n"
            "a = np.arange(6).reshape(2, 3)\n"
            "print(np.insert(a, 1, 7, axis=1))\n"
            "print(np.insert(a, -1, [5, 6, 7], axis=0))\n"
            "print(np.insert(a, 2, [[8], [9]], axis=1))\n"
            "print(np.insert(a, 3, 1), np.insert(np.array([1.5, 2.5]), 2, [3, 4]))\n"
            "m = np.array([[1, 5], [3, 2]])\n"
            "print(np.maximum.reduce(m), np.maximum.reduce(m, 1), np.minimum.reduce(m, axis=1), "
            "np.add.reduce(m), np.multiply.reduce(m, 1))\n"
            "np.insert(a, 1, [1, 2, 3, 4], axis=1)\n");
        QCOMPARE(r.result.exitStatus, 1);
        QCOMPARE(QString::fromStdString(r.out.substr(0, r.out.find("Traceback"))),
                 QString("[[0 7 1 2]\n [3 7 4 5]]\n[[0 1 2]\n [5 6 7]\n [3 4 5]]\n"
                         "[[0 1 8 9 2]\n [3 4 8 9 5]]\n[0 1 2 1 3 4 5] [1.5 2.5 3.  4. ]\n"
                         "[3 5] [5 3] [1 2] [4 7] [5 6]\n"));
        QVERIFY2(
            r.out.find(
                "ValueError: could not broadcast input array from shape (4,1) into shape (2,1)") !=
                std::string::npos,
            r.out.c_str());
    }

    // Basic indexing of a numpy array gives a view: writes through it (chained indexing, a
    // row of a for loop, a slice) reach the array. np.broadcast_to follows numpy's rules.
    void numpyViewsAndBroadcastTo() {
        const Run r = runScript(
            "import numpy as np\n"
            "x = np.ones((2, 3), np.float32)\n"
            "e = x\n"
            "for i in range(2):\n"
            "    for j in range(3):\n"
            "        e[i][j] = x[i][j] + j\n"
            "print(x)\n"
            "for row in x:\n"
            "    row[0] = 7\n"
            "v = x[1:, ::2]\n"
            "v[0, 1] = -1\n"
            "print(x)\n"
            "y = np.zeros((2, 2, 2))\n"
            "y[1][0][1] = 5\n"
            "print(y.sum(), y[1, 0])\n"
            "print(np.broadcast_to(np.array([[1], [2]]), (2, 2, 3)).sum(), np.broadcast_to(3, "
            "(2,)))\n"
            "np.broadcast_to(np.ones(3), (4,))\n");
        QCOMPARE(r.result.exitStatus, 1);
        QCOMPARE(QString::fromStdString(r.out.substr(0, r.out.find("Traceback"))),
                 QString("[[1. 2. 3.]\n [1. 2. 3.]]\n[[ 7.  2.  3.]\n [ 7.  2. -1.]]\n5.0 [0. "
                         "5.]\n18 [3 3]\n"));
        QVERIFY2(
            r.out.find("ValueError: operands could not be broadcast together with remapped shapes "
                       "[original->remapped]: (3,)  and requested shape (4,)") != std::string::npos,
            r.out.c_str());
    }

    // ms_function is jit's older name; a loop's else branch is refused with MindSpore's message.
    void msFunctionAndLoopElse() {
        const Run r = runScript(kPrelude +
                                "from mindspore import ms_function\n"
                                "from mindspore.common.api import ms_function as f2\n"
                                "@ms_function\n"
                                "def twice(v):\n"
                                "    return v * 2\n"
                                "print(twice(Tensor(np.array([1, 2], np.int32))), f2 is ms.jit)\n"
                                "@ms_function\n"
                                "def loop(v):\n"
                                "    for _ in range(3):\n"
                                "        v = v + 1\n"
                                "    else:\n"
                                "        v = v * 2\n"
                                "    return v\n"
                                "loop(x)\n");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY2(r.out.rfind("[2 4] True\n", 0) == 0, r.out.c_str());
        QVERIFY2(r.out.find("RuntimeError: The 'for...else...' statement is not supported now.") !=
                     std::string::npos,
                 r.out.c_str());
    }

    // CumSum accumulates in its input's dtype, as numpy's cumsum does: a float16 running sum
    // drifts from the exact one. np.delete and float16 arctan2 as numpy.
    void dtypeAccumulationAndDelete() {
        expectBothModes(
            "a = np.full(300, 0.1, np.float16)\n"
            "r = Net(ops.cumsum)(Tensor(a), 0).asnumpy()\n"
            "print(r[-1], np.cumsum(a)[-1], (r == np.cumsum(a)).all())\n",
            "29.28 29.28 True\n");
        const Run r = runScript(
            "import numpy as np\n"
            "print(np.delete(np.arange(6).reshape(2, 3), 1, axis=1), np.delete(np.arange(5), [0, "
            "-1]))\n"
            "print(np.arctan2(np.ones(2, np.float16), np.ones(2, np.float16)).dtype)\n"
            "np.delete(np.arange(3), 3)\n");
        QCOMPARE(r.result.exitStatus, 1);
        QCOMPARE(QString::fromStdString(r.out.substr(0, r.out.find("Traceback"))),
                 QString("[[0 2]\n [3 5]] [1 2 3]\nfloat16\n"));
        QVERIFY2(r.out.find("IndexError: index 3 is out of bounds for axis 0 with size 3") !=
                     std::string::npos,
                 r.out.c_str());
    }

    // len() of a 0-d tensor in GRAPH_MODE is MindSpore's ArrayLen: 1 (PyNative's
    // Tensor.__len__ refuses it, tests/data/ms/misc.py).
    void graphLenOfScalarTensor() {
        const Run r = runScript(kPrelude +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "print(Net(len)(Tensor(1, ms.int32)), Net(len)(x))\n");
        EXPECT_OUTPUT(r, "1 2\n");
    }

    // MindSpore's test files import their marks from tests.mark_utils.
    void testMarks() {
        const Run r = runScript(
            "from tests.mark_utils import arg_mark\n"
            "@arg_mark(plat_marks=['cpu_linux'], level_mark='level0', card_mark='onecard',\n"
            "          essential_mark='essential')\n"
            "def test_one():\n"
            "    return 1\n"
            "print(test_one())\n");
        EXPECT_OUTPUT(r, "1\n");
    }

    // ScatterNdUpdate bounds the flat offset of each slice (MindSpore's CPU kernel): an index
    // tuple past the end of input_x fails with the kernel's two-part message.
    void scatterNdUpdateIndexErrors() {
        for (const char* mode : {"PYNATIVE_MODE", "GRAPH_MODE"}) {
            const std::string net =
                kPrelude + "ms.set_context(mode=ms." + mode +
                ")\n"
                "class S(nn.Cell):\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.op = P.ScatterNdUpdate()\n"
                "        self.p = Parameter(Tensor(np.ones([1, 4, 1], np.float32)), name='p')\n"
                "    def construct(self, i, u):\n"
                "        return self.op(self.p, i, u)\n"
                "u = Tensor(np.array([[1], [1], [1]], np.float32))\n";
            Run r =
                runScript(net + "S()(Tensor(np.array([[0, 2], [3, 2], [1, 3]]), ms.int32), u)\n");
            QCOMPARE(r.result.exitStatus, 1);
            QVERIFY2(
                r.out.find("RuntimeError: For 'ScatterNdUpdate', indices out of range for input_x. "
                           "Please check the indices which is [3, 2]\n"
                           "Some errors occurred! The error message is as above") !=
                    std::string::npos,
                r.out.c_str());
            r = runScript(net + "S()(Tensor(np.array([[0, 2], [0, -1], [0, 3]]), ms.int32), u)\n");
            QVERIFY2(
                r.out.find("RuntimeError: For 'ScatterNdUpdate', each element in 'indices' must be "
                           "greater than or equal to 0, but got -1") != std::string::npos,
                r.out.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestMsStIdioms)
#include "test_ms_st_idioms.moc"
