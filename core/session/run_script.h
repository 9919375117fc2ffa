// Running a network script into a Session: the one way both front ends (irscope-cli run and
// the desktop app) execute a .py file. A ScriptRunner owns an interpreter with the builtin
// modules (mindspore, numpy, time) and a graph compiler installed on it; run() executes the
// script and hands back the Session the run filled (script, every compile with its pass
// snapshots, every graph run, everything printed).
//
// Threads: run() blocks; call it on a worker thread. request_stop() on the source of
// ScriptOptions::stop, from any thread, stops the run at its next step (it then ends with
// RunResult::Status::Cancelled); the compiler, its passes and the executor see the same
// token. A runner runs one script once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "store/session.h"

namespace irscope::modules {
class EagerObserver;
}

namespace irscope::session {

struct ScriptOptions {
    compiler::CompilerOptions compiler;  // overrides (LOAD_ELIM, CELL_REUSE, save-graphs), device
    std::uint64_t maxSteps = interp::Limits{}.maxSteps;
    // Where the run's compile statistics are appended (store/stats_history.h): empty for
    // IRSCOPE_STATS_DB or the per-user default, "off" for nowhere.
    std::string statsHistory;
    // Set: the context's mode (modules::MsContext::kGraphMode / kPynativeMode) for the whole
    // run, whatever the script's set_context asks for.
    std::optional<std::int64_t> mode;
    modules::EagerObserver* eagerObserver = nullptr;  // sees PyNative's ops; not owned
    std::stop_token stop;  // the run's cancellation (the caller owns the std::stop_source)
};

struct ScriptOutcome {
    std::shared_ptr<store::Session> session;  // never null after run()
    interp::RunResult result;          // exit status; a syntax error or traceback in `error`
};

class ScriptRunner {
public:
    ScriptRunner();
    ~ScriptRunner();
    ScriptRunner(const ScriptRunner&) = delete;
    ScriptRunner& operator=(const ScriptRunner&) = delete;

    // Runs `source` (named `path` in tracebacks). print() and graph prints go to `out`,
    // tracebacks and syntax errors to `err` (either may be empty); both are also kept,
    // interleaved, in Session::output.
    ScriptOutcome run(const std::string& source, const std::string& path, ScriptOptions options,
                      interp::OutputSink out = {}, interp::OutputSink err = {});

    // Statements and loop iterations run so far, to within 1024 (thread-safe): progress.
    std::uint64_t stepsTaken() const { return interpreter_->stepsTaken(); }

private:
    std::unique_ptr<interp::Interpreter> interpreter_;
};

}  // namespace irscope::session
