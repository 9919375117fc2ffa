// Session-file benchmark: runs an example script (by default the GPT @lazy_inline example
// with MS_DEV_CELL_REUSE=1), then saves its session to a .irscope file and loads it back
// several times, printing the sizes (printed IR, compressed in memory, the file) and the
// median save and load times.
//
// What it answers: whether a session file costs more than the compressed snapshots it holds
// (it should not: the zstd bytes are stored as they are, shared texts once), and how long
// saving and opening a session take.
//
//   bench_session_file [--script FILE.py] [--cell-reuse L] [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "passes/settings.h"
#include "session/run_script.h"
#include "store/session_file.h"

using namespace irscope;

namespace {

struct Options {
    std::string script = IRSCOPE_SOURCE_DIR "/resources/examples/lazy_inline_gpt.py";
    int cellReuse = 1;  // -1: leave MS_DEV_CELL_REUSE unset
    int repeat = 9;
};

double medianMs(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        if (std::strcmp(argv[i], "--script") == 0 && more) {
            o.script = argv[++i];
        } else if (std::strcmp(argv[i], "--cell-reuse") == 0 && more) {
            o.cellReuse = std::atoi(argv[++i]);
        } else if (std::strcmp(argv[i], "--repeat") == 0 && more) {
            o.repeat = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr,
                         "usage: bench_session_file [--script FILE.py] [--cell-reuse L] "
                         "[--repeat N]\n");
            return 2;
        }
    }
    std::ifstream in(o.script, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", o.script.c_str());
        return 1;
    }
    const std::string source((std::istreambuf_iterator<char>(in)), {});
    session::ScriptOptions options;
    options.compiler.readEnvironment = false;
    if (o.cellReuse >= 0) {
        options.compiler.overrides.set(std::string(passes::kCellReuse), o.cellReuse);
    }
    session::ScriptRunner runner;
    const auto outcome = runner.run(source, o.script, std::move(options));
    const store::Session& s = *outcome.session;

    std::size_t snapshots = 0, raw = 0, compressed = 0;
    std::set<const util::CompressedText*> distinct;
    for (const auto& c : s.compiles) {
        for (const auto& p : c.snapshots) {
            ++snapshots;
            if (p.compressed() && distinct.insert(p.compressed().get()).second) {
                raw += p.rawSize();
                compressed += p.compressedSize();
            }
        }
    }

    const std::string path =
        (std::filesystem::temp_directory_path() / "bench_session_file.irscope").string();
    std::filesystem::remove(path);
    std::vector<double> saves, loads;
    std::vector<double> replaces;
    for (int i = 0; i < o.repeat; ++i) {
        std::filesystem::remove(path);
        auto t0 = std::chrono::steady_clock::now();
        store::saveSession(path, s);
        saves.push_back(msSince(t0));
        t0 = std::chrono::steady_clock::now();
        store::saveSession(path, s);  // over the session just saved
        replaces.push_back(msSince(t0));
        t0 = std::chrono::steady_clock::now();
        const store::LoadedSession loaded = store::loadSession(path);
        loads.push_back(msSince(t0));
        if (loaded.session->compiles.size() != s.compiles.size()) {
            std::fprintf(stderr, "round trip lost compiles\n");
            return 1;
        }
    }
    const auto fileSize = std::filesystem::file_size(path);
    std::filesystem::remove(path);

    std::printf(
        "session file: %s%s\n", std::filesystem::path(o.script).filename().c_str(),
        o.cellReuse >= 0 ? (" MS_DEV_CELL_REUSE=" + std::to_string(o.cellReuse)).c_str() : "");
    std::printf("  %zu compiles, %zu runs, %zu snapshots (%zu distinct texts)\n", s.compiles.size(),
                s.runs.size(), snapshots, distinct.size());
    std::printf("  printed IR %10zu bytes\n", raw);
    std::printf("  compressed %10zu bytes in memory (%.1f%% of the text)\n", compressed,
                raw ? 100.0 * static_cast<double>(compressed) / static_cast<double>(raw) : 0.0);
    std::printf("  file       %10ju bytes (%.2fx the compressed snapshots)\n",
                static_cast<std::uintmax_t>(fileSize),
                compressed ? static_cast<double>(fileSize) / static_cast<double>(compressed) : 0.0);
    std::printf(
        "  save %.2f ms to a new file, %.2f ms over the same session; load %.2f ms "
        "(checks every text); medians of %d\n",
        medianMs(saves), medianMs(replaces), medianMs(loads), o.repeat);
    return 0;
}
