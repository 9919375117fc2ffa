// opt_a and its sub-passes on small .ir programs (post-auto_monad form where it matters):
// what each simplification removes, what it must keep (side effects, reads of a weight at
// different states, type-changing identities), and that programs compute the same results.
#include <QtTest>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/opt_a.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "script_fixture.h"

using namespace irscope;
using namespace irscope::ir;
using ir::Tensor;

namespace {

bool runPass(const std::unique_ptr<passes::Pass>& p, Module& m) {
    passes::PassContext ctx;
    return p->run(m, ctx);
}

std::size_t countPrim(const Module& m, std::string_view name) {
    std::size_t n = 0;
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            n += c->isPrimitive(name) ? 1 : 0;
        }
    }
    return n;
}

std::vector<std::string> graphNames(const Module& m) {
    std::vector<std::string> names;
    for (FuncGraph* g : m.reachableGraphs()) {
        names.push_back(g->name());
    }
    return names;
}

// A program whose entry @f has the given parameters and body.
std::string program(const std::string& params, const std::string& body,
                    const std::string& more = "") {
    return "# IR entry: @f\n# Params:\n" + params + "\nsubgraph @f() {\n" + body + "}\n" + more;
}

const char* kX = "%para1_x : <Tensor[Float32], (2)>";
const char* kXW =
    "%para1_x : <Tensor[Float32], (2)>\n"
    "%para2_w : <Ref[Tensor[Float32]], (2), ref_key=:w>  :  has_default";

Tensor f32(std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return Tensor::fromDoubles(DType::Float32, Shape{n}, v);
}

std::vector<double> values(const Tensor& t) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < t.shape().elementCount(); ++i) {
        out.push_back(t.getDouble(i));
    }
    return out;
}

std::vector<double> eval(const Module& m, const Tensor& x) {
    return values(runtime::Executor(m, {}).run(std::vector<ops::KernelArg>{x}, {}).tensor());
}

// A tensor-condition loop `i = Tensor(0); while i < n: x = x * 2; i = i + 1; return x`.
std::string loopProgram(const std::string& start, const std::string& limit) {
    return program(kX, "  %0 = call @↵f(%para1_x, " + start + ")\n  Return(%0)\n",
                   "subgraph @↵f(%para2_x, %para3_i) {\n"
                   "  %0 = Less(%para3_i, " +
                       limit +
                       ")\n"
                       "      # In file loop.py:7/        while i < n:/\n"
                       "  %1 = Partial(@↻f, %para2_x, %para3_i)\n"
                       "  %2 = Partial(@↓f, %para2_x)\n"
                       "  %3 = Switch(%0, %1, %2)\n"
                       "  %4 = %3()\n"
                       "  Return(%4)\n}\n"
                       "subgraph @↻f(%para4_x, %para5_i) {\n"
                       "  %0 = Mul(%para4_x, F32(2))\n"
                       "  %1 = Add(%para5_i, Tensor(shape=[], dtype=Int32, value=1))\n"
                       "  %2 = call @↵f(%0, %1)\n"
                       "  Return(%2)\n}\n"
                       "subgraph @↓f(%para6_x) {\n  %0 = Neg(%para6_x)\n  Return(%0)\n}\n");
}

using script_test::runScript;

}  // namespace

class TestOptA : public QObject {
    Q_OBJECT

private slots:
    void groupRunsItsSubPassesInMindSporesOrder() {
        const auto group = passes::makeOptAPass();
        QCOMPARE(QString::fromStdString(group->name()), QString("opt_a"));
        QCOMPARE(group->maxRounds(), 8);
        std::vector<std::string> names;
        for (const auto& child : group->children()) {
            names.push_back(child->name());
            QVERIFY2(child->description().size() > 30, child->name().c_str());
        }
        QCOMPARE(names, (std::vector<std::string>{"switch_simplify", "loop_unroll",
                                                  "updatestate_eliminate", "arithmetic_simplify",
                                                  "constant_folding", "cse", "dce"}));
    }

