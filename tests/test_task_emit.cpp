// task_emit on .ir text (passes/README.md, "task_emit"): the execution order respects data,
// UpdateState and Depend edges and the Load rule, breaks ties by source order and is
// deterministic; node ids follow it; the memory plan reuses buffers first-fit; reused CR_
// graphs are inlined at MS_DEV_CELL_REUSE=2 and kept at 1; graphs run through Switch and
// Partial (branches, loop bodies) are planned as the executor runs them.
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"
#include "passes/task_emit.h"
#include "passes/type_inference.h"
#include "script_fixture.h"
#include "store/session.h"

using namespace irscope;
namespace backend = irscope::passes::backend;

namespace {

const char* const kScalarParams =
    "# IR entry: @f\n# Params:\n"
    "%para1_x: <Tensor[Float32], (4)>\n"
    "%para2_param: <Ref[Tensor[Float32]], (4), ref_key=:param> : has_default\n";

std::unique_ptr<ir::Module> typed(const std::string& text) {
    auto m = ir::parseIr(text, "test.ir");
    passes::PassContext ctx;
    passes::makeTypeInferencePass({ir::Abstract::tensor(ir::DType::Float32, ir::Shape{4})})
        ->run(*m, ctx);
    return m;
}

std::unique_ptr<ir::Module> program(const std::string& body) {
    return typed(std::string(kScalarParams) + "subgraph @f() {\n" + body + "}\n");
}

std::vector<std::string> kernelNames(const ir::FuncGraph& g) {
    std::vector<std::string> names;
    for (const auto& v : g.attrs().get("execution_order")->elements) {
        names.push_back(v->text);
    }
    return names;
}

// The debug name's primitive for each CNode of the order, e.g. "Load", "Add".
std::vector<std::string> primitives(const std::vector<ir::CNode*>& order) {
    std::vector<std::string> out;
    for (const ir::CNode* c : order) {
        out.push_back(c->primitive() ? c->primitive()->name : "call");
    }
    return out;
}

std::size_t positionOf(const std::vector<ir::CNode*>& order, std::string_view prim) {
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (order[i]->isPrimitive(prim)) {
            return i;
        }
    }
    return order.size();
}

// Inputs before users, node ids increasing along the order.
bool consistent(const ir::FuncGraph& g) {
    const std::vector<ir::CNode*> order = backend::executionOrder(g);
    std::set<const ir::Node*> done;
    for (std::size_t i = 0; i < order.size(); ++i) {
        for (const ir::Node* in : order[i]->inputs()) {
            if (in->isCNode() && in->graph() == &g && !done.count(in)) {
                return false;
            }
        }
        if (i > 0 && order[i - 1]->id() >= order[i]->id()) {
            return false;
        }
        done.insert(order[i]);
    }
    return true;
}

std::uint64_t taskEmit(ir::Module& m, std::int64_t reuse = 0) {
    passes::Settings s;
    s.set(std::string(passes::kCellReuse), reuse);
    passes::PassContext ctx(s);
    passes::makeTaskEmitPass()->run(m, ctx);
    if (!m.verify().empty()) {
        throw std::runtime_error(m.verify());
    }
    return ctx.peakBytes().value_or(0);
}

