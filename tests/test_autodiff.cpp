// Automatic differentiation (meta_fg_expand): GradOperation, ops.grad and ops.value_and_grad
// in construct, end to end against known gradients and finite differences (float64), and the
// pass on .ir text: the seed's BackwardNet after auto_monad and inline, broadcasting, errors.
#include <QtTest>

#include <string>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"
#include "runtime/graph_eval.h"
#include "session/compile_record.h"

using namespace irscope;

namespace {

struct Run {
    std::string out;
    interp::RunResult result;
    std::shared_ptr<session::Session> session;
};

Run runScript(const std::string& source) {
    Run r;
    interp::Interpreter I;
    I.setOutputSink([&](std::string_view s) { r.out += s; });
    modules::registerBuiltinModules(I);
    compiler::CompilerOptions options;
    options.readEnvironment = false;
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(options));
    r.result = I.runScript(source, "net.py");
    r.session = compiler->sharedSession();
    r.out += r.result.error;
    return r;
}

#define EXPECT_OUTPUT(run, expected)                                                 \
    do {                                                                             \
        const Run& r_ = (run);                                                       \
        QVERIFY2(r_.result.status == interp::RunResult::Status::Ok, r_.out.c_str()); \
        QCOMPARE(QString::fromStdString(r_.out), QString::fromStdString(expected));  \
    } while (false)

const char* const kHeader =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter, ParameterTuple\n"
    "from mindspore.ops import composite as C\n"
    "from mindspore.ops import functional as F\n"
    "ms.set_context(mode=ms.GRAPH_MODE)\n";

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

// The seed's ForwardNet as auto_monad and inline leave it (the while loop on Python ints
// unrolled), differentiated by BackwardNet's GradOperation(get_all=True) with the U monad.
const char* const kSeedAfterInline = R"(# IR entry: @BackwardNet_construct
# Params:
%para1_inputs0: <Tensor[Int32], ()>
%para2_param: <Ref[Tensor[Int32]], (), ref_key=:param> : has_default

subgraph @BackwardNet_construct() {
  %0 = GradOperation(@ForwardNet_construct) primitive_attrs: {get_all: Bool(1), get_by_list: Bool(0), sens_param: Bool(0)}
      : (<Func, NoShape>) -> (<Func, NoShape>)
  %1 = %0(%para1_inputs0, U)
      : (<Tensor[Int32], ()>, <UMonad, NoShape>) -> (<Tuple[Tensor[Int32]], TupleShape(())>)
  %2 = UpdateState(U, %1)
      : (<UMonad, NoShape>, <Tuple[Tensor[Int32]], TupleShape(())>) -> (<UMonad, NoShape>)
  %3 = Depend(%1, %2)
      : (<Tuple[Tensor[Int32]], TupleShape(())>, <UMonad, NoShape>) -> (<Tuple[Tensor[Int32]], TupleShape(())>)
  Return(%3)
      : (<Tuple[Tensor[Int32]], TupleShape(())>)
}
subgraph @ForwardNet_construct(%para3_x, %para4_u) {
  %0 = Assign($(@BackwardNet_construct:%para2_param), Tensor(shape=[], dtype=Int32, value=0), %para4_u)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <Tensor[Int32], ()>, <UMonad, NoShape>) -> (<Ref[Tensor[Int32]], (), ref_key=:param>)
  %1 = UpdateState(%para4_u, %0)
      : (<UMonad, NoShape>, <Ref[Tensor[Int32]], (), ref_key=:param>) -> (<UMonad, NoShape>)
  %2 = Load($(@BackwardNet_construct:%para2_param), %1)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <UMonad, NoShape>) -> (<Tensor[Int32], ()>)
  %3 = UpdateState(%1, %2)
      : (<UMonad, NoShape>, <Tensor[Int32], ()>) -> (<UMonad, NoShape>)
  %4 = Mul(%para3_x, %2)
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %5 = Add(%4, Tensor(shape=[], dtype=Int32, value=0))
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %6 = Assign($(@BackwardNet_construct:%para2_param), Tensor(shape=[], dtype=Int32, value=1), %3)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <Tensor[Int32], ()>, <UMonad, NoShape>) -> (<Ref[Tensor[Int32]], (), ref_key=:param>)
  %7 = UpdateState(%3, %6)
      : (<UMonad, NoShape>, <Ref[Tensor[Int32]], (), ref_key=:param>) -> (<UMonad, NoShape>)
  %8 = Load($(@BackwardNet_construct:%para2_param), %7)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <UMonad, NoShape>) -> (<Tensor[Int32], ()>)
  %9 = UpdateState(%7, %8)
      : (<UMonad, NoShape>, <Tensor[Int32], ()>) -> (<UMonad, NoShape>)
  %10 = Mul(%para3_x, %8)
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %11 = Add(%10, %5)
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %12 = Assign($(@BackwardNet_construct:%para2_param), Tensor(shape=[], dtype=Int32, value=2), %9)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <Tensor[Int32], ()>, <UMonad, NoShape>) -> (<Ref[Tensor[Int32]], (), ref_key=:param>)
  %13 = UpdateState(%9, %12)
      : (<UMonad, NoShape>, <Ref[Tensor[Int32]], (), ref_key=:param>) -> (<UMonad, NoShape>)
  %14 = Load($(@BackwardNet_construct:%para2_param), %13)
      : (<Ref[Tensor[Int32]], (), ref_key=:param>, <UMonad, NoShape>) -> (<Tensor[Int32], ()>)
  %15 = UpdateState(%13, %14)
      : (<UMonad, NoShape>, <Tensor[Int32], ()>) -> (<UMonad, NoShape>)
  %16 = Mul(%para3_x, %14)
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %17 = Add(%16, %11)
      : (<Tensor[Int32], ()>, <Tensor[Int32], ()>) -> (<Tensor[Int32], ()>)
  %18 = Depend(%17, %15)
      : (<Tensor[Int32], ()>, <UMonad, NoShape>) -> (<Tensor[Int32], ()>)
  Return(%18)
      : (<Tensor[Int32], ()>)
}
)";

