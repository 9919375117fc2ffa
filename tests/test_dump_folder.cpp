// save_graphs dump folders read back as a Session (session/dump_folder.h): file names,
// a folder written by a real run (save-graphs level 2: opt_a's sub-passes too) against
// that run's own compile records, a hand-made folder with MindSpore-style names and one
// broken file, and the statistics CSV (session/stats_csv.h).
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <fstream>
#include <iterator>

#include "passes/settings.h"
#include "session/dump_folder.h"
#include "session/pass_stats.h"
#include "session/run_script.h"
#include "session/stats_csv.h"

using namespace irscope;

namespace {

std::string readAll(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

bool writeText(const QString& path, const std::string& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.data(), static_cast<qint64>(text.size())) ==
                                                static_cast<qint64>(text.size());
}

QString example(const char* name) {
    return QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

// Runs `script` in process with save_graphs at `level` into `dir`.
std::shared_ptr<store::Session> runWithDumps(const QString& script, const QString& dir, int level) {
    session::ScriptOptions o;
    o.compiler.readEnvironment = false;
    o.compiler.overrides.set(std::string(passes::kSaveGraphs), std::int64_t{level});
    o.compiler.overrides.set(std::string(passes::kSaveGraphsPath), dir.toStdString());
    session::ScriptRunner runner;
    session::ScriptOutcome r = runner.run(readAll(script), script.toStdString(), o);
    return r.session;
}

// Lines of CSV text (CRLF records), the header included.
QStringList csvLines(const std::string& csv) {
    QStringList lines = QString::fromStdString(csv).split(QStringLiteral("\r\n"));
    if (!lines.isEmpty() && lines.last().isEmpty()) {
        lines.removeLast();
    }
    return lines;
}

}  // namespace

class TestDumpFolder : public QObject {
    Q_OBJECT

private slots:
    void fileNames() {
        session::DumpFileName d;
        QVERIFY(session::parseDumpFileName("00_parse_0000.ir", &d));
        QCOMPARE(d.pass, std::string("parse"));
        QCOMPARE(d.stage, 0);
        QCOMPARE(d.serial, 0);
        QCOMPARE(d.depth, 0);
        QVERIFY(session::parseDumpFileName("01_symbol_resolve_0001.ir", &d));
        QCOMPARE(d.pass, std::string("symbol_resolve"));
        QCOMPARE(d.stage, 1);
        QCOMPARE(d.serial, 1);
        QVERIFY(session::parseDumpFileName("opt_substep_opt_a_r1_5_cse_0021.ir", &d));
        QCOMPARE(d.pass, std::string("opt_a/cse"));
        QCOMPARE(d.depth, 1);
        QCOMPARE(d.round, 1);
        QCOMPARE(d.index, 5);
        QCOMPARE(d.serial, 21);
        QCOMPARE(d.stage, -1);
        QVERIFY(session::parseDumpFileName("opt_substep_opt_a_r0_3_arithmetic_simplify_0007.ir", &d));
        QCOMPARE(d.pass, std::string("opt_a/arithmetic_simplify"));
        QVERIFY(session::parseDumpFileName("hwopt_d_ir_fusion_before_graph_0.ir", &d));
        QCOMPARE(d.pass, std::string("hwopt_d_ir_fusion_before_graph"));
        QCOMPARE(d.serial, -1);
        QVERIFY(session::parseDumpFileName("graph_build_0_12.ir", &d));
        QCOMPARE(d.pass, std::string("graph_build"));
        QVERIFY(!session::parseDumpFileName("graph_build_0_12.dot", &d));
        QVERIFY(!session::parseDumpFileName("ir", &d));
    }

    // A real run's folder (level 2) reads back as that run's compiles: the same passes in
    // the same order, the same node counts and changed marks.
    void matchesTheRunThatWroteIt() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto live = runWithDumps(example("jit_decorator.py"), dir.path(), 2);
        QVERIFY(live != nullptr);
        QVERIFY(live->compiles.size() >= 2);

        int calls = 0;
        const session::DumpFolder folder =
            session::loadDumpFolder(dir.path().toStdString(), [&calls](int done, int total) {
                ++calls;
                QVERIFY(done <= total);
            });
        QVERIFY2(folder.error.empty(), folder.error.c_str());
        QCOMPARE(folder.failed, 0);
        QVERIFY(folder.session != nullptr);
        QCOMPARE(calls, folder.files);
        QCOMPARE(folder.session->compiles.size(), live->compiles.size());
        int files = 0;
        for (std::size_t c = 0; c < live->compiles.size(); ++c) {
            const passes::CompileRecord& want = live->compiles[c];
            const passes::CompileRecord& got = folder.session->compiles[c];
            QCOMPARE(got.graphName, want.graphName);
            QCOMPARE(got.snapshots.size(), want.snapshots.size());
            files += static_cast<int>(got.snapshots.size());
            bool sawChild = false;
            for (std::size_t i = 0; i < want.snapshots.size(); ++i) {
                const passes::PassSnapshot& w = want.snapshots[i];
                const passes::PassSnapshot& g = got.snapshots[i];
                const QByteArray where = QByteArray::number(static_cast<int>(c)) + ":" + QByteArray::fromStdString(w.pass);
                QVERIFY2(g.pass == w.pass, where.constData());
                QCOMPARE(g.depth, w.depth);
                QCOMPARE(g.round, w.round);
                QCOMPARE(g.counts().nodes, w.counts().nodes);
                QCOMPARE(g.counts().cnodes, w.counts().cnodes);
                QCOMPARE(g.counts().graphs, w.counts().graphs);
                QVERIFY2(g.changed() == w.changed(), where.constData());
                QVERIFY(g.error.empty());
                QVERIFY(!g.sourceFile.empty());
                QVERIFY2(g.description == w.description, (where + " " + QByteArray::fromStdString(g.description)).constData());
                sawChild = sawChild || g.depth > 0;
            }
            QVERIFY(sawChild);  // opt_a's sub-passes are in the sequence
            QCOMPARE(session::passDisplayOrder(got), session::passDisplayOrder(want));
        }
        QCOMPARE(files, folder.files);
    }

