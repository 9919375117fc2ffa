// The IR data model: use-def consistency through every mutation, clone independence,
// topological order, reachability and node counting.
#include <QtTest>

#include <algorithm>
#include <random>

#include "ir/module.h"

using namespace irscope::ir;

namespace {

AbstractPtr i32() { return Abstract::tensor(DType::Int32, Shape{}); }

// The seed's level-3 load-elimination body:
//   Assign -> UpdateState -> Load -> UpdateState -> ... -> AddN -> MakeTuple -> Depend.
struct SeedGraph {
    std::unique_ptr<Module> m = std::make_unique<Module>();
    FuncGraph* g = nullptr;
    Parameter* x = nullptr;
    Parameter* w = nullptr;
    std::vector<CNode*> loads;
    CNode* depend = nullptr;

    SeedGraph() {
        g = m->addGraph("BackwardNet_construct");
        m->setEntry(g);
        x = m->addParameter(g, "inputs0");
        x->setAbstract(i32());
        w = m->addParameter(g, "param");
        w->setAbstract(Abstract::ref(DType::Int32, Shape{}, ":param"));
        w->setDefault(Value::tensorValue(scalarTensor(DType::Int32, 0)));
        auto prim = [&](const char* name) { return m->addValue(g, Value::primitive(name)); };
        Node* u = m->addValue(g, Value::monadValue(MonadKind::U));
        Node* state = u;
        for (int i = 0; i < 3; ++i) {
            Node* c = m->addValue(g, Value::tensorValue(scalarTensor(DType::Int32, i)));
            CNode* assign = m->addCNode(g, {prim("Assign"), w, c, state});
            CNode* us = m->addCNode(g, {prim("UpdateState"), state, assign});
            CNode* load = m->addCNode(g, {prim("Load"), w, us});
            loads.push_back(load);
            state = i < 2 ? m->addCNode(g, {prim("UpdateState"), us, load}) : us;
        }
        CNode* t1 = m->addCNode(g, {prim("MakeTuple"), loads[2], loads[1]});
        CNode* a1 = m->addCNode(g, {prim("AddN"), t1});
        CNode* t2 = m->addCNode(g, {prim("MakeTuple"), a1, loads[0]});
        CNode* a2 = m->addCNode(g, {prim("AddN"), t2});
        CNode* t3 = m->addCNode(g, {prim("MakeTuple"), a2});
        CNode* last = m->addCNode(g, {prim("UpdateState"), state, loads[2]});
        depend = m->addCNode(g, {prim("Depend"), t3, last});
        m->setOutput(g, depend);
    }
};

std::vector<std::string> opSequence(const FuncGraph* g) {
    std::vector<std::string> ops;
    for (const CNode* c : g->topoOrder()) {
        ops.push_back(c->primitive() ? c->primitive()->name : std::string("<call>"));
    }
    return ops;
}

}  // namespace

class TestIrModel : public QObject {
    Q_OBJECT

private slots:
    void useDefIndexTracksConstruction() {
        SeedGraph s;
        QCOMPARE(s.m->verify(), std::string());
        // The weight is used by three Assigns and three Loads.
        QCOMPARE(s.w->users().size(), std::size_t(6));
        for (const Use& u : s.w->users()) {
            QCOMPARE(u.user->input(u.index), static_cast<Node*>(s.w));
        }
        QVERIFY(s.x->users().empty());
    }

    void topoOrderMatchesMindSporeNumbering() {
        SeedGraph s;
        // The order the seed listing numbers %0..%17, then Return.
        const std::vector<std::string> expected{
            "Assign", "UpdateState", "Load", "UpdateState", "Assign", "UpdateState",
            "Load", "UpdateState", "Assign", "UpdateState", "Load", "MakeTuple",
            "AddN", "MakeTuple", "AddN", "MakeTuple", "UpdateState", "Depend", "Return"};
        QCOMPARE(opSequence(s.g), expected);
    }

