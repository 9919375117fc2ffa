// irscope-cli debug: the command loop over runtime::Debugger (see cli_debug.h).
#include "cli_debug.h"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stop_token>
#include <string>
#include <vector>

#include "cli_mindir_run.h"
#include "cli_run_options.h"
#include "runtime/debugger.h"
#include "session/run_script.h"

namespace irscope::cli {

namespace {

using runtime::DebugError;
using runtime::Debugger;
using Mode = Debugger::Mode;

struct DebugArgs {
    std::string script;
    std::uint64_t maxSteps = interp::Limits{}.maxSteps;
    std::size_t maxUnroll = compiler::CompileLimits{}.maxUnroll;
    RunOptionArgs shared;  // --load-elim, --cell-reuse, --device (as run has them)
    compiler::CompilerOptions options;  // what `shared` sets, applied before the session
};

constexpr const char* kHelp =
    "Commands (a location is %N or @GRAPH:%N as the .ir listing prints nodes, an op type such\n"
    "as AddN, FILE:LINE, or a node's name or fullname):\n"
    "  run, r                  start the script (again, once it finished)\n"
    "  continue, c             run until a breakpoint or watchpoint (starts the script)\n"
    "  step, s                 run to a kernel on another source line, into graph calls\n"
    "  next, n                 run to another source line of this graph, over graph calls\n"
    "  stepi, si               run one kernel, into graph calls\n"
    "  nexti, ni               run one kernel of this graph, over graph calls\n"
    "  finish                  run until the current graph returns to its caller\n"
    "  advance LOC, until LOC  run until a kernel at LOC\n"
    "  break LOC, b LOC        stop before the kernels at LOC\n"
    "  watch LOC COND          stop after a kernel at LOC whose output meets COND:\n"
    "                          nan, inf, zero, changed, above V, below V\n"
    "  info breakpoints        list breakpoints and watchpoints with their hits\n"
    "  delete [N...]           delete breakpoints (all without N)\n"
    "  enable N..., disable N...\n"
    "  print [LOC], p [LOC]    a computed value: dtype, shape, min/max/mean and values\n"
    "                          (no LOC: the current kernel's output, or its inputs)\n"
    "  where, bt               the kernel, its graph, source line and the graph calls\n"
    "  list [source]           the execution order (or the source) around the kernel\n"
    "  kill                    stop the current graph run (the script gets RuntimeError)\n"
    "  quit, q                 leave (end of input does too)\n";

std::string trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

std::pair<std::string, std::string> splitWord(std::string_view s) {
    const std::string t = trimmed(s);
    const auto sp = t.find_first_of(" \t");
    if (sp == std::string::npos) {
        return {t, {}};
    }
    return {t.substr(0, sp), trimmed(t.substr(sp))};
}

std::string where(const ir::SourceLocation& s) {
    if (s.line <= 0) {
        return {};
    }
    return " at " + s.file + ":" + std::to_string(s.line);
}

std::optional<std::string> readFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        return std::nullopt;
    }
    std::string error;
    return readWholeFile(path, &error);
}

class DebugSession {
public:
    DebugSession(DebugArgs args, std::istream& in, std::ostream& out, std::ostream& err)
        : args_(std::move(args)), in_(in), out_(out), err_(err) {
        echo_ = &in == &std::cin && isatty(STDIN_FILENO) == 0;
    }

    int run();

private:
    bool execute(const std::string& line);  // false: quit
    void start(Debugger::Resume first);
    void resume(Debugger::Resume r);
    void waitAndReport();
    void reportStop(const runtime::StopInfo& s);
    void requireStopped() const;
    void quit();

    void cmdBreak(const std::string& rest);
    void cmdWatch(const std::string& rest);
    void cmdDelete(const std::string& rest, int action);  // 0 delete, 1 enable, 2 disable
    void cmdInfo(const std::string& rest);
    void cmdPrint(const std::string& rest);
    void cmdWhere();
    void cmdList(const std::string& rest);

    DebugArgs args_;
    std::istream& in_;
    std::ostream& out_;
    std::ostream& err_;
    bool echo_ = false;

    std::string source_;
    Debugger dbg_;
    std::unique_ptr<session::ScriptRunner> runner_;  // one per start: a runner runs once
    std::stop_source stop_;                          // the run's (quit stops the script)
    std::atomic<bool> quitting_{false};
    int exitStatus_ = 0;
    bool started_ = false;
    bool finished_ = false;
    std::uint64_t lastRun_ = 0;  // the graph run of the last reported stop
};

