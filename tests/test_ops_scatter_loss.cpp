// The second op batch of issue 15 run from scripts in PYNATIVE_MODE and GRAPH_MODE: the
// scatter family (Scatter*, ScatterNd*, TensorScatter*, Inplace*, UnsortedSegmentSum, GatherD),
// the losses (SoftmaxCrossEntropyWithLogits, the sparse and sigmoid forms), L2Normalize and
// BatchNorm with its moving statistics, the parameterised activations, ClipByValue, the padding
// and rearranging ops, the data-dependent shapes (NonZero, MaskedSelect, Unique), ReduceStd,
// Erfinv and Lgamma: values against hand-computed numbers, gradients of the ops with a bprop,
// and MindSpore's error for one bad input of each family.
#include <QtTest>

#include "op_script_fixture.h"

using script_test::Run;
using script_test::runScript;

namespace {

const std::string kPrelude =
    op_test::kPrelude +
    // A Parameter written by a scatter primitive, then read again in the same construct.
    "class Written(nn.Cell):\n"
    "    def __init__(self, op, init):\n"
    "        super().__init__()\n"
    "        self.op = op\n"
    "        self.p = Parameter(Tensor(init), name='p')\n"
    "    def construct(self, i, u):\n"
    "        before = self.p * 1\n"
    "        out = self.op(self.p, i, u)\n"
    "        return before, out, self.p * 1\n";

void expectBothModes(const std::string& body, const std::string& once) {
    op_test::expectBothModes(kPrelude, body, once);
}

void expectError(const std::string& call, const std::string& message) {
    op_test::expectError(kPrelude, call, message);
}

}  // namespace

class TestOpsScatterLoss : public QObject {
    Q_OBJECT
private slots:
    // The Parameter is written in place and read back after the write, in both modes.
    void scatterWritesParameter() {
        expectBothModes(
            "z = np.zeros((3, 2), np.float32)\n"
            "i = Tensor(np.array([0, 2, 0]), ms.int32)\n"
            "u = Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float32))\n"
            "net = Written(P.ScatterAdd(), z)\n"
            "b, o, a = net(i, u)\n"
            "print(b.sum(), o, a.sum(), net.p.value().sum())\n"
            "b, o, a = Written(P.ScatterMax(), z)(i, u - 4)\n"
            "print(o)\n"
            "one = Tensor(np.array([1]), ms.int32)\n"
            "print(Written(P.ScatterUpdate(), z)(one, Tensor(np.array([[7, 8]], np.float32)))[2])\n"
            "print(Written(P.ScatterSub(), z)(one, Tensor(np.array([[7, 8]], np.float32)))[2])\n"
            "b, o, a = Written(P.ScatterNdAdd(), z)(Tensor(np.array([[0, 1], [2, 0], [0, 1]]), "
            "ms.int32), Tensor(np.array([2, 9, 1], np.float32)))\n"
            "print(a)\n"
            "b, o, a = Written(P.ScatterNdUpdate(), z)(Tensor(np.array([[1]]), ms.int32), "
            "Tensor(np.array([[5, 5]], np.float32)))\n"
            "print(a.T)\n",
            "0.0 [[6. 8.]\n [0. 0.]\n [3. 4.]] 21.0 21.0\n[[1. 2.]\n [0. 0.]\n [0. 0.]]\n"
            "[[0. 0.]\n [7. 8.]\n [0. 0.]]\n[[ 0.  0.]\n [-7. -8.]\n [ 0.  0.]]\n"
            "[[0. 3.]\n [0. 0.]\n [9. 0.]]\n[[0. 5. 0.]\n [0. 5. 0.]]\n");
        expectError(
            "P.ScatterAdd()(x, Tensor(np.array([0]), ms.int32), "
            "Tensor(np.ones((2, 3), np.float32)))",
            "ValueError: For 'ScatterAdd', the shape of 'updates' must be equal to "
            "indices.shape + input_x.shape[1:], but got the shape of 'updates': [2, 3], "
            "the shape of 'indices': [1], the shape of 'input_x': [2, 3].");
    }

