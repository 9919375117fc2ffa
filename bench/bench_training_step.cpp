// Training-step scaling benchmark: a GPT-like training step (tests/training_step_script.h: N
// transformer blocks, GradOperation(get_by_list=True) over every trainable parameter) run as
// `irscope-cli run` runs a script (session::ScriptRunner: compile with a snapshot after every
// pass, then the run), plain and with @lazy_inline (MS_DEV_CELL_REUSE=1).
//
// Each configuration runs in a process of its own (so peak RSS is that run's) and prints one
// row: the nodes and the computational nodes (CNodes) at the end of the compile, the main
// passes' times, the snapshots' time (the snapshot instrumentation: change detection,
// printing, compressing), the compile, the whole run's wall time and the peak RSS. After the
// table, the measures from its medians: lazy against plain at the largest size (nodes,
// CNodes, compile), the snapshots' share, the doubling into the largest size, and whether lazy
// compiles at least as fast as plain at every size.
//
//   bench_training_step                      the table: 96, 192, 384 blocks, plain and lazy
//   bench_training_step --blocks 96,384      the table for these sizes
//   bench_training_step --repeat R           each row the median of R runs (default 5), made
//                                            in R rounds of one run per row
//   bench_training_step --run N [--lazy] [--cell-reuse L] [--passes] [--raw]
//                                            one run (a row; --passes: every pass's figures;
//                                            --raw: the row as plain numbers)
//   bench_training_step --cache N [--lazy]   the compile cache: a miss then a hit on N blocks
//   bench_training_step --script N [--lazy]  print the generated script (for irscope-cli run)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "passes/settings.h"
#include "session/run_script.h"
#include "training_step_script.h"

using namespace irscope;