    // MindSpore-style names, backend files, a second pipeline run and a broken file: the
    // broken one is a row with a located error and the rest load.
    void handMadeFolderWithABrokenFile() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string level0 = readAll(example("load_elim_level0.ir"));
        const std::string level3 = readAll(example("load_elim_level3.ir"));
        const std::string ms23 = readAll(example("if_branch_ms23_dump.ir"));
        QVERIFY(!level0.empty() && !level3.empty() && !ms23.empty());
        const std::string broken = "# IR entry: @g\n# Total subgraphs: 1\nsubgraph @g( {\n";
        QVERIFY(writeText(dir.filePath("00_parse_0000.ir"), level3));
        QVERIFY(writeText(dir.filePath("01_symbol_resolve_0001.ir"), level3));
        QVERIFY(writeText(dir.filePath("02_type_inference_0002.ir"), broken));
        QVERIFY(writeText(dir.filePath("opt_substep_opt_a_r0_0_cse_0003.ir"), level0));
        QVERIFY(writeText(dir.filePath("03_opt_a_0004.ir"), level0));
        QVERIFY(writeText(dir.filePath("hwopt_d_ir_fusion_before_graph_0.ir"), level0));
        QVERIFY(writeText(dir.filePath("graph_build_0_10.ir"), ms23));
        QVERIFY(writeText(dir.filePath("graph_build_0_9.ir"), ms23));
        // A second compile: its stages start again.
        QVERIFY(writeText(dir.filePath("00_parse_0005.ir"), ms23));
        QVERIFY(writeText(dir.filePath("01_symbol_resolve_0006.ir"), ms23));
        QVERIFY(writeText(dir.filePath("notes.txt"), "not a dump"));

        const session::DumpFolder folder = session::loadDumpFolder(dir.path().toStdString());
        QVERIFY(folder.session != nullptr);
        QCOMPARE(folder.files, 10);
        QCOMPARE(folder.failed, 1);
        QVERIFY2(folder.error.find("02_type_inference_0002.ir:3:") != std::string::npos, folder.error.c_str());
        QCOMPARE(folder.session->compiles.size(), std::size_t{2});

