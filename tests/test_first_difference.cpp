// Compare ▸ Settings ▸ Find first difference in the real main window, offscreen: the seed's
// load-elimination network at MS_DEV_SIDE_EFFECT_LOAD_ELIM 1 vs 3 — the First difference tab
// names AddN at the construct's `out = x * self.weight + out` line with both values (3 and
// 4: the first two terms of the gradient) and the stale-Load explanation, and both graph views
// select their AddN; levels 1 vs 2 show no difference.
#include <QtTest>

#include <QPushButton>
#include <QRadioButton>
#include <QTabWidget>
#include <QTreeWidget>

#include "compare_view.h"
#include "first_difference.h"
#include "graph_view.h"
#include "gui_fixture.h"
#include "ir/node.h"
#include "main_window.h"
#include "settings_compare.h"

using gui_test::waitIdle;
using namespace irscope::ui;
namespace ir = irscope::ir;

namespace {

const QString kExample =
    QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");

bool compareSettings(MainWindow& w, std::int64_t a, std::int64_t b) {
    SettingsCompareView* sc = w.settingsCompareView();
    QSignalSpy done(sc, &SettingsCompareView::finished);
    SettingsChoice choice;
    choice.key = "MS_DEV_SIDE_EFFECT_LOAD_ELIM";
    choice.a = a;
    choice.b = b;
    w.compareSettings(choice);
    return done.wait(120000) && done.last().at(0).toBool() && waitIdle(w);
}

bool selectsAddN(const GraphView& v) {
    const auto* c = ir::nodeCast<ir::CNode>(v.selectedNode());
    return c != nullptr && c->isPrimitive("AddN");
}

}  // namespace

class TestFirstDifference : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qunsetenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM"); }

    void findsTheAddNReadingStaleLoads() {
        MainWindow w;
        w.show();
        QVERIFY(gui_test::openAndWait(w, kExample));
        QVERIFY(waitIdle(w));
        QVERIFY(compareSettings(w, 1, 3));
        SettingsCompareView* sc = w.settingsCompareView();
        QPushButton* find = sc->findDifferenceButton();
        QVERIFY(find->isEnabled());
        QSignalSpy shown(sc, &SettingsCompareView::differenceShown);
        QTest::mouseClick(find, Qt::LeftButton);
        QVERIFY(sc->isBusy());
        QVERIFY(shown.wait(120000));
        QVERIFY(shown.last().at(0).toBool());
        QVERIFY(waitIdle(w));

        FirstDifferencePanel* panel = sc->differencePanel();
        QVERIFY(panel->isVisible());
        const QString kernel = panel->row(QStringLiteral("Kernel"));
        QVERIFY2(kernel.startsWith(QStringLiteral("AddN at ")), qPrintable(kernel));
        QVERIFY2(kernel.contains(QStringLiteral("out = x * self.weight + out")),
                 qPrintable(kernel));
        QVERIFY2(panel->row(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=1"))
                     .contains(QStringLiteral("value=3)")),
                 qPrintable(panel->row(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=1"))));
        QVERIFY2(panel->row(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=3"))
                     .contains(QStringLiteral("value=4)")),
                 qPrintable(panel->row(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=3"))));
        QVERIFY2(
            panel->row(QStringLiteral("Why")).contains(QStringLiteral("no TensorMove copied it")),
            qPrintable(panel->row(QStringLiteral("Why"))));
        // b's row lists the Loads AddN read stale.
        QTreeWidgetItem* b = panel->sideRow(1);
        QVERIFY(b != nullptr);
        int stale = 0;
        for (int i = 0; i < b->childCount(); ++i) {
            stale += b->child(i)->text(1).contains(QStringLiteral("read later as")) ? 1 : 0;
        }
        QCOMPARE(stale, 1);

        // Both graph views select their side's AddN, at the end of the divergent compile.
        CompareView* cv = sc->compareView();
        QTRY_VERIFY_WITH_TIMEOUT(selectsAddN(*cv->beforeGraph()), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(selectsAddN(*cv->afterGraph()), 30000);
        QCOMPARE(cv->afterSnapshot(),
                 static_cast<int>(cv->afterSide().compile->snapshots.size()) - 1);
    }

    void levels1And2ShowNoDifference() {
        MainWindow w;
        w.show();
        QVERIFY(gui_test::openAndWait(w, kExample));
        QVERIFY(waitIdle(w));
        QVERIFY(compareSettings(w, 1, 2));
        SettingsCompareView* sc = w.settingsCompareView();
        QSignalSpy shown(sc, &SettingsCompareView::differenceShown);
        sc->findFirstDifference();
        QVERIFY(shown.wait(120000));
        QVERIFY(!shown.last().at(0).toBool());
        QVERIFY(sc->difference().has_value());
        QVERIFY(!sc->difference()->first.has_value());
        QVERIFY(!sc->differencePanel()->row(QStringLiteral("No difference")).isEmpty());
    }

    // The dialog's third choice runs the seed's print example in PyNative mode and in
    // GRAPH_MODE; the panel shows no value difference and both prints side by side, explained.
    void pynativeAgainstGraphShowsThePrintsSideBySide() {
        MainWindow w;
        w.show();
        const QString print =
            QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/graph_mode_print.py");
        QVERIFY(gui_test::openAndWait(w, print));
        QVERIFY(waitIdle(w));
        SettingsCompareDialog dialog;
        dialog.modeButton()->setChecked(true);
        const SettingsChoice choice = dialog.choice();
        QCOMPARE(choice.label(0), QStringLiteral("mode=pynative"));
        QCOMPARE(choice.label(1), QStringLiteral("mode=graph"));
        SettingsCompareView* sc = w.settingsCompareView();
        QSignalSpy done(sc, &SettingsCompareView::finished);
        w.compareSettings(choice);
        QVERIFY(done.wait(120000));
        QVERIFY(waitIdle(w));
        QSignalSpy shown(sc, &SettingsCompareView::differenceShown);
        QTest::mouseClick(sc->findDifferenceButton(), Qt::LeftButton);
        QVERIFY(shown.wait(120000));
        QVERIFY(!shown.last().at(0).toBool());
        FirstDifferencePanel* panel = sc->differencePanel();
        QVERIFY(!panel->row(QStringLiteral("No difference")).isEmpty());
        QCOMPARE(panel->row(QStringLiteral("Printed at line 26")),
                 QStringLiteral("print('matmul: ', out)"));
        QVERIFY2(panel->row(QStringLiteral("Why"))
                     .contains(QStringLiteral("compiled into a Print operator")),
                 qPrintable(panel->row(QStringLiteral("Why"))));
        QTreeWidgetItem* printed = nullptr;
        for (int i = 0; i < panel->topLevelItemCount(); ++i) {
            if (panel->topLevelItem(i)->text(0) == QStringLiteral("Printed at line 26")) {
                printed = panel->topLevelItem(i);
            }
        }
        QVERIFY(printed != nullptr && printed->childCount() == 2);
        QVERIFY2(printed->child(0)->text(1).startsWith(QStringLiteral("matmul: [")),
                 qPrintable(printed->child(0)->text(1)));
        QVERIFY2(
            printed->child(1)->text(1).contains(QStringLiteral("Tensor(shape=[3], dtype=Float32")),
            qPrintable(printed->child(1)->text(1)));
        QVERIFY(printed->child(1)->text(0).contains(QStringLiteral("Print operator")));
    }
};

QTEST_MAIN(TestFirstDifference)
#include "test_first_difference.moc"
