// Devices the executor can place kernels on, seen from the C++ side. The CPU is not a
// Device: it is what the registry's kernels (ops/) run on, and every kernel a device does
// not support falls back to it. A device plugin (plugins/, C ABI in
// plugins/include/irscope_device.h) is wrapped into a Device by the plugin loader
// (runtime/plugin_loader.h); tests may implement Device in-process.
//
// Memory: device memory is owned by DeviceMemory handles (freed when the last handle goes).
// Shapes are static (the executor takes them from the compiled graph's abstracts). Every
// call may throw DeviceError; the executor then runs that kernel on the CPU and reports it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/types.h"

namespace irscope::runtime {

class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct DeviceInfo {
    std::string name;         // what --device takes: "opencl", "opencl:1", a plugin's name
    std::string description;  // "pthread-Intel(R) Xeon(R) ... (Portable Computing Language)"
    std::string plugin;       // the shared library it came from (empty for in-process ones)
    std::uint64_t memoryBytes = 0;  // 0 when unknown
};

// One allocation on a device. The handle is the device's own (cl_mem for OpenCL).
class DeviceMemory {
public:
    virtual ~DeviceMemory() = default;
    virtual std::size_t bytes() const = 0;
};
using DeviceMemoryPtr = std::shared_ptr<DeviceMemory>;

// A tensor resident on a device: row-major, contiguous.
struct DeviceTensor {
    ir::DType dtype = ir::DType::Float32;
    ir::Shape shape;
    DeviceMemoryPtr memory;
};

// A non-tensor argument of a kernel, by the name of the op's attribute or input ("axis",
// "keep_dims", "transpose_a"...): constant inputs are passed this way too.
using KernelParamValue = std::variant<bool, std::int64_t, double, std::vector<std::int64_t>,
                                      std::string>;
struct KernelParam {
    std::string name;
    KernelParamValue value;
};

struct KernelLaunch {
    std::string op;  // the registry's primitive name: "Add", "MatMul", "ReduceSum"
    std::span<const DeviceTensor> inputs;
    std::span<const DeviceTensor> outputs;  // allocated by the caller with their shapes
    std::span<const KernelParam> params;
};

class Device {
public:
    virtual ~Device() = default;
    virtual const DeviceInfo& info() const = 0;
    // Whether `op` runs here for inputs of these dtypes (in order; non-tensor inputs are
    // params and not listed) producing outputs of these dtypes.
    virtual bool supports(std::string_view op, std::span<const ir::DType> inputs,
                          std::span<const ir::DType> outputs) const = 0;
    // The ops this device implements, for `irscope-cli devices`.
    virtual std::vector<std::string> supportedOps() const = 0;
    virtual DeviceMemoryPtr allocate(std::size_t bytes) = 0;
    virtual void copyToDevice(DeviceMemory& dst, const void* src, std::size_t bytes) = 0;
    virtual void copyToHost(void* dst, const DeviceMemory& src, std::size_t bytes) = 0;
    // Enqueues the kernel; results are visible to later launches and copies (in order).
    virtual void launch(const KernelLaunch& k) = 0;
    virtual void synchronize() = 0;
};
using DevicePtr = std::shared_ptr<Device>;

}  // namespace irscope::runtime
