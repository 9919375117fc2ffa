// The OpenCL side of the plugin: one ClDevice per OpenCL device (context, in-order queue,
// buffers, and the programs built from generated sources, compiled once and cached).
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace irscope_opencl {

// Any failure inside the plugin; the C ABI turns it into a status and last_error().
class PluginError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// A launch the plugin does not implement (op, dtypes, ranks, params).
class Unsupported : public PluginError {
public:
    using PluginError::PluginError;
};

const char* clErrorName(cl_int err);
// Throws PluginError "what failed (CL_...)" when err is not CL_SUCCESS.
void check(cl_int err, const char* what);

struct DeviceSpec {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string name;         // "opencl", "opencl:1", ...
    std::string description;  // device name (platform name)
    std::uint64_t memoryBytes = 0;
};

// Every OpenCL device of every platform (an empty list when no ICD or device exists).
std::vector<DeviceSpec> enumerateDevices();

struct Buffer {
    cl_mem mem = nullptr;
    std::uint64_t bytes = 0;
};

class ClDevice {
public:
    explicit ClDevice(const DeviceSpec& spec);
    ~ClDevice();
    ClDevice(const ClDevice&) = delete;
    ClDevice& operator=(const ClDevice&) = delete;

    bool hasFp64() const { return fp64_; }
    bool hasFp16() const { return fp16_; }
    bool isCpu() const { return cpu_; }
    cl_command_queue queue() const { return queue_; }
    cl_context context() const { return context_; }

    Buffer* alloc(std::uint64_t bytes);
    void free(Buffer* b);
    void write(Buffer& dst, const void* src, std::uint64_t bytes);
    void read(void* dst, const Buffer& src, std::uint64_t bytes);
    void finish();

    // The kernel named `name` in the program built from `source` (built at the first use,
    // then cached). Build failures carry the build log.
    cl_kernel kernel(const std::string& source, const char* name);

    // Sets the kernel's arguments and enqueues it over `n` items with a grid-stride loop
    // (the kernels loop `for (i = get_global_id(0); i < n; i += get_global_size(0))`).
    void run1d(cl_kernel k, std::uint64_t n);
    // A 2-D/3-D range of exactly global[0..2] rounded up to the local size.
    void run3d(cl_kernel k, const std::size_t global[3], const std::size_t local[3]);

    std::mutex& mutex() { return mutex_; }

private:
    cl_device_id device_ = nullptr;
    cl_context context_ = nullptr;
    cl_command_queue queue_ = nullptr;
    bool fp64_ = false;
    bool fp16_ = false;
    bool cpu_ = false;
    std::string buildOptions_;
    std::uint64_t maxItems_ = 1;
    std::map<std::string, cl_program> programs_;
    std::map<std::pair<cl_program, std::string>, cl_kernel> kernels_;
    std::mutex mutex_;
};

}  // namespace irscope_opencl
