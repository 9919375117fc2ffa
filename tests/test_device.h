// An in-process Device for the executor's placement tests: "host memory" standing in for
// device memory, a few float32 kernels (Add, Sub, Mul, Neg, Assign; operands of one shape
// or a one-element operand), counters of what it was asked to do, and ops it can be told
// to fail (a launch throws DeviceError, as a broken plugin's would).
#pragma once

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace irscope::testing {

class HostMemory : public runtime::DeviceMemory {
public:
    explicit HostMemory(std::size_t n) : bytes_(n) {}
    std::size_t bytes() const override { return bytes_.size(); }
    std::vector<std::byte> bytes_;
};

class TestDevice : public runtime::Device {
public:
    explicit TestDevice(std::string name = "testdev") { info_.name = std::move(name); }

    std::set<std::string, std::less<>> failing;  // ops whose launches throw DeviceError
    int launches = 0;
    int allocations = 0;
    std::vector<std::string> launched;  // op names, in order

    const runtime::DeviceInfo& info() const override { return info_; }

    bool supports(std::string_view op, std::span<const ir::DType> inputs,
                  std::span<const ir::DType> outputs) const override {
        static const std::set<std::string, std::less<>> ops = {"Add", "Sub", "Mul", "Neg",
                                                               "Assign"};
        if (!ops.count(op)) {
            return false;
        }
        for (ir::DType d : inputs) {
            if (d != ir::DType::Float32) {
                return false;
            }
        }
        return outputs.size() == 1 && outputs[0] == ir::DType::Float32;
    }

    std::vector<std::string> supportedOps() const override {
        return {"Add", "Assign", "Mul", "Neg", "Sub"};
    }

    runtime::DeviceMemoryPtr allocate(std::size_t bytes) override {
        ++allocations;
        return std::make_shared<HostMemory>(bytes);
    }

    void copyToDevice(runtime::DeviceMemory& dst, const void* src, std::size_t bytes) override {
        std::memcpy(mem(dst).data(), src, bytes);
    }

    void copyToHost(void* dst, const runtime::DeviceMemory& src, std::size_t bytes) override {
        std::memcpy(dst, mem(src).data(), bytes);
    }

    void launch(const runtime::KernelLaunch& k) override {
        if (failing.count(k.op)) {
            throw runtime::DeviceError("the test device was told to fail " + k.op);
        }
        run(k);
        ++launches;  // only the launches that succeeded
        launched.push_back(k.op);
    }

    void synchronize() override {}

private:
    static void run(const runtime::KernelLaunch& k) {
        float* out = f32(k.outputs[0]);
        const std::size_t n = count(k.outputs[0]);
        if (k.op == "Neg") {
            const float* x = f32(k.inputs[0]);
            for (std::size_t i = 0; i < n; ++i) {
                out[i] = -x[i];
            }
            return;
        }
        if (k.inputs.size() < 2) {
            throw runtime::DeviceError("a binary op needs two tensors");
        }
        const float* a = f32(k.inputs[0]);
        const float* b = f32(k.inputs[1]);
        const std::size_t na = count(k.inputs[0]);
        const std::size_t nb = count(k.inputs[1]);
        if ((na != n && na != 1) || (nb != n && nb != 1)) {
            throw runtime::DeviceError("broadcasting is not supported");
        }
        for (std::size_t i = 0; i < n; ++i) {
            const float x = a[na == 1 ? 0 : i];
            const float y = b[nb == 1 ? 0 : i];
            out[i] = k.op == "Add" ? x + y : k.op == "Sub" ? x - y : k.op == "Mul" ? x * y : y;
        }
    }

    static std::vector<std::byte>& mem(runtime::DeviceMemory& m) {
        return dynamic_cast<HostMemory&>(m).bytes_;
    }
    static const std::vector<std::byte>& mem(const runtime::DeviceMemory& m) {
        return dynamic_cast<const HostMemory&>(m).bytes_;
    }
    static float* f32(const runtime::DeviceTensor& t) {
        return reinterpret_cast<float*>(mem(*t.memory).data());
    }
    static std::size_t count(const runtime::DeviceTensor& t) {
        const std::int64_t n = t.shape.elementCount();
        return n > 0 ? static_cast<std::size_t>(n) : 0;
    }

    runtime::DeviceInfo info_;
};

}  // namespace irscope::testing
