// The graph view read as Netron and Model Explorer read a graph: weights and constants as
// rows inside their user's box, state plumbing hidden (or dimmed), repeated blocks under one
// series node, each group laid out on its own and cached, and the first view at a readable
// scale. Real material: the LeNet dump after opt_a from ../shared/realdumps.
#include <QtTest>

#include <QFile>

#include "graph_layout.h"
#include "graph_scene.h"
#include "graph_view.h"
#include "ir/func_graph.h"
#include "ir/ir_text.h"
#include "network_module.h"
#include "test_files.h"

using namespace irscope;
using ui::GraphView;
using ui::NodeItem;

namespace {

std::shared_ptr<const ir::Module> loadIr(const QString& path) {
    return test_files::parseIrFile(path.toStdString());
}

bool waitLayout(QSignalSpy& spy, int ms = 60000) {
    if (spy.isEmpty() && !spy.wait(ms)) {
        return false;
    }
    return spy.takeFirst().at(0).toBool();
}

bool show(GraphView& v, std::shared_ptr<const ir::Module> m) {
    QSignalSpy spy(&v, &GraphView::layoutFinished);
    v.setModule(std::move(m));
    return waitLayout(spy);
}

bool relayout(GraphView& v, const std::function<void()>& change) {
    QSignalSpy spy(&v, &GraphView::layoutFinished);
    change();
    return waitLayout(spy);
}

std::vector<NodeItem*> labelled(const GraphView& v, const QString& prefix) {
    std::vector<NodeItem*> out;
    for (NodeItem* i : v.nodeItems()) {
        if (i->label().startsWith(prefix)) {
            out.push_back(i);
        }
    }
    return out;
}

int controlEdges(const GraphView& v) {
    int n = 0;
    for (QGraphicsItem* it : v.scene()->items()) {
        n += it->type() == ui::kEdgeItemType && static_cast<ui::EdgeItem*>(it)->isControl() ? 1 : 0;
    }
    return n;
}

const ir::Parameter* parameterNamed(const ir::Module& m, const std::string& name) {
    for (const ir::FuncGraph* g : m.reachableGraphs()) {
        for (const ir::Parameter* p : g->parameters()) {
            if (p->name() == name) {
                return p;
            }
        }
    }
    return nullptr;
}

const QString kLenet =
    QStringLiteral(IRSCOPE_SHARED_DIR "/realdumps/06_ms1x_lenet_opt_pass_2_opt_a.ir");

}  // namespace

class TestGraphLayout : public QObject {
    Q_OBJECT

private slots:
    // LeNet after opt_a (75 CNodes): weights inside the Conv2D/MatMul boxes with their
    // shapes, no UpdateState or Load box, no state edge; the toggle draws weights as nodes.
    void realDumpReadsLikeNetron() {
        auto m = loadIr(kLenet);
        QVERIFY(m);
        GraphView v;
        v.resize(1200, 900);
        v.show();
        QVERIFY(show(v, m));
        QVERIFY(v.stateHidden());  // more than kHideStateAbove CNodes
        QVERIFY(v.inlineInputs());
        QVERIFY(labelled(v, QStringLiteral("UpdateState")).empty());
        QVERIFY(labelled(v, QStringLiteral("Load\n")).empty());
        QCOMPARE(controlEdges(v), 0);
        const ir::Parameter* w = parameterNamed(*m, "conv1.weight");
        QVERIFY(w != nullptr);
        NodeItem* box = v.itemFor(v.model().indexOf(w));
        QVERIFY(box != nullptr && !box->isGroup());
        QVERIFY2(box->label().startsWith(QStringLiteral("Conv2D")), qPrintable(box->label()));
        bool row = false;
        for (const QString& r : box->rows()) {
            row |= r.startsWith(QStringLiteral("conv1.weight")) &&
                   r.contains(QStringLiteral("(6, 1, 5, 5)"));
        }
        QVERIFY2(row, qPrintable(box->rows().join(QLatin1Char('|'))));
        // A constant: Reshape's target shape is a row of the Reshape box.
        const auto reshapes = labelled(v, QStringLiteral("Reshape\n"));
        QVERIFY(!reshapes.empty());
        QVERIFY(reshapes.front()->rows().contains(QStringLiteral("(32, -1)")));
        // The data input is its own box above the first convolution.
        const auto inputs = labelled(v, QStringLiteral("%para1_inputs0"));
        QCOMPARE(inputs.size(), std::size_t{1});
        QVERIFY(inputs.front()->sceneBoundingRect().bottom() < box->sceneBoundingRect().top());

        QVERIFY(relayout(v, [&] { v.setInlineInputs(false); }));
        NodeItem* own = v.itemFor(v.model().indexOf(w));
        QVERIFY(own != nullptr && own->label().startsWith(QStringLiteral("%para3_conv1.weight")));
        QVERIFY(v.itemFor(v.model().indexOf(w)) != box);
    }

