// The pass manager and its instrumentation: what a compile records after every pass
// (names, order, depth, real changes, counts, texts that parse back, times), groups
// iterated to a fixed point, errors recorded against the failing pass, cancellation,
// progress, save_graphs files named as MindSpore names them, and snapshot memory.
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <thread>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/pass_manager.h"
#include "passes/save_graphs_instrumentation.h"
#include "passes/snapshot_instrumentation.h"
#include "passes/timing_instrumentation.h"
#include "passes/verifier_instrumentation.h"
#include "passes/compile_record.h"
#include "store/session.h"
#include "test_files.h"
#include "util/compressed_text.h"

using namespace irscope;
using namespace irscope::ir;
using namespace irscope::passes;
using irscope::passes::CompileRecord;
using irscope::passes::PassSnapshot;

namespace {

AbstractPtr i32() {
    return Abstract::tensor(DType::Int32, Shape{});
}

// Net_construct(x, y) = Neg(Add(x, y)), typed, with debug names and scopes.
std::unique_ptr<Module> smallModule() {
    auto m = std::make_unique<Module>();
    FuncGraph* g = m->addGraph("Net_construct");
    m->setEntry(g);
    Parameter* x = m->addParameter(g, "x");
    x->setAbstract(i32());
    Parameter* y = m->addParameter(g, "y");
    y->setAbstract(i32());
    CNode* add = m->addCNode(g, {m->addValue(g, Value::primitive("Add")), x, y});
    add->setAbstract(i32());
    add->mutableDebug().name = "CNode_1";
    add->mutableDebug().scope = "Default/network-Net/Add-op0";
    CNode* neg = m->addCNode(g, {m->addValue(g, Value::primitive("Neg")), add});
    neg->setAbstract(i32());
    neg->mutableDebug().name = "CNode_2";
    neg->mutableDebug().scope = "Default/network-Net/Neg-op1";
    m->setOutput(g, neg);
    return m;
}

// Wraps the entry's output in one more Neg.
bool addNeg(Module& m, PassContext&) {
    FuncGraph* g = m.entry();
    Node* out = g->output();
    CNode* neg = m.addCNode(g, {m.addValue(g, Value::primitive("Neg")), out});
    neg->setAbstract(i32());
    m.setInput(g->returnNode(), 1, neg);
    return true;
}

// Wraps the entry's output in one more Neg of the output's type (addNeg's Neg is Int32).
void wrapOutputInNeg(Module& m) {
    FuncGraph* g = m.entry();
    CNode* c = m.addCNode(g, {m.addValue(g, Value::primitive("Neg")), g->output()});
    c->setAbstract(g->output()->abstract());
    m.setInput(g->returnNode(), 1, c);
}

// Gives every CNode of the entry a new abstract equal to its old one: a new fingerprint,
// the same text.
void rebuildAbstracts(Module& m) {
    for (CNode* c : m.entry()->topoOrder()) {
        if (const AbstractPtr a = c->abstract(); a && a->kind == Abstract::Kind::Tensor) {
            c->setAbstract(Abstract::tensor(a->dtype, a->shape, a->valueKnown));
        }
    }
}

// Removes an outer Neg(Neg(z)) pair's first Neg: Neg(Neg(z)) -> Neg(z). One per call.
bool stripNeg(Module& m, PassContext&) {
    FuncGraph* g = m.entry();
    auto* outer = nodeCast<CNode>(g->output());
    if (outer == nullptr || !outer->isPrimitive("Neg")) {
        return false;
    }
    auto* inner = nodeCast<CNode>(outer->input(1));
    if (inner == nullptr || !inner->isPrimitive("Neg")) {
        return false;
    }
    m.setInput(g->returnNode(), 1, inner);
    m.erase(outer);
    return true;
}

std::size_t negCount(const Module& m) {
    std::size_t n = 0;
    for (const CNode* c : m.entry()->topoOrder()) {
        n += c->isPrimitive("Neg") ? 1 : 0;
    }
    return n;
}

std::vector<std::string> passNames(const CompileRecord& r) {
    std::vector<std::string> names;
    for (const PassSnapshot& s : r.snapshots) {
        names.push_back(s.pass);
    }
    return names;
}

using test_files::readFile;

std::vector<std::string> listDir(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Logs every hook call as "<hook>:<who>:<path>".
class LogInstrumentation : public PassInstrumentation {
public:
    LogInstrumentation(std::string who, std::vector<std::string>& log)
        : who_(std::move(who)), log_(log) {}
    void beforePipeline(const Module&, const PassContext&) override {
        log_.push_back("beginPipeline:" + who_);
    }
    void beforePass(const PassRun& r, const Module&, const PassContext&) override {
        log_.push_back("before:" + who_ + ":" + r.path);
    }
    void afterPass(const PassRun& r, const Module&, const PassContext&, bool) override {
        log_.push_back("after:" + who_ + ":" + r.path);
    }
    void onError(const PassRun& r, const Module&, const PassContext&,
                 std::string_view msg) override {
        log_.push_back("error:" + who_ + ":" + r.path + ":" + std::string(msg));
    }
    void afterPipeline(const Module&, const PassContext&, const PipelineResult& res) override {
        log_.push_back("endPipeline:" + who_ + ":" + std::string(statusName(res.status)));
    }

private:
    std::string who_;
    std::vector<std::string>& log_;
};

// The standard test pipeline:
//   add_node (changes), claims_change (claims, changes nothing), no_change,
//   opt_a { strip_neg, idle } to a fixed point (bound 5), task_emit (sets a memory peak).
void buildPipeline(PassManager& pm) {
    pm.add(makePass("add_node", "Wraps the output in Neg.", addNeg));
    pm.add(makePass("claims_change", "Says it changed the IR but does not.",
                    [](Module&, PassContext&) { return true; }));
    pm.add(makePass("no_change", "Changes nothing.", [](Module&, PassContext&) { return false; }));
    auto& opt = pm.emplace<PassGroup>("opt_a", "Simplifies until nothing changes.", 5);
    opt.add(makePass("strip_neg", "Removes a double negation.", stripNeg));
    opt.add(makePass("idle", "Finds nothing to do.", [](Module&, PassContext&) { return false; }));
    pm.add(makePass("task_emit", "Plans memory.", [](Module&, PassContext& ctx) {
        ctx.setPeakBytes(4096);
        return false;
    }));
}

// A chain of `n` CNodes (3n counted nodes: each CNode, its primitive and its constant)
// with types, scopes and source lines, like a real dump.
std::unique_ptr<Module> largeModule(int n) {
    auto m = std::make_unique<Module>();
    FuncGraph* top = m->addGraph("Net_construct");
    m->setEntry(top);
    Parameter* x = m->addParameter(top, "x");
    x->setAbstract(Abstract::tensor(DType::Float32, Shape{8, 16}));
    Node* cur = x;
    for (int k = 0; k < n; ++k) {
        CNode* c = m->addCNode(top, {m->addValue(top, Value::primitive(k % 2 ? "Add" : "Mul")), cur,
                                     m->addValue(top, Value::floating(0.5))});
        c->setAbstract(x->abstract());
        c->mutableDebug().name = "CNode_" + std::to_string(k);
        c->mutableDebug().scope =
            "Default/network-Net/blocks-" + std::to_string(k / 100) + "/Add-op" + std::to_string(k);
        c->mutableDebug().trace.push_back(SourceLocation{"net.py", 10 + k % 40, 10 + k % 40, 8, 30,
                                                  "        x = self.blocks[i](x) * 0.5", ""});
        cur = c;
    }
    m->setOutput(top, cur);
    return m;
}

// Prints the module after every pass, on the compile's thread: what each snapshot must hold.
class EagerText : public PassInstrumentation {
public:
    void afterPass(const PassRun&, const Module& m, const PassContext&, bool) override {
        texts.push_back(printIr(m));
        counts.push_back(m.counts());
    }
    std::vector<std::string> texts;
    std::vector<ir::NodeCounts> counts;
};

}  // namespace

class TestPassManager : public QObject {
    Q_OBJECT

private slots:
    void settingsTypedGetters();
    void compressedTextRoundTrip();
    void recordsEverySnapshot();
    void snapshotTextsParseBack();
    void groupIteratesToFixedPointWithBound();
    void groupRunOutsideManager();
    void hooksRunInMlirOrder();
    void groupTimeExcludesChildrensHooks();
    void errorRecordedAgainstFailingPass();
    void errorInsideGroup();
    void cancellationBetweenPasses();
    void cancellationInsideGroup();
    void progressCallback();
    void saveGraphsFileNames();
    void saveGraphsSubPasses();
    void saveGraphsWriteErrorIsReported();
    void sessionHoldsCompiles();
    void snapshotsOfLargeModuleStayCompact();
    void verifierNamesThePassThatBrokeTheIr();
    void snapshotsPrintedOffThreadEqualEagerText();
    void passClaimingNoChangeIsCheckedUnderVerification();
};

void TestPassManager::settingsTypedGetters() {
    Settings s;
    s.set(std::string(kSaveGraphs), std::int64_t{2});
    s.set(std::string(kSideEffectLoadElim), std::string(" 3 "));
    s.set(std::string(kCellReuse), std::string("True"));
    s.set(std::string(kSaveGraphsPath), std::string("out/ir"));
    s.set("BAD", std::string("x1"));
    QCOMPARE(s.getInt(kSaveGraphs), std::int64_t{2});
    QCOMPARE(s.getString(kSaveGraphs), std::string("2"));
    QCOMPARE(s.getInt(kSideEffectLoadElim, 1), std::int64_t{3});
    QCOMPARE(s.getInt(kCellReuse), std::int64_t{1});
    QVERIFY(s.getBool(kCellReuse));
    QCOMPARE(s.getInt("BAD", 7), std::int64_t{7});
    QCOMPARE(s.getInt("MISSING", -1), std::int64_t{-1});
    QCOMPARE(s.getString(kSaveGraphsPath), std::string("out/ir"));
    QCOMPARE(s.getString("MISSING", "d"), std::string("d"));
    QVERIFY(s.erase("BAD"));
    QVERIFY(!s.has("BAD"));
    QCOMPARE(s.toString(), std::string("MS_DEV_CELL_REUSE=True MS_DEV_SAVE_GRAPHS=2 "
                                       "MS_DEV_SAVE_GRAPHS_PATH=out/ir "
                                       "MS_DEV_SIDE_EFFECT_LOAD_ELIM= 3 "));
}

void TestPassManager::compressedTextRoundTrip() {
    const util::CompressedText empty = util::CompressedText::compress("");
    QVERIFY(empty.empty());
    QCOMPARE(empty.text(), std::string());
    std::string big;
    for (int i = 0; i < 10000; ++i) {
        big += "  %" + std::to_string(i) + "(CNode_" + std::to_string(i) + ") = Add(%x, %y)\n";
    }
    const auto c = util::CompressedText::compress(big);
    QCOMPARE(c.rawSize(), big.size());
    QVERIFY(c.compressedSize() < big.size() / 5);
    QCOMPARE(c.text(), big);
    QCOMPARE(c.hash(), util::CompressedText::hashOf(big));
}

void TestPassManager::recordsEverySnapshot() {
    PassManager pm;
    buildPipeline(pm);
    auto m = smallModule();
    const NodeCounts before = m->counts();
    PassContext ctx;
    ctx.settings().set(std::string(kSideEffectLoadElim), std::int64_t{1});
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);

