// Statistics history: every compile of every run appends its per-pass statistics to one
// per-user SQLite file, so compile times can be compared across edits and runs
// (`irscope-cli stats`, the Statistics dock's trend).
//
// Where: `--stats-db PATH` (irscope-cli run), else IRSCOPE_STATS_DB, else
// $XDG_DATA_HOME/irscope/stats.sqlite, else ~/.local/share/irscope/stats.sqlite. The value
// "off" (option or variable) records nothing; the test suites run with IRSCOPE_STATS_DB=off
// so they never write into the user's home.
//
// Writers append in one transaction per run (WAL, a busy timeout): concurrent runs in
// several processes lose no rows. A corrupt, foreign or newer-schema file is reported
// (StatsHistoryError, from store/db.h) and never written.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace irscope::store {

struct Session;

class StatsHistoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The history file to use given the CLI's option (empty: not given); nullopt when the
// history is off. Throws StatsHistoryError when no location can be found (no HOME).
std::optional<std::string> statsHistoryPath(const std::string& option = {});

// One pass of one compile.
struct PassStatsRow {
    std::string pass;  // "opt_a/cse"
    int depth = 0;
    int round = 0;
    double millis = 0.0;
    std::int64_t graphs = 0, nodes = 0, cnodes = 0;
    std::optional<std::int64_t> peakBytes;
    bool changed = false;
};

// One compile.
struct CompileStatsRow {
    std::int64_t id = 0;
    std::string recordedAt;  // UTC, "2026-11-25T15:30:12.345Z"
    std::string script;      // absolute path of the script
    std::string scriptHash;  // SHA-256 of its text
    std::string graph;
    std::string signature;
    std::string settings;
    std::string status;      // "ok", "error", "cancelled"
    double totalMillis = 0.0;  // the whole compile (the cache load included on a hit)
    std::int64_t graphs = 0, nodes = 0, cnodes = 0;  // after the last pass
    std::optional<std::int64_t> peakBytes;
    std::string irscopeVersion;
    bool fromCache = false;
    std::vector<PassStatsRow> passes;  // filled when asked for
};

// Appends every compile of `s` (nothing when it has none). Creates the file and its folder
// when missing. Throws StatsHistoryError.
void appendStatsHistory(const std::string& path, const Session& s);

struct StatsQuery {
    std::string script;  // "" every script; else a path, or the end of one ("net.py")
    int last = 0;        // the latest N compiles (0: all), listed oldest first
    bool passes = false;
};

// Throws StatsHistoryError (a missing file is an error too: nothing was recorded there).
std::vector<CompileStatsRow> queryStatsHistory(const std::string& path, const StatsQuery& q);

// A readable table: one line per compile (date, script, graph, signature, total ms, nodes,
// cnodes, peak bytes, `cache` for a hit), with `passes` each pass under its compile.
std::string formatStatsTable(const std::vector<CompileStatsRow>& rows, bool passes);
// CSV with a header row: one row per compile, or with `passes` one per pass (the compile's
// columns repeated).
std::string formatStatsCsv(const std::vector<CompileStatsRow>& rows, bool passes);

}  // namespace irscope::store
