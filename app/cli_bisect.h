// `irscope-cli bisect SCRIPT [--check 'COMMAND']`: finds the first skippable pass whose
// application changes the script's result (session/opt_bisect_search.h) and prints it with
// the IR before and after it. Without --check a run is good when every compiled graph returns
// the values it returns with every skippable pass off and the script ends the same way; with
// it, when COMMAND (run by /bin/sh, the run's
// output on its standard input, IRSCOPE_OPT_BISECT_LIMIT and IRSCOPE_SCRIPT_STATUS in its
// environment) exits with 0. Exit status: 0 nothing changes the result, 1 the pass was found
// (printed), 2 a usage error, 3 the check fails even with every skippable pass off.
#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace irscope::cli {

using BisectRunner = std::function<int(std::ostream& out, std::ostream& err)>;

// Declares bisect's options on `sub`; the returned runner reads them.
BisectRunner declareBisectCommand(CLI::App& sub);

}  // namespace irscope::cli