    QCOMPARE(rec.status, passes::CompileStatus::Ok);
    QVERIFY(rec.error.empty());
    QCOMPARE(rec.settings.getInt(kSideEffectLoadElim), std::int64_t{1});
    const std::vector<std::string> expected{"add_node",        "claims_change", "no_change",
                                            "opt_a/strip_neg", "opt_a/idle",    "opt_a/strip_neg",
                                            "opt_a/idle",      "opt_a",         "task_emit"};
    QCOMPARE(passNames(rec), expected);

    // add_node: one Neg and its use more.
    const PassSnapshot& add = rec.snapshots[0];
    QCOMPARE(add.depth, 0);
    QVERIFY(add.changed());
    QVERIFY(add.reportedChange);
    QCOMPARE(add.description, std::string("Wraps the output in Neg."));
    QCOMPARE(add.counts().cnodes, before.cnodes + 1);
    QVERIFY(add.counts().nodes > before.nodes);
    QCOMPARE(add.counts().graphs, std::size_t(1));

    // claims_change reported a change but the text is the same: unchanged, bytes shared.
    const PassSnapshot& claims = rec.snapshots[1];
    QVERIFY(claims.reportedChange);
    QVERIFY(!claims.changed());
    QCOMPARE(claims.compressed().get(), add.compressed().get());
    const PassSnapshot& none = rec.snapshots[2];
    QVERIFY(!none.changed());
    QVERIFY(!none.reportedChange);
    QCOMPARE(none.counts().cnodes, add.counts().cnodes);