std::string readData(const std::string& name) {
    std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

class TestTaskEmit : public QObject {
    Q_OBJECT

private slots:
    void loadReadersRunBeforeTheNextWrite() {
        // In source order the Assign comes first; the Add reads the Load and does not depend
        // on the Assign, so it runs before it.
        auto m = program(
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = UpdateState(U, %0)\n"
            "  %2 = Assign(%para2_param, %para1_x, %1)\n"
            "  %3 = UpdateState(%1, %2)\n"
            "  %4 = Add(%0, %para1_x)\n"
            "  %5 = Depend(%4, %3)\n"
            "  Return(%5)\n");
        const auto before = backend::executionOrder(*m->entry());
        QVERIFY(positionOf(before, "Add") < positionOf(before, "Assign"));
        taskEmit(*m);
        QVERIFY(consistent(*m->entry()));
        const std::string text = ir::printIr(*m);
        QVERIFY2(text.find("Add(") < text.find("Assign("), text.c_str());
        QCOMPARE(kernelNames(*m->entry()).size(), std::size_t(6));
    }

    void aReaderDependingOnTheWriteRunsAfterIt() {
        auto m = program(
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = UpdateState(U, %0)\n"
            "  %2 = Assign(%para2_param, %para1_x, %1)\n"
            "  %3 = UpdateState(%1, %2)\n"
            "  %4 = Depend(%0, %3)\n"
            "  %5 = Mul(%4, %para1_x)\n"
            "  Return(%5)\n");
        taskEmit(*m);
        const auto order = backend::executionOrder(*m->entry());
        QVERIFY(positionOf(order, "Assign") < positionOf(order, "Mul"));
        QVERIFY(consistent(*m->entry()));
    }

    void tiesFollowSourceOrder() {
        auto m = program(
            "  %0 = Neg(%para1_x)\n"
            "  %1 = Abs(%para1_x)\n"
            "  %2 = Exp(%para1_x)\n"
            "  %3 = MakeTuple(%2, %0, %1)\n"
            "  Return(%3)\n");
        taskEmit(*m);
        const auto order = backend::executionOrder(*m->entry());
        QCOMPARE(primitives(order),
                 (std::vector<std::string>{"Neg", "Abs", "Exp", "MakeTuple", "Return"}));
    }

    void monadChainOrdersSideEffects() {
        // The first Print created (smallest id) is chained after the second by its IO
        // state, which the text format cannot write (no forward references): built here.
        ir::Module m;
        ir::FuncGraph* g = m.addGraph("f");
        m.setEntry(g);
        ir::Parameter* x = m.addParameter(g, "x");
        auto prim = [&](const char* name) { return m.addValue(g, ir::Value::primitive(name)); };
        ir::Node* io = m.addValue(g, ir::Value::monadValue(ir::MonadKind::IO));
        ir::CNode* late = m.addCNode(g, {prim("Print"), x, io});
        ir::CNode* neg = m.addCNode(g, {prim("Neg"), x});
        ir::CNode* early = m.addCNode(g, {prim("Print"), neg, io});
        ir::CNode* u1 = m.addCNode(g, {prim("UpdateState"), io, early});
        m.setInput(late, 2, u1);
        ir::CNode* u2 = m.addCNode(g, {prim("UpdateState"), u1, late});
        m.setOutput(g, m.addCNode(g, {prim("Depend"), neg, u2}));
        const auto order = backend::executionOrder(*g);
        QCOMPARE(order.at(1), early);
        QCOMPARE(order.at(3), late);
        backend::ExecutionOrders orders;
        QVERIFY(backend::applyExecutionOrder(m, &orders));
        QVERIFY(m.verify().empty());
        QVERIFY(consistent(*g));
        // The order handed back (to the memory plan) is the renumbered graph's own order.
        QCOMPARE(orders.size(), std::size_t{1});
        QCOMPARE(orders.at(g), backend::executionOrder(*g));
        QCOMPARE(orders.at(g).at(1), early);
        // Ids now follow the order: the Print of Neg is printed first.
        const std::string text = ir::printIr(m);
        QVERIFY2(text.find("Print(%0") < text.find("Print(%para1_x"), text.c_str());
    }

    void deterministicAndIdempotent() {
        const std::string body =
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = UpdateState(U, %0)\n"
            "  %2 = Assign(%para2_param, %para1_x, %1)\n"
            "  %3 = UpdateState(%1, %2)\n"
            "  %4 = Add(%0, %para1_x)\n"
            "  %5 = Sub(%para1_x, %0)\n"
            "  %6 = MakeTuple(%4, %5)\n"
            "  %7 = Depend(%6, %3)\n"
            "  Return(%7)\n";
        auto a = program(body);
        auto b = program(body);
        taskEmit(*a);
        taskEmit(*b);
        QCOMPARE(ir::printIr(*a), ir::printIr(*b));
        const std::string once = ir::printIr(*a);
        passes::PassContext ctx;
        QVERIFY(!passes::makeTaskEmitPass()->run(*a, ctx));
        QCOMPARE(ir::printIr(*a), once);
    }

    void unorderedWritesAreACompileError() {
        // Two writes that follow one Load, each Load reader depending on the other write.
        auto m = program(
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = UpdateState(U, %0)\n"
            "  %2 = Assign(%para2_param, %para1_x, %1)\n"
            "  %3 = Assign(%para2_param, %para1_x, %1)\n"
            "  %4 = Depend(%0, %3)\n"
            "  %5 = Depend(%0, %2)\n"
            "  %6 = MakeTuple(%4, %5)\n"
            "  Return(%6)\n");
        QVERIFY_THROWS_EXCEPTION(passes::CompileError, taskEmit(*m));
    }

    void chainNeedsTwoBuffers() {
        auto m = program(
            "  %0 = Neg(%para1_x)\n"
            "  %1 = Abs(%0)\n"
            "  %2 = Exp(%1)\n"
            "  %3 = Neg(%2)\n"
            "  Return(%3)\n");
        const auto order = backend::executionOrder(*m->entry());
        const backend::MemoryPlan plan = backend::planMemory(*m->entry(), order);
        QCOMPARE(plan.buffers.size(), std::size_t(4));
        std::set<std::uint64_t> offsets;
        for (const auto& b : plan.buffers) {
            offsets.insert(b.offset);
            QCOMPARE(b.size, backend::kMemAlign);
        }
        QCOMPARE(offsets.size(), std::size_t(2));
        QCOMPARE(plan.peakBytes, 2 * backend::kMemAlign);
        QCOMPARE(taskEmit(*m), 2 * backend::kMemAlign);
        QCOMPARE(m->entry()->attrs().get("memory_peak_bytes")->i,
                 static_cast<std::int64_t>(2 * backend::kMemAlign));
    }

    void liveBuffersAreNotShared() {
        // %0 is read again at the end: three buffers live at once.
        auto m = program(
            "  %0 = Neg(%para1_x)\n"
            "  %1 = Abs(%0)\n"
            "  %2 = Exp(%1)\n"
            "  %3 = Add(%2, %0)\n"
            "  Return(%3)\n");
        QCOMPARE(taskEmit(*m), 3 * backend::kMemAlign);
    }

    void tensorMoveAddsABufferLoadNone() {
        auto plain = program(
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = Neg(%0)\n"
            "  Return(%1)\n");
        auto moved = program(
            "  %0 = Load(%para2_param, U)\n"
            "  %1 = TensorMove(%0)\n"
            "  %2 = Neg(%1)\n"
            "  Return(%2)\n");
        const auto p =
            backend::planMemory(*plain->entry(), backend::executionOrder(*plain->entry()));
        const auto q =
            backend::planMemory(*moved->entry(), backend::executionOrder(*moved->entry()));
        QCOMPARE(p.buffers.size(), std::size_t(1));
        QCOMPARE(q.buffers.size(), std::size_t(2));
        QVERIFY(q.peakBytes > p.peakBytes);
    }

    void seedPeaksFallWithTheLoadElimLevel() {
        // Level 0 (a TensorMove after each Load) needs more memory than level 3 (none);
        // levels 1 and 2 come from the load elimination pass on the level-3 listing.
        const ir::AbstractPtr input = ir::Abstract::tensor(ir::DType::Int32, ir::Shape{});
        auto peakOf = [&](std::unique_ptr<ir::Module> m) {
            passes::PassContext ctx;
            passes::makeTypeInferencePass({input})->run(*m, ctx);
            return taskEmit(*m);
        };
        std::vector<std::uint64_t> peaks;
        peaks.push_back(peakOf(ir::parseIr(readData("seed_load_elim_level0.ir"), "l0.ir")));
        for (int level : {1, 2}) {
            auto m = ir::parseIr(readData("seed_load_elim_level3.ir"), "l3.ir");
            passes::Settings s;
            s.set(std::string(passes::kSideEffectLoadElim), std::int64_t{level});
            passes::PassContext ctx(s);
            passes::makeAutoMonadReorderPass()->run(*m, ctx);
            peaks.push_back(peakOf(std::move(m)));
        }
        peaks.push_back(peakOf(ir::parseIr(readData("seed_load_elim_level3.ir"), "l3.ir")));
        qInfo("peak bytes by level 0-3: %s %s %s %s", std::to_string(peaks[0]).c_str(),
              std::to_string(peaks[1]).c_str(), std::to_string(peaks[2]).c_str(),
              std::to_string(peaks[3]).c_str());
        QVERIFY(peaks[0] >= peaks[1] && peaks[1] >= peaks[2] && peaks[2] >= peaks[3]);
        QVERIFY(peaks[0] > peaks[3]);
        QVERIFY(peaks[3] > 0);
    }

    // A tensor `while` (a cycle of tail calls through Switch/Partial) and an `if` on a
    // tensor (one branch graph per side) are planned as the executor runs them: the plan's
    // peak is the peak the run really held. 256 float32 = 1024 bytes, a scalar 512.
    void plannedPeakIsTheRunsThroughSwitchAndLoops_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<qulonglong>("peak");
        const std::string header =
            "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, jit\n";
        // Each iteration's frame: x and i (1536), x * 2 and its + 1 (2048).
        QTest::newRow("while") << QString::fromStdString(
            header +
            "@jit\ndef f(x, n):\n    i = Tensor(0, ms.int32)\n    while i < n:\n"
            "        x = x * 2.0 + 1.0\n        i = i + 1\n    return x\n"
            "print(f(Tensor(np.ones((256,)), ms.float32), Tensor(3, ms.int32)))\n")
                               << qulonglong(3584);
        // The comparison's sums and bool (3 * 512) until the Switch, then x * 3 and + y.
        QTest::newRow("if") << QString::fromStdString(
            header +
            "@jit\ndef g(x, y):\n    if x.sum() > y.sum():\n        z = x * 3.0 + y\n"
            "    else:\n        z = y - x\n    return z * 2.0\n"
            "print(g(Tensor(np.ones((256,)), ms.float32), "
            "Tensor(np.zeros((256,)), ms.float32)))\n") << qulonglong(2048);
        // Four unrolled `if`s chained by tail calls: x and out carried (1024), x - y, the
        // Less and out + x (1536) in the third branch graph.
        QTest::newRow("if chain") << QString::fromStdString(
            header +
            "@jit\ndef h(x, y):\n    out = 0\n    for _ in range(4):\n        if x < y:\n"
            "            x = x - y\n        else:\n            x = x + y\n"
            "        out = out + x\n    return out\n"
            "print(h(Tensor([0]), Tensor([1])))\n") << qulonglong(2560);
    }

    void plannedPeakIsTheRunsThroughSwitchAndLoops() {
        QFETCH(QString, script);
        QFETCH(qulonglong, peak);
        const script_test::Run r = script_test::runScript(script.toStdString());
        QVERIFY2(r.result.status == interp::RunResult::Status::Ok, r.out.c_str());
        QVERIFY(!r.session->runs.empty());
        const store::RunRecord& run = r.session->runs.front();
        QVERIFY2(run.error.empty(), run.error.c_str());
        QCOMPARE(qulonglong(run.stats.peakBytes), peak);
        QCOMPARE(qulonglong(run.stats.plannedPeakBytes), peak);
    }

    void reusedGraphsInlineAtLevel2() {
        const std::string text = std::string(kScalarParams) +
                                 "subgraph attr:\nlazy_inline: Bool(1)\n"
                                 "subgraph @f() {\n"
                                 "  %0 = call @CR_Block(%para1_x)\n"
                                 "  %1 = call @CR_Block(%0)\n"
                                 "  Return(%1)\n}\n"
                                 "subgraph attr:\nno_inline: Bool(1)\ncell_reuse: Bool(1)\n"
                                 "subgraph @CR_Block(%para3_h) {\n"
                                 "  %0(CNode_1$n) = Neg(%para3_h)\n"
                                 "  %1(CNode_2$a) = Abs(%0)\n"
                                 "  Return(%1)\n}\n";
        auto kept = typed(text);
        taskEmit(*kept, 1);
        QCOMPARE(kept->counts().graphs, std::size_t(2));
        // Level 1: the order lists the callee's kernels at each call.
        QCOMPARE(kernelNames(*kept->entry()),
                 (std::vector<std::string>{"CNode_1$n", "CNode_2$a", "CNode_1$n", "CNode_2$a"}));
        QVERIFY(kept->findGraph("CR_Block")->attrs().get("memory_peak_bytes") != nullptr);

        auto flat = typed(text);
        taskEmit(*flat, 2);
        QCOMPARE(flat->counts().graphs, std::size_t(1));
        QCOMPARE(flat->graphs().size(), std::size_t(1));
        QCOMPARE(primitives(backend::executionOrder(*flat->entry())),
                 (std::vector<std::string>{"Neg", "Abs", "Neg", "Abs", "Return"}));
        QCOMPARE(kernelNames(*flat->entry()), kernelNames(*kept->entry()));
    }
};

QTEST_APPLESS_MAIN(TestTaskEmit)
#include "test_task_emit.moc"
