#include "store/db.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <utility>

namespace irscope::store {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};
constexpr std::size_t kHeaderSize = 100;

std::uint32_t bigEndian(const unsigned char* p, int bytes) {
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i) {
        v = (v << 8U) | p[i];
    }
    return v;
}

std::string describeKind(std::string_view kindName) {
    return "not an " + std::string(kindName);
}

}  // namespace

DbError::DbError(Kind kind, std::string path, std::string reason)
    : std::runtime_error(path + ": " + reason),
      kind_(kind),
      path_(std::move(path)),
      reason_(std::move(reason)) {}

DbError::Kind errorKindOf(int rc) {
    switch (rc & 0xff) {
        case SQLITE_CORRUPT:
        case SQLITE_FORMAT:
            return DbError::Kind::Corrupt;
        case SQLITE_NOTADB:
            return DbError::Kind::Foreign;
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            return DbError::Kind::Locked;
        case SQLITE_READONLY:
        case SQLITE_PERM:
        case SQLITE_AUTH:
            return DbError::Kind::ReadOnly;
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_CANTOPEN:
        case SQLITE_NOLFS:
        case SQLITE_NOMEM:
            return DbError::Kind::Io;
        default:
            return DbError::Kind::Sql;
    }
}

DbError sqliteError(sqlite3* db, int rc, const std::string& path, std::string_view kindName,
                    std::string_view context) {
    const std::string msg = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    const DbError::Kind kind = errorKindOf(rc);
    std::string reason;
    switch (kind) {
        case DbError::Kind::Corrupt:
            reason = "file is corrupt (" + msg + ")";
            break;
        case DbError::Kind::Foreign:
            reason = describeKind(kindName) + " (" + msg + ")";
            break;
        case DbError::Kind::Locked:
            reason = "file is locked by another program (" + msg + ")";
            break;
        case DbError::Kind::ReadOnly:
            reason = "cannot write the file (" + msg + ")";
            break;
        case DbError::Kind::Io:
            reason = ((rc & 0xff) == SQLITE_FULL ? "disk is full ("
                                                 : "cannot read or write the file (") +
                     msg + ")";
            break;
        default:
            reason = "SQLite error: " + msg;
            if (!context.empty()) {
                reason += fmt::format(" (in `{}`)", context);
            }
            break;
    }
    return DbError(kind, path, std::move(reason));
}

// --- Statement -------------------------------------------------------------------------------

Statement::Statement(const Database& db, sqlite3_stmt* stmt, std::string sql)
    : db_(db.db_), stmt_(stmt), sql_(std::move(sql)), path_(db.path_), kindName_(db.kindName_) {}

Statement::Statement(Statement&& o) noexcept
    : db_(o.db_),
      stmt_(std::exchange(o.stmt_, nullptr)),
      sql_(std::move(o.sql_)),
      path_(std::move(o.path_)),
      kindName_(std::move(o.kindName_)) {}

Statement& Statement::operator=(Statement&& o) noexcept {
    if (this != &o) {
        sqlite3_finalize(stmt_);
        db_ = o.db_;
        stmt_ = std::exchange(o.stmt_, nullptr);
        sql_ = std::move(o.sql_);
        path_ = std::move(o.path_);
        kindName_ = std::move(o.kindName_);
    }
    return *this;
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

void Statement::check(int rc) const {
    if (rc != SQLITE_OK) {
        throw sqliteError(db_, rc, path_, kindName_, sql_);
    }
}

Statement& Statement::bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(stmt_, index, value));
    return *this;
}

Statement& Statement::bind(int index, std::uint64_t value) {
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        throw DbError(
            DbError::Kind::Sql, path_,
            fmt::format("value {} does not fit a 64-bit signed integer (in `{}`)", value, sql_));
    }
    return bind(index, static_cast<std::int64_t>(value));
}