int DebugSession::run() {
    source_ = [&] {
        if (args_.script == "-") {
            throw std::runtime_error(
                "debug reads its commands from standard input: give the "
                "script as a file");
        }
        auto text = readFile(args_.script);
        if (!text) {
            throw std::runtime_error("cannot open " + args_.script);
        }
        if (isMindirScript(args_.script, *text)) {
            return mindirRunScript(args_.script, *text, args_.shared.decKey);
        }
        return *text;
    }();
    const std::string script = args_.script;
    const std::string text = source_;
    dbg_.setSourceLookup([script, text](std::string_view file) -> std::optional<std::string> {
        if (runtime::sourceFileMatches(script, file)) {
            return text;
        }
        return readFile(std::string(file));
    });
    dbg_.setWarningCallback([this](const std::string& w) {
        out_.flush();
        err_ << w << "\n";
        err_.flush();
    });
    out_ << "irscope debugger on " << args_.script
         << ": 'run', 'continue' or a step starts the script; 'help' lists the commands.\n";
    for (;;) {
        out_ << "(irscope) ";
        out_.flush();
        std::string line;
        if (!std::getline(in_, line)) {
            if (echo_) {
                out_ << "quit\n";
            }
            quit();
            break;
        }
        if (echo_) {
            out_ << line << "\n";
        }
        line = trimmed(line);
        if (line.empty() || line.front() == '#') {
            continue;
        }
        try {
            if (!execute(line)) {
                break;
            }
        } catch (const DebugError& e) {
            out_.flush();
            err_ << e.what() << "\n";
            err_.flush();
        }
    }
    out_.flush();
    return finished_ ? exitStatus_ : 0;
}

void DebugSession::start(Debugger::Resume first) {
    if (started_ && !finished_) {
        throw DebugError("The script is already running.");
    }
    dbg_.join();
    runner_ = std::make_unique<session::ScriptRunner>();
    session::ScriptOptions options;
    options.compiler = args_.options;
    options.compiler.limits.maxUnroll = args_.maxUnroll;
    options.compiler.observer = &dbg_;
    options.maxSteps = args_.maxSteps;
    stop_ = std::stop_source();
    options.stop = stop_.get_token();
    started_ = true;
    finished_ = false;
    exitStatus_ = 0;
    lastRun_ = 0;
    session::ScriptRunner* runner = runner_.get();
    dbg_.start(
        [this, runner, options = std::move(options)]() mutable {
            exitStatus_ = runner
                              ->run(
                                  source_, args_.script, std::move(options),
                                  [this](std::string_view s) {
                                      if (!quitting_) {
                                          out_ << s;
                                      }
                                  },
                                  [this](std::string_view s) {
                                      if (!quitting_) {
                                          out_.flush();
                                          err_ << s;
                                          err_.flush();
                                      }
                                  })
                              .result.exitStatus;
        },
        first, stop_.get_token());
    waitAndReport();
}

void DebugSession::resume(Debugger::Resume r) {
    if (finished_) {
        throw DebugError("The script is not running; 'run' starts it again.");
    }
    if (!started_) {
        if (r.mode == Mode::Finish) {
            throw DebugError("The script is not running.");
        }
        start(std::move(r));
        return;
    }
    const std::optional<runtime::StopInfo> s = dbg_.stopInfo();
    dbg_.resume(r);
    if (r.mode == Mode::Finish && s) {
        out_ << "Run till exit from @" << s->graph << "\n";
    }
    waitAndReport();
}

void DebugSession::waitAndReport() {
    out_.flush();
    const Debugger::State st = dbg_.wait();
    if (st == Debugger::State::Stopped) {
        if (const auto s = dbg_.stopInfo()) {
            reportStop(*s);
        }
        return;
    }
    dbg_.join();
    finished_ = true;
    out_.flush();
    if (const std::string e = dbg_.jobError(); !e.empty()) {
        err_ << "irscope-cli: error: " << e << "\n";
        err_.flush();
    }
    out_ << "[The script finished"
         << (exitStatus_ != 0 ? " with exit status " + std::to_string(exitStatus_) : std::string())
         << "]\n";
}

