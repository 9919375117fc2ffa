#include "store/stats_history.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "irscope_version.h"
#include "store/session.h"
#include "store/db.h"
#include "util/sha256.h"

namespace irscope::store {

namespace {

// 'IRST' in PRAGMA application_id: an irscope statistics history.
constexpr std::int32_t kStatsAppId = 0x49525354;

const Schema& statsSchema() {
    static const Schema schema{
        "irscope statistics history",
        kStatsAppId,
        {
            [](Database& db) {
                db.exec(
                    "CREATE TABLE compiles ("
                    "  id INTEGER PRIMARY KEY,"
                    "  recorded_at TEXT NOT NULL,"
                    "  script TEXT NOT NULL,"
                    "  script_sha256 TEXT NOT NULL,"
                    "  graph TEXT NOT NULL,"
                    "  signature TEXT NOT NULL,"
                    "  settings TEXT NOT NULL,"
                    "  status TEXT NOT NULL,"
                    "  total_ms REAL NOT NULL,"
                    "  graphs INTEGER NOT NULL,"
                    "  nodes INTEGER NOT NULL,"
                    "  cnodes INTEGER NOT NULL,"
                    "  peak_bytes INTEGER,"
                    "  irscope_version TEXT NOT NULL,"
                    "  from_cache INTEGER NOT NULL"
                    ");"
                    "CREATE INDEX compiles_script ON compiles(script, id);"
                    "CREATE TABLE passes ("
                    "  compile_id INTEGER NOT NULL REFERENCES compiles(id) ON DELETE CASCADE,"
                    "  idx INTEGER NOT NULL,"
                    "  pass TEXT NOT NULL,"
                    "  depth INTEGER NOT NULL,"
                    "  round INTEGER NOT NULL,"
                    "  ms REAL NOT NULL,"
                    "  graphs INTEGER NOT NULL,"
                    "  nodes INTEGER NOT NULL,"
                    "  cnodes INTEGER NOT NULL,"
                    "  peak_bytes INTEGER,"
                    "  changed INTEGER NOT NULL,"
                    "  PRIMARY KEY (compile_id, idx)"
                    ");");
            },
        }};
    return schema;
}

std::string nowUtc() {
    const auto now = std::chrono::system_clock::now();
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    return fmt::format("{:%FT%T}.{:03}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(now)),
                       ms);
}

std::string absoluteScript(const std::string& path) {
    if (path.empty() || path == "<stdin>") {
        return path;
    }
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.lexically_normal().string();
}

Database openHistory(const std::string& path, OpenMode mode) {
    try {
        return Database::open(path, statsSchema(), mode);
    } catch (const DbError& e) {
        throw StatsHistoryError(e.what());
    }
}

}  // namespace

std::optional<std::string> statsHistoryPath(const std::string& option) {
    std::string path = option;
    if (path.empty()) {
        if (const char* v = std::getenv("IRSCOPE_STATS_DB"); v != nullptr && *v != '\0') {
            path = v;
        }
    }
    if (path == "off") {
        return std::nullopt;
    }
    if (!path.empty()) {
        return path;
    }
    std::filesystem::path dir;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/') {
        dir = xdg;  // the XDG spec ignores a relative XDG_DATA_HOME
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
        dir = std::filesystem::path(home) / ".local" / "share";
    } else {
        throw StatsHistoryError(
            "no place for the statistics history: set IRSCOPE_STATS_DB (or HOME)");
    }
    return (dir / "irscope" / "stats.sqlite").string();
}