std::unique_ptr<ir::Module> expand(const std::string& text) {
    auto m = ir::parseIr(text, "test.ir");
    passes::PassContext ctx;
    passes::makeMetaFgExpandPass()->run(*m, ctx);
    return m;
}

std::string body(const ir::Module& m) {
    std::string s = ir::printIr(m, {.debugInfo = false});
    std::string out;
    std::size_t pos = 0;
    while (pos < s.size()) {
        std::size_t end = s.find('\n', pos);
        end = end == std::string::npos ? s.size() : end;
        const std::string line = s.substr(pos, end - pos);
        if (line.rfind("  %", 0) == 0 || line.rfind("  Return", 0) == 0 ||
            line.rfind("subgraph", 0) == 0 || line == "}") {
            out += line + "\n";
        }
        pos = end + 1;
    }
    return out;
}

// The first node without an abstract in a graph the entry reaches ("" when all are typed).
std::string untyped(const ir::Module& m) {
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::Parameter* p : g->parameters()) {
            if (!p->abstract()) {
                return g->name() + ": parameter " + p->name();
            }
        }
        for (ir::CNode* c : g->topoOrder()) {
            for (ir::Node* n : c->inputs()) {
                const auto* callee = ir::nodeCast<ir::ValueNode>(n);
                if (!n->abstract() &&
                    (callee == nullptr || callee->value()->kind != ir::Value::Kind::Primitive)) {
                    return g->name() + ": an input of node " + std::to_string(c->id());
                }
            }
            if (!c->abstract()) {
                return g->name() + ": node " + std::to_string(c->id());
            }
        }
    }
    return {};
}

std::size_t countPrim(const ir::Module& m, std::string_view name) {
    std::size_t n = 0;
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::CNode* c : g->topoOrder()) {
            n += c->isPrimitive(name) ? 1 : 0;
        }
    }
    return n;
}

}  // namespace

class TestAutodiff : public QObject {
    Q_OBJECT

private slots:
    // ---- the pass on .ir text ----------------------------------------------------------------

