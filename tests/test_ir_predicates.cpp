// The IR questions answered once (ir/monad.h, ir/graph_refs.h): what is a state, and which
// graphs a constant names. The cases where the copies these replaced disagreed: an UpdateState
// without an abstract (built by a pass, or read from a dump that prints none) is a state; a
// graph named only inside a primitive's attributes (a MultitypeFuncGraph's registrations) or
// inside a nested tuple is referenced, and so reachable.
#include <QtTest>

#include "ir/graph_refs.h"
#include "ir/module.h"
#include "ir/monad.h"

using namespace irscope;

class TestIrPredicates : public QObject {
    Q_OBJECT

private slots:
    void monads() {
        ir::Module m;
        ir::FuncGraph* g = m.addGraph("g");
        m.setEntry(g);
        ir::ValueNode* u = m.addValue(g, ir::Value::monadValue(ir::MonadKind::U));
        ir::ValueNode* io = m.addValue(g, ir::Value::monadValue(ir::MonadKind::IO));
        ir::Parameter* x = m.addParameter(g, "x");
        ir::ValueNode* update = m.addValue(g, ir::Value::primitive("UpdateState"));
        ir::CNode* state = m.addCNode(g, {update, u, x});  // untyped, as a dump without abstracts
        ir::ValueNode* load = m.addValue(g, ir::Value::primitive("Load"));
        ir::CNode* read = m.addCNode(g, {load, x, state});
        ir::Parameter* typed = m.addParameter(g, "u");
        typed->setAbstract(ir::Abstract::monadAbs(ir::MonadKind::U));

        QVERIFY(ir::isMonad(u));
        QVERIFY(ir::isMonad(io));
        QVERIFY(ir::isMonad(state));  // an UpdateState is a state, typed or not
        QVERIFY(ir::isMonad(typed));
        QVERIFY(!ir::isMonad(x));
        QVERIFY(!ir::isMonad(read));
        QVERIFY(!ir::isMonad(update));

        QVERIFY(ir::isMonadOf(u, ir::MonadKind::U));
        QVERIFY(!ir::isMonadOf(u, ir::MonadKind::IO));
        QVERIFY(ir::isMonadOf(io, ir::MonadKind::IO));
        QVERIFY(ir::isMonadOf(typed, ir::MonadKind::U));
        QVERIFY(!ir::isMonadOf(state, ir::MonadKind::U));  // its kind is unknown until typed
        state->setAbstract(ir::Abstract::monadAbs(ir::MonadKind::IO));
        QVERIFY(ir::isMonadOf(state, ir::MonadKind::IO));
    }

    void graphRefs() {
        ir::Module m;
        ir::FuncGraph* entry = m.addGraph("entry");
        ir::FuncGraph* a = m.addGraph("a");
        ir::FuncGraph* b = m.addGraph("b");
        ir::FuncGraph* c = m.addGraph("c");
        m.setEntry(entry);
        for (ir::FuncGraph* g : {a, b, c}) {
            m.setOutput(g, m.addParameter(g, "x"));
        }
        // a inside a nested tuple; b and c registered in a primitive's attributes.
        const ir::ValuePtr nested = ir::Value::tuple(
            {ir::Value::integer(1), ir::Value::tuple({ir::Value::graphRef(a)})});
        ir::AttrMap attrs;
        attrs.set("register_0", ir::Value::graphRef(b));
        attrs.set("register_1", ir::Value::tuple({ir::Value::graphRef(c), ir::Value::graphRef(a)}));
        const ir::ValuePtr multitype = ir::Value::primitive("MultitypeFuncGraph", attrs);

        std::vector<ir::FuncGraph*> refs;
        ir::collectGraphRefs(*nested, refs);
        QCOMPARE(refs, std::vector<ir::FuncGraph*>{a});
        refs.clear();
        ir::collectGraphRefs(*multitype, refs);
        QCOMPARE(refs, (std::vector<ir::FuncGraph*>{b, c, a}));  // in order, repeats kept

        ir::ValueNode* t = m.addValue(entry, nested);
        ir::ValueNode* p = m.addValue(entry, multitype);
        ir::ValueNode* make = m.addValue(entry, ir::Value::primitive("MakeTuple"));
        m.setOutput(entry, m.addCNode(entry, {make, t, p}));
        const std::vector<ir::FuncGraph*> reachable = m.reachableGraphs();
        QCOMPARE(reachable.size(), std::size_t{4});
        for (ir::FuncGraph* g : {a, b, c}) {
            QVERIFY(std::find(reachable.begin(), reachable.end(), g) != reachable.end());
        }
    }
};

QTEST_GUILESS_MAIN(TestIrPredicates)
#include "test_ir_predicates.moc"