    void tensorScatterAndSegments() {
        expectBothModes(
            "idx = Tensor(np.array([[0, 1], [0, 1], [1, 2]]), ms.int32)\n"
            "u = Tensor(np.array([1.0, 2.0, -1.0], np.float32))\n"
            "print(Net(ops.tensor_scatter_add)(x, idx, u), Net(P.TensorScatterMin())(x, idx, u))\n"
            "print(Net(lambda a, i, v: a.scatter_mul(i, v))(x, idx, u))\n"
            "s = Tensor(np.array([1, 1]), ms.int32)\n"
            "print(Net(P.UnsortedSegmentSum())(x, s, 3))\n"
            "print(Net(lambda a: ops.unsorted_segment_sum(a, Tensor(np.array([[0, 1, 0], [1, 1, "
            "9]]), ms.int32), 2))(x))\n"
            "g = Tensor(np.array([[2, 0], [1, 1]]), ms.int32)\n"
            "g0 = Tensor(np.array([[1, 0], [0, 1]]), ms.int32)\n"
            "print(Net(P.GatherD())(x, 1, g), Net(lambda a: a.gather_elements(0, g0))(x))\n"
            "print(Net(P.InplaceAdd((1, 0)))(x, x), Net(P.InplaceUpdate(1))(x, x[:1]))\n"
            "print(Net(lambda a: ops.inplace_sub(a, a[:1], (1,)))(x))\n",
            "[[1. 8. 3.]\n [4. 2. 5.]] [[ 1.  1.  3.]\n [ 4.  2. -1.]]\n"
            "[[ 1. 10.  3.]\n [ 4.  2. -6.]]\n[[0. 0. 0.]\n [5. 7. 9.]\n [0. 0. 0.]]\n[ 4. 11.]\n"
            "[[3. 1.]\n [2. 2.]] [[4. 5.]\n [1. 2.]]\n"
            "[[5. 7. 9.]\n [5. 7. 9.]] [[1. 5. 3.]\n [1. 5. 3.]]\n"
            "[[ 1.  5.  3.]\n [ 3. -3.  3.]]\n");
        expectError("ops.gather_elements(x, 1, Tensor(np.array([[3]]), ms.int32))",
                    "ValueError: For 'GatherD', the value of 'index' must be in range [-3, 3), but "
                    "got 3.");
        expectError("ops.tensor_scatter_add(x, Tensor(np.array([[0.0]], np.float32)), x)",
                    "TypeError: For 'TensorScatterAdd', the type of 'indices' must be "
                    "Tensor[Int32, Int64], but got Tensor[Float32].");
    }

    void losses() {
        expectBothModes(
            "lg = Tensor(np.array([[0.0, 0.0], [0.0, 2.0]], np.float32))\n"
            "lb = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))\n"
            "l, g = Net(P.SoftmaxCrossEntropyWithLogits())(lg, lb)\n"
            "print(l, g)\n"
            "print(Net(P.SparseSoftmaxCrossEntropyWithLogits())(lg, Tensor(np.array([0, 1]), "
            "ms.int32)))\n"
            "print(Net(P.SparseSoftmaxCrossEntropyWithLogits(is_grad=True))(lg, "
            "Tensor(np.array([0, 1]), ms.int32)))\n"
            "print(Net(P.SigmoidCrossEntropyWithLogits())(lg, lb))\n"
            "print(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='sum')(lg, "
            "Tensor(np.array([0, 1]), ms.int32)))\n"
            "print(Net(P.L2Normalize(axis=1))(Tensor(np.array([[3.0, 4.0], [0.0, 0.0]], "
            "np.float32))))\n",
            "[0.6931472  0.12692802] [[-0.5         0.5       ]\n [ 0.11920292 -0.11920292]]\n"
            "0.4100376\n[[-0.25        0.25      ]\n [ 0.05960146 -0.05960146]]\n"
            "[[0.6931472  0.6931472 ]\n [0.6931472  0.12692802]]\n0.8200752\n"
            "[[0.6 0.8]\n [0.  0. ]]\n");
        expectError("P.SoftmaxCrossEntropyWithLogits()(x, x[:, :2])",
                    "ValueError: For 'SoftmaxCrossEntropyWithLogits', the shape of 'logits' must "
                    "be the same as 'labels', but got 'logits' shape: [2, 3], 'labels' shape: "
                    "[2, 2].");
    }