    void switchOnAConstantTakesTheBranchAndInlinesIt() {
        auto m = parseIr(program(kX,
                                 "  %0 = Partial(@✓f, %para1_x)\n"
                                 "  %1 = Partial(@✗f, %para1_x)\n"
                                 "  %2 = Switch(Tensor(shape=[], dtype=Bool, value=true), %0, %1)\n"
                                 "  %3 = %2(F32(3))\n"
                                 "  Return(%3)\n",
                                 "subgraph @✓f(%para2_x, %para3_k) {\n"
                                 "  %0 = Mul(%para2_x, %para3_k)\n  Return(%0)\n}\n"
                                 "subgraph @✗f(%para4_x, %para5_k) {\n"
                                 "  %0 = Sub(%para4_x, %para5_k)\n  Return(%0)\n}\n"),
                         "switch.ir");
        QVERIFY(runPass(passes::makeSwitchSimplifyPass(), *m));
        QCOMPARE(graphNames(*m), std::vector<std::string>{"f"});
        QCOMPARE(m->graphs().size(), std::size_t(1));
        QVERIFY2(printIr(*m).find("Mul(%para1_x, F32(3))") != std::string::npos,
                 printIr(*m).c_str());
        QCOMPARE(eval(*m, f32({1, 2})), (std::vector<double>{3, 6}));
        QVERIFY(m->verify().empty());
    }

    void switchWithTheSameBranchTwiceIsThatBranch() {
        auto m = parseIr(program(kX,
                                 "  %0 = ReduceSum(%para1_x)\n"
                                 "  %1 = Less(%0, F32(1))\n"
                                 "  %2 = Switch(%1, @g, @g)\n"
                                 "  %3 = %2(%para1_x)\n"
                                 "  %4 = %2(%3)\n"
                                 "  Return(%4)\n",
                                 "subgraph @g(%para2_x) {\n"
                                 "  %0 = Neg(%para2_x)\n  Return(%0)\n}\n"),
                         "same.ir");
        QVERIFY(runPass(passes::makeSwitchSimplifyPass(), *m));
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Neg"), std::size_t(2));  // both calls inlined
        QCOMPARE(m->graphs().size(), std::size_t(1));
        QCOMPARE(eval(*m, f32({1, 2})), (std::vector<double>{1, 2}));
    }