        const passes::CompileRecord& first = folder.session->compiles[0];
        QCOMPARE(first.graphName, std::string("BackwardNet_construct"));
        std::vector<std::string> passes;
        for (const passes::PassSnapshot& s : first.snapshots) {
            passes.push_back(s.pass);
        }
        const std::vector<std::string> want = {"parse", "symbol_resolve", "type_inference", "opt_a/cse", "opt_a"};
        QCOMPARE(passes, want);
        QCOMPARE(first.status, passes::CompileStatus::Error);
        QCOMPARE(first.failedPass, std::string("type_inference"));
        const passes::PassSnapshot& bad = first.snapshots[2];
        QVERIFY2(bad.error.find("02_type_inference_0002.ir:3:") != std::string::npos, bad.error.c_str());
        QCOMPARE(bad.counts().nodes, first.snapshots[1].counts().nodes);  // unknown: as before it
        QVERIFY(first.snapshots[0].changed());                          // from the empty module
        QVERIFY(!first.snapshots[1].changed());                         // same text as parse
        QVERIFY(first.snapshots[3].changed());                          // level0 after level3: TensorMoves
        QVERIFY(first.snapshots[3].counts().nodes > first.snapshots[1].counts().nodes);
        QVERIFY(first.snapshots[4].changed());  // opt_a: against the IR before its first child (level3)
        QCOMPARE(first.snapshots[3].depth, 1);
        QVERIFY(first.snapshots[3].description.find("common") != std::string::npos ||
                !first.snapshots[3].description.empty());
        // Display order puts opt_a before its sub-pass.
        const std::vector<std::size_t> order = session::passDisplayOrder(first);
        QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 4, 3}));

        const passes::CompileRecord& second = folder.session->compiles[1];
        passes.clear();
        for (const passes::PassSnapshot& s : second.snapshots) {
            passes.push_back(s.pass);
        }
        // Serial files first, then the backend's in natural order (graph_build_0_9 before _10).
        const std::vector<std::string> want2 = {"parse", "symbol_resolve", "graph_build", "graph_build",
                                                "hwopt_d_ir_fusion_before_graph"};
        QCOMPARE(passes, want2);
        QVERIFY(second.snapshots[2].sourceFile.find("graph_build_0_9.ir") != std::string::npos);
        QVERIFY(second.snapshots[3].sourceFile.find("graph_build_0_10.ir") != std::string::npos);
        QCOMPARE(second.status, passes::CompileStatus::Ok);
        QVERIFY(second.snapshots[4].changed());  // a different module after the ms23 dumps
        QVERIFY(second.snapshots[4].description.find("hwopt_d_ir_fusion_before_graph_0.ir") != std::string::npos);
    }

    void emptyAndMissingFolders() {
        QTemporaryDir dir;
        const session::DumpFolder empty = session::loadDumpFolder(dir.path().toStdString());
        QVERIFY(empty.session != nullptr);
        QVERIFY(empty.session->compiles.empty());
        QVERIFY(empty.error.find("no .ir file") != std::string::npos);
        const session::DumpFolder missing = session::loadDumpFolder(dir.filePath("nope").toStdString());
        QVERIFY(missing.session == nullptr);
        QVERIFY(missing.error.find("not a folder") != std::string::npos);
    }

    void cancelStopsEarly() {
        QTemporaryDir dir;
        const std::string level0 = readAll(example("load_elim_level0.ir"));
        for (int i = 0; i < 5; ++i) {
            QVERIFY(writeText(dir.filePath(QStringLiteral("%1_p%1_%2.ir").arg(i, 2, 10, QLatin1Char('0')).arg(i, 4, 10, QLatin1Char('0'))), level0));
        }
        // A stop requested (here by the progress callback, as a UI's Cancel would) while the
        // second file is read: the read ends after it.
        std::stop_source stop;
        const session::DumpFolder folder = session::loadDumpFolder(
            dir.path().toStdString(),
            [&stop](int done, int) {
                if (done == 2) {
                    stop.request_stop();
                }
            },
            stop.get_token());
        QVERIFY(folder.cancelled);
        QCOMPARE(folder.session->compiles.size(), std::size_t{1});
        QCOMPARE(folder.session->compiles[0].snapshots.size(), std::size_t{2});
    }

    // CSV: a header naming the columns, one row per pass (sub-passes included) / compile.
    void statisticsCsv() {
        QTemporaryDir dir;
        const auto s = runWithDumps(example("if_vs_select.py"), dir.path(), 0);
        QVERIFY(s != nullptr);
        QCOMPARE(s->compiles.size(), std::size_t{2});
        const passes::CompileRecord& c = s->compiles[0];
        const QStringList rows = csvLines(session::passStatsCsv(c));
        QCOMPARE(rows.first(), QStringLiteral("index,pass,depth,round,wall_ms,graphs,nodes,cnodes,delta_nodes,"
                                              "changed,peak_bytes,error"));
        QCOMPARE(rows.size() - 1, static_cast<int>(c.snapshots.size()));
        const std::vector<std::size_t> order = session::passDisplayOrder(c);
        bool sawChild = false;
        for (int r = 1; r < rows.size(); ++r) {
            const QStringList f = rows[r].split(QLatin1Char(','));
            QCOMPARE(f.size(), 12);
            const passes::PassSnapshot& snap = c.snapshots[order[static_cast<std::size_t>(r - 1)]];
            QCOMPARE(f[0].toInt(), r - 1);
            QCOMPARE(f[1], QString::fromStdString(snap.pass));
            QCOMPARE(f[6].toULongLong(), static_cast<qulonglong>(snap.counts().nodes));
            bool ok = false;
            QCOMPARE(f[4].toDouble(&ok), QString::number(snap.millis, 'f', 3).toDouble());
            QVERIFY(ok);
            QCOMPARE(f[9], snap.changed() ? QStringLiteral("1") : QStringLiteral("0"));
            sawChild = sawChild || f[1].startsWith(QStringLiteral("opt_a/"));
        }
        QVERIFY(sawChild);
        QVERIFY(rows[1].split(QLatin1Char(','))[8].isEmpty());  // no delta for the first pass

        const QStringList totals = csvLines(session::compileTotalsCsv(*s));
        QCOMPARE(totals.size(), 3);
        QVERIFY(totals[0].startsWith(QStringLiteral("index,graph,signature,status,")));
        QCOMPARE(totals[0].count(QLatin1Char(',')), 12);
        // The signature "(Tensor[Int64](1), Tensor[Int64](1))" holds a comma: quoted.
        QVERIFY(totals[1].contains(QStringLiteral(",\"(")));
        QVERIFY(totals[1].contains(QStringLiteral(",ok,")));
        QCOMPARE(QString::fromStdString(session::csvField("a\"b")), QStringLiteral("\"a\"\"b\""));
    }
};

QTEST_GUILESS_MAIN(TestDumpFolder)
#include "test_dump_folder.moc"