    // The forward keeps the Assign/Load/UpdateState chain; the gradient of x is the sum of the
    // three Loads, accumulated as the reverse sweep meets them (load3 + load2, then + load1),
    // and the state after the call is the forward's last one (seed lines 734-800).
    void seedBackwardNetKeepsTheChainAndAccumulatesInSweepOrder_data() {
        QTest::addColumn<bool>("stateUsed");
        QTest::newRow("UpdateState(U, call) continues the chain") << true;
        QTest::newRow("the call ends the chain") << false;
    }
    void seedBackwardNetKeepsTheChainAndAccumulatesInSweepOrder() {
        QFETCH(bool, stateUsed);
        std::string text = kSeedAfterInline;
        if (!stateUsed) {
            // auto_monad leaves nothing after a call that ends the entry: `Return(%1)`.
            const std::size_t from = text.find("  %2 = UpdateState(U, %1)");
            const std::size_t to = text.find("  Return(%3)");
            text.replace(from, to - from, "");
            text.replace(text.find("  Return(%3)"), 12, "  Return(%1)");
        }
        auto m = expand(text);
        QCOMPARE(QString::fromStdString(m->verify()), QString());
        QCOMPARE(QString::fromStdString(untyped(*m)), QString());
        QCOMPARE(m->graphs().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(body(*m)),
                 QString("subgraph @BackwardNet_construct() {\n"
                         "  %0 = Assign(%para2_param, Tensor(shape=[], dtype=Int32, value=0), U)\n"
                         "  %1 = UpdateState(U, %0)\n"
                         "  %2 = Load(%para2_param, %1)\n"
                         "  %3 = UpdateState(%1, %2)\n"
                         "  %4 = Assign(%para2_param, Tensor(shape=[], dtype=Int32, value=1), %3)\n"
                         "  %5 = UpdateState(%3, %4)\n"
                         "  %6 = Load(%para2_param, %5)\n"
                         "  %7 = UpdateState(%5, %6)\n"
                         "  %8 = Assign(%para2_param, Tensor(shape=[], dtype=Int32, value=2), %7)\n"
                         "  %9 = UpdateState(%7, %8)\n"
                         "  %10 = Load(%para2_param, %9)\n"
                         "  %11 = Mul(Tensor(shape=[], dtype=Int32, value=1), %10)\n"
                         "  %12 = Mul(Tensor(shape=[], dtype=Int32, value=1), %6)\n"
                         "  %13 = MakeTuple(%11, %12)\n"
                         "  %14 = AddN(%13)\n"
                         "  %15 = Mul(Tensor(shape=[], dtype=Int32, value=1), %2)\n"
                         "  %16 = MakeTuple(%14, %15)\n"
                         "  %17 = AddN(%16)\n"
                         "  %18 = MakeTuple(%17)\n"
                         "  %19 = UpdateState(%9, %10)\n"
                         "  %20 = Depend(%18, %19)\n"
                         "  Return(%20)\n"
                         "}\n"));
        // Every new node is typed and carries the source line of the node it stands for.
        for (ir::CNode* c : m->entry()->topoOrder()) {
            QVERIFY(c->abstract() != nullptr);
        }
    }

