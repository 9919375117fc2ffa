// OpenCL device benchmark (the plugin in plugins/opencl, through runtime::Device as the
// executor uses it): kernel launch overhead, MatMul GFLOP/s against the registry's CPU
// kernel (Eigen GEMM) and against Eigen called directly, and elementwise bandwidth. Data
// stays resident on the device; copies are timed separately.
//
//   bench_opencl [--device NAME] [--quick]
//
// Each figure is the best of several repetitions after a warm-up (the warm-up also builds
// the kernels, which PoCL does at their first launch).
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ops/op_registry.h"
#include "runtime/plugin_loader.h"

using namespace irscope;
using runtime::DeviceTensor;
using ir::Tensor;

namespace {

using Clock = std::chrono::steady_clock;

// Best wall time in seconds of `reps` runs of f (after one warm-up run).
double best(int reps, const std::function<void()>& f) {
    f();
    double b = 1e30;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        f();
        b = std::min(b, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return b;
}

Tensor randomTensor(ir::Shape s) {
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(s.elementCount()));
    for (auto& x : v) {
        x = d(gen);
    }
    return Tensor::fromDoubles(ir::DType::Float32, std::move(s), v);
}

DeviceTensor upload(runtime::Device& dev, const Tensor& t) {
    DeviceTensor d{t.dtype(), t.shape(), dev.allocate(t.nbytes())};
    dev.copyToDevice(*d.memory, t.bytes(), t.nbytes());
    return d;
}

DeviceTensor empty(runtime::Device& dev, ir::Shape s) {
    const auto bytes = static_cast<std::size_t>(s.elementCount()) * 4;
    return {ir::DType::Float32, std::move(s), dev.allocate(bytes)};
}

}  // namespace

int main(int argc, char** argv) {
    std::string name = "opencl";
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
            name = argv[++i];
        } else if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else {
            std::fprintf(stderr, "usage: bench_opencl [--device NAME] [--quick]\n");
            return 2;
        }
    }
    std::vector<std::string> errors;
    const runtime::DevicePtr dev = runtime::findDevice(name, &errors);
    if (!dev) {
        std::fprintf(stderr, "bench_opencl: no device '%s'\n", name.c_str());
        for (const auto& e : errors) {
            std::fprintf(stderr, "  %s\n", e.c_str());
        }
        return 1;
    }
    const auto& reg = ops::OpRegistry::instance();
    std::printf("OpenCL device benchmark: %s — %s\n", dev->info().name.c_str(),
                dev->info().description.c_str());
    const int reps = quick ? 2 : 5;

    // Launch overhead: a one-element Add, enqueued back to back, then with a synchronize
    // after each launch (what one kernel costs when its result is needed at once).
    {
        const Tensor one = randomTensor(ir::Shape{1});
        const DeviceTensor a = upload(*dev, one);
        const DeviceTensor ins[] = {a, a};
        DeviceTensor out = empty(*dev, ir::Shape{1});
        const runtime::KernelLaunch k{"Add", ins, std::span(&out, 1), {}};
        const int n = quick ? 200 : 2000;
        const double queued = best(reps, [&] {
            for (int i = 0; i < n; ++i) {
                dev->launch(k);
            }
            dev->synchronize();
        });
        const double synced = best(reps, [&] {
            for (int i = 0; i < n; ++i) {
                dev->launch(k);
                dev->synchronize();
            }
        });
        const std::vector<ops::KernelArg> cpuIn = {one, one};
        const double cpu = best(reps, [&] {
            for (int i = 0; i < n; ++i) {
                reg.run("Add", cpuIn);
            }
        });
        std::printf("\nlaunch overhead (1-element Add)\n");
        std::printf("  %-34s %9.2f us/kernel\n", "opencl, queued", queued / n * 1e6);
        std::printf("  %-34s %9.2f us/kernel\n", "opencl, launch + synchronize", synced / n * 1e6);
        std::printf("  %-34s %9.2f us/kernel\n", "cpu kernel (registry dispatch)", cpu / n * 1e6);
    }

    // MatMul GFLOP/s, float32.
    std::printf("\nMatMul float32 (GFLOP/s; 2*n^3 flops)\n");
    std::printf("  %6s %12s %12s %12s\n", "n", "opencl", "cpu kernel", "eigen direct");
    const std::vector<int> sizes = quick ? std::vector<int>{128, 256} : std::vector<int>{128, 256, 512, 1024};
    for (const int n : sizes) {
        const ir::Shape s{n, n};
        const Tensor x = randomTensor(s);
        const Tensor y = randomTensor(s);
        const DeviceTensor ins[] = {upload(*dev, x), upload(*dev, y)};
        DeviceTensor out = empty(*dev, s);
        const runtime::KernelLaunch k{"MatMul", ins, std::span(&out, 1), {}};
        const int r = n >= 1024 ? std::max(1, reps / 2) : reps;
        const double tcl = best(r, [&] {
            dev->launch(k);
            dev->synchronize();
        });
        const std::vector<ops::KernelArg> cpuIn = {x, y};
        const double tcpu = best(r, [&] { reg.run("MatMul", cpuIn); });
        using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        const Eigen::Map<const Mat> ex(x.data<float>(), n, n);
        const Eigen::Map<const Mat> ey(y.data<float>(), n, n);
        Mat ez(n, n);
        const double teigen = best(r, [&] { ez.noalias() = ex * ey; });
        const double flops = 2.0 * n * n * n;
        std::printf("  %6d %12.2f %12.2f %12.2f\n", n, flops / tcl * 1e-9, flops / tcpu * 1e-9,
                    flops / teigen * 1e-9);
    }

    // Elementwise bandwidth: z = x + y over float32 vectors (12 bytes moved per element).
    std::printf("\nelementwise Add float32 (GB/s counted as 12 bytes per element)\n");
    std::printf("  %10s %12s %12s %14s\n", "elements", "opencl", "cpu kernel", "copy to device");
    const std::vector<int> lens = quick ? std::vector<int>{1 << 20} : std::vector<int>{1 << 16, 1 << 20, 1 << 22};
    for (const int n : lens) {
        const ir::Shape s{n};
        const Tensor x = randomTensor(s);
        const Tensor y = randomTensor(s);
        const DeviceTensor ins[] = {upload(*dev, x), upload(*dev, y)};
        DeviceTensor out = empty(*dev, s);
        const runtime::KernelLaunch k{"Add", ins, std::span(&out, 1), {}};
        const double tcl = best(reps, [&] {
            dev->launch(k);
            dev->synchronize();
        });
        const std::vector<ops::KernelArg> cpuIn = {x, y};
        const double tcpu = best(reps, [&] { reg.run("Add", cpuIn); });
        const double tcopy =
            best(reps, [&] { dev->copyToDevice(*ins[0].memory, x.bytes(), x.nbytes()); });
        const double bytes = 12.0 * n;
        std::printf("  %10d %12.2f %12.2f %14.2f\n", n, bytes / tcl * 1e-9, bytes / tcpu * 1e-9,
                    static_cast<double>(x.nbytes()) / tcopy * 1e-9);
    }
    return 0;
}