    // topoOrder is kept per graph until the module's structure changes: every kind of
    // mutation that changes a body shows in the next call (input set, appended, removed,
    // uses replaced, a node erased, a new Return), and a clone orders its own nodes.
    void topoOrderCacheFollowsEveryMutation() {
        SeedGraph s;
        Module& m = *s.m;
        const std::vector<CNode*> first = s.g->topoOrder();
        QCOMPARE(s.g->topoOrder(), first);  // the same state: the same order
        const std::uint64_t epoch = m.structureEpoch();
        QCOMPARE(s.g->topoOrder(), first);
        QCOMPARE(m.structureEpoch(), epoch);  // reading changes nothing

        auto contains = [](const std::vector<CNode*>& order, const CNode* c) {
            return std::find(order.begin(), order.end(), c) != order.end();
        };
        CNode* neg = m.addCNode(s.g, {m.addValue(s.g, Value::primitive("Neg")), s.depend});
        QCOMPARE(s.g->topoOrder(), first);  // not wired in yet
        m.setInput(s.g->returnNode(), 1, neg);
        QVERIFY(contains(s.g->topoOrder(), neg));
        QCOMPARE(s.g->topoOrder().size(), first.size() + 1);

        CNode* abs = m.addCNode(s.g, {m.addValue(s.g, Value::primitive("Abs")), s.loads[0]});
        m.appendInput(neg, abs);
        QVERIFY(contains(s.g->topoOrder(), abs));
        m.removeInput(neg, 2);
        QVERIFY(!contains(s.g->topoOrder(), abs));
        m.erase(abs);

        CNode* sq = m.addCNode(s.g, {m.addValue(s.g, Value::primitive("Square")), s.depend});
        m.replaceAllUses(s.depend, sq);
        m.setInput(sq, 1, s.depend);
        const std::vector<CNode*> withSq = s.g->topoOrder();
        QVERIFY(contains(withSq, sq));
        QVERIFY(contains(withSq, s.depend));

        std::unique_ptr<Module> copy = m.clone();
        const std::vector<CNode*> copied = copy->entry()->topoOrder();
        QCOMPARE(copied.size(), withSq.size());
        for (std::size_t i = 0; i < copied.size(); ++i) {
            QCOMPARE(copied[i]->id(), withSq[i]->id());
            QVERIFY(copied[i] != withSq[i]);
        }

        CNode* ret = m.addCNode(s.g, {m.addValue(s.g, Value::primitive("Return")), s.loads[1]});
        m.setReturnNode(s.g, ret);
        const std::vector<CNode*> shortOrder = s.g->topoOrder();
        QVERIFY(!contains(shortOrder, sq));
        QCOMPARE(shortOrder.back(), ret);
        QCOMPARE(copy->entry()->topoOrder().size(), withSq.size());  // the copy is its own
        QCOMPARE(m.verify(), std::string());
    }