    // State shown (dimmed) and hidden on the seed's load-elimination network: hiding drops
    // UpdateState, Load and the monads and every state edge; searching for a hidden node
    // shows state again and selects it.
    void stateCanBeDimmedOrHidden() {
        auto m =
            loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        QVERIFY(m);
        GraphView v;
        QVERIFY(show(v, m));
        QVERIFY(!v.stateHidden());  // a small graph: state dimmed
        const auto updates = labelled(v, QStringLiteral("UpdateState\n"));
        QVERIFY(!updates.empty());
        QVERIFY(updates.front()->isDimmed());
        QVERIFY(!labelled(v, QStringLiteral("Assign\n")).front()->isDimmed());
        QVERIFY(controlEdges(v) > 0);
        const int before = static_cast<int>(v.nodeItems().size());

        QVERIFY(relayout(v, [&] { v.setStateHidden(true); }));
        QVERIFY(labelled(v, QStringLiteral("UpdateState\n")).empty());
        QVERIFY(labelled(v, QStringLiteral("Load\n")).empty());
        QVERIFY(labelled(v, QStringLiteral("U")).empty());
        QCOMPARE(controlEdges(v), 0);
        QVERIFY(static_cast<int>(v.nodeItems().size()) < before);
        // The Assigns still draw and their data still flows into the output.
        QCOMPARE(static_cast<int>(labelled(v, QStringLiteral("Assign\n")).size()), 3);

        QSignalSpy spy(&v, &GraphView::layoutFinished);
        QCOMPARE(v.setSearch(QStringLiteral("^UpdateState$")) > 0, true);
        QVERIFY(waitLayout(spy));
        QVERIFY(!v.stateHidden());
        NodeItem* hit = v.itemFor(v.searchMatches().front());
        QVERIFY(hit != nullptr && hit->isSelected() &&
                hit->label().startsWith(QStringLiteral("UpdateState")));
    }

