// libFuzzer target for the session-file loader: arbitrary bytes written as a file must either
// load or be refused with a DbError (never crash, hang, trip a sanitizer or throw anything
// else), and the file must be left exactly as it was.
// The check itself is irscope::fuzz::checkSessionFile, which the regression suite runs too.
//
// Byte mutations of an SQLite file almost always end at SQLite's own page checks, so the
// loader's validation of what it reads (ids, counts, references between tables, texts and
// their CRCs, settings, versions) is hardly reached. Most mutations here are therefore made
// through SQLite on the database the input holds: one cell of a random row of a random
// table set to an edge value, a NULL, or its own bytes mutated; a row deleted or
// duplicated; the schema version changed. One in four stays a byte mutation.
#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_entries.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

// An in-memory copy of the input's database, or none when the bytes are not one.
class MemoryDb {
public:
    MemoryDb(const std::uint8_t* data, std::size_t size) {
        if (size < 512 || sqlite3_open(":memory:", &db_) != SQLITE_OK) {
            return;
        }
        auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(size));
        if (copy == nullptr) {
            return;
        }
        std::memcpy(copy, data, size);
        // A saved session is in WAL mode (header bytes 18 and 19 are 2), which an in-memory
        // database cannot open: the copy is marked as a rollback-journal file, and the
        // mutated bytes get the WAL mark back.
        wal_ = copy[18] == 2 && copy[19] == 2;
        if (wal_) {
            copy[18] = copy[19] = 1;
        }
        ok_ = sqlite3_deserialize(db_, "main", copy, static_cast<sqlite3_int64>(size),
                                  static_cast<sqlite3_int64>(size),
                                  SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) ==
              SQLITE_OK;
    }
    ~MemoryDb() { sqlite3_close(db_); }
    MemoryDb(const MemoryDb&) = delete;
    MemoryDb& operator=(const MemoryDb&) = delete;

    bool ok() const { return ok_; }
    sqlite3* db() const { return db_; }

    std::vector<std::string> column(const std::string& sql) const {
        std::vector<std::string> out;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                const unsigned char* t = sqlite3_column_text(st, 0);
                out.emplace_back(t != nullptr ? reinterpret_cast<const char*>(t) : "");
            }
        }
        sqlite3_finalize(st);
        return out;
    }

    bool exec(const std::string& sql) const {
        return sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    }

    // The database's bytes, when they fit in maxSize.
    bool serializeInto(std::uint8_t* data, std::size_t maxSize, std::size_t& size) const {
        sqlite3_int64 n = 0;
        unsigned char* bytes = sqlite3_serialize(db_, "main", &n, 0);
        const bool fits = bytes != nullptr && n > 0 && static_cast<std::size_t>(n) <= maxSize;
        if (fits) {
            std::memcpy(data, bytes, static_cast<std::size_t>(n));
            size = static_cast<std::size_t>(n);
            if (wal_ && size > 19) {
                data[18] = data[19] = 2;
            }
        }
        sqlite3_free(bytes);
        return fits;
    }

private:
    sqlite3* db_ = nullptr;
    bool ok_ = false;
    bool wal_ = false;
};

