// The C ABI of the OpenCL device plugin (plugins/include/irscope_device.h): every entry
// catches what the C++ inside throws and reports it through last_error().
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cl_ops.h"
#include "cl_runtime.h"
#include "irscope_device.h"

namespace irscope_opencl {
namespace {

thread_local std::string g_error;

struct Devices {
    std::vector<DeviceSpec> specs;
    std::string enumerateError;
};

Devices& devices() {
    static Devices* d = [] {
        auto* r = new Devices;  // lives until exit: ICDs dislike late teardown
        try {
            r->specs = enumerateDevices();
        } catch (const std::exception& e) {
            r->enumerateError = e.what();
        }
        return r;
    }();
    return *d;
}

template <typename F>
irscope_status guard(F&& f) {
    try {
        f();
        return IRSCOPE_OK;
    } catch (const Unsupported& e) {
        g_error = e.what();
        return IRSCOPE_ERROR_UNSUPPORTED;
    } catch (const std::bad_alloc&) {
        g_error = "out of host memory";
        return IRSCOPE_ERROR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        g_error = e.what();
        return IRSCOPE_ERROR;
    } catch (...) {
        g_error = "unknown error";
        return IRSCOPE_ERROR;
    }
}

ClDevice& dev(irscope_device d) {
    if (!d) {
        throw PluginError("no device given");
    }
    return *reinterpret_cast<ClDevice*>(d);
}

Buffer& buf(irscope_buffer b) {
    if (!b) {
        throw PluginError("no buffer given");
    }
    return *reinterpret_cast<Buffer*>(b);
}

const DeviceSpec& spec(std::int32_t index) {
    Devices& ds = devices();
    if (!ds.enumerateError.empty()) {
        throw PluginError(ds.enumerateError);
    }
    if (index < 0 || static_cast<std::size_t>(index) >= ds.specs.size()) {
        throw PluginError("no OpenCL device " + std::to_string(index));
    }
    return ds.specs[static_cast<std::size_t>(index)];
}

const char* lastError() { return g_error.c_str(); }

irscope_status deviceCount(std::int32_t* count) {
    return guard([&] {
        Devices& ds = devices();
        if (!ds.enumerateError.empty()) {
            throw PluginError("listing the OpenCL devices failed: " + ds.enumerateError);
        }
        *count = static_cast<std::int32_t>(ds.specs.size());
    });
}

irscope_status deviceInfo(std::int32_t index, irscope_device_info* info) {
    return guard([&] {
        const DeviceSpec& s = spec(index);
        info->name = s.name.c_str();
        info->description = s.description.c_str();
        info->memory_bytes = s.memoryBytes;
    });
}

irscope_status openDevice(std::int32_t index, irscope_device* out) {
    return guard([&] {
        *out = reinterpret_cast<irscope_device>(new ClDevice(spec(index)));
    });
}

void closeDevice(irscope_device d) { delete reinterpret_cast<ClDevice*>(d); }

irscope_status opCount(irscope_device, std::int32_t* count) {
    return guard([&] { *count = static_cast<std::int32_t>(opNames().size()); });
}

irscope_status opName(irscope_device, std::int32_t index, const char** name) {
    return guard([&] {
        if (index < 0 || static_cast<std::size_t>(index) >= opNames().size()) {
            throw PluginError("no op " + std::to_string(index));
        }
        *name = opNames()[static_cast<std::size_t>(index)].c_str();
    });
}

irscope_status supports(irscope_device d, const char* op, const std::int32_t* in,
                        std::int32_t nin, const std::int32_t* out, std::int32_t nout,
                        std::int32_t* result) {
    return guard([&] {
        if (!op || nin < 0 || nout < 0 || (nin > 0 && !in) || (nout > 0 && !out)) {
            throw PluginError("supports: bad arguments");
        }
        *result = supportsOp(dev(d), op, std::span(in, static_cast<std::size_t>(nin)),
                             std::span(out, static_cast<std::size_t>(nout)))
                      ? 1
                      : 0;
    });
}

irscope_status allocBuffer(irscope_device d, std::uint64_t bytes, irscope_buffer* out) {
    return guard([&] {
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        *out = reinterpret_cast<irscope_buffer>(c.alloc(bytes));
    });
}

void freeBuffer(irscope_device d, irscope_buffer b) {
    if (d && b) {
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        c.free(reinterpret_cast<Buffer*>(b));
    }
}

irscope_status copyToDevice(irscope_device d, irscope_buffer dst, const void* src,
                            std::uint64_t bytes) {
    return guard([&] {
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        c.write(buf(dst), src, bytes);
    });
}

irscope_status copyToHost(irscope_device d, void* dst, irscope_buffer src, std::uint64_t bytes) {
    return guard([&] {
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        c.read(dst, buf(src), bytes);
    });
}

irscope_status launch(irscope_device d, const irscope_launch* l) {
    return guard([&] {
        if (!l) {
            throw PluginError("launch: no launch given");
        }
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        launchOp(c, *l);
    });
}

irscope_status synchronize(irscope_device d) {
    return guard([&] {
        ClDevice& c = dev(d);
        std::lock_guard lock(c.mutex());
        c.finish();
    });
}

}  // namespace
}  // namespace irscope_opencl

extern "C" IRSCOPE_PLUGIN_EXPORT irscope_status irscope_device_plugin_init(
    uint32_t host_abi_major, uint32_t /*host_abi_minor*/, irscope_device_plugin* table,
    size_t table_size) {
    using namespace irscope_opencl;
    if (!table || table_size < 2 * sizeof(uint32_t)) {
        return IRSCOPE_ERROR;
    }
    irscope_device_plugin t{};
    t.abi_major = IRSCOPE_DEVICE_ABI_MAJOR;
    t.abi_minor = IRSCOPE_DEVICE_ABI_MINOR;
    if (host_abi_major != IRSCOPE_DEVICE_ABI_MAJOR) {
        table->abi_major = t.abi_major;
        table->abi_minor = t.abi_minor;
        return IRSCOPE_ERROR_ABI;
    }
    t.plugin_name = "opencl";
    t.last_error = lastError;
    t.device_count = deviceCount;
    t.device_info = deviceInfo;
    t.open_device = openDevice;
    t.close_device = closeDevice;
    t.op_count = opCount;
    t.op_name = opName;
    t.supports = supports;
    t.alloc = allocBuffer;
    t.free = freeBuffer;
    t.copy_to_device = copyToDevice;
    t.copy_to_host = copyToHost;
    t.launch = launch;
    t.synchronize = synchronize;
    std::memcpy(table, &t, std::min(table_size, sizeof t));
    return IRSCOPE_OK;
}
