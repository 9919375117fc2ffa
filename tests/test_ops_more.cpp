// The primitives of issue 15's op batch run from scripts in PYNATIVE_MODE and GRAPH_MODE:
// axis ops (Argmax ... TopK, ReverseV2, Roll), array ops (Slice ... TensorScatterUpdate), the
// binary math table (SquaredDifference ... BitwiseXor), Lerp, MaskedFill and the nn trio
// (LogSoftmax, Elu, L2Loss): values against hand-computed numbers, their gradients, and
// MindSpore's error for one bad input of each family.
#include <QtTest>

#include "op_script_fixture.h"

using script_test::Run;
using script_test::runScript;

namespace {

const std::string kPrelude = op_test::kPrelude;

void expectBothModes(const std::string& body, const std::string& once) {
    op_test::expectBothModes(kPrelude, body, once);
}

void expectError(const std::string& call, const std::string& message) {
    op_test::expectError(kPrelude, call, message);
}

}  // namespace

class TestOpsMore : public QObject {
    Q_OBJECT
private slots:
    void argOps() {
        expectBothModes(
            "print(Net(P.Argmax())(x), Net(P.Argmin(axis=0))(x), Net(ops.argmax)(x))\n"
            "print(Net(lambda v: ops.argmax(v, dim=1, keepdim=True))(x).shape, "
            "Net(lambda v: v.argmin(axis=1))(x).dtype)\n"
            "i, v = Net(P.ArgMaxWithValue(axis=1))(x)\n"
            "j, w = Net(P.ArgMinWithValue(keep_dims=True))(x)\n"
            "print(i, v, j, w.shape)\n",
            "[1 2] [0 1 0] 5\n(2, 1) Int64\n[1 2] [5. 6.] [[0 1 0]] (1, 3)\n");
        expectError("P.Argmax()(Tensor(np.array([True, False])))",
                    "TypeError: For 'Argmax', the type of 'x' must be Tensor[Int8, Int16, Int32, "
                    "Int64, UInt8, Float16, Float32, Float64], but got Tensor[Bool].");
    }

    void cumulativeOps() {
        expectBothModes(
            "print(Net(lambda v: P.CumSum()(v, 1))(x))\n"
            "print(Net(lambda v: P.CumSum(True, True)(v, 1))(x))\n"
            "print(Net(lambda v: ops.cumprod(v, 0))(x), Net(lambda v: v.cumsum())(x))\n"
            "print(Net(lambda v: P.CumSum()(v, 0))(Tensor(np.array([2**40, 1], np.int64))))\n",
            "[[ 1.  6.  9.]\n [ 4.  6. 12.]]\n[[8. 3. 0.]\n [8. 6. 0.]]\n"
            "[[ 1.  5.  3.]\n [ 4. 10. 18.]] [ 1.  6.  9. 13. 15. 21.]\n"
            "[1099511627776 1099511627777]\n");
        expectError("P.CumSum()(x, 2)",
                    "ValueError: For 'CumSum', the 'axis' must be in range [-2, 2), but got 2.");
    }

    void sortAndTopK() {
        expectBothModes(
            "v, i = Net(P.Sort(axis=0, descending=True))(x)\n"
            "print(v, i)\n"
            "v, i = Net(lambda a: ops.topk(a, 2))(Tensor(np.array([3, 1, 3, 7], np.int32)))\n"
            "print(v, i, i.dtype)\n"
            "v, i = Net(P.TopK(sorted=False))(Tensor(np.array([3, 1, 5, 7], np.int32)), 3)\n"
            "print(v, i)\n"
            // MindSpore 2.x: topk(input, k, dim=None, largest=True, sorted=True).
            "v, i = Net(lambda a: ops.topk(a, 1, dim=0, largest=False))(x)\n"
            "print(v, i)\n"
            "v, i = Net(lambda a: a.topk(2, None, False))(x)\n"
            "print(v, i)\n",
            "[[4. 5. 6.]\n [1. 2. 3.]] [[1 0 1]\n [0 1 0]]\n[7 3] [3 0] Int32\n[3 5 7] [0 2 3]\n"
            "[[1. 2. 3.]] [[0 1 0]]\n[[1. 3.]\n [2. 4.]] [[0 2]\n [1 0]]\n");
        expectError("P.TopK()(x, 4)",
                    "ValueError: For 'TopK', the 'k' must be in range [0, 3], but got 4.");
    }

