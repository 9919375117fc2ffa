// The interactive graph view, driven offscreen with real Graphviz layouts: items against the
// module, styles per kind, collapsible groups, search, selection, minimap, and a 5,000-node
// module whose first view is collapsed and laid out off the UI thread.
#include <QtTest>

#include <QDirIterator>
#include <QFile>
#include <QThreadPool>
#include <QTimer>

#include "graph_minimap.h"
#include "graph_scene.h"
#include "graph_view.h"
#include "ir/func_graph.h"
#include "ir/ir_text.h"
#include "network_module.h"
#include "test_files.h"

using namespace irscope;
using ui::GraphView;
using ui::NodeItem;
using ui::NodeStyle;

namespace {

std::shared_ptr<const ir::Module> loadIr(const QString& path) {
    return test_files::parseIrFile(path.toStdString());
}

// What the view draws for a fully expanded module: parameters, body CNodes (Return
// included) and one constant per value input past the callee.
int drawableNodes(const ir::Module& m) {
    int n = 0;
    for (const ir::FuncGraph* g : m.reachableGraphs()) {
        n += static_cast<int>(g->parameters().size());
        for (const ir::CNode* c : g->topoOrder()) {
            ++n;
            for (std::size_t i = 1; i < c->size(); ++i) {
                n += c->input(i)->isValue() ? 1 : 0;
            }
        }
    }
    return n;
}

std::vector<NodeItem*> drawn(const GraphView& v) {
    std::vector<NodeItem*> out;
    for (NodeItem* i : v.nodeItems()) {
        if (i != nullptr) {
            out.push_back(i);
        }
    }
    return out;
}

bool waitLayout(QSignalSpy& spy, int ms = 60000) {
    if (spy.isEmpty() && !spy.wait(ms)) {
        return false;
    }
    return spy.takeFirst().at(0).toBool();
}

// Every node as its own box with state shown: what the older tests count.
bool showAll(GraphView& v, std::shared_ptr<const ir::Module> m, int budget = ui::kDefaultNodeBudget) {
    v.setInlineInputs(false);
    v.setStateHidden(false);
    QSignalSpy spy(&v, &GraphView::layoutFinished);
    v.setModule(std::move(m), budget);
    return waitLayout(spy);
}

bool show(GraphView& v, std::shared_ptr<const ir::Module> m, int budget = ui::kDefaultNodeBudget) {
    QSignalSpy spy(&v, &GraphView::layoutFinished);
    v.setModule(std::move(m), budget);
    return waitLayout(spy);
}

NodeItem* itemLabelled(const GraphView& v, const QString& prefix) {
    for (NodeItem* i : drawn(v)) {
        if (i->label().startsWith(prefix)) {
            return i;
        }
    }
    return nullptr;
}

}  // namespace

class TestGraphView : public QObject {
    Q_OBJECT

private slots:
    void drawsEveryNodeOfAnExample() {
        auto m = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        QVERIFY(m);
        GraphView v;
        v.resize(900, 700);
        v.show();
        QVERIFY(showAll(v, m));
        const auto items = drawn(v);
        QCOMPARE(static_cast<int>(items.size()), drawableNodes(*m));
        for (NodeItem* i : items) {
            QVERIFY(!i->isGroup());
        }
        int data = 0;
        int control = 0;
        for (QGraphicsItem* it : v.scene()->items()) {
            if (it->type() == ui::kEdgeItemType) {
                (static_cast<ui::EdgeItem*>(it)->isControl() ? control : data) += 1;
            }
        }
        QVERIFY(data > 0);
        QVERIFY(control > 0);  // UpdateState chains are dashed
        QVERIFY(!v.scene()->sceneRect().isEmpty());
    }

    void stylesFollowTheKindOfNode() {
        auto m = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        GraphView v;
        QVERIFY(showAll(v, m));
        QCOMPARE(itemLabelled(v, QStringLiteral("Load\n"))->style(), NodeStyle::Monad);
        QCOMPARE(itemLabelled(v, QStringLiteral("UpdateState\n"))->style(), NodeStyle::Monad);
        QCOMPARE(itemLabelled(v, QStringLiteral("Assign\n"))->style(), NodeStyle::SideEffect);
        QCOMPARE(itemLabelled(v, QStringLiteral("AddN\n"))->style(), NodeStyle::Primitive);
        QCOMPARE(itemLabelled(v, QStringLiteral("%para2_param"))->style(), NodeStyle::Parameter);
        QCOMPARE(itemLabelled(v, QStringLiteral("Tensor"))->style(), NodeStyle::Constant);
        QCOMPARE(itemLabelled(v, QStringLiteral("U"))->style(), NodeStyle::Monad);
        // Hover text: shape and dtype of the node.
        const QString tip = itemLabelled(v, QStringLiteral("%para1_inputs0"))->toolTip();
        QVERIFY2(tip.contains(QStringLiteral("Int32")), qPrintable(tip));
        QVERIFY(NodeItem::fillFor(NodeStyle::Monad) != NodeItem::fillFor(NodeStyle::SideEffect));

        auto moves = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level0.ir"));
        QVERIFY(show(v, moves));
        QCOMPARE(itemLabelled(v, QStringLiteral("TensorMove\n"))->style(), NodeStyle::Monad);

        auto calls = loadIr(QStringLiteral(IRSCOPE_TEST_DATA "/eval/if_branch.ir"));
        QVERIFY(calls);
        QVERIFY(show(v, calls));
        NodeItem* call = itemLabelled(v, QStringLiteral("call @"));
        QVERIFY(call != nullptr);
        QCOMPARE(call->style(), NodeStyle::GraphCall);
    }

