// The Statistics dock in the real main window, offscreen: open if_vs_select.py, wait for
// its session; the totals table lists both compiles (if_net, select_net) with their
// figures, the time chart has one bar per top-level pass of the selected compile holding
// that pass's wall time, and selecting the other compile redraws both charts.
#include <QtTest>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QDockWidget>
#include <QTableWidget>

#include "compilations_dock.h"
#include "main_window.h"
#include "session/pass_stats.h"
#include "store/session.h"
#include "statistics_dock.h"

using irscope::ui::MainWindow;
using irscope::ui::StatisticsDock;
namespace session = irscope::session;
namespace passes = irscope::passes;

namespace {

const QString kExample = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/if_vs_select.py");

// The top-level passes of `c` in display order: their names and snapshots.
std::vector<const passes::PassSnapshot*> topLevel(const passes::CompileRecord& c) {
    std::vector<const passes::PassSnapshot*> out;
    for (std::size_t i : session::passDisplayOrder(c)) {
        if (c.snapshots[i].depth == 0) {
            out.push_back(&c.snapshots[i]);
        }
    }
    return out;
}

// The charts of `dock` show exactly the top-level passes of `c`.
void verifyCharts(const StatisticsDock& dock, const passes::CompileRecord& c) {
    const auto passes = topLevel(c);
    QVERIFY(passes.size() > 3);
    QCOMPARE(dock.timeBars()->count(), static_cast<int>(passes.size()));
    QCOMPARE(dock.nodeBars()->count(), static_cast<int>(passes.size()));
    QCOMPARE(dock.timeAxis()->count(), static_cast<int>(passes.size()));
    // Bars are stored last pass first: a horizontal chart draws its first category at the
    // bottom, so the chart reads top-down in pass order.
    for (std::size_t i = 0; i < passes.size(); ++i) {
        const int b = static_cast<int>(passes.size() - 1 - i);
        QCOMPARE(dock.timeAxis()->at(b), QString::fromStdString(passes[i]->pass));
        QCOMPARE(dock.timeBars()->at(b), passes[i]->millis);
        QCOMPARE(dock.nodeBars()->at(b), static_cast<double>(passes[i]->counts().nodes));
        QVERIFY(passes[i]->depth == 0);
    }
    QVERIFY(dock.timeChart()->chart()->title().contains(QString::fromStdString(c.graphName)));
}

}  // namespace

class TestStatisticsDock : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_statistics_dock"));
        QSettings().clear();
    }

    void chartsAndTotalsFollowTheSession() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        StatisticsDock* dock = w.statisticsDock();
        QVERIFY(dock != nullptr);
        QCOMPARE(dock->objectName(), QStringLiteral("statisticsDock"));
        QCOMPARE(dock->totalsTable()->rowCount(), 0);
        QCOMPARE(dock->timeBars()->count(), 0);

        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openFile(kExample);
        QVERIFY(spy.wait(180000));
        QVERIFY(spy.takeFirst().at(0).toBool());
        QVERIFY(QTest::qWaitFor([&] { return !w.isBusy(); }, 120000));
        const auto s = w.session();
        QVERIFY(s != nullptr);
        QCOMPARE(s->compiles.size(), std::size_t{2});

        // Totals: one row per compile, in session order, with its figures.
        QTableWidget* t = dock->totalsTable();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, StatisticsDock::Graph)->text(), QStringLiteral("if_net"));
        QCOMPARE(t->item(1, StatisticsDock::Graph)->text(), QStringLiteral("select_net"));
        for (int r = 0; r < 2; ++r) {
            const passes::CompileRecord& c = s->compiles[static_cast<std::size_t>(r)];
            QCOMPARE(t->item(r, StatisticsDock::TotalMs)->text(), QString::number(c.totalMillis, 'f', 2));
            QCOMPARE(t->item(r, StatisticsDock::NodesParse)->text(),
                     QString::number(c.find("parse")->counts().nodes));
            QCOMPARE(t->item(r, StatisticsDock::NodesOptA)->text(),
                     QString::number(c.find("opt_a", true)->counts().nodes));
            QCOMPARE(t->item(r, StatisticsDock::NodesFinal)->text(),
                     QString::number(c.snapshots.back().counts().nodes));
        }
        // if_net unrolls 100 `if`s into branch graphs: far more nodes after parse than
        // select_net's single graph.
        QVERIFY(s->compiles[0].find("parse")->counts().nodes > s->compiles[1].find("parse")->counts().nodes);

        // The first compile is selected on open: the charts show its top-level passes.
        QCOMPARE(w.compilationsDock()->currentRow(), 0);
        verifyCharts(*dock, s->compiles[0]);
        QVERIFY(dock->timeAxis()->categories().contains(QStringLiteral("opt_a")));
        for (const QString& name : dock->timeAxis()->categories()) {
            QVERIFY2(!name.contains(QLatin1Char('/')), qPrintable(name));  // no opt_a sub-pass
        }

        // Selecting the other compile redraws both charts.
        w.compilationsDock()->selectRow(1);
        verifyCharts(*dock, s->compiles[1]);
        QVERIFY(dock->nodeBars()->at(dock->nodeBars()->count() - 1) !=
                static_cast<double>(s->compiles[0].find("parse")->counts().nodes));
        w.compilationsDock()->selectRow(0);
        verifyCharts(*dock, s->compiles[0]);
        QSettings().clear();
    }

    void registeredInTheViewMenu() {
        MainWindow w;
        QDockWidget* dock = w.findChild<QDockWidget*>(QStringLiteral("statisticsDock"));
        QVERIFY(dock != nullptr);
        bool inMenu = false;
        for (QAction* a : w.findChildren<QAction*>()) {
            inMenu = inMenu || (a == dock->toggleViewAction() && !a->associatedObjects().isEmpty());
        }
        QVERIFY(inMenu);
    }
};

QTEST_MAIN(TestStatisticsDock)
#include "test_statistics_dock.moc"
