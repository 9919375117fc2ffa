// Session files (core/store/session_file): real example scripts run through ScriptRunner,
// saved and loaded back identical (snapshot bytes and text, their sharing, statistics, runs,
// output); replacing a session; refusing to overwrite other files; a damaged IR blob named
// by compile and pass; broken references; random bytes over pages and truncation rejected
// with the file untouched; and a save killed with SIGKILL midway (this binary re-run as the
// child) leaving the previous session whole.
#include <QtTest>

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "irscope_version.h"
#include "passes/settings.h"
#include "session/pass_stats.h"
#include "session/stats_csv.h"
#include "session/run_script.h"
#include "store/session_file.h"

namespace session = irscope::session;
namespace passes = irscope::passes;
namespace store = irscope::store;
using store::DbError;

namespace {

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string example(const std::string& name) {
    return std::string(IRSCOPE_SOURCE_DIR "/resources/examples/") + name;
}

// Runs a bundled example as `irscope-cli run` does (MS_DEV_CELL_REUSE=cellReuse when >= 0).
std::shared_ptr<store::Session> runExample(const std::string& name, int cellReuse = -1) {
    const std::string path = example(name);
    session::ScriptOptions options;
    options.compiler.readEnvironment = false;
    if (cellReuse >= 0) {
        options.compiler.overrides.set(std::string(irscope::passes::kCellReuse), cellReuse);
    }
    session::ScriptRunner runner;
    session::ScriptOutcome r = runner.run(readBytes(path), path, std::move(options));
    return r.session;
}

// Every field of two sessions equal; snapshot texts byte-identical and shared alike. For two
// runs of one script (sameRun false), times are not compared.
void expectSameSession(const store::Session& a, const store::Session& b, bool sameRun = true) {
    QCOMPARE(b.scriptPath, a.scriptPath);
    QVERIFY(b.scriptText == a.scriptText);
    QVERIFY(b.settings == a.settings);
    QVERIFY(b.output == a.output);
    QCOMPARE(b.compiles.size(), a.compiles.size());
    for (std::size_t c = 0; c < a.compiles.size(); ++c) {
        const passes::CompileRecord& x = a.compiles[c];
        const passes::CompileRecord& y = b.compiles[c];
        QCOMPARE(y.graphName, x.graphName);
        QCOMPARE(y.signature, x.signature);
        QCOMPARE(y.trigger, x.trigger);
        QVERIFY(y.settings == x.settings);
        QVERIFY(y.status == x.status);
        QCOMPARE(y.failedPass, x.failedPass);
        QCOMPARE(y.error, x.error);
        QCOMPARE(y.fromCache, x.fromCache);
        if (sameRun) {
            QCOMPARE(y.totalMillis, x.totalMillis);
            QCOMPARE(y.cacheLoadMillis, x.cacheLoadMillis);
        }
        QVERIFY(y.warnings == x.warnings);
        QCOMPARE(y.snapshots.size(), x.snapshots.size());
        std::map<const void*, const void*> sharing;  // a's text object -> b's
        for (std::size_t i = 0; i < x.snapshots.size(); ++i) {
            const passes::PassSnapshot& p = x.snapshots[i];
            const passes::PassSnapshot& q = y.snapshots[i];
            QCOMPARE(q.pass, p.pass);
            QCOMPARE(q.description, p.description);
            QCOMPARE(q.depth, p.depth);
            QCOMPARE(q.round, p.round);
            if (sameRun) {
                QCOMPARE(q.millis, p.millis);
            }
            QCOMPARE(q.counts().graphs, p.counts().graphs);
            QCOMPARE(q.counts().nodes, p.counts().nodes);
            QCOMPARE(q.counts().cnodes, p.counts().cnodes);
            QCOMPARE(q.changed(), p.changed());
            QCOMPARE(q.reportedChange, p.reportedChange);
            QVERIFY(q.peakBytes == p.peakBytes);
            QCOMPARE(q.error, p.error);
            QCOMPARE(q.compressed() == nullptr, p.compressed() == nullptr);
            if (p.compressed()) {
                QVERIFY(q.compressed()->bytes() == p.compressed()->bytes());  // not recompressed
                QVERIFY(q.text() == p.text());
                QCOMPARE(q.compressed()->hash(), p.compressed()->hash());
                auto [it, fresh] = sharing.try_emplace(p.compressed().get(), q.compressed().get());
                QVERIFY2(it->second == q.compressed().get(), "sharing of texts changed");
            }
        }
        QCOMPARE(sharing.size(), [&] {
            std::set<const void*> distinct;
            for (const auto& q : y.snapshots) {
                if (q.compressed()) {
                    distinct.insert(q.compressed().get());
                }
            }
            return distinct.size();
        }());
    }
    QCOMPARE(b.runs.size(), a.runs.size());
    for (std::size_t r = 0; r < a.runs.size(); ++r) {
        const store::RunRecord& x = a.runs[r];
        const store::RunRecord& y = b.runs[r];
        QCOMPARE(y.graphName, x.graphName);
        QCOMPARE(y.compile, x.compile);
        QCOMPARE(y.outputs, x.outputs);
        QCOMPARE(y.values, x.values);
        QCOMPARE(y.error, x.error);
        const irscope::runtime::RunStats& s = x.stats;
        const irscope::runtime::RunStats& t = y.stats;
        QCOMPARE(t.device, s.device);
        if (sameRun) {
            QCOMPARE(t.millis, s.millis);
        }
        QCOMPARE(t.kernels, s.kernels);
        QCOMPARE(t.kernelsOnDevice, s.kernelsOnDevice);
        QCOMPARE(t.fallbacks, s.fallbacks);
        QCOMPARE(t.copiesToDevice, s.copiesToDevice);
        QCOMPARE(t.copiesToHost, s.copiesToHost);
        QCOMPARE(t.bytesCopied, s.bytesCopied);
        QCOMPARE(t.peakBytes, s.peakBytes);
        QCOMPARE(t.plannedPeakBytes, s.plannedPeakBytes);
        QVERIFY(t.messages == s.messages);
        QVERIFY(t.opsOnDevice == s.opsOnDevice);
        QVERIFY(t.opsOnCpu == s.opsOnCpu);
    }
}

// Runs SQL on a session file directly, as a tool outside irscope could.
void rawSql(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* msg = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
    QVERIFY2(rc == SQLITE_OK, msg);
    sqlite3_close(db);
}

void expectLoadFails(const std::string& path, DbError::Kind kind, const QString& reason) {
    const std::string before = readBytes(path);
    try {
        store::loadSession(path);
        QFAIL("a damaged session loaded");
    } catch (const DbError& e) {
        QVERIFY2(e.kind() == kind, e.what());
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
    }
    QVERIFY(readBytes(path) == before);
}

// The child of killDuringSave: saves the first session, says "saved", then saves the second
// one and stops halfway (says "writing" and waits to be killed).
int childSaver(const std::string& path) {
    try {
        store::saveSession(path, *runExample("load_elim_fwd_bwd.py"));
        std::cout << "saved" << std::endl;
        const auto big = runExample("lazy_inline_gpt.py", 1);
        store::SaveOptions options;
        options.progress = [](std::size_t done, std::size_t total) {
            if (done * 2 >= total) {
                std::cout << "writing" << std::endl;
                for (;;) {
                    std::this_thread::sleep_for(std::chrono::seconds(1));
                }
            }
        };
        store::saveSession(path, *big, options);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}

}  // namespace

class TestSessionFile : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string file(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

private slots:
    void roundTrip_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("cellReuse");
        QTest::newRow("gpt lazy inline") << "lazy_inline_gpt.py" << 1;
        QTest::newRow("load elim grad") << "load_elim_fwd_bwd.py" << -1;
        QTest::newRow("compile error") << "jit_class_no_call.py" << -1;
        QTest::newRow("many compiles") << "compile_cache_cell.py" << -1;
    }

