#include "cl_runtime.h"

#include <algorithm>

namespace irscope_opencl {

const char* clErrorName(cl_int err) {
    switch (err) {
#define IRSCOPE_CL_ERR(e) \
    case e:               \
        return #e
        IRSCOPE_CL_ERR(CL_SUCCESS);
        IRSCOPE_CL_ERR(CL_DEVICE_NOT_FOUND);
        IRSCOPE_CL_ERR(CL_DEVICE_NOT_AVAILABLE);
        IRSCOPE_CL_ERR(CL_COMPILER_NOT_AVAILABLE);
        IRSCOPE_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        IRSCOPE_CL_ERR(CL_OUT_OF_RESOURCES);
        IRSCOPE_CL_ERR(CL_OUT_OF_HOST_MEMORY);
        IRSCOPE_CL_ERR(CL_BUILD_PROGRAM_FAILURE);
        IRSCOPE_CL_ERR(CL_INVALID_VALUE);
        IRSCOPE_CL_ERR(CL_INVALID_DEVICE);
        IRSCOPE_CL_ERR(CL_INVALID_CONTEXT);
        IRSCOPE_CL_ERR(CL_INVALID_COMMAND_QUEUE);
        IRSCOPE_CL_ERR(CL_INVALID_MEM_OBJECT);
        IRSCOPE_CL_ERR(CL_INVALID_BUILD_OPTIONS);
        IRSCOPE_CL_ERR(CL_INVALID_PROGRAM);
        IRSCOPE_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE);
        IRSCOPE_CL_ERR(CL_INVALID_KERNEL_NAME);
        IRSCOPE_CL_ERR(CL_INVALID_KERNEL);
        IRSCOPE_CL_ERR(CL_INVALID_ARG_INDEX);
        IRSCOPE_CL_ERR(CL_INVALID_ARG_VALUE);
        IRSCOPE_CL_ERR(CL_INVALID_ARG_SIZE);
        IRSCOPE_CL_ERR(CL_INVALID_KERNEL_ARGS);
        IRSCOPE_CL_ERR(CL_INVALID_WORK_DIMENSION);
        IRSCOPE_CL_ERR(CL_INVALID_WORK_GROUP_SIZE);
        IRSCOPE_CL_ERR(CL_INVALID_WORK_ITEM_SIZE);
        IRSCOPE_CL_ERR(CL_INVALID_GLOBAL_OFFSET);
        IRSCOPE_CL_ERR(CL_INVALID_BUFFER_SIZE);
        IRSCOPE_CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE);
        IRSCOPE_CL_ERR(CL_INVALID_OPERATION);
        IRSCOPE_CL_ERR(CL_INVALID_PLATFORM);
        IRSCOPE_CL_ERR(CL_PLATFORM_NOT_FOUND_KHR);
#undef IRSCOPE_CL_ERR
        default:
            return "CL error";
    }
}

void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS) {
        throw PluginError(std::string(what) + " failed (" + clErrorName(err) + ", " +
                          std::to_string(err) + ")");
    }
}

namespace {

// A string property through the two-call protocol clGet*Info shares:
// get(size, buffer, &needed).
template <typename Get>
std::string infoString(Get get) {
    std::size_t n = 0;
    if (get(0, nullptr, &n) != CL_SUCCESS || n == 0) {
        return {};
    }
    std::string s(n, '\0');
    get(n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') {
        s.pop_back();
    }
    return s;
}

std::string deviceString(cl_device_id d, cl_device_info what) {
    return infoString([&](std::size_t n, void* p, std::size_t* r) {
        return clGetDeviceInfo(d, what, n, p, r);
    });
}

std::string platformString(cl_platform_id p, cl_platform_info what) {
    return infoString([&](std::size_t n, void* buf, std::size_t* r) {
        return clGetPlatformInfo(p, what, n, buf, r);
    });
}

}  // namespace

std::vector<DeviceSpec> enumerateDevices() {
    std::vector<DeviceSpec> out;
    cl_uint np = 0;
    const cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || np == 0) {
        return out;
    }
    check(err, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(np);
    check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) {
            continue;
        }
        std::vector<cl_device_id> devices(nd);
        check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr),
              "clGetDeviceIDs");
        for (cl_device_id d : devices) {
            DeviceSpec s;
            s.platform = p;
            s.device = d;
            s.name = out.empty() ? "opencl" : "opencl:" + std::to_string(out.size());
            s.description = deviceString(d, CL_DEVICE_NAME) + " (" +
                            platformString(p, CL_PLATFORM_NAME) + ", " +
                            deviceString(d, CL_DEVICE_VERSION) + ")";
            cl_ulong mem = 0;
            clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, nullptr);
            s.memoryBytes = mem;
            out.push_back(std::move(s));
        }
    }
    return out;
}

