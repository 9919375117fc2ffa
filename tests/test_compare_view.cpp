// The Compare views in the real main window, offscreen: a pass against the one before it
// (auto_monad_reorder adds three TensorMoves to load_elim_fwd_bwd.py: text diff and graph
// marks), and Compare ▸ Settings… running the seed's network at
// MS_DEV_SIDE_EFFECT_LOAD_ELIM 1 vs 3 through the real dialog: the delta table's figures
// (gradient 3 vs 6 and the failing assert, 3 vs 0 TensorMoves, peak 2048 vs 1024 bytes)
// and the linked pass choice.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTextBlock>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QFile>

#include "compare_view.h"
#include "graph_scene.h"
#include "graph_view.h"
#include "gui_fixture.h"
#include "ir/node.h"
#include "ir_diff_view.h"
#include "main_window.h"
#include "network_module.h"
#include "pass_timeline_dock.h"
#include "pass_timeline_model.h"
#include "settings_compare.h"

using gui_test::waitIdle;
using namespace irscope::ui;
namespace ir = irscope::ir;

namespace {

const QString kExample = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");

QAction* menuAction(MainWindow& w, const QString& menu, const QString& text) {
    for (QAction* m : w.menuBar()->actions()) {
        if (m->text() == menu && m->menu() != nullptr) {
            for (QAction* a : m->menu()->actions()) {
                if (a->text() == text) {
                    return a;
                }
            }
        }
    }
    return nullptr;
}

// Model nodes of `view` marked `mark` that call primitive `op`.
int markedOps(const GraphView& view, NodeMark mark, const char* op) {
    int n = 0;
    const auto& nodes = view.model().nodes();
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const auto* c = ir::nodeCast<ir::CNode>(nodes[k].node);
        if (view.markOf(static_cast<int>(k)) == mark && c != nullptr && c->isPrimitive(op)) {
            ++n;
        }
    }
    return n;
}

QString passOf(const CompareView& v, int side) {
    const CompareSide& s = side == 0 ? v.beforeSide() : v.afterSide();
    const int k = side == 0 ? v.beforeSnapshot() : v.afterSnapshot();
    return QString::fromStdString(s.compile->snapshots.at(static_cast<std::size_t>(k)).pass);
}

}  // namespace

