#include "cli_diverge.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cli_run_options.h"
#include "compiler/graph_compiler.h"
#include "session/divergence.h"

namespace irscope::cli {

namespace {

struct DivergeArgs {
    std::string script;
    std::string a;
    std::string b;
    double rtol = session::Tolerance{}.rtol;
    double atol = session::Tolerance{}.atol;
    std::uint64_t maxSteps = interp::Limits{}.maxSteps;
    std::string statsDb;
};

std::string lastLine(const std::string& text) {
    std::size_t end = text.find_last_not_of('\n');
    if (end == std::string::npos) {
        return {};
    }
    const std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       end - (start == std::string::npos ? 0 : start + 1) + 1);
}

int diverge(const DivergeArgs& a, std::ostream& out, std::ostream& err) {
    std::array<session::RunSide, 2> sides;
    const std::array<const std::string*, 2> specs{&a.a, &a.b};
    for (std::size_t i = 0; i < 2; ++i) {
        std::string error;
        std::optional<session::RunSide> side = session::parseRunSide(*specs[i], &error);
        if (!side) {
            err << "irscope-cli: error: --" << (i == 0 ? "a" : "b") << ": " << error << "\n";
            return kExitUsage;
        }
        sides[i] = std::move(*side);
    }
    if (!(a.rtol >= 0.0) || !(a.atol >= 0.0)) {
        err << "irscope-cli: error: --rtol and --atol must be >= 0\n";
        return kExitUsage;
    }
    std::string error;
    const std::optional<std::string> source = readWholeFile(a.script, &error);
    if (!source) {
        err << "irscope-cli: error: " << error << "\n";
        return kExitUsage;
    }
    session::DivergenceOptions options;
    options.script.maxSteps = a.maxSteps;
    options.script.statsHistory = a.statsDb;
    options.tolerance = {a.rtol, a.atol};
    session::DivergenceFinder finder;
    session::DivergenceResult r;
    try {
        r = finder.run(*source, a.script, sides, options);
    } catch (const std::invalid_argument& e) {
        err << "irscope-cli: error: " << e.what() << "\n";
        return kExitUsage;
    }
    for (std::size_t i = 0; i < 2; ++i) {
        if (r.results[i].status == interp::RunResult::Status::SyntaxError) {
            err << r.results[i].error;
            return kExitUsage;
        }
    }
    out << session::formatDivergence(r);
    for (std::size_t i = 0; i < 2; ++i) {
        if (r.results[i].exitStatus != 0) {
            out << (i == 0 ? "a" : "b") << " (" << r.labels[i]
                << "): the script failed: " << lastLine(r.results[i].error) << "\n";
        }
    }
    out.flush();
    return r.first ? 1 : 0;
}

}  // namespace

DivergeRunner declareDivergeCommand(CLI::App& sub) {
    auto args = std::make_shared<DivergeArgs>();
    sub.add_option("SCRIPT", args->script, "Python script to run under both settings")->required();
    sub.add_option("--a", args->a,
                   "the first run's settings: load-elim=N, cell-reuse=N, device=NAME, "
                   "mode=graph|pynative or MS_...=VALUE, comma-separated (sides in different "
                   "modes are compared line by line)")
        ->required();
    sub.add_option("--b", args->b, "the second run's settings, as --a")->required();
    sub.add_option("--rtol", args->rtol, "relative tolerance (numpy.allclose's, default 1e-5)");
    sub.add_option("--atol", args->atol, "absolute tolerance (numpy.allclose's, default 1e-8)");
    sub.add_option("--max-steps", args->maxSteps,
                   "stop each run after this many statements and loop iterations (0: no limit)");
    sub.add_option("--stats-db", args->statsDb,
                   "append the runs' compile statistics to this history file ('off': none)");
    return [args](std::ostream& out, std::ostream& err) { return diverge(*args, out, err); };
}

}  // namespace irscope::cli