Statement& Statement::bind(int index, double value) {
    check(sqlite3_bind_double(stmt_, index, value));
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    check(
        sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Statement& Statement::bind(int index, Blob blob) {
    // A null pointer would bind NULL: an empty blob is still a blob.
    static const char kEmpty = 0;
    const char* data = blob.bytes.empty() ? &kEmpty : blob.bytes.data();
    check(sqlite3_bind_blob64(stmt_, index, data, blob.bytes.size(), SQLITE_TRANSIENT));
    return *this;
}

Statement& Statement::bind(int index, std::nullopt_t) {
    check(sqlite3_bind_null(stmt_, index));
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc == SQLITE_DONE) {
        return false;
    }
    // The statement's error is reported by the connection; reset so it can be reused.
    DbError e = sqliteError(db_, rc, path_, kindName_, sql_);
    sqlite3_reset(stmt_);
    throw e;
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
}

int Statement::columnCount() const {
    return sqlite3_column_count(stmt_);
}

bool Statement::isNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

std::int64_t Statement::getInt(int col) const {
    return sqlite3_column_int64(stmt_, col);
}

std::uint64_t Statement::getUInt(int col) const {
    const std::int64_t v = getInt(col);
    if (v < 0) {
        throw DbError(DbError::Kind::Invalid, path_,
                      fmt::format("unexpected negative value {} in column {} of `{}`", v,
                                  sqlite3_column_name(stmt_, col), sql_));
    }
    return static_cast<std::uint64_t>(v);
}

double Statement::getDouble(int col) const {
    return sqlite3_column_double(stmt_, col);
}

std::string Statement::getText(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p), n);
}

std::string Statement::getBlob(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p == nullptr ? std::string() : std::string(static_cast<const char*>(p), n);
}

std::optional<std::int64_t> Statement::getOptionalInt(int col) const {
    if (isNull(col)) {
        return std::nullopt;
    }
    return getInt(col);
}

// --- Transaction -----------------------------------------------------------------------------

Transaction::Transaction(Database& db) : db_(db) {
    db_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_) {
        // Nothing useful can be done if the rollback fails: SQLite rolls back on close.
        sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

// --- Database --------------------------------------------------------------------------------

Database::Database(sqlite3* db, std::string path, std::string kindName, bool readOnly)
    : db_(db), path_(std::move(path)), kindName_(std::move(kindName)), readOnly_(readOnly) {}

Database::Database(Database&& o) noexcept
    : db_(std::exchange(o.db_, nullptr)),
      path_(std::move(o.path_)),
      kindName_(std::move(o.kindName_)),
      readOnly_(o.readOnly_),
      fileVersion_(o.fileVersion_) {}

Database& Database::operator=(Database&& o) noexcept {
    if (this != &o) {
        close();
        db_ = std::exchange(o.db_, nullptr);
        path_ = std::move(o.path_);
        kindName_ = std::move(o.kindName_);
        readOnly_ = o.readOnly_;
        fileVersion_ = o.fileVersion_;
    }
    return *this;
}

Database::~Database() {
    close();
}

void Database::close() noexcept {
    if (db_ != nullptr) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
    }
}

DbError Database::error(int rc, std::string_view context) const {
    return sqliteError(db_, rc, path_, kindName_, context);
}

Statement Database::prepare(std::string_view sql) const {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(stmt);
        throw error(rc, sql);
    }
    return Statement(*this, stmt, std::string(sql));
}

void Database::exec(std::string_view sql) {
    const std::string s(sql);
    const int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) {
        throw error(rc, sql);
    }
}

std::int64_t Database::lastInsertRowId() const {
    return sqlite3_last_insert_rowid(db_);
}

int Database::changes() const {
    return sqlite3_changes(db_);
}

// --- opening ---------------------------------------------------------------------------------

