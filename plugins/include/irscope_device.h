/* irscope device plugin ABI.
 *
 * A device plugin is a shared library exporting one C function,
 * irscope_device_plugin_init(), which fills a table of function pointers. irscope loads
 * plugins from IRSCOPE_PLUGIN_PATH and from <install>/lib/irscope/plugins (see
 * plugins/README.md). This header is all a plugin needs: it may be built out of tree.
 *
 * Versioning: a plugin is accepted when its IRSCOPE_DEVICE_ABI_MAJOR equals irscope's.
 * Minor versions only append members to irscope_device_plugin; the host reads a member
 * only when the plugin's abi_minor (and the table size it filled) covers it.
 *
 * Errors: every function that can fail returns an irscope_status; on anything but
 * IRSCOPE_OK, last_error() returns a message for the calling thread (valid until that
 * thread's next call into the plugin). No C++ exception may cross this boundary.
 *
 * Threads: irscope calls one device from one thread at a time.
 */
#ifndef IRSCOPE_DEVICE_H
#define IRSCOPE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRSCOPE_DEVICE_ABI_MAJOR 1
#define IRSCOPE_DEVICE_ABI_MINOR 0

/* The name of the entry point, for dlsym. */
#define IRSCOPE_DEVICE_PLUGIN_INIT "irscope_device_plugin_init"

#if defined(_WIN32)
#define IRSCOPE_PLUGIN_EXPORT __declspec(dllexport)
#else
#define IRSCOPE_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

typedef int32_t irscope_status;
#define IRSCOPE_OK 0
#define IRSCOPE_ERROR 1            /* anything else; see last_error() */
#define IRSCOPE_ERROR_ABI 2        /* the host's ABI major is not the plugin's */
#define IRSCOPE_ERROR_UNSUPPORTED 3 /* the op/dtypes/params are not supported */
#define IRSCOPE_ERROR_OUT_OF_MEMORY 4

/* Element types, numbered as irscope's ir::DType. Bool is one byte (0 or 1); tensors are
 * row-major and contiguous. */
typedef enum irscope_dtype {
    IRSCOPE_BOOL = 0,
    IRSCOPE_INT8 = 1,
    IRSCOPE_INT16 = 2,
    IRSCOPE_INT32 = 3,
    IRSCOPE_INT64 = 4,
    IRSCOPE_UINT8 = 5,
    IRSCOPE_UINT16 = 6,
    IRSCOPE_UINT32 = 7,
    IRSCOPE_UINT64 = 8,
    IRSCOPE_FLOAT16 = 9,
    IRSCOPE_BFLOAT16 = 10,
    IRSCOPE_FLOAT32 = 11,
    IRSCOPE_FLOAT64 = 12
} irscope_dtype;

/* Opaque handles owned by the plugin. */
typedef struct irscope_device_s* irscope_device;
typedef struct irscope_buffer_s* irscope_buffer;

typedef struct irscope_device_info {
    /* What `irscope-cli run --device NAME` takes, e.g. "opencl", "opencl:1". Unique among
     * the plugin's devices. The strings stay valid while the plugin is loaded. */
    const char* name;
    const char* description; /* e.g. "cpu-haswell (Portable Computing Language)" */
    uint64_t memory_bytes;   /* 0 when unknown */
} irscope_device_info;

/* A tensor argument of a launch. */
typedef struct irscope_tensor {
    int32_t dtype; /* irscope_dtype */
    int32_t rank;
    const int64_t* dims; /* rank entries */
    irscope_buffer buffer;
} irscope_tensor;

typedef enum irscope_param_kind {
    IRSCOPE_PARAM_BOOL = 0,   /* i is 0 or 1 */
    IRSCOPE_PARAM_INT = 1,    /* i */
    IRSCOPE_PARAM_FLOAT = 2,  /* f */
    IRSCOPE_PARAM_INTS = 3,   /* ints[0 .. count) */
    IRSCOPE_PARAM_STRING = 4  /* str (NUL-terminated) */
} irscope_param_kind;