    // Training normalizes with the batch statistics and moves the moving ones
    // (moving = moving * 0.9 + batch * 0.1); inference uses the moving ones.
    void batchNorm() {
        expectBothModes(
            "bn = nn.BatchNorm1d(3, momentum=0.9)\n"
            "bn.set_train()\n"
            "print(bn(x))\n"
            "print(bn.moving_mean.value(), bn.moving_variance.value())\n"
            "bn.set_train(False)\n"
            "print(bn(x))\n"
            "y, m, v, _, _ = Net(P.BatchNorm())(x, Tensor(np.ones(3, np.float32)), "
            "Tensor(np.zeros(3, np.float32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32)), "
            "Tensor(np.ones(3, np.float32)))\n"
            "print(y, m)\n",
            "[[-0.9999978  0.9999978 -0.9999978]\n [ 0.9999978 -0.9999978  0.9999978]]\n"
            "[0.25 0.35 0.45] [1.125 1.125 1.125]\n"
            "[[0.7071036 4.3840427 2.4041524]\n [3.5355182 1.5556281 5.232567 ]]\n"
            "[[0.       2.999985 0.      ]\n [2.999985 0.       2.999985]] [1. 2. 3.]\n");
        expectError("P.BatchNorm()(x, x, x, x, x)",
                    "ValueError: For 'BatchNorm', the shape of 'scale' must be (C,) with C the "
                    "channel dimension of 'input_x' (3), but got [2, 3].");
    }

    void activationsAndClip() {
        expectBothModes(
            "v = Tensor(np.array([-2.0, -0.25, 0.0, 1.0], np.float32))\n"
            "print(Net(P.LeakyReLU())(v), Net(lambda a: ops.leaky_relu(a, 0.5))(v), "
            "nn.LeakyReLU(0.1)(v))\n"
            "print(Net(P.SeLU())(v), nn.SeLU()(v))\n"
            "print(Net(P.CeLU(2.0))(v), Net(ops.celu)(v))\n"
            "print(Net(P.HShrink(0.25))(v), Net(lambda a: a.hardshrink())(v), nn.HShrink()(v))\n"
            "print(Net(P.SoftShrink())(v), Net(lambda a: ops.softshrink(a, 1.0))(v))\n"
            "print(Net(lambda a: ops.clip_by_value(a, 2, 4))(x), Net(P.ClipByValue())(x, "
            "Tensor(np.array([3.0, 0.0, 0.0], np.float32)), 5.0))\n",
            "[-0.4  -0.05  0.    1.  ] [-1.    -0.125  0.     1.   ] [-0.2   -0.025  0.     1.   "
            "]\n"
            "[-1.5201665 -0.3888902  0.         1.050701 ] [-1.5201665 -0.3888902  0.         "
            "1.050701 ]\n"
            "[-1.2642411 -0.2350062  0.         1.       ] [-0.86466473 -0.22119921  0.          "
            "1.        ]\n"
            "[-2.  0.  0.  1.] [-2.  0.  0.  1.] [-2.  0.  0.  1.]\n"
            "[-1.5  0.   0.   0.5] [-1.  0.  0.  0.]\n"
            "[[2. 4. 3.]\n [4. 2. 4.]] [[3. 5. 3.]\n [4. 2. 5.]]\n");
        expectError("P.HShrink(-1.0)(x)",
                    "ValueError: For 'HShrink', the values of 'lambd' should be greater or equal "
                    "to 0, but got -1.0.");
        expectError("P.SeLU()(Tensor(np.array([1, 2], np.int32)))",
                    "TypeError: For 'SeLU', the type of 'input_x' must be Tensor[Float16, "
                    "Float32, Float64], but got Tensor[Int32].");
    }

