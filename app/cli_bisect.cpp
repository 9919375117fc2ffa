#include "cli_bisect.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>

#include "cli_run_options.h"
#include "compiler/graph_compiler.h"
#include "ir/ir_diff.h"
#include "ir/ir_text.h"
#include "session/opt_bisect_search.h"

namespace irscope::cli {

namespace {

constexpr int kExitFound = 1;
constexpr int kExitFailsWithoutPasses = 3;

struct BisectArgs {
    std::string script;
    std::string check;
    bool fullIr = false;
    std::uint64_t maxSteps = interp::Limits{}.maxSteps;
    RunOptionArgs shared;
    compiler::CompilerOptions options;
};

// Runs `command` with /bin/sh, `input` on its standard input; true when it exits with 0.
// The input goes through a pipe written with write(2): a command that exits without reading
// it all (`true`, `grep -q`) only makes the writes fail with EPIPE, which is not the
// command's verdict (stdio's pclose would report the failed flush instead of the status).
bool runCheck(const std::string& command, const std::string& input, int limit, int status) {
    ::setenv("IRSCOPE_OPT_BISECT_LIMIT", std::to_string(limit).c_str(), 1);
    ::setenv("IRSCOPE_SCRIPT_STATUS", std::to_string(status).c_str(), 1);
    // A command that does not read its input must not kill irscope with SIGPIPE.
    void (*previous)(int) = std::signal(SIGPIPE, SIG_IGN);
    std::fflush(nullptr);
    bool good = false;
    int fds[2];
    if (::pipe(fds) == 0) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        posix_spawn_file_actions_addclose(&actions, fds[1]);
        std::string shell = "/bin/sh";
        std::string dashC = "-c";
        std::string cmd = command;
        char* argv[] = {shell.data(), dashC.data(), cmd.data(), nullptr};
        pid_t pid = 0;
        const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(fds[0]);
        if (spawned == 0) {
            std::size_t done = 0;
            while (done < input.size()) {
                const ssize_t n = ::write(fds[1], input.data() + done, input.size() - done);
                if (n < 0 && errno == EINTR) {
                    continue;
                }
                if (n <= 0) {
                    break;  // EPIPE: the command stopped reading
                }
                done += static_cast<std::size_t>(n);
            }
        }
        ::close(fds[1]);
        int rc = 0;
        while (spawned == 0 && ::waitpid(pid, &rc, 0) < 0 && errno == EINTR) {
        }
        good = spawned == 0 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
    }
    std::signal(SIGPIPE, previous);
    return good;
}

std::string probeName(int limit, int total) {
    if (limit < 0) {
        return fmt::format("every pass ({})", total);
    }
    if (limit == 0) {
        return "no skippable pass";
    }
    return fmt::format("the first {}", limit);
}

// The changed lines between two IR texts, with `context` lines around each run.
void printIrChange(const std::string& before, const std::string& after, std::ostream& out) {
    std::unique_ptr<ir::Module> mb;
    std::unique_ptr<ir::Module> ma;
    try {
        mb = ir::parseIr(before, "<before>");
        ma = ir::parseIr(after, "<after>");
    } catch (const std::exception&) {
        out << "--- IR before\n" << before << "--- IR after\n" << after;
        return;
    }
    const ir::NodeMatching matching = ir::matchModules(*mb, *ma);
    const ir::TextDiff diff = ir::diffIrText(before, after, *mb, *ma, matching);
    const std::vector<std::string_view> lb = ir::splitLines(before);
    const std::vector<std::string_view> la = ir::splitLines(after);
    constexpr std::size_t kContext = 3;
    std::vector<bool> shown(diff.rows.size(), false);
    for (std::size_t i = 0; i < diff.rows.size(); ++i) {
        if (diff.rows[i].kind == ir::DiffKind::Same) {
            continue;
        }
        const std::size_t from = i >= kContext ? i - kContext : 0;
        const std::size_t to = std::min(diff.rows.size(), i + kContext + 1);
        for (std::size_t k = from; k < to; ++k) {
            shown[k] = true;
        }
    }
    bool gap = false;
    for (std::size_t i = 0; i < diff.rows.size(); ++i) {
        if (!shown[i]) {
            gap = true;
            continue;
        }
        if (gap) {
            out << "  ...\n";
            gap = false;
        }
        const ir::DiffRow& row = diff.rows[i];
        switch (row.kind) {
            case ir::DiffKind::Same:
                out << "  " << la[static_cast<std::size_t>(row.after)] << "\n";
                break;
            case ir::DiffKind::Removed:
                out << "- " << lb[static_cast<std::size_t>(row.before)] << "\n";
                break;
            case ir::DiffKind::Added:
                out << "+ " << la[static_cast<std::size_t>(row.after)] << "\n";
                break;
            case ir::DiffKind::Changed:
                out << "- " << lb[static_cast<std::size_t>(row.before)] << "\n";
                out << "+ " << la[static_cast<std::size_t>(row.after)] << "\n";
                break;
        }
    }
    out << fmt::format("({} lines changed, {} removed, {} added)\n", diff.lines.changed,
                       diff.lines.removed, diff.lines.added);
}

int bisect(BisectArgs& a, std::ostream& out, std::ostream& err) {
    if (!applyRunOptions(a.shared, a.options, err)) {
        return kExitUsage;
    }
    std::string error;
    const std::optional<std::string> read = readWholeFile(a.script, &error);
    if (!read) {
        err << "irscope-cli: error: " << error << "\n";
        return kExitUsage;
    }
    const std::string& source = *read;

    session::BisectOptions options;
    options.script.maxSteps = a.maxSteps;
    options.script.statsHistory = "off";  // the probes are not runs of the script to keep
    options.script.compiler = a.options;
    if (!a.check.empty()) {
        options.check = [&a](int limit, const session::ScriptOutcome& run) {
            return runCheck(a.check, run.session->output, limit, run.result.exitStatus);
        };
    }
    bool syntaxError = false;
    options.progress = [&](const session::BisectProbe& p) {
        if (p.result.status == interp::RunResult::Status::SyntaxError) {
            syntaxError = true;
        }
        out << fmt::format("BISECT: {} ran: {}\n", probeName(p.limit, p.passes),
                           p.good ? "good" : "bad");
        out.flush();
    };
    options.cancelled = [&] { return syntaxError; };
    const session::BisectResult r = session::bisectPasses(source, a.script, options);
    if (syntaxError) {
        err << r.probes.front().result.error;
        return kExitUsage;
    }
    switch (r.outcome) {
        case session::BisectResult::Outcome::NothingFails:
            out << fmt::format(
                "irscope: the check passes with all {} skippable passes: no pass "
                "changes the result\n",
                r.total);
            return 0;
        case session::BisectResult::Outcome::FailsWithoutPasses:
            out << "irscope: the check fails even with every skippable pass off: the "
                   "difference is not a skippable pass's doing\n";
            return kExitFailsWithoutPasses;
        case session::BisectResult::Outcome::Cancelled:
            return kExitUsage;
        case session::BisectResult::Outcome::Found:
            break;
    }
    const session::BisectCulprit& c = *r.culprit;
    out << fmt::format(
        "irscope: the first pass that changes the result: {}\n",
        passes::OptBisect::describe(c.decision).substr(std::strlen("BISECT: running ")));
    out << fmt::format("  compile {} of {} ({}{}), {} probes, {} skippable passes\n", c.compile + 1,
                       c.session ? c.session->compiles.size() : 0, c.decision.graph,
                       c.signature.empty() ? "" : " " + c.signature, r.probes.size(), r.total);
    if (c.decision.pass.find('/') != std::string::npos) {
        out << fmt::format("  round {} of its group\n", c.decision.round + 1);
    }
    if (a.fullIr) {
        out << "--- IR before it\n" << c.before << "--- IR after it\n" << c.after;
    } else {
        out << "IR before (-) and after (+) it:\n";
        printIrChange(c.before, c.after, out);
    }
    return kExitFound;
}

}  // namespace

BisectRunner declareBisectCommand(CLI::App& sub) {
    auto args = std::make_shared<BisectArgs>();
    sub.add_option("SCRIPT", args->script, "Python script whose compiles to bisect")->required();
    sub.add_option("--check", args->check,
                   "a shell command that exits with 0 for a good run (the run's output on its "
                   "stdin, IRSCOPE_OPT_BISECT_LIMIT and IRSCOPE_SCRIPT_STATUS set); default: "
                   "every compiled graph returns what it returns with every skippable pass off");
    sub.add_flag("--full-ir", args->fullIr,
                 "print the whole IR before and after the pass instead of the changed lines");
    sub.add_option("--max-steps", args->maxSteps,
                   "stop each run after this many statements and loop iterations (0: no limit)");
    addRunOptions(sub, args->shared);
    return [args](std::ostream& out, std::ostream& err) { return bisect(*args, out, err); };
}

}  // namespace irscope::cli
