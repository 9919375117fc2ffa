// The graph view's model and plan at scale: repeated blocks found by structure hashes
// computed once bottom-up (a block differing in one node, or wired differently with the same
// ops, stays apart), collapsed groups' ports counted in one pass over the edges, and an
// expand laying out only the groups whose inside changed (counted dot layouts).
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "graph_layout.h"
#include "graph_model.h"
#include "graph_scene.h"
#include "ir/func_graph.h"
#include "network_module.h"

using namespace irscope;

namespace {

enum class Odd { None, OtherOp, Rewired };

// `blocks` dense residual blocks scoped `Default/network-Net/layers-<b/50>/Dense-<b%50>/` as
// networkModule builds them; block `odd` differs: another activation (Sigmoid for ReLU), or
// the same ops wired otherwise (ReLU of the MatMul, the residual Add of the biased value).
std::shared_ptr<ir::Module> blockModule(int blocks, int odd, Odd how) {
    using namespace ir;
    auto m = std::make_shared<Module>();
    const AbstractPtr act = Abstract::tensor(DType::Float32, Shape{8, 8});
    FuncGraph* g = m->addGraph("Net_construct");
    m->setEntry(g);
    Node* h = m->addParameter(g, "x");
    h->setAbstract(act);
    for (int b = 0; b < blocks; ++b) {
        const std::string scope = "Default/network-Net/layers-" + std::to_string(b / 50) +
                                  "/Dense-" + std::to_string(b % 50) + "/";
        Node* w = m->addParameter(g, "layers." + std::to_string(b) + ".weight");
        w->setAbstract(Abstract::ref(DType::Float32, Shape{8, 8}, ":layers." + std::to_string(b)));
        auto op = [&](const char* name, std::vector<Node*> args) {
            args.insert(args.begin(), m->addValue(g, Value::primitive(name)));
            CNode* c = m->addCNode(g, args);
            c->setAbstract(act);
            c->mutableDebug().scope = scope + name + "-op" + std::to_string(b);
            return c;
        };
        const Odd kind = b == odd ? how : Odd::None;
        CNode* mm = op("MatMul", {h, w});
        CNode* biased = op("Add", {mm, m->addValue(g, Value::floating(0.5))});
        CNode* act1 = kind == Odd::OtherOp   ? op("Sigmoid", {biased})
                      : kind == Odd::Rewired ? op("ReLU", {mm})
                                             : op("ReLU", {biased});
        h = kind == Odd::Rewired ? op("Add", {biased, act1}) : op("Add", {h, act1});
    }
    m->setOutput(g, h);
    return m;
}

int groupTitled(const ui::GraphModel& model, const QString& title, int from = 0) {
    for (int g = from; g < static_cast<int>(model.groups().size()); ++g) {
        if (model.group(g).title == title) {
            return g;
        }
    }
    return -1;
}

int seriesStartingWith(const ui::GraphModel& model, const QString& prefix) {
    for (int g = 0; g < static_cast<int>(model.groups().size()); ++g) {
        if (model.group(g).kind == ui::GroupKind::Series &&
            model.group(g).title.startsWith(prefix)) {
            return g;
        }
    }
    return -1;
}

ui::LayoutPlan planOf(const ui::GraphModel& model) {
    return ui::makePlan(model, [&](ui::VisibleRef r, const ui::GroupPorts& p) {
        return ui::boxSizeFor(model, r, p);
    });
}

}  // namespace

class TestGraphViewScale : public QObject {
    Q_OBJECT

private slots:
    // Identical blocks hash alike wherever they sit (siblings, other layers); a group of
    // other content does not.
    void identicalBlocksHaveEqualStructure() {
        auto m = testing::networkModule(150, 0);
        const ui::GraphModel model(*m);
        const int d3 = groupTitled(model, QStringLiteral("Dense-3"));
        const int d4 = groupTitled(model, QStringLiteral("Dense-4"));
        const int layers1 = groupTitled(model, QStringLiteral("layers-1"));
        QVERIFY(d3 >= 0 && d4 >= 0 && layers1 >= 0);
        const int d3b = groupTitled(model, QStringLiteral("Dense-3"), d3 + 1);  // in layers-1
        QVERIFY(d3b >= 0);
        QCOMPARE(model.group(d3).structure, model.group(d4).structure);
        QCOMPARE(model.group(d3).structure, model.group(d3b).structure);
        QVERIFY(model.group(d3).structure != model.group(layers1).structure);
        QVERIFY(model.group(d3).structure != 0);
    }

