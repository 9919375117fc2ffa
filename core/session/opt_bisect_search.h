// Pass bisection (irscope-cli bisect): which pass first changes a script's result? The script
// runs with --opt-bisect-limit N for N chosen by binary search (passes/opt_bisect.h): with
// every skippable pass off (N = 0) and with all of them on, then halving the range between
// the last good and the first bad limit. A run is good when the check says so; the built-in
// check is "every compiled graph returns what it returns with every skippable pass off, and
// the script ends the same way" (host prints are not compared: they may be timings). The
// culprit is pass number N of the first bad limit N: the only difference between the runs
// with N - 1 and N is that it ran. It is reported with the IR before and after it.
//
// Threads: bisectPasses blocks, running the script once per probe (about log2 of the number
// of skippable passes, plus two).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "passes/opt_bisect.h"
#include "session/run_script.h"

namespace irscope::session {

struct BisectProbe {
    int limit = -1;  // -1: every pass
    bool good = false;
    int passes = 0;  // skippable passes the run numbered
    interp::RunResult result;
};

struct BisectCulprit {
    passes::OptBisect::Decision decision;  // number, pass path, graph, round
    std::size_t compile = 0;               // index into session->compiles
    std::string signature;
    std::string before;                // the IR before the pass (the snapshot before it)
    std::string after;                 // the IR it left
    std::shared_ptr<store::Session> session;  // the run that stopped right after it
};

struct BisectResult {
    enum class Outcome : std::uint8_t {
        NothingFails,        // the check passes with every pass on: nothing to find
        Found,               // culprit is set
        FailsWithoutPasses,  // the check fails with every skippable pass off
        Cancelled,
    };
    Outcome outcome = Outcome::NothingFails;
    int total = 0;  // skippable passes with every pass on
    std::vector<BisectProbe> probes;
    std::optional<BisectCulprit> culprit;
};

// Whether the run with `limit` is good.
using BisectCheck = std::function<bool(int limit, const ScriptOutcome& run)>;

struct BisectOptions {
    ScriptOptions script;
    BisectCheck check;  // empty: the built-in check (see the file comment)
    // Called after every probe (progress for a front end).
    std::function<void(const BisectProbe&)> progress;
    // Stops the bisection before its next probe when it returns true.
    std::function<bool()> cancelled;
};

BisectResult bisectPasses(const std::string& source, const std::string& path,
                          const BisectOptions& options);

}  // namespace irscope::session
