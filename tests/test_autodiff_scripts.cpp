// Automatic differentiation end to end: GradOperation, ops.grad and ops.value_and_grad in
// construct (and made in __init__) against known gradients and central finite differences in
// float64, if/else on a tensor, second order, has_aux, a training step.
#include <QtTest>

#include <numeric>
#include <set>

#include <string>

#include "autodiff_fixture.h"

using namespace irscope;
using namespace autodiff_test;

namespace {

// A script checking the gradients of `body` (a function of float64 tensors x (2, 3) and
// y (3,)) against central finite differences; prints "ok" or the worst error.
std::string finiteDifferenceScript(const std::string& body) {
    return std::string(kHeader) +
           "idx = Tensor(np.array([1, 0, 1]), ms.int32)\n"
           "class Net(nn.Cell):\n"
           "    def construct(self, x, y):\n" +
           body +
           "class Grads(nn.Cell):\n"
           "    def __init__(self, net):\n"
           "        super().__init__()\n"
           "        self.net = net\n"
           "        self.grad = C.GradOperation(get_all=True)\n"
           "    def construct(self, x, y):\n"
           "        return self.grad(self.net)(x, y)\n"
           "net = Net()\n"
           "xv = np.array([[0.5, -1.2, 2.0], [1.5, 0.3, -0.4]])\n"
           "yv = np.array([0.7, -0.9, 1.3])\n"
           "gx, gy = Grads(net)(Tensor(xv, ms.float64), Tensor(yv, ms.float64))\n"
           "def loss(a, b):\n"
           "    return float(net(Tensor(a, ms.float64), Tensor(b, ms.float64)).asnumpy())\n"
           "eps = 1e-6\n"
           "err = 0.0\n"
           "for i in range(2):\n"
           "    for j in range(3):\n"
           "        a = xv.copy(); a[i, j] += eps\n"
           "        b = xv.copy(); b[i, j] -= eps\n"
           "        fd = (loss(a, yv) - loss(b, yv)) / (2 * eps)\n"
           "        err = max(err, abs(fd - float(gx.asnumpy()[i, j])))\n"
           "for j in range(3):\n"
           "    a = yv.copy(); a[j] += eps\n"
           "    b = yv.copy(); b[j] -= eps\n"
           "    fd = (loss(xv, a) - loss(xv, b)) / (2 * eps)\n"
           "    err = max(err, abs(fd - float(gy.asnumpy()[j])))\n"
           "print(gx.shape, gy.shape, 'ok' if err < 1e-6 else err)\n";
}

}  // namespace

class TestAutodiffScripts : public QObject {
    Q_OBJECT

private slots:
    // ---- end to end --------------------------------------------------------------------------