namespace {

struct Options {
    std::vector<int> blocks{96, 192, 384};
    int run = 0;    // --run N: one configuration in this process
    int cache = 0;  // --cache N
    int script = 0;
    bool lazy = false;
    int cellReuse = -1;
    bool passes = false;
    bool raw = false;  // --raw: the row as plain numbers, for the table's parent process
    int repeat = 5;    // --repeat R: each row is the median of R runs
};

// The columns of the table: the passes the issue names, then the totals.
const char* const kPassColumns[] = {"type_inference", "inline", "meta_fg_expand", "opt_a",
                                    "task_emit"};
// A row: nodes, cnodes, one column per pass above, then these.
constexpr std::size_t kSnapshotsColumn = 2 + std::size(kPassColumns);
constexpr std::size_t kCompileColumn = kSnapshotsColumn + 1;
constexpr std::size_t kWallColumn = kCompileColumn + 1;

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double peakRssMB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void printHeader() {
    std::printf("%7s %-6s %9s %9s", "blocks", "mode", "nodes", "cnodes");
    for (const char* p : kPassColumns) {
        std::printf(" %9.9s", p);
    }
    std::printf(" %9s %9s %9s %9s\n", "snapshots", "compile", "wall", "peak RSS");
    std::printf("%7s %-6s %9s", "", "", "");
    for (std::size_t i = 0; i < std::size(kPassColumns); ++i) {
        std::printf(" %9s", "s");
    }
    std::printf(" %9s %9s %9s %9s\n", "s", "s", "s", "MB");
}

// A row: nodes, cnodes, the pass columns, snapshots, compile, wall (s) and peak RSS (MB).
void printRow(int blocks, bool lazy, const std::vector<double>& row) {
    std::printf("%7d %-6s %9.0f %9.0f", blocks, lazy ? "lazy" : "plain", row.at(0), row.at(1));
    for (std::size_t k = 2; k + 1 < row.size(); ++k) {
        std::printf(" %9.3f", row[k]);
    }
    std::printf(" %9.0f\n", row.back());
}

session::ScriptOutcome runScript(const Options& o, int blocks, const std::string& cacheDir,
                                 double& wallMs) {
    session::ScriptOptions options;
    options.statsHistory = "off";
    options.compiler.readEnvironment = false;
    const int reuse = o.cellReuse >= 0 ? o.cellReuse : (o.lazy ? 1 : -1);
    if (reuse >= 0) {
        options.compiler.overrides.set(std::string(passes::kCellReuse), reuse);
    }
    std::string source = testing::trainingStepScript(blocks, o.lazy);
    if (!cacheDir.empty()) {
        source = "ms.set_context(enable_compile_cache=True, compile_cache_path=\"" + cacheDir +
                 "\")\n" + source;
        source = "import mindspore as ms\n" + source;
    }
    session::ScriptRunner runner;
    const auto t0 = std::chrono::steady_clock::now();
    session::ScriptOutcome out = runner.run(source, "training_step.py", options, {}, {});
    wallMs = msSince(t0);
    if (out.result.exitStatus != 0 || out.session->compiles.empty()) {
        std::fprintf(stderr, "bench_training_step: the script failed:\n%s\n",
                     out.session->output.c_str());
        std::exit(1);
    }
    return out;
}

// One configuration in this process: a row of the table (and the per-pass figures).
int runOne(const Options& o) {
    double wallMs = 0.0;
    const session::ScriptOutcome out = runScript(o, o.run, {}, wallMs);
    std::map<std::string, double> passMs;
    double compileMs = 0.0;
    double snapshotMs = 0.0;
    std::size_t nodes = 0;
    std::size_t cnodes = 0;  // the computational nodes (the seed's count)
    for (const passes::CompileRecord& c : out.session->compiles) {
        compileMs += c.totalMillis;
        // What the top-level passes do not account for is the instrumentation around them:
        // snapshots (fingerprint, printing, compressing); no dumps are asked for here.
        double inPasses = 0.0;
        for (const passes::PassSnapshot& s : c.snapshots) {
            if (s.depth == 0) {
                passMs[s.pass] += s.millis;
                inPasses += s.millis;
            }
        }
        snapshotMs += std::max(0.0, c.totalMillis - inPasses);
        if (!c.snapshots.empty()) {
            nodes = std::max(nodes, c.snapshots.back().counts().nodes);
            cnodes = std::max(cnodes, c.snapshots.back().counts().cnodes);
        }
    }
    std::vector<double> row{static_cast<double>(nodes), static_cast<double>(cnodes)};
    for (const char* p : kPassColumns) {
        row.push_back(passMs[p] / 1000.0);
    }
    for (const double v : {snapshotMs / 1000.0, compileMs / 1000.0, wallMs / 1000.0, peakRssMB()}) {
        row.push_back(v);
    }
    if (o.raw) {
        for (const double v : row) {
            std::printf("%.6f ", v);
        }
        std::printf("\n");
    } else {
        printRow(o.run, o.lazy, row);
    }
    if (o.passes) {
        for (const passes::CompileRecord& c : out.session->compiles) {
            std::printf("\n  compile of %s%s\n", c.graphName.c_str(),
                        c.fromCache ? " (from the compile cache)" : "");
            std::printf("  %-34s %10s %8s %9s %8s\n", "pass", "ms", "graphs", "nodes", "changed");
            for (const passes::PassSnapshot& s : c.snapshots) {
                std::printf(
                    "  %-34s %10.1f %8zu %9zu %8s\n",
                    (std::string(static_cast<std::size_t>(s.depth) * 2, ' ') + s.pass).c_str(),
                    s.millis, s.counts().graphs, s.counts().nodes, s.changed() ? "yes" : "");
            }
        }
        std::printf("\n  printed: %s", out.session->output.c_str());
    }
    std::fflush(stdout);
    return 0;
}

// The compile cache on N blocks: the first run stores, the second loads.
int runCache(const Options& o) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("irscope_bench_cache_" + std::to_string(static_cast<long>(getpid())));
    std::filesystem::remove_all(dir);
    std::printf("compile cache, %d blocks%s\n", o.cache, o.lazy ? ", lazy" : "");
    std::printf("%-8s %9s %9s %9s\n", "run", "compile", "wall", "from");
    for (int i = 0; i < 2; ++i) {
        double wallMs = 0.0;
        const session::ScriptOutcome out = runScript(o, o.cache, dir.string(), wallMs);
        double compileMs = 0.0;
        bool fromCache = false;
        for (const passes::CompileRecord& c : out.session->compiles) {
            compileMs += c.totalMillis + c.cacheLoadMillis;
            fromCache = fromCache || c.fromCache;
        }
        std::printf("%-8s %8.2fs %8.2fs %9s\n", i == 0 ? "first" : "second", compileMs / 1000.0,
                    wallMs / 1000.0, fromCache ? "cache" : "compile");
    }
    std::filesystem::remove_all(dir);
    return 0;
}

// Runs `args` as a child of this program (its own process, for its own peak RSS). With
// `captured`, the child's standard output is read into it instead of shared.
bool spawn(const std::vector<std::string>& args, std::string* captured = nullptr) {
    std::fflush(stdout);
    int fds[2] = {-1, -1};
    if (captured != nullptr && pipe(fds) != 0) {
        std::perror("bench_training_step: pipe");
        return false;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        std::perror("bench_training_step: fork");
        return false;
    }
    if (pid == 0) {
        if (captured != nullptr) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
        }
        std::vector<char*> argv;
        for (const std::string& a : args) {
            argv.push_back(const_cast<char*>(a.c_str()));
        }
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        std::perror("bench_training_step: exec");
        _exit(127);
    }
    if (captured != nullptr) {
        close(fds[1]);
        char buf[4096];
        for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
            if (n < 0 && errno != EINTR) {
                break;
            }
            if (n > 0) {
                captured->append(buf, static_cast<std::size_t>(n));
            }
        }
        close(fds[0]);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// One run of a configuration in a process of its own: its row as numbers.
