// ir::fingerprint (ir/module_fingerprint.h): the structural fingerprint the snapshot
// instrumentation uses to tell, without printing, that a pass changed nothing. It must be
// stable for an untouched module, change with everything the .ir text shows, and count
// nodes exactly as Module::counts().
#include <QtTest>

#include <fstream>
#include <sstream>

#include "ir/ir_text.h"
#include "ir/module_fingerprint.h"

using namespace irscope;

namespace {

std::unique_ptr<ir::Module> load(const char* name) {
    std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ir::parseIr(ss.str(), name);
}

ir::CNode* firstCNodeWithInputs(const ir::Module& m, std::size_t inputs) {
    for (ir::CNode* c : m.entry()->topoOrder()) {
        if (c->size() > inputs && c != m.entry()->returnNode()) {
            return c;
        }
    }
    return nullptr;
}

}  // namespace

class TestModuleFingerprint : public QObject {
    Q_OBJECT

private slots:
    void countsMatchModuleCounts_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"ms20_if_branch.ir", "ms23_if_side_effect.ir",
                              "seed_load_elim_level0.ir", "seed_load_elim_level3.ir"}) {
            QTest::newRow(f) << QString(f);
        }
    }
    void countsMatchModuleCounts() {
        QFETCH(QString, file);
        const auto m = load(file.toStdString().c_str());
        const ir::ModuleFingerprint fp = ir::fingerprint(*m);
        const ir::NodeCounts c = m->counts();
        QCOMPARE(fp.counts.graphs, c.graphs);
        QCOMPARE(fp.counts.nodes, c.nodes);
        QCOMPARE(fp.counts.cnodes, c.cnodes);
        QVERIFY(fp == ir::fingerprint(*m));  // stable while nothing changes
    }

    // The snapshot printer fingerprints copies (Module::clone), which have graphs of their own
    // and new constants naming them: a copy fingerprints like its original, and a constant
    // that names another graph (alone, in a tuple, in a primitive's attrs) does not.
    void copyFingerprintsLikeItsOriginal_data() { countsMatchModuleCounts_data(); }
    void copyFingerprintsLikeItsOriginal() {
        QFETCH(QString, file);
        const auto m = load(file.toStdString().c_str());
        ir::FuncGraph* g = m->entry();
        std::vector<ir::FuncGraph*> graphs = m->reachableGraphs();
        QVERIFY(!graphs.empty());
        ir::FuncGraph* other = graphs.back();
        // Constants naming graphs in every way a Value can: kept alive through a Depend
        // chain on the output so that they are printed.
        ir::AttrMap attrs;
        attrs.set("graphs", ir::Value::tuple({ir::Value::graphRef(other)}));
        const ir::ValuePtr one = ir::Value::integer(1);
        const std::vector<ir::ValuePtr> named = {
            ir::Value::graphRef(g), ir::Value::tuple({one, ir::Value::graphRef(other)}),
            ir::Value::primitive("MultitypeFuncGraph", attrs)};
        for (const ir::ValuePtr& v : named) {
            ir::Node* out = g->output();
            ir::CNode* dep = m->addCNode(
                g, {m->addValue(g, ir::Value::primitive("Depend")), out, m->addValue(g, v)});
            m->setInput(g->returnNode(), 1, dep);
        }
        const ir::ModuleFingerprint fp = ir::fingerprint(*m);
        QVERIFY(fp == ir::fingerprint(*m->clone()));
        QVERIFY(fp == ir::fingerprint(*m->clone()->clone()));
        QCOMPARE(ir::printIr(*m->clone()), ir::printIr(*m));
        if (other == g) {
            return;  // a module of one graph
        }
        // The tuple's graph swapped for the entry: another graph, another fingerprint.
        ir::CNode* dep = ir::nodeCast<ir::CNode>(g->output());
        QVERIFY(dep != nullptr && dep->isPrimitive("Depend"));
        ir::CNode* tupleDep = ir::nodeCast<ir::CNode>(dep->input(1));
        QVERIFY(tupleDep != nullptr);
        m->setInput(tupleDep, 2,
                    m->addValue(g, ir::Value::tuple({one, ir::Value::graphRef(g)})));
        QVERIFY(!(fp == ir::fingerprint(*m)));
    }

    // Everything the printer shows changes the fingerprint.
    void changesWithWhatIsPrinted() {
        const auto m = load("seed_load_elim_level3.ir");
        ir::ModuleFingerprint last = ir::fingerprint(*m);
        auto changed = [&]() {
            const ir::ModuleFingerprint now = ir::fingerprint(*m);
            const bool differs = !(now == last);
            last = now;
            return differs;
        };
        ir::CNode* c = firstCNodeWithInputs(*m, 2);
        QVERIFY(c != nullptr);
        // An input rewired (to the node's other input).
        ir::Node* in1 = c->input(1);
        m->setInput(c, 1, c->input(2));
        QVERIFY(changed());
        m->setInput(c, 1, in1);
        QVERIFY(changed());
        // Abstract, debug name, scope, source line, attrs, graph name and attrs.
        c->setAbstract(ir::Abstract::tensor(ir::DType::Float16, ir::Shape{}));
        QVERIFY(changed());
        c->mutableDebug().name = "renamed";
        QVERIFY(changed());
        c->mutableDebug().scope += "/x";
        QVERIFY(changed());
        if (!c->debug().trace.empty()) {
            ir::LocationTrace::Items items = c->debug().trace.items();
            items.back().line += 1;
            c->mutableDebug().trace = std::move(items);
            QVERIFY(changed());
        }
        c->attrs().set("flag", ir::Value::boolean(true));
        QVERIFY(changed());
        m->entry()->setName(m->entry()->name() + "_2");
        QVERIFY(changed());
        m->entry()->attrs().set("no_inline", ir::Value::boolean(true));
        QVERIFY(changed());
        // A node added to the body (used by the Return's input chain).
        ir::Node* out = m->entry()->output();
        ir::CNode* dep = m->addCNode(
            m->entry(), {m->addValue(m->entry(), ir::Value::primitive("Depend")), out, out});
        m->setInput(m->entry()->returnNode(), 1, dep);
        QVERIFY(changed());
        // Nothing printed changed: an unreachable node and an unused constant.
        m->addValue(m->entry(), ir::Value::integer(7));
        QVERIFY(!changed());
    }
};

QTEST_APPLESS_MAIN(TestModuleFingerprint)
#include "test_module_fingerprint.moc"