    // opt_a's children at depth 1: strip_neg removes the Neg added above in round 0,
    // finds nothing in round 1, and the group stops (no child changed).
    const PassSnapshot& strip0 = rec.snapshots[3];
    QCOMPARE(strip0.depth, 1);
    QCOMPARE(strip0.round, 0);
    QVERIFY(strip0.changed());
    QCOMPARE(strip0.counts().cnodes, before.cnodes);
    QCOMPARE(rec.snapshots[4].round, 0);
    QVERIFY(!rec.snapshots[4].changed());
    QCOMPARE(rec.snapshots[5].round, 1);
    QVERIFY(!rec.snapshots[5].changed());
    QVERIFY(!rec.snapshots[5].reportedChange);
    const PassSnapshot& group = rec.snapshots[7];
    QCOMPARE(group.depth, 0);
    QVERIFY(group.changed());  // compared with the IR before the group
    QVERIFY(group.reportedChange);
    QCOMPARE(group.description, std::string("Simplifies until nothing changes."));

    // The memory peak appears once the plan exists.
    for (std::size_t i = 0; i + 1 < rec.snapshots.size(); ++i) {
        QVERIFY(!rec.snapshots[i].peakBytes.has_value());
    }
    QCOMPARE(rec.snapshots.back().peakBytes, std::optional<std::uint64_t>(4096));

    // Times are present (no assertion on their size).
    for (const PassSnapshot& s : rec.snapshots) {
        QVERIFY(s.millis >= 0.0);
        QVERIFY(s.error.empty());
    }
    QVERIFY(rec.totalMillis > 0.0);
    QCOMPARE(rec.find("opt_a/strip_neg"), &rec.snapshots[3]);
    QCOMPARE(rec.find("opt_a/strip_neg", true), &rec.snapshots[5]);
    QCOMPARE(rec.find("strip_neg"), nullptr);

    // The last snapshot is the final IR.
    QCOMPARE(rec.snapshots.back().text(), printIr(*m));
}

void TestPassManager::snapshotTextsParseBack() {
    PassManager pm;
    buildPipeline(pm);
    auto m = smallModule();
    PassContext ctx;
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QVERIFY(!rec.snapshots.empty());
    for (const PassSnapshot& s : rec.snapshots) {
        const std::string text = s.text();
        QVERIFY(!text.empty());
        QCOMPARE(text.size(), s.rawSize());
        QVERIFY(s.compressedSize() > 0);
        auto back = s.module();
        QVERIFY(back != nullptr);
        QCOMPARE(printIr(*back), text);
        QCOMPARE(back->counts().cnodes, s.counts().cnodes);
        QCOMPARE(back->counts().nodes, s.counts().nodes);
    }
    // And the first snapshot holds the IR as add_node left it: Neg(Neg(Add)).
    auto first = rec.snapshots.front().module();
    QCOMPARE(negCount(*first), std::size_t(2));
}