std::optional<std::vector<double>> runRow(const char* self, int blocks, bool lazy) {
    std::vector<std::string> args{self, "--run", std::to_string(blocks), "--raw"};
    if (lazy) {
        args.emplace_back("--lazy");
    }
    std::string out;
    if (!spawn(args, &out)) {
        return std::nullopt;
    }
    std::vector<double> row;
    const char* p = out.c_str();
    for (char* end = nullptr;; p = end) {
        const double v = std::strtod(p, &end);
        if (end == p) {
            break;
        }
        row.push_back(v);
    }
    if (row.size() != kWallColumn + 2) {
        std::fprintf(stderr, "bench_training_step: unexpected row '%s'\n", out.c_str());
        return std::nullopt;
    }
    return row;
}

// Per column, the median of the runs (the machine's timing noise is a good part of a
// 0.1 s compile).
std::vector<double> medianOf(const std::vector<std::vector<double>>& runs) {
    std::vector<double> median;
    for (std::size_t k = 0; k < runs.front().size(); ++k) {
        std::vector<double> column;
        for (const std::vector<double>& row : runs) {
            column.push_back(row[k]);
        }
        std::nth_element(column.begin(), column.begin() + column.size() / 2, column.end());
        median.push_back(column[column.size() / 2]);
    }
    return median;
}

// The table: `repeat` rounds, each running every configuration once, then per configuration
// the median of its runs. Rounds rather than one configuration's runs back to back: this
// virtual machine's speed drifts by tens of percent over a minute, and a ratio between two
// rows (the doubling, lazy against plain) must compare runs made under the same conditions.
struct Table {
    using Config = std::pair<int, bool>;  // blocks, lazy
    std::map<Config, std::vector<double>> medians;
    // Per configuration, each round's row (nullopt: that run failed).
    std::map<Config, std::vector<std::optional<std::vector<double>>>> rounds;
};

Table table(const char* self, const std::vector<int>& blocks, int repeat, bool& ok) {
    Table t;
    for (int r = 0; r < repeat; ++r) {
        std::fprintf(stderr, "\rround %d of %d", r + 1, repeat);
        for (int b : blocks) {
            for (bool lazy : {false, true}) {
                std::optional<std::vector<double>> row = runRow(self, b, lazy);
                ok = ok && row.has_value();
                t.rounds[{b, lazy}].push_back(std::move(row));
            }
        }
    }
    std::fprintf(stderr, "\r%*s\r", 24, "");
    for (const auto& [config, rows] : t.rounds) {
        std::vector<std::vector<double>> made;
        for (const auto& row : rows) {
            if (row) {
                made.push_back(*row);
            }
        }
        if (!made.empty()) {
            t.medians[config] = medianOf(made);
        }
    }
    for (int b : blocks) {
        for (bool lazy : {false, true}) {
            if (const auto it = t.medians.find({b, lazy}); it != t.medians.end()) {
                printRow(b, lazy, it->second);
            }
        }
    }
    return t;
}

// The spread of the compile's doubling into `top` blocks over the rounds: each round's two
// runs were made one after the other, under the same conditions.
void printRoundsSpread(const Table& t, int top, bool lazy) {
    const auto small = t.rounds.find({top / 2, lazy});
    const auto big = t.rounds.find({top, lazy});
    if (small == t.rounds.end() || big == t.rounds.end()) {
        return;
    }
    std::vector<double> ratios;
    for (std::size_t r = 0; r < std::min(small->second.size(), big->second.size()); ++r) {
        const auto& a = small->second[r];
        const auto& b = big->second[r];
        if (a && b && (*a)[kCompileColumn] > 0.0) {
            ratios.push_back((*b)[kCompileColumn] / (*a)[kCompileColumn]);
        }
    }
    if (ratios.size() > 1) {
        const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
        std::printf(" (rounds %.2f-%.2fx)", *lo, *hi);
    }
}

