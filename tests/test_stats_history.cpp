// The statistics history: every run's compiles appended to one SQLite file (the script and
// its hash, graph, signature, settings, per-pass times and sizes, irscope's version, whether
// the compile came from the cache), queried by `irscope-cli stats` as a table or CSV. Where
// it lives (--stats-db, IRSCOPE_STATS_DB, $XDG_DATA_HOME, ~/.local/share), "off", concurrent
// writers in several processes, and a foreign file reported and left alone.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>
#include <vector>

#include "cli_runner.h"
#include "session/run_script.h"
#include "store/stats_history.h"
#include "util/sha256.h"

namespace {

// Two @jit functions: two compiles per run.
const char* const kScript = R"(# statistics history test
import numpy as np
import mindspore as ms
from mindspore import Tensor


@ms.jit
def f(x):
    return x + 1


@ms.jit
def g(x):
    return x * 2 + 2


x = Tensor(np.ones(2, np.float32))
print(f(x))
print(g(x))
)";

QString writeScript(const QTemporaryDir& dir, const QString& name = QStringLiteral("stats.py")) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        f.write(kScript);
    }
    return path;
}

cli_test::CliRun cli(const QStringList& args, const QMap<QString, QString>& env = {}) {
    cli_test::CliOptions o;
    o.env = env;
    return cli_test::runCli(args, o);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int csvRows(const QByteArray& csv) {
    return static_cast<int>(csv.count('\n')) - 1;  // the header
}

}  // namespace

class TestStatsHistory : public QObject {
    Q_OBJECT

private slots:
    // In process: a run appends its compiles; the query reads them back with their passes.
    void appendAndQuery() {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("h/stats.sqlite")).toStdString();
        irscope::session::ScriptOptions options;
        options.statsHistory = db;
        options.compiler.readEnvironment = false;
        irscope::session::ScriptRunner runner;
        const auto outcome = runner.run(kScript, "stats.py", options);
        QCOMPARE(outcome.result.exitStatus, 0);
        QCOMPARE(outcome.session->compiles.size(), std::size_t{2});