void TestPassManager::groupIteratesToFixedPointWithBound() {
    // strip_neg needs three rounds for three extra Negs, then one more to see no change.
    {
        PassManager pm;
        for (int i = 0; i < 3; ++i) {
            pm.add(makePass("add_node", "", addNeg));
        }
        auto& g = pm.emplace<PassGroup>("opt_a", "", 10);
        g.add(makePass("strip_neg", "", stripNeg));
        auto m = smallModule();
        PassContext ctx;
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(rec.status, passes::CompileStatus::Ok);
        std::vector<int> rounds;
        std::vector<bool> changed;
        for (const PassSnapshot& s : rec.snapshots) {
            if (s.pass == "opt_a/strip_neg") {
                rounds.push_back(s.round);
                changed.push_back(s.changed());
            }
        }
        QCOMPARE(rounds, (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(changed, (std::vector<bool>{true, true, true, false}));
        QCOMPARE(negCount(*m), std::size_t(1));
    }
    // A child that always claims a change stops at the bound.
    {
        PassManager pm;
        auto& g = pm.emplace<PassGroup>("opt_a", "", 3);
        g.add(makePass("claims_change", "", [](Module&, PassContext&) { return true; }));
        auto m = smallModule();
        PassContext ctx;
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(passNames(rec),
                 (std::vector<std::string>{"opt_a/claims_change", "opt_a/claims_change",
                                           "opt_a/claims_change", "opt_a"}));
        QCOMPARE(rec.snapshots[2].round, 2);
        QVERIFY(!rec.snapshots[3].changed());
        QVERIFY(rec.snapshots[3].reportedChange);
    }
}

void TestPassManager::groupRunOutsideManager() {
    PassGroup g("opt_a", "", 10);
    g.add(makePass("strip_neg", "", stripNeg));
    auto m = smallModule();
    PassContext ctx;
    addNeg(*m, ctx);
    addNeg(*m, ctx);
    QCOMPARE(negCount(*m), std::size_t(3));
    QVERIFY(g.run(*m, ctx));
    QCOMPARE(negCount(*m), std::size_t(1));
    QVERIFY(!g.run(*m, ctx));
    QCOMPARE(m->verify(), std::string());
}

void TestPassManager::hooksRunInMlirOrder() {
    PassManager pm;
    pm.add(makePass("parse", "", [](Module&, PassContext&) { return false; }));
    auto& g = pm.emplace<PassGroup>("opt_a", "", 2);
    g.add(makePass("cse", "", [](Module&, PassContext&) { return false; }));
    std::vector<std::string> log;
    pm.addInstrumentation(std::make_shared<LogInstrumentation>("A", log));
    LogInstrumentation b("B", log);
    PassInstrumentation* const extra[] = {&b};
    auto m = smallModule();
    PassContext ctx;
    const PipelineResult r = pm.run(*m, ctx, extra);
    QCOMPARE(r.status, PipelineStatus::Ok);
    const std::vector<std::string> expected{
        "beginPipeline:A",    "beginPipeline:B",    "before:A:parse",    "before:B:parse",
        "after:B:parse",      "after:A:parse",      "before:A:opt_a",    "before:B:opt_a",
        "before:A:opt_a/cse", "before:B:opt_a/cse", "after:B:opt_a/cse", "after:A:opt_a/cse",
        "after:B:opt_a",      "after:A:opt_a",      "endPipeline:B:ok",  "endPipeline:A:ok"};
    QCOMPARE(log, expected);
}

// An instrumentation that is slow around every child of opt_a (as snapshots of a big module
// are) must not be billed to opt_a: the group's time is its children's, the total keeps all.
void TestPassManager::groupTimeExcludesChildrensHooks() {
    class SlowHooks : public PassInstrumentation {
    public:
        void beforePass(const PassRun& run, const Module&, const PassContext&) override {
            if (run.depth > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        }
        void afterPass(const PassRun& run, const Module&, const PassContext&, bool) override {
            if (run.depth > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        }
    };
    PassManager pm;
    auto& g = pm.emplace<PassGroup>("opt_a", "", 1);
    g.add(makePass("cse", "", [](Module&, PassContext&) { return false; }));
    g.add(makePass("dce", "", [](Module&, PassContext&) { return false; }));
    pm.addInstrumentation(std::make_shared<SlowHooks>());
    auto timing = std::make_shared<TimingInstrumentation>();
    pm.addInstrumentation(timing);
    auto m = smallModule();
    PassContext ctx;
    QCOMPARE(pm.run(*m, ctx).status, PipelineStatus::Ok);
    const auto& e = timing->entries();
    QCOMPARE(e.size(), std::size_t{3});
    QCOMPARE(e[2].path, std::string("opt_a"));
    // Four 20 ms hooks ran inside opt_a's span; none of them is opt_a's own time.
    QVERIFY2(timing->totalMillis() >= 80.0, std::to_string(timing->totalMillis()).c_str());
    QVERIFY2(e[2].millis < 40.0, std::to_string(e[2].millis).c_str());
    QVERIFY(e[2].millis + 1e-6 >= e[0].millis + e[1].millis);  // its children are inside it
}

void TestPassManager::errorRecordedAgainstFailingPass() {
    PassManager pm;
    pm.add(makePass("parse", "", addNeg));
    pm.add(makePass("type_inference", "Infers types.", [](Module& m, PassContext& ctx) -> bool {
        addNeg(m, ctx);  // leaves a change behind before failing
        throw std::runtime_error("net.py:3:5: error: For 'Add', x and y must have the same type");
    }));
    bool laterRan = false;
    pm.add(makePass("validate", "", [&](Module&, PassContext&) {
        laterRan = true;
        return false;
    }));
    std::vector<std::string> log;
    pm.addInstrumentation(std::make_shared<LogInstrumentation>("L", log));
    auto m = smallModule();
    PassContext ctx;
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);

    QCOMPARE(rec.status, passes::CompileStatus::Error);
    QCOMPARE(rec.failedPass, std::string("type_inference"));
    QVERIFY(rec.error.find("must have the same type") != std::string::npos);
    QVERIFY(!laterRan);
    QCOMPARE(passNames(rec), (std::vector<std::string>{"parse", "type_inference"}));
    const PassSnapshot& failed = rec.snapshots[1];
    QCOMPARE(failed.error, rec.error);
    QVERIFY(failed.changed());  // the IR as the failing pass left it
    QCOMPARE(negCount(*failed.module()), std::size_t(3));
    QVERIFY(rec.snapshots[0].error.empty());
    QCOMPARE(log.back(), std::string("endPipeline:L:error"));
    QVERIFY(std::find(log.begin(), log.end(), "after:L:type_inference") == log.end());
    QCOMPARE(log[log.size() - 2].rfind("error:L:type_inference:", 0), std::size_t(0));

    // A pass throwing something that is not a std::exception.
    PassManager pm2;
    pm2.add(makePass("weird", "", [](Module&, PassContext&) -> bool { throw 42; }));
    PassContext ctx2;
    const PipelineResult r2 = pm2.run(*m, ctx2);
    QCOMPARE(r2.status, PipelineStatus::Error);
    QCOMPARE(r2.failedPass, std::string("weird"));
    QCOMPARE(r2.error, std::string("unknown exception"));
}

void TestPassManager::errorInsideGroup() {
    PassManager pm;
    pm.add(makePass("parse", "", [](Module&, PassContext&) { return false; }));
    auto& g = pm.emplace<PassGroup>("opt_a", "", 4);
    g.add(makePass("switch_simplify", "", [](Module&, PassContext&) { return false; }));
    g.add(makePass("cse", "",
                   [](Module&, PassContext&) -> bool { throw std::logic_error("cse: bad node"); }));
    std::vector<std::string> log;
    pm.addInstrumentation(std::make_shared<LogInstrumentation>("L", log));
    auto m = smallModule();
    PassContext ctx;
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QCOMPARE(rec.status, passes::CompileStatus::Error);
    QCOMPARE(rec.failedPass, std::string("opt_a/cse"));
    QCOMPARE(rec.error, std::string("cse: bad node"));
    // The failing child has the error snapshot; its group none.
    QCOMPARE(passNames(rec),
             (std::vector<std::string>{"parse", "opt_a/switch_simplify", "opt_a/cse"}));
    QCOMPARE(rec.snapshots.back().error, std::string("cse: bad node"));
    // onError: the child, then its group; no afterPass for either.
    const std::vector<std::string> tail(log.end() - 3, log.end());
    QCOMPARE(tail,
             (std::vector<std::string>{"error:L:opt_a/cse:cse: bad node",
                                       "error:L:opt_a:cse: bad node", "endPipeline:L:error"}));
}

void TestPassManager::cancellationBetweenPasses() {
    std::stop_source stop;
    PassManager pm;
    pm.add(makePass("parse", "", addNeg));
    pm.add(makePass("symbol_resolve", "", [&](Module&, PassContext&) {
        stop.request_stop();  // as the UI's Cancel button would, from another thread
        return false;
    }));
    bool laterRan = false;
    pm.add(makePass("type_inference", "", [&](Module&, PassContext&) {
        laterRan = true;
        return false;
    }));
    auto m = smallModule();
    PassContext ctx;
    ctx.setCancelToken(stop.get_token());
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QCOMPARE(rec.status, passes::CompileStatus::Cancelled);
    QCOMPARE(std::string(statusName(rec.status)), std::string("cancelled"));
    QVERIFY(rec.error.empty());
    QVERIFY(rec.failedPass.empty());
    QVERIFY(!laterRan);
    QCOMPARE(passNames(rec), (std::vector<std::string>{"parse", "symbol_resolve"}));

    // Cancelled before anything ran.
    PassContext ctx2;
    ctx2.setCancelToken(stop.get_token());
    CompileRecord rec2;
    passes::runRecorded(pm, *m, ctx2, rec2);
    QCOMPARE(rec2.status, passes::CompileStatus::Cancelled);
    QVERIFY(rec2.snapshots.empty());
}

void TestPassManager::cancellationInsideGroup() {
    std::stop_source stop;
    PassManager pm;
    auto& g = pm.emplace<PassGroup>("opt_a", "", 4);
    g.add(makePass("switch_simplify", "", [&](Module&, PassContext&) {
        stop.request_stop();
        return true;
    }));
    g.add(makePass("cse", "", [](Module&, PassContext&) { return false; }));
    pm.add(makePass("validate", "", [](Module&, PassContext&) { return false; }));
    auto m = smallModule();
    PassContext ctx;
    ctx.setCancelToken(stop.get_token());
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QCOMPARE(rec.status, passes::CompileStatus::Cancelled);
    // The child that finished is recorded; the group did not finish, so it is not.
    QCOMPARE(passNames(rec), (std::vector<std::string>{"opt_a/switch_simplify"}));
}

void TestPassManager::progressCallback() {
    PassManager pm;
    buildPipeline(pm);
    std::vector<std::string> seen;
    PassContext ctx;
    ctx.setProgressCallback([&](const PassProgress& p) {
        seen.push_back(std::to_string(p.stage) + "/" + std::to_string(p.stageCount) + " " +
                       std::string(p.path) + " d" + std::to_string(p.depth));
    });
    auto m = smallModule();
    pm.run(*m, ctx);
    const std::vector<std::string> expected{
        "0/5 add_node d0",        "1/5 claims_change d0",   "2/5 no_change d0",
        "3/5 opt_a d0",           "3/5 opt_a/strip_neg d1", "3/5 opt_a/idle d1",
        "3/5 opt_a/strip_neg d1", "3/5 opt_a/idle d1",      "4/5 task_emit d0"};
    QCOMPARE(seen, expected);
}

void TestPassManager::saveGraphsFileNames() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "ir" / "a";

    auto buildMs = [](PassManager& pm) {
        for (const char* name : {"parse", "symbol_resolve", "type_inference"}) {
            pm.add(makePass(name, "", [](Module&, PassContext&) { return false; }));
        }
        auto& g = pm.emplace<PassGroup>("opt_a", "", 3);
        g.add(makePass("strip_neg", "", stripNeg));
        pm.add(makePass("validate", "", [](Module&, PassContext&) { return false; }));
    };
    auto serial = std::make_shared<DumpSerial>();
    PassContext ctx;
    ctx.settings().set(std::string(kSaveGraphs), std::int64_t{1});
    ctx.settings().set(std::string(kSaveGraphsPath), dir.string());

    PassManager pm;
    buildMs(pm);
    auto m = smallModule();
    addNeg(*m, ctx);
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec, serial);
    QCOMPARE(rec.status, passes::CompileStatus::Ok);
    QVERIFY(rec.warnings.empty());
    // Level 1: top-level passes only; stage = index in the pipeline, serial per file.
    QCOMPARE(listDir(dir),
             (std::vector<std::string>{"00_parse_0000.ir", "01_symbol_resolve_0001.ir",
                                       "02_type_inference_0002.ir", "03_opt_a_0003.ir",
                                       "04_validate_0004.ir"}));
    QCOMPARE(readFile(dir / "00_parse_0000.ir"), rec.find("parse")->text());
    QCOMPARE(readFile(dir / "03_opt_a_0003.ir"), rec.find("opt_a")->text());
    QCOMPARE(readFile(dir / "04_validate_0004.ir"), printIr(*m));
    // A second compile in the same session keeps counting.
    PassManager pm2;
    buildMs(pm2);
    auto m2 = smallModule();
    CompileRecord rec2;
    passes::runRecorded(pm2, *m2, ctx, rec2, serial);
    QVERIFY(std::filesystem::exists(dir / "00_parse_0005.ir"));
    QVERIFY(std::filesystem::exists(dir / "04_validate_0009.ir"));
    QCOMPARE(serial->next, 10);

    // Off (level 0): nothing written.
    QTemporaryDir tmp2;
    PassContext off;
    off.settings().set(std::string(kSaveGraphs), std::int64_t{0});
    off.settings().set(std::string(kSaveGraphsPath), tmp2.path().toStdString());
    PassManager pm3;
    buildMs(pm3);
    CompileRecord rec3;
    passes::runRecorded(pm3, *m2, off, rec3);
    QVERIFY(listDir(tmp2.path().toStdString()).empty());
}

void TestPassManager::saveGraphsSubPasses() {
    QTemporaryDir tmp;
    const std::filesystem::path dir = tmp.path().toStdString();
    PassManager pm;
    pm.add(makePass("parse", "", addNeg));
    auto& g = pm.emplace<PassGroup>("opt_a", "", 5);
    g.add(makePass("switch_simplify", "", [](Module&, PassContext&) { return false; }));
    g.add(makePass("strip_neg", "", stripNeg));

    // Level 2: every sub-pass, as MindSpore's opt_substep_<opt>_r<round>_<index>_<pass>.
    {
        PassContext ctx;
        ctx.settings().set(std::string(kSaveGraphs), std::string("2"));
        ctx.settings().set(std::string(kSaveGraphsPath), (dir / "l2").string());
        auto m = smallModule();
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(listDir(dir / "l2"),
                 (std::vector<std::string>{"00_parse_0000.ir", "01_opt_a_0005.ir",
                                           "opt_substep_opt_a_r0_0_switch_simplify_0001.ir",
                                           "opt_substep_opt_a_r0_1_strip_neg_0002.ir",
                                           "opt_substep_opt_a_r1_0_switch_simplify_0003.ir",
                                           "opt_substep_opt_a_r1_1_strip_neg_0004.ir"}));
        QCOMPARE(readFile(dir / "l2" / "opt_substep_opt_a_r0_1_strip_neg_0002.ir"),
                 rec.find("opt_a/strip_neg")->text());
    }
    // Level 1 with MS_DEV_DUMP_IR_PASSES naming one sub-pass.
    {
        PassContext ctx;
        ctx.settings().set(std::string(kSaveGraphs), std::int64_t{1});
        ctx.settings().set(std::string(kSaveGraphsPath), (dir / "l1").string());
        ctx.settings().set(std::string(kDumpIrPasses), std::string("strip_neg, other"));
        auto m = smallModule();
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(listDir(dir / "l1"),
                 (std::vector<std::string>{"00_parse_0000.ir", "01_opt_a_0003.ir",
                                           "opt_substep_opt_a_r0_1_strip_neg_0001.ir",
                                           "opt_substep_opt_a_r1_1_strip_neg_0002.ir"}));
    }
}

void TestPassManager::saveGraphsWriteErrorIsReported() {
    QTemporaryDir tmp;
    // The "folder" is an existing file: it cannot be created.
    const std::filesystem::path blocker = std::filesystem::path(tmp.path().toStdString()) / "f";
    std::ofstream(blocker) << "x";
    PassManager pm;
    pm.add(makePass("parse", "", addNeg));
    pm.add(makePass("validate", "", [](Module&, PassContext&) { return false; }));
    PassContext ctx;
    ctx.settings().set(std::string(kSaveGraphs), std::int64_t{1});
    ctx.settings().set(std::string(kSaveGraphsPath), (blocker / "ir").string());
    auto m = smallModule();
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QCOMPARE(rec.status, passes::CompileStatus::Ok);  // dumps failing never fail a compile
    QCOMPARE(rec.snapshots.size(), std::size_t(2));
    QCOMPARE(rec.warnings.size(), std::size_t(1));  // reported once, not per pass
    QVERIFY(rec.warnings[0].find("cannot create folder") != std::string::npos);

    // Direct use of the instrumentation: a file that cannot be written (a folder is in the
    // way) is reported and the next one still written.
    const std::filesystem::path dir = std::filesystem::path(tmp.path().toStdString()) / "d";
    std::filesystem::create_directories(dir / "00_parse_0000.ir");
    SaveGraphsInstrumentation save;
    PassInstrumentation* const extra[] = {&save};
    PassContext ctx2;
    ctx2.settings().set(std::string(kSaveGraphs), std::int64_t{1});
    ctx2.settings().set(std::string(kSaveGraphsPath), dir.string());
    pm.run(*m, ctx2, extra);
    QCOMPARE(save.errors().size(), std::size_t(1));
    QVERIFY(save.errors()[0].find("00_parse_0000.ir") != std::string::npos);
    QCOMPARE(save.written().size(), std::size_t(1));
    QCOMPARE(save.written()[0].filename().string(), std::string("01_validate_0001.ir"));
    QCOMPARE(readFile(save.written()[0]), printIr(*m));
}

void TestPassManager::sessionHoldsCompiles() {
    store::Session s;
    s.scriptPath = "net.py";
    s.scriptText = "net(x)\n";
    s.settings.set(std::string(kSideEffectLoadElim), std::int64_t{3});
    PassManager pm;
    buildPipeline(pm);
    auto m = smallModule();
    PassContext ctx(s.settings);
    CompileRecord rec;
    rec.graphName = m->entry()->name();
    rec.signature = "(Tensor[Int32](), Tensor[Int32]())";
    rec.trigger = "net(x) at net.py:1";
    passes::runRecorded(pm, *m, ctx, rec);
    s.compiles.push_back(std::move(rec));
    s.output = "done\n";
    const store::Session moved = std::move(s);  // handed to the UI whole
    QCOMPARE(moved.compiles.size(), std::size_t(1));
    QCOMPARE(moved.compiles[0].graphName, std::string("Net_construct"));
    QCOMPARE(moved.compiles[0].settings.getInt(kSideEffectLoadElim), std::int64_t{3});
    QCOMPARE(moved.compiles[0].snapshots.size(), std::size_t(9));
}

void TestPassManager::snapshotsOfLargeModuleStayCompact() {
    // 20 passes over a 100k-node program, each changing it a little so that every
    // snapshot is distinct (no shared bytes).
    auto m = largeModule(33334);
    const std::size_t nodes = m->counts().nodes;
    QVERIFY(nodes >= 100000);
    PassManager pm;
    for (int i = 0; i < 20; ++i) {
        pm.add(makePass("pass_" + std::to_string(i), "Renames one node.",
                        [i](Module& mod, PassContext&) {
                            CNode* out = nodeCast<CNode>(mod.entry()->output());
                            out->mutableDebug().name = "renamed_" + std::to_string(i);
                            return true;
                        }));
    }
    PassContext ctx;
    CompileRecord rec;
    passes::runRecorded(pm, *m, ctx, rec);
    QCOMPARE(rec.status, passes::CompileStatus::Ok);
    QCOMPARE(rec.snapshots.size(), std::size_t(20));
    std::size_t raw = 0;
    std::size_t compressed = 0;
    for (const PassSnapshot& s : rec.snapshots) {
        QVERIFY(s.changed());
        raw += s.rawSize();
        compressed += s.compressedSize();
        QVERIFY2(s.compressedSize() * 100 < s.rawSize() * 15,
                 qPrintable(QString("%1 of %2 bytes").arg(s.compressedSize()).arg(s.rawSize())));
    }
    for (std::size_t i = 1; i < rec.snapshots.size(); ++i) {
        QVERIFY(rec.snapshots[i].compressed() != rec.snapshots[i - 1].compressed());
    }
    qInfo(
        "%zu nodes: one snapshot %zu bytes raw, %zu compressed (%.1f%%); 20 snapshots %zu "
        "bytes compressed of %zu raw",
        nodes, rec.snapshots[0].rawSize(), rec.snapshots[0].compressedSize(),
        100.0 * static_cast<double>(rec.snapshots[0].compressedSize()) /
            static_cast<double>(rec.snapshots[0].rawSize()),
        compressed, raw);
    QVERIFY(compressed * 100 < raw * 15);
    // The last one still decompresses to the final IR.
    QCOMPARE(rec.snapshots.back().text(), printIr(*m));
}

// A pass that leaves the IR broken (here: the entry is a graph of another module) fails the
// compile under the verifier, named as the failing pass; without
// the verifier the same pipeline "succeeds". IRSCOPE_VERIFY_EACH=1 (set for every suite)
// puts the verifier into every recorded compile.
void TestPassManager::verifierNamesThePassThatBrokeTheIr() {
    Module other;
    FuncGraph* foreign = other.addGraph("elsewhere");
    PassManager pm;
    pm.add(makePass("parse", "", addNeg));
    auto& g = pm.emplace<PassGroup>("opt_a", "", 2);
    g.add(makePass("cse", "", [](Module&, PassContext&) { return false; }));
    g.add(makePass("breaker", "", [foreign](Module& m, PassContext&) {
        m.setEntry(foreign);
        return true;
    }));
    pm.add(makePass("validate", "", [](Module&, PassContext&) { return false; }));
    {
        auto m = smallModule();
        PassContext ctx;
        QCOMPARE(pm.run(*m, ctx).status, PipelineStatus::Ok);
    }
    {
        auto m = smallModule();
        PassContext ctx;
        VerifierInstrumentation verifier;
        PassInstrumentation* const extra[] = {&verifier};
        const PipelineResult r = pm.run(*m, ctx, extra);
        QCOMPARE(r.status, PipelineStatus::Error);
        QCOMPARE(r.failedPass, std::string("opt_a/breaker"));
        QCOMPARE(r.error,
                 std::string("IR verification failed after pass 'opt_a/breaker': entry graph is "
                             "not in the module"));
    }
    QVERIFY(verifyEachPass());  // the suite runs with IRSCOPE_VERIFY_EACH=1
    {
        auto m = smallModule();
        PassContext ctx;
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(rec.status, PipelineStatus::Error);
        QCOMPARE(rec.failedPass, std::string("opt_a/breaker"));
        // The failing pass's snapshot keeps the IR it left, with the verifier's error.
        QCOMPARE(rec.snapshots.back().pass, std::string("opt_a/breaker"));
        QVERIFY(rec.snapshots.back().error.starts_with(
            "IR verification failed after pass 'opt_a/breaker'"));
    }
    // A module that is broken before the pipeline is reported as such, against the first pass.
    {
        auto m = smallModule();
        m->setEntry(foreign);
        PassContext ctx;
        VerifierInstrumentation verifier;
        PassInstrumentation* const extra[] = {&verifier};
        const PipelineResult r = pm.run(*m, ctx, extra);
        QCOMPARE(r.failedPass, std::string("parse"));
        QVERIFY(r.error.starts_with("IR verification failed before pass 'parse', the first one"));
    }
}

QTEST_APPLESS_MAIN(TestPassManager)
#include "test_pass_manager.moc"

// The snapshots are printed on a worker thread from copies of the module: every snapshot's
// text and counts are those of the module on the compile's thread right after its pass,
// `changed` is exact (a pass that rebuilt equal abstracts changed the fingerprint, not the
// text; one that reported a change and made none has its predecessor's fingerprint and is
// not printed) and equal texts share their bytes, also for a module large enough that the
// printer lags the passes; with and without verification (the production path).
void TestPassManager::snapshotsPrintedOffThreadEqualEagerText() {
    auto wrap = [](Module& mod, PassContext&) {
        wrapOutputInNeg(mod);
        return true;
    };
    auto rebuild = [](Module& mod, PassContext&) {
        rebuildAbstracts(mod);
        return true;
    };
    auto nothing = [](Module&, PassContext&) { return true; };  // claims a change
    // Undoes `wrap`.
    auto unwrap = [](Module& mod, PassContext&) {
        FuncGraph* g = mod.entry();
        auto* out = nodeCast<CNode>(g->output());
        mod.setInput(g->returnNode(), 1, out->input(1));
        mod.erase(out);
        return true;
    };
    struct Restore {
        ~Restore() { setVerifyEachPass(std::nullopt); }
    } restore;
    for (const bool verify : {true, false}) {
        setVerifyEachPass(verify);
        for (const int size : {0, 3000}) {
            PassManager pm;
            pm.add(makePass("wrap", "Wraps the output in Neg.", wrap));
            pm.add(makePass("rebuild", "Equal abstracts, new objects.", rebuild));
            pm.add(makePass("wrap2", "Wraps the output in Neg.", wrap));
            pm.add(makePass("unwrap", "Removes the last Neg.", unwrap));
            pm.add(makePass("nothing", "Says it changed the IR.", nothing));
            pm.add(makePass("wrap3", "Wraps the output in Neg.", wrap));
            auto eager = std::make_shared<EagerText>();
            pm.addInstrumentation(eager);
            std::unique_ptr<Module> m = size == 0 ? smallModule() : largeModule(size);
            const std::string initial = printIr(*m);
            PassContext ctx;
            CompileRecord rec;
            passes::runRecorded(pm, *m, ctx, rec);
            QCOMPARE(rec.status, passes::CompileStatus::Ok);
            QCOMPARE(rec.snapshots.size(), eager->texts.size());
            std::string prev = initial;
            for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
                const PassSnapshot& s = rec.snapshots[i];
                QVERIFY2(s.text() == eager->texts[i], qPrintable(QString::fromStdString(s.pass)));
                QCOMPARE(s.changed(), eager->texts[i] != prev);
                QCOMPARE(s.counts().graphs, eager->counts[i].graphs);
                QCOMPARE(s.counts().nodes, eager->counts[i].nodes);
                QCOMPARE(s.counts().cnodes, eager->counts[i].cnodes);
                prev = eager->texts[i];
            }
            QVERIFY(rec.snapshots[0].changed());
            // rebuild: the fingerprint changed, the text did not; the bytes are shared.
            QVERIFY(!rec.snapshots[1].changed());
            QCOMPARE(rec.snapshots[1].compressed().get(), rec.snapshots[0].compressed().get());
            QVERIFY(rec.snapshots[3].changed());
            QCOMPARE(rec.snapshots[3].text(), rec.snapshots[1].text());  // unwrap undid wrap2
            // nothing: the same fingerprint, the same bytes.
            QVERIFY(!rec.snapshots[4].changed());
            QCOMPARE(rec.snapshots[4].compressed().get(), rec.snapshots[3].compressed().get());
        }
    }
}