std::string sqlName(const std::string& name) {
    std::string out = "\"";
    for (char c : name) {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

// One row of a table, addressed by its primary key (or rowid when it has none): the
// session tables are mostly WITHOUT ROWID.
class RowRef {
public:
    RowRef(const MemoryDb& m, const std::string& table, std::mt19937_64& rng) {
        sqlite3_stmt* st = nullptr;
        const std::string info = "SELECT name, pk FROM pragma_table_info(" + sqlName(table) + ")";
        if (sqlite3_prepare_v2(m.db(), info.c_str(), -1, &st, nullptr) == SQLITE_OK) {
            while (sqlite3_step(st) == SQLITE_ROW) {
                const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
                columns.push_back(name);
                if (sqlite3_column_int(st, 1) > 0) {
                    keyColumns_.push_back(name);
                }
            }
        }
        sqlite3_finalize(st);
        if (keyColumns_.empty()) {
            keyColumns_.push_back("rowid");
        }
        const std::vector<std::string> count = m.column("SELECT count(*) FROM " + sqlName(table));
        const long long rows = count.empty() ? 0 : std::stoll(count[0]);
        if (rows == 0 || columns.empty()) {
            return;
        }
        std::string select = "SELECT ";
        for (std::size_t k = 0; k < keyColumns_.size(); ++k) {
            select += (k != 0 ? ", " : "") + sqlName(keyColumns_[k]);
            where += std::string(k != 0 ? " AND " : " WHERE ") + sqlName(keyColumns_[k]) + " IS ?" +
                     std::to_string(k + 2);
        }
        select += " FROM " + sqlName(table) + " LIMIT 1 OFFSET " +
                  std::to_string(static_cast<long long>(rng() % static_cast<std::uint64_t>(rows)));
        if (sqlite3_prepare_v2(m.db(), select.c_str(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
            for (int k = 0; k < static_cast<int>(keyColumns_.size()); ++k) {
                keys_.push_back(sqlite3_value_dup(sqlite3_column_value(st, k)));
            }
        }
        sqlite3_finalize(st);
    }
    ~RowRef() {
        for (sqlite3_value* v : keys_) {
            sqlite3_value_free(v);
        }
    }
    RowRef(const RowRef&) = delete;
    RowRef& operator=(const RowRef&) = delete;

    bool found() const { return !keys_.empty(); }
    // Binds the key values to ?2, ?3, ... of a statement ending in `where`.
    void bindKeys(sqlite3_stmt* st) const {
        for (std::size_t k = 0; k < keys_.size(); ++k) {
            sqlite3_bind_value(st, static_cast<int>(k) + 2, keys_[k]);
        }
    }
    bool run(const MemoryDb& m, const std::string& sql, sqlite3_value* first = nullptr) const {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(m.db(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
            return false;
        }
        if (first != nullptr) {
            sqlite3_bind_value(st, 1, first);
        }
        bindKeys(st);
        const bool done = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_finalize(st);
        return done;
    }

    std::vector<std::string> columns;
    std::string where;

private:
    std::vector<std::string> keyColumns_;
    std::vector<sqlite3_value*> keys_;
};

// A value for one cell, chosen by rng from edge values and the cell's own bytes mutated.
sqlite3_value* newCellValue(const MemoryDb& m, std::mt19937_64& rng, const std::string& table,
                            const std::string& col, const RowRef& row) {
    sqlite3_stmt* st = nullptr;
    const std::string select = "SELECT " + sqlName(col) + ", ?1 FROM " + sqlName(table) + row.where;
    if (sqlite3_prepare_v2(m.db(), select.c_str(), -1, &st, nullptr) != SQLITE_OK) {
        return nullptr;
    }
    row.bindKeys(st);
    static constexpr std::int64_t kEdges[] = {0,
                                              1,
                                              -1,
                                              2,
                                              3,
                                              255,
                                              256,
                                              65535,
                                              1 << 20,
                                              std::numeric_limits<std::int32_t>::max(),
                                              std::numeric_limits<std::int32_t>::min(),
                                              std::numeric_limits<std::int64_t>::max(),
                                              std::numeric_limits<std::int64_t>::min()};
    std::vector<std::uint8_t> bytes;
    int type = SQLITE_NULL;
    std::int64_t old = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        type = sqlite3_column_type(st, 0);
        old = sqlite3_column_int64(st, 0);
        const auto* b = static_cast<const std::uint8_t*>(sqlite3_column_blob(st, 0));
        bytes.assign(b, b + sqlite3_column_bytes(st, 0));
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    row.bindKeys(st);
    switch (rng() % 6) {
        case 0:
            break;  // NULL
        case 1:
            sqlite3_bind_int64(st, 1, kEdges[rng() % std::size(kEdges)]);
            break;
        case 2:
            sqlite3_bind_int64(st, 1,
                               static_cast<std::int64_t>(static_cast<std::uint64_t>(old) +
                                                         rng() % 5 - 2));  // wraps
            break;
        case 3:
            sqlite3_bind_double(st, 1, rng() % 2 == 0 ? -0.5 : 1e300);
            break;
        default: {
            // The cell's own bytes mutated: as text for a text cell, else as a blob.
            if (bytes.empty()) {
                bytes.push_back('0');
            }
            const std::size_t used = bytes.size();
            bytes.resize(used * 2 + 64);
            const std::size_t n = LLVMFuzzerMutate(bytes.data(), used, bytes.size());
            if (type == SQLITE_TEXT) {
                sqlite3_bind_text(st, 1, reinterpret_cast<const char*>(bytes.data()),
                                  static_cast<int>(n), SQLITE_TRANSIENT);
            } else {
                sqlite3_bind_blob(st, 1, bytes.data(), static_cast<int>(n), SQLITE_TRANSIENT);
            }
            break;
        }
    }
    sqlite3_value* v =
        sqlite3_step(st) == SQLITE_ROW ? sqlite3_value_dup(sqlite3_column_value(st, 1)) : nullptr;
    sqlite3_finalize(st);
    return v;
}

bool mutateThroughSqlite(const MemoryDb& m, std::mt19937_64& rng) {
    const std::vector<std::string> tables = m.column(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
    if (tables.empty()) {
        return false;
    }
    if (rng() % 16 == 0) {
        return m.exec("PRAGMA user_version = " + std::to_string(static_cast<int>(rng() % 8) - 1));
    }
    const std::string& table = tables[rng() % tables.size()];
    const RowRef row(m, table, rng);
    if (!row.found()) {
        return false;
    }
    switch (rng() % 8) {
        case 0:
            return row.run(m, "DELETE FROM " + sqlName(table) + row.where);
        case 1:
            // A copy of the row (a table with a key refuses it unless the key is changed later).
            return row.run(m, "INSERT INTO " + sqlName(table) + " SELECT * FROM " + sqlName(table) +
                                  row.where);
        default: {
            const std::string& col = row.columns[rng() % row.columns.size()];
            sqlite3_value* v = newCellValue(m, rng, table, col, row);
            if (v == nullptr) {
                return false;
            }
            const bool done = row.run(
                m, "UPDATE " + sqlName(table) + " SET " + sqlName(col) + " = ?1" + row.where, v);
            sqlite3_value_free(v);
            return done;
        }
    }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
    std::mt19937_64 rng(seed);
    if (rng() % 4 != 0) {
        const MemoryDb m(data, size);
        if (m.ok()) {
            bool mutated = false;
            for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
                mutated = mutateThroughSqlite(m, rng) || mutated;
            }
            std::size_t out = 0;
            if (mutated && m.serializeInto(data, maxSize, out)) {
                return out;
            }
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path =
        (std::filesystem::temp_directory_path() /
         ("fuzz_session_file." + std::to_string(::getpid()) + ".irscope"))
            .string();
    const std::string problem = irscope::fuzz::checkSessionFile(
        std::string_view(reinterpret_cast<const char*>(data), size), path);
    if (!problem.empty()) {
        irscope::fuzz::abortWith(problem);
    }
    return 0;
}
