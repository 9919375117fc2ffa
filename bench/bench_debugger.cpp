// Debugger overhead benchmark: what attaching runtime::Debugger costs per kernel. Compiles a
// straight chain of N small elementwise kernels (an unrolled loop), then runs the final graph
// on the executor R times in each configuration and prints the time per kernel:
//   - no observer;
//   - the debugger attached with nothing set (the fast path: one atomic load per event);
//   - with a breakpoint and a watchpoint that never match (a hash lookup per kernel);
//   - with keepValues (what irscope-cli debug runs with) and the debugger attached.
// Each configuration's fastest of 5 interleaved rounds is printed.
//
//   bench_debugger [--kernels N] [--runs R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "runtime/debugger.h"
#include "runtime/executor.h"
#include "passes/compile_record.h"

using namespace irscope;

namespace {

std::string script(int kernels) {
    return "import numpy as np\n"
           "import mindspore as ms\n"
           "from mindspore import nn, Tensor\n"
           "ms.set_context(mode=ms.GRAPH_MODE)\n"
           "class Net(nn.Cell):\n"
           "    def construct(self, x):\n"
           "        for i in range(" +
           std::to_string(kernels / 2) +
           "):\n"
           "            x = x * 1.0001\n"
           "            x = x + 0.5\n"
           "        return x\n"
           "net = Net()\n"
           "print(net(Tensor(np.ones((4,), np.float32))))\n";
}

std::unique_ptr<ir::Module> compileChain(int kernels) {
    interp::Interpreter I;
    modules::registerBuiltinModules(I);
    compiler::CompilerOptions options;
    options.readEnvironment = false;
    options.limits.maxUnroll = static_cast<std::size_t>(kernels);
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(options));
    std::string out;
    I.setOutputSink([&](std::string_view s) { out += s; });
    const interp::RunResult r = I.runScript(script(kernels), "chain.py");
    if (r.exitStatus != 0 || compiler->session().compiles.empty()) {
        std::fprintf(stderr, "bench_debugger: the chain did not compile:\n%s\n", r.error.c_str());
        std::exit(1);
    }
    const passes::PassSnapshot* last = compiler->session().compiles.back().find("task_emit", true);
    if (last == nullptr) {
        std::fprintf(stderr, "bench_debugger: no task_emit snapshot\n");
        std::exit(1);
    }
    return last->module();
}

struct Result {
    double nsPerKernel = 0.0;
    std::uint64_t kernels = 0;
};

Result timeRuns(const ir::Module& m, int runs, runtime::ExecObserver* observer, bool keepValues) {
    runtime::ExecOptions opts;
    opts.observer = observer;
    opts.keepValues = keepValues;
    runtime::Executor ex(m, opts);
    const std::vector<ops::KernelArg> inputs = {ir::Tensor::fromDoubles(
        ir::DType::Float32, ir::Shape({4}), std::vector<double>{1, 1, 1, 1})};
    const std::map<std::string, ir::Tensor, std::less<>> weights;
    runtime::RunStats warm;
    ex.run(inputs, weights, &warm);
    Result r;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) {
        runtime::RunStats stats;
        ex.run(inputs, weights, &stats);
        r.kernels += stats.kernels;
    }
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    r.nsPerKernel = r.kernels == 0 ? 0.0 : ns / static_cast<double>(r.kernels);
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    int kernels = 4000;
    int runs = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--kernels") == 0) {
            kernels = std::atoi(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--runs") == 0) {
            runs = std::atoi(argv[i + 1]);
        }
    }
    const auto m = compileChain(kernels);
    std::printf("bench_debugger: a chain of %d Mul/Add kernels on float32[4], %d runs each\n",
                kernels, runs);
    std::printf("%-52s %12s %10s\n", "configuration", "ns/kernel", "overhead");

    // The machine may be shared: each configuration is timed in 5 interleaved rounds and
    // its fastest round is kept.
    runtime::Debugger idle;
    runtime::Debugger armed;
    armed.addBreakpoint("Log");
    armed.addWatchpoint("Log", "nan");
    struct Config {
        const char* name;
        runtime::ExecObserver* observer;
        bool keepValues;
        double best = 0.0;
    };
    std::vector<Config> configs = {
        {"no observer", nullptr, false},
        {"debugger attached, nothing set", &idle, false},
        {"debugger, a breakpoint and a watchpoint (no match)", &armed, false},
        {"debugger attached, keepValues (irscope-cli debug)", &idle, true},
    };
    for (int round = 0; round < 5; ++round) {
        for (Config& c : configs) {
            const double ns = timeRuns(*m, runs, c.observer, c.keepValues).nsPerKernel;
            c.best = round == 0 ? ns : std::min(c.best, ns);
        }
    }
    for (const Config& c : configs) {
        std::printf("%-52s %12.1f %+9.1f%%\n", c.name, c.best,
                    100.0 * (c.best - configs[0].best) / configs[0].best);
    }
    return 0;
}