void DebugSession::reportStop(const runtime::StopInfo& s) {
    if (s.run != lastRun_) {
        out_ << "Graph run " << s.run << ": @" << s.entryGraph << "\n";
        lastRun_ = s.run;
    }
    switch (s.reason) {
        case runtime::StopReason::Breakpoint:
            out_ << "Breakpoint " << s.breakpoint << ", ";
            break;
        case runtime::StopReason::Watchpoint:
            out_ << "Watchpoint " << s.breakpoint << ": " << s.nodeName << " " << s.detail << "\n";
            break;
        case runtime::StopReason::Pause:
            out_ << "Paused, ";
            break;
        default:
            break;
    }
    out_ << s.nodeLine << " in @" << s.graph << where(s.source)
         << (s.afterKernel ? " (it ran)" : "") << "\n";
    if (s.source.line > 0) {
        out_ << s.source.line << "\t" << s.source.text << "\n";
    }
    if (s.reason == runtime::StopReason::Finish) {
        const runtime::ValueInfo v = dbg_.inspect("");
        out_ << "Value returned: " << v.header << "\n";
        if (!v.values.empty()) {
            out_ << v.values << "\n";
        }
    }
}

void DebugSession::requireStopped() const {
    if (!started_ || finished_) {
        throw DebugError("The script is not running.");
    }
}

void DebugSession::quit() {
    if (started_ && !finished_) {
        quitting_ = true;
        stop_.request_stop();  // the script, its graph run and the debugger's stop
        dbg_.join();
    }
}

bool DebugSession::execute(const std::string& line) {
    const auto [cmd, rest] = splitWord(line);
    if (cmd == "help" || cmd == "h") {
        out_ << kHelp;
    } else if (cmd == "quit" || cmd == "q") {
        quit();
        return false;
    } else if (cmd == "break" || cmd == "b") {
        cmdBreak(rest);
    } else if (cmd == "watch") {
        cmdWatch(rest);
    } else if (cmd == "delete" || cmd == "d") {
        cmdDelete(rest, 0);
    } else if (cmd == "enable") {
        cmdDelete(rest, 1);
    } else if (cmd == "disable") {
        cmdDelete(rest, 2);
    } else if (cmd == "info" || cmd == "i") {
        cmdInfo(rest);
    } else if (cmd == "run" || cmd == "r") {
        start({Mode::Continue, {}});
    } else if (cmd == "continue" || cmd == "c") {
        resume({Mode::Continue, {}});
    } else if (cmd == "step" || cmd == "s") {
        resume({Mode::Step, {}});
    } else if (cmd == "next" || cmd == "n") {
        resume({Mode::Next, {}});
    } else if (cmd == "stepi" || cmd == "si") {
        resume({Mode::StepInstruction, {}});
    } else if (cmd == "nexti" || cmd == "ni") {
        resume({Mode::NextInstruction, {}});
    } else if (cmd == "finish") {
        resume({Mode::Finish, {}});
    } else if (cmd == "advance" || cmd == "until" || cmd == "u") {
        if (rest.empty()) {
            throw DebugError("Argument required (a location to run to).");
        }
        resume({Mode::Advance, rest});
    } else if (cmd == "print" || cmd == "p") {
        cmdPrint(rest);
    } else if (cmd == "where" || cmd == "bt" || cmd == "backtrace") {
        cmdWhere();
    } else if (cmd == "list" || cmd == "l") {
        cmdList(rest);
    } else if (cmd == "kill") {
        requireStopped();
        out_ << "Stopping graph run " << lastRun_ << ".\n";
        out_.flush();
        dbg_.cancel();
        waitAndReport();
    } else {
        throw DebugError("Undefined command: \"" + cmd + "\".  Try \"help\".");
    }
    return true;
}

void DebugSession::cmdBreak(const std::string& rest) {
    if (rest.empty()) {
        throw DebugError("Argument required (a location: %N, an op type, FILE:LINE or a name).");
    }
    std::string note;
    const int id = dbg_.addBreakpoint(rest, &note);
    out_ << "Breakpoint " << id << " at " << rest;
    if (const auto s = dbg_.stopInfo(); s && rest.starts_with("%")) {
        out_ << " in @" << s->graph;
    }
    out_ << (note.empty() ? "" : " (" + note + ")") << "\n";
}

void DebugSession::cmdWatch(const std::string& rest) {
    const auto [loc, cond] = splitWord(rest);
    if (loc.empty() || cond.empty()) {
        throw DebugError("Usage: watch LOCATION nan|inf|zero|changed|above V|below V");
    }
    std::string note;
    const int id = dbg_.addWatchpoint(loc, cond, &note);
    for (const runtime::Breakpoint& b : dbg_.breakpoints()) {
        if (b.id == id) {
            std::string d = b.describe();
            d[0] = 'W';
            out_ << d << (note.empty() ? "" : " (" + note + ")") << "\n";
        }
    }
}

