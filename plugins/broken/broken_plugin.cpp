// Deliberately broken device plugins for the tests of the loader and of the executor's
// CPU fallback. Built four times:
//  BROKEN_LAUNCH: a valid plugin with one device, "broken", that claims Add and Mul on
//                 Float32 and has working memory, but refuses every launch;
//  BROKEN_WRONG:  the same device as "wrong", whose launches run but compute Mul off by one
//                 (a * b + 1; Add is right): an op that differs between devices, for the
//                 first-divergence tests;
//  BROKEN_ABI:    an entry point that reports device ABI 99.0;
//  BROKEN_NOSYM:  a shared library without the entry point.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "irscope_device.h"

#if defined(BROKEN_LAUNCH) || defined(BROKEN_WRONG)
namespace {

thread_local std::string g_error;

struct Buffer {
    unsigned char* data;
    std::uint64_t bytes;
};

const char* lastError() { return g_error.c_str(); }

irscope_status deviceCount(std::int32_t* count) {
    *count = 1;
    return IRSCOPE_OK;
}

irscope_status deviceInfo(std::int32_t index, irscope_device_info* info) {
    if (index != 0) {
        g_error = "no device " + std::to_string(index);
        return IRSCOPE_ERROR;
    }
#if defined(BROKEN_WRONG)
    info->name = "wrong";
    info->description = "a test device whose Mul computes a * b + 1";
#else
    info->name = "broken";
    info->description = "a test device whose every launch fails";
#endif
    info->memory_bytes = 1 << 20;
    return IRSCOPE_OK;
}

int g_device = 0;

irscope_status openDevice(std::int32_t, irscope_device* out) {
    *out = reinterpret_cast<irscope_device>(&g_device);
    return IRSCOPE_OK;
}

void closeDevice(irscope_device) {}

const char* const kOps[] = {"Add", "Mul"};

irscope_status opCount(irscope_device, std::int32_t* count) {
    *count = 2;
    return IRSCOPE_OK;
}

irscope_status opName(irscope_device, std::int32_t index, const char** name) {
    if (index < 0 || index > 1) {
        g_error = "no op " + std::to_string(index);
        return IRSCOPE_ERROR;
    }
    *name = kOps[index];
    return IRSCOPE_OK;
}

irscope_status supports(irscope_device, const char* op, const std::int32_t* in, std::int32_t nin,
                        const std::int32_t* out, std::int32_t nout, std::int32_t* result) {
    const bool known = std::strcmp(op, "Add") == 0 || std::strcmp(op, "Mul") == 0;
    bool f32 = nin == 2 && nout == 1 && out[0] == IRSCOPE_FLOAT32;
    for (std::int32_t i = 0; i < nin; ++i) {
        f32 = f32 && in[i] == IRSCOPE_FLOAT32;
    }
    *result = known && f32 ? 1 : 0;
    return IRSCOPE_OK;
}

irscope_status allocBuffer(irscope_device, std::uint64_t bytes, irscope_buffer* out) {
    auto* b = new (std::nothrow) Buffer{static_cast<unsigned char*>(std::calloc(bytes + 1, 1)), bytes};
    if (!b || !b->data) {
        delete b;
        g_error = "out of memory";
        return IRSCOPE_ERROR_OUT_OF_MEMORY;
    }
    *out = reinterpret_cast<irscope_buffer>(b);
    return IRSCOPE_OK;
}

void freeBuffer(irscope_device, irscope_buffer buffer) {
    auto* b = reinterpret_cast<Buffer*>(buffer);
    if (b) {
        std::free(b->data);
        delete b;
    }
}

irscope_status copyToDevice(irscope_device, irscope_buffer dst, const void* src,
                            std::uint64_t bytes) {
    auto* b = reinterpret_cast<Buffer*>(dst);
    if (bytes > b->bytes) {
        g_error = "copy larger than the buffer";
        return IRSCOPE_ERROR;
    }
    std::memcpy(b->data, src, bytes);
    return IRSCOPE_OK;
}

irscope_status copyToHost(irscope_device, void* dst, irscope_buffer src, std::uint64_t bytes) {
    auto* b = reinterpret_cast<Buffer*>(src);
    if (bytes > b->bytes) {
        g_error = "copy larger than the buffer";
        return IRSCOPE_ERROR;
    }
    std::memcpy(dst, b->data, bytes);
    return IRSCOPE_OK;
}

#if defined(BROKEN_WRONG)
std::uint64_t elements(const irscope_tensor& t) {
    std::uint64_t n = 1;
    for (std::int32_t i = 0; i < t.rank; ++i) {
        n *= static_cast<std::uint64_t>(t.dims[i]);
    }
    return n;
}

irscope_status launch(irscope_device, const irscope_launch* l) {
    if (l->num_inputs != 2 || l->num_outputs != 1) {
        g_error = "two inputs and one output expected";
        return IRSCOPE_ERROR;
    }
    const std::uint64_t n = elements(l->outputs[0]);
    const std::uint64_t na = elements(l->inputs[0]);
    const std::uint64_t nb = elements(l->inputs[1]);
    if ((na != n && na != 1) || (nb != n && nb != 1)) {
        g_error = "only equal shapes or a one-element operand";
        return IRSCOPE_ERROR;
    }
    const auto* a =
        reinterpret_cast<const float*>(reinterpret_cast<Buffer*>(l->inputs[0].buffer)->data);
    const auto* b =
        reinterpret_cast<const float*>(reinterpret_cast<Buffer*>(l->inputs[1].buffer)->data);
    auto* out = reinterpret_cast<float*>(reinterpret_cast<Buffer*>(l->outputs[0].buffer)->data);
    const bool mul = std::strcmp(l->op, "Mul") == 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const float x = a[na == 1 ? 0 : i];
        const float y = b[nb == 1 ? 0 : i];
        out[i] = mul ? x * y + 1.0f : x + y;  // deliberately wrong: Mul is off by one
    }
    return IRSCOPE_OK;
}
#else
irscope_status launch(irscope_device, const irscope_launch* l) {
    g_error = std::string("deliberately broken: the launch of '") + l->op + "' is refused";
    return IRSCOPE_ERROR;
}
#endif