    // Broadcasting: y (3,) meets x (2, 3); its gradient is summed over the broadcast axis.
    void broadcastGradientIsReducedToTheInputShape() {
        auto m = expand(R"(# IR entry: @main
# Params:
%para1_x: <Tensor[Float32], (2, 3)>
%para2_y: <Tensor[Float32], (3)>

subgraph @main() {
  %0 = GradOperation(@f) primitive_attrs: {get_all: Bool(1), get_by_list: Bool(0), sens_param: Bool(0)}
      : (<Func, NoShape>) -> (<Func, NoShape>)
  %1 = %0(%para1_x, %para2_y)
      : (<Tensor[Float32], (2, 3)>, <Tensor[Float32], (3)>) -> (<Tuple[Tensor[Float32]*2], TupleShape((2, 3), (3))>)
  Return(%1)
      : (<Tuple[Tensor[Float32]*2], TupleShape((2, 3), (3))>)
}
subgraph @f(%para3_a, %para4_b) {
  %0 = Mul(%para3_a, %para4_b)
      : (<Tensor[Float32], (2, 3)>, <Tensor[Float32], (3)>) -> (<Tensor[Float32], (2, 3)>)
  Return(%0)
      : (<Tensor[Float32], (2, 3)>)
}
)");
        QCOMPARE(QString::fromStdString(m->verify()), QString());
        QCOMPARE(QString::fromStdString(untyped(*m)), QString());
        const ir::Node* out = m->entry()->output();
        QCOMPARE(QString::fromStdString(ir::formatAbstract(*out->abstract())),
                 QString("<Tuple[Tensor[Float32]*2], TupleShape((2, 3), (3))>"));
        QCOMPARE(countPrim(*m, "ReduceSum"), std::size_t(1));
        QCOMPARE(countPrim(*m, "GradOperation"), std::size_t(0));
    }

