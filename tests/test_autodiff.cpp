// meta_fg_expand on .ir text (the seed's BackwardNet after auto_monad and inline,
// broadcasting, no_inline calls through fprop graphs, weights read through Loads) and the
// errors autodiff reports with their source line. End-to-end gradients are in
// test_autodiff_scripts.cpp.
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <string>

#include "autodiff_fixture.h"
#include "ir/ir_text.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"

using namespace irscope;
using namespace autodiff_test;

namespace {

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
        // Both calls share them: the reused graph is differentiated once.
        QVERIFY(m->findGraph("\u25b8CR_block_1") == nullptr);
        QVERIFY(m->findGraph("\u25c2CR_block_1") == nullptr);
        QCOMPARE(countPrim(*m, "GradOperation"), std::size_t(0));
        // out = x * w * w: dx = w * w, dw = 2 * x * w.
        const ir::Tensor x = ir::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{1.0, 2.0});
        const ir::Tensor w = ir::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{3.0, 5.0});
        const ops::KernelArg in[] = {ops::KernelArg(x)};
        const ops::KernelArg r = runtime::Executor(*m, {}).run(in, {{"w", w}});
        QVERIFY(r.isTuple());
        const ir::Tensor& dx = r.elements()[0].elements()[0].tensor();
        const ir::Tensor& dw = r.elements()[1].elements()[0].tensor();
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
        const ir::Tensor x = ir::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{1.0, 2.0});
        const ir::Tensor w = ir::Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2},
                                                               std::vector<double>{3.0, 5.0});
        const ops::KernelArg in[] = {ops::KernelArg(x)};
        const ops::KernelArg r = runtime::Executor(*m, {}).run(in, {{"w", w}});
        const ir::Tensor& value = r.elements()[0].tensor();
        const ir::Tensor& dw = r.elements()[1].elements()[0].tensor();
        QCOMPARE(value.getDouble(1), 50.0);
        QCOMPARE(dw.getDouble(0), 6.0);
        QCOMPARE(dw.getDouble(1), 20.0);
    }

    // IR the front end would not produce is still an error, never a crash.
    void malformedGradCallsAreCompileErrors_data() {
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("message");
        QTest::newRow("sens_param without inputs")
            << "get_all: Bool(0), get_by_list: Bool(0), sens_param: Bool(1)"
            << "sens_param=True needs the sensitivity";
        QTest::newRow("gradient of the first input of none")
            << "get_all: Bool(0), get_by_list: Bool(0), sens_param: Bool(0)"
            << "has no input";
    }
    void malformedGradCallsAreCompileErrors() {
        QFETCH(QString, attrs);
        QFETCH(QString, message);
        const std::string text = R"(# IR entry: @main
# Params:
%para1_w: <Ref[Tensor[Float32]], (2), ref_key=:w> : has_default

subgraph @main() {
  %0 = GradOperation(@f) primitive_attrs: {)" +
                                 attrs.toStdString() +
                                 R"(}
      : (<Func, NoShape>) -> (<Func, NoShape>)
  %1 = %0()
      : () -> (<Tensor[Float32], (2)>)
  Return(%1)
      : (<Tensor[Float32], (2)>)
}
subgraph @f() {
  %0 = Mul($(@main:%para1_w), $(@main:%para1_w))
      : (<Ref[Tensor[Float32]], (2), ref_key=:w>, <Ref[Tensor[Float32]], (2), ref_key=:w>) -> (<Tensor[Float32], (2)>)
  Return(%0)
      : (<Tensor[Float32], (2)>)
}
)";
        try {
            expand(text);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, e.what());
        }
    }

    // A primitive without a bprop rule (every registry op with a gradient has one now; an
    // op a dump names that irscope does not know has none) is a clear error at its line.
    void primitiveWithoutRuleIsAnError() {
        const std::string text = R"(# IR entry: @main
# Params:
%para1_x: <Tensor[Float32], (2)>

subgraph @main() {
  %0 = GradOperation(@f) primitive_attrs: {get_all: Bool(0), get_by_list: Bool(0), sens_param: Bool(0)}
      : (<Func, NoShape>) -> (<Func, NoShape>)
  %1 = %0(%para1_x)
      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
  Return(%1)
      : (<Tensor[Float32], (2)>)
}
subgraph @f(%para2_a) {
  %0 = Erfinv(%para2_a)
      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)
      # In file net.py:9, 15~30/        return ops.erfinv(x)/
  Return(%0)
      : (<Tensor[Float32], (2)>)
}
)";
        try {
            expand(text);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QVERIFY2(e.message().find("the gradient of 'Erfinv' is not supported yet") !=
                         std::string::npos,
                     e.what());
            QCOMPARE(e.where().line, 9);
        }
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

    // A while loop on a tensor condition inside the differentiated function: the loop's
    // recursive graphs are not copied but called through their fprop graphs (▸ of the
    // header, which calls itself through the body's), whose bprops run the loop backwards.
    void whileOnTensorConditionGoesThroughRecursiveFprop() {
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
        // [1, 2] -> [2, 4] -> [4, 8]: two doublings.
        EXPECT_OUTPUT(r, "[4. 4.]\n");
        const passes::PassSnapshot* snap = r.session->compiles.at(0).find("meta_fg_expand");
        QVERIFY(snap != nullptr);
        const auto m = snap->module();
        QCOMPARE(QString::fromStdString(m->verify()), QString());
        QCOMPARE(countPrim(*m, "GradOperation"), std::size_t(0));
        std::vector<std::string> fprops;
        for (ir::FuncGraph* g : m->reachableGraphs()) {
            if (g->name().rfind("\u25b8", 0) == 0) {
                fprops.push_back(g->name());
            }
        }
        // The header's fprop graph (once, shared by the first call and the body's call).
        const auto header = std::count_if(fprops.begin(), fprops.end(), [](const std::string& n) {
            return n.rfind("\u25b8\u21b5", 0) == 0;
        });
        QVERIFY2(header == 1,
                 std::accumulate(fprops.begin(), fprops.end(), std::string(),
                                 [](std::string a, const std::string& b) { return a + b + " "; })
                     .c_str());
    }
};

QTEST_GUILESS_MAIN(TestAutodiff)
#include "test_autodiff.moc"
