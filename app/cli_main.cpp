// irscope-cli: the headless front end. Each subcommand is a function taking its options and
// the output streams; main only builds the command line, dispatches and maps errors to exit
// statuses: 0 success, 1 bad or unreadable input (located diagnostics on stderr), 2 usage.
//
// To add a subcommand (run, debug, session, stats): write its function, then a `register*`
// that declares its options on a CLI::App and returns the function bound to them, and list
// it in commands().
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "cli_bisect.h"
#include "cli_debug.h"
#include "cli_devices.h"
#include "cli_diverge.h"
#include "cli_mindir_run.h"
#include "cli_run_options.h"
#include "cli_session.h"
#include "cli_stats.h"
#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "ir/dump_notes.h"
#include "ir/export_dot.h"
#include "ir/export_json.h"
#include "ir/ir_text.h"
#include "irscope_version.h"
#include "layout/graphviz.h"
#include "mindir/mindir.h"
#include "passes/opt_bisect.h"
#include "passes/settings.h"
#include "runtime/plugin_loader.h"
#include "session/pass_stats.h"
#include "session/run_script.h"
#include "store/session.h"
#include "util/diagnostic.h"

namespace irscope::cli {

constexpr int kExitOk = 0;
constexpr int kExitInputError = 1;

// An error the user caused outside parsing (unreadable file, unwritable output).
class CliError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Streams {
    std::ostream& out;
    std::ostream& err;
};

// --- input and output ----------------------------------------------------------------------

// Reads a whole file; "-" is standard input.
std::string readInput(const std::string& path) {
    if (path == "-") {
        return std::string(std::istreambuf_iterator<char>(std::cin), {});
    }
    std::string error;
    std::optional<std::string> bytes = readWholeFile(path, &error);
    if (!bytes) {
        throw CliError(error);
    }
    return std::move(*bytes);
}

// Writes `text` to `path`, or to `out` when the path is empty or "-".
void writeOutput(const std::string& path, const std::string& text, Streams io) {
    if (path.empty() || path == "-") {
        io.out << text;
        io.out.flush();
        return;
    }
    errno = 0;
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (f) {
        f << text;
        f.close();
    }
    if (!f) {
        throw CliError("cannot write " + path + ": " + std::strerror(errno != 0 ? errno : EIO));
    }
}

// Options for reading an encrypted MindIR file.
struct DecryptArgs {
    std::string key;
    std::string mode;
    mindir::ReadOptions options() const {
        mindir::ReadOptions o;
        o.decKey = key;
        o.decMode = mode;
        return o;
    }
};

// A MindIR file by its extension or, for any name, by an encrypted file's magic number.
bool isMindirInput(const std::string& path, std::string_view head) {
    return mindir::hasMindirExtension(path) ||
           mindir::detectEncryption(head) != mindir::Encryption::None;
}

// Reads a .ir file or a MindIR (.mindir) file into a module. What the .ir reader kept but
// flags (references the file does not define, graphs it calls but does not contain, names
// defined twice) goes to `err` as located warnings and notes, at most kMaxWarnings of them;
// the exit status stays 0.
constexpr std::size_t kMaxWarnings = 20;

std::unique_ptr<ir::Module> loadIr(const std::string& path, std::ostream& err,
                                   const DecryptArgs& dec = {}) {
    std::string bytes = readInput(path);
    const std::string name = path == "-" ? std::string("<stdin>") : path;
    if (isMindirInput(path, bytes)) {
        mindir::ReadOptions o = dec.options();
        if (path != "-") {
            o.baseDir = std::filesystem::path(path).parent_path().string();
            if (o.baseDir.empty()) {
                o.baseDir = ".";
            }
        }
        return mindir::readMindir(bytes, name, o).module;
    }
    std::vector<Diagnostic> warnings;
    auto m = ir::parseIr(bytes, name, &warnings);
    for (std::size_t k = 0; k < warnings.size() && k < kMaxWarnings; ++k) {
        Diagnostic d = warnings[k];
        if (d.lineText.size() > 200) {
            d.lineText.clear();  // a 100,000-character parameter list is no help here
        }
        err << d.format() << "\n";
    }
    if (warnings.size() > kMaxWarnings) {
        err << path << ": " << warnings.size() - kMaxWarnings << " more warnings and notes\n";
    }
    return m;
}

// --- subcommands ---------------------------------------------------------------------------

struct ExportArgs {
    std::string input;
    std::string output;  // empty: standard output
    std::vector<std::string> graphs;
    bool noConstants = false;
    std::string rankdir = "TB";
    DecryptArgs dec;
    bool trace = false;  // dump --trace