    void reverseAndRoll() {
        expectBothModes(
            "print(Net(P.ReverseV2(axis=(1,)))(x), Net(lambda v: ops.flip(v, (0, 1)))(x))\n"
            "print(Net(P.Roll(shift=1, axis=1))(x), Net(lambda v: ops.roll(v, 1))(x))\n",
            "[[3. 5. 1.]\n [6. 2. 4.]] [[6. 2. 4.]\n [3. 5. 1.]]\n"
            "[[3. 1. 5.]\n [6. 4. 2.]] [[6. 1. 5.]\n [3. 4. 2.]]\n");
    }

    void sliceSplitUnstack() {
        expectBothModes(
            "print(Net(lambda v: P.Slice()(v, (0, 1), (2, -1)))(x))\n"
            "a, b, c = Net(P.Split(axis=1, output_num=3))(x)\n"
            "print(a.shape, b.T, c.T)\n"
            "p, q = Net(P.Unstack())(x)\n"
            "print(p, q, len(Net(lambda v: ops.unstack(v, axis=1))(x)))\n",
            "[[5. 3.]\n [2. 6.]]\n(2, 1) [[5. 2.]] [[3. 6.]]\n[1. 5. 3.] [4. 2. 6.] 3\n");
        expectError("P.Slice()(x, (1, 1), (2, 1))",
                    "ValueError: For 'Slice', the sum of 'begin' and 'size' must not exceed the "
                    "shape of 'input_x'");
        expectError("P.Split(1, 2)(x)",
                    "ValueError: For 'Split', x_shape[1] must be divisible by output_num = 2, but "
                    "got 3");
    }

    void triangleEyeRange() {
        expectBothModes(
            "print(Net(P.Tril())(x), Net(P.Triu(diagonal=1))(x))\n"
            "print(Net(lambda v: v.triu(-1) - ops.tril(v, -1))(x))\n"
            "print(Net(lambda: P.Eye()(2, 3, ms.int32))(), Net(lambda: ops.eye(2))().dtype)\n"
            "print(Net(P.Range())(Tensor(0, ms.int32), Tensor(10, ms.int32), Tensor(3, "
            "ms.int32)))\n"
            "print(Net(ops.range)(Tensor(1.0), Tensor(2.0), Tensor(0.25)))\n",
            "[[1. 0. 0.]\n [4. 2. 0.]] [[0. 5. 3.]\n [0. 0. 6.]]\n"
            "[[1. 5. 3.]\n [0. 2. 6.]]\n[[1 0 0]\n [0 1 0]] Float32\n[0 3 6 9]\n"
            "[1.   1.25 1.5  1.75]\n");
        expectError("P.Range()(Tensor(0), Tensor(5), Tensor(0))",
                    "ValueError: For 'Range', the 'delta' can not be zero.");
        expectError("P.Tril()(Tensor(np.ones([3], np.float32)))",
                    "ValueError: For 'Tril', the rank of 'x' must be at least 2, but got 1.");
    }

