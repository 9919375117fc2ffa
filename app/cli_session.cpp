#include "cli_session.h"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <ostream>
#include <set>
#include <stdexcept>

#include "frontend/interp/interpreter.h"
#include "session/pass_stats.h"
#include "store/session.h"
#include "store/session_file.h"

namespace irscope::cli {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::size_t lineCount(const std::string& text) {
    if (text.empty()) {
        return 0;
    }
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
           (text.back() == '\n' ? 0 : 1);
}

// One line of an error text: a traceback's exception line ("ValueError: ..."), otherwise the
// first line (a diagnostic starts with its location and message).
std::string errorSummary(const std::string& error) {
    std::string first;
    std::size_t start = 0;
    while (start < error.size()) {
        std::size_t end = error.find('\n', start);
        if (end == std::string::npos) {
            end = error.size();
        }
        const std::string line = error.substr(start, end - start);
        start = end + 1;
        if (line.empty()) {
            continue;
        }
        if (first.empty()) {
            first = line;
        }
        // An exception line: a dotted name, then ": ".
        const std::size_t colon = line.find(": ");
        const auto isNameChar = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
        };
        if (colon != std::string::npos && colon > 0 &&
            std::isalpha(static_cast<unsigned char>(line[0])) != 0 &&
            std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                        isNameChar)) {
            return line;
        }
    }
    return first;
}

std::string compileSummary(const store::Session& s) {
    return plural(s.compiles.size(), "compile", "compiles") + ", " +
           plural(s.runs.size(), "graph run", "graph runs");
}

struct SessionArgs {
    std::string file;
    std::size_t compile = 0;  // 1-based; 0: not given
    std::string dumpPass;
    bool passStats = false;
    bool runStats = false;
    bool output = false;
    bool script = false;
};

const passes::CompileRecord& pickCompile(const store::Session& s, const SessionArgs& a) {
    if (s.compiles.empty()) {
        throw std::runtime_error(a.file + ": the session has no compile");
    }
    const std::size_t n = a.compile == 0 ? 1 : a.compile;
    if (n > s.compiles.size()) {
        throw std::runtime_error(fmt::format("{}: no compile {} (the session has {})", a.file, n,
                                             plural(s.compiles.size(), "compile", "compiles")));
    }
    return s.compiles[n - 1];
}

void listSession(const store::LoadedSession& loaded, const SessionArgs& a, std::ostream& out) {
    const store::Session& s = *loaded.session;
    const store::SessionFileInfo& info = loaded.info;
    out << "irscope session: " << a.file << "\n";
    out << fmt::format("  saved:    {} by irscope {} (schema {})\n", info.savedAt,
                       info.irscopeVersion, info.schemaVersion);
    out << fmt::format("  script:   {} ({}, {})\n", s.scriptPath,
                       plural(lineCount(s.scriptText), "line", "lines"),
                       plural(s.scriptText.size(), "byte", "bytes"));
    if (!info.runStatus.empty()) {
        out << "  ended:    " << info.runStatus
            << (info.runError.empty() ? "" : ": " + errorSummary(info.runError)) << "\n";
    }
    out << "  settings: " << (s.settings.empty() ? "(none)" : s.settings.toString()) << "\n";
    out << "  output:   " << plural(lineCount(s.output), "line", "lines") << "\n";
    std::size_t snapshots = 0, raw = 0, compressed = 0;
    std::set<const util::CompressedText*> texts;
    for (const passes::CompileRecord& c : s.compiles) {
        for (const passes::PassSnapshot& p : c.snapshots) {
            ++snapshots;
            if (p.compressed() && texts.insert(p.compressed().get()).second) {
                raw += p.rawSize();
                compressed += p.compressedSize();
            }
        }
    }
    out << fmt::format("  IR:       {} ({}): {} bytes printed, {} compressed\n",
                       plural(snapshots, "snapshot", "snapshots"),
                       plural(texts.size(), "distinct text", "distinct texts"), raw, compressed);

    out << "\nCompiles (" << s.compiles.size() << ")\n";
    if (!s.compiles.empty()) {
        out << fmt::format("  {:>3}  {:<28} {:>6} {:>7} {:>10} {:>11}  {}\n", "#", "graph",
                           "passes", "nodes", "time ms", "peak bytes", "status");
    }
    for (std::size_t i = 0; i < s.compiles.size(); ++i) {
        const passes::CompileRecord& c = s.compiles[i];
        const std::size_t passes = static_cast<std::size_t>(
            std::count_if(c.snapshots.begin(), c.snapshots.end(),
                          [](const passes::PassSnapshot& p) { return p.depth == 0; }));
        const std::size_t nodes = c.snapshots.empty() ? 0 : c.snapshots.back().counts().nodes;
        std::string peak = "-";
        for (const passes::PassSnapshot& p : c.snapshots) {
            if (p.peakBytes) {
                peak = std::to_string(*p.peakBytes);
            }
        }
        std::string status(passes::statusName(c.status));
        if (c.status == passes::PipelineStatus::Error) {
            status += " in " + c.failedPass;
        }
        out << fmt::format("  {:>3}  {:<28} {:>6} {:>7} {:>10.2f} {:>11}  {}\n", i + 1,
                           "@" + c.graphName, passes, nodes, c.totalMillis, peak, status);
    }

    out << "\nRuns (" << s.runs.size() << ")\n";
    if (!s.runs.empty()) {
        out << fmt::format("  {:>3}  {:<28} {:>7}  {:<8} {:>11} {:>9}  {}\n", "#", "graph",
                           "compile", "device", "peak bytes", "time ms", "outputs");
    }
    for (std::size_t i = 0; i < s.runs.size(); ++i) {
        const store::RunRecord& r = s.runs[i];
        out << fmt::format("  {:>3}  {:<28} {:>7}  {:<8} {:>11} {:>9.2f}  {}\n", i + 1,
                           "@" + r.graphName, r.compile + 1, r.stats.device, r.stats.peakBytes,
                           r.stats.millis, r.error.empty() ? r.outputs : "failed: " + r.error);
    }
}