    // Throws when a --graph names no graph of `m`.
    ir::DotOptions dotOptions(const ir::Module& m) const {
        for (const std::string& name : graphs) {
            if (m.findGraph(name) == nullptr) {
                std::string known;
                for (const ir::FuncGraph* g : m.graphs()) {
                    known += (known.empty() ? "" : ", ") + g->name();
                }
                throw CliError("no graph named '" + name + "' in " + input + " (graphs: " + known +
                               ")");
            }
        }
        ir::DotOptions o;
        o.graphs = graphs;
        o.includeConstants = !noConstants;
        o.rankdir = rankdir;
        return o;
    }
};

// dump --trace: analyze_fail.ir's failure (the banner's exception and C++ stack) and the
// traced call stack, one frame per `#------------------------> N` marker, instead of the IR.
int dump(const ExportArgs& a, Streams io) {
    const auto m = loadIr(a.input, io.err, a.dec);
    if (a.trace) {
        writeOutput(a.output, ir::formatFailure(*m, ir::analyzeFailure(*m)), io);
        return kExitOk;
    }
    writeOutput(a.output, ir::printIr(*m), io);
    return kExitOk;
}

int dot(const ExportArgs& a, Streams io) {
    const auto m = loadIr(a.input, io.err, a.dec);
    writeOutput(a.output, ir::exportDot(*m, a.dotOptions(*m)), io);
    return kExitOk;
}

int svg(const ExportArgs& a, Streams io) {
    const auto m = loadIr(a.input, io.err, a.dec);
    const std::string text = ir::exportDot(*m, a.dotOptions(*m));
    writeOutput(a.output, layout::renderDot(text, "svg"), io);
    return kExitOk;
}

int json(const ExportArgs& a, Streams io) {
    writeOutput(a.output, ir::exportJson(*loadIr(a.input, io.err, a.dec)), io);
    return kExitOk;
}

// --- command line --------------------------------------------------------------------------

using Runner = std::function<int(Streams)>;

struct Command {
    const char* name;
    const char* help;
    // Declares the subcommand's options on `sub`; the returned runner reads them.
    std::function<Runner(CLI::App& sub)> declare;
};

void addDecryptOptions(CLI::App& sub, DecryptArgs& d) {
    sub.add_option("--dec-key", d.key,
                   "key of an encrypted MindIR file (the enc_key it was exported with, as text)");
    sub.add_option("--dec-mode", d.mode, "its encryption (default: from the file)")
        ->check(CLI::IsMember({"AES-GCM", "AES-CBC", "SM4-CBC"}));
}

void addInput(CLI::App& sub, ExportArgs& a) {
    sub.add_option("FILE", a.input, ".ir or .mindir file to read ('-' for standard input)")
        ->required();
    addDecryptOptions(sub, a.dec);
}

int info(const ExportArgs& a, Streams io) {
    const std::string bytes = readInput(a.input);
    const std::string name = a.input == "-" ? std::string("<stdin>") : a.input;
    if (!isMindirInput(a.input, bytes)) {
        throw CliError(name + ": info reads MindIR (.mindir) files; use 'dump' for .ir files");
    }
    mindir::ReadOptions o = a.dec.options();
    o.baseDir = std::filesystem::path(a.input).parent_path().string();
    if (o.baseDir.empty()) {
        o.baseDir = ".";
    }
    const mindir::Model model = mindir::readMindir(bytes, name, o);
    std::string text = mindir::formatInfo(model.info, name);
    std::string graphs;
    for (const ir::FuncGraph* g : model.module->graphs()) {
        graphs += "    @" + g->name() + (g == model.module->entry() ? "  (entry)" : "") + "\n";
    }
    writeOutput(a.output, text + "  graph names:\n" + graphs, io);
    return kExitOk;
}

void addOutput(CLI::App& sub, ExportArgs& a, bool required = false) {
    auto* o = sub.add_option("-o,--output", a.output, "write here instead of standard output");
    if (required) {
        o->required();
    }
}

void addDotOptions(CLI::App& sub, ExportArgs& a) {
    sub.add_option("-g,--graph", a.graphs, "draw only this graph (repeatable)")
        ->allow_extra_args(false);
    sub.add_flag("--no-constants", a.noConstants, "leave out constant nodes");
    sub.add_option("--rankdir", a.rankdir, "layout direction")
        ->check(CLI::IsMember({"TB", "LR", "BT", "RL"}));
}

template <int (*Fn)(const ExportArgs&, Streams)>
std::function<Runner(CLI::App&)> exportCommand(bool dotOptions, bool outputRequired = false) {
    return [=](CLI::App& sub) -> Runner {
        auto args = std::make_shared<ExportArgs>();
        addInput(sub, *args);
        addOutput(sub, *args, outputRequired);
        if (dotOptions) {
            addDotOptions(sub, *args);
        }
        if (Fn == &dump) {
            sub.add_flag("--trace", args->trace,
                         "print analyze_fail.ir's failure and traced call stack (the "
                         "'#------------------------> N' frames, the failed one last) instead "
                         "of the IR");
        }
        return [args](Streams io) { return Fn(*args, io); };
    };
}

// run: executes a network script; GRAPH_MODE Cells and @jit functions are compiled through
// the pass pipeline and run on the CPU kernels. print() and graph prints go to stdout,
// tracebacks (compile errors included) and syntax errors to stderr; the exit status is the
// script's (0, or 1 on an error). --save-graphs DIR writes every compile's IR after each
// pass there, as MindSpore's save_graphs does: level 1 (the passes' files), or the level of
// MS_DEV_SAVE_GRAPHS when that is higher (2 adds opt_a's sub-passes, 3 a .dot per file).
// --pass-stats prints one table per compile to stderr once the script is done (as LLVM's
// -time-passes does), so the script's own output stays clean. --load-elim N and
// --cell-reuse N set MS_DEV_SIDE_EFFECT_LOAD_ELIM / MS_DEV_CELL_REUSE for this run (over the
// environment); --run-stats prints, per execution of a compiled graph, where it ran, its
// kernels and copies, the memory it held against the plan, and its time (stderr).
// --session FILE saves the session (script, settings, every compile with its snapshots,
// every graph run, the output) to FILE, also when the script fails or is interrupted
// (Ctrl-C then stops the script at its next step instead of killing the process).
struct RunArgs {
    std::string script;
    std::uint64_t maxSteps = interp::Limits{}.maxSteps;
    std::size_t maxUnroll = compiler::CompileLimits{}.maxUnroll;
    std::string saveGraphs;
    bool passStats = false;
    RunOptionArgs shared;  // --load-elim, --cell-reuse, --device (shared with debug)
    bool runStats = false;
    std::string sessionFile;
    std::string statsDb;  // --stats-db PATH|off
    std::optional<int> optBisectLimit;
};

// The run SIGINT and SIGTERM stop while `run --session` runs a script: its one stop source.
// request_stop() on a source no std::stop_callback is registered with only sets an atomic
// bit (libstdc++), so it is safe in a signal handler; nothing registers one on this source.
std::stop_source* gInterruptible = nullptr;

extern "C" void cancelOnSignal(int sig) {
    if (gInterruptible != nullptr) {
        gInterruptible->request_stop();
    }
    std::signal(sig, SIG_DFL);  // a second signal ends the process
}

// Stops `stop` on SIGINT/SIGTERM while alive (when `active`).
class InterruptScope {
public:
    InterruptScope(std::stop_source& stop, bool active) : active_(active) {
        if (active_) {
            gInterruptible = &stop;
            std::signal(SIGINT, cancelOnSignal);
            std::signal(SIGTERM, cancelOnSignal);
        }
    }
    ~InterruptScope() {
        if (active_) {
            std::signal(SIGINT, SIG_DFL);
            std::signal(SIGTERM, SIG_DFL);
            gInterruptible = nullptr;
        }
    }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    bool active_;
};

// The save-graphs level --save-graphs asks for: 1, or MS_DEV_SAVE_GRAPHS when higher.
std::int64_t saveGraphsLevel() {
    passes::Settings env;
    if (const char* v = std::getenv(std::string(passes::kSaveGraphs).c_str())) {
        env.set(std::string(passes::kSaveGraphs), std::string(v));
    }
    return std::max<std::int64_t>(1, env.getInt(passes::kSaveGraphs, 0));
}

int runScript(const RunArgs& a, Streams io) {
    std::string source = readInput(a.script);
    if (a.script != "-" && isMindirScript(a.script, source)) {
        source = mindirRunScript(a.script, source, a.shared.decKey);  // run FILE.mindir
    }
    session::ScriptOptions options;
    options.maxSteps = a.maxSteps;
    options.statsHistory = a.statsDb;
    options.compiler.limits.maxUnroll = a.maxUnroll;
    passes::Settings& overrides = options.compiler.overrides;
    if (!a.saveGraphs.empty()) {
        overrides.set(std::string(passes::kSaveGraphs), saveGraphsLevel());
        overrides.set(std::string(passes::kSaveGraphsPath), a.saveGraphs);
    }
    if (!applyRunOptions(a.shared, options.compiler, io.err)) {
        return kExitUsage;
    }
    if (a.optBisectLimit) {
        options.compiler.optBisect =
            std::make_shared<passes::OptBisect>(*a.optBisectLimit, [&io](std::string_view line) {
                io.out.flush();
                io.err << line << "\n";
            });
    }
    std::stop_source stop;
    options.stop = stop.get_token();
    session::ScriptRunner runner;
    const InterruptScope interrupts(stop, !a.sessionFile.empty());
    const session::ScriptOutcome outcome = runner.run(
        source, a.script == "-" ? "<stdin>" : a.script, std::move(options),
        [&](std::string_view s) { io.out << s; },
        [&](std::string_view s) {
            io.out.flush();
            io.err << s;
        });
    const std::shared_ptr<store::Session>& session = outcome.session;
    const interp::RunResult& r = outcome.result;
    io.out.flush();
    if (a.passStats) {
        for (std::size_t i = 0; i < session->compiles.size(); ++i) {
            io.err << session::formatPassStats(session->compiles[i], i);
        }
        if (session->compiles.empty()) {
            io.err << "Pass statistics: the script compiled no graph (GRAPH_MODE Cell or @jit)\n";
        }
        io.err.flush();
    }
    if (a.runStats) {
        for (std::size_t i = 0; i < session->runs.size(); ++i) {
            io.err << store::formatRunStats(session->runs[i], i);
        }
        if (session->runs.empty()) {
            io.err
                << "Run statistics: the script ran no compiled graph (GRAPH_MODE Cell or @jit)\n";
        }
        io.err.flush();
    }
    if (!a.sessionFile.empty()) {
        saveRunSession(a.sessionFile, *session, r, io.err);
    }
    return r.exitStatus;
}

std::function<Runner(CLI::App&)> runCommand() {
    return [](CLI::App& sub) -> Runner {
        auto args = std::make_shared<RunArgs>();
        sub.add_option("SCRIPT", args->script,
                       "Python script to run ('-' for standard input), or a MindIR file to "
                       "run on random inputs")
            ->required();
        sub.add_option(
            "--max-steps", args->maxSteps,
            "stop the script after this many statements and loop iterations (0: no limit)");
        sub.add_option(
            "--max-unroll", args->maxUnroll,
            "fail a compile whose for loops unroll more than this many iterations in total");
        sub.add_option("--save-graphs", args->saveGraphs,
                       "write the IR after every compile pass as .ir files into this folder "
                       "(save-graphs level 1, or MS_DEV_SAVE_GRAPHS when higher)");
        sub.add_flag("--pass-stats", args->passStats,
                     "after the script, print per compile each pass's time, node counts, change "
                     "and peak memory to stderr");
        addRunOptions(sub, args->shared);
        sub.add_option("--stats-db", args->statsDb,
                       "append this run's compile statistics to this history file ('off': "
                       "none; default: IRSCOPE_STATS_DB, else $XDG_DATA_HOME/irscope/stats.sqlite)");
        sub.add_option("--opt-bisect-limit", args->optBisectLimit,
                       "run only the first N skippable passes (opt_a's sub-passes...) over all "
                       "compiles, printing each decision to stderr as LLVM's -opt-bisect-limit "
                       "does (-1: run all, print all)")
            ->check(CLI::Range(-1, std::numeric_limits<int>::max()));
        sub.add_flag("--run-stats", args->runStats,
                     "after the script, print per graph run its device, kernels (on the device "
                     "/ fallbacks), copies, peak vs planned bytes and time to stderr");
        sub.add_option("--session", args->sessionFile,
                       "save the session (compiles with every pass's IR, runs, output) to this "
                       "file, also when the script fails; read it with 'irscope-cli session' or "
                       "the desktop app");
        return [args](Streams io) { return runScript(*args, io); };
    };
}

std::function<Runner(CLI::App&)> devicesCommand() {
    return [](CLI::App& sub) -> Runner {
        auto verbose = std::make_shared<bool>(false);
        sub.add_flag("-v,--verbose", *verbose, "also name the registry ops each device lacks");
        return [verbose](Streams io) { return listDevices(*verbose, io.out, io.err); };
    };
}

const std::vector<Command>& commands() {
    static const std::vector<Command> list = {
        {"dump", "read a .ir or .mindir file and print it as normalized .ir",
         exportCommand<dump>(false)},
        {"dot", "export a .ir or .mindir file as Graphviz DOT", exportCommand<dot>(true)},
        {"svg", "lay out a .ir or .mindir file with Graphviz and write SVG",
         exportCommand<svg>(true)},
        {"json", "export a .ir or .mindir file as JSON for other tools", exportCommand<json>(false)},
        {"info", "describe a MindIR (.mindir) file: versions, graphs, weights and their bytes, ops",
         exportCommand<info>(false)},
        {"run", "run a network script (print to stdout, tracebacks to stderr)", runCommand()},
        {"devices", "list the devices of the device plugins and their ops coverage",
         devicesCommand()},
        {"debug", "debug the graphs a network script runs, gdb-like, commands from stdin",
         [](CLI::App& sub) -> Runner {
             DebugRunner r = declareDebugCommand(sub);
             return [r](Streams io) { return r(std::cin, io.out, io.err); };
         }},
        {"diverge",
         "run a script under two settings and print the first kernel whose outputs differ",
         [](CLI::App& sub) -> Runner {
             DivergeRunner r = declareDivergeCommand(sub);
             return [r](Streams io) { return r(io.out, io.err); };
         }},
        {"bisect", "find the first compile pass whose application changes a script's result",
         [](CLI::App& sub) -> Runner {
             BisectRunner r = declareBisectCommand(sub);
             return [r](Streams io) { return r(io.out, io.err); };
         }},
        {"session", "list a saved session file (run --session), print its statistics or IR",
         [](CLI::App& sub) -> Runner {
             SessionRunner r = declareSessionCommand(sub);
             return [r](Streams io) { return r(io.out, io.err); };
         }},
        {"stats", "show the statistics history: every compile's time and sizes, per run",
         [](CLI::App& sub) -> Runner {
             StatsRunner r = declareStatsCommand(sub);
             return [r](Streams io) { return r(io.out, io.err); };
         }},
    };
    return list;
}

constexpr const char* kUsageHint =
    "usage: irscope-cli <dump|dot|svg|json|info|run|debug|diverge|bisect|devices|session|stats> "
    "FILE [options]; "
    "see 'irscope-cli --help'";

int run(int argc, char** argv, Streams io) {
    CLI::App app{"irscope-cli " IRSCOPE_VERSION
                 ": inspect and export MindSpore-style IR (.ir) without the GUI",
                 "irscope-cli"};
    app.set_version_flag("--version", std::string("irscope-cli ") + IRSCOPE_VERSION);
    app.require_subcommand(1);
    std::vector<std::pair<CLI::App*, Runner>> runners;
    for (const Command& c : commands()) {
        CLI::App* sub = app.add_subcommand(c.name, c.help);
        runners.emplace_back(sub, c.declare(*sub));
    }

    // CLI11 reports an unknown subcommand as a missing one; name it instead.
    if (argc > 1 && argv[1][0] != '-') {
        const std::string first = argv[1];
        const auto& cs = commands();
        if (std::none_of(cs.begin(), cs.end(), [&](const Command& c) { return first == c.name; })) {
            io.err << "irscope-cli: error: unknown subcommand '" << first << "'\n"
                   << kUsageHint << "\n";
            return kExitUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        io.out << app.help();
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        io.out << app.help("", CLI::AppFormatMode::All);
        return kExitOk;
    } catch (const CLI::CallForVersion& e) {
        io.out << e.what() << "\n";
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        io.err << "irscope-cli: error: " << e.what() << "\n" << kUsageHint << "\n";
        return kExitUsage;
    }

    for (auto& [sub, runner] : runners) {
        if (sub->parsed()) {
            try {
                return runner(io);
            } catch (const ParseError& e) {
                io.err << e.what() << "\n";
            } catch (const mindir::MindirError& e) {
                io.err << e.what() << "\n";
            } catch (const std::exception& e) {
                io.err << "irscope-cli: error: " << e.what() << "\n";
            }
            return kExitInputError;
        }
    }
    io.err << "irscope-cli: error: no subcommand given\n" << kUsageHint << "\n";
    return kExitUsage;
}

}  // namespace irscope::cli

int main(int argc, char** argv) {
    return irscope::cli::run(argc, argv, {std::cout, std::cerr});
}