namespace {

struct Connection {
    sqlite3* db = nullptr;
    Connection() = default;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection() {
        if (db != nullptr) {
            sqlite3_close_v2(db);
        }
    }
    sqlite3* release() { return std::exchange(db, nullptr); }
};

// What the first 100 bytes and the size of the file say, before SQLite reads it.
enum class Preflight { Missing, Empty, Sqlite };

Preflight preflight(const std::string& path, const std::string& kindName) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) {
        return Preflight::Missing;
    }
    if (fs::is_directory(st)) {
        throw DbError(DbError::Kind::NotFound, path, "is a folder, not a file");
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        throw DbError(DbError::Kind::Io, path, "cannot read the file (" + ec.message() + ")");
    }
    std::error_code walEc;
    const std::uintmax_t walSize = fs::file_size(path + "-wal", walEc);
    const bool hasWal = !walEc && walSize > 0;
    if (size == 0) {
        if (hasWal) {
            return Preflight::Sqlite;  // everything may still be in the write-ahead log
        }
        return Preflight::Empty;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    std::array<unsigned char, kHeaderSize> h{};
    in.read(reinterpret_cast<char*>(h.data()), static_cast<std::streamsize>(h.size()));
    if (!in && !in.eof()) {
        throw DbError(
            DbError::Kind::Io, path,
            std::string("cannot read the file (") + std::strerror(errno != 0 ? errno : EIO) + ")");
    }
    const auto got = static_cast<std::size_t>(in.gcount());
    const std::string_view head(reinterpret_cast<const char*>(h.data()), got);
    if (got < kHeaderSize) {
        if (kSqliteMagic.starts_with(head) || head.starts_with(kSqliteMagic)) {
            throw DbError(DbError::Kind::Truncated, path,
                          fmt::format("file is truncated ({} bytes, shorter than the "
                                      "{}-byte SQLite header)",
                                      size, kHeaderSize));
        }
        throw DbError(DbError::Kind::Foreign, path,
                      describeKind(kindName) + " (not an SQLite database)");
    }
    if (!head.starts_with(kSqliteMagic)) {
        throw DbError(DbError::Kind::Foreign, path,
                      describeKind(kindName) + " (not an SQLite database)");
    }
    std::uint32_t pageSize = bigEndian(&h[16], 2);
    if (pageSize == 1) {
        pageSize = 65536;
    }
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0) {
        throw DbError(DbError::Kind::Corrupt, path,
                      fmt::format("file is corrupt (page size {} in the header)", pageSize));
    }
    // With a write-ahead log, the main file may legitimately lag behind its header (a
    // checkpoint cut short); SQLite's recovery completes it.
    if (!hasWal) {
        const std::uint32_t pages = bigEndian(&h[28], 4);
        const bool pagesValid = bigEndian(&h[92], 4) == bigEndian(&h[24], 4) && pages > 0;
        const std::uintmax_t expected = std::uintmax_t{pages} * pageSize;
        if ((pagesValid && size < expected) || size % pageSize != 0) {
            throw DbError(DbError::Kind::Truncated, path,
                          fmt::format("file is truncated ({} bytes; {} expected)", size,
                                      pagesValid ? expected : (size / pageSize + 1) * pageSize));
        }
    }
    return Preflight::Sqlite;
}

// A file: URI for `path` (percent-encoding what URIs reserve), with `query`.
std::string fileUri(const std::string& path, std::string_view query) {
    std::string uri = "file:";
    for (const char ch : fs::absolute(path).string()) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7f) {
            uri += fmt::format("%{:02X}", c);
        } else {
            uri += ch;
        }
    }
    return uri + "?" + std::string(query);
}