// Outside verification a pass that returns false (no change) is taken at its word and its
// snapshot is the IR before it, without walking the module; under verification (every
// suite) the claim is checked: a pass that returned false and changed the printed IR fails
// the compile, named; one that only rebuilt equal abstracts keeps its honest "no change".
void TestPassManager::passClaimingNoChangeIsCheckedUnderVerification() {
    QVERIFY(verifyEachPass());
    auto negate = [](Module& mod, PassContext&) {
        wrapOutputInNeg(mod);
        return false;  // the lie
    };
    auto rebuild = [](Module& mod, PassContext&) {
        rebuildAbstracts(mod);
        return false;
    };
    {
        PassManager pm;
        pm.add(makePass("parse", "", addNeg));
        pm.add(makePass("rebuild", "", rebuild));
        auto& g = pm.emplace<PassGroup>("opt_a", "", 2);
        g.add(makePass("liar", "", negate));
        auto m = smallModule();
        PassContext ctx;
        CompileRecord rec;
        passes::runRecorded(pm, *m, ctx, rec);
        QCOMPARE(rec.status, PipelineStatus::Error);
        QCOMPARE(rec.failedPass, std::string("opt_a/liar"));
        QVERIFY2(rec.error.find("pass 'opt_a/liar' returned no change but changed the IR") !=
                     std::string::npos,
                 rec.error.c_str());
        QCOMPARE(rec.snapshots[1].pass, std::string("rebuild"));
        QVERIFY(!rec.snapshots[1].changed());
    }
}
