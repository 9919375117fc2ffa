// The Statistics dock's trend over the statistics history: a script run three times (the
// history in a temporary file named by IRSCOPE_STATS_DB), the third time with the compile
// cache, charted per graph with the cached compile marked; a history that is off or not a
// history file says so instead of a chart.
#include <QtTest>

#include <QChartView>
#include <QFile>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>

#include "session/run_script.h"
#include "stats_trend_view.h"
#include "statistics_dock.h"

using irscope::ui::StatisticsDock;
using irscope::ui::StatsTrendView;
namespace session = irscope::session;
namespace store = irscope::store;

namespace {

std::string script(const QString& cacheDir, bool cache) {
    return "import numpy as np\nimport mindspore as ms\n"
           "ms.set_context(enable_compile_cache=" +
           std::string(cache ? "True" : "False") + ", compile_cache_path='" +
           cacheDir.toStdString() +
           "')\n@ms.jit\ndef f(x):\n    return x * 2\n@ms.jit\ndef g(x):\n    return x + 1\n"
           "x = ms.Tensor(np.ones(2, np.float32))\nprint(f(x), g(x))\n";
}

}  // namespace

class TestStatsTrend : public QObject {
    Q_OBJECT

private slots:
    void chartsTheScriptsHistory() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("stats.sqlite"));
        const QString path = dir.filePath(QStringLiteral("trend.py"));
        qputenv("IRSCOPE_STATS_DB", db.toUtf8());
        std::shared_ptr<const store::Session> last;
        for (int run = 0; run < 3; ++run) {
            // Runs 2 and 3 have the cache on: run 2 stores, run 3 loads.
            const std::string text = script(dir.filePath(QStringLiteral("cache")), run > 0);
            session::ScriptRunner runner;
            session::ScriptOptions options;
            options.compiler.readEnvironment = false;
            last = runner.run(text, path.toStdString(), options).session;
            QCOMPARE(last->compiles.size(), std::size_t{2});
        }
        StatisticsDock dock;
        StatsTrendView* trend = dock.trendView();
        QSignalSpy updated(trend, &StatsTrendView::updated);
        dock.setSession(last);
        QVERIFY(updated.wait(30000));
        QVERIFY(trend->note().isEmpty());
        const QList<QLineSeries*> lines = trend->graphSeries();
        QCOMPARE(lines.size(), 2);
        QStringList names;
        for (QLineSeries* l : lines) {
            names << l->name();
            QCOMPARE(l->count(), 3);  // one point per run
            for (int i = 1; i < l->count(); ++i) {
                QVERIFY(l->at(i).x() > l->at(i - 1).x());  // oldest first
            }
        }
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("f"), QStringLiteral("g")}));
        QCOMPARE(trend->cacheSeries()->count(), 2);  // run 3's two compiles
        // Another script has no history; clearing the session clears the chart.
        trend->setScript(dir.filePath(QStringLiteral("other.py")));
        QVERIFY(updated.wait(30000));
        QVERIFY(trend->graphSeries().isEmpty());
        QVERIFY(trend->note().contains(QStringLiteral("No compile")));
        qputenv("IRSCOPE_STATS_DB", "off");  // as the suites run
    }

    void saysWhyThereIsNoChart() {
        StatsTrendView trend;
        QSignalSpy updated(&trend, &StatsTrendView::updated);
        qputenv("IRSCOPE_STATS_DB", "off");
        trend.setScript(QStringLiteral("/tmp/x.py"));
        QVERIFY(updated.wait(30000));
        QVERIFY(trend.note().contains(QStringLiteral("off")));
        QTemporaryDir dir;
        const QString notes = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(notes);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("not a database\n").repeated(300));
        f.close();
        qputenv("IRSCOPE_STATS_DB", notes.toUtf8());
        trend.setScript(QStringLiteral("/tmp/y.py"));
        QVERIFY(updated.wait(30000));
        QVERIFY2(trend.note().contains(notes), qPrintable(trend.note()));
        QVERIFY(trend.graphSeries().isEmpty());
        qputenv("IRSCOPE_STATS_DB", "off");
    }
};

QTEST_MAIN(TestStatsTrend)
#include "test_stats_trend.moc"