    // Every .ir the project ships (irscope's own and real MindSpore dumps) lays out, and the
    // view draws exactly what its model says is visible, each item once.
    void everyBundledIrFileLaysOut() {
        QStringList files;
        for (const QString& dir : {QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples"),
                                   QStringLiteral(IRSCOPE_TEST_DATA)}) {
            QDirIterator it(dir, {QStringLiteral("*.ir")}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                files << it.next();
            }
        }
        QVERIFY(files.size() >= 10);
        GraphView v;
        for (const QString& f : files) {
            std::shared_ptr<const ir::Module> m;
            try {
                m = loadIr(f);
            } catch (const std::exception&) {
                continue;  // deliberately malformed inputs are the parser's tests
            }
            QVERIFY2(show(v, m), qPrintable(f + QStringLiteral(": ") + v.layoutError()));
            QCOMPARE(static_cast<int>(drawn(v).size()), v.model().visibleCount());
            const auto items = drawn(v);
            const QSet<NodeItem*> unique(items.begin(), items.end());
            QCOMPARE(unique.size(), static_cast<qsizetype>(items.size()));
        }
    }

    void collapsingAndExpandingAGraphChangesTheItems() {
        auto m = loadIr(QStringLiteral(IRSCOPE_TEST_DATA "/eval/if_branch.ir"));
        GraphView v;
        v.resize(800, 600);
        v.show();
        QVERIFY(showAll(v, m));
        const int full = static_cast<int>(drawn(v).size());
        QCOMPARE(full, drawableNodes(*m));
        const int graphs = static_cast<int>(m->reachableGraphs().size());
        QVERIFY(graphs >= 2);
        QSignalSpy spy(&v, &GraphView::layoutFinished);
        v.setGroupExpanded(0, false);
        QVERIFY(waitLayout(spy));
        const int collapsed = static_cast<int>(drawn(v).size());
        QCOMPARE(collapsed, full - v.model().group(0).total + 1);
        NodeItem* box = v.itemFor(v.model().group(0).nodes.front());
        QVERIFY(box->isGroup());
        // Double-clicking the box expands the graph again.
        QTest::mouseDClick(v.viewport(), Qt::LeftButton, {}, v.mapFromScene(box->sceneBoundingRect().center()));
        QVERIFY(waitLayout(spy));
        QCOMPARE(static_cast<int>(drawn(v).size()), full);
        v.toggleGroup(0);
        QVERIFY(waitLayout(spy));
        QCOMPARE(static_cast<int>(drawn(v).size()), collapsed);
    }

    void searchCyclesThroughMatches() {
        auto m = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        GraphView v;
        QVERIFY(show(v, m));
        QCOMPARE(v.setSearch(QStringLiteral("^Load$")), 3);
        QCOMPARE(v.currentMatch(), 0);
        auto selectedIs = [&](int k) {
            NodeItem* item = v.itemFor(v.searchMatches()[static_cast<std::size_t>(k)]);
            return item != nullptr && item->isSelected() && item->isHighlighted();
        };
        QVERIFY(selectedIs(0));
        v.nextMatch();
        QVERIFY(selectedIs(1));
        v.nextMatch();
        v.nextMatch();
        QCOMPARE(v.currentMatch(), 0);
        v.previousMatch();
        QCOMPARE(v.currentMatch(), 2);
        QVERIFY(selectedIs(2));
        // Shapes and attributes are searched too; a bad pattern is reported, not a crash.
        QVERIFY(v.setSearch(QStringLiteral("ref_key|Ref")) > 0);
        QCOMPARE(v.setSearch(QStringLiteral("(")), -1);
        QCOMPARE(v.setSearch(QStringLiteral("NoSuchOp")), 0);
    }

    void searchExpandsTheGroupOfAMatch() {
        auto m = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        GraphView v;
        QVERIFY(show(v, m));
        QSignalSpy spy(&v, &GraphView::layoutFinished);
        v.setGroupExpanded(0, false);
        QVERIFY(waitLayout(spy));
        QCOMPARE(static_cast<int>(drawn(v).size()), 1);
        QCOMPARE(v.setSearch(QStringLiteral("^Assign$")), 3);
        QVERIFY(drawn(v).front()->isHighlighted());  // the collapsed group holds matches
        QVERIFY(waitLayout(spy));
        NodeItem* item = v.itemFor(v.searchMatches().front());
        QVERIFY(item != nullptr && !item->isGroup());
        QVERIFY(item->isSelected());
    }

