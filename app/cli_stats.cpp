#include "cli_stats.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <ostream>
#include <string>

#include "store/stats_history.h"

namespace irscope::cli {

namespace {

struct StatsArgs {
    std::string script;
    int last = 0;
    bool csv = false;
    bool passes = false;
    std::string db;
};

int showStats(const StatsArgs& a, std::ostream& out, std::ostream& err) {
    try {
        const std::optional<std::string> path = store::statsHistoryPath(a.db);
        if (!path) {
            err << "irscope-cli: error: the statistics history is off (IRSCOPE_STATS_DB=off); "
                   "name one with --db PATH\n";
            return 1;
        }
        store::StatsQuery q;
        q.script = a.script;
        q.last = a.last;
        q.passes = a.passes;
        const std::vector<store::CompileStatsRow> rows = store::queryStatsHistory(*path, q);
        out << (a.csv ? store::formatStatsCsv(rows, a.passes)
                      : store::formatStatsTable(rows, a.passes));
        out.flush();
        return 0;
    } catch (const store::StatsHistoryError& e) {
        err << "irscope-cli: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

StatsRunner declareStatsCommand(CLI::App& sub) {
    auto args = std::make_shared<StatsArgs>();
    sub.add_option("--script", args->script,
                   "only this script's compiles (its path, or the end of it: net.py)");
    sub.add_option("--last", args->last, "only the latest N compiles")
        ->check(CLI::PositiveNumber);
    sub.add_flag("--csv", args->csv, "CSV with a header row instead of a table");
    sub.add_flag("--passes", args->passes, "also each pass of each compile");
    sub.add_option("--db", args->db,
                   "the history file to read (default: IRSCOPE_STATS_DB, else "
                   "$XDG_DATA_HOME/irscope/stats.sqlite)");
    return [args](std::ostream& out, std::ostream& err) { return showStats(*args, out, err); };
}

}  // namespace irscope::cli
