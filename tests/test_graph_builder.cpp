// parse and symbol_resolve: small MindSpore scripts run in an interpreter with the built-in
// modules; the network object and its arguments are fetched from the script's globals, the
// two passes run on a Module, and the printed IR is checked: graph names for if/while/for,
// Switch/Partial shapes, entry parameters and weights, scopes, resolved primitives, errors
// with their Python type, message and line. Every printed stage must verify and survive the
// .ir printer/parser round trip.
#include <QtTest>

#include <regex>

#include "compiler/frontend_passes.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"

using namespace irscope;

namespace {

struct Compiled {
    std::unique_ptr<interp::Interpreter> I;
    std::unique_ptr<ir::Module> m;
    std::shared_ptr<compiler::FrontendState> state;
    std::string parsed, resolved;
    std::string errorType, errorMessage;
    int errorLine = 0;
    std::string problem;  // a verify/round-trip failure, empty when all is well
};

// Runs `src`, then compiles `target` (a global) called with the global tuple `args`.
// A global function that is a @jit wrapper compiles its __wrapped__ function.
Compiled compile(const std::string& src, const compiler::CompileLimits& limits = {}, bool resolve = true) {
    Compiled c;
    c.I = std::make_unique<interp::Interpreter>();
    modules::registerBuiltinModules(*c.I);
    interp::RunResult r = c.I->runScript(src, "net.py");
    if (r.status != interp::RunResult::Status::Ok) {
        c.problem = "script failed: " + r.error;
        return c;
    }
    interp::DictObject& g = *c.I->mainModule()->dict();
    interp::Value target = g.getStr("target");
    if (auto* n = target.as<interp::NativeFunctionObject>(); n && n->dict()) {
        target = n->dict()->getStr("__wrapped__");
    }
    interp::CallArgs args;
    if (auto* t = g.getStr("args").as<interp::TupleObject>()) {
        args.pos = t->items;
    }
    c.m = std::make_unique<ir::Module>();
    passes::PassContext ctx;
    auto check = [&](const char* stage) {
        std::string v = c.m->verify();
        std::string text = ir::printIr(*c.m);
        if (!v.empty()) {
            c.problem = std::string(stage) + ": verify: " + v;
        } else if (std::string again = ir::printIr(*ir::parseIr(text)); again != text) {
            c.problem = std::string(stage) + ": round trip differs:\n" + text + "\n----\n" + again;
        }
        return text;
    };
    try {
        c.state = compiler::makeFrontendState({c.I.get(), target, args, limits});
        compiler::makeParsePass(c.state)->run(*c.m, ctx);
        c.parsed = check("parse");
        if (resolve && c.problem.empty()) {
            compiler::makeSymbolResolvePass(c.state)->run(*c.m, ctx);
            c.resolved = check("symbol_resolve");
        }
        if (qEnvironmentVariableIsSet("IRSCOPE_DUMP") && !c.problem.empty()) {
            qInfo().noquote() << QString::fromStdString(c.problem);
        }
        if (qEnvironmentVariableIsSet("IRSCOPE_DUMP")) {  // for debugging a failing case
            qInfo().noquote() << QString::fromStdString(c.parsed) << "\n=====\n" << QString::fromStdString(c.resolved);
        }
    } catch (const passes::CompileError& e) {
        c.errorType = e.pyType();
        c.errorMessage = e.message();
        c.errorLine = e.where().line;
    }
    return c;
}

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) {
        ++n;
    }
    return n;
}

int graphCount(const std::string& text) {
    return count(text, "\nsubgraph @");
}

bool hasGraph(const std::string& text, const std::string& name) {
    return text.find("subgraph @" + name + "(") != std::string::npos;
}

const char* kHeader = R"(import mindspore as ms
import numpy as np
from mindspore import nn, ops, Tensor, Parameter
import mindspore.ops as P
)";

std::string script(const std::string& body) {
    return std::string(kHeader) + body;
}

}  // namespace

class TestGraphBuilder : public QObject {
    Q_OBJECT

private slots:
    void straightLine() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, y):
        a = ops.sub(x, 1)
        b = ops.add(a, y)
        return b