    void switchOnATensorStays() {
        auto m = parseIr(program(kX,
                                 "  %0 = ReduceSum(%para1_x)\n"
                                 "  %1 = Less(%0, F32(1))\n"
                                 "  %2 = Switch(%1, @✓f, @✗f)\n"
                                 "  %3 = %2(%para1_x)\n"
                                 "  Return(%3)\n",
                                 "subgraph @✓f(%para2_x) {\n  Return(%para2_x)\n}\n"
                                 "subgraph @✗f(%para3_x) {\n"
                                 "  %0 = Neg(%para3_x)\n  Return(%0)\n}\n"),
                         "switch.ir");
        QVERIFY(!runPass(passes::makeSwitchSimplifyPass(), *m));
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(1));
    }

    void loopWithAConstantCounterIsUnrolled() {
        auto m = parseIr(loopProgram("Tensor(shape=[], dtype=Int32, value=0)",
                                     "Tensor(shape=[], dtype=Int32, value=3)"),
                         "loop.ir");
        QCOMPARE(eval(*m, f32({1, 2})), (std::vector<double>{-8, -16}));
        QVERIFY(runPass(passes::makeLoopUnrollPass(), *m));
        QCOMPARE(graphNames(*m), std::vector<std::string>{"f"});
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(3));
        QCOMPARE(countPrim(*m, "Neg"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(0));
        QCOMPARE(eval(*m, f32({1, 2})), (std::vector<double>{-8, -16}));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
        // The counter's arithmetic is left for constant_folding and dce.
        runPass(passes::makeOptAPass(), *m);
        QCOMPARE(countPrim(*m, "Less"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Add"), std::size_t(0));
    }

    void loopThatNeverRunsOnlyExits() {
        auto m = parseIr(loopProgram("Tensor(shape=[], dtype=Int32, value=5)",
                                     "Tensor(shape=[], dtype=Int32, value=3)"),
                         "loop.ir");
        QVERIFY(runPass(passes::makeLoopUnrollPass(), *m));
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(0));
        QCOMPARE(eval(*m, f32({1, 2})), (std::vector<double>{-1, -2}));
    }

    void loopOnAnUnknownConditionStays() {
        // The counter starts from the input: the trip count is not known.
        auto m = parseIr(loopProgram("%para1_x", "F32(100)"), "loop.ir");
        QVERIFY(!runPass(passes::makeLoopUnrollPass(), *m));
        QCOMPARE(graphNames(*m).size(), std::size_t(4));
    }

    void endlessConstantLoopIsAnErrorAtItsLine() {
        auto m = parseIr(loopProgram("Tensor(shape=[], dtype=Int32, value=0)",
                                     "Tensor(shape=[], dtype=Int32, value=100)"),
                         "loop.ir");
        try {
            runPass(passes::makeLoopUnrollPass(10), *m);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QCOMPARE(e.where().line, 7);
            QVERIFY2(QString::fromStdString(e.message()).contains("after 10 iterations"), e.what());
        }
    }

    void seedListingsAreAlreadyOptimal() {
        // The seed's BackwardNet after opt_a, with and without TensorMove: every Load,
        // Assign, TensorMove and UpdateState orders something, so nothing may go.
        for (const char* name : {"seed_load_elim_level0.ir", "seed_load_elim_level3.ir"}) {
            std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/" + name);
            std::stringstream ss;
            ss << in.rdbuf();
            auto m = parseIr(ss.str(), name);
            const std::string before = printIr(*m);
            passes::PassContext ctx;
            passes::makeOptAPass()->run(*m, ctx);
            QCOMPARE(printIr(*m), before);
        }
    }

    void updateStatesThatOrderNothingGo() {
        auto m = parseIr(program(kXW,
                                 "  %0 = Load(%para2_w, U)\n"
                                 "  %1 = UpdateState(U, %0)\n"
                                 "  %2 = Neg(%para1_x)\n"
                                 "  %3 = UpdateState(%1, %2)\n"
                                 "  %4 = Load(%para2_w, %3)\n"
                                 "  %5 = Load(%para2_w, %3)\n"
                                 "  %6 = Add(%4, %5)\n"
                                 "  %7 = Mul(%0, %6)\n"
                                 "  %8 = UpdateState(%3, %7)\n"
                                 "  %9 = Load(%para2_w, %8)\n"
                                 "  %10 = UpdateState(%8, %9)\n"
                                 "  %11 = Depend(%7, F32(1))\n"
                                 "  %12 = Depend(%11, %10)\n"
                                 "  Return(%12)\n"),
                         "monad.ir");
        QVERIFY(runPass(passes::makeUpdateStateEliminatePass(), *m));
        const std::string text = printIr(*m);
        // Neg orders nothing; the two Loads at one state are one; the Load nobody reads is
        // gone with its UpdateState; Depend on a constant is its value.
        QCOMPARE(countPrim(*m, "Load"), std::size_t(2));
        QVERIFY2(text.find("Load(%para2_w, %1)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("Add(%2, %2)") != std::string::npos, text.c_str());
        QCOMPARE(countPrim(*m, "UpdateState"), std::size_t(2));  // %1 and the one after Mul
        QCOMPARE(countPrim(*m, "Depend"), std::size_t(1));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
    }

    void stateAfterAnInlinedCallIsTheCalleesState() {
        // After auto_monad and inline: the caller's UpdateState(U, %call) became
        // UpdateState(U, Depend(out, u1)); the state after it is simply u1.
        auto m = parseIr(program(kXW,
                                 "  %0 = call @g(%para1_x, U)\n"
                                 "  %1 = UpdateState(U, %0)\n"
                                 "  %2 = Load(%para2_w, %1)\n"
                                 "  %3 = UpdateState(%1, %2)\n"
                                 "  %4 = Mul(%2, %0)\n"
                                 "  %5 = Depend(%4, %3)\n"
                                 "  Return(%5)\n",
                                 "subgraph @g(%para3_x, %para4_u) {\n"
                                 "  %0 = Assign(%para2_w, %para3_x, %para4_u)\n"
                                 "  %1 = UpdateState(%para4_u, %0)\n"
                                 "  %2 = Neg(%para3_x)\n"
                                 "  %3 = Depend(%2, %1)\n"
                                 "  Return(%3)\n}\n"),
                         "inlined.ir");
        passes::PassContext ctx;
        QVERIFY(passes::makeInlinePass()->run(*m, ctx));
        QVERIFY(runPass(passes::makeUpdateStateEliminatePass(), *m));
        const std::string text = printIr(*m);
        QVERIFY2(text.find("UpdateState(U, %0)\n  %2 = Load(%para2_w, %1)") != std::string::npos,
                 text.c_str());
        QCOMPARE(countPrim(*m, "UpdateState"), std::size_t(2));
        Tensor w = f32({0, 0});
        const auto out =
            runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({5, 6})}, {{"w", w}});
        QCOMPARE(values(out.tensor()), (std::vector<double>{-25, -36}));
        QCOMPARE(values(w), (std::vector<double>{5, 6}));
    }

    void dependChainsKeepTheLastState() {
        auto m = parseIr(program(kXW,
                                 "  %0 = Assign(%para2_w, %para1_x, U)\n"
                                 "  %1 = UpdateState(U, %0)\n"
                                 "  %2 = Assign(%para2_w, %para1_x, %1)\n"
                                 "  %3 = UpdateState(%1, %2)\n"
                                 "  %4 = Depend(%para1_x, %1)\n"
                                 "  %5 = Depend(%4, %3)\n"
                                 "  Return(%5)\n"),
                         "depend.ir");
        QVERIFY(runPass(passes::makeArithmeticSimplifyPass(), *m));
        QCOMPARE(countPrim(*m, "Depend"), std::size_t(1));
        QVERIFY(printIr(*m).find("Depend(%para1_x, %3)") != std::string::npos);
        QCOMPARE(countPrim(*m, "Assign"), std::size_t(2));
    }

    void sideEffectsStayOnTheChain() {
        auto m = parseIr(program(kXW,
                                 "  %0 = Assign(%para2_w, %para1_x, U)\n"
                                 "  %1 = UpdateState(U, %0)\n"
                                 "  %2 = Print(\"w\", %para1_x, IO)\n"
                                 "  %3 = UpdateState(IO, %2)\n"
                                 "  %4 = Depend(%para1_x, %1)\n"
                                 "  %5 = Depend(%4, %3)\n"
                                 "  Return(%5)\n"),
                         "effects.ir");
        const std::string before = printIr(*m);
        const auto group = passes::makeOptAPass();
        for (const auto& p : group->children()) {
            runPass(p, *m);
        }
        QCOMPARE(printIr(*m), before);
    }

    void arithmeticIdentitiesThatKeepTheType() {
        auto m = parseIr(
            program("%para1_x : <Tensor[Float32], (2)>\n%para2_n : <Tensor[Int32], (2)>",
                    "  %0 = Mul(%para1_x, Tensor(shape=[2], dtype=Float32, value=[1, 1]))\n"
                    "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> "
                    "(<Tensor[Float32], (2)>)\n"
                    "  %1 = Add(F32(0), %0)\n"
                    "      : (<Float32, NoShape>, <Tensor[Float32], (2)>) -> "
                    "(<Tensor[Float32], (2)>)\n"
                    "  %2 = MakeTuple(%1)\n"
                    "      : (<Tensor[Float32], (2)>) -> (<Tuple[Tensor[Float32]], "
                    "TupleShape((2))>)\n"
                    "  %3 = AddN(%2)\n"
                    "      : (<Tuple[Tensor[Float32]], TupleShape((2))>) -> "
                    "(<Tensor[Float32], (2)>)\n"
                    "  %4 = Mul(%para2_n, F32(1))\n"
                    "      : (<Tensor[Int32], (2)>, <Float32, NoShape>) -> "
                    "(<Tensor[Float32], (2)>)\n"
                    "  %5 = Mul(%3, Tensor(shape=[3, 1], dtype=Float32, value=[[1], [1], [1]]))\n"
                    "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (3, 1)>) -> "
                    "(<Tensor[Float32], (3, 2)>)\n"
                    "  %6 = MakeTuple(%4, %5)\n"
                    "  %7 = TupleGetItem(%6, I64(1))\n"
                    "  %8 = MakeTuple(%4, %7)\n"
                    "  Return(%8)\n"),
            "arith.ir");
        QVERIFY(runPass(passes::makeArithmeticSimplifyPass(), *m));
        const std::string text = printIr(*m);
        // x*1, 0+x, AddN of one and the TupleGetItem go; the Int32 * 1.0 (a promotion) and
        // the broadcasting Mul stay.
        QCOMPARE(countPrim(*m, "AddN"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Add"), std::size_t(0));
        QCOMPARE(countPrim(*m, "TupleGetItem"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(2));
        QVERIFY2(text.find("Mul(%para1_x, Tensor(shape=[3, 1]") != std::string::npos, text.c_str());
        QVERIFY2(text.find("Mul(%para2_n, F32(1))") != std::string::npos, text.c_str());
    }

    void constantsFoldButEffectsDoNot() {
        auto m = parseIr(program(kXW,
                                 "  %0 = Add(Tensor(shape=[2], dtype=Float32, value=[1, 2]), "
                                 "Tensor(shape=[2], dtype=Float32, value=[10, 20]))\n"
                                 "  %1 = Mul(%para1_x, %0)\n"
                                 "  %2 = Assign(%para2_w, Tensor(shape=[2], dtype=Float32, "
                                 "value=[0, 0]), U)\n"
                                 "  %3 = UpdateState(U, %2)\n"
                                 "  %4 = Depend(%1, %3)\n"
                                 "  Return(%4)\n"),
                         "fold.ir");
        QVERIFY(runPass(passes::makeConstantFoldingPass(), *m));
        const std::string text = printIr(*m);
        QVERIFY2(text.find("Mul(%para1_x, Tensor(shape=[2], dtype=Float32, value=[11, 22]))") !=
                     std::string::npos,
                 text.c_str());
        QCOMPARE(countPrim(*m, "Assign"), std::size_t(1));
        QVERIFY(!runPass(passes::makeConstantFoldingPass(), *m));
    }

    void cseMergesPureNodesOnly() {
        auto m = parseIr(program(kXW,
                                 "  %0 = Neg(%para1_x)\n"
                                 "  %1 = Neg(%para1_x)\n"
                                 "  %2 = Add(%0, %1)\n"
                                 "  %3 = Load(%para2_w, U)\n"
                                 "  %4 = UpdateState(U, %3)\n"
                                 "  %5 = Assign(%para2_w, %2, %4)\n"
                                 "  %6 = UpdateState(%4, %5)\n"
                                 "  %7 = Load(%para2_w, %6)\n"
                                 "  %8 = Mul(%3, %2)\n"
                                 "  %9 = Mul(%7, %2)\n"
                                 "  %10 = Mul(%3, %2)\n"
                                 "  %11 = MakeTuple(%8, %9, %10)\n"
                                 "  %12 = UpdateState(%6, %7)\n"
                                 "  %13 = Depend(%11, %12)\n"
                                 "  Return(%13)\n"),
                         "cse.ir");
        QVERIFY(runPass(passes::makeCsePass(), *m));
        const std::string text = printIr(*m);
        QCOMPARE(countPrim(*m, "Neg"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Load"), std::size_t(2));  // different states
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(2));   // %10 is %8; %9 reads the new w
        QCOMPARE(countPrim(*m, "Assign"), std::size_t(1));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
    }

    void cseKeepsDirectReadsOfAWeightApart() {
        // Before auto_monad a weight is read directly: x * w before and after an assign
        // are different values and must stay two nodes.
        auto m = parseIr(program(kXW,
                                 "  %0 = Mul(%para1_x, %para2_w)\n"
                                 "  %1 = Assign(%para2_w, %para1_x)\n"
                                 "  %2 = Mul(%para1_x, %para2_w)\n"
                                 "  %3 = MakeTuple(%1)\n"
                                 "  %4 = StopGradient(%3)\n"
                                 "  %5 = Add(%0, %2)\n"
                                 "  %6 = Depend(%5, %4)\n"
                                 "  Return(%6)\n"),
                         "ref.ir");
        QVERIFY(!runPass(passes::makeCsePass(), *m));
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(2));
    }

    void dceKeepsWhatReturnReaches() {
        auto m = parseIr(program(kX,
                                 "  %0 = Neg(%para1_x)\n"
                                 "  %1 = Exp(%para1_x)\n"
                                 "  %2 = Print(\"isolated\")\n"
                                 "  %3 = MakeTuple(%2)\n"
                                 "  %4 = StopGradient(%3)\n"
                                 "  %5 = Depend(%0, %4)\n"
                                 "  %6 = Partial(@g)\n"
                                 "  Return(%5)\n",
                                 "subgraph @g(%para2_a) {\n  Return(%para2_a)\n}\n"),
                         "dce.ir");
        const std::size_t before = m->liveNodeCount();
        QVERIFY(runPass(passes::makeDcePass(), *m));
        QCOMPARE(countPrim(*m, "Print"), std::size_t(1));
        QVERIFY(m->liveNodeCount() < before);
        QCOMPARE(m->graphs().size(), std::size_t(1));  // @g was only named by dead code
        bool hasExp = false;
        m->forEachNode([&](Node* n) {
            const auto* c = nodeCast<CNode>(n);
            hasExp = hasExp || (c != nullptr && c->isPrimitive("Exp"));
        });
        QVERIFY(!hasExp);
        QVERIFY(!runPass(passes::makeDcePass(), *m));
    }

    void wholeGroupReachesAFixedPointWithTheSameResult() {
        auto m = parseIr(program(kX,
                                 "  %0 = Mul(%para1_x, F32(1))\n"
                                 "      : (<Tensor[Float32], (2)>, <Float32, NoShape>) -> "
                                 "(<Tensor[Float32], (2)>)\n"
                                 "  %1 = Less(Tensor(shape=[], dtype=Float32, value=1), "
                                 "Tensor(shape=[], dtype=Float32, value=2))\n"
                                 "  %2 = Switch(%1, @✓f, @✗f)\n"
                                 "  %3 = %2(%0)\n"
                                 "  %4 = Neg(%0)\n"
                                 "  %5 = Neg(%0)\n"
                                 "  %6 = Sub(%3, %4)\n"
                                 "  %7 = Mul(%6, %5)\n"
                                 "  Return(%7)\n",
                                 "subgraph @✓f(%para2_x) {\n  %0 = Exp(%para2_x)\n"
                                 "  Return(%0)\n}\n"
                                 "subgraph @✗f(%para3_x) {\n  Return(%para3_x)\n}\n"),
                         "group.ir");
        const std::vector<double> before = eval(*m, f32({0, 1}));
        passes::PassContext ctx;
        QVERIFY(passes::makeOptAPass()->run(*m, ctx));
        QCOMPARE(eval(*m, f32({0, 1})), before);
        QCOMPARE(m->graphs().size(), std::size_t(1));
        QCOMPARE(countPrim(*m, "Neg"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(0));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
        QVERIFY(!passes::makeOptAPass()->run(*m, ctx));
    }

    void unrolledLoopKeepsItsStateChain() {
        // A counter loop whose body assigns the weight and reads it back, threading U.
        auto m =
            parseIr(program(kXW,
                            "  %0 = call @↵f(%para1_x, Tensor(shape=[], dtype=Int32, value=0), U)\n"
                            "  Return(%0)\n",
                            "subgraph @↵f(%para3_x, %para4_i, %para5_u) {\n"
                            "  %0 = Less(%para4_i, Tensor(shape=[], dtype=Int32, value=3))\n"
                            "  %1 = Partial(@↻f, %para3_x, %para4_i)\n"
                            "  %2 = Partial(@↓f, %para3_x)\n"
                            "  %3 = Switch(%0, %1, %2)\n"
                            "  %4 = %3(%para5_u)\n"
                            "  Return(%4)\n}\n"
                            "subgraph @↻f(%para6_x, %para7_i, %para8_u) {\n"
                            "  %0 = Assign(%para2_w, %para6_x, %para8_u)\n"
                            "  %1 = UpdateState(%para8_u, %0)\n"
                            "  %2 = Load(%para2_w, %1)\n"
                            "  %3 = TensorMove(%2)\n"
                            "  %4 = UpdateState(%1, %3)\n"
                            "  %5 = Mul(%3, F32(2))\n"
                            "  %6 = Add(%para7_i, Tensor(shape=[], dtype=Int32, value=1))\n"
                            "  %7 = call @↵f(%5, %6, %4)\n"
                            "  Return(%7)\n}\n"
                            "subgraph @↓f(%para9_x, %para10_u) {\n"
                            "  %0 = Depend(%para9_x, %para10_u)\n"
                            "  Return(%0)\n}\n"),
                    "loop_monad.ir");
        auto run = [&] {
            Tensor w = f32({0, 0});
            const auto out =
                runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({1, 3})}, {{"w", w}});
            std::vector<double> v = values(out.tensor());
            const std::vector<double> wv = values(w);
            v.insert(v.end(), wv.begin(), wv.end());
            return v;
        };
        QCOMPARE(run(), (std::vector<double>{8, 24, 4, 12}));
        passes::PassContext ctx;
        QVERIFY(passes::makeOptAPass()->run(*m, ctx));
        QCOMPARE(graphNames(*m), std::vector<std::string>{"f"});
        QCOMPARE(countPrim(*m, "Assign"), std::size_t(3));
        QCOMPARE(countPrim(*m, "Load"), std::size_t(3));
        QCOMPARE(run(), (std::vector<double>{8, 24, 4, 12}));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
    }

    void pipelineUnrollsACounterLoopAndKeepsPrintOrder() {
        const script_test::Run r = runScript(
            "import numpy as np\n"
            "import mindspore as ms\n"
            "from mindspore import nn, Tensor\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "class Net(nn.Cell):\n"
            "    def construct(self, x):\n"
            "        i = Tensor(0, ms.int32)\n"
            "        while i < 3:\n"
            "            x = x * 2\n"
            "            print('iter', i)\n"
            "            i = i + 1\n"
            "        return x\n"
            "print(Net()(Tensor(np.array([1.0, 2.0], np.float32))))\n");
        QCOMPARE(QString::fromStdString(r.out),
                 QString("iter\nTensor(shape=[], dtype=Int32, value=0)\n"
                         "iter\nTensor(shape=[], dtype=Int32, value=1)\n"
                         "iter\nTensor(shape=[], dtype=Int32, value=2)\n"
                         "[ 8. 16.]\n"));
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
        const auto& rec = r.session->compiles[0];
        const passes::PassSnapshot* unroll = rec.find("opt_a/loop_unroll");
        QVERIFY(unroll != nullptr);
        QVERIFY(unroll->changed());
        const passes::PassSnapshot* opt = rec.find("opt_a/dce", true);
        QVERIFY(opt != nullptr);
        QCOMPARE(opt->counts().graphs, std::size_t(1));
        const std::string text = opt->text();
        QVERIFY2(text.find("Switch") == std::string::npos, text.c_str());
    }

    void pipelineMergesRepeatedWorkOfAnUnrolledFor() {
        // The seed's compile-cache loop: input_x * input_y is the same in every iteration.
        const script_test::Run r = runScript(
            "import mindspore as ms\n"
            "from mindspore import Tensor\n"
            "@ms.jit\n"
            "def func(x, y):\n"
            "    out = x\n"
            "    for _ in range(50):\n"
            "        out = x + x * y + out\n"
            "    return out\n"
            "print(func(Tensor([1.0]), Tensor([2.0])))\n");
        QCOMPARE(QString::fromStdString(r.out), QString("[151.]\n"));
        const auto& rec = r.session->compiles.at(0);
        const auto* typed = rec.find("type_inference");
        const auto* cse = rec.find("opt_a/cse");
        QVERIFY(typed != nullptr && cse != nullptr);
        QCOMPARE(typed->counts().cnodes, std::size_t(151));  // 3 ops x 50 + Return
        QCOMPARE(cse->counts().cnodes, std::size_t(53));     // x * y and x + x*y once
    }
};

QTEST_APPLESS_MAIN(TestOptA)
#include "test_opt_a.moc"