    void padAndRearrange() {
        expectBothModes(
            "print(Net(P.Pad(((1, 0), (0, 1))))(x))\n"
            "p = Tensor(np.array([[0, 0], [2, 1]]), ms.int32)\n"
            "print(Net(P.MirrorPad())(x, p), Net(P.MirrorPad('SYMMETRIC'))(x, p))\n"
            "print(nn.Pad(((0, 0), (1, 1)), mode='REFLECT')(x))\n"
            "s = Tensor(np.arange(8).reshape(1, 2, 2, 2).astype(np.float32))\n"
            "d = Net(P.SpaceToDepth(2))(s)\n"
            "print(d.shape, d.reshape(8), Net(P.DepthToSpace(2))(d).reshape(8))\n"
            "from mindspore.ops.operations import array_ops\n"
            "g = ops.GradOperation()(Net1(lambda a: array_ops.MirrorPad()(a, p)))(x)\n"
            "print(g, ops.GradOperation()(Net1(lambda a: P.MirrorPad('SYMMETRIC')(a, p)))(x))\n",
            "[[0. 0. 0. 0.]\n [1. 5. 3. 0.]\n [4. 2. 6. 0.]]\n"
            "[[3. 5. 1. 5. 3. 5.]\n [6. 2. 4. 2. 6. 2.]] [[5. 1. 1. 5. 3. 3.]\n [2. 4. 4. 2. 6. "
            "6.]]\n"
            "[[5. 1. 5. 3. 5.]\n [2. 4. 2. 6. 2.]]\n"
            "(1, 8, 1, 1) [0. 4. 1. 5. 2. 6. 3. 7.] [0. 1. 2. 3. 4. 5. 6. 7.]\n"
            "[[1. 3. 2.]\n [1. 3. 2.]] [[2. 2. 2.]\n [2. 2. 2.]]\n");
        expectError("P.MirrorPad()(x, Tensor(np.array([[0, 0], [3, 0]]), ms.int32))",
                    "ValueError: For 'MirrorPad', the paddings of dimension 1 must be at most 2 "
                    "in mode 'REFLECT', but got (3, 0).");
        expectError("P.SpaceToDepth(2)(x)",
                    "ValueError: For 'SpaceToDepth', the rank of 'x' must be 4, but got 2.");
    }

    void gridsAndSelections() {
        expectBothModes(
            "a = Tensor(np.array([1, 2, 3], np.int32))\n"
            "b = Tensor(np.array([4, 5], np.int32))\n"
            "g, h = Net(ops.meshgrid)(a, b)\n"
            "print(g, h)\n"
            "g, h = Net(P.Meshgrid(indexing='ij'))((a, b))\n"
            "print(g.shape, h)\n"
            "print(Net(P.Diag())(b), Net(ops.diag)(Tensor(np.array([[1, 2]], np.int32))).shape)\n"
            "e = Tensor(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], np.float32))\n"
            "print(Net(P.Cross())(e, e[::-1]), Net(lambda u, w: u.cross(w, dim=1))(e, "
            "e[::-1]))\n"
            "print(Net(P.NonZero())(x > 4), Net(lambda v: v.masked_select(v > 3))(x))\n"
            "y, i = Net(P.Unique())(Tensor(np.array([3, 1, 3, 2, 1]), ms.int32))\n"
            "print(y, i, i.dtype, Net(ops.unique)(Tensor(np.array([2.0, 2.0]), "
            "ms.float32))[0])\n"
            "sd, m = Net(P.ReduceStd(axis=1, keep_dims=True))(x)\n"
            "print(sd, m, Net(P.ReduceStd(unbiased=False))(x)[0])\n"
            "print(Net(ops.erfinv)(Tensor(np.array([0.0, 0.5, -0.9], np.float32))), "
            "Net(P.Lgamma())(Tensor(np.array([1.0, 0.5, 4.0], np.float32))))\n",
            "[[1 2 3]\n [1 2 3]] [[4 4 4]\n [5 5 5]]\n(3, 2) [[4 5]\n [4 5]\n [4 5]]\n"
            "[[4 0]\n [0 5]] (1, 2, 1, 2)\n"
            "[[ 0.  0.  1.]\n [ 0.  0. -1.]] [[ 0.  0.  1.]\n [ 0.  0. -1.]]\n"
            "[[0 1]\n [1 2]] [5. 4. 6.]\n[3 1 2] [0 1 0 2 1] Int32 [2.]\n"
            "[[2.]\n [2.]] [[3.]\n [4.]] 1.7078252\n"
            "[ 0.          0.47693628 -1.1630871 ] [0.        0.5723649 1.7917595]\n");
        expectError("P.Unique()(x)",
                    "ValueError: For 'Unique', the rank of 'input_x' must be 1, but got 2.");
        expectError("ops.masked_select(x, x)",
                    "TypeError: For 'MaskedSelect', the type of 'mask' must be Tensor[Bool], but "
                    "got Tensor[Float32].");
    }

