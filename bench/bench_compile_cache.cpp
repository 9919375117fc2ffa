// Compile-cache benchmark: the seed's "Using the Compilation Cache" script
// (resources/examples/compile_cache_loop.py: a @jit function whose 200-iteration loop
// unrolls into 600 additions and multiplications, with set_context(enable_compile_cache=True,
// compile_cache_path="my_compile_cache")) run as a user runs it twice: the first run finds no
// cache (a miss: the whole pipeline, then the IR is stored), the second loads it (a hit: only
// task_emit). Each pair runs in a fresh folder; the script runs in-process as irscope-cli
// run does (session::ScriptRunner), without the statistics history.
//
// Printed: per run kind, the median over the pairs of the whole script's wall time and of
// the compile's time (pipeline, plus loading the cached IR on a hit), and the ratio
// second/first. The seed measured 0.636 s then 0.094 s with MindSpore: about 1/7.
//
//   bench_compile_cache [--pairs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "session/run_script.h"

using namespace irscope;

namespace {

struct Timing {
    double wallMs = 0.0;
    double compileMs = 0.0;
    bool fromCache = false;
};

Timing runOnce(const std::string& source) {
    session::ScriptOptions options;
    options.statsHistory = "off";
    options.compiler.readEnvironment = false;  // only the script's set_context counts
    session::ScriptRunner runner;
    const auto start = std::chrono::steady_clock::now();
    const session::ScriptOutcome out =
        runner.run(source, "compile_cache_loop.py", options, {}, {});
    Timing t;
    t.wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    if (out.result.exitStatus != 0 || out.session->compiles.empty()) {
        std::fprintf(stderr, "bench_compile_cache: the script failed:\n%s\n",
                     out.session->output.c_str());
        std::exit(1);
    }
    for (const passes::CompileRecord& c : out.session->compiles) {
        t.compileMs += c.totalMillis + c.cacheLoadMillis;
        t.fromCache = t.fromCache || c.fromCache;
    }
    return t;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int pairs = 7;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--pairs") == 0 && i + 1 < argc) {
            pairs = std::max(1, std::atoi(argv[++i]));
        }
    }
    const std::filesystem::path scriptPath =
        std::filesystem::path(IRSCOPE_SOURCE_DIR) / "resources/examples/compile_cache_loop.py";
    std::ifstream in(scriptPath);
    std::stringstream buf;
    buf << in.rdbuf();
    const std::string source = buf.str();
    if (source.empty()) {
        std::fprintf(stderr, "bench_compile_cache: cannot read %s\n", scriptPath.c_str());
        return 1;
    }
    char tmpl[] = "/tmp/bench_compile_cache_XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::filesystem::path root = tmpl;
    const std::filesystem::path home = std::filesystem::current_path();

    std::vector<double> firstWall, firstCompile, secondWall, secondCompile;
    for (int p = 0; p < pairs; ++p) {
        const std::filesystem::path dir = root / ("pair" + std::to_string(p));
        std::filesystem::create_directories(dir);
        std::filesystem::current_path(dir);  // compile_cache_path="my_compile_cache" is relative
        const Timing miss = runOnce(source);
        const Timing hit = runOnce(source);
        std::filesystem::current_path(home);
        if (miss.fromCache || !hit.fromCache) {
            std::fprintf(stderr, "bench_compile_cache: expected a miss then a hit\n");
            return 1;
        }
        firstWall.push_back(miss.wallMs);
        firstCompile.push_back(miss.compileMs);
        secondWall.push_back(hit.wallMs);
        secondCompile.push_back(hit.compileMs);
    }
    std::filesystem::remove_all(root);

    const double w1 = median(firstWall), w2 = median(secondWall);
    const double c1 = median(firstCompile), c2 = median(secondCompile);
    std::printf("compile cache: %s, %d run pairs (medians)\n", scriptPath.filename().c_str(),
                pairs);
    std::printf("  %-28s %12s %12s\n", "", "script ms", "compile ms");
    std::printf("  %-28s %12.1f %12.1f\n", "first run (miss, stores)", w1, c1);
    std::printf("  %-28s %12.1f %12.1f\n", "second run (hit, task_emit)", w2, c2);
    std::printf("  %-28s %11.2fx %11.2fx   (second/first: 1/%.1f and 1/%.1f; seed: 1/7)\n",
                "ratio second/first", w2 / w1, c2 / c1, w1 / w2, c1 / c2);
    return 0;
}
