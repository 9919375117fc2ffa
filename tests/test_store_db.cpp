// core/store/db: opening checks (missing, empty, foreign, newer, truncated, corrupt files are
// refused with a clear reason and left byte-identical), typed binds and columns, RAII
// transactions, migrations (on disk and in memory for read-only opens), locking, and a
// writer killed with SIGKILL in the middle of a transaction (this binary re-run as the child).
#include <QtTest>

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "store/db.h"

using irscope::store::Blob;
using irscope::store::Database;
using irscope::store::DbError;
using irscope::store::OpenMode;
using irscope::store::OpenOptions;
using irscope::store::Schema;
using irscope::store::Statement;
using irscope::store::Transaction;

namespace {

constexpr std::int32_t kTestAppId = 0x49525454;  // "IRTT"

Schema schemaV1() {
    return Schema{"irscope test file", kTestAppId, {[](Database& db) {
                      db.exec(
                          "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                          "data BLOB)");
                  }}};
}

Schema schemaV2() {
    Schema s = schemaV1();
    s.migrations.push_back([](Database& db) {
        db.exec("ALTER TABLE item ADD COLUMN weight INTEGER NOT NULL DEFAULT 7");
    });
    return s;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::int64_t count(const Database& db, const char* sql = "SELECT count(*) FROM item") {
    Statement s = db.prepare(sql);
    return s.step() ? s.getInt(0) : -1;
}

// A file with `rows` items, closed (its WAL checkpointed into the main file).
void makeFile(const std::string& path, int rows, const Schema& schema = schemaV1(),
              std::size_t blobSize = 100) {
    Database db = Database::open(path, schema, OpenMode::ReadWriteCreate);
    Transaction t(db);
    Statement ins = db.prepare("INSERT INTO item (name, data) VALUES (?1, ?2)");
    const std::string blob(blobSize, 'x');
    for (int i = 0; i < rows; ++i) {
        ins.bindAll(std::string("item ") + std::to_string(i), Blob{blob}).run();
    }
    t.commit();
}

// A plain SQLite database of some other program.
void makeForeignDb(const std::string& path) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('hi');",
                          nullptr, nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(db);
}

// Expects opening `path` in every mode to fail with `kind` and a reason containing `reason`,
// leaving the file byte-identical and creating no side files.
void expectRejected(const std::string& path, DbError::Kind kind, const QString& reason,
                    const Schema& schema = schemaV1()) {
    const std::string before = readBytes(path);
    for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite, OpenMode::ReadWriteCreate}) {
        try {
            Database::open(path, schema, mode);
            QFAIL(qPrintable(QString("opened %1 in mode %2").arg(path.c_str()).arg(int(mode))));
        } catch (const DbError& e) {
            QVERIFY2(e.kind() == kind, e.what());
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
            QCOMPARE(QString::fromStdString(e.path()), QString::fromStdString(path));
            QVERIFY(QString(e.what()).startsWith(QString::fromStdString(path) + ": "));
        }
        QVERIFY(readBytes(path) == before);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
        QVERIFY(!std::filesystem::exists(path + "-journal"));
    }
}

// The child of killDuringWrite: commits 50 rows, then writes rows with 64 KiB blobs in one
// transaction forever, saying "writing" after the first thousand.
int childWriter(const std::string& path) {
    try {
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWriteCreate);
        {
            Transaction t(db);
            Statement ins = db.prepare("INSERT INTO item (name) VALUES (?1)");
            for (int i = 0; i < 50; ++i) {
                ins.bindAll("committed").run();
            }
            t.commit();
        }
        Transaction t(db);
        Statement ins = db.prepare("INSERT INTO item (name, data) VALUES ('doomed', ?1)");
        const std::string blob(64 * 1024, 'z');
        for (long i = 0;; ++i) {
            ins.bindAll(Blob{blob}).run();
            if (i == 1000) {
                std::cout << "writing" << std::endl;
            }
        }
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}

}  // namespace