int showSession(const SessionArgs& a, std::ostream& out) {
    const store::LoadedSession loaded = store::loadSession(a.file);
    const store::Session& s = *loaded.session;
    if (!a.dumpPass.empty()) {
        const passes::CompileRecord& c = pickCompile(s, a);
        const passes::PassSnapshot* p = c.find(a.dumpPass);
        if (p == nullptr) {
            std::string passes;
            for (const std::size_t i : session::passDisplayOrder(c)) {
                passes += (passes.empty() ? "" : ", ") + c.snapshots[i].pass;
            }
            throw std::runtime_error(
                fmt::format("{}: compile {} (@{}) has no pass '{}' (passes: {})", a.file,
                            a.compile == 0 ? 1 : a.compile, c.graphName, a.dumpPass, passes));
        }
        if (!p->compressed()) {
            throw std::runtime_error(fmt::format("{}: pass '{}' of @{} left no IR ({})", a.file,
                                                 a.dumpPass, c.graphName, p->error));
        }
        out << p->text();
        return 0;
    }
    if (a.script) {
        out << s.scriptText;
        return 0;
    }
    if (a.output) {
        out << s.output;
        return 0;
    }
    if (a.passStats || a.runStats) {
        if (a.passStats) {
            for (std::size_t i = 0; i < s.compiles.size(); ++i) {
                if (a.compile == 0 || a.compile == i + 1) {
                    out << session::formatPassStats(s.compiles[i], i);
                }
            }
            if (a.compile != 0) {
                pickCompile(s, a);  // a compile the session lacks is an error
            }
        }
        if (a.runStats) {
            for (std::size_t i = 0; i < s.runs.size(); ++i) {
                out << store::formatRunStats(s.runs[i], i);
            }
        }
        return 0;
    }
    listSession(loaded, a, out);
    return 0;
}

}  // namespace

void saveRunSession(const std::string& path, const store::Session& session,
                    const interp::RunResult& result, std::ostream& err) {
    store::SaveOptions options;
    options.runStatus = store::runStatusName(result.status);
    options.runError = result.status == interp::RunResult::Status::Ok ? "" : result.error;
    store::saveSession(path, session, options);
    if (result.status == interp::RunResult::Status::Ok) {
        err << "irscope-cli: session saved to " << path << " (" << compileSummary(session) << ")\n";
    } else {
        err << "irscope-cli: the script ended early (" << options.runStatus
            << "); session saved to " << path << " with what ran before it stopped ("
            << compileSummary(session) << ")\n";
    }
}

SessionRunner declareSessionCommand(CLI::App& sub) {
    auto a = std::make_shared<SessionArgs>();
    sub.add_option("FILE", a->file, "session file to read (irscope-cli run --session FILE)")
        ->required();
    sub.add_option("--compile", a->compile,
                   "the compile (1-based) --dump-pass and --pass-stats read (default: 1 / all)")
        ->check(CLI::PositiveNumber);
    sub.add_option("--dump-pass", a->dumpPass,
                   "print the IR this pass left ('cse' a top-level pass, 'opt_a/cse' a "
                   "sub-pass)");
    sub.add_flag("--pass-stats", a->passStats, "print each compile's pass statistics");
    sub.add_flag("--run-stats", a->runStats, "print each graph run's statistics");
    sub.add_flag("--output", a->output, "print what the script printed");
    sub.add_flag("--script", a->script, "print the script");
    return [a](std::ostream& out, std::ostream&) { return showSession(*a, out); };
}

}  // namespace irscope::cli
