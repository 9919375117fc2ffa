// A small RAII layer over SQLite's C API for irscope's own files (sessions, statistics
// history, compile cache). Each file kind has a Schema: an SQLite application_id that marks
// the file as that kind, and an ordered list of migrations whose count is the schema version
// (kept in PRAGMA user_version). Opening checks a file before anything can change it:
//
//   - it exists (open never creates unless asked to), is not empty, starts with SQLite's
//     header and is as long as its header says (else "truncated");
//   - its application_id is the kind's ("not an irscope session file" otherwise);
//   - its schema is not newer than this build's ("written by a newer irscope (schema 7 > 3)");
//   - SQLite's quick_check passes ("file is corrupt (database disk image is malformed)").
//
// A file failing any check is never written: the checks run on a read-only connection (an
// immutable one, leaving no -wal or -shm file, when none is there), and only a file that
// passes them is reopened. An older schema is migrated in one transaction when opened
// read-write, and in memory (the file untouched) when opened read-only. Read-write connections use
// WAL with synchronous=NORMAL: a process killed in the middle of a transaction leaves the file with
// every transaction committed before it.
//
// Every failure is a DbError naming the file and the reason. Not thread-safe: one Database
// per thread (SQLite's own locking arbitrates between connections and processes).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace irscope::store {

class DbError : public std::runtime_error {
public:
    enum class Kind {
        NotFound,     // no such file (or a folder)
        Foreign,      // not a file of this kind (another app's SQLite file, a PNG, empty)
        NewerSchema,  // written by a newer irscope
        Corrupt,      // SQLite reports corruption, or the header is inconsistent
        Truncated,    // shorter than its header says
        Locked,       // another connection holds a lock past the busy timeout
        ReadOnly,     // a write was refused (read-only file, folder or connection)
        Io,           // the operating system failed a read or write (disk full, ...)
        Invalid,      // the content breaks the file's own rules (checked by the reader)
        Sql,          // anything else SQLite reports (a constraint, a bad statement)
    };

    DbError(Kind kind, std::string path, std::string reason);

    Kind kind() const { return kind_; }
    const std::string& path() const { return path_; }
    const std::string& reason() const { return reason_; }  // what() is "path: reason"

private:
    Kind kind_;
    std::string path_;
    std::string reason_;
};

class Database;

// One kind of file. `migrations[i]` brings a file from schema version i to i + 1 (the first
// one creates the tables of a new file), so the current version is migrations.size().
// Migrations run inside the open's transaction; they must not commit.
struct Schema {
    std::string kindName;        // "irscope session file": used in messages
    std::int32_t applicationId;  // PRAGMA application_id; choose a unique tag per kind
    std::vector<std::function<void(Database&)>> migrations;

    int version() const { return static_cast<int>(migrations.size()); }
};

enum class OpenMode {
    ReadOnly,         // the file must exist; its content is never changed
    ReadWrite,        // the file must exist; an older schema is migrated
    ReadWriteCreate,  // like ReadWrite; a missing or empty file gets the current schema
};

struct OpenOptions {
    int busyTimeoutMs = 5000;  // wait this long for another connection's lock
    bool quickCheck = true;    // PRAGMA quick_check on open (reads the whole file once)
};

// A blob to bind (a std::string or std::string_view binds as text).
struct Blob {
    std::string_view bytes;
};

// A prepared statement. bind() indices are 1-based as in SQLite; column() indices 0-based.
class Statement {
public:
    Statement(Statement&&) noexcept;
    Statement& operator=(Statement&&) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
    Statement& bind(int index, std::uint64_t value);  // must fit an int64
    Statement& bind(int index, double value);
    Statement& bind(int index, bool value) { return bind(index, std::int64_t{value ? 1 : 0}); }
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, Blob blob);
    Statement& bind(int index, std::nullopt_t);
    template <class T>
    Statement& bind(int index, const std::optional<T>& value) {
        return value ? bind(index, *value) : bind(index, std::nullopt);
    }
    // Binds values to ?1, ?2, ... in order.
    template <class... T>
    Statement& bindAll(const T&... values) {
        int i = 0;
        (bind(++i, values), ...);
        return *this;
    }

    // Advances to the next row: true if there is one, false when done.
    bool step();
    // Steps until done (for statements without rows), then resets for reuse.
    void run();
    // Back to before the first row; bindings are kept.
    void reset();

    int columnCount() const;
    bool isNull(int col) const;
    std::int64_t getInt(int col) const;
    std::uint64_t getUInt(int col) const;  // a negative value is an Invalid error
    double getDouble(int col) const;
    std::string getText(int col) const;
    std::string getBlob(int col) const;  // the bytes, as the project keeps them (std::string)
    std::optional<std::int64_t> getOptionalInt(int col) const;

    const std::string& sql() const { return sql_; }

private:
    friend class Database;
    Statement(const Database& db, sqlite3_stmt* stmt, std::string sql);
    void check(int rc) const;

    sqlite3* db_;
    sqlite3_stmt* stmt_;
    std::string sql_;
    std::string path_, kindName_;  // for errors (a Database may move; its statements stay)
};

// A transaction: BEGIN IMMEDIATE on construction (the write lock is taken at once, so two
// writers never deadlock), ROLLBACK on destruction unless commit() was called. Nesting is
// not supported.
class Transaction {
public:
    explicit Transaction(Database& db);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    void commit();

private:
    Database& db_;
    bool done_ = false;
};

class Database {
public:
    // Opens (or with ReadWriteCreate, creates) `path` as a file of `schema`'s kind, after the
    // checks described above. Throws DbError.
    static Database open(const std::string& path, const Schema& schema, OpenMode mode,
                         OpenOptions options = {});

    Database(Database&&) noexcept;
    Database& operator=(Database&&) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    Statement prepare(std::string_view sql) const;
    // Runs one or more statements without results (schema changes, PRAGMAs).
    void exec(std::string_view sql);

    std::int64_t lastInsertRowId() const;
    int changes() const;

    const std::string& path() const { return path_; }
    bool readOnly() const { return readOnly_; }
    // The schema version the file had when opened (before migrations).
    int fileSchemaVersion() const { return fileVersion_; }
    sqlite3* handle() const { return db_; }

    // The DbError for SQLite result code `rc` on this connection (message included).
    DbError error(int rc, std::string_view context = {}) const;

private:
    Database(sqlite3* db, std::string path, std::string kindName, bool readOnly);
    // Steps of open(); see db.cpp. createComplete() says whether this call made the file.
    static Database checkExisting(const std::string& path, const Schema& schema,
                                  const OpenOptions& options, bool create, int& version);
    static bool createComplete(const std::string& path, const Schema& schema,
                               const OpenOptions& options, bool replaceEmpty);
    void close() noexcept;
    friend class Statement;

    sqlite3* db_ = nullptr;
    std::string path_;
    std::string kindName_;
    bool readOnly_ = false;
    int fileVersion_ = 0;
};

// The DbError kind for an SQLite result code.
DbError::Kind errorKindOf(int sqliteResultCode);

// The DbError for SQLite result code `rc` on connection `db` (which may be null), for a file
// of kind `kindName` ("irscope session file"): "file is corrupt (database disk image is
// malformed)", "not an irscope session file (file is not a database)", ...
DbError sqliteError(sqlite3* db, int rc, const std::string& path, std::string_view kindName,
                    std::string_view context = {});

}  // namespace irscope::store