void DebugSession::cmdDelete(const std::string& rest, int action) {
    std::vector<int> ids;
    std::istringstream words(rest);
    for (std::string w; words >> w;) {
        int id = 0;
        const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), id);
        if (ec != std::errc() || p != w.data() + w.size()) {
            throw DebugError("Bad breakpoint number '" + w + "'.");
        }
        ids.push_back(id);
    }
    if (ids.empty()) {
        if (action != 0) {
            throw DebugError("Argument required (breakpoint numbers).");
        }
        for (const runtime::Breakpoint& b : dbg_.breakpoints()) {
            dbg_.remove(b.id);
        }
        return;
    }
    for (int id : ids) {
        if (action == 0) {
            dbg_.remove(id);
        } else {
            dbg_.setEnabled(id, action == 1);
        }
    }
}

void DebugSession::cmdInfo(const std::string& rest) {
    if (rest != "breakpoints" && rest != "b" && rest != "break" && rest != "watchpoints") {
        throw DebugError("Undefined info command: \"" + rest + "\".  Try \"info breakpoints\".");
    }
    const auto points = dbg_.breakpoints();
    if (points.empty()) {
        out_ << "No breakpoints or watchpoints.\n";
        return;
    }
    out_ << fmt::format("{:<5}{:<12}{:<5}{:<6}{}\n", "Num", "Type", "Enb", "Hits", "What");
    for (const runtime::Breakpoint& b : points) {
        std::string what = b.location;
        if (!b.graph.empty()) {
            what += " in @" + b.graph;
        }
        if (b.watch) {
            what += " " + std::string(runtime::watchConditionName(b.condition));
            if (b.condition == runtime::WatchCondition::Above ||
                b.condition == runtime::WatchCondition::Below) {
                what += fmt::format(" {:g}", b.threshold);
            }
        }
        out_ << fmt::format("{:<5}{:<12}{:<5}{:<6}{}\n", b.id,
                            b.watch ? "watchpoint" : "breakpoint", b.enabled ? "y" : "n", b.hits,
                            what);
    }
}

void DebugSession::cmdPrint(const std::string& rest) {
    requireStopped();
    out_ << dbg_.inspect(rest).text();
}

void DebugSession::cmdWhere() {
    requireStopped();
    const auto s = dbg_.stopInfo();
    if (!s) {
        throw DebugError("The program is not stopped.");
    }
    out_ << "#0  " << s->nodeLine << " in @" << s->graph << where(s->source) << "\n";
    constexpr std::size_t kShown = 20;
    const std::size_t frames = s->stack.size();
    std::size_t n = 1;
    for (std::size_t i = frames; i-- > 1;) {
        if (n == kShown && i > 1) {
            out_ << "(" << i << " more frames)\n";
            break;
        }
        out_ << "#" << n++ << "  " << s->stack[i].callSite << " in @" << s->stack[i - 1].graph
             << where(s->stack[i].where) << "\n";
    }
}

void DebugSession::cmdList(const std::string& rest) {
    requireStopped();
    if (rest == "source" || rest == "src") {
        out_ << dbg_.sourceListing();
        return;
    }
    if (!rest.empty()) {
        throw DebugError("Usage: list [source]");
    }
    const auto s = dbg_.stopInfo();
    if (!s) {
        throw DebugError("The program is not stopped.");
    }
    out_ << "@" << s->graph << ", execution order (kernel " << s->index + 1 << " of "
         << s->orderSize << "):\n";
    for (const runtime::ListedKernel& k : dbg_.listing()) {
        out_ << fmt::format("{}{} {:>3}  {}", k.current ? "=>" : "  ", k.breakpoint ? "b" : " ",
                            k.index, k.line);
        if (k.source.line > 0) {
            out_ << "    # " << k.source.file << ":" << k.source.line;
        }
        out_ << "\n";
    }
}

}  // namespace

DebugRunner declareDebugCommand(CLI::App& sub) {
    auto args = std::make_shared<DebugArgs>();
    sub.add_option("SCRIPT", args->script,
                   "Python script to debug, or a MindIR file (run on seeded inputs)")
        ->required();
    sub.add_option("--max-steps", args->maxSteps,
                   "stop the script after this many statements and loop iterations (0: no limit)");
    sub.add_option("--max-unroll", args->maxUnroll,
                   "fail a compile whose for loops unroll more than this many iterations in total");
    addRunOptions(sub, args->shared);
    return [args](std::istream& in, std::ostream& out, std::ostream& err) {
        if (!applyRunOptions(args->shared, args->options, err)) {
            return kExitUsage;
        }
        DebugSession session(*args, in, out, err);
        return session.run();
    };
}

}  // namespace irscope::cli
