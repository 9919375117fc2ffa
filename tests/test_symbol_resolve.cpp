// symbol_resolve: sub-cells and methods become graphs (scopes, one graph per instance),
// Parameters become entry weights, ops and primitive instances become bound primitives,
// jit_class objects, composites (MultitypeFuncGraph, HyperMap, vmap), native nn layers,
// lazy_inline reuse, keyword/default binding, host constants.
#include "graph_builder_fixture.h"

using namespace gbtest;

class TestSymbolResolve : public QObject {
    Q_OBJECT

private slots:
    void weightsAndSubCells() {
        Compiled c = compile(script(R"(
class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    def construct(self, x):
        return x * self.w
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Block(), Block()])
        self.param = Parameter(Tensor(np.ones(3, np.float32)), name="param")
    def construct(self, x):
        for b in self.blocks:
            x = b(x)
        return x + self.param
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.resolved, "Block_construct"));
        QVERIFY(hasGraph(c.resolved, "Block_construct_1"));
        const auto& w = compiler::entryWeights(*c.state);
        QCOMPARE(w.size(), std::size_t{3});
        QVERIFY(c.resolved.find("has_default") != std::string::npos);
        QVERIFY(c.resolved.find("Default/blocks-CellList/0-Block") != std::string::npos);
        QVERIFY(c.resolved.find("Default/blocks-CellList/1-Block") != std::string::npos);
        QVERIFY(c.resolved.find("blocks.0.w") != std::string::npos);
        QVERIFY(c.resolved.find("%para2_param") != std::string::npos || c.resolved.find("_param") != std::string::npos);
    }

    void primitivesWithAttributes() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reduce = P.ReduceSum(keep_dims=True)
        self.relu = nn.ReLU()
    def construct(self, x):
        y = self.reduce(x, 0)
        print(y)
        return self.relu(ops.reduce_sum(y, axis=0))