    // A block with one other op is no repetition of the rest: the other 49 form the series,
    // it stays on its own beside it, and its structure differs.
    void blockDifferingInOneNodeStaysApart() {
        auto m = blockModule(150, 7, Odd::OtherOp);
        const ui::GraphModel model(*m);
        const int series = seriesStartingWith(model, QStringLiteral("Dense-0 … Dense-49"));
        QVERIFY(series >= 0);
        QVERIFY2(model.group(series).title.endsWith(QStringLiteral("×49")),
                 qPrintable(model.group(series).title));
        const int odd = groupTitled(model, QStringLiteral("Dense-7"));
        const int next = groupTitled(model, QStringLiteral("Dense-8"));
        QVERIFY(odd >= 0 && next >= 0);
        QCOMPARE(model.group(next).parent, series);
        QVERIFY(model.group(model.group(odd).parent).kind != ui::GroupKind::Series);
        QVERIFY(model.group(odd).structure != model.group(next).structure);
        // Its layer is no repetition of the two others either: no series of layers.
        QCOMPARE(seriesStartingWith(model, QStringLiteral("layers-")), -1);
        // Nothing is lost: the series and the odd block hold every block of layers-0.
        const int layers0 = model.group(series).parent;
        int blocks = 0;
        for (int c : model.group(layers0).children) {
            blocks += c == series ? static_cast<int>(model.group(c).children.size()) : 1;
        }
        QCOMPARE(blocks, 50);
    }

    // The same ops wired otherwise (the op multiset is equal) is another block too.
    void blockWiredOtherwiseStaysApart() {
        auto m = blockModule(150, 7, Odd::Rewired);
        const ui::GraphModel model(*m);
        const int odd = groupTitled(model, QStringLiteral("Dense-7"));
        const int next = groupTitled(model, QStringLiteral("Dense-8"));
        QVERIFY(odd >= 0 && next >= 0);
        QVERIFY(model.group(odd).structure != model.group(next).structure);
        QVERIFY(model.group(model.group(odd).parent).kind != ui::GroupKind::Series);
        QCOMPARE(model.group(model.group(next).parent).kind, ui::GroupKind::Series);
        // Unchanged blocks still make one series per layer.
        auto same = blockModule(150, -1, Odd::None);
        const ui::GraphModel plain(*same);
        QVERIFY(seriesStartingWith(plain, QStringLiteral("layers-0 … layers-2 ×3")) >= 0);
    }

    // Ports of collapsed groups and the merged plan edges match a count done the slow way:
    // distinct sources outside a group feeding it, distinct nodes inside it feeding others.
    void portsMatchABruteForceCount() {
        auto m = testing::networkModule(150, 0);
        ui::GraphModel model(*m);
        const int layers0 = groupTitled(model, QStringLiteral("layers-0"));
        QVERIFY(layers0 >= 0);
        for (int g = layers0; g >= 0; g = model.group(g).parent) {
            model.setExpanded(g, true);
        }
        const ui::LayoutPlan plan = planOf(model);
        std::map<int, std::set<int>> ins;
        std::map<int, std::set<int>> outs;
        int crossing = 0;
        for (const ui::ModelEdge& e : model.drawnEdges()) {
            const ui::VisibleRef a = model.visibleFor(e.from);
            const ui::VisibleRef b = model.visibleFor(e.to);
            if (a == b) {
                continue;
            }
            ++crossing;
            if (a.isGroup) {
                outs[a.index].insert(e.from);
            }
            if (b.isGroup) {
                ins[b.index].insert(e.from);
            }
        }
        int groups = 0;
        int planEdges = 0;
        for (const ui::PlanGroup& pg : plan.groups) {
            for (const ui::PlanEdge& pe : pg.edges) {
                planEdges += pe.count;
            }
            for (const ui::PlanItem& it : pg.items) {
                if (it.inner < 0 && it.ref.isGroup && it.ref.index != pg.group) {
                    ++groups;
                    QCOMPARE(it.ports.inputs, static_cast<int>(ins[it.ref.index].size()));
                    QCOMPARE(it.ports.outputs, static_cast<int>(outs[it.ref.index].size()));
                }
            }
        }
        QVERIFY(groups >= 3);
        QCOMPARE(planEdges, crossing);  // every edge between two drawn things, once
    }