    void roundTrip() {
        QFETCH(QString, script);
        QFETCH(int, cellReuse);
        const auto original = runExample(script.toStdString(), cellReuse);
        QVERIFY(!original->compiles.empty());
        const std::string path = file("round.irscope");
        store::SaveOptions options;
        options.runStatus = "ok";
        std::size_t calls = 0;
        options.progress = [&](std::size_t done, std::size_t total) {
            ++calls;
            QCOMPARE(done, calls);
            QCOMPARE(total, original->compiles.size() + original->runs.size());
        };
        store::saveSession(path, *original, options);
        QCOMPARE(calls, original->compiles.size() + original->runs.size());
        QVERIFY(store::looksLikeSessionFile(path));
        QVERIFY(!std::filesystem::exists(path + "-wal"));

        const store::LoadedSession loaded = store::loadSession(path);
        expectSameSession(*original, *loaded.session);
        QCOMPARE(loaded.info.irscopeVersion, std::string(IRSCOPE_VERSION));
        QCOMPARE(loaded.info.runStatus, std::string("ok"));
        QCOMPARE(loaded.info.schemaVersion, store::sessionSchema().version());
        QVERIFY2(QRegularExpression("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                     .match(QString::fromStdString(loaded.info.savedAt))
                     .hasMatch(),
                 loaded.info.savedAt.c_str());
        // Views parse the loaded IR as they parse a live one.
        const passes::PassSnapshot& last = loaded.session->compiles.front().snapshots.back();
        if (last.compressed()) {
            QVERIFY(last.module() != nullptr);
        }
        // Loading never changes the file.
        const std::string bytes = readBytes(path);
        store::loadSession(path);
        QVERIFY(readBytes(path) == bytes);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
    }

    // A schema-1 file (before compiles recorded the compile cache) opens: read-only in a
    // migrated in-memory copy that leaves the file as it was, and a save over it migrates it.
    void schema1FileIsMigrated() {
        const auto s = runExample("load_elim_fwd_bwd.py");
        const std::string path = file("schema1.irscope");
        store::saveSession(path, *s);
        rawSql(path,
               "ALTER TABLE compile DROP COLUMN from_cache; "
               "ALTER TABLE compile DROP COLUMN cache_load_ms; "
               "ALTER TABLE run DROP COLUMN output_values; PRAGMA user_version = 1;");
        const std::string before = readBytes(path);
        const store::LoadedSession loaded = store::loadSession(path);
        store::Session expected = *s;  // schema 1 kept no output values
        for (store::RunRecord& r : expected.runs) {
            QVERIFY(!r.values.empty());
            r.values.clear();
        }
        expectSameSession(expected, *loaded.session);
        QVERIFY(readBytes(path) == before);
        store::saveSession(path, *s);
        QCOMPARE(store::loadSession(path).info.schemaVersion, 2);
    }

    void replacingASession() {
        const std::string path = file("replace.irscope");
        const auto big = runExample("lazy_inline_gpt.py", 1);
        const auto small = runExample("jit_class_attr.py");
        store::saveSession(path, *big);
        const auto bigSize = std::filesystem::file_size(path);
        store::saveSession(path, *small);
        expectSameSession(*small, *store::loadSession(path).session);
        // The pages of the larger session are given back.
        QVERIFY2(std::filesystem::file_size(path) < bigSize / 2,
                 qPrintable(QString::number(std::filesystem::file_size(path))));
    }

    // A snapshot the printer could not print keeps why: in its failure(), in the statistics
    // and through a save and load, also after something replaced its text.
    void printFailureIsKeptAndSaved() {
        struct FailedPrint : passes::PendingSnapshotText {
            Outcome outcome{true, nullptr, "out of memory while printing"};
            const Outcome& wait() const override { return outcome; }
        };
        auto s = runExample("jit_class_attr.py");
        QVERIFY(!s->compiles.empty() && s->compiles[0].snapshots.size() > 2);
        passes::CompileRecord& rec = s->compiles[0];
        const std::string expected = "the IR could not be printed: out of memory while printing";
        rec.snapshots[1].setPending(std::make_shared<FailedPrint>());
        QCOMPARE(rec.snapshots[1].failure(), expected);
        QVERIFY(rec.snapshots[1].error.empty());  // the pass itself did not fail
        QVERIFY(!rec.snapshots[1].compressed());
        QVERIFY(session::formatPassStats(rec, 0).find("error") != std::string::npos);
        QVERIFY(session::passStatsCsv(rec).find(expected) != std::string::npos);
        // setChanged() settles the job: the reason moves into the snapshot itself.
        rec.snapshots[2].setPending(std::make_shared<FailedPrint>());
        rec.snapshots[2].setChanged(true);
        QCOMPARE(rec.snapshots[2].error, expected);
        QCOMPARE(rec.snapshots[2].failure(), expected);

        const std::string path = file("unprinted.irscope");
        store::saveSession(path, *s);
        const auto loaded = store::loadSession(path).session;
        QCOMPARE(loaded->compiles[0].snapshots[1].failure(), expected);
        QCOMPARE(loaded->compiles[0].snapshots[2].failure(), expected);
        QCOMPARE(loaded->compiles[0].snapshots[0].failure(), std::string());
    }

    void otherFilesAreNotOverwritten() {
        const auto s = runExample("jit_class_attr.py");
        const std::string png = file("picture.irscope");
        writeBytes(png, std::string("\x89PNG\r\n\x1a\n", 8) + std::string(300, 'p'));
        const std::string pngBytes = readBytes(png);
        try {
            store::saveSession(png, *s);
            QFAIL("overwrote a PNG");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::Foreign);
            QCOMPARE(e.reason(),
                     std::string("not an irscope session file (not an SQLite database)"));
        }
        QVERIFY(readBytes(png) == pngBytes);

        const std::string plain = file("plain.irscope");
        rawSql(plain, "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
        const std::string plainBytes = readBytes(plain);
        QVERIFY_THROWS_EXCEPTION(DbError, store::saveSession(plain, *s));
        QVERIFY(readBytes(plain) == plainBytes);
        expectLoadFails(plain, DbError::Kind::Foreign,
                        "not an irscope session file (an SQLite database of another program)");

        const std::string newer = file("newer.irscope");
        store::saveSession(newer, *s);
        rawSql(newer, "PRAGMA user_version = 7");
        const std::string newerBytes = readBytes(newer);
        QVERIFY_THROWS_EXCEPTION(DbError, store::saveSession(newer, *s));
        QVERIFY(readBytes(newer) == newerBytes);
        expectLoadFails(newer, DbError::Kind::NewerSchema,
                        QString("written by a newer irscope (schema 7 > %1)")
                            .arg(store::sessionSchema().version()));
    }

    void damagedTextIsNamed() {
        const auto s = runExample("load_elim_fwd_bwd.py");
        const std::string path = file("blob.irscope");
        store::saveSession(path, *s);
        const std::string first = s->compiles[0].snapshots[0].pass;
        const QString where = QString("compile 1 (%1), pass %2")
                                  .arg(QString::fromStdString(s->compiles[0].graphName),
                                       QString::fromStdString(first));
        // Bytes that are no zstd frame.
        rawSql(path, "UPDATE ir_text SET zstd = randomblob(length(zstd)) WHERE id = 1");
        expectLoadFails(path, DbError::Kind::Corrupt, where + ": corrupt compressed text");
        // A frame of another size.
        store::saveSession(path, *s);
        rawSql(path, "UPDATE ir_text SET raw_size = raw_size + 1 WHERE id = 1");
        expectLoadFails(path, DbError::Kind::Corrupt, where + ": corrupt compressed text");
        // Text that decompresses but is not what was saved.
        store::saveSession(path, *s);
        rawSql(path, "UPDATE ir_text SET crc32 = (crc32 + 1) % 4294967296 WHERE id = 1");
        expectLoadFails(path, DbError::Kind::Corrupt,
                        where + ": the IR text does not match its checksum");
        // A snapshot pointing at no text.
        store::saveSession(path, *s);
        rawSql(path, "DELETE FROM ir_text WHERE id = 1");
        expectLoadFails(path, DbError::Kind::Invalid, where + ": its IR text is missing");
    }

    void brokenReferencesAreInvalid() {
        const auto s = runExample("load_elim_fwd_bwd.py");
        QVERIFY(!s->runs.empty());
        const std::string path = file("refs.irscope");
        store::saveSession(path, *s);
        rawSql(path, "UPDATE run SET compile = 99 WHERE seq = 0");
        expectLoadFails(
            path, DbError::Kind::Invalid,
            "invalid session file: run 1 refers to compile 100, which is not in the file");
        store::saveSession(path, *s);
        rawSql(path, "UPDATE compile SET status = 'maybe' WHERE seq = 0");
        expectLoadFails(path, DbError::Kind::Invalid, "compile 1 has the unknown status 'maybe'");
        store::saveSession(path, *s);
        rawSql(path, "UPDATE snapshot SET nodes = -3 WHERE seq = 0");
        expectLoadFails(path, DbError::Kind::Invalid, "unexpected negative value -3");
        store::saveSession(path, *s);
        rawSql(path, "DELETE FROM meta");
        expectLoadFails(path, DbError::Kind::Invalid, "invalid session file: it has no script");
    }

    void randomBytesAndTruncation() {
        const auto s = runExample("lazy_inline_gpt.py", 1);
        const std::string path = file("pages.irscope");
        store::saveSession(path, *s);
        const std::string whole = readBytes(path);
        const std::size_t page = 4096;
        QVERIFY(whole.size() > 8 * page);
        // Random bytes over the start of every page in turn (the header page aside): each
        // file is refused with a clear error, or loads the very session saved (the bytes hit
        // unused space); none crashes, none loads something else.
        std::mt19937 rng(11);
        int refused = 0;
        for (std::size_t p = 1; p < whole.size() / page; ++p) {
            std::string bad = whole;
            for (std::size_t i = p * page; i < p * page + 1024; ++i) {
                bad[i] = static_cast<char>(rng() & 0xffU);
            }
            writeBytes(path, bad);
            try {
                expectSameSession(*s, *store::loadSession(path).session);
            } catch (const DbError& e) {
                ++refused;
                QVERIFY2(e.kind() == DbError::Kind::Corrupt || e.kind() == DbError::Kind::Invalid,
                         e.what());
            }
            QVERIFY(readBytes(path) == bad);
        }
        qInfo("random bytes over %zu pages: %d refused", whole.size() / page - 1, refused);
        QVERIFY(refused > 0);
        writeBytes(path, whole.substr(0, whole.size() - page));
        expectLoadFails(path, DbError::Kind::Truncated, "file is truncated");
    }

    void killDuringSave() {
        const std::string path = file("killed.irscope");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(),
                    {"--child-saver", QString::fromStdString(path)});
        QVERIFY(child.waitForStarted());
        QByteArray out;
        while (!out.contains("writing")) {
            QVERIFY2(child.waitForReadyRead(120000), child.readAllStandardError().constData());
            out += child.readAllStandardOutput();
        }
        QVERIFY(out.contains("saved"));
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QVERIFY(std::filesystem::exists(path + "-wal"));
        // The first session, whole; none of the second.
        expectSameSession(*runExample("load_elim_fwd_bwd.py"), *store::loadSession(path).session,
                          false);
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string_view(argv[1]) == "--child-saver") {
        return childSaver(argv[2]);
    }
    QCoreApplication app(argc, argv);
    TestSessionFile t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "test_session_file.moc"