class TestCompareView : public QObject {
    Q_OBJECT

private:
    static bool open(MainWindow& w) {
        w.show();
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openFile(kExample);
        return spy.wait(120000) && spy.takeFirst().at(0).toBool();
    }

private slots:
    void initTestCase() { qunsetenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM"); }

    void passAgainstThePassBefore() {
        MainWindow w;
        QVERIFY(open(w));
        QVERIFY(waitIdle(w));
        QAction* show = menuAction(w, QStringLiteral("&Compare"), QStringLiteral("&Before/After Pass"));
        QVERIFY(show != nullptr);
        show->trigger();
        CompareView* cv = w.compareView();
        QCOMPARE(w.viewTabs()->currentWidget(), cv);

        PassTimelineDock* timeline = w.passTimelineDock();
        int row = -1;
        for (int r = 0; r < timeline->model()->rowCount() && row < 0; ++r) {
            if (timeline->model()->snapshot(r)->pass == "auto_monad_reorder") {
                row = r;
            }
        }
        QVERIFY(row > 0);
        QSignalSpy shown(cv, &CompareView::comparisonShown);
        timeline->selectRow(row);
        QVERIFY(shown.wait(60000));
        QVERIFY(shown.last().at(0).toBool());
        QVERIFY(waitIdle(w));
        QCOMPARE(passOf(*cv, 1), QStringLiteral("auto_monad_reorder"));
        QCOMPARE(cv->beforeSnapshot(), cv->afterSnapshot() - 1);  // the pass before it

        // The three TensorMoves copying the Loads are added; nothing is removed.
        QCOMPARE(cv->comparison().matching->counts().added, std::size_t{3});
        QCOMPARE(markedOps(*cv->afterGraph(), NodeMark::Added, "TensorMove"), 3);
        QCOMPARE(markedOps(*cv->beforeGraph(), NodeMark::Removed, "Load"), 0);
        QVERIFY(cv->summaryLabel()->text().contains(QStringLiteral("+3 added")));
        // The drawn boxes carry the marks.
        int drawnAdded = 0;
        for (NodeItem* item : cv->afterGraph()->nodeItems()) {
            drawnAdded += item != nullptr && item->mark() == NodeMark::Added ? 1 : 0;
        }
        QVERIFY(drawnAdded >= 1);

        // Text diff: next change (Alt+Down) moves both sides to the first change, which
        // adds a TensorMove line on the right facing a filler on the left.
        IrDiffView* diff = cv->textDiff();
        cv->modeTabs()->setCurrentWidget(diff);
        QVERIFY(diff->changeCount() >= 1);
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        diff->afterEdit()->setFocus();
        QTest::keyClick(diff->afterEdit(), Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(diff->currentChange(), 0);
        bool sawTensorMove = false;
        for (const ir::DiffRow& r : diff->rows()) {
            if (r.kind == ir::DiffKind::Added &&
                diff->afterEdit()->document()->findBlockByNumber(static_cast<int>(&r - diff->rows().data()))
                    .text()
                    .contains(QStringLiteral("TensorMove("))) {
                sawTensorMove = true;
            }
        }
        QVERIFY(sawTensorMove);
        // The sides scroll together.
        diff->beforeEdit()->verticalScrollBar()->setValue(5);
        QCOMPARE(diff->afterEdit()->verticalScrollBar()->value(), diff->beforeEdit()->verticalScrollBar()->value());

        // Selecting an added TensorMove's input Load on the right selects its counterpart.
        cv->modeTabs()->setCurrentIndex(0);
        const auto& nodes = cv->afterGraph()->model().nodes();
        const ir::Node* load = nullptr;
        for (const ModelNode& mn : nodes) {
            const auto* c = ir::nodeCast<ir::CNode>(mn.node);
            if (c != nullptr && c->isPrimitive("Load")) {
                load = c;
                break;
            }
        }
        QVERIFY(load != nullptr);
        const ir::Node* counterpart = cv->comparison().counterpart(load, false);
        QVERIFY(counterpart != nullptr);
        // A click on the Load's box, as the user does.
        GraphView* right = cv->afterGraph();
        right->selectNode(load);  // centres it (and expands its group if needed)
        QVERIFY(waitIdle(w));
        NodeItem* box = right->itemFor(right->model().indexOf(load));
        QVERIFY(box != nullptr && !box->isGroup());
        right->scene()->clearSelection();
        QTest::mouseClick(right->viewport(), Qt::LeftButton, {}, right->mapFromScene(box->sceneBoundingRect().center()));
        QVERIFY(box->isSelected());
        QVERIFY(waitIdle(w));
        const int k = cv->beforeGraph()->model().indexOf(counterpart);
        QCOMPARE(cv->beforeGraph()->markOf(k), NodeMark::Matched);
    }

    void settingsLoadElim1Against3() {
        MainWindow w;
        QVERIFY(open(w));
        QVERIFY(waitIdle(w));
        w.compareSettingsAction()->trigger();
        auto* dialog = w.findChild<SettingsCompareDialog*>();
        QVERIFY(dialog != nullptr);
        QVERIFY(dialog->loadElimButton()->isChecked());
        dialog->levelBox(0)->setValue(1);
        dialog->levelBox(1)->setValue(3);
        SettingsCompareView* sc = w.settingsCompareView();
        QSignalSpy done(sc, &SettingsCompareView::finished);
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(sc->isBusy());
        QVERIFY(done.wait(120000));
        QVERIFY(done.last().at(0).toBool());
        QVERIFY(waitIdle(w));
        QCOMPARE(w.viewTabs()->currentWidget(), sc);

        QTableWidget* t = sc->deltaTable();
        auto cell = [&](const char* title, int col) {
            const int r = sc->deltaRow(QString::fromLatin1(title));
            return r < 0 || t->item(r, col) == nullptr ? QStringLiteral("<no row %1>").arg(title) : t->item(r, col)->text();
        };
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=1"));
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=3"));
        // The gradient: 3 at level 1; at level 3 the graph returns 6 and the assert fails.
        QVERIFY2(cell("Returned", 1).contains(QStringLiteral("value=3")), qPrintable(cell("Returned", 1)));
        QVERIFY2(cell("Returned", 2).contains(QStringLiteral("value=6")), qPrintable(cell("Returned", 2)));
        QCOMPARE(cell("Script result", 1), QStringLiteral("ok"));
        QVERIFY2(cell("Script result", 2).contains(QStringLiteral("AssertionError")), qPrintable(cell("Script result", 2)));
        QCOMPARE(cell("Planned peak bytes", 1), QStringLiteral("2048"));
        QCOMPARE(cell("Planned peak bytes", 2), QStringLiteral("1024"));
        QCOMPARE(cell("Measured peak bytes", 1), QStringLiteral("2048"));
        QCOMPARE(cell("Measured peak bytes", 2), QStringLiteral("1024"));
        QCOMPARE(cell("Measured peak bytes", 3), QStringLiteral("-1024"));
        QCOMPARE(cell("TensorMove at the end", 1), QStringLiteral("3"));
        QCOMPARE(cell("TensorMove at the end", 2), QStringLiteral("0"));
        QCOMPARE(cell("Load at the end", 1), cell("Load at the end", 2));
        // A differing row is marked; an equal one is not.
        const int peak = sc->deltaRow(QStringLiteral("Measured peak bytes"));
        QVERIFY(t->item(peak, 1)->font().bold());
        QVERIFY(!t->item(sc->deltaRow(QStringLiteral("Load at the end")), 1)->font().bold());

        // The same compile and pass on both sides: the end of the pipeline first; choosing
        // another pass on the left chooses it on the right.
        CompareView* cv = sc->compareView();
        QCOMPARE(passOf(*cv, 0), passOf(*cv, 1));
        QCOMPARE(passOf(*cv, 1), QStringLiteral("task_emit"));
        QCOMPARE(sc->compileBox(0)->currentIndex(), sc->compileBox(1)->currentIndex());
        const int row = cv->beforeBox()->findText(QStringLiteral("auto_monad_reorder"), Qt::MatchStartsWith);
        QVERIFY(row >= 0);
        QSignalSpy shown(cv, &CompareView::comparisonShown);
        cv->beforeBox()->setCurrentIndex(row);
        QCOMPARE(passOf(*cv, 0), QStringLiteral("auto_monad_reorder"));
        QCOMPARE(passOf(*cv, 1), QStringLiteral("auto_monad_reorder"));
        QVERIFY(shown.wait(60000));
        QVERIFY(waitIdle(w));
        QCOMPARE(cell("Pass", 2), QStringLiteral("auto_monad_reorder"));
        QCOMPARE(cell("TensorMove at the pass", 1), QStringLiteral("3"));
        QCOMPARE(cell("TensorMove at the pass", 2), QStringLiteral("0"));
        // Level 3 keeps no copies: the left's TensorMoves have no counterpart.
        QCOMPARE(markedOps(*cv->beforeGraph(), NodeMark::Removed, "TensorMove"), 3);
        // And the right side's pass box drives the left one too.
        const int end = cv->afterBox()->count() - 1;
        cv->afterBox()->setCurrentIndex(end);
        QCOMPARE(passOf(*cv, 0), passOf(*cv, 1));
    }

    // The graph view's mark role: a collapsed group shows its strongest member's mark, and
    // the marks survive a re-layout (expanding the group).
    void collapsedGroupShowsItsMembersMark() {
        auto m = irscope::testing::networkModule(60, 0);
        GraphView v;
        v.resize(600, 400);
        v.show();
        QSignalSpy laid(&v, &GraphView::layoutFinished);
        v.setModule(m, 0);  // every graph one box
        QVERIFY(laid.wait(60000));
        const auto& nodes = v.model().nodes();
        int relu = -1;
        int add = -1;
        for (std::size_t k = 0; k < nodes.size() && (relu < 0 || add < 0); ++k) {
            const auto* c = ir::nodeCast<ir::CNode>(nodes[k].node);
            if (c != nullptr && c->isPrimitive("ReLU") && relu < 0) {
                relu = static_cast<int>(k);
            } else if (c != nullptr && c->isPrimitive("Add") && add < 0) {
                add = static_cast<int>(k);
            }
        }
        QVERIFY(relu >= 0 && add >= 0);
        std::vector<NodeMark> marks(nodes.size(), NodeMark::None);
        marks[static_cast<std::size_t>(relu)] = NodeMark::Changed;
        marks[static_cast<std::size_t>(add)] = NodeMark::Added;
        v.setNodeMarks(marks);
        NodeItem* box = v.itemFor(relu);
        QVERIFY(box != nullptr && box->isGroup());
        QCOMPARE(box, v.itemFor(add));
        QCOMPARE(box->mark(), NodeMark::Added);  // Added outranks Changed
        v.selectNode(nodes[static_cast<std::size_t>(relu)].node);  // expands its groups
        QVERIFY(laid.wait(60000));
        NodeItem* own = v.itemFor(relu);
        QVERIFY(own != nullptr && !own->isGroup());
        QCOMPARE(own->mark(), NodeMark::Changed);
        v.setModule(m, 0);
        QVERIFY(v.nodeMarks().empty());  // a new model starts unmarked
    }

    // Cancel stops both runs; what they compiled so far is kept and the header says so.
    void settingsCompareCancels() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("spin.py"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("i = 0\nwhile True:\n    i = i + 1\n");
        f.close();
        SettingsCompareView sc;
        sc.show();
        QSignalSpy done(&sc, &SettingsCompareView::finished);
        QString error;
        sc.start(path, *SettingsChoice::parse(QStringLiteral("load-elim=0,3"), &error));
        QVERIFY(sc.isBusy());
        QVERIFY(QTest::qWaitForWindowExposed(&sc));
        QVERIFY(sc.cancelButton()->isVisible());
        QTest::mouseClick(sc.cancelButton(), Qt::LeftButton);
        QVERIFY(!sc.cancelButton()->isEnabled());  // stopping
        QVERIFY(done.count() > 0 || done.wait(60000));
        QVERIFY(!sc.isBusy());
        QVERIFY2(sc.run(0).script.cancelled(), qPrintable(sc.run(0).script.error));
        QVERIFY2(sc.run(1).script.cancelled(), qPrintable(sc.run(1).script.error));
        QVERIFY2(sc.headerLabel()->text().contains(QStringLiteral("stopped")), qPrintable(sc.headerLabel()->text()));
    }

    // A start while both runs go on stops them and runs the new script once they have
    // ended, with no wait on the UI thread; destroying a view whose runs go on returns once
    // they stopped (a step later), not when they would have ended.
    void settingsCompareRestartsAndClosesWithoutWaitingForTheRuns() {
        QTemporaryDir dir;
        const QString spin = gui_test::writeScript(
            dir, QStringLiteral("spin.py"), "import time\nwhile True:\n    time.sleep(0.01)\n");
        const QString example =
            QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.py");
        QString error;
        const SettingsChoice choice =
            *SettingsChoice::parse(QStringLiteral("load-elim=0,3"), &error);
        {
            SettingsCompareView sc;
            QSignalSpy done(&sc, &SettingsCompareView::finished);
            sc.start(spin, choice);
            QVERIFY(sc.isBusy());
            QElapsedTimer t;
            t.start();
            sc.start(example, choice);  // returns at once: the spinning runs are stopped
            QVERIFY(t.elapsed() < 1000);
            QVERIFY(sc.isBusy());
            QVERIFY(done.wait(120000));
            QCOMPARE(done.size(), 1);  // only the new runs report
            QVERIFY(done.first().at(0).toBool());
            QVERIFY(sc.run(0).script.ok());
            QVERIFY(sc.run(0).script.path == example);
            QVERIFY(sc.headerLabel()->text().contains(QStringLiteral("load_elim_level3.py")));
        }
        auto* sc = new SettingsCompareView;
        sc->start(spin, choice);
        QTest::qWait(300);
        QVERIFY(sc->isBusy());
        QElapsedTimer t;
        t.start();
        delete sc;
        QVERIFY2(t.elapsed() < 5000, "closing waited for the runs to end by themselves");
    }

    void parsesCommandLineChoices() {
        QString error;
        auto c = SettingsChoice::parse(QStringLiteral("load-elim=1,3"), &error);
        QVERIFY(c.has_value());
        QCOMPARE(c->label(0), QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=1"));
        QCOMPARE(c->label(1), QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=3"));
        c = SettingsChoice::parse(QStringLiteral("lazy-inline"), &error);
        QVERIFY(c.has_value());
        QCOMPARE(c->label(1), QStringLiteral("MS_DEV_CELL_REUSE=1"));
        QVERIFY(!SettingsChoice::parse(QStringLiteral("load-elim=1,4"), &error));
        QVERIFY(error.contains(QStringLiteral("load-elim=A,B")));
        QVERIFY(!SettingsChoice::parse(QStringLiteral("load-elim"), &error));
    }
};

QTEST_MAIN(TestCompareView)
#include "test_compare_view.moc"
