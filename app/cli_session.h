// Session files in irscope-cli: `run SCRIPT.py --session FILE` saves what the run left
// (also when the script failed or was interrupted), and `session FILE` lists a saved
// session's contents, prints its pass or run statistics, its output, its script, or the IR
// a pass left in one of its compiles (--compile N --dump-pass NAME).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace CLI {
class App;
}

namespace irscope::interp {
struct RunResult;
}
namespace irscope::store {
struct Session;
}

namespace irscope::cli {

// Saves `session` (run ended as `result`) to `path` and says so on `err`: what it holds,
// and, when the script did not finish, that it holds what ran before it stopped. Throws
// store::DbError when the file cannot be written (an existing non-session file is refused).
void saveRunSession(const std::string& path, const store::Session& session,
                    const interp::RunResult& result, std::ostream& err);

using SessionRunner = std::function<int(std::ostream& out, std::ostream& err)>;

// Declares `session`'s arguments on `sub`; the returned runner reads them.
SessionRunner declareSessionCommand(CLI::App& sub);

}  // namespace irscope::cli