// The measures from the table's medians: lazy against plain at the largest size,
// the doubling into it, the snapshots' share, and lazy against plain at every size.
void printSummary(const Table& t, const std::vector<int>& blocks) {
    const auto& rows = t.medians;
    const auto at = [&](int b, bool lazy, std::size_t k) -> std::optional<double> {
        auto it = rows.find({b, lazy});
        if (it == rows.end() || k >= it->second.size()) {
            return std::nullopt;
        }
        return it->second[k];
    };
    const int top = *std::max_element(blocks.begin(), blocks.end());
    std::printf("\nat %d blocks, lazy against plain:", top);
    const auto ratio = [&](const char* what, std::size_t k) {
        const auto plain = at(top, false, k);
        const auto lazy = at(top, true, k);
        if (plain && lazy && *plain > 0.0 && *lazy > 0.0) {
            std::printf(" %.2fx %s", *plain / *lazy, what);
        }
    };
    ratio("fewer nodes,", 0);
    ratio("fewer CNodes,", 1);
    ratio("faster compile", kCompileColumn);
    if (const auto s = at(top, false, kSnapshotsColumn), c = at(top, false, kCompileColumn); s && c && *c > 0) {
        std::printf("; snapshots %.1f%% of the plain compile", 100.0 * *s / *c);
    }
    std::printf("\n");
    if (top % 2 == 0 && rows.count({top / 2, false}) != 0) {
        std::printf("doubling %d -> %d blocks,", top / 2, top);
        for (const auto& [what, k] : {std::pair{"compile", kCompileColumn}, {"wall", kWallColumn}}) {
            std::printf(" %s:", what);
            for (bool lazy : {false, true}) {
                const auto small = at(top / 2, lazy, k);
                const auto big = at(top, lazy, k);
                if (small && big && *small > 0.0) {
                    std::printf(" %s %.2fx", lazy ? "lazy" : "plain", *big / *small);
                }
                if (k == kCompileColumn) {
                    printRoundsSpread(t, top, lazy);
                }
            }
            std::printf(k == kCompileColumn ? ";" : "\n");
        }
    }
    std::printf("lazy compiles at least as fast as plain at every size:");
    bool all = true;
    for (int b : blocks) {
        const auto plain = at(b, false, kCompileColumn);
        const auto lazy = at(b, true, kCompileColumn);
        all = all && plain && lazy && *lazy <= *plain;
    }
    std::printf(" %s\n", all ? "yes" : "no");
}

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--blocks" && hasValue) {
            o.blocks.clear();
            std::string list = argv[++i];
            for (std::size_t p = 0; p < list.size();) {
                const std::size_t comma = std::min(list.find(',', p), list.size());
                o.blocks.push_back(std::atoi(list.substr(p, comma - p).c_str()));
                p = comma + 1;
            }
        } else if (a == "--run" && hasValue) {
            o.run = std::atoi(argv[++i]);
        } else if (a == "--cache" && hasValue) {
            o.cache = std::atoi(argv[++i]);
        } else if (a == "--script" && hasValue) {
            o.script = std::atoi(argv[++i]);
        } else if (a == "--lazy") {
            o.lazy = true;
        } else if (a == "--cell-reuse" && hasValue) {
            o.cellReuse = std::atoi(argv[++i]);
        } else if (a == "--passes") {
            o.passes = true;
        } else if (a == "--raw") {
            o.raw = true;
        } else if (a == "--repeat" && hasValue) {
            o.repeat = std::atoi(argv[++i]);
        } else {
            return false;
        }
    }
    for (int b : o.blocks) {
        if (b <= 0) {
            return false;
        }
    }
    return o.run >= 0 && o.cache >= 0 && o.script >= 0 && o.repeat > 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parseArgs(argc, argv, o)) {
        std::fprintf(stderr,
                     "usage: bench_training_step [--blocks N,N...] [--repeat R] | --run N "
                     "[--lazy] [--cell-reuse 0|1|2] [--passes] [--raw] | --cache N [--lazy] | "
                     "--script N [--lazy]\n");
        return 2;
    }
    if (o.script > 0) {
        std::fputs(testing::trainingStepScript(o.script, o.lazy).c_str(), stdout);
        return 0;
    }
    if (o.run > 0) {
        return runOne(o);
    }
    if (o.cache > 0) {
        return runCache(o);
    }
    std::printf(
        "bench_training_step: GPT-like training step (hidden 8, vocab 16, sequence 6), "
        "GradOperation over all weights; lazy = @lazy_inline, MS_DEV_CELL_REUSE=1\n");
    std::printf("each row: the median of %d runs, each in its own process; the runs go in rounds "
                "of one run per row\n",
                o.repeat);
    printHeader();
    bool ok = true;
    const Table t = table(argv[0], o.blocks, o.repeat, ok);
    printSummary(t, o.blocks);
    std::printf("\n");
    ok = spawn({argv[0], "--cache", std::to_string(o.blocks.back())}) && ok;
    return ok ? 0 : 1;
}
