// `irscope-cli stats`: the statistics history (store/stats_history.h) — every compile of
// every run, latest last: a readable table by default (one line per compile, --passes adds
// each pass), or CSV with a header row (--csv). --script NAME keeps one script's compiles
// (a path, or its end: "net.py"), --last N the latest N, --db PATH reads another history
// than IRSCOPE_STATS_DB / the per-user default.
#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace irscope::cli {

using StatsRunner = std::function<int(std::ostream& out, std::ostream& err)>;

// Declares stats' options on `sub`; the returned runner reads them.
StatsRunner declareStatsCommand(CLI::App& sub);

}  // namespace irscope::cli