    // 150 identical blocks in 3 layers of 50: one series node per run of identical siblings,
    // which opens to its list and then to one block; a mark inside shows on the series.
    void repeatedBlocksBecomeASeries() {
        auto m = testing::networkModule(150, 0);
        GraphView v;
        v.resize(1000, 800);
        QVERIFY(relayout(v, [&] { v.setModule(m, 0); }));
        const ui::GraphModel& model = v.model();
        int layers = -1;
        int dense = -1;
        for (int g = 0; g < static_cast<int>(model.groups().size()); ++g) {
            const ui::ModelGroup& grp = model.group(g);
            if (grp.kind != ui::GroupKind::Series) {
                continue;
            }
            if (grp.title == QStringLiteral("layers-0 … layers-2 ×3")) {
                layers = g;
            } else if (grp.title.startsWith(QStringLiteral("Dense-0 … Dense-49 ×50")) &&
                       dense < 0) {
                dense = g;
            }
        }
        QVERIFY(layers >= 0);
        QVERIFY(dense >= 0);
        QCOMPARE(model.group(layers).children.size(), std::size_t{3});
        QCOMPARE(model.group(dense).total,
                 50 * model.group(model.group(dense).children.front()).total);

        // Open the graph: the series is one box, with its ports.
        QVERIFY(relayout(v, [&] {
            for (int p = model.group(layers).parent; p >= 0; p = model.group(p).parent) {
                v.setGroupExpanded(p, true);
            }
        }));
        NodeItem* box = nullptr;
        for (NodeItem* i : v.nodeItems()) {
            box = i->isGroup() && i->ref().index == layers ? i : box;
        }
        QVERIFY(box != nullptr);
        QVERIFY2(box->label().contains(QStringLiteral("×3")) &&
                     box->label().contains(QStringLiteral(" in ")),
                 qPrintable(box->label()));
        // A mark inside takes the series box.
        const int relu = [&] {
            for (int k = 0; k < static_cast<int>(model.nodes().size()); ++k) {
                if (model.searchText(k).contains(
                        QStringLiteral("ReLU-op7"))) {
                    return k;
                }
            }
            return -1;
        }();
        QVERIFY(relu >= 0);
        std::vector<ui::NodeMark> marks(model.nodes().size(), ui::NodeMark::None);
        marks[static_cast<std::size_t>(relu)] = ui::NodeMark::Changed;
        v.setNodeMarks(marks);
        QCOMPARE(v.itemFor(relu), box);
        QCOMPARE(box->mark(), ui::NodeMark::Changed);

        // The list: three layer boxes, one under the other.
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(layers, true); }));
        std::vector<NodeItem*> list;
        for (int c : model.group(layers).children) {
            NodeItem* i = nullptr;
            for (NodeItem* it : v.nodeItems()) {
                i = it->isGroup() && it->ref().index == c ? it : i;
            }
            QVERIFY(i != nullptr);
            list.push_back(i);
        }
        QVERIFY(list[0]->sceneBoundingRect().bottom() < list[1]->sceneBoundingRect().top());
        QVERIFY(list[1]->sceneBoundingRect().bottom() < list[2]->sceneBoundingRect().top());
        // One block: its nodes drawn, the other layers still one box each.
        QVERIFY(
            relayout(v, [&] { v.setGroupExpanded(model.group(layers).children.front(), true); }));
        QVERIFY(v.itemFor(relu) != nullptr && v.itemFor(relu)->isGroup());  // Dense series inside
        // The open block's frame is drawn over the series' frame holding it.
        double seriesZ = -1;
        double blockZ = -1;
        for (QGraphicsItem* it : v.scene()->items()) {
            if (it->type() == ui::kClusterItemType) {
                const int g = static_cast<ui::ClusterItem*>(it)->group();
                seriesZ = g == layers ? it->zValue() : seriesZ;
                blockZ = g == model.group(layers).children.front() ? it->zValue() : blockZ;
            }
        }
        QVERIFY(seriesZ >= 0 && blockZ > seriesZ);
        QVERIFY(
            relayout(v, [&] { v.selectNode(model.nodes()[static_cast<std::size_t>(relu)].node); }));
        QVERIFY(v.itemFor(relu) != nullptr && !v.itemFor(relu)->isGroup());
        QCOMPARE(v.itemFor(relu)->mark(), ui::NodeMark::Changed);
    }

    // Expanding a group lays out only the groups whose inside changed; collapsing it again
    // and re-expanding come from the cache; identical blocks share one layout.
    void expandingLaysOutOnlyWhatChanged() {
        auto m = testing::networkModule(150, 0);
        GraphView v;
        v.resize(1000, 800);
        QVERIFY(show(v, m));
        const ui::GraphModel& model = v.model();
        int block = -1;
        int sibling = -1;
        for (int g = 0; g < static_cast<int>(model.groups().size()); ++g) {
            if (model.group(g).title == QStringLiteral("Dense-3") && block < 0) {
                block = g;
            } else if (model.group(g).title == QStringLiteral("Dense-4") && sibling < 0) {
                sibling = g;
            }
        }
        QVERIFY(block >= 0 && sibling >= 0);
        QVERIFY(relayout(v, [&] {
            v.selectNode(
                model.nodes()[static_cast<std::size_t>(model.group(block).nodes.front())].node);
        }));
        QVERIFY(v.lastDotLayouts() >= 1);
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(block, false); }));
        // Expand and collapse the block again: every layout comes from the cache.
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(block, true); }));
        QCOMPARE(v.lastDotLayouts(), 0);
        QVERIFY(v.lastCachedLayouts() >= 1);
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(block, false); }));
        QCOMPARE(v.lastDotLayouts(), 0);
        // Its identical sibling shares the block's layout: only the groups around it change.
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(block, true); }));
        QVERIFY(relayout(v, [&] { v.setGroupExpanded(sibling, true); }));
        const ui::LayoutPlan plan = ui::makePlan(
            model,
            [&](ui::VisibleRef r, const ui::GroupPorts& p) { return ui::boxSizeFor(model, r, p); });
        int dotGroups = 0;
        for (const ui::PlanGroup& g : plan.groups) {
            dotGroups += g.mode == ui::PlanMode::Dot ? 1 : 0;
        }
        QVERIFY2(v.lastDotLayouts() < dotGroups,
                 qPrintable(QStringLiteral("%1 of %2").arg(v.lastDotLayouts()).arg(dotGroups)));
        QRectF frames[2];
        for (QGraphicsItem* it : v.scene()->items()) {
            if (it->type() == ui::kClusterItemType) {
                const int g = static_cast<ui::ClusterItem*>(it)->group();
                if (g == block || g == sibling) {
                    frames[g == block ? 0 : 1] = it->boundingRect();
                }
            }
        }
        QVERIFY(!frames[0].isEmpty());
        QCOMPARE(frames[0].size(), frames[1].size());
    }

    // A view too big to fit readably opens 1:1 with the output in view; a small one fits.
    void firstViewIsReadable() {
        GraphView v;
        v.resize(900, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto small =
            loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        QVERIFY(show(v, small));
        QVERIFY(v.transform().m11() >= GraphView::kReadableScale);
        const QRectF shown = v.mapToScene(v.viewport()->rect()).boundingRect();
        const ir::Node* smallOut = small->entry()->output();
        QVERIFY(shown.intersects(v.itemFor(v.model().indexOf(smallOut))->sceneBoundingRect()));
        // Fit stays one key away.
        v.fitToView();
        QVERIFY(v.mapToScene(v.viewport()->rect())
                    .boundingRect()
                    .contains(v.scene()->itemsBoundingRect()));
        // A graph that fits readably opens fitted, all of it in view.
        auto tiny = loadIr(QStringLiteral(IRSCOPE_TEST_DATA "/eval/if_branch.ir"));
        QVERIFY(show(v, tiny));
        if (v.transform().m11() < 1.0) {
            QVERIFY(v.transform().m11() >= GraphView::kReadableScale);
        }

        auto lenet = loadIr(kLenet);
        QVERIFY(show(v, lenet));
        QVERIFY(v.transform().m11() >= GraphView::kReadableScale);
        const ir::Node* out = lenet->entry()->output();
        NodeItem* outBox = v.itemFor(v.model().indexOf(out));
        QVERIFY(outBox != nullptr);
        const QRectF visible = v.mapToScene(v.viewport()->rect()).boundingRect();
        QVERIFY(visible.intersects(outBox->sceneBoundingRect()));
    }
};

QTEST_MAIN(TestGraphLayout)
#include "test_graph_layout.moc"
