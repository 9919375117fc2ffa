// Executor benchmark: what running a graph through the executor costs on top of its kernels.
//
//  1. Dispatch overhead: a chain of N tiny Adds (one-element float32 tensors) run by the
//     executor, against the same N kernel calls made directly on the op registry; the
//     difference per kernel is the executor's own cost (execution order, values, release,
//     memory accounting).
//  2. MatMul GFLOP/s: an n x n float32 MatMul through the executor, against Eigen's product
//     called directly (the registry's CPU kernel is Eigen too), and through the executor on
//     the OpenCL device when its plugin is found (copies of the inputs and the result
//     included, as a run makes them).
//
//   bench_executor [--chain N] [--repeat R]
#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "ops/op_registry.h"
#include "runtime/executor.h"
#include "runtime/plugin_loader.h"

using namespace irscope;

namespace {

using Clock = std::chrono::steady_clock;

// Best wall time of `repeat` runs of f, in seconds.
double best(int repeat, const std::function<void()>& f) {
    double out = 1e300;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = Clock::now();
        f();
        out = std::min(out, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return out;
}

std::unique_ptr<ir::Module> addChain(int n) {
    const std::string t = "<Tensor[Float32], (1)>";
    std::string text = "# IR entry: @chain\n# Params:\n%para1_x : " + t + "\n";
    text += "subgraph @chain() {\n";
    for (int i = 0; i < n; ++i) {
        const std::string in = i == 0 ? "%para1_x" : "%" + std::to_string(i - 1);
        text += "  %" + std::to_string(i) + " = Add(" + in + ", %para1_x)\n      : (" + t + ", " +
                t + ") -> (" + t + ")\n";
    }
    text += "  Return(%" + std::to_string(n - 1) + ")\n}\n";
    return ir::parseIr(text, "chain.ir");
}

std::unique_ptr<ir::Module> matmul(int n) {
    const std::string t = "<Tensor[Float32], (" + std::to_string(n) + ", " + std::to_string(n) + ")>";
    const std::string text = "# IR entry: @mm\n# Params:\n%para1_a : " + t + "\n%para2_b : " + t +
                             "\nsubgraph @mm() {\n  %0 = MatMul(%para1_a, %para2_b)\n      : (" +
                             t + ", " + t + ") -> (" + t + ")\n  Return(%0)\n}\n";
    return ir::parseIr(text, "mm.ir");
}

ir::Tensor random(ir::Shape s) {
    ir::Tensor x(ir::DType::Float32, std::move(s));
    float* p = x.data<float>();
    for (std::size_t i = 0; i < x.size(); ++i) {
        p[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f;
    }
    return x;
}

void dispatch(int n, int repeat) {
    const auto m = addChain(n);
    const ir::Tensor x = random(ir::Shape{1});
    const ops::KernelArg in[] = {ops::KernelArg(x)};
    runtime::Executor ex(*m, {});
    runtime::RunStats stats;
    ex.run(in, {}, &stats);  // warm up
    const double viaExecutor = best(repeat, [&] { ex.run(in, {}, &stats); });

    const ops::OpRegistry& reg = ops::OpRegistry::instance();
    const ops::OpDef& add = *reg.find("Add");
    const ir::AttrMap attrs;
    const double direct = best(repeat, [&] {
        ops::KernelArg acc = ops::KernelArg(x);
        for (int i = 0; i < n; ++i) {
            const ops::KernelArg args[] = {acc, ops::KernelArg(x)};
            acc = reg.run(add, attrs, args);
        }
    });
    const double perExec = viaExecutor / n * 1e9;
    const double perDirect = direct / n * 1e9;
    std::printf("dispatch: chain of %d Adds on float32 (1)\n", n);
    std::printf("  executor        %9.1f ns/kernel  (%llu kernels, peak %llu bytes)\n", perExec,
                static_cast<unsigned long long>(stats.kernels),
                static_cast<unsigned long long>(stats.peakBytes));
    std::printf("  kernel directly %9.1f ns/kernel\n", perDirect);
    std::printf("  overhead        %9.1f ns/kernel (x%.2f)\n", perExec - perDirect,
                perExec / perDirect);
}

void matmulGflops(int n, int repeat, const runtime::DevicePtr& device) {
    const auto m = matmul(n);
    const ir::Tensor a = random(ir::Shape{n, n});
    const ir::Tensor b = random(ir::Shape{n, n});
    const ops::KernelArg in[] = {ops::KernelArg(a), ops::KernelArg(b)};
    runtime::Executor ex(*m, {});
    ex.run(in, {});
    const double viaExecutor = best(repeat, [&] { ex.run(in, {}); });

    const ops::OpRegistry& reg = ops::OpRegistry::instance();
    const ops::OpDef& mm = *reg.find("MatMul");
    const ir::AttrMap attrs;
    const double kernel = best(repeat, [&] { (void)reg.run(mm, attrs, in); });

    using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::Map<const Mat> ea(a.data<float>(), n, n);
    const Eigen::Map<const Mat> eb(b.data<float>(), n, n);
    Mat ec(n, n);
    ec.noalias() = ea * eb;
    const double eigen = best(repeat, [&] { ec.noalias() = ea * eb; });
    const double flop = 2.0 * n * n * static_cast<double>(n);
    std::printf("matmul %dx%d float32: executor %7.2f GFLOP/s, registry kernel %7.2f, Eigen "
                "directly %7.2f (executor at %.1f%% of Eigen)",
                n, n, flop / viaExecutor / 1e9, flop / kernel / 1e9, flop / eigen / 1e9,
                100.0 * eigen / viaExecutor);
    if (device) {
        runtime::ExecOptions opts;
        opts.device = device;
        runtime::Executor onDevice(*m, opts);
        runtime::RunStats stats;
        onDevice.run(in, {}, &stats);  // warm up (builds the device's kernels)
        const double t = best(repeat, [&] { onDevice.run(in, {}, &stats); });
        std::printf(", executor on %s %7.2f GFLOP/s%s", device->info().name.c_str(),
                    flop / t / 1e9, stats.kernelsOnDevice == 1 ? "" : " (ran on the CPU)");
    }
    std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
    int chain = 10000;
    int repeat = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--chain") == 0) {
            chain = std::max(1, std::atoi(argv[i + 1]));
        } else if (std::strcmp(argv[i], "--repeat") == 0) {
            repeat = std::max(1, std::atoi(argv[i + 1]));
        } else {
            std::fprintf(stderr, "usage: bench_executor [--chain N] [--repeat R]\n");
            return 2;
        }
    }
    dispatch(chain, repeat);
    std::vector<std::string> errors;
    const runtime::DevicePtr opencl = runtime::findDevice("opencl", &errors);
    if (!opencl) {
        std::printf("(no OpenCL device: %s)\n", errors.empty() ? "-" : errors.front().c_str());
    }
    for (int n : {64, 256, 512}) {
        matmulGflops(n, repeat, opencl);
    }
    return 0;
}