    void selectionSignalAndSlot() {
        auto m = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        GraphView v;
        v.resize(600, 400);
        v.show();
        QVERIFY(show(v, m));
        QSignalSpy selected(&v, &GraphView::nodeSelected);
        NodeItem* assign = itemLabelled(v, QStringLiteral("Assign\n"));
        v.zoomBy(3.0);
        const QPoint at = v.mapFromScene(assign->sceneBoundingRect().center());
        v.centerOn(assign);
        QTest::mouseClick(v.viewport(), Qt::LeftButton, {}, v.mapFromScene(assign->sceneBoundingRect().center()));
        Q_UNUSED(at);
        QCOMPARE(selected.count(), 1);
        const auto* node = selected.takeFirst().at(0).value<const ir::Node*>();
        QVERIFY(node != nullptr && node->isCNode());
        QVERIFY(static_cast<const ir::CNode*>(node)->isPrimitive("Assign"));
        // The slot selects and centres without echoing the signal.
        const ir::Node* out = m->entry()->output();
        v.selectNode(out);
        QVERIFY(v.itemFor(v.model().indexOf(out))->isSelected());
        QVERIFY(!assign->isSelected());
        QCOMPARE(selected.count(), 0);
        const QRectF visible = v.mapToScene(v.viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(v.itemFor(v.model().indexOf(out))->sceneBoundingRect().center()));
    }

    void minimapMovesTheView() {
        auto m = testing::networkModule(60, 0);
        GraphView v;
        v.resize(800, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(show(v, m));
        v.resetTransform();
        v.zoomBy(2.0);
        ui::GraphMinimap* mini = v.minimap();
        QVERIFY(mini->isVisible());
        const QRectF before = mini->viewportRect();
        QVERIFY(v.scene()->sceneRect().contains(before.center()));
        // Click the far end of the minimap: the main view scrolls there.
        const QPoint target = mini->mapFromScene(v.scene()->sceneRect().bottomRight() - QPointF(30, 30));
        QTest::mouseClick(mini->viewport(), Qt::LeftButton, {}, target);
        const QRectF after = mini->viewportRect();
        QVERIFY(after.center().y() > before.center().y() + 50);
    }

    void bigModuleFirstViewIsCollapsedAndOffTheUiThread() {
        auto m = testing::networkModule(1150, 400);
        QVERIFY(m->counts().cnodes >= 5000);
        GraphView v;
        v.resize(1000, 700);
        v.show();
        int ticks = 0;
        int ticksAtFinish = -1;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(0);
        QSignalSpy spy(&v, &GraphView::layoutFinished);
        connect(&v, &GraphView::layoutFinished, [&] { ticksAtFinish = ticks; });
        v.setModule(m);
        QVERIFY(v.isLayoutRunning());  // setModule returned before the layout was done
        QVERIFY(waitLayout(spy));
        QVERIFY2(ticksAtFinish > 0, "the event loop did not turn while the layout ran");
        const int items = static_cast<int>(drawn(v).size());
        QCOMPARE(items, v.model().visibleCount());
        QVERIFY(items <= ui::kDefaultNodeBudget);
        int groups = 0;
        for (NodeItem* i : drawn(v)) {
            groups += i->isGroup() ? 1 : 0;
        }
        QVERIFY(groups > 0);
        // Scope groups: the blocks of the network.
        bool scoped = false;
        for (const ui::ModelGroup& g : v.model().groups()) {
            scoped |= g.title == QStringLiteral("layers-3");
        }
        QVERIFY(scoped);
        // A node deep inside a collapsed group: search expands it, and it stays within reach.
        QCOMPARE(v.setSearch(QStringLiteral("ReLU-op1149$")), 1);
        QVERIFY(waitLayout(spy));
        NodeItem* hit = v.itemFor(v.searchMatches().front());
        QVERIFY(hit != nullptr && !hit->isGroup() && hit->isSelected());
        QVERIFY(static_cast<int>(drawn(v).size()) <= 2 * ui::kDefaultNodeBudget);
    }

    void newerLayoutSupersedesAndCancelAbandons() {
        auto small = loadIr(QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir"));
        auto other = loadIr(QStringLiteral(IRSCOPE_TEST_DATA "/eval/if_branch.ir"));
        GraphView v;
        QSignalSpy spy(&v, &GraphView::layoutFinished);
        v.setModule(small);
        v.setModule(other);
        QVERIFY(waitLayout(spy));
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(spy.count(), 0);  // the first result was dropped
        QCOMPARE(static_cast<int>(drawn(v).size()), v.model().visibleCount());
        QVERIFY(v.model().indexOf(other->entry()->output()) >= 0);

        GraphView w;
        QSignalSpy wspy(&w, &GraphView::layoutFinished);
        w.setModule(small);
        w.cancelLayout();
        QCOMPARE(wspy.count(), 1);
        QCOMPARE(wspy.takeFirst().at(0).toBool(), false);
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCOMPARE(wspy.count(), 0);
        QVERIFY(!w.hasGraph());
    }
};

QTEST_MAIN(TestGraphView)
#include "test_graph_view.moc"