bool exists(const std::string& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

sqlite3* openConnection(const std::string& path, int flags, const std::string& kindName,
                        int busyTimeoutMs) {
    Connection c;
    const bool uri = (flags & SQLITE_OPEN_URI) != 0;
    const std::string name = uri ? fileUri(path, "immutable=1") : path;
    const int rc = sqlite3_open_v2(name.c_str(), &c.db, flags | SQLITE_OPEN_EXRESCODE, nullptr);
    if (rc != SQLITE_OK) {
        throw sqliteError(c.db, rc, path, kindName);
    }
    sqlite3_busy_timeout(c.db, busyTimeoutMs);
    sqlite3_extended_result_codes(c.db, 1);
    return c.release();
}

std::int64_t pragmaInt(Database& db, std::string_view pragma) {
    Statement s = db.prepare(pragma);
    return s.step() ? s.getInt(0) : 0;
}

// Checks the identity and the schema version of an open file. Returns the file's version,
// or -1 for an empty SQLite database (no tables, no identity).
int checkIdentity(Database& db, const Schema& schema) {
    const std::int64_t appId = pragmaInt(db, "PRAGMA application_id");
    const std::int64_t version = pragmaInt(db, "PRAGMA user_version");
    if (appId != schema.applicationId) {
        if (appId == 0 && version == 0 &&
            pragmaInt(db, "SELECT count(*) FROM sqlite_schema") == 0) {
            return -1;
        }
        throw DbError(DbError::Kind::Foreign, db.path(),
                      describeKind(schema.kindName) +
                          (appId == 0 ? std::string(" (an SQLite database of another program)")
                                      : fmt::format(" (an SQLite database with application_id "
                                                    "{:#010x})",
                                                    static_cast<std::uint32_t>(appId))));
    }
    if (version > schema.version()) {
        throw DbError(
            DbError::Kind::NewerSchema, db.path(),
            fmt::format("written by a newer irscope (schema {} > {})", version, schema.version()));
    }
    if (version < 0) {
        throw DbError(DbError::Kind::Corrupt, db.path(),
                      fmt::format("file is corrupt (schema version {})", version));
    }
    return static_cast<int>(version);
}

void quickCheck(Database& db) {
    Statement s = db.prepare("PRAGMA quick_check(1)");
    if (s.step()) {
        const std::string r = s.getText(0);
        if (r != "ok") {
            throw DbError(DbError::Kind::Corrupt, db.path(), "file is corrupt (" + r + ")");
        }
    }
}

// Writers append to a log beside the file while readers read the file (persistent: the
// mode is kept in the file's header).
void switchToWal(Database& db, const std::string& path) {
    Statement s = db.prepare("PRAGMA journal_mode = WAL");
    if (!s.step() || s.getText(0) != "wal") {
        throw DbError(DbError::Kind::Io, path, "cannot switch the file to WAL mode");
    }
}

// Brings `db` from `from` to the schema's version inside one transaction.
void migrate(Database& db, const Schema& schema, bool setIdentity) {
    Transaction t(db);
    // Another process may have migrated (or created) it since the check.
    int from = static_cast<int>(pragmaInt(db, "PRAGMA user_version"));
    if (from > schema.version()) {
        throw DbError(
            DbError::Kind::NewerSchema, db.path(),
            fmt::format("written by a newer irscope (schema {} > {})", from, schema.version()));
    }
    for (int v = from; v < schema.version(); ++v) {
        schema.migrations[static_cast<std::size_t>(v)](db);
    }
    if (setIdentity) {
        db.exec(fmt::format("PRAGMA application_id = {}", schema.applicationId));
    }
    db.exec(fmt::format("PRAGMA user_version = {}", schema.version()));
    t.commit();
}

}  // namespace

// The identity check of an existing file, on a read-only connection. A file closed cleanly
// (no log, no index beside it) is read as immutable, so that checking it leaves no -wal or
// -shm file behind. Another process may open and write it between that look and the read,
// and an immutable read takes no locks: a check that fails that way is repeated on an
// ordinary connection, which waits for the writer, so only a genuine failure is reported.
// (An ordinary read-only connection to a file in WAL mode leaves a -wal and -shm file
// behind, which must not happen to a file that is refused.)
Database Database::checkExisting(const std::string& path, const Schema& schema,
                                 const OpenOptions& options, bool create, int& version) {
    const auto check = [&](bool immutable) {
        Database ro(openConnection(path, SQLITE_OPEN_READONLY | (immutable ? SQLITE_OPEN_URI : 0),
                                   schema.kindName, options.busyTimeoutMs),
                    path, schema.kindName, true);
        const int v = checkIdentity(ro, schema);
        if (v < 0 && !create) {
            throw DbError(DbError::Kind::Foreign, path,
                          describeKind(schema.kindName) + " (an empty SQLite database)");
        }
        if (options.quickCheck) {
            quickCheck(ro);
        }
        version = v;
        return ro;
    };
    const auto busy = [&] { return exists(path + "-wal") || exists(path + "-shm"); };
    const auto stamp = [&] {
        std::error_code ec;
        return std::pair(fs::last_write_time(path, ec), fs::file_size(path, ec));
    };
    for (int attempt = 0;; ++attempt) {
        if (busy()) {
            return check(false);
        }
        const auto before = stamp();
        try {
            return check(true);
        } catch (const DbError&) {
            // Genuine unless a writer came (its log appeared) or went (the file changed).
            if (attempt == 2 || (!busy() && stamp() == before)) {
                throw;
            }
        }
    }
}