    // numpy functions MindSpore's tests use: flip, cumsum, sort, arctan2 and np.bool.
    void numpyAdditions() {
        const Run r = runScript(
            "import numpy as np\n"
            "a = np.arange(6).reshape(2, 3).astype(np.float32)\n"
            "print(np.flip(a), np.flip(a, 1).tolist())\n"
            "print(np.cumsum(a), np.cumsum(a, axis=0).tolist(), np.cumsum(np.array([1, 2], "
            "np.int32)).dtype)\n"
            "print(np.sort(np.array([[3, 1, 2], [0, -1, 5]])).tolist(), np.sort(np.array([3.0, "
            "np.nan, 1.0])), np.sort(np.array([[3, 1], [0, 2]]), axis=0).tolist())\n"
            "print(np.arctan2(np.array([1.0, -1.0], np.float32), np.array([0.0, 0.0], "
            "np.float32)), np.arctan2(1.0, np.array([1.0, -1.0])).dtype)\n"
            "print(np.ones(2).astype(np.bool), np.bool is np.bool_)\n"
            "b = np.arange(6).reshape(2, 3)\n"
            "print(np.pad(b, 1).tolist(), np.pad(b, ((0, 0), (2, 3)), 'reflect').tolist())\n"
            "print(np.pad(b, ((1, 0), (0, 4)), 'symmetric')[0].tolist(), np.pad(np.array([1, "
            "2]), (1, 2), 'edge').tolist())\n"
            "print([i for i, v in np.ndenumerate(np.array([[1, 2]])) if v > 1])\n"
            "g, h = np.meshgrid(np.array([1, 2, 3]), np.array([4, 5]))\n"
            "print(g.tolist(), h.tolist(), np.meshgrid(np.array([1, 2]), np.array([3]), "
            "indexing='ij')[1].tolist())\n");
        EXPECT_OUTPUT(
            r,
            "[[5. 4. 3.]\n [2. 1. 0.]] [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]\n"
            "[ 0.  1.  3.  6. 10. 15.] [[0.0, 1.0, 2.0], [3.0, 5.0, 7.0]] int64\n"
            "[[1, 2, 3], [-1, 0, 5]] [ 1.  3. nan] [[0, 1], [3, 2]]\n"
            "[ 1.5707964 -1.5707964] float64\n[ True  True] True\n"
            "[[0, 0, 0, 0, 0], [0, 0, 1, 2, 0], [0, 3, 4, 5, 0], [0, 0, 0, 0, 0]] [[2, 1, "
            "0, 1, 2, 1, 0, 1], [5, 4, 3, 4, 5, 4, 3, 4]]\n"
            "[0, 1, 2, 2, 1, 0, 0] [1, 1, 2, 2, 2]\n[(0, 1)]\n"
            "[[1, 2, 3], [1, 2, 3]] [[4, 4, 4], [5, 5, 5]] [[3], [3]]\n");
    }