    // Opening a collapsed group lays out that group and the frames holding it (their inside
    // changed size), never a sibling; opening it again after a collapse lays out nothing.
    void expandLaysOutOnlyTheOpenedGroup() {
        auto m = testing::networkModule(150, 0);
        ui::GraphModel model(*m);
        ui::LayoutCache cache;
        auto layOut = [&] {
            ui::LayoutPlan plan = planOf(model);
            const std::size_t before = cache.misses();
            ui::layOutPlan(plan, cache);
            return std::make_pair(plan, static_cast<int>(cache.misses() - before));
        };
        const int dense5 = groupTitled(model, QStringLiteral("Dense-5"));
        QVERIFY(dense5 >= 0);
        // Open everything around Dense-5 but not Dense-5 itself, nor its siblings.
        for (int g = model.group(dense5).parent; g >= 0; g = model.group(g).parent) {
            model.setExpanded(g, true);
        }
        layOut();
        const int siblings =
            static_cast<int>(model.group(model.group(dense5).parent).children.size());
        QVERIFY(siblings >= 3);

        model.setExpanded(dense5, true);
        const auto [plan, dots] = layOut();
        // The dot groups on the way from Dense-5 to the root: each one's inside changed.
        int onPath = 0;
        for (const ui::PlanGroup& pg : plan.groups) {
            bool path = pg.group < 0;
            for (int g = dense5; g >= 0 && !path; g = model.group(g).parent) {
                path = pg.group == g;
            }
            onPath += path && pg.mode == ui::PlanMode::Dot ? 1 : 0;
        }
        QVERIFY(onPath >= 2);
        QCOMPARE(dots, onPath);
        // Collapsing and opening again: both views come from the cache.
        model.setExpanded(dense5, false);
        QCOMPARE(layOut().second, 0);
        model.setExpanded(dense5, true);
        QCOMPARE(layOut().second, 0);
        // Its sibling, identical to it, opens with the root and frames re-laid out only.
        const int dense6 = groupTitled(model, QStringLiteral("Dense-6"));
        model.setExpanded(dense6, true);
        QVERIFY(layOut().second < onPath);
    }

    // Nodes are found by id; a module whose ids run far past its node count (many made and
    // dropped) still finds each of them.
    void sparseIdsStillFindEveryNode() {
        auto m = blockModule(60, -1, Odd::None);
        ir::FuncGraph* g = m->entry();
        for (int k = 0; k < 70000; ++k) {
            m->addValue(g, ir::Value::integer(k));  // ids nothing uses
        }
        ir::Node* h = g->output();
        const ir::Node* lastBlock = h;
        for (int b = 0; b < 3; ++b) {
            auto* c = m->addCNode(g, {m->addValue(g, ir::Value::primitive("Neg")), h});
            c->mutableDebug().scope = "Default/network-Net/tail-" + std::to_string(b) + "/Neg-op";
            h = c;
        }
        m->setOutput(g, h);
        const ui::GraphModel model(*m);
        QVERIFY(h->id() > 70000);
        for (int k = 0; k < static_cast<int>(model.nodes().size()); ++k) {
            const ui::ModelNode& mn = model.nodes()[static_cast<std::size_t>(k)];
            if (mn.user == nullptr) {  // constants: their first use
                QCOMPARE(model.indexOf(mn.node), k);
            }
        }
        const int last = model.indexOf(h);
        QVERIFY(last >= 0);
        QCOMPARE(model.nodes()[static_cast<std::size_t>(last)].node, h);
        QCOMPARE(model.drawnAs(last), last);
        QVERIFY(seriesStartingWith(model, QStringLiteral("Dense-0 … Dense-49 ×50")) >= 0);
        // A node of another module with the same id is not this model's.
        auto other = blockModule(60, -1, Odd::None);
        const ir::Node* twin = other->entry()->output();
        QCOMPARE(twin->id(), lastBlock->id());
        QVERIFY(model.indexOf(lastBlock) >= 0);
        QCOMPARE(model.indexOf(twin), -1);
    }

    // Box sizes are measured once per drawn thing and forgotten when the options change.
    void boxSizesAreMeasuredOnce() {
        auto m = testing::networkModule(20, 0);
        ui::GraphModel model(*m);
        ui::BoxSizes sizes;
        auto sizer = [&](ui::VisibleRef r, const ui::GroupPorts& p) { return sizes(model, r, p); };
        const ui::LayoutPlan first = ui::makePlan(model, sizer);
        const std::size_t measured = sizes.measured();
        QVERIFY(measured > 0);
        const ui::LayoutPlan again = ui::makePlan(model, sizer);
        QCOMPARE(sizes.measured(), measured);
        for (std::size_t k = 0; k < first.groups.size(); ++k) {
            for (std::size_t i = 0; i < first.groups[k].items.size(); ++i) {
                QCOMPARE(again.groups[k].items[i].size, first.groups[k].items[i].size);
                const ui::PlanItem& it = first.groups[k].items[i];
                if (it.inner < 0) {
                    const QSizeF direct = ui::boxSizeFor(model, it.ref, it.ports);
                    QCOMPARE(it.size, QSizeF(std::ceil(direct.width() / 4) * 4,
                                             std::ceil(direct.height() / 4) * 4));
                }
            }
        }
        // Weights as their own boxes: a MatMul's box loses its weight row, and is re-measured.
        model.setOptions(false, model.stateHidden());
        ui::makePlan(model, sizer);
        QVERIFY(sizes.measured() > measured);
    }
};

QTEST_MAIN(TestGraphViewScale)
#include "test_graph_view_scale.moc"