    void oneHotSizeAndNdIndexing() {
        expectBothModes(
            "i = Tensor(np.array([0, 2, 5]), ms.int32)\n"
            "print(Net(P.OneHot())(i, 3, Tensor(1.0), Tensor(0.0)))\n"
            "print(Net(lambda a: ops.one_hot(a, 2, Tensor(5, ms.float32), Tensor(-1, "
            "ms.float32), axis=0))(Tensor(np.array([1, 0]), ms.int32)))\n"
            "print(Net(P.Size())(x), Net(ops.size)(x))\n"
            "idx = Tensor(np.array([[0, 1], [1, 2]]), ms.int32)\n"
            "print(Net(P.GatherNd())(x, idx), Net(ops.gather_nd)(x, Tensor(np.array([[1]]), "
            "ms.int32)))\n"
            "u = Tensor(np.array([1.0, 2.0], np.float32))\n"
            "print(Net(lambda a, b: P.ScatterNd()(a, b, (2, 3)))(Tensor(np.array([[0, 1], [0, "
            "1]]), ms.int32), u))\n"
            "print(Net(P.TensorScatterUpdate())(x, idx, u * 9))\n",
            "[[1. 0. 0.]\n [0. 0. 1.]\n [0. 0. 0.]]\n[[-1.  5.]\n [ 5. -1.]]\n6 6\n"
            "[5. 6.] [[4. 2. 6.]]\n[[0. 3. 0.]\n [0. 0. 0.]]\n[[ 1.  9.  3.]\n [ 4.  2. 18.]]\n");
        expectError("P.GatherNd()(x, Tensor(np.array([[2, 0]]), ms.int32))",
                    "ValueError: For 'GatherNd', the 0th element of 'indices' is out of bounds: "
                    "index 2 is not in range [0, 2).");
        expectError("P.OneHot()(Tensor(np.array([1.0], np.float32)), 2, Tensor(1.0), Tensor(0.0))",
                    "TypeError: For 'OneHot', the type of 'indices' must be Tensor[Int32, Int64, "
                    "UInt8], but got Tensor[Float32].");
    }

    void binaryMath() {
        expectBothModes(
            "y = Tensor(np.array([[2, 2, 2]], np.float32))\n"
            "print(Net(P.SquaredDifference())(x, y), Net(ops.xdivy)(x, y))\n"
            "print(Net(P.Atan2())(Tensor(np.array([1.0, -1.0], np.float32)), Tensor(np.array([0.0, "
            "0.0], np.float32))))\n"
            "print(Net(P.Xlogy())(Tensor(np.array([0.0, 2.0], np.float32)), Tensor(np.array([0.0, "
            "1.0], np.float32))))\n"
            "print(Net(P.DivNoNan())(x, Tensor(np.array([0.0, 2.0, 0.0], np.float32))))\n"
            "a = Tensor(np.array([-7, 7, 5], np.int32))\n"
            "b = Tensor(np.array([2, -2, 3], np.int32))\n"
            "print(Net(P.TruncateDiv())(a, b), Net(P.TruncateMod())(a, b))\n"
            "print(Net(P.BitwiseAnd())(a, b), Net(P.BitwiseOr())(a, b), Net(ops.bitwise_xor)(a, "
            "b))\n"
            "print(Net(P.TruncateDiv())(Tensor(np.array([-7.5], np.float32)), 2.0))\n"
            "t = Tensor(np.array([True, False, True]))\n"
            "f = Tensor(np.array([True, True, False]))\n"
            "print(Net(P.BitwiseAnd())(t, f), Net(lambda p, q: p ^ q)(t, f), Net(lambda p, q: p | q)(a, b))\n"
            "print(np.bitwise_and(np.array([6, 3]), 3), np.array([6, 3]) ^ np.array([3, 3]))\n",
            "[[ 1.  9.  1.]\n [ 4.  0. 16.]] [[0.5 2.5 1.5]\n [2.  1.  3. ]]\n"
            "[ 1.5707964 -1.5707964]\n[0. 0.]\n[[0.  2.5 0. ]\n [0.  1.  0. ]]\n"
            "[-3 -3  1] [-1  1  2]\n[0 6 1] [-5 -1  7] [-5 -7  6]\n[-3.]\n"
            "[ True False False] [False  True  True] [-5 -1  7]\n[2 3] [5 0]\n");
        expectError("P.BitwiseAnd()(x, x)",
                    "TypeError: For 'BitwiseAnd', the type of 'x1' must be Tensor[Bool, Int8, Int16, "
                    "Int32, Int64, UInt8, UInt16, UInt32, UInt64], but got Tensor[Float32].");
        expectError("P.Atan2()(x, Tensor(np.ones([2], np.float32)))",
                    "ValueError: For 'Atan2', x.shape and y.shape need to broadcast");
    }