ClDevice::ClDevice(const DeviceSpec& spec) : device_(spec.device) {
    cl_int err = CL_SUCCESS;
    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(spec.platform), 0};
    context_ = clCreateContext(props, 1, &device_, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_, 0, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(context_);
        check(err, "clCreateCommandQueue");
    }
    const std::string ext = deviceString(device_, CL_DEVICE_EXTENSIONS);
    fp64_ = ext.find("cl_khr_fp64") != std::string::npos;
    fp16_ = ext.find("cl_khr_fp16") != std::string::npos;
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(device_, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr);
    // No contraction into FMA (also #pragma'd in every source): results match the CPU's.
    buildOptions_ = "-cl-std=CL1.2";
    if (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) {
        buildOptions_ += " -cl-fp32-correctly-rounded-divide-sqrt";
    }
    cl_device_type type = 0;
    clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    cpu_ = (type & CL_DEVICE_TYPE_CPU) != 0;
    cl_uint units = 1;
    clGetDeviceInfo(device_, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
    // A CPU runs one work-group per core at a time: a few groups per core, each item a
    // contiguous chunk. A GPU wants many more items in flight.
    maxItems_ = std::max<std::uint64_t>(1, units) * 64 * (cpu_ ? 4 : 16);
}

ClDevice::~ClDevice() {
    for (auto& [key, k] : kernels_) {
        clReleaseKernel(k);
    }
    for (auto& [src, p] : programs_) {
        clReleaseProgram(p);
    }
    if (queue_) {
        clReleaseCommandQueue(queue_);
    }
    if (context_) {
        clReleaseContext(context_);
    }
}

Buffer* ClDevice::alloc(std::uint64_t bytes) {
    cl_int err = CL_SUCCESS;
    // OpenCL has no empty buffers: a 0-byte tensor gets one byte nobody reads.
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, std::max<std::uint64_t>(bytes, 1),
                              nullptr, &err);
    check(err, "clCreateBuffer");
    return new Buffer{m, bytes};
}

void ClDevice::free(Buffer* b) {
    if (b) {
        clReleaseMemObject(b->mem);
        delete b;
    }
}

void ClDevice::write(Buffer& dst, const void* src, std::uint64_t bytes) {
    if (bytes > dst.bytes) {
        throw PluginError("copy of " + std::to_string(bytes) + " bytes into a buffer of " +
                          std::to_string(dst.bytes));
    }
    if (bytes != 0) {
        check(clEnqueueWriteBuffer(queue_, dst.mem, CL_TRUE, 0, bytes, src, 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    }
}

void ClDevice::read(void* dst, const Buffer& src, std::uint64_t bytes) {
    if (bytes > src.bytes) {
        throw PluginError("copy of " + std::to_string(bytes) + " bytes from a buffer of " +
                          std::to_string(src.bytes));
    }
    if (bytes != 0) {
        check(clEnqueueReadBuffer(queue_, src.mem, CL_TRUE, 0, bytes, dst, 0, nullptr, nullptr),
              "clEnqueueReadBuffer");
    }
}

void ClDevice::finish() { check(clFinish(queue_), "clFinish"); }

cl_kernel ClDevice::kernel(const std::string& source, const char* name) {
    auto it = programs_.find(source);
    if (it == programs_.end()) {
        cl_int err = CL_SUCCESS;
        const char* text = source.c_str();
        const std::size_t len = source.size();
        cl_program p = clCreateProgramWithSource(context_, 1, &text, &len, &err);
        check(err, "clCreateProgramWithSource");
        err = clBuildProgram(p, 1, &device_, buildOptions_.c_str(), nullptr, nullptr);
        if (err != CL_SUCCESS) {
            std::size_t n = 0;
            clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
            std::string log(n, '\0');
            clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
            clReleaseProgram(p);
            throw PluginError(std::string("building kernel '") + name + "' failed (" +
                              clErrorName(err) + "): " + log.substr(0, 2000));
        }
        it = programs_.emplace(source, p).first;
    }
    const auto key = std::make_pair(it->second, std::string(name));
    auto kt = kernels_.find(key);
    if (kt == kernels_.end()) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(it->second, name, &err);
        check(err, "clCreateKernel");
        kt = kernels_.emplace(key, k).first;
    }
    return kt->second;
}

void ClDevice::run1d(cl_kernel k, std::uint64_t n) {
    if (n == 0) {
        return;
    }
    constexpr std::size_t kLocal = 64;
    const std::uint64_t items = std::min<std::uint64_t>(n, maxItems_);
    const std::size_t global = static_cast<std::size_t>((items + kLocal - 1) / kLocal * kLocal);
    const std::size_t local = kLocal;
    check(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
}

void ClDevice::run3d(cl_kernel k, const std::size_t global[3], const std::size_t local[3]) {
    std::size_t g[3];
    for (int i = 0; i < 3; ++i) {
        g[i] = (global[i] + local[i] - 1) / local[i] * local[i];
        if (g[i] == 0) {
            return;
        }
    }
    check(clEnqueueNDRangeKernel(queue_, k, 3, nullptr, g, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
}

}  // namespace irscope_opencl
