// irscope-cli debug SCRIPT.py: a gdb-like debugger over the compiled graphs a network script
// runs, reading its commands from standard input (so a test can script it). The script runs
// on a worker thread; every graph run reports to one runtime::Debugger, which stops it at
// breakpoints, watchpoints and steps; the command loop inspects and resumes it.
#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace irscope::cli {

using DebugRunner = std::function<int(std::istream& in, std::ostream& out, std::ostream& err)>;

// Declares debug's arguments on `sub`; the returned runner reads them.
DebugRunner declareDebugCommand(CLI::App& sub);

}  // namespace irscope::cli