// A new file appears at `path` complete: its schema is written into a file of its own
// beside it, which is then linked into place only if nothing is there yet. Processes that
// create the same file at once never see one another's half-made file; the losers open
// the winner's. (Writing the schema in place, another process could find the file with
// tables but no identity yet, and refuse it as some other program's database.)
bool Database::createComplete(const std::string& path, const Schema& schema,
                              const OpenOptions& options, bool replaceEmpty) {
    std::random_device rd;
    const std::string tmp = fmt::format("{}.new-{}-{:08x}", path, ::getpid(), rd());
    struct Cleanup {
        const std::string& p;
        ~Cleanup() {
            std::error_code ec;
            for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
                fs::remove(p + suffix, ec);
            }
        }
    } cleanup{tmp};
    {
        Database db(openConnection(tmp, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, schema.kindName,
                                   options.busyTimeoutMs),
                    path, schema.kindName, false);
        // Only possible before the first table exists: lets writers give pages back.
        db.exec("PRAGMA auto_vacuum = INCREMENTAL");
        migrate(db, schema, true);
        switchToWal(db, path);
    }  // the last connection closes: the log is written back and removed
    const auto ioError = [&](int err) {
        return DbError(DbError::Kind::Io, path,
                       std::string("cannot create the file (") + std::strerror(err) + ")");
    };
    if (replaceEmpty) {
        // An empty file stands there: it is replaced only while it is still empty.
        std::error_code ec;
        if (fs::file_size(path, ec) != 0 || ec) {
            return false;
        }
        if (::rename(tmp.c_str(), path.c_str()) != 0) {
            throw ioError(errno);
        }
        return true;
    }
    if (::link(tmp.c_str(), path.c_str()) == 0) {
        return true;
    }
    if (errno == EEXIST) {
        return false;
    }
    // A file system without hard links.
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
        return true;
    }
    if (errno == EEXIST) {
        return false;
    }
    throw ioError(errno);
}

Database Database::open(const std::string& path, const Schema& schema, OpenMode mode,
                        OpenOptions options) {
    const Preflight pre = preflight(path, schema.kindName);
    const bool create = mode == OpenMode::ReadWriteCreate;
    if (pre == Preflight::Missing && !create) {
        throw DbError(DbError::Kind::NotFound, path, "no such file");
    }
    if (pre == Preflight::Empty && !create) {
        throw DbError(DbError::Kind::Foreign, path,
                      describeKind(schema.kindName) + " (the file is empty)");
    }

    bool created = false;
    if (pre != Preflight::Sqlite) {
        created = createComplete(path, schema, options, pre == Preflight::Empty);
        if (preflight(path, schema.kindName) != Preflight::Sqlite) {
            throw DbError(DbError::Kind::Io, path, "the new file vanished as it was created");
        }
    }

    bool fresh = false;
    int fileVersion = 0;
    {
        // Every check on a read-only connection: a file that fails one is never written.
        int v = 0;
        Database ro = checkExisting(path, schema, options, create, v);
        fresh = v < 0;
        fileVersion = std::max(v, 0);
        if (mode == OpenMode::ReadOnly) {
            if (fileVersion == schema.version()) {
                // A writable connection that refuses writes: the last connection to close
                // removes the -wal and -shm files, which a read-only one would leave behind.
                // (A write-protected file opens read-only, which is all this needs.)
                Database db(openConnection(path, SQLITE_OPEN_READWRITE, schema.kindName,
                                           options.busyTimeoutMs),
                            path, schema.kindName, true);
                db.exec("PRAGMA query_only = 1");
                db.fileVersion_ = fileVersion;
                return db;
            }
            // An older file read by this build: migrate a copy in memory, leave the file.
            Database mem(openConnection(":memory:", SQLITE_OPEN_READWRITE, schema.kindName,
                                        options.busyTimeoutMs),
                         path, schema.kindName, true);
            sqlite3_backup* b = sqlite3_backup_init(mem.db_, "main", ro.db_, "main");
            if (b == nullptr) {
                throw mem.error(sqlite3_errcode(mem.db_));
            }
            const int rc = sqlite3_backup_step(b, -1);
            sqlite3_backup_finish(b);
            if (rc != SQLITE_DONE) {
                throw ro.error(rc);
            }
            migrate(mem, schema, false);
            mem.exec("PRAGMA query_only = 1");
            mem.fileVersion_ = fileVersion;
            return mem;
        }
    }

    Database db(openConnection(path, SQLITE_OPEN_READWRITE, schema.kindName, options.busyTimeoutMs),
                path, schema.kindName, false);
    db.fileVersion_ = created ? 0 : fileVersion;  // the version it had before this open
    if (fresh) {
        // An empty SQLite database someone else made: given the schema in place.
        db.exec("PRAGMA auto_vacuum = INCREMENTAL");
    }
    switchToWal(db, path);
    db.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON");
    if (fresh || fileVersion < schema.version()) {
        migrate(db, schema, fresh);
    }
    return db;
}

}  // namespace irscope::store