    void lerpAndMaskedFill() {
        expectBothModes(
            "y = Tensor(np.array([[2, 2, 2]], np.float32))\n"
            "print(Net(lambda a, b: P.Lerp()(a, b, 0.5))(x, y))\n"
            "print(Net(ops.lerp)(x, y, Tensor(np.array([0.0, 1.0, 0.5], np.float32))))\n"
            "print(Net(lambda v: ops.masked_fill(v, Tensor(np.array([True, False, True])), "
            "0.0))(x))\n"
            "print(Net(lambda v: v.masked_fill(Tensor(np.array([[False], [True]])), "
            "Tensor(7.0)))(x))\n",
            "[[1.5 3.5 2.5]\n [3.  2.  4. ]]\n[[1.  2.  2.5]\n [4.  2.  4. ]]\n"
            "[[0. 5. 0.]\n [0. 2. 0.]]\n[[1. 5. 3.]\n [7. 7. 7.]]\n");
        expectError("ops.masked_fill(x, x, 0.0)",
                    "TypeError: For 'MaskedFill', the type of 'mask' must be Tensor[Bool], but "
                    "got Tensor[Float32].");
    }

    void nnOps() {
        expectBothModes(
            "print(Net(P.LogSoftmax())(Tensor(np.array([[0.0, 0.0], [1.0, 1.0]], np.float32))))\n"
            "print(Net(lambda v: ops.log_softmax(v, axis=0))(Tensor(np.array([[0.0], [0.0]], "
            "np.float32))))\n"
            "print(Net(P.Elu())(Tensor(np.array([0.0, 2.0, -20.0], np.float32))))\n"
            "print(Net(P.L2Loss())(x))\n",
            "[[-0.6931472 -0.6931472]\n [-0.6931472 -0.6931472]]\n[[-0.6931472]\n [-0.6931472]]\n"
            "[ 0.  2. -1.]\n45.5\n");
        expectError("P.Elu()(Tensor(np.array([1, 2], np.int32)))",
                    "TypeError: For 'Elu', the type of 'input_x' must be Tensor[Float16, Float32, "
                    "Float64], but got Tensor[Int32].");
    }

    // Gradients through the ops with a bprop rule (dout = ones).
    void gradients() {
        expectBothModes(
            "g = ops.GradOperation()\n"
            "v = Tensor(np.array([[1, -5, 3], [4, 2, -6]], np.float32))\n"
            "one = Tensor(np.array([1.0, 1.0, 1.0], np.float32))\n"
            "print(g(Net1(lambda a: P.CumSum()(a, 1)))(v))\n"
            "print(g(Net1(lambda a: P.SquaredDifference()(a, one)))(v))\n"
            "print(g(Net1(lambda a: P.Slice()(a, (0, 1), (2, 1))))(v))\n"
            "print(g(Net1(lambda a: P.Split(1, 3)(a)[2]))(v))\n"
            "print(g(Net1(lambda a: P.Unstack()(a)[0]))(v))\n"
            "print(g(Net1(lambda a: P.Triu()(a)))(v))\n"
            "print(g(Net1(lambda a: P.ReverseV2((1,))(a) * Tensor(np.array([1.0, 2.0, 3.0], "
            "np.float32))))(v))\n"
            "print(g(Net1(P.L2Loss()))(v))\n"
            "print(g(Net1(lambda a: ops.lerp(a, v, 0.25)))(v))\n"
            "print(g(Net1(P.Elu()))(Tensor(np.array([1.0, 0.0], np.float32))))\n"
            "print(g(Net1(P.LogSoftmax()))(Tensor(np.array([0.0, 0.0], np.float32))))\n",
            "[[3. 2. 1.]\n [3. 2. 1.]]\n[[  0. -12.   4.]\n [  6.   2. -14.]]\n"
            "[[0. 1. 0.]\n [0. 1. 0.]]\n[[0. 0. 1.]\n [0. 0. 1.]]\n[[1. 1. 1.]\n [0. 0. 0.]]\n"
            "[[1. 1. 1.]\n [0. 1. 1.]]\n[[3. 2. 1.]\n [3. 2. 1.]]\n"
            "[[ 1. -5.  3.]\n [ 4.  2. -6.]]\n[[0.75 0.75 0.75]\n [0.75 0.75 0.75]]\n[1. 1.]\n"
            "[0. 0.]\n");
    }
};

QTEST_GUILESS_MAIN(TestOpsMore)
#include "test_ops_more.moc"