void appendStatsHistory(const std::string& path, const Session& s) {
    if (s.compiles.empty()) {
        return;
    }
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (!folder.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(folder, ec);
        if (ec) {
            throw StatsHistoryError(folder.string() + ": cannot create the folder: " +
                                    ec.message());
        }
    }
    Database db = openHistory(path, OpenMode::ReadWriteCreate);
    const std::string script = absoluteScript(s.scriptPath);
    const std::string scriptHash = util::sha256Hex(s.scriptText);
    const std::string when = nowUtc();
    try {
        Transaction t(db);
        Statement addCompile = db.prepare(
            "INSERT INTO compiles (recorded_at, script, script_sha256, graph, signature, "
            "settings, status, total_ms, graphs, nodes, cnodes, peak_bytes, irscope_version, "
            "from_cache) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
        Statement addPass = db.prepare(
            "INSERT INTO passes (compile_id, idx, pass, depth, round, ms, graphs, nodes, "
            "cnodes, peak_bytes, changed) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
        for (const passes::CompileRecord& c : s.compiles) {
            const passes::PassSnapshot* last = c.snapshots.empty() ? nullptr : &c.snapshots.back();
            std::optional<std::int64_t> peak;
            if (last != nullptr && last->peakBytes) {
                peak = static_cast<std::int64_t>(*last->peakBytes);
            }
            addCompile
                .bindAll(when, script, scriptHash, c.graphName, c.signature,
                         c.settings.toString(), std::string(passes::statusName(c.status)),
                         c.totalMillis + c.cacheLoadMillis,
                         static_cast<std::int64_t>(last ? last->counts().graphs : 0),
                         static_cast<std::int64_t>(last ? last->counts().nodes : 0),
                         static_cast<std::int64_t>(last ? last->counts().cnodes : 0), peak,
                         std::string(IRSCOPE_VERSION), c.fromCache)
                .run();
            const std::int64_t id = db.lastInsertRowId();
            for (std::size_t i = 0; i < c.snapshots.size(); ++i) {
                const passes::PassSnapshot& p = c.snapshots[i];
                std::optional<std::int64_t> passPeak;
                if (p.peakBytes) {
                    passPeak = static_cast<std::int64_t>(*p.peakBytes);
                }
                addPass
                    .bindAll(id, static_cast<std::int64_t>(i), p.pass, p.depth, p.round,
                             p.millis, static_cast<std::int64_t>(p.counts().graphs),
                             static_cast<std::int64_t>(p.counts().nodes),
                             static_cast<std::int64_t>(p.counts().cnodes), passPeak, p.changed())
                    .run();
            }
        }
        t.commit();
    } catch (const DbError& e) {
        throw StatsHistoryError(e.what());
    }
}

std::vector<CompileStatsRow> queryStatsHistory(const std::string& path, const StatsQuery& q) {
    Database db = openHistory(path, OpenMode::ReadOnly);
    std::vector<CompileStatsRow> rows;
    try {
        std::string sql =
            "SELECT id, recorded_at, script, script_sha256, graph, signature, settings, status, "
            "total_ms, graphs, nodes, cnodes, peak_bytes, irscope_version, from_cache "
            "FROM compiles";
        std::string script = q.script;
        if (!script.empty()) {
            std::error_code ec;
            if (std::filesystem::exists(script, ec)) {
                script = absoluteScript(script);
            }
            // The whole path, or its end after a '/': "net.py" finds ".../examples/net.py".
            sql += " WHERE script = ?1 OR substr(script, -length(?1) - 1) = '/' || ?1";
        }
        sql += " ORDER BY id DESC";
        if (q.last > 0) {
            sql += " LIMIT " + std::to_string(q.last);
        }
        Statement st = db.prepare(sql);
        if (!script.empty()) {
            st.bind(1, script);
        }
        while (st.step()) {
            CompileStatsRow r;
            r.id = st.getInt(0);
            r.recordedAt = st.getText(1);
            r.script = st.getText(2);
            r.scriptHash = st.getText(3);
            r.graph = st.getText(4);
            r.signature = st.getText(5);
            r.settings = st.getText(6);
            r.status = st.getText(7);
            r.totalMillis = st.getDouble(8);
            r.graphs = st.getInt(9);
            r.nodes = st.getInt(10);
            r.cnodes = st.getInt(11);
            r.peakBytes = st.getOptionalInt(12);
            r.irscopeVersion = st.getText(13);
            r.fromCache = st.getInt(14) != 0;
            rows.push_back(std::move(r));
        }
        std::reverse(rows.begin(), rows.end());  // oldest first
        if (q.passes) {
            Statement ps = db.prepare(
                "SELECT pass, depth, round, ms, graphs, nodes, cnodes, peak_bytes, changed "
                "FROM passes WHERE compile_id = ?1 ORDER BY idx");
            for (CompileStatsRow& r : rows) {
                ps.reset();
                ps.bind(1, r.id);
                while (ps.step()) {
                    PassStatsRow p;
                    p.pass = ps.getText(0);
                    p.depth = static_cast<int>(ps.getInt(1));
                    p.round = static_cast<int>(ps.getInt(2));
                    p.millis = ps.getDouble(3);
                    p.graphs = ps.getInt(4);
                    p.nodes = ps.getInt(5);
                    p.cnodes = ps.getInt(6);
                    p.peakBytes = ps.getOptionalInt(7);
                    p.changed = ps.getInt(8) != 0;
                    r.passes.push_back(std::move(p));
                }
            }
        }
    } catch (const DbError& e) {
        throw StatsHistoryError(e.what());
    }
    return rows;
}

namespace {

std::string shortDate(const std::string& iso) {
    // "2026-11-25T15:30:12.345Z" -> "2026-11-25 15:30:12"
    std::string s = iso.substr(0, 19);
    if (s.size() > 10 && s[10] == 'T') {
        s[10] = ' ';
    }
    return s;
}

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

std::string peakText(const std::optional<std::int64_t>& p) {
    return p ? std::to_string(*p) : std::string();
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        return s;
    }
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') {
            out += '"';
        }
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string formatStatsTable(const std::vector<CompileStatsRow>& rows, bool passes) {
    if (rows.empty()) {
        return "No compiles recorded.\n";
    }
    std::ostringstream os;
    os << fmt::format("{:>5}  {:<19}  {:<22} {:<24} {:>10} {:>7} {:>7} {:>10}  {}\n", "id",
                      "date (UTC)", "script", "graph", "total ms", "nodes", "cnodes",
                      "peak bytes", "notes");
    for (const CompileStatsRow& r : rows) {
        std::string notes;
        if (r.fromCache) {
            notes += "cache ";
        }
        if (r.status != "ok") {
            notes += r.status + " ";
        }
        if (!r.settings.empty()) {
            notes += r.settings;
        }
        os << fmt::format("{:>5}  {:<19}  {:<22} {:<24} {:>10.3f} {:>7} {:>7} {:>10}  {}\n", r.id,
                          shortDate(r.recordedAt), fileName(r.script), r.graph, r.totalMillis,
                          r.nodes, r.cnodes, peakText(r.peakBytes), notes);
        if (!passes) {
            continue;
        }
        os << fmt::format("       signature: {}\n", r.signature);
        for (const PassStatsRow& p : r.passes) {
            std::string name = p.pass;
            if (p.depth > 0) {
                name = std::string(static_cast<std::size_t>(p.depth) * 2, ' ') +
                       name.substr(name.rfind('/') + 1) + " r" + std::to_string(p.round);
            }
            os << fmt::format("         {:<38} {:>10.3f} {:>7} {:>7} {:>10}  {}\n", name,
                              p.millis, p.nodes, p.cnodes, peakText(p.peakBytes),
                              p.changed ? "*" : "");
        }
    }
    return os.str();
}

std::string formatStatsCsv(const std::vector<CompileStatsRow>& rows, bool passes) {
    std::ostringstream os;
    os << "id,recorded_at,script,script_sha256,graph,signature,settings,status,total_ms,graphs,"
          "nodes,cnodes,peak_bytes,irscope_version,from_cache";
    if (passes) {
        os << ",pass,depth,round,pass_ms,pass_graphs,pass_nodes,pass_cnodes,pass_peak_bytes,"
              "changed";
    }
    os << "\n";
    for (const CompileStatsRow& r : rows) {
        const std::string compile = fmt::format(
            "{},{},{},{},{},{},{},{},{:.3f},{},{},{},{},{},{}", r.id, r.recordedAt,
            csvField(r.script), r.scriptHash, csvField(r.graph), csvField(r.signature),
            csvField(r.settings), r.status, r.totalMillis, r.graphs, r.nodes, r.cnodes,
            peakText(r.peakBytes), r.irscopeVersion, r.fromCache ? 1 : 0);
        if (!passes) {
            os << compile << "\n";
            continue;
        }
        for (const PassStatsRow& p : r.passes) {
            os << compile
               << fmt::format(",{},{},{},{:.3f},{},{},{},{},{}\n", csvField(p.pass), p.depth,
                              p.round, p.millis, p.graphs, p.nodes, p.cnodes,
                              peakText(p.peakBytes), p.changed ? 1 : 0);
        }
    }
    return os.str();
}

}  // namespace irscope::store