target = Net()
args = (Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 1);
        QVERIFY(hasGraph(c.parsed, "Net_construct"));
        QVERIFY(c.parsed.find("%para1_x") != std::string::npos);
        QVERIFY(c.parsed.find("%para2_y") != std::string::npos);
        QVERIFY(c.parsed.find("resolve(NameSpace[SymbolStr: 'Namespace:__main__'], \"ops\")") != std::string::npos);
        QVERIFY(c.parsed.find("a = ops.sub(x, 1)") != std::string::npos);  // the source line
        QCOMPARE(compiler::entryInputs(*c.state).size(), std::size_t{2});
        QVERIFY(c.resolved.find("resolve") == std::string::npos);
        QVERIFY(c.resolved.find("Sub(%para1_x, I64(1))") != std::string::npos);
        QVERIFY(c.resolved.find("Add(") != std::string::npos);
        QVERIFY(c.resolved.find("Default") != std::string::npos);
    }

    void ifElseMakesBranchGraphs() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x + 1
        else:
            y = x - 1
        return y * 2
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 4);
        QVERIFY(hasGraph(c.parsed, "✓Net_construct"));
        QVERIFY(hasGraph(c.parsed, "✗Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QCOMPARE(count(c.parsed, "= Switch("), 1);
        QVERIFY(c.parsed.find("Partial(@✓Net_construct, %para1_x)") != std::string::npos);
        QVERIFY(c.parsed.find("bool_(") != std::string::npos);
        QCOMPARE(graphCount(c.resolved), 4);
    }

    void constantConditionsFold() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False
    def construct(self, x, y=None):
        if self.flag:
            x = x + 1
        if y is None:
            x = x * 2
        else:
            x = x * 3
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 1);
        QCOMPARE(count(c.parsed, "mul("), 1);
        QCOMPARE(count(c.parsed, "add("), 0);
        QVERIFY(c.parsed.find("%para2_y") != std::string::npos);
    }

    void whileLoop() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, n):
        i = 0
        while i < n:
            x = x + 1
            i = i + 1
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)), 3)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 4);
        QVERIFY(hasGraph(c.parsed, "↵Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↻Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QVERIFY(c.parsed.find("call @↵Net_construct(") != std::string::npos);
    }

    void forUnrollsAndBreaks() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(3):
            x = x + i
        for v in (1, 2, 3, 4):
            if v == 3:
                break
            x = x * v
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "add("), 3);
        QCOMPARE(graphCount(c.parsed), 1);  // v == 3 is a constant: break folds
        QCOMPARE(count(c.parsed, "mul("), 2);
    }

    void forBreakOnRuntimeCondition() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(2):
            if x.sum() > 3:
                break
            x = x + 1
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "= Switch("), 2);
        QVERIFY(graphCount(c.parsed) >= 5);
    }

    void unrollLimit() {
        compiler::CompileLimits limits;
        limits.maxUnroll = 5;
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(10):
            x = x + i
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"),
                             limits);
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QVERIFY(c.errorMessage.find("more than 5 iterations") != std::string::npos);
        QCOMPARE(c.errorLine, 8);
    }

    void unsupportedSyntax() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QCOMPARE(QString::fromStdString(c.errorMessage), QString("Unsupported statement 'Try'."));
        QCOMPARE(c.errorLine, 8);
    }

    void undefinedName() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        return x + undefined_thing
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("NameError"));
        QCOMPARE(QString::fromStdString(c.errorMessage),
                 QString("The name 'undefined_thing' is not defined, or not supported in graph mode."));
        QCOMPARE(c.errorLine, 8);
    }

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

    void jitFunctionWithStarArgs() {
        Compiled c = compile(script(R"(
@ms.jit
def target(*inputs):
    out = inputs[0]
    for t in inputs:
        out = out + t
    return out
x = Tensor(np.ones(3, np.float32))
args = (x, x, x)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "target"));
        QVERIFY(c.parsed.find("%para1_inputs0") != std::string::npos);
        QVERIFY(c.parsed.find("%para3_inputs2") != std::string::npos);
        QCOMPARE(count(c.parsed, "add("), 3);
    }

    void lambdasAndNestedFunctions() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        k = 2
        def inner(y):
            return y * k
        f = lambda z: z + 1
        return inner(f(x)) if k > 1 else x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "inner"));
        QVERIFY(hasGraph(c.parsed, "lambda"));
    }

    void andOrAndComprehensions() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, y):
        t = [x * i for i in range(3)]
        ok = x.sum() > 0 and y.sum() > 0
        return t[2], ok
target = Net()
args = (Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "mul("), 3);
        QCOMPARE(count(c.parsed, "= Switch("), 1);
        QVERIFY(c.parsed.find("make_list(") != std::string::npos);
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

    void whileWithBreakContinueReturn() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        i = 0
        while i < 10:
            i = i + 1
            if x.sum() > 100:
                break
            if x.sum() < -100:
                return x
            if i == 2:
                continue
            x = x + 1
        return x * i
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "↵Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↻Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QCOMPARE(count(c.parsed, "= Switch("), 4);  // the loop and three ifs
        QCOMPARE(count(c.parsed, "call @↵Net_construct("), 3);  // enter, continue, next iteration
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
        return self.helper(super().construct(x))
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.resolved, "Net_construct"));
        QVERIFY(hasGraph(c.resolved, "Base_construct"));
        QVERIFY(hasGraph(c.resolved, "Net_helper"));
        QCOMPARE(graphCount(c.resolved), 3);
    }

    void raiseAndAssert() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 3:
            raise ValueError("x must have 3 rows")
        assert len(x.shape) == 1, "rank 1"
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        Compiled bad = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 4:
            raise ValueError("x must have 4 rows")
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(bad.errorType), QString("ValueError"));
        QCOMPARE(QString::fromStdString(bad.errorMessage), QString("x must have 4 rows"));
        QCOMPARE(bad.errorLine, 9);
    }

    void assigningSelfAttributeIsAnError() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        self.last = x
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QVERIFY(c.errorMessage.find("'last'") != std::string::npos);
        QCOMPARE(c.errorLine, 8);
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
};

QTEST_APPLESS_MAIN(TestGraphBuilder)
#include "test_graph_builder.moc"