        irscope::store::StatsQuery q;
        q.passes = true;
        const auto rows = irscope::store::queryStatsHistory(db, q);
        QCOMPARE(rows.size(), std::size_t{2});
        QCOMPARE(rows[0].graph, std::string("f"));
        QCOMPARE(rows[1].graph, std::string("g"));
        QCOMPARE(rows[0].signature, std::string("(Tensor[Float32](2))"));
        QCOMPARE(rows[0].status, std::string("ok"));
        QVERIFY(!rows[0].fromCache);
        QCOMPARE(rows[0].scriptHash, irscope::util::sha256Hex(kScript));
        QVERIFY(QString::fromStdString(rows[0].script).endsWith(QStringLiteral("/stats.py")));
        QVERIFY(QRegularExpression(QStringLiteral(R"(^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$)"))
                    .match(QString::fromStdString(rows[0].recordedAt))
                    .hasMatch());
        // Per pass, as the compile recorded them.
        const auto& rec = outcome.session->compiles[1];
        QCOMPARE(rows[1].passes.size(), rec.snapshots.size());
        QCOMPARE(rows[1].passes.front().pass, std::string("parse"));
        QCOMPARE(rows[1].passes.back().pass, std::string("task_emit"));
        QCOMPARE(rows[1].nodes, static_cast<std::int64_t>(rec.snapshots.back().counts().nodes));
        QCOMPARE(rows[1].totalMillis, rec.totalMillis);
        QVERIFY(rows[1].peakBytes.has_value());
        bool nested = false;
        for (const auto& p : rows[1].passes) {
            nested = nested || (p.depth == 1 && p.pass.rfind("opt_a/", 0) == 0);
        }
        QVERIFY(nested);
        q.last = 1;
        q.passes = false;
        const auto last = irscope::store::queryStatsHistory(db, q);
        QCOMPARE(last.size(), std::size_t{1});
        QCOMPARE(last[0].graph, std::string("g"));
        QVERIFY(last[0].passes.empty());
    }

    // irscope-cli run --stats-db, then irscope-cli stats as a table and as CSV.
    void cliTableAndCsv() {
        QTemporaryDir dir;
        const QString script = writeScript(dir);
        const QString db = dir.filePath(QStringLiteral("stats.sqlite"));
        for (int i = 0; i < 2; ++i) {
            const auto r = cli({QStringLiteral("run"), script, QStringLiteral("--stats-db"), db});
            QCOMPARE(r.status, 0);
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }
        const auto table = cli({QStringLiteral("stats"), QStringLiteral("--db"), db});
        QCOMPARE(table.status, 0);
        const QStringList lines = table.outText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);  // header + 4 compiles
        QVERIFY(lines[0].contains(QStringLiteral("date (UTC)")));
        QVERIFY(lines[0].contains(QStringLiteral("total ms")));
        QVERIFY(lines[1].contains(QStringLiteral("stats.py")));

        const auto csv = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                              QStringLiteral("--csv")});
        QCOMPARE(csv.status, 0);
        QVERIFY(csv.out.startsWith(
            "id,recorded_at,script,script_sha256,graph,signature,settings,status,total_ms,graphs,"
            "nodes,cnodes,peak_bytes,irscope_version,from_cache\n"));
        QCOMPARE(csvRows(csv.out), 4);
        QVERIFY(csv.out.contains(",f,(Tensor[Float32](2)),,ok,"));

        const auto passes = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                 QStringLiteral("--csv"), QStringLiteral("--passes"),
                                 QStringLiteral("--last"), QStringLiteral("1")});
        QCOMPARE(passes.status, 0);
        QVERIFY(passes.out.split('\n').front().endsWith(",pass_peak_bytes,changed"));
        QVERIFY(csvRows(passes.out) > 10);  // one row per pass of g's compile
        QVERIFY(passes.out.contains(",task_emit,0,0,"));
        QVERIFY(!passes.out.contains(",f,"));

        const auto table2 = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                 QStringLiteral("--passes"), QStringLiteral("--last"),
                                 QStringLiteral("1")});
        QVERIFY(table2.out.contains("signature: (Tensor[Float32](2))"));
        QVERIFY(table2.out.contains("  cse r0"));

        const auto bySuffix = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                   QStringLiteral("--script"), QStringLiteral("stats.py"),
                                   QStringLiteral("--csv")});
        QCOMPARE(csvRows(bySuffix.out), 4);
        const auto byPath = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                 QStringLiteral("--script"), script, QStringLiteral("--csv")});
        QCOMPARE(csvRows(byPath.out), 4);
        const auto other = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                QStringLiteral("--script"), QStringLiteral("ats.py")});
        QCOMPARE(other.outText(), QStringLiteral("No compiles recorded.\n"));
    }

    // Where the history lives when no option names it.
    void location() {
        QTemporaryDir dir;
        const QString script = writeScript(dir);
        const QStringList run{QStringLiteral("run"), script};
        const QString byEnv = dir.filePath(QStringLiteral("env.sqlite"));
        QCOMPARE(cli(run, {{QStringLiteral("IRSCOPE_STATS_DB"), byEnv}}).status, 0);
        QVERIFY(QFile::exists(byEnv));

        const QString xdg = dir.filePath(QStringLiteral("xdg"));
        QCOMPARE(cli(run, {{QStringLiteral("IRSCOPE_STATS_DB"), QString()},
                           {QStringLiteral("XDG_DATA_HOME"), xdg}})
                     .status,
                 0);
        QVERIFY(QFile::exists(xdg + QStringLiteral("/irscope/stats.sqlite")));

        const QString home = dir.filePath(QStringLiteral("home"));
        QCOMPARE(cli(run, {{QStringLiteral("IRSCOPE_STATS_DB"), QString()},
                           {QStringLiteral("XDG_DATA_HOME"), QString()},
                           {QStringLiteral("HOME"), home}})
                     .status,
                 0);
        QVERIFY(QFile::exists(home + QStringLiteral("/.local/share/irscope/stats.sqlite")));
        const auto stats = cli({QStringLiteral("stats"), QStringLiteral("--csv")},
                               {{QStringLiteral("IRSCOPE_STATS_DB"), QString()},
                                {QStringLiteral("XDG_DATA_HOME"), QString()},
                                {QStringLiteral("HOME"), home}});
        QCOMPARE(csvRows(stats.out), 2);

        // "off": nothing is written, whatever else is set; the option beats the variable.
        const QString offHome = dir.filePath(QStringLiteral("off"));
        QCOMPARE(cli(run, {{QStringLiteral("IRSCOPE_STATS_DB"), QStringLiteral("off")},
                           {QStringLiteral("HOME"), offHome}})
                     .status,
                 0);
        QVERIFY(!QFile::exists(offHome));
        QCOMPARE(cli(run + QStringList{QStringLiteral("--stats-db"), QStringLiteral("off")},
                     {{QStringLiteral("IRSCOPE_STATS_DB"), byEnv}})
                     .status,
                 0);
        QCOMPARE(csvRows(cli({QStringLiteral("stats"), QStringLiteral("--db"), byEnv,
                              QStringLiteral("--csv")})
                             .out),
                 2);
        const auto off = cli({QStringLiteral("stats")});  // the suite runs with "off"
        QCOMPARE(off.status, 1);
        QVERIFY(off.errText().contains(QStringLiteral("off")));
    }

    // Several processes appending at once lose no rows (WAL, busy timeout, one transaction
    // per run).
    void concurrentWriters() {
        QTemporaryDir dir;
        const QString script = writeScript(dir);
        const QString db = dir.filePath(QStringLiteral("stats.sqlite"));
        constexpr int kProcesses = 6;
        std::vector<std::unique_ptr<QProcess>> procs;
        for (int i = 0; i < kProcesses; ++i) {
            auto p = std::make_unique<QProcess>();
            p->start(QStringLiteral(IRSCOPE_CLI),
                     {QStringLiteral("run"), script, QStringLiteral("--stats-db"), db});
            QVERIFY(p->waitForStarted());
            procs.push_back(std::move(p));
        }
        for (auto& p : procs) {
            QVERIFY(p->waitForFinished(120000));
            QCOMPARE(p->exitCode(), 0);
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(err.isEmpty(), err.constData());
        }
        const auto csv = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                              QStringLiteral("--csv")});
        QCOMPARE(csvRows(csv.out), 2 * kProcesses);
        const auto passes = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                 QStringLiteral("--csv"), QStringLiteral("--passes")});
        const auto onePass = cli({QStringLiteral("stats"), QStringLiteral("--db"), db,
                                  QStringLiteral("--csv"), QStringLiteral("--passes"),
                                  QStringLiteral("--last"), QStringLiteral("2")});
        QCOMPARE(csvRows(passes.out), kProcesses * csvRows(onePass.out));
    }

    // A compile that came from the compile cache says so.
    void fromCache() {
        QTemporaryDir dir;
        const QString script = writeScript(dir);
        const QString db = dir.filePath(QStringLiteral("stats.sqlite"));
        cli_test::CliOptions o;
        o.env = {{QStringLiteral("MS_COMPILER_CACHE_ENABLE"), QStringLiteral("1")},
                 {QStringLiteral("MS_COMPILER_CACHE_PATH"), dir.filePath(QStringLiteral("c"))}};
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(cli_test::runCli({QStringLiteral("run"), script, QStringLiteral("--stats-db"),
                                       db},
                                      o)
                         .status,
                     0);
        }
        const QList<QByteArray> rows =
            cli({QStringLiteral("stats"), QStringLiteral("--db"), db, QStringLiteral("--csv")})
                .out.trimmed()
                .split('\n');
        QCOMPARE(rows.size(), 5);
        QVERIFY(rows[1].endsWith(",0") && rows[2].endsWith(",0"));
        QVERIFY(rows[3].endsWith(",1") && rows[4].endsWith(",1"));
        const auto table = cli({QStringLiteral("stats"), QStringLiteral("--db"), db});
        QCOMPARE(table.out.count(" cache "), 2);
    }

    // A file that is not a statistics history: reported, never written.
    void foreignFile() {
        QTemporaryDir dir;
        const QString script = writeScript(dir);
        const QString db = dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("my notes, not a database\n").repeated(200));
        }
        const QByteArray before = readAll(db);
        const auto stats = cli({QStringLiteral("stats"), QStringLiteral("--db"), db});
        QCOMPARE(stats.status, 1);
        QVERIFY2(stats.errText().startsWith(QStringLiteral("irscope-cli: error: ") + db +
                                            QStringLiteral(": ")),
                 qPrintable(stats.errText()));
        const auto r = cli({QStringLiteral("run"), script, QStringLiteral("--stats-db"), db});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.outText(), QStringLiteral("[2. 2.]\n[4. 4.]\n"));
        QVERIFY2(r.errText().startsWith(
                     QStringLiteral("[WARNING] irscope: statistics history not recorded: ") + db),
                 qPrintable(r.errText()));
        QCOMPARE(readAll(db), before);
        const auto missing = cli({QStringLiteral("stats"), QStringLiteral("--db"),
                                  dir.filePath(QStringLiteral("none.sqlite"))});
        QCOMPARE(missing.status, 1);
        QVERIFY(missing.errText().contains(QStringLiteral("none.sqlite")));
    }
};

QTEST_GUILESS_MAIN(TestStatsHistory)
#include "test_stats_history.moc"