irscope_status synchronize(irscope_device) { return IRSCOPE_OK; }

}  // namespace

extern "C" IRSCOPE_PLUGIN_EXPORT irscope_status irscope_device_plugin_init(
    uint32_t host_abi_major, uint32_t, irscope_device_plugin* table, size_t table_size) {
    if (!table || table_size < sizeof(irscope_device_plugin)) {
        return IRSCOPE_ERROR;
    }
    if (host_abi_major != IRSCOPE_DEVICE_ABI_MAJOR) {
        table->abi_major = IRSCOPE_DEVICE_ABI_MAJOR;
        table->abi_minor = IRSCOPE_DEVICE_ABI_MINOR;
        return IRSCOPE_ERROR_ABI;
    }
#if defined(BROKEN_WRONG)
    const char* const pluginName = "wrong";
#else
    const char* const pluginName = "broken";
#endif
    *table = irscope_device_plugin{IRSCOPE_DEVICE_ABI_MAJOR,
                                   IRSCOPE_DEVICE_ABI_MINOR,
                                   pluginName,
                                   lastError,
                                   deviceCount,
                                   deviceInfo,
                                   openDevice,
                                   closeDevice,
                                   opCount,
                                   opName,
                                   supports,
                                   allocBuffer,
                                   freeBuffer,
                                   copyToDevice,
                                   copyToHost,
                                   launch,
                                   synchronize};
    return IRSCOPE_OK;
}

#elif defined(BROKEN_ABI)

extern "C" IRSCOPE_PLUGIN_EXPORT irscope_status irscope_device_plugin_init(
    uint32_t, uint32_t, irscope_device_plugin* table, size_t table_size) {
    if (table && table_size >= 2 * sizeof(uint32_t)) {
        table->abi_major = 99;  // a future irscope's ABI
        table->abi_minor = 0;
    }
    return IRSCOPE_ERROR_ABI;
}

#else  // BROKEN_NOSYM

extern "C" IRSCOPE_PLUGIN_EXPORT int irscope_not_a_device_plugin(void) { return 42; }

#endif