    // Scripts whose whole check is what they print: one row each.
    void scriptOutput_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("expected");
        // d(x*x + 3x)/dx = 2x + 3: 7 at 2.
        QTest::newRow("polynomialGradient")
            << QString::fromStdString(std::string("class Net(nn.Cell):\n"
                                                  "    def construct(self, x):\n"
                                                  "        return x * x + 3 * x\n"
                                                  "class G(nn.Cell):\n"
                                                  "    def __init__(self, net):\n"
                                                  "        super().__init__()\n"
                                                  "        self.net = net\n"
                                                  "        self.grad = C.GradOperation()\n"
                                                  "    def construct(self, x):\n"
                                                  "        return self.grad(self.net)(x)\n"
                                                  "print(G(Net())(Tensor([2.0, -1.0])))\n"))
            << QString::fromStdString(std::string("[7. 1.]\n"));
        // A two-layer MLP (float64 weights): input and weight gradients (get_all + get_by_list
        // with a ParameterTuple) against finite differences.
        QTest::newRow("mlpMatchesFiniteDifferences")
            << QString::fromStdString(std::string(
                   "class Mlp(nn.Cell):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.w1 = Parameter(Tensor(np.array([[0.3, -0.2, 0.5], [0.1, 0.4, "
                   "-0.6], [-0.3, 0.2, 0.7], [0.5, -0.5, 0.1]]), ms.float64), name='w1')\n"
                   "        self.b1 = Parameter(Tensor(np.array([0.1, -0.1, 0.2, 0.0]), "
                   "ms.float64), name='b1')\n"
                   "        self.mm = ops.MatMul(transpose_b=True)\n"
                   "        self.w2 = Parameter(Tensor(np.array([[0.2, -0.4, 0.3, 0.6], [-0.1, "
                   "0.5, 0.2, -0.3]]), ms.float64), name='w2')\n"
                   "    def construct(self, x):\n"
                   "        h = ops.tanh(ops.bias_add(ops.matmul(x, self.w1.T), self.b1))\n"
                   "        return ops.reduce_mean(ops.sigmoid(self.mm(h, self.w2)) * 2.0)\n"
                   "class Grads(nn.Cell):\n"
                   "    def __init__(self, net):\n"
                   "        super().__init__()\n"
                   "        self.net = net\n"
                   "        self.weights = ParameterTuple(net.trainable_params())\n"
                   "        self.grad = C.GradOperation(get_all=True, get_by_list=True)\n"
                   "    def construct(self, x):\n"
                   "        return self.grad(self.net, self.weights)(x)\n"
                   "net = Mlp()\n"
                   "xv = np.array([[0.5, -1.0, 2.0], [1.0, 0.3, -0.2]])\n"
                   "(gx,), gw = Grads(net)(Tensor(xv, ms.float64))\n"
                   "def loss(x):\n"
                   "    return float(net(Tensor(x, ms.float64)).asnumpy())\n"
                   "eps = 1e-6\n"
                   "err = 0.0\n"
                   "for i in range(2):\n"
                   "    for j in range(3):\n"
                   "        a = xv.copy(); a[i, j] += eps\n"
                   "        b = xv.copy(); b[i, j] -= eps\n"
                   "        err = max(err, abs((loss(a) - loss(b)) / (2 * eps) - "
                   "float(gx.asnumpy()[i, j])))\n"
                   "for k, p in enumerate([net.w1, net.w2]):\n"
                   "    w = p.asnumpy()\n"
                   "    for i in range(w.shape[0]):\n"
                   "        for j in range(w.shape[1]):\n"
                   "            a = w.copy(); a[i, j] += eps\n"
                   "            p.set_data(Tensor(a, ms.float64)); fa = loss(xv)\n"
                   "            a[i, j] -= 2 * eps\n"
                   "            p.set_data(Tensor(a, ms.float64)); fb = loss(xv)\n"
                   "            p.set_data(Tensor(w, ms.float64))\n"
                   "            err = max(err, abs((fa - fb) / (2 * eps) - float(gw[2 * "
                   "k].asnumpy()[i, j])))\n"
                   "print(len(gw), gw[1].shape, 'ok' if err < 1e-7 else err)\n"))
            << QString::fromStdString(std::string("3 (4,) ok\n"));
        // nn.Dense (float32): y = x W^T + b, loss = sum(y): dW = ones^T x, db = rows.
        QTest::newRow("denseWeightGradients")
            << QString::fromStdString(
                   std::string("class G(nn.Cell):\n"
                               "    def __init__(self, net):\n"
                               "        super().__init__()\n"
                               "        self.net = net\n"
                               "        self.grad = C.GradOperation(get_by_list=True)\n"
                               "        self.weights = ParameterTuple(net.trainable_params())\n"
                               "    def construct(self, x):\n"
                               "        return self.grad(self.net, self.weights)(x)\n"
                               "dense = nn.Dense(3, 2)\n"
                               "gw, gb = G(dense)(Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))\n"
                               "print(gw)\n"
                               "print(gb)\n"))
            << QString::fromStdString(std::string("[[5. 7. 9.]\n [5. 7. 9.]]\n[2. 2.]\n"));
        // A grad call inside the differentiated function is expanded first: second derivatives.
        QTest::newRow("secondOrderGradient")
            << QString::fromStdString(std::string(
                   "def cube(x):\n"
                   "    return x * x * x\n"
                   "class First(nn.Cell):\n"
                   "    def construct(self, x):\n"
                   "        return ops.grad(cube)(x)\n"
                   "class Second(nn.Cell):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.first = First()\n"
                   "        self.grad = C.GradOperation()\n"
                   "    def construct(self, x):\n"
                   "        return self.grad(self.first)(x)\n"
                   "print(First()(Tensor([2.0, 3.0])), Second()(Tensor([2.0, 3.0])))\n"))
            << QString::fromStdString(std::string("[12. 27.] [12. 18.]\n"));
        // has_aux: only output 0 is differentiated; grad returns (grads, aux), value_and_grad the
        // whole output as the value. A tuple output without has_aux: every element gets ones.
        QTest::newRow("hasAuxAndTupleOutputs")
            << QString::fromStdString(
                   std::string("def aux_fn(x, y):\n"
                               "    return ops.reduce_sum(x * y), y * 2.0\n"
                               "def two(x):\n"
                               "    return x * 2.0, x * x\n"
                               "class Net(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        g, aux = ops.grad(aux_fn, (0, 1), has_aux=True)(x, y)\n"
                               "        v, g2 = ops.value_and_grad(aux_fn, 0, has_aux=True)(x, y)\n"
                               "        return g[0], g[1], aux[0], v[0], g2, ops.grad(two)(x)\n"
                               "for t in Net()(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])):\n"
                               "    print(t)\n"))
            << QString::fromStdString(
                   std::string("[3. 4.]\n[1. 2.]\n[6. 8.]\n11.0\n[3. 4.]\n[4. 6.]\n"));
        // Grad functions made in __init__ (the TrainOneStep pattern) differentiate when construct
        // calls them; called eagerly they are not supported yet.
        QTest::newRow("gradFunctionsMadeOnTheHost")
            << QString::fromStdString(std::string(
                   "class Net(nn.Cell):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.w = Parameter(Tensor([[1.0, 2.0]]), name='w')\n"
                   "    def construct(self, x):\n"
                   "        return ops.reduce_sum(ops.matmul(x, self.w.T))\n"
                   "class TrainOneStep(nn.Cell):\n"
                   "    def __init__(self, net):\n"
                   "        super().__init__()\n"
                   "        self.weights = ParameterTuple(net.trainable_params())\n"
                   "        self.grad_fn = ops.value_and_grad(net, None, self.weights)\n"
                   "        self.input_grad = C.GradOperation(get_all=True)(net)\n"
                   "    def construct(self, x):\n"
                   "        loss, (dw,) = self.grad_fn(x)\n"
                   "        return loss, dw, self.input_grad(x)[0]\n"
                   "net = Net()\n"
                   "for t in TrainOneStep(net)(Tensor([[1.0, 2.0], [3.0, 4.0]])):\n"
                   "    print(t)\n"
                   "print(ops.grad(net)(Tensor([[1.0, 2.0]])))\n"))
            << QString::fromStdString(
                   std::string("16.0\n[[4. 6.]]\n[[1. 2.]\n [1. 2.]]\n[[1. 2.]]\n"));
        // ---- while loops on tensor conditions ----------------------------------------------
        // x <- x * x + y until x >= y: 1.1 -> 9.21 (one step); d/dx = 2x = 2.2, d/dy = 1.
        QTest::newRow("whileLoopInputGradients")
            << QString::fromStdString(std::string(
                   "class Net(nn.Cell):\n"
                   "    def construct(self, x, y):\n"
                   "        while x < y:\n"
                   "            x = x * x + y\n"
                   "        return x\n"
                   "class G(nn.Cell):\n"
                   "    def __init__(self, net):\n"
                   "        super().__init__()\n"
                   "        self.net = net\n"
                   "        self.grad = C.GradOperation(get_all=True)\n"
                   "    def construct(self, x, y):\n"
                   "        return self.grad(self.net)(x, y)\n"
                   "gx, gy = G(Net())(Tensor([1.1], ms.float32), Tensor([8.0], ms.float32))\n"
                   "print(gx, gy)\n"
                   "gx, gy = G(Net())(Tensor([9.0], ms.float32), Tensor([8.0], ms.float32))\n"
                   "print(gx, gy)\n"))
            << QString::fromStdString(std::string("[2.2] [1.]\n[1.] [0.]\n"));
        // Weights read in the loop body and after it: out = 1 * w^3 + w, d/dw = 3w^2 + 1.
        QTest::newRow("whileLoopWeightGradients")
            << QString::fromStdString(
                   std::string("class Net(nn.Cell):\n"
                               "    def __init__(self):\n"
                               "        super().__init__()\n"
                               "        self.w = Parameter(Tensor([1.0, 2.0, 3.0]), name='w')\n"
                               "        self.b = Parameter(Tensor([5.0, 5.0, 5.0]), name='b')\n"
                               "    def construct(self, i, n):\n"
                               "        out = ops.ones((3,), ms.float32)\n"
                               "        while i < n:\n"
                               "            out = out * self.w\n"
                               "            i = i + 1\n"
                               "        return out + self.w\n"
                               "class G(nn.Cell):\n"
                               "    def __init__(self, net):\n"
                               "        super().__init__()\n"
                               "        self.net = net\n"
                               "        self.weights = ParameterTuple(net.trainable_params())\n"
                               "        self.grad = C.GradOperation(get_by_list=True)\n"
                               "    def construct(self, i, n):\n"
                               "        return self.grad(self.net, self.weights)(i, n)\n"
                               "dw, db = G(Net())(Tensor(0, ms.int32), Tensor(3, ms.int32))\n"
                               "print(dw, db)\n"
                               "dw, db = G(Net())(Tensor(3, ms.int32), Tensor(0, ms.int32))\n"
                               "print(dw, db)\n"))
            << QString::fromStdString(
                   std::string("[ 4. 13. 28.] [0. 0. 0.]\n[1. 1. 1.] [0. 0. 0.]\n"));
        // break, continue and return inside the loop, if inside the loop, the loop inside an
        // if, a loop inside a loop; integer tensors get integer gradients.
        QTest::newRow("whileLoopControlFlowGradients")
            << QString::fromStdString(
                   std::string("class Brk(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        while x < y:\n"
                               "            x = x * 2\n"
                               "            if x > 5:\n"
                               "                break\n"
                               "            x = x + 1\n"
                               "        return x * y\n"
                               "class Cont(nn.Cell):\n"
                               "    def construct(self, x, n):\n"
                               "        i = Tensor(0, ms.int32)\n"
                               "        while i < n:\n"
                               "            i = i + 1\n"
                               "            if i % 2 == 0:\n"
                               "                continue\n"
                               "            x = x * 3\n"
                               "        return x\n"
                               "class Ret(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        while x < y:\n"
                               "            x = x + 1\n"
                               "            if x * 2 > y:\n"
                               "                return x * x\n"
                               "        return x\n"
                               "class InIf(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        if x < y:\n"
                               "            while x < y:\n"
                               "                x = x * 2\n"
                               "        else:\n"
                               "            x = x * 5\n"
                               "        return x + y\n"
                               "class Nested(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        i = Tensor(0, ms.int32)\n"
                               "        while i < 3:\n"
                               "            j = Tensor(0, ms.int32)\n"
                               "            while j < 2:\n"
                               "                x = x * y\n"
                               "                j = j + 1\n"
                               "            i = i + 1\n"
                               "        return x\n"
                               "class IntIf(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        i = Tensor(0, ms.int32)\n"
                               "        out = Tensor(0, ms.int32)\n"
                               "        while i < 10:\n"
                               "            if out <= 20:\n"
                               "                out = x * y + out\n"
                               "            i = i + 1\n"
                               "        return out\n"
                               "class G(nn.Cell):\n"
                               "    def __init__(self, net):\n"
                               "        super().__init__()\n"
                               "        self.net = net\n"
                               "        self.grad = C.GradOperation(get_all=True)\n"
                               "    def construct(self, x, y):\n"
                               "        return self.grad(self.net)(x, y)\n"
                               "f = lambda v: Tensor([v], ms.float32)\n"
                               "print(G(Brk())(f(1.0), f(20.0)))\n"
                               "print(G(Cont())(f(1.0), Tensor(5, ms.int32))[0])\n"
                               "print(G(Ret())(f(1.0), f(7.0)))\n"
                               "print(G(InIf())(f(1.0), f(5.0)), G(InIf())(f(9.0), f(5.0)))\n"
                               "print(G(Nested())(f(1.0), f(2.0)))\n"
                               "print(G(IntIf())(Tensor(1, ms.int32), Tensor(3, ms.int32)))\n"))
            << QString::fromStdString(std::string(
                   "(Tensor(shape=[1], dtype=Float32, value= [ 8.00000000e+01]), Tensor(shape=[1], "
                   "dtype=Float32, value= [ 6.00000000e+00]))\n"
                   "[27.]\n"
                   "(Tensor(shape=[1], dtype=Float32, value= [ 8.00000000e+00]), Tensor(shape=[1], "
                   "dtype=Float32, value= [ 0.00000000e+00]))\n"
                   "(Tensor(shape=[1], dtype=Float32, value= [ 8.00000000e+00]), Tensor(shape=[1], "
                   "dtype=Float32, value= [ 1.00000000e+00])) (Tensor(shape=[1], dtype=Float32, "
                   "value= [ 5.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ "
                   "1.00000000e+00]))\n"
                   "(Tensor(shape=[1], dtype=Float32, value= [ 6.40000000e+01]), Tensor(shape=[1], "
                   "dtype=Float32, value= [ 1.92000000e+02]))\n"
                   "(Tensor(shape=[], dtype=Int32, value= 21), Tensor(shape=[], dtype=Int32, "
                   "value= "
                   "7))\n"));
        // The loop variable indexes the tensor the loop rewrites: the overwritten elements get
        // no gradient of their own, the maximum's gradient (4 elements) goes to its argmax.
        QTest::newRow("whileLoopTensorIndexGradients")
            << QString::fromStdString(std::string(
                   "class Net(nn.Cell):\n"
                   "    def construct(self, idx, end, x):\n"
                   "        while idx < end:\n"
                   "            m = ops.ReduceMax()(x[idx, :, :])\n"
                   "            x[idx, :, 0:2] = m\n"
                   "            idx = idx + 1\n"
                   "        return x\n"
                   "g = C.GradOperation(get_all=True)\n"
                   "x = Tensor(np.array([[[1, 5], [2, 0]], [[3, 0], [0, 9]]]).astype(np.float32))\n"
                   "gi, ge, gx = g(Net())(Tensor(0, ms.int32), Tensor(2, ms.int32), x)\n"
                   "print(gi, ge, gx.asnumpy().tolist())\n"))
            << QString::fromStdString(
                   std::string("0 0 [[[0.0, 4.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 4.0]]]\n"));
        // Twelve unrolled iterations with two ifs on a tensor each (one with continue): every
        // branch graph is differentiated once per way it is bound, not once per path reaching
        // it (2^n paths: this never finished before). d/dx is the product of the taken
        // path's factors, 1.5^9 * 0.5^3 here.
        QTest::newRow("nestedIfsInUnrolledLoopGradient")
            << QString::fromStdString(std::string(
                   "class Net(nn.Cell):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.w = Parameter(Tensor(np.array([3.0], np.float32)), name='w')\n"
                   "    def construct(self, x):\n"
                   "        for _ in range(12):\n"
                   "            if x > 50:\n"
                   "                x = x * 0.5\n"
                   "                continue\n"
                   "            if x < self.w:\n"
                   "                x = x + self.w\n"
                   "            x = x * 1.5\n"
                   "        return x\n"
                   "x = Tensor(np.array([1.0], np.float32))\n"
                   "(gx,) = C.GradOperation(get_all=True)(Net())(x)\n"
                   "print(Net()(x), gx)\n"))
            << QString::fromStdString(std::string("[57.66504] [14.41626]\n"));
        // ---- PyNative mode -------------------------------------------------------------------
        // GradOperation, ops.grad and ops.value_and_grad called from Python in PyNative mode
        // give GRAPH_MODE's numbers, through a loop on a tensor and a Parameter.
        QTest::newRow("pynativeGradMatchesGraphMode")
            << QString::fromStdString(std::string(
                   "class Net(nn.Cell):\n"
                   "    def __init__(self):\n"
                   "        super().__init__()\n"
                   "        self.w = Parameter(Tensor([2.0, 3.0]), name='w')\n"
                   "    def construct(self, x, y):\n"
                   "        while ops.reduce_sum(x) < 20:\n"
                   "            x = x * self.w + y\n"
                   "        return ops.reduce_sum(x * x)\n"
                   "net = Net()\n"
                   "x = Tensor([1.0, 1.0]); y = Tensor([0.5, 0.5])\n"
                   "out = []\n"
                   "for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):\n"
                   "    ms.set_context(mode=mode)\n"
                   "    gx, gy = C.GradOperation(get_all=True)(net)(x, y)\n"
                   "    (gw,) = C.GradOperation(get_by_list=True)(net, "
                   "ParameterTuple(net.trainable_params()))(x, y)\n"
                   "    (g0, g1), (gw2,) = ops.grad(net, (0, 1), net.trainable_params())(x, y)\n"
                   "    v, g = ops.value_and_grad(net)(x, y)\n"
                   "    out.append([t.asnumpy().tolist() for t in (gx, gy, gw, g0, g1, gw2, v, "
                   "g)])\n"
                   "print(out[1])\n"
                   "print(out[0] == out[1])\n"))
            << QString::fromStdString(std::string(
                   "[[184.0, 1809.0], [161.0, 871.0], [333.5, 2043.5], [184.0, 1809.0], [161.0, "
                   "871.0], [333.5, 2043.5], 1254.5, [184.0, 1809.0]]\nTrue\n"));
        // GradOperation's flags are attributes of the instance, as MindSpore's are; setting one
        // changes what a later application computes.
        QTest::newRow("gradOperationAttributes")
            << QString::fromStdString(
                   std::string("g = C.GradOperation(get_all=True, sens_param=True)\n"
                               "print(g.get_all, g.get_by_list, g.sens_param)\n"
                               "h = C.GradOperation()\n"
                               "print(h.get_all, h.get_by_list, h.sens_param)\n"
                               "h.get_all = True\n"
                               "class Net(nn.Cell):\n"
                               "    def construct(self, x, y):\n"
                               "        return x * y\n"
                               "net = Net()\n"
                               "f = h(net)\n"
                               "print(f is h(net), f is C.GradOperation(get_all=True)(net))\n"
                               "print(f(Tensor([2.0]), Tensor([3.0])))\n"))
            << QString::fromStdString(
                   std::string("True False True\nFalse False False\nTrue False\n(Tensor(shape=[1], "
                               "dtype=Float32, value= "
                               "[ 3.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ "
                               "2.00000000e+00]))\n"));
    }

    void scriptOutput() {
        QFETCH(QString, script);
        QFETCH(QString, expected);
        EXPECT_OUTPUT(runScript(std::string(kHeader) + script.toStdString()),
                      expected.toStdString());
    }

    void elementwiseOpsMatchFiniteDifferences_data() {
        QTest::addColumn<QString>("body");
        QTest::newRow("add sub mul div broadcast")
            << "        return ops.reduce_sum((x - y) * (x + y) / (y * y + 2.0))\n";
        QTest::newRow("neg square sqrt exp log")
            << "        return ops.reduce_sum(-ops.sqrt(ops.square(x) + 1.0) * ops.exp(y) + "
               "ops.log(x * x + y * y + 1.0))\n";
        QTest::newRow("pow constant exponent") << "        return ops.reduce_sum(ops.pow(x * x + "
                                                  "1.0, 1.5) + ops.pow(y * y + 2.0, 3.0))\n";
        QTest::newRow("while loop with break on a tensor condition")
            << "        i = 0 * ops.reduce_sum(y)\n"
               "        while i < 3:\n"
               "            x = x * y + ops.sqrt(x * x + 1.0)\n"
               "            if ops.reduce_sum(x * x) > 100.0:\n"
               "                break\n"
               "            i = i + 1\n"
               "        return ops.reduce_sum(x * x)\n";
        QTest::newRow("maximum minimum")
            << "        return ops.reduce_sum(ops.maximum(x, y) * 2.0 + ops.minimum(x, y * 0.5))\n";
        QTest::newRow("select")
            << "        return ops.reduce_sum(ops.select(x > y, x * y, x - y))\n";
        QTest::newRow("reduce_prod")
            << "        return ops.reduce_sum(ops.reduce_prod(x * y, 1)) + "
               "ops.reduce_prod(y * y + 1.0) + ops.reduce_prod(x, 0, keep_dims=True).sum()\n";
        QTest::newRow("activations") << "        return ops.reduce_sum(ops.relu(x) * "
                                        "ops.sigmoid(y) + ops.tanh(x * y) + ops.gelu(x))\n";
        QTest::newRow("softmax reduce_mean") << "        return ops.reduce_mean(ops.softmax(x * y, "
                                                "axis=-1) * x) + ops.reduce_mean(x, 0).sum()\n";
        QTest::newRow("reshape transpose expand squeeze")
            << "        return ops.reduce_sum(ops.reshape(x, (3, 2)).T * "
               "ops.squeeze(ops.expand_dims(y, 0), 0) * y)\n";
        QTest::newRow("matmul batchmatmul")
            << "        return ops.reduce_sum(ops.matmul(x, ops.reshape(y, (3, 1))) * "
               "ops.matmul(x.T, x).sum())\n";
        QTest::newRow("slice gather concat stack tile abs")
            << "        a = x[:, 1:3] * y[0:2] + ops.gather(x, idx, 0).sum()\n"
               "        b = ops.concat((x, x * y), 1).sum() * y[1] + ops.stack((y, y * y), "
               "0).sum()\n"
               "        return ops.reduce_sum(a) + b + ops.tile(y, (2, 1)).sum() * "
               "ops.abs(x).sum()\n";
        QTest::newRow("slices with steps")
            << "        a = ops.reduce_sum(x[:, ::2] * y[::-2]) + ops.reduce_sum(x[::-1, 2] * "
               "y[1])\n"
               "        return a + ops.reduce_sum(x[1, ::-1] * y) + ops.reduce_sum(x[:, 2:0:-2])\n";
        QTest::newRow("gather on axis 1")
            << "        return ops.reduce_sum(ops.gather(x, idx, 1) * ops.gather(y, idx, 0))\n";
        QTest::newRow("fmod") << "        return ops.reduce_sum(ops.fmod(x * 3.0, y + 2.0) * y)\n";
        QTest::newRow("floor_mod reduce_max reduce_min hswish")
            << "        a = ops.floor_mod(x * 3.0, y + 2.0) * y + ops.ReduceMax(True)(x * y, 1)\n"
               "        return ops.reduce_sum(a + ops.ReduceMin()(x, 0) + ops.HSwish()(x * 1.7))\n";
        QTest::newRow("dropout keeping everything")
            << "        return ops.reduce_sum(ops.dropout(x * y, p=0.0) * x)\n";
        QTest::newRow("layer_norm") << "        return ops.reduce_sum(ops.LayerNorm(1, 1, 1e-5)(x "
                                       "* 2.0, y, y * 0.5)[0] * x)\n";
        QTest::newRow("cast addn")
            << "        return ops.reduce_sum(ops.addn([x, x * y, ops.cast(x, ms.float64)]))\n";
    }

    void elementwiseOpsMatchFiniteDifferences() {
        QFETCH(QString, body);
        const Run r = runScript(finiteDifferenceScript(body.toStdString()));
        EXPECT_OUTPUT(r, "(2, 3) (3,) ok\n");
    }

    // ReduceProd at zeros: the product of the other elements (a row with one zero gives that
    // product at the zero and 0 elsewhere; two zeros, 0 everywhere), not prod / x.
    void reduceProdGradientAtZeros() {
        const Run r = runScript(std::string(kHeader) +
                                "def f(x):\n"
                                "    return ops.reduce_prod(x, 1).sum()\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return ops.grad(f)(x)\n"
                                "print(Net()(Tensor([[2.0, 3.0, 4.0], [2.0, 0.0, 5.0], "
                                "[0.0, 3.0, 0.0]])))\n");
        EXPECT_OUTPUT(r, "[[12.  8.  6.]\n [ 0. 10.  0.]\n [ 0.  0.  0.]]\n");
    }

    // sens_param: the last input scales the output's gradient.
    void sensParam() {
        const Run r = runScript(
            std::string(kHeader) +
            "class Net(nn.Cell):\n"
            "    def construct(self, x, y):\n"
            "        return x * y\n"
            "class G(nn.Cell):\n"
            "    def __init__(self, net):\n"
            "        super().__init__()\n"
            "        self.net = net\n"
            "        self.grad = C.GradOperation(get_all=True, sens_param=True)\n"
            "    def construct(self, x, y, s):\n"
            "        return self.grad(self.net)(x, y, s)\n"
            "dx, dy = G(Net())(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]), Tensor([10.0, 100.0]))\n"
            "print(dx, dy)\n");
        EXPECT_OUTPUT(r, "[ 30. 400.] [ 10. 200.]\n");
    }

    // ops.grad / ops.value_and_grad in construct: positions, weights, value.
    void gradAndValueAndGradFunctions() {
        const Run r = runScript(
            std::string(kHeader) +
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.w = Parameter(Tensor([2.0, 3.0]), name='w')\n"
            "    def construct(self, x, y):\n"
            "        return ops.reduce_sum(x * y * self.w)\n"
            "class G(nn.Cell):\n"
            "    def __init__(self, net):\n"
            "        super().__init__()\n"
            "        self.net = net\n"
            "    def construct(self, x, y):\n"
            "        a = ops.grad(self.net)(x, y)\n"
            "        b = ops.grad(self.net, grad_position=(0, 1))(x, y)\n"
            "        c = ops.grad(self.net, None, self.net.w)(x, y)\n"
            "        v, g = ops.value_and_grad(self.net, 1, weights=(self.net.w,))(x, y)\n"
            "        return a, b, c, v, g\n"
            "a, b, c, v, g = G(Net())(Tensor([1.0, 2.0]), Tensor([5.0, 7.0]))\n"
            "print(a)\n"
            "print(b)\n"
            "print(c)\n"
            "print(v)\n"
            "print(g)\n");
        EXPECT_OUTPUT(
            r,
            "[10. 21.]\n"
            "(Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+01,  2.10000000e+01]), "
            "Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  6.00000000e+00]))\n"
            "[ 5. 14.]\n"
            "52.0\n"
            "(Tensor(shape=[2], dtype=Float32, value= [ 2.00000000e+00,  6.00000000e+00]), "
            "(Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e+00,  1.40000000e+01]),))\n");
    }

    // Nodes of the backward pass carry MindSpore's scope: "Gradients/" + the forward scope +
    // "/Grad_<Prim>" of the primitive whose bprop made them; the forward copy keeps its own.
    void backwardNodesHaveGradientsScope() {
        const Run r = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def __init__(self):\n"
                                "        super().__init__()\n"
                                "        self.w = Parameter(Tensor([2.0, 3.0]), name='w')\n"
                                "    def construct(self, x):\n"
                                "        return ops.reduce_sum(ops.exp(x) * self.w)\n"
                                "class G(nn.Cell):\n"
                                "    def __init__(self, net):\n"
                                "        super().__init__()\n"
                                "        self.net = net\n"
                                "        self.grad = C.GradOperation()\n"
                                "    def construct(self, x):\n"
                                "        return self.grad(self.net)(x)\n"
                                "print(G(Net())(Tensor([0.0, 1.0])))\n");
        EXPECT_OUTPUT(r, "[2.       8.154845]\n");
        const auto m = r.session->compiles.at(0).find("meta_fg_expand")->module();
        std::set<std::string> scopes;
        for (ir::FuncGraph* g : m->reachableGraphs()) {
            for (ir::CNode* c : g->topoOrder()) {
                scopes.insert(c->debug().scope);
            }
        }
        const std::string all =
            std::accumulate(scopes.begin(), scopes.end(), std::string(),
                            [](std::string acc, const std::string& x) { return acc + x + "\n"; });
        QVERIFY2(scopes.count("Gradients/Default/net-Net/Grad_Mul") == 1, all.c_str());
        QVERIFY2(scopes.count("Gradients/Default/net-Net/Grad_Exp") == 1, all.c_str());
        QVERIFY2(scopes.count("Default/net-Net") == 1, all.c_str());
    }

    // An if on a tensor condition: the Switch chooses between fprop graphs, whose bprops
    // return the gradients of the same values; each call takes another branch.
    void ifOnTensorConditionTakesBothBranches() {
        const Run r =
            runScript(std::string(kHeader) +
                      "class Net(nn.Cell):\n"
                      "    def __init__(self):\n"
                      "        super().__init__()\n"
                      "        self.w = Parameter(Tensor([2.0, 3.0]), name='w')\n"
                      "    def construct(self, x, y):\n"
                      "        if x.sum() > y.sum():\n"
                      "            z = x * x * self.w\n"
                      "        else:\n"
                      "            z = x * y * 3.0\n"
                      "        return ops.reduce_sum(z * y)\n"
                      "class G(nn.Cell):\n"
                      "    def __init__(self, net):\n"
                      "        super().__init__()\n"
                      "        self.net = net\n"
                      "        self.grad = C.GradOperation(get_all=True, get_by_list=True)\n"
                      "        self.weights = ParameterTuple(net.trainable_params())\n"
                      "    def construct(self, x, y):\n"
                      "        return self.grad(self.net, self.weights)(x, y)\n"
                      "g = G(Net())\n"
                      "(dx, dy), (dw,) = g(Tensor([3.0, 4.0]), Tensor([1.0, 1.0]))\n"
                      "print(dx, dy, dw)\n"
                      "(dx, dy), (dw,) = g(Tensor([1.0, 1.0]), Tensor([3.0, 4.0]))\n"
                      "print(dx, dy, dw)\n");
        // x.sum() > y.sum(): L = sum(x*x*w*y); else L = sum(3*x*y*y).
        EXPECT_OUTPUT(r, "[12. 24.] [18. 48.] [ 9. 16.]\n[27. 48.] [18. 24.] [0. 0.]\n");
        // One compile; after meta_fg_expand the branches are fprop/bprop graphs and every
        // node the expansion made has a type, a scope and the source line it stands for.
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
        const passes::PassSnapshot* snap = r.session->compiles[0].find("meta_fg_expand");
        QVERIFY(snap != nullptr);
        const auto m = snap->module();
        for (const char* name : {"\u25b8\u2713Net_construct", "\u25c2\u2713Net_construct",
                                 "\u25b8\u2717Net_construct", "\u25c2\u2717Net_construct"}) {
            QVERIFY2(m->findGraph(name) != nullptr, name);
        }
        QCOMPARE(QString::fromStdString(untyped(*m)), QString());
        for (ir::FuncGraph* g : m->reachableGraphs()) {
            for (ir::CNode* c : g->topoOrder()) {
                if (c != g->returnNode()) {
                    QVERIFY2(!c->debug().trace.empty() && c->debug().trace.back().line > 0,
                             (g->name() + " " + std::to_string(c->id())).c_str());
                    QVERIFY2(!c->debug().scope.empty(),
                             (g->name() + " " + std::to_string(c->id())).c_str());
                }
            }
        }
    }

    // A training step as MindSpore's TrainOneStepCell writes it: the loss, sens filled with
    // ones, weight gradients with get_by_list + sens_param, an SGD update with F.assign.
    void trainOneStepConverges() {
        const Run r =
            runScript(std::string(kHeader) +
                      "class Net(nn.Cell):\n"
                      "    def __init__(self):\n"
                      "        super().__init__()\n"
                      "        self.w = Parameter(Tensor([1.0, -1.0]), name='w')\n"
                      "    def construct(self, x, t):\n"
                      "        d = ops.reduce_sum(x * self.w) - t\n"
                      "        return d * d\n"
                      "class TrainOneStep(nn.Cell):\n"
                      "    def __init__(self, net):\n"
                      "        super().__init__()\n"
                      "        self.net = net\n"
                      "        self.weights = ParameterTuple(net.trainable_params())\n"
                      "        self.grad = C.GradOperation(get_by_list=True, sens_param=True)\n"
                      "    def construct(self, *inputs):\n"
                      "        loss = self.net(*inputs)\n"
                      "        sens = ops.fill(loss.dtype, loss.shape, 1.0)\n"
                      "        (dw,) = self.grad(self.net, self.weights)(*inputs, sens)\n"
                      "        F.assign(self.net.w, self.net.w - 0.1 * dw)\n"
                      "        return loss\n"
                      "net = Net()\n"
                      "step = TrainOneStep(net)\n"
                      "step(Tensor([1.0, 2.0]), Tensor(3.0))\n"
                      "print(net.w.asnumpy())\n"
                      "for i in range(3):\n"
                      "    loss = step(Tensor([1.0, 2.0]), Tensor(3.0))\n"
                      "print(float(loss) < 1e-6, net.w.asnumpy())\n");
        // loss = (w.x - 3)^2 at w = (1, -1): dw = 2 (w.x - 3) x = (-8, -16), so one step
        // lands on w = (1.8, 0.6) where the loss is 0 and stays there.
        EXPECT_OUTPUT(r, "[1.8 0.6]\nTrue [1.8 0.6]\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestAutodiffScripts)
#include "test_autodiff_scripts.moc"