class TestStoreDb : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string file(const char* name) const { return (dir_.path() + "/" + name).toStdString(); }

private slots:
    void typedValuesRoundTrip() {
        const std::string path = file("values.db");
        {
            Database db = Database::open(path, schemaV1(), OpenMode::ReadWriteCreate);
            QVERIFY(!db.readOnly());
            QCOMPARE(db.fileSchemaVersion(), 0);
            db.exec("CREATE TABLE v (i INTEGER, u INTEGER, d REAL, t TEXT, b BLOB, n INTEGER)");
            const std::string blob("a\0b\xff\x01", 5);
            db.prepare("INSERT INTO v VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
                .bindAll(std::int64_t{-5}, std::uint64_t{1} << 62U, 2.5, std::string("h\xc3\xa9"),
                         Blob{blob}, std::optional<std::int64_t>())
                .run();
            db.prepare("INSERT INTO v (b) VALUES (?1)").bind(1, Blob{}).run();
            QCOMPARE(db.lastInsertRowId(), 2);
            QCOMPARE(db.changes(), 1);
            QVERIFY_THROWS_EXCEPTION(
                DbError,
                db.prepare("INSERT INTO v (i) VALUES (?1)").bind(1, std::uint64_t{1} << 63U));
        }
        Database db = Database::open(path, schemaV1(), OpenMode::ReadOnly);
        QVERIFY(db.readOnly());
        QCOMPARE(db.fileSchemaVersion(), 1);
        Statement s = db.prepare("SELECT i, u, d, t, b, n FROM v ORDER BY rowid");
        QVERIFY(s.step());
        QCOMPARE(s.getInt(0), -5);
        QCOMPARE(s.getUInt(1), std::uint64_t{1} << 62U);
        QCOMPARE(s.getDouble(2), 2.5);
        QCOMPARE(s.getText(3), std::string("h\xc3\xa9"));
        QCOMPARE(s.getBlob(4), std::string("a\0b\xff\x01", 5));
        QVERIFY(s.isNull(5));
        QCOMPARE(s.getOptionalInt(5), std::optional<std::int64_t>());
        QCOMPARE(s.getOptionalInt(0), std::optional<std::int64_t>(-5));
        QVERIFY_THROWS_EXCEPTION(DbError, s.getUInt(0));
        QVERIFY(s.step());
        QVERIFY(!s.isNull(4));  // an empty blob is not NULL
        QCOMPARE(s.getBlob(4), std::string());
        QVERIFY(!s.step());
        // A read-only connection refuses writes with a clear error.
        try {
            db.exec("DELETE FROM v");
            QFAIL("wrote through a read-only connection");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::ReadOnly);
        }
    }

    void sqlErrorsNameTheStatement() {
        const std::string path = file("sql.db");
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWriteCreate);
        try {
            db.prepare("SELEC 1");
            QFAIL("bad SQL prepared");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::Sql);
            QVERIFY2(QString(e.what()).contains("SELEC 1"), e.what());
        }
        db.prepare("INSERT INTO item (id, name) VALUES (1, 'a')").run();
        try {
            db.prepare("INSERT INTO item (id, name) VALUES (1, 'b')").run();
            QFAIL("duplicate key accepted");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::Sql);
            QVERIFY2(QString(e.what()).contains("UNIQUE"), e.what());
        }
    }

    void newFilesUseWal() {
        const std::string path = file("wal.db");
        makeFile(path, 3);
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWrite);
        Statement s = db.prepare("PRAGMA journal_mode");
        QVERIFY(s.step());
        QCOMPARE(s.getText(0), std::string("wal"));
        QCOMPARE(count(db, "PRAGMA application_id"), kTestAppId);
        QCOMPARE(count(db, "PRAGMA user_version"), 1);
        QCOMPARE(count(db), 3);
    }

    // Connections that create the same new file at once all open it, whole, and lose no
    // row: none may find it half made (tables without the file's identity).
    void concurrentCreatorsAllOpenTheFile() {
        constexpr int kRounds = 40;
        constexpr int kThreads = 6;
        for (int round = 0; round < kRounds; ++round) {
            const std::string name = "race-" + std::to_string(round) + ".db";
            const std::string path = file(name.c_str());
            std::vector<std::string> errors(kThreads);
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t) {
                threads.emplace_back([&, t] {
                    try {
                        Database db = Database::open(path, schemaV1(), OpenMode::ReadWriteCreate);
                        Transaction tx(db);
                        db.prepare("INSERT INTO item (name) VALUES (?)").bind(1, "row").run();
                        tx.commit();
                    } catch (const std::exception& e) {
                        errors[static_cast<std::size_t>(t)] = e.what();
                    }
                });
            }
            for (std::thread& t : threads) {
                t.join();
            }
            for (const std::string& e : errors) {
                QVERIFY2(e.empty(), e.c_str());
            }
            Database db = Database::open(path, schemaV1(), OpenMode::ReadOnly);
            QCOMPARE(count(db), kThreads);
            // No temporary file is left beside it.
            int files = 0;
            for (const auto& entry :
                 std::filesystem::directory_iterator(dir_.path().toStdString())) {
                files += entry.path().filename().string().starts_with(name + ".new") ? 1 : 0;
            }
            QCOMPARE(files, 0);
        }
    }

    void transactionRollsBackOnException() {
        const std::string path = file("tx.db");
        makeFile(path, 2);
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWrite);
        try {
            Transaction t(db);
            db.prepare("INSERT INTO item (name) VALUES ('lost')").run();
            QCOMPARE(count(db), 3);
            throw std::runtime_error("boom");
        } catch (const std::runtime_error&) {
        }
        QCOMPARE(count(db), 2);
        {
            Transaction t(db);
            db.prepare("INSERT INTO item (name) VALUES ('kept')").run();
            t.commit();
        }
        Database again = Database::open(path, schemaV1(), OpenMode::ReadOnly);
        QCOMPARE(count(again), 3);
    }

    void missingFilesAreNotCreated() {
        const std::string path = file("missing.db");
        for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
            try {
                Database::open(path, schemaV1(), mode);
                QFAIL("opened a missing file");
            } catch (const DbError& e) {
                QCOMPARE(e.kind(), DbError::Kind::NotFound);
                QCOMPARE(e.reason(), std::string("no such file"));
            }
            QVERIFY(!std::filesystem::exists(path));
        }
        try {
            Database::open(dir_.path().toStdString(), schemaV1(), OpenMode::ReadWriteCreate);
            QFAIL("opened a folder");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::NotFound);
            QVERIFY(e.reason().find("folder") != std::string::npos);
        }
    }

    void emptyFile() {
        const std::string path = file("empty.db");
        writeBytes(path, "");
        for (OpenMode mode : {OpenMode::ReadOnly, OpenMode::ReadWrite}) {
            try {
                Database::open(path, schemaV1(), mode);
                QFAIL("opened an empty file");
            } catch (const DbError& e) {
                QCOMPARE(e.kind(), DbError::Kind::Foreign);
                QCOMPARE(e.reason(), std::string("not an irscope test file (the file is empty)"));
            }
            QCOMPARE(std::filesystem::file_size(path), std::uintmax_t{0});
        }
        // An empty file holds nothing to lose: creating may use it.
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWriteCreate);
        QCOMPARE(count(db), 0);
    }

    void foreignFilesAreRejected() {
        const std::string png = file("picture.png");
        // A PNG signature and IHDR chunk (29 bytes; the length is the literal's, so nothing
        // past it is read).
        static constexpr char kPngHead[] =
            "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";
        writeBytes(png, std::string(kPngHead, sizeof kPngHead - 1) + std::string(200, '\0'));
        expectRejected(png, DbError::Kind::Foreign,
                       "not an irscope test file (not an SQLite database)");

        const std::string plain = file("plain.sqlite");
        makeForeignDb(plain);
        expectRejected(plain, DbError::Kind::Foreign,
                       "not an irscope test file (an SQLite database of another program)");

        const std::string other = file("other.db");
        Schema otherKind{"irscope other file", 0x49524f54, schemaV1().migrations};
        makeFile(other, 1, otherKind);
        expectRejected(other, DbError::Kind::Foreign, "application_id 0x49524f54");

        const std::string text = file("notes.txt");
        writeBytes(text, "just some words\n");
        expectRejected(text, DbError::Kind::Foreign, "not an SQLite database");
    }

    void newerSchemaIsRejected() {
        const std::string path = file("newer.db");
        makeFile(path, 4, schemaV2());
        expectRejected(path, DbError::Kind::NewerSchema,
                       "written by a newer irscope (schema 2 > 1)");
        try {
            Database::open(path, schemaV1(), OpenMode::ReadOnly);
        } catch (const DbError& e) {
            QCOMPARE(QString(e.what()),
                     QString::fromStdString(path) + ": written by a newer irscope (schema 2 > 1)");
        }
    }

    void truncatedFilesAreRejected() {
        const std::string path = file("truncated.db");
        makeFile(path, 200, schemaV1(), 2000);
        const std::string whole = readBytes(path);
        QVERIFY(whole.size() > 100 * 1024);
        writeBytes(path, whole.substr(0, whole.size() / 2));
        expectRejected(path, DbError::Kind::Truncated, "file is truncated");
        writeBytes(path, whole.substr(0, whole.size() / 2 + 100));
        expectRejected(path, DbError::Kind::Truncated, "file is truncated");
        writeBytes(path, whole.substr(0, 60));
        expectRejected(path, DbError::Kind::Truncated, "shorter than the 100-byte SQLite header");
    }

    void corruptFilesAreRejected() {
        const std::string path = file("corrupt.db");
        makeFile(path, 300, schemaV1(), 500);
        const std::string whole = readBytes(path);
        const std::size_t page = 4096;
        QVERIFY(whole.size() > 20 * page);
        // Random bytes over a few pages in the middle (the b-tree's interior and leaves).
        std::mt19937 rng(7);
        std::string bad = whole;
        for (std::size_t i = 2 * page; i < 6 * page; ++i) {
            bad[i] = static_cast<char>(rng() & 0xffU);
        }
        writeBytes(path, bad);
        expectRejected(path, DbError::Kind::Corrupt, "file is corrupt");
        // A header with an impossible page size.
        bad = whole;
        bad[16] = 0x03;
        bad[17] = 0x00;
        writeBytes(path, bad);
        expectRejected(path, DbError::Kind::Corrupt, "page size 768");
        // Without the open's check, reading the broken pages still fails cleanly.
        bad = whole;
        for (std::size_t i = 2 * page; i < 6 * page; ++i) {
            bad[i] = static_cast<char>(rng() & 0xffU);
        }
        writeBytes(path, bad);
        OpenOptions noCheck;
        noCheck.quickCheck = false;
        try {
            Database db = Database::open(path, schemaV1(), OpenMode::ReadOnly, noCheck);
            Statement s = db.prepare("SELECT name, data FROM item ORDER BY id");
            while (s.step()) {
            }
            Statement c = db.prepare("PRAGMA integrity_check");
            c.step();
            QVERIFY(c.getText(0) != "ok");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::Corrupt);
            QVERIFY2(e.reason().starts_with("file is corrupt"), e.what());
        }
        QVERIFY(readBytes(path) == bad);
    }

    void olderSchemaMigrates() {
        const std::string path = file("old.db");
        makeFile(path, 5);
        const std::string before = readBytes(path);
        {
            // Read-only: migrated in memory, the file untouched.
            Database db = Database::open(path, schemaV2(), OpenMode::ReadOnly);
            QCOMPARE(db.fileSchemaVersion(), 1);
            QVERIFY(db.readOnly());
            QCOMPARE(count(db, "SELECT sum(weight) FROM item"), 35);
            QCOMPARE(count(db, "PRAGMA user_version"), 2);
            QVERIFY_THROWS_EXCEPTION(DbError, db.exec("DELETE FROM item"));
        }
        QVERIFY(readBytes(path) == before);
        {
            // A migration that fails leaves the file at its version.
            Schema broken = schemaV2();
            broken.migrations.push_back([](Database& db) {
                db.exec("CREATE TABLE extra (x)");
                throw std::runtime_error("migration 3 failed");
            });
            QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                     Database::open(path, broken, OpenMode::ReadWrite));
            Database db = Database::open(path, schemaV1(), OpenMode::ReadOnly);
            QCOMPARE(count(db, "PRAGMA user_version"), 1);
            QCOMPARE(count(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'extra'"), 0);
        }
        {
            Database db = Database::open(path, schemaV2(), OpenMode::ReadWrite);
            QCOMPARE(db.fileSchemaVersion(), 1);
            QCOMPARE(count(db, "SELECT sum(weight) FROM item"), 35);
        }
        {
            Database db = Database::open(path, schemaV2(), OpenMode::ReadOnly);
            QCOMPARE(db.fileSchemaVersion(), 2);
            QCOMPARE(count(db, "PRAGMA user_version"), 2);
        }
        // Closing the last connection leaves no side files.
        QVERIFY(!std::filesystem::exists(path + "-wal"));
        QVERIFY(!std::filesystem::exists(path + "-shm"));
        expectRejected(path, DbError::Kind::NewerSchema, "(schema 2 > 1)");
    }

    void lockedFileTimesOut() {
        const std::string path = file("locked.db");
        makeFile(path, 1);
        Database a = Database::open(path, schemaV1(), OpenMode::ReadWrite);
        OpenOptions quick;
        quick.busyTimeoutMs = 50;
        Database b = Database::open(path, schemaV1(), OpenMode::ReadWrite, quick);
        Transaction t(a);
        try {
            Transaction t2(b);
            QFAIL("two write transactions at once");
        } catch (const DbError& e) {
            QCOMPARE(e.kind(), DbError::Kind::Locked);
            QVERIFY2(e.reason().starts_with("file is locked by another program"), e.what());
        }
        // Readers still see the last commit while a writer works (WAL).
        QCOMPARE(count(b), 1);
    }

    void killDuringWrite() {
        const std::string path = file("killed.db");
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(),
                    {"--child-writer", QString::fromStdString(path)});
        QVERIFY(child.waitForStarted());
        QByteArray out;
        while (!out.contains("writing")) {
            QVERIFY2(child.waitForReadyRead(60000), child.readAllStandardError().constData());
            out += child.readAllStandardOutput();
        }
        QVERIFY(child.state() == QProcess::Running);
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        // The uncommitted rows reached the log (a big transaction spills), not the database.
        QVERIFY(std::filesystem::file_size(path + "-wal") > 1024 * 1024);
        {
            Database db = Database::open(path, schemaV1(), OpenMode::ReadOnly);
            QCOMPARE(count(db), 50);
            QCOMPARE(count(db, "SELECT count(*) FROM item WHERE name = 'doomed'"), 0);
        }
        Database db = Database::open(path, schemaV1(), OpenMode::ReadWrite);
        QCOMPARE(count(db), 50);
        db.prepare("INSERT INTO item (name) VALUES ('after')").run();
        QCOMPARE(count(db), 51);
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string_view(argv[1]) == "--child-writer") {
        return childWriter(argv[2]);
    }
    QCoreApplication app(argc, argv);
    TestStoreDb t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "test_store_db.moc"