    // Gradients through the ops with a bprop rule (dout = ones unless weighted).
    void gradients() {
        expectBothModes(
            "gr = ops.GradOperation()\n"
            "v = Tensor(np.array([[1.0, -2.0, 3.0], [0.25, 2.0, -0.1]], np.float32))\n"
            "w = Tensor(np.arange(12).reshape(3, 4).astype(np.float32))\n"
            "print(gr(Net1(lambda a: P.Pad(((1, 0), (0, 1)))(a) * w))(v))\n"
            "print(gr(Net1(ops.leaky_relu))(v), gr(Net1(P.SeLU()))(v))\n"
            "print(gr(Net1(P.CeLU()))(v), gr(Net1(P.SoftShrink()))(v))\n"
            "gi = Tensor(np.array([[0, 0], [2, 1]]), ms.int32)\n"
            "print(gr(Net1(lambda a: ops.gather_elements(a, 1, gi)))(v))\n"
            "si = Tensor(np.array([1, 0]), ms.int32)\n"
            "w2 = Tensor(np.array([[1.0, 2, 3], [4, 5, 6]], np.float32))\n"
            "print(gr(Net1(lambda a: ops.unsorted_segment_sum(a, si, 2) * w2))(v))\n"
            "print(gr(Net1(lambda a: P.SigmoidCrossEntropyWithLogits()(a, ops.ones_like(a))))(v))\n"
            "print(gr(Net1(P.L2Normalize(axis=1)))(Tensor(np.array([[3.0, 4.0]], np.float32))))\n"
            "lab = Tensor(np.array([[1.0, 0.0]], np.float32))\n"
            "print(gr(Net1(lambda a: P.SoftmaxCrossEntropyWithLogits()(a, "
            "lab)[0]))(Tensor(np.array("
            "[[0.0, 0.0]], np.float32))))\n"
            "print(gr(Net1(lambda a: ops.clip_by_value(a, -1.0, 1.0)))(v))\n"
            "bw = Tensor(np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]], np.float32))\n"
            "bn = P.BatchNorm(is_training=True)\n"
            "one, zero = Tensor(np.ones(2, np.float32)), Tensor(np.zeros(2, np.float32))\n"
            "f = Net1(lambda a: bn(a, one, zero, Tensor(np.zeros(2, np.float32)), "
            "Tensor(np.ones(2, np.float32)))[0] * bw)\n"
            "print(gr(f)(Tensor(np.array([[1.0, 2.0], [3.0, 6.0], [2.0, 1.0]], np.float32))))\n",
            "[[ 4.  5.  6.]\n [ 8.  9. 10.]]\n"
            "[[1.  0.2 1. ]\n [1.  1.  0.2]] [[1.050701  0.2379328 1.050701 ]\n [1.050701  "
            "1.050701  "
            "1.5907941]]\n"
            "[[1.         0.13533528 1.        ]\n [1.         1.         0.9048374 ]] [[1. 1. "
            "1.]\n "
            "[0. 1. 0.]]\n"
            "[[2. 0. 0.]\n [0. 1. 1.]]\n[[4. 5. 6.]\n [1. 2. 3.]]\n"
            "[[-0.2689414  -0.8807971  -0.04742587]\n [-0.43782347 -0.11920297 -0.52497923]]\n"
            "[[ 0.03199998 -0.02400002]]\n[[-0.5  0.5]]\n[[1. 0. 0.]\n [1. 0. 1.]]\n"
            "[[ 0.20413183  0.        ]\n [ 0.20411332  0.        ]\n [-0.4082452   0.        "
            "]]\n");
    }
};

QTEST_GUILESS_MAIN(TestOpsScatterLoss)
#include "test_ops_scatter_loss.moc"