    // A no_inline graph (lazy inline's CR_ graph) stays a call: of its fprop graph, whose
    // bprop gives the gradient of its input and of the weight it reads.
    void noInlineCallGoesThroughFpropGraphs() {
        auto m = expand(R"(# IR entry: @main
# Params:
%para1_x: <Tensor[Float32], (2)>
%para2_w: <Ref[Tensor[Float32]], (2), ref_key=:w> : has_default

subgraph @main() {
  %0 = MakeTuple(%para2_w)
      : (<Ref[Tensor[Float32]], (2), ref_key=:w>) -> (<Tuple[Ref[Tensor[Float32]]], TupleShape((2))>)
  %1 = GradOperation(@f, %0) primitive_attrs: {get_all: Bool(1), get_by_list: Bool(1), sens_param: Bool(0)}
      : (<Func, NoShape>, <Tuple[Ref[Tensor[Float32]]], TupleShape((2))>) -> (<Func, NoShape>)
  %2 = %1(%para1_x)
      : (<Tensor[Float32], (2)>) -> (<Tuple[Tuple[Tensor[Float32]], Tuple[Tensor[Float32]]], TupleShape(((2)), ((2)))>)
  Return(%2)
      : (<Tuple[Tuple[Tensor[Float32]], Tuple[Tensor[Float32]]], TupleShape(((2)), ((2)))>)
}
subgraph @f(%para3_a) {
  %0 = call @CR_block(%para3_a)
      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
  %1 = call @CR_block(%0)
      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
  Return(%1)
      : (<Tensor[Float32], (2)>)
}
subgraph attr:
no_inline: Bool(1)
subgraph @CR_block(%para4_b) {
  %0 = Mul(%para4_b, $(@main:%para2_w))
      : (<Tensor[Float32], (2)>, <Ref[Tensor[Float32]], (2), ref_key=:w>) -> (<Tensor[Float32], (2)>)
  Return(%0)
      : (<Tensor[Float32], (2)>)
}
)");
        QCOMPARE(QString::fromStdString(m->verify()), QString());
        QCOMPARE(QString::fromStdString(untyped(*m)), QString());
        QVERIFY(m->findGraph("\u25b8CR_block") != nullptr);
        QVERIFY(m->findGraph("\u25c2CR_block") != nullptr);
        QCOMPARE(countPrim(*m, "GradOperation"), std::size_t(0));
        // out = x * w * w: dx = w * w, dw = 2 * x * w.
        const runtime::Tensor x = runtime::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{1.0, 2.0});
        const runtime::Tensor w = runtime::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{3.0, 5.0});
        const ops::KernelArg in[] = {ops::KernelArg(x)};
        const ops::KernelArg r = runtime::evaluateGraph(*m, in, {{"w", w}});
        QVERIFY(r.isTuple());
        const runtime::Tensor& dx = r.elements()[0].elements()[0].tensor();
        const runtime::Tensor& dw = r.elements()[1].elements()[0].tensor();
        QCOMPARE(dx.getDouble(0), 9.0);
        QCOMPARE(dx.getDouble(1), 25.0);
        QCOMPARE(dw.getDouble(0), 6.0);
        QCOMPARE(dw.getDouble(1), 20.0);
    }

    // After auto_monad the weights tuple may hold Loads of the weights, and the target reads
    // them with Loads on its own chain: the gradient reaching those Loads is the weight's.
    void weightsReadThroughLoads() {
        auto m = expand(R"(# IR entry: @main
# Params:
%para1_x: <Tensor[Float32], (2)>
%para2_w: <Ref[Tensor[Float32]], (2), ref_key=:w> : has_default

subgraph @main() {
  %0 = Load(%para2_w, U)
      : (<Ref[Tensor[Float32]], (2), ref_key=:w>, <UMonad, NoShape>) -> (<Tensor[Float32], (2)>)
  %1 = UpdateState(U, %0)
      : (<UMonad, NoShape>, <Tensor[Float32], (2)>) -> (<UMonad, NoShape>)
  %2 = MakeTuple(%0)
      : (<Tensor[Float32], (2)>) -> (<Tuple[Tensor[Float32]], TupleShape((2))>)
  %3 = value_and_grad(@f, %2) primitive_attrs: {grad_position: None, has_aux: Bool(0)}
      : (<Func, NoShape>, <Tuple[Tensor[Float32]], TupleShape((2))>) -> (<Func, NoShape>)
  %4 = %3(%para1_x, %1)
      : (<Tensor[Float32], (2)>, <UMonad, NoShape>) -> (<Tuple[Tensor[Float32], Tuple[Tensor[Float32]]], TupleShape((2), ((2)))>)
  %5 = UpdateState(%1, %4)
      : (<UMonad, NoShape>, <Tuple[Tensor[Float32], Tuple[Tensor[Float32]]], TupleShape((2), ((2)))>) -> (<UMonad, NoShape>)
  %6 = Depend(%4, %5)
      : (<Tuple[Tensor[Float32], Tuple[Tensor[Float32]]], TupleShape((2), ((2)))>, <UMonad, NoShape>) -> (<Tuple[Tensor[Float32], Tuple[Tensor[Float32]]], TupleShape((2), ((2)))>)
  Return(%6)
      : (<Tuple[Tensor[Float32], Tuple[Tensor[Float32]]], TupleShape((2), ((2)))>)
}
subgraph @f(%para3_a, %para4_u) {
  %0 = Load($(@main:%para2_w), %para4_u)
      : (<Ref[Tensor[Float32]], (2), ref_key=:w>, <UMonad, NoShape>) -> (<Tensor[Float32], (2)>)
  %1 = Mul(%para3_a, %0)
      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
  %2 = Mul(%1, %0)
      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
  %3 = UpdateState(%para4_u, %0)
      : (<UMonad, NoShape>, <Tensor[Float32], (2)>) -> (<UMonad, NoShape>)
  %4 = Depend(%2, %3)
      : (<Tensor[Float32], (2)>, <UMonad, NoShape>) -> (<Tensor[Float32], (2)>)
  Return(%4)
      : (<Tensor[Float32], (2)>)
}
)");
        QCOMPARE(QString::fromStdString(m->verify()), QString());
        QCOMPARE(QString::fromStdString(untyped(*m)), QString());
        QCOMPARE(countPrim(*m, "value_and_grad"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Load"), std::size_t(2));
        // value = x * w * w; dw = 2 * x * w.
        const runtime::Tensor x = runtime::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{1.0, 2.0});
        const runtime::Tensor w = runtime::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{3.0, 5.0});
        const ops::KernelArg in[] = {ops::KernelArg(x)};
        const ops::KernelArg r = runtime::evaluateGraph(*m, in, {{"w", w}});
        const runtime::Tensor& value = r.elements()[0].tensor();
        const runtime::Tensor& dw = r.elements()[1].elements()[0].tensor();
        QCOMPARE(value.getDouble(1), 50.0);
        QCOMPARE(dw.getDouble(0), 6.0);
        QCOMPARE(dw.getDouble(1), 20.0);
    }

    // A primitive without a bprop rule is a clear error at its source line.
    void primitiveWithoutRuleIsAnError() {
        const Run r = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return ops.ReduceProd()(x)\n"
                                "class G(nn.Cell):\n"
                                "    def __init__(self, net):\n"
                                "        super().__init__()\n"
                                "        self.net = net\n"
                                "        self.grad = C.GradOperation()\n"
                                "    def construct(self, x):\n"
                                "        return self.grad(self.net)(x)\n"
                                "print(G(Net())(Tensor([1.5, 2.5])))\n");
        QCOMPARE(r.result.status, interp::RunResult::Status::Exception);
        QVERIFY2(
            r.out.find("the gradient of 'ReduceProd' is not supported yet") != std::string::npos,
            r.out.c_str());
        QVERIFY2(r.out.find("net.py:9") != std::string::npos, r.out.c_str());
    }

    // ---- end to end --------------------------------------------------------------------------

    // d(x*x + 3x)/dx = 2x + 3: 7 at 2.
    void polynomialGradient() {
        const Run r = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return x * x + 3 * x\n"
                                "class G(nn.Cell):\n"
                                "    def __init__(self, net):\n"
                                "        super().__init__()\n"
                                "        self.net = net\n"
                                "        self.grad = C.GradOperation()\n"
                                "    def construct(self, x):\n"
                                "        return self.grad(self.net)(x)\n"
                                "print(G(Net())(Tensor([2.0, -1.0])))\n");
        EXPECT_OUTPUT(r, "[7. 1.]\n");
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
        QTest::newRow("maximum minimum")
            << "        return ops.reduce_sum(ops.maximum(x, y) * 2.0 + ops.minimum(x, y * 0.5))\n";
        QTest::newRow("select")
            << "        return ops.reduce_sum(ops.select(x > y, x * y, x - y))\n";
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
        QTest::newRow("floor_mod reduce_max reduce_min hswish")
            << "        a = ops.floor_mod(x * 3.0, y + 2.0) * y + ops.ReduceMax(True)(x * y, 1)\n"
               "        return ops.reduce_sum(a + ops.ReduceMin()(x, 0) + ops.HSwish()(x * 1.7))\n";
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

    // A two-layer MLP (float64 weights): input and weight gradients (get_all + get_by_list
    // with a ParameterTuple) against finite differences.
    void mlpMatchesFiniteDifferences() {
        const Run r =
            runScript(std::string(kHeader) +
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
                      "print(len(gw), gw[1].shape, 'ok' if err < 1e-7 else err)\n");
        EXPECT_OUTPUT(r, "3 (4,) ok\n");
    }

    // nn.Dense (float32): y = x W^T + b, loss = sum(y): dW = ones^T x, db = rows.
    void denseWeightGradients() {
        const Run r = runScript(std::string(kHeader) +
                                "class G(nn.Cell):\n"
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
                                "print(gb)\n");
        EXPECT_OUTPUT(r, "[[5. 7. 9.]\n [5. 7. 9.]]\n[2. 2.]\n");
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
        const session::PassSnapshot* snap = r.session->compiles[0].find("meta_fg_expand");
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

    // A grad call inside the differentiated function is expanded first: second derivatives.
    void secondOrderGradient() {
        const Run r =
            runScript(std::string(kHeader) +
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
                      "print(First()(Tensor([2.0, 3.0])), Second()(Tensor([2.0, 3.0])))\n");
        EXPECT_OUTPUT(r, "[12. 27.] [12. 18.]\n");
    }

    // has_aux: only output 0 is differentiated; grad returns (grads, aux), value_and_grad the
    // whole output as the value. A tuple output without has_aux: every element gets ones.
    void hasAuxAndTupleOutputs() {
        const Run r =
            runScript(std::string(kHeader) +
                      "def aux_fn(x, y):\n"
                      "    return ops.reduce_sum(x * y), y * 2.0\n"
                      "def two(x):\n"
                      "    return x * 2.0, x * x\n"
                      "class Net(nn.Cell):\n"
                      "    def construct(self, x, y):\n"
                      "        g, aux = ops.grad(aux_fn, (0, 1), has_aux=True)(x, y)\n"
                      "        v, g2 = ops.value_and_grad(aux_fn, 0, has_aux=True)(x, y)\n"
                      "        return g[0], g[1], aux[0], v[0], g2, ops.grad(two)(x)\n"
                      "for t in Net()(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])):\n"
                      "    print(t)\n");
        EXPECT_OUTPUT(r, "[3. 4.]\n[1. 2.]\n[6. 8.]\n11.0\n[3. 4.]\n[4. 6.]\n");
    }

    // Misuse is a Python exception with MindSpore's type and the construct line.
    void misuseIsAnError_data() {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("error");
        QTest::newRow("get_by_list without weights")
            << "self.by_list(self.net)(x)"
            << "TypeError: For 'GradOperation', get_by_list=True needs the weights";
        QTest::newRow("position out of range")
            << "ops.grad(self.net, 3)(x)"
            << "ValueError: For 'grad', the 'grad_position' must be in [-1, 1), but got 3.";
        QTest::newRow("no position nor weights") << "ops.grad(self.net, None)(x)"
                                                 << "ValueError: For 'grad', 'grad_position' and "
                                                    "'weights' can not be None at the same time.";
        QTest::newRow("unknown keyword")
            << "ops.value_and_grad(self.net, pos=0)(x)"
            << "TypeError: value_and_grad() got an unexpected keyword argument 'pos'";
        QTest::newRow("output not a tensor") << "ops.grad(self.shape_of)(x)"
                                             << "TypeError: For 'grad', the output of 'G_shape_of' "
                                                "must be a Tensor or a tuple of Tensors";
    }
    void misuseIsAnError() {
        QFETCH(QString, call);
        QFETCH(QString, error);
        const Run r = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return x * x\n"
                                "class G(nn.Cell):\n"
                                "    def __init__(self):\n"
                                "        super().__init__()\n"
                                "        self.net = Net()\n"
                                "        self.by_list = C.GradOperation(get_by_list=True)\n"
                                "    def shape_of(self, x):\n"
                                "        return x.shape[0]\n"
                                "    def construct(self, x):\n"
                                "        return " +
                                call.toStdString() +
                                "\n"
                                "print(G()(Tensor([1.0, 2.0])))\n");
        QCOMPARE(r.result.status, interp::RunResult::Status::Exception);
        QVERIFY2(r.out.find(error.toStdString()) != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("net.py:18") != std::string::npos, r.out.c_str());
    }

    // Grad functions made in __init__ (the TrainOneStep pattern) differentiate when construct
    // calls them; called eagerly they are not supported yet.
    void gradFunctionsMadeOnTheHost() {
        const Run r =
            runScript(std::string(kHeader) +
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
                      "try:\n"
                      "    ops.grad(net)(Tensor([[1.0, 2.0]]))\n"
                      "except RuntimeError as e:\n"
                      "    print(e)\n");
        EXPECT_OUTPUT(
            r,
            "16.0\n[[4. 6.]]\n[[1. 2.]\n [1. 2.]]\n"
            "irscope: grad is not supported yet in PyNative mode (automatic differentiation "
            "runs in GRAPH_MODE, from a Cell's construct)\n");
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

    // A while loop on a tensor condition inside the differentiated function.
    void whileOnTensorConditionIsAnError() {
        const Run r = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        while x.sum() < 10:\n"
                                "            x = x * 2\n"
                                "        return x\n"
                                "class G(nn.Cell):\n"
                                "    def __init__(self, net):\n"
                                "        super().__init__()\n"
                                "        self.net = net\n"
                                "        self.grad = C.GradOperation()\n"
                                "    def construct(self, x):\n"
                                "        return self.grad(self.net)(x)\n"
                                "print(G(Net())(Tensor([1.0, 2.0])))\n");
        QCOMPARE(r.result.status, interp::RunResult::Status::Exception);
        QVERIFY2(
            r.out.find(
                "while loop on a tensor condition is not supported yet (the loop at line 9)") !=
                std::string::npos,
            r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAutodiff)
#include "test_autodiff.moc"