/* A non-tensor argument, by the op's attribute or input name ("keep_dims", "axis",
 * "transpose_a", "approximate", "value"...). Constant inputs are passed this way too. */
typedef struct irscope_param {
    const char* name;
    int32_t kind; /* irscope_param_kind */
    int64_t i;
    double f;
    const int64_t* ints;
    int64_t count;
    const char* str;
} irscope_param;

typedef struct irscope_launch {
    const char* op; /* the registry's primitive name: "Add", "MatMul", "ReduceSum" */
    const irscope_tensor* inputs;
    int32_t num_inputs;
    const irscope_tensor* outputs; /* allocated by the host with their shapes */
    int32_t num_outputs;
    const irscope_param* params;
    int32_t num_params;
} irscope_launch;

/* The function table. Every member must be filled (none may be NULL). */
typedef struct irscope_device_plugin {
    /* Set by the plugin. */
    uint32_t abi_major;
    uint32_t abi_minor;
    const char* plugin_name; /* e.g. "opencl" */

    /* The message of the calling thread's last failure. Never NULL. */
    const char* (*last_error)(void);

    /* Devices. Enumerating may be slow (driver start-up); the host calls it once. */
    irscope_status (*device_count)(int32_t* count);
    irscope_status (*device_info)(int32_t index, irscope_device_info* info);
    irscope_status (*open_device)(int32_t index, irscope_device* device);
    void (*close_device)(irscope_device device);

    /* Capabilities: the ops implemented (for listings), and whether one op runs for these
     * tensor input dtypes (in order; params are not listed) producing these output dtypes.
     * supports() sets *result to 1 or 0. */
    irscope_status (*op_count)(irscope_device device, int32_t* count);
    irscope_status (*op_name)(irscope_device device, int32_t index, const char** name);
    irscope_status (*supports)(irscope_device device, const char* op, const int32_t* inputs,
                               int32_t num_inputs, const int32_t* outputs, int32_t num_outputs,
                               int32_t* result);

    /* Memory. alloc() of 0 bytes returns a valid buffer. */
    irscope_status (*alloc)(irscope_device device, uint64_t bytes, irscope_buffer* buffer);
    void (*free)(irscope_device device, irscope_buffer buffer);
    /* Copies are blocking and ordered after earlier launches. */
    irscope_status (*copy_to_device)(irscope_device device, irscope_buffer dst, const void* src,
                                     uint64_t bytes);
    irscope_status (*copy_to_host)(irscope_device device, void* dst, irscope_buffer src,
                                   uint64_t bytes);

    /* Enqueues one kernel; its results are visible to later launches and copies. */
    irscope_status (*launch)(irscope_device device, const irscope_launch* launch);
    /* Waits for everything enqueued; reports a failure of an earlier launch. */
    irscope_status (*synchronize)(irscope_device device);
} irscope_device_plugin;

/* The entry point every plugin exports. The plugin checks host_abi_major against its own
 * (IRSCOPE_ERROR_ABI on a mismatch), then fills at most table_size bytes of *table.
 * On IRSCOPE_ERROR_ABI the plugin still sets abi_major and abi_minor (the first members)
 * so that the host can name both versions; on other failures last_error may not be
 * filled yet and the host reports the status. */
typedef irscope_status (*irscope_device_plugin_init_fn)(uint32_t host_abi_major,
                                                        uint32_t host_abi_minor,
                                                        irscope_device_plugin* table,
                                                        size_t table_size);

IRSCOPE_PLUGIN_EXPORT irscope_status irscope_device_plugin_init(uint32_t host_abi_major,
                                                                uint32_t host_abi_minor,
                                                                irscope_device_plugin* table,
                                                                size_t table_size);

#ifdef __cplusplus
}
#endif

#endif /* IRSCOPE_DEVICE_H */