    void replaceAllUsesMovesEveryUse() {
        SeedGraph s;
        CNode* load0 = s.loads[0];
        const std::size_t before = load0->users().size();
        QVERIFY(before >= 2);
        CNode* move =
            s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("TensorMove")), load0});
        s.m->replaceAllUses(load0, move);
        // The new TensorMove's own use of the Load must survive: it was created before the
        // replacement, so it was moved too; put it back, as a pass would.
        s.m->setInput(move, 1, load0);
        QCOMPARE(load0->users().size(), std::size_t(1));
        QCOMPARE(move->users().size(), before);
        QCOMPARE(s.m->verify(), std::string());
    }

    void eraseRefusesUsedNodesAndCleansInputs() {
        SeedGraph s;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.m->erase(s.loads[0]));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.m->erase(s.g->returnNode()));
        const std::size_t live = s.m->liveNodeCount();
        const std::size_t wUsers = s.w->users().size();
        CNode* extra = s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("Neg")), s.w});
        QCOMPARE(s.w->users().size(), wUsers + 1);
        s.m->erase(extra);
        QCOMPARE(s.w->users().size(), wUsers);
        QCOMPARE(s.m->liveNodeCount(), live + 1);  // the primitive value node remains
        QCOMPARE(s.m->verify(), std::string());
    }

    void removeInputShiftsUseIndices() {
        SeedGraph s;
        CNode* tuple = s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("MakeTuple")),
                                            s.x, s.w, s.x});
        s.m->removeInput(tuple, 1);
        QCOMPARE(tuple->size(), std::size_t(3));
        QCOMPARE(tuple->input(1), static_cast<Node*>(s.w));
        QCOMPARE(tuple->input(2), static_cast<Node*>(s.x));
        QCOMPARE(s.m->verify(), std::string());
    }

    void randomMutationsKeepIndexConsistent() {
        SeedGraph s;
        std::mt19937 rng(12345);
        std::vector<CNode*> pool;
        for (CNode* c : s.g->topoOrder()) {
            pool.push_back(c);
        }
        for (int step = 0; step < 2000; ++step) {
            const int op = static_cast<int>(rng() % 4);
            CNode* c = pool[rng() % pool.size()];
            if (op == 0) {
                Node* in = pool[rng() % pool.size()];
                if (c->size() > 1 && in != c) {
                    s.m->setInput(c, 1 + rng() % (c->size() - 1), in);
                }
            } else if (op == 1) {
                pool.push_back(s.m->addCNode(
                    s.g, {s.m->addValue(s.g, Value::primitive("Add")), c, s.x}));
            } else if (op == 2 && c->users().empty() && c != s.g->returnNode()) {
                s.m->erase(c);
                pool.erase(std::find(pool.begin(), pool.end(), c));
            } else if (op == 3 && c->size() > 2) {
                s.m->removeInput(c, 1 + rng() % (c->size() - 1));
            }
        }
        QCOMPARE(s.m->verify(), std::string());
    }

    void cloneIsDeepAndIndependent() {
        SeedGraph s;
        s.g->attrs().set("no_inline", Value::boolean(true));
        s.loads[1]->mutableDebug().name = "CNode_7";
        s.loads[1]->mutableDebug().scope = "Default/Load-op1";
        auto copy = s.m->clone();
        QCOMPARE(copy->verify(), std::string());
        QCOMPARE(copy->liveNodeCount(), s.m->liveNodeCount());
        FuncGraph* cg = copy->entry();
        QVERIFY(cg != s.g);
        QCOMPARE(cg->name(), s.g->name());
        QVERIFY(cg->flag("no_inline"));
        QCOMPARE(opSequence(cg), opSequence(s.g));
        // Same ids, distinct objects, same debug info.
        const auto orig = s.g->topoOrder();
        const auto cloned = cg->topoOrder();
        for (std::size_t i = 0; i < orig.size(); ++i) {
            QCOMPARE(cloned[i]->id(), orig[i]->id());
            QVERIFY(cloned[i] != orig[i]);
            QCOMPARE(cloned[i]->graph(), cg);
            QVERIFY(cloned[i]->debug() == orig[i]->debug());
        }
        // Mutating the copy leaves the original untouched.
        Parameter* cw = cg->parameters()[1];
        QVERIFY(cw->hasDefault());
        CNode* cload = cloned[2];
        QVERIFY(cload->isPrimitive("Load"));
        const std::vector<Use> uses = cload->users();  // before the TensorMove uses it too
        CNode* move = copy->addCNode(cg, {copy->addValue(cg, Value::primitive("TensorMove")), cload});
        for (const Use& u : uses) {
            copy->setInput(u.user, u.index, move);
        }
        QCOMPARE(cg->topoOrder().size(), orig.size() + 1);
        QCOMPARE(s.g->topoOrder().size(), orig.size());
        QCOMPARE(s.m->verify(), std::string());
        QCOMPARE(copy->verify(), std::string());
    }

    void debugInfoIsAValueSharedUntilChanged() {
        SeedGraph s;
        CNode* load = s.loads[1];
        load->mutableDebug().name = "CNode_7";
        load->mutableDebug().scope = "Default/Load-op1";
        auto copy = s.m->clone();
        CNode* cload = nullptr;
        for (CNode* c : copy->entry()->topoOrder()) {
            if (c->id() == load->id()) {
                cload = c;
            }
        }
        QVERIFY(cload != nullptr);
        // The copy shares the original's debug info: the same object, not an equal one.
        QCOMPARE(&cload->debug(), &load->debug());
        // Changing the original's leaves the copy's as it was, and the other way round.
        load->mutableDebug().scope = "Default/Load-op9";
        QCOMPARE(cload->debug().scope, std::string("Default/Load-op1"));
        QCOMPARE(load->debug().scope, std::string("Default/Load-op9"));
        QVERIFY(&cload->debug() != &load->debug());
        cload->mutableDebug().name = "renamed";
        QCOMPARE(load->debug().name, std::string("CNode_7"));
        // shareDebug within one module: the same value semantics.
        CNode* other = s.loads[0];
        other->shareDebug(*load);
        QCOMPARE(&other->debug(), &load->debug());
        other->mutableDebug().name = "CNode_8";
        QCOMPARE(load->debug().name, std::string("CNode_7"));
        QCOMPARE(other->debug().scope, std::string("Default/Load-op9"));
        // A node that never had debug info reads an empty one and gets its own on writing.
        CNode* fresh = s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("Neg")), load});
        QVERIFY(fresh->debug().name.empty());
        fresh->mutableDebug().name = "CNode_9";
        QVERIFY(other->debug().name == "CNode_8" && load->debug().name == "CNode_7");
    }

    // copyLocation: scope and trace, never the name; shared when nothing else would come along.
    void copyLocationTakesScopeAndTraceNotName() {
        SeedGraph s;
        CNode* named = s.loads[0];
        named->mutableDebug().name = "CNode_3";
        named->mutableDebug().scope = "Default/net-Net/Load-op0";
        named->mutableDebug().trace = LocationTrace{SourceLocation{"net.py", 4, 4, 8, 20, "y = x", ""}};
        const auto neg = [&] {
            return s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("Neg")), named});
        };
        // From a named node: a debug info of its own, without the name.
        CNode* a = neg();
        a->copyLocation(*named);
        QVERIFY(&a->debug() != &named->debug());
        QVERIFY(a->debug().name.empty());
        QCOMPARE(a->debug().scope, named->debug().scope);
        QCOMPARE(a->debug().trace.identity(), named->debug().trace.identity());
        // From an unnamed node: the same object, until one of them changes it.
        CNode* b = neg();
        b->copyLocation(*a);
        QCOMPARE(&b->debug(), &a->debug());
        b->mutableDebug().name = "CNode_5";
        QVERIFY(a->debug().name.empty());
        QCOMPARE(b->debug().scope, a->debug().scope);
        // A node that already has debug info keeps its name and takes the location.
        CNode* c = neg();
        c->mutableDebug().name = "kept";
        c->copyLocation(*named);
        QCOMPARE(c->debug().name, std::string("kept"));
        QCOMPARE(c->debug().scope, named->debug().scope);
        QCOMPARE(c->debug().trace.size(), std::size_t{1});
        // From a node without debug info: still none.
        CNode* d = neg();
        d->copyLocation(*neg());
        QVERIFY(d->debug().scope.empty() && d->debug().trace.empty());
    }

    // A copy's nodes live in one block: erasing one, adding new ones and copying the copy
    // must each own and free their nodes correctly (the sanitizer build checks the frees).
    void cloneNodesCanBeErasedAndAdded() {
        SeedGraph s;
        auto copy = s.m->clone();
        FuncGraph* cg = copy->entry();
        CNode* last = nullptr;
        for (CNode* c : cg->topoOrder()) {
            if (c->id() == s.loads[2]->id()) {
                last = c;
            }
        }
        QVERIFY(last != nullptr);
        // The last Load feeds only the Depend: route the Depend to its input and erase it.
        const std::vector<Use> uses = last->users();
        QVERIFY(!uses.empty());
        for (const Use& u : uses) {
            copy->setInput(u.user, u.index, last->input(1));
        }
        const std::size_t live = copy->liveNodeCount();
        copy->erase(last);
        QCOMPARE(copy->liveNodeCount(), live - 1);
        CNode* neg = copy->addCNode(cg, {copy->addValue(cg, Value::primitive("Neg")), cg->parameters()[0]});
        QCOMPARE(copy->verify(), std::string());
        auto again = copy->clone();
        QCOMPARE(again->verify(), std::string());
        QCOMPARE(again->liveNodeCount(), copy->liveNodeCount());
        QVERIFY(again->entry()->topoOrder().size() == cg->topoOrder().size());
        QCOMPARE(neg->users().size(), std::size_t{0});
        copy.reset();  // the second copy stands alone
        QCOMPARE(again->verify(), std::string());
        QCOMPARE(s.m->verify(), std::string());
    }

    void cloneRemapsGraphValues() {
        Module m;
        FuncGraph* main = m.addGraph("main");
        FuncGraph* tb = m.addGraph("✓main");
        FuncGraph* fb = m.addGraph("✗main");
        m.setEntry(main);
        Parameter* c = m.addParameter(main, "cond");
        m.setOutput(tb, m.addValue(tb, Value::integer(1)));
        m.setOutput(fb, m.addValue(fb, Value::integer(2)));
        CNode* sw = m.addCNode(main, {m.addValue(main, Value::primitive("Switch")), c,
                                      m.addValue(main, Value::graphRef(tb)),
                                      m.addValue(main, Value::graphRef(fb))});
        CNode* call = m.addCNode(main, {sw});
        m.setOutput(main, call);
        auto copy = m.clone();
        const auto graphs = copy->reachableGraphs();
        QCOMPARE(graphs.size(), std::size_t(3));
        QCOMPARE(graphs[1]->name(), std::string("✓main"));
        QCOMPARE(graphs[1]->module(), copy.get());
        const auto body = copy->entry()->topoOrder();
        const auto* tv = nodeCast<ValueNode>(body[0]->input(2));
        QVERIFY(tv != nullptr);
        QCOMPARE(tv->value()->graph, graphs[1]);
    }

    void reachabilityAndCounts() {
        Module m;
        FuncGraph* main = m.addGraph("main");
        FuncGraph* f = m.addGraph("f");
        FuncGraph* unused = m.addGraph("unused");
        m.setEntry(main);
        Parameter* a = m.addParameter(main, "a");
        Parameter* fx = m.addParameter(f, "x");
        m.setOutput(f, m.addCNode(f, {m.addValue(f, Value::primitive("Neg")), fx}));
        m.setOutput(unused, m.addValue(unused, Value::none()));
        CNode* call = m.addCNode(main, {m.addValue(main, Value::graphRef(f)), a});
        m.setOutput(main, call);
        const auto r = m.reachableGraphs();
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(r[0], main);
        QCOMPARE(r[1], f);
        const NodeCounts c = m.counts();
        QCOMPARE(c.graphs, std::size_t(2));
        QCOMPARE(c.cnodes, std::size_t(4));  // call, Return, Neg, Return
        // nodes: a, x, call, Return(main), @f value, Return prim (main), Neg, Neg prim,
        // Return(f), Return prim (f)
        QCOMPARE(c.nodes, std::size_t(10));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, m.eraseGraph(f));
        m.eraseGraph(unused);
        QCOMPARE(m.graphs().size(), std::size_t(2));
        QCOMPARE(m.verify(), std::string());
    }

    void reachableGraphsFollowEveryMutation() {
        // reachableGraphs keeps each graph's references per state of the module: a change of
        // any input is seen at once, in the original and in a copy.
        Module m;
        FuncGraph* main = m.addGraph("main");
        FuncGraph* f = m.addGraph("f");
        FuncGraph* g = m.addGraph("g");
        m.setEntry(main);
        for (FuncGraph* callee : {f, g}) {
            Parameter* x = m.addParameter(callee, "x");
            m.setOutput(callee, m.addCNode(callee, {m.addValue(callee, Value::primitive("Neg")), x}));
        }
        Parameter* a = m.addParameter(main, "a");
        CNode* call = m.addCNode(main, {m.addValue(main, Value::graphRef(f)), a});
        m.setOutput(main, call);
        QCOMPARE(m.reachableGraphs(), (std::vector<FuncGraph*>{main, f}));
        QCOMPARE(main->graphRefs(), (std::vector<FuncGraph*>{f}));
        m.setInput(call, 0, m.addValue(main, Value::graphRef(g)));
        QCOMPARE(m.reachableGraphs(), (std::vector<FuncGraph*>{main, g}));
        // A graph inside a tuple constant, next to the call: named twice, listed twice.
        CNode* pair = m.addCNode(
            main, {m.addValue(main, Value::primitive("MakeTuple")), call,
                   m.addValue(main, Value::tuple({Value::graphRef(f), Value::graphRef(g)}))});
        m.setOutput(main, pair);
        QCOMPARE(main->graphRefs(), (std::vector<FuncGraph*>{g, f, g}));
        QCOMPARE(m.reachableGraphs(), (std::vector<FuncGraph*>{main, g, f}));
        auto copy = m.clone();
        const auto copied = copy->reachableGraphs();
        QCOMPARE(copied.size(), std::size_t(3));
        QCOMPARE(copied[1], copy->findGraph("g"));
        m.setOutput(main, call);  // the tuple is cut off: f is no longer reachable
        QCOMPARE(m.reachableGraphs(), (std::vector<FuncGraph*>{main, g}));
        QCOMPARE(copy->reachableGraphs().size(), std::size_t(3));  // the copy is its own
    }

    void renumberGivesFreshIdsInTheOrderGiven() {
        SeedGraph s;
        std::vector<CNode*> order = s.g->topoOrder();
        const std::vector<std::string> ops = opSequence(s.g);
        std::uint64_t maxId = 0;
        s.m->forEachNode([&](const Node* n) { maxId = std::max(maxId, n->id()); });
        std::vector<std::vector<Node*>> inputs;
        for (const CNode* c : order) {
            inputs.push_back(c->inputs());
        }
        const std::uint64_t epoch = s.m->structureEpoch();
        std::reverse(order.begin(), order.end());
        s.m->renumber(order);
        for (std::size_t i = 0; i < order.size(); ++i) {
            QCOMPARE(order[i]->id(), maxId + 1 + i);  // as if created again in this order
        }
        QVERIFY(s.m->structureEpoch() != epoch);
        // Nothing else moves: the same nodes, inputs, users and body.
        std::reverse(order.begin(), order.end());
        QCOMPARE(s.g->topoOrder(), order);
        for (std::size_t i = 0; i < order.size(); ++i) {
            QCOMPARE(order[i]->inputs(), inputs[i]);
        }
        QCOMPARE(opSequence(s.g), ops);
        QCOMPARE(s.m->verify(), std::string());
        // A node made after the renumbering still gets an id of its own.
        CNode* extra = s.m->addCNode(s.g, {s.m->addValue(s.g, Value::primitive("Neg")), s.x});
        QVERIFY(extra->id() > order.front()->id());
        Module other;
        FuncGraph* og = other.addGraph("other");
        CNode* foreign = other.addCNode(og, {other.addValue(og, Value::primitive("Neg"))});
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.m->renumber({foreign}));
    }

    void freeVariableKeepsOwnerGraph() {
        Module m;
        FuncGraph* outer = m.addGraph("outer");
        FuncGraph* inner = m.addGraph("inner");
        m.setEntry(outer);
        Parameter* x = m.addParameter(outer, "x");
        // inner uses outer's parameter as a free variable.
        m.setOutput(inner, m.addCNode(inner, {m.addValue(inner, Value::primitive("Neg")), x}));
        CNode* call = m.addCNode(outer, {m.addValue(outer, Value::graphRef(inner))});
        m.setOutput(outer, call);
        QCOMPARE(inner->topoOrder().size(), std::size_t(2));
        QCOMPARE(x->users().size(), std::size_t(1));
        QCOMPARE(x->users()[0].user->graph(), inner);
        auto copy = m.clone();
        QCOMPARE(copy->verify(), std::string());
        FuncGraph* cinner = copy->findGraph("inner");
        QCOMPARE(cinner->topoOrder()[0]->input(1)->graph(), copy->findGraph("outer"));
    }
};

QTEST_APPLESS_MAIN(TestIrModel)
#include "test_ir_model.moc"
