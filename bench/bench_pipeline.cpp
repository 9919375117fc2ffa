// Compile-pipeline benchmark: generates a GPT-like network script of N residual blocks,
// compiles it once through the whole pipeline (parse ... task_emit) and prints, per pass,
// the wall time, the node count and the snapshot's size as printed .ir text and compressed,
// then the totals and the process's peak resident memory.
//
// What it answers: how long each pass takes on a large program, and whether keeping the IR
// after every pass stays cheap (the target: the full snapshot set of a 100k-node
// program fits comfortably in memory).
//
//   bench_pipeline [--blocks N] [--width W] [--lazy-inline] [--cell-reuse L]
//
// The default (--blocks 1000) gives about 26k nodes after type_inference; --blocks 4000 gives
// about 104k; every pass grows about linearly with the blocks (bench_training_step measures the
// doubling).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "passes/settings.h"

using namespace irscope;

namespace {

struct Options {
    int blocks = 1000;
    int width = 8;
    bool lazyInline = false;
    int cellReuse = -1;  // -1: leave MS_DEV_CELL_REUSE unset
};

std::string script(const Options& o) {
    std::string s =
        "import numpy as np\n"
        "import mindspore as ms\n"
        "from mindspore import nn, ops, Tensor, lazy_inline\n"
        "ms.set_context(mode=ms.GRAPH_MODE)\n"
        "np.random.seed(0)\n"
        "class Block(nn.Cell):\n";
    if (o.lazyInline) {
        s += "    @lazy_inline\n";
    }
    s +=
        "    def __init__(self, width):\n"
        "        super().__init__()\n"
        "        self.fc1 = nn.Dense(width, width)\n"
        "        self.fc2 = nn.Dense(width, width)\n"
        "        self.relu = nn.ReLU()\n"
        "    def construct(self, x):\n"
        "        h = self.relu(self.fc1(x))\n"
        "        h = self.fc2(h) * 0.5 + x\n"
        "        return ops.tanh(h)\n"
        "class Net(nn.Cell):\n"
        "    def __init__(self, blocks, width):\n"
        "        super().__init__()\n"
        "        self.blocks = nn.CellList([Block(width) for _ in range(blocks)])\n"
        "    def construct(self, x):\n"
        "        for b in self.blocks:\n"
        "            x = b(x)\n"
        "        return x.sum()\n";
    s += "net = Net(" + std::to_string(o.blocks) + ", " + std::to_string(o.width) + ")\n";
    s += "x = Tensor(np.ones((2, " + std::to_string(o.width) + ")), ms.float32)\n";
    s += "net.compile(x)\n";
    return s;
}

long peakRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

bool parseArgs(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--blocks" && hasValue) {
            o.blocks = std::atoi(argv[++i]);
        } else if (a == "--width" && hasValue) {
            o.width = std::atoi(argv[++i]);
        } else if (a == "--lazy-inline") {
            o.lazyInline = true;
        } else if (a == "--cell-reuse" && hasValue) {
            o.cellReuse = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr,
                         "usage: bench_pipeline [--blocks N] [--width W] [--lazy-inline] "
                         "[--cell-reuse 0|1|2]\n");
            return false;
        }
    }
    return o.blocks > 0 && o.width > 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parseArgs(argc, argv, o)) {
        return 2;
    }
    interp::Interpreter I;
    std::string printed;
    I.setOutputSink([&](std::string_view s) { printed += s; });
    modules::registerBuiltinModules(I);
    compiler::CompilerOptions copts;
    copts.readEnvironment = false;
    if (o.cellReuse >= 0) {
        copts.overrides.set(std::string(passes::kCellReuse), o.cellReuse);
    }
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(copts));
    const auto t0 = std::chrono::steady_clock::now();
    const interp::RunResult r = I.runScript(script(o), "bench_net.py");
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r.status != interp::RunResult::Status::Ok) {
        std::fprintf(stderr, "bench_pipeline: the script failed:\n%s%s\n", printed.c_str(),
                     r.error.c_str());
        return 1;
    }
    const auto session = compiler->sharedSession();
    if (session->compiles.empty()) {
        std::fprintf(stderr, "bench_pipeline: nothing was compiled\n");
        return 1;
    }
    const passes::CompileRecord& rec = session->compiles.back();
    std::printf("bench_pipeline: %d blocks of width %d%s%s\n", o.blocks, o.width,
                o.lazyInline ? ", @lazy_inline" : "",
                o.cellReuse >= 0 ? (", MS_DEV_CELL_REUSE=" + std::to_string(o.cellReuse)).c_str()
                                 : "");
    std::printf("%-34s %10s %9s %9s %12s %12s\n", "pass", "ms", "graphs", "nodes", "ir bytes",
                "compressed");
    std::size_t raw = 0;
    std::size_t packed = 0;
    const util::CompressedText* previous = nullptr;
    for (const passes::PassSnapshot& s : rec.snapshots) {
        std::printf("%-34s %10.1f %9zu %9zu %12zu %12zu\n",
                    (std::string(static_cast<std::size_t>(s.depth) * 2, ' ') + s.pass).c_str(),
                    s.millis, s.counts().graphs, s.counts().nodes, s.rawSize(), s.compressedSize());
        raw += s.rawSize();
        // Unchanged passes share their predecessor's bytes: count them once.
        if (s.compressed() && s.compressed().get() != previous) {
            packed += s.compressedSize();
        }
        previous = s.compressed().get();
    }
    std::printf("\nsnapshots: %zu, %.1f MB as .ir text, %.2f MB kept (compressed, shared)\n",
                rec.snapshots.size(), static_cast<double>(raw) / 1e6,
                static_cast<double>(packed) / 1e6);
    std::printf("pipeline: %.1f ms; script with host set-up: %.1f ms; peak RSS: %.1f MB\n",
                rec.totalMillis, wallMs, static_cast<double>(peakRssKiB()) / 1024.0);
    return 0;
}