target = Net()
args = (Tensor(np.ones((2, 3), np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("keep_dims: Bool(1)") != std::string::npos);
        QVERIFY(c.resolved.find("Print(") != std::string::npos);
        QVERIFY(c.resolved.find("StopGradient(") != std::string::npos);
        QVERIFY(c.resolved.find("Depend(") != std::string::npos);
        QVERIFY(c.resolved.find("ReLU(") != std::string::npos);
        QVERIFY(c.resolved.find("keywords") == std::string::npos);
    }

    void jitClass() {
        Compiled c = compile(script(R"(
@ms.jit_class
class Inner:
    def __init__(self, k):
        self.k = k
    def scale(self, x):
        return x * self.k
    def __call__(self, x):
        return self.scale(x)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner(2)
    def construct(self, x):
        made = Inner(3)
        return self.inner(x) + made.scale(x) + self.inner.k
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.resolved, "Inner___call__"));
        QVERIFY(hasGraph(c.resolved, "Inner_scale"));
        QVERIFY(c.resolved.find("I64(3)") != std::string::npos);
    }

    void jitClassWithoutCall() {
        Compiled c = compile(script(R"(
@ms.jit_class
class InnerNet:
    def __init__(self):
        self.k = 1
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = InnerNet()
    def construct(self, x):
        return self.inner(x)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("ValueError"));
        QCOMPARE(QString::fromStdString(c.errorMessage),
                 QString("MsClassObject: 'InnerNet' has no __call__ function, please check the code."));
    }

    void compositesKeepTheirGraphs() {
        Compiled c = compile(script(R"(
from mindspore.ops import MultitypeFuncGraph, HyperMap
add = MultitypeFuncGraph('add')
@add.register("Tensor", "Tensor")
def add_tensor(x, y):
    return ops.add(x, y)
add_map = HyperMap(add)
def double(v):
    return v * 2
class Net(nn.Cell):
    def construct(self, a, b):
        s = add_map(a, b)
        m = ops.vmap(double, 0, 0)(a[0])
        return s, m, add(a[0], b[0])
x = Tensor(np.ones(2, np.float32))
target = Net()
args = ((x, x), (x, x))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("hyper_map(Prim(MultitypeFuncGraph") != std::string::npos);
        QVERIFY(c.resolved.find("graphs: (@add_tensor)") != std::string::npos);
        QVERIFY(hasGraph(c.resolved, "add_tensor"));  // kept: the primitive refers to it
        QVERIFY(c.resolved.find("in_axes: I64(0)") != std::string::npos);
        QVERIFY(hasGraph(c.resolved, "double"));
    }

    void superAndMethods() {
        Compiled c = compile(script(R"(
class Base(nn.Cell):
    def construct(self, x):
        return x + 1
class Net(Base):
    def helper(self, x):
        return x * 2
    def construct(self, x):
        return self.helper(super(Net, self).construct(super().construct(x)))
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.resolved, "Net_construct"));
        QVERIFY(hasGraph(c.resolved, "Base_construct"));
        QVERIFY(hasGraph(c.resolved, "Net_helper"));
        QCOMPARE(graphCount(c.resolved), 3);
    }

    void isolatedPrintInABranch() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            print("positive", x)
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("Print(\"positive\", %para") != std::string::npos);
        QCOMPARE(count(c.resolved, "StopGradient("), 1);
    }

    void lazyInlineCellsShareConstants() {
        Compiled c = compile(script(R"(
from mindspore.common import lazy_inline
class Block(nn.Cell):
    @lazy_inline
    def __init__(self, hidden):
        super().__init__()
        self.x = 0
        self.w = Parameter(Tensor(np.ones(hidden, np.float32)), name="w")
    def construct(self, h):
        if self.x == 0:
            return ops.relu(h * self.w)
        return ops.tanh(h * self.w)
class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Block(2), Block(2)])
        self.blocks[0].x = 1
    def construct(self, h):
        for b in self.blocks:
            h = b(h)
        return h
target = Model()
args = (Tensor(np.ones(2, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        // The second Block reuses what was compiled from the first: both take Tanh.
        QCOMPARE(count(c.resolved, "= Tanh("), 2);
        QCOMPARE(count(c.resolved, "= ReLU("), 0);
        QCOMPARE(compiler::entryWeights(*c.state).size(), std::size_t{2});  // own weights
    }

    void nativeLayersAndHostConstants() {
        Compiled c = compile(script(R"(
import math
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU()])
        self.scale = math.sqrt(4)
    def construct(self, x):
        bias = Tensor(np.ones((1, 4)), ms.float32)
        return self.seq(x) * self.scale + bias + Tensor(np.zeros(4, np.float32))
target = Net()
args = (Tensor(np.ones((2, 3), np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("MatMul(%para1_x, %para2_seq.0.weight)") != std::string::npos);
        QVERIFY(c.resolved.find("transpose_b: Bool(1)") != std::string::npos);
        QVERIFY(c.resolved.find("BiasAdd(") != std::string::npos);
        QVERIFY(c.resolved.find("Default/seq-SequentialCell/0-Dense") != std::string::npos);
        QVERIFY(c.resolved.find("F32(2)") != std::string::npos);
        QVERIFY(c.resolved.find("Tensor(shape=[1, 4], dtype=Float32") != std::string::npos);
        QVERIFY(c.resolved.find("Tensor(shape=[4], dtype=Float32") != std::string::npos);
    }

    void sequentialCellBindsEachCellsDefaults() {
        // A SequentialCell passes one argument to each cell: the construct's other parameters
        // take their defaults, as when the cell is called directly (MindSpore's
        // tests/st/lazy_inline test_lazy_inline_default_value).
        Compiled c = compile(script(R"(
class B(nn.Cell):
    def construct(self, x, x1=None, x2=2):
        return x + x2
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.SequentialCell([B(), B()])
    def construct(self, x):
        return self.blocks(x)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.resolved, "(%para1_x, None, I64(2))"), 1);
        QCOMPARE(count(c.resolved, ", None, I64(2))"), 2);

        Compiled missing = compile(script(R"(
class B(nn.Cell):
    def construct(self, x, y):
        return x + y
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.SequentialCell([B()])
    def construct(self, x):
        return self.blocks(x)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(missing.errorType), QString("TypeError"));
        QVERIFY2(missing.errorMessage.find("missing 1 required argument: 'y'") != std::string::npos,
                 missing.errorMessage.c_str());
    }

    void keywordsAndDefaultsAreBound() {
        Compiled c = compile(script(R"(
def scale(x, factor=2, shift=0):
    return x * factor + shift
class Net(nn.Cell):
    def helper(self, x, k=3):
        return x - k
    def construct(self, x):
        a = scale(x, shift=5)
        b = self.helper(k=1, x=a)
        return ops.reduce_sum(b, axis=0, keep_dims=True)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("call @scale(%para1_x, I64(2), I64(5))") != std::string::npos);
        QVERIFY(c.resolved.find("I64(1))") != std::string::npos);
        QVERIFY(c.resolved.find("ReduceSum(") != std::string::npos);
        QVERIFY(c.resolved.find("keywords") == std::string::npos);

        Compiled star = compile(script(R"(
def total(first, *rest, bias=0):
    return first + len(rest) + bias
class Net(nn.Cell):
    def construct(self, x):
        return total(x, x, x, bias=1) + total(x)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(star.problem.empty() && star.errorType.empty(), (star.problem + star.errorMessage).c_str());
        QVERIFY(star.resolved.find("call @total(%para1_x, %") != std::string::npos);
        QVERIFY(star.resolved.find("call @total(%para1_x, (), I64(0))") != std::string::npos);

        Compiled bad = compile(script(R"(
def scale(x, factor):
    return x * factor
class Net(nn.Cell):
    def construct(self, x):
        return scale(x, bogus=1)
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(bad.errorType), QString("TypeError"));
        QVERIFY(bad.errorMessage.find("unexpected keyword argument 'bogus'") != std::string::npos);
        QCOMPARE(bad.errorLine, 10);
    }

    void hostContainersFold() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])
        self.table = {"a": 1, "b": 2}
    def construct(self, x):
        n = len(self.layers)
        for k in self.table:
            x = x + self.table[k]
        for i in range(len(self.layers)):
            x = self.layers[i](x)
        for layer in self.layers[1:]:
            x = layer(x)
        return x * n
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.resolved.find("mul(%") != std::string::npos);
        QVERIFY(c.resolved.find(", I64(2))") != std::string::npos);  // len(self.layers)
        QCOMPARE(count(c.resolved, "add("), 2);
        QVERIFY(c.resolved.find("ReLU(") != std::string::npos);
        QCOMPARE(count(c.resolved, "= Tanh("), 2);
    }

    void jitMethodBindsSelf() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 4
    @ms.jit
    def run(self, x):
        return x * self.k
net = Net()
target = Net.run
args = (net, Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.resolved, "Net_run"));
        QCOMPARE(compiler::entryInputs(*c.state).size(), std::size_t{1});  // self is not an input
        QVERIFY(c.resolved.find("mul(%para1_x, I64(4))") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSymbolResolve)
#include "test_symbol_resolve.moc"
