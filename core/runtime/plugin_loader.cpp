#include "runtime/plugin_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <system_error>

#include "irscope_device.h"

namespace irscope::runtime {

namespace fs = std::filesystem;

namespace {

// The loaded library and its function table. Never unloaded: its devices and buffers may
// live until the process exits, and drivers (OpenCL ICDs) do not like being unloaded.
struct PluginLibrary {
    std::string file;
    irscope_device_plugin table{};
};
using LibraryPtr = std::shared_ptr<const PluginLibrary>;

std::string pluginMessage(const PluginLibrary& lib, irscope_status status) {
    const char* msg = lib.table.last_error ? lib.table.last_error() : nullptr;
    std::string text = msg && *msg ? msg : "";
    if (text.empty()) {
        text = "error status " + std::to_string(status);
    }
    return text;
}

// An open device of a plugin; closed when the last Device and buffer referring to it go.
struct DeviceHandle {
    LibraryPtr lib;
    irscope_device device = nullptr;
    DeviceInfo info;
    ~DeviceHandle() {
        if (device) {
            lib->table.close_device(device);
        }
    }
    [[noreturn]] void fail(const std::string& what, irscope_status status) const {
        throw DeviceError("device '" + info.name + "' (" + lib->file + "): " + what + ": " +
                          pluginMessage(*lib, status));
    }
};
using HandlePtr = std::shared_ptr<const DeviceHandle>;

class PluginMemory final : public DeviceMemory {
public:
    PluginMemory(HandlePtr h, irscope_buffer b, std::size_t bytes)
        : handle_(std::move(h)), buffer_(b), bytes_(bytes) {}
    ~PluginMemory() override { handle_->lib->table.free(handle_->device, buffer_); }
    PluginMemory(const PluginMemory&) = delete;
    PluginMemory& operator=(const PluginMemory&) = delete;
    std::size_t bytes() const override { return bytes_; }
    irscope_buffer buffer() const { return buffer_; }
    const DeviceHandle* owner() const { return handle_.get(); }

private:
    HandlePtr handle_;
    irscope_buffer buffer_;
    std::size_t bytes_;
};

class PluginDevice final : public Device {
public:
    explicit PluginDevice(HandlePtr h) : h_(std::move(h)) {
        const auto& t = h_->lib->table;
        std::int32_t n = 0;
        if (const auto s = t.op_count(h_->device, &n); s != IRSCOPE_OK) {
            h_->fail("op_count", s);
        }
        for (std::int32_t i = 0; i < n; ++i) {
            const char* name = nullptr;
            if (const auto s = t.op_name(h_->device, i, &name); s != IRSCOPE_OK) {
                h_->fail("op_name", s);
            }
            if (name) {
                ops_.emplace_back(name);
            }
        }
        std::sort(ops_.begin(), ops_.end());
        ops_.erase(std::unique(ops_.begin(), ops_.end()), ops_.end());
    }

    const DeviceInfo& info() const override { return h_->info; }

    bool supports(std::string_view op, std::span<const ir::DType> inputs,
                  std::span<const ir::DType> outputs) const override {
        std::vector<std::int32_t> in(inputs.size());
        std::vector<std::int32_t> out(outputs.size());
        std::transform(inputs.begin(), inputs.end(), in.begin(),
                       [](ir::DType d) { return static_cast<std::int32_t>(d); });
        std::transform(outputs.begin(), outputs.end(), out.begin(),
                       [](ir::DType d) { return static_cast<std::int32_t>(d); });
        const std::string name(op);
        std::int32_t result = 0;
        const auto s = h_->lib->table.supports(h_->device, name.c_str(), in.data(),
                                               static_cast<std::int32_t>(in.size()), out.data(),
                                               static_cast<std::int32_t>(out.size()), &result);
        return s == IRSCOPE_OK && result != 0;
    }

    std::vector<std::string> supportedOps() const override { return ops_; }

    DeviceMemoryPtr allocate(std::size_t bytes) override {
        irscope_buffer b = nullptr;
        if (const auto s = h_->lib->table.alloc(h_->device, bytes, &b); s != IRSCOPE_OK) {
            h_->fail("allocating " + std::to_string(bytes) + " bytes", s);
        }
        if (!b) {
            throw DeviceError("device '" + h_->info.name + "' (" + h_->lib->file +
                              "): alloc returned no buffer");
        }
        return std::make_shared<PluginMemory>(h_, b, bytes);
    }

    void copyToDevice(DeviceMemory& dst, const void* src, std::size_t bytes) override {
        const PluginMemory& m = mine(dst, "copy to device");
        checkSize(m, bytes, "copy to device");
        if (const auto s = h_->lib->table.copy_to_device(h_->device, m.buffer(), src, bytes);
            s != IRSCOPE_OK) {
            h_->fail("copy to device", s);
        }
    }

    void copyToHost(void* dst, const DeviceMemory& src, std::size_t bytes) override {
        const PluginMemory& m = mine(src, "copy to host");
        checkSize(m, bytes, "copy to host");
        if (const auto s = h_->lib->table.copy_to_host(h_->device, dst, m.buffer(), bytes);
            s != IRSCOPE_OK) {
            h_->fail("copy to host", s);
        }
    }

    void launch(const KernelLaunch& k) override {
        const std::string what = "launch of '" + k.op + "'";
        std::vector<irscope_tensor> in;
        std::vector<irscope_tensor> out;
        auto convert = [&](std::span<const DeviceTensor> ts, std::vector<irscope_tensor>& to) {
            for (const DeviceTensor& t : ts) {
                if (!t.memory) {
                    throw DeviceError("device '" + h_->info.name + "': " + what +
                                      ": a tensor has no device memory");
                }
                const PluginMemory& m = mine(*t.memory, what);
                std::size_t count = 1;
                for (const auto d : t.shape.dims) {
                    if (d < 0) {
                        throw DeviceError("device '" + h_->info.name + "': " + what +
                                          ": the shape is not static");
                    }
                    count *= static_cast<std::size_t>(d);
                }
                checkSize(m, count * ir::dtypeSize(t.dtype), what);
                to.push_back(irscope_tensor{static_cast<std::int32_t>(t.dtype),
                                            static_cast<std::int32_t>(t.shape.dims.size()),
                                            t.shape.dims.data(), m.buffer()});
            }
        };
        convert(k.inputs, in);
        convert(k.outputs, out);
        std::vector<irscope_param> params;
        for (const KernelParam& p : k.params) {
            irscope_param c{};
            c.name = p.name.c_str();
            std::visit(
                [&](const auto& v) {
                    using V = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<V, bool>) {
                        c.kind = IRSCOPE_PARAM_BOOL;
                        c.i = v ? 1 : 0;
                    } else if constexpr (std::is_same_v<V, std::int64_t>) {
                        c.kind = IRSCOPE_PARAM_INT;
                        c.i = v;
                        c.f = static_cast<double>(v);
                    } else if constexpr (std::is_same_v<V, double>) {
                        c.kind = IRSCOPE_PARAM_FLOAT;
                        c.f = v;
                    } else if constexpr (std::is_same_v<V, std::vector<std::int64_t>>) {
                        c.kind = IRSCOPE_PARAM_INTS;
                        c.ints = v.data();
                        c.count = static_cast<std::int64_t>(v.size());
                    } else {
                        c.kind = IRSCOPE_PARAM_STRING;
                        c.str = v.c_str();
                    }
                },
                p.value);
            params.push_back(c);
        }
        const irscope_launch l{k.op.c_str(),
                               in.data(),
                               static_cast<std::int32_t>(in.size()),
                               out.data(),
                               static_cast<std::int32_t>(out.size()),
                               params.data(),
                               static_cast<std::int32_t>(params.size())};
        if (const auto s = h_->lib->table.launch(h_->device, &l); s != IRSCOPE_OK) {
            h_->fail(what, s);
        }
    }

    void synchronize() override {
        if (const auto s = h_->lib->table.synchronize(h_->device); s != IRSCOPE_OK) {
            h_->fail("synchronize", s);
        }
    }

private:
    const PluginMemory& mine(const DeviceMemory& m, const std::string& what) const {
        const auto* pm = dynamic_cast<const PluginMemory*>(&m);
        if (!pm || pm->owner() != h_.get()) {
            throw DeviceError("device '" + h_->info.name + "': " + what +
                              ": the memory belongs to another device");
        }
        return *pm;
    }
    void checkSize(const PluginMemory& m, std::size_t bytes, const std::string& what) const {
        if (bytes > m.bytes()) {
            throw DeviceError("device '" + h_->info.name + "': " + what + ": " +
                              std::to_string(bytes) + " bytes do not fit a buffer of " +
                              std::to_string(m.bytes()));
        }
    }

    HandlePtr h_;
    std::vector<std::string> ops_;
};

// What loading one file gave.
struct LoadResult {
    std::vector<DevicePtr> devices;
    std::vector<std::string> errors;
};

std::string dlError() {
    const char* e = dlerror();
    return e ? e : "unknown error";
}

LoadResult loadFile(const fs::path& file) {
    LoadResult r;
    const std::string name = file.string();
    auto fail = [&](const std::string& msg) {
        r.errors.push_back("plugin " + name + ": " + msg);
        return r;
    };
    dlerror();
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        return fail("cannot be loaded: " + dlError());
    }
    void* sym = dlsym(handle, IRSCOPE_DEVICE_PLUGIN_INIT);
    if (!sym) {
        dlclose(handle);
        return fail("is not an irscope device plugin: it does not export " +
                    std::string(IRSCOPE_DEVICE_PLUGIN_INIT) + "()");
    }
    auto lib = std::make_shared<PluginLibrary>();
    lib->file = name;
    auto init = reinterpret_cast<irscope_device_plugin_init_fn>(sym);
    const irscope_status s = init(IRSCOPE_DEVICE_ABI_MAJOR, IRSCOPE_DEVICE_ABI_MINOR, &lib->table,
                                  sizeof(irscope_device_plugin));
    const std::string abiText = "it was built for device ABI " +
                                std::to_string(lib->table.abi_major) + "." +
                                std::to_string(lib->table.abi_minor) + ", irscope has " +
                                std::to_string(IRSCOPE_DEVICE_ABI_MAJOR) + "." +
                                std::to_string(IRSCOPE_DEVICE_ABI_MINOR);
    if (s == IRSCOPE_ERROR_ABI ||
        (s == IRSCOPE_OK && lib->table.abi_major != IRSCOPE_DEVICE_ABI_MAJOR)) {
        return fail("has an incompatible ABI: " + abiText);
    }
    if (s != IRSCOPE_OK) {
        const char* msg = lib->table.last_error ? lib->table.last_error() : nullptr;
        return fail("initialization failed: " +
                    (msg && *msg ? std::string(msg) : "error status " + std::to_string(s)));
    }
    const auto& t = lib->table;
    if (!t.last_error || !t.device_count || !t.device_info || !t.open_device || !t.close_device ||
        !t.op_count || !t.op_name || !t.supports || !t.alloc || !t.free || !t.copy_to_device ||
        !t.copy_to_host || !t.launch || !t.synchronize) {
        return fail("left functions of its table empty");
    }
    std::int32_t count = 0;
    if (const auto cs = t.device_count(&count); cs != IRSCOPE_OK) {
        return fail("listing its devices failed: " + pluginMessage(*lib, cs));
    }
    for (std::int32_t i = 0; i < count; ++i) {
        irscope_device_info info{};
        if (const auto is = t.device_info(i, &info); is != IRSCOPE_OK) {
            r.errors.push_back("plugin " + name + ": device " + std::to_string(i) +
                               ": no information: " + pluginMessage(*lib, is));
            continue;
        }
        auto h = std::make_shared<DeviceHandle>();
        h->lib = lib;
        h->info.name = info.name ? info.name : "";
        h->info.description = info.description ? info.description : "";
        h->info.plugin = name;
        h->info.memoryBytes = info.memory_bytes;
        if (h->info.name.empty()) {
            r.errors.push_back("plugin " + name + ": device " + std::to_string(i) +
                               " has no name");
            continue;
        }
        if (const auto os = t.open_device(i, &h->device); os != IRSCOPE_OK || !h->device) {
            h->device = nullptr;
            r.errors.push_back("plugin " + name + ": device '" + h->info.name +
                               "' cannot be opened: " + pluginMessage(*lib, os));
            continue;
        }
        try {
            r.devices.push_back(std::make_shared<PluginDevice>(h));
        } catch (const DeviceError& e) {
            r.errors.push_back("plugin " + name + ": " + e.what());
        }
    }
    if (count == 0) {
        r.errors.push_back("plugin " + name + ": no device found");
    }
    return r;
}

// Loaded plugins by real path. Deliberately never destroyed (see PluginLibrary).
struct Cache {
    std::mutex mutex;
    std::map<std::string, LoadResult> byPath;
};
Cache& cache() {
    static auto* c = new Cache;
    return *c;
}

const LoadResult& loadCached(const fs::path& file) {
    std::error_code ec;
    fs::path real = fs::canonical(file, ec);
    if (ec) {
        real = file;
    }
    Cache& c = cache();
    auto it = c.byPath.find(real.string());
    if (it == c.byPath.end()) {
        it = c.byPath.emplace(real.string(), loadFile(real)).first;
    }
    return it->second;
}

bool isLibrary(const fs::path& p) {
    const std::string n = p.filename().string();
    return n.size() > 3 && (n.ends_with(".so") || n.find(".so.") != std::string::npos ||
                            n.ends_with(".dylib"));
}

fs::path exeDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

}  // namespace

namespace {

// The entries of IRSCOPE_PLUGIN_PATH, in order.
std::vector<fs::path> envPluginPath() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("IRSCOPE_PLUGIN_PATH")) {
        std::string_view s(env);
        while (!s.empty()) {
            const auto colon = s.find(':');
            const std::string_view part = s.substr(0, colon);
            if (!part.empty()) {
                out.emplace_back(part);
            }
            if (colon == std::string_view::npos) {
                break;
            }
            s.remove_prefix(colon + 1);
        }
    }
    return out;
}

}  // namespace

std::vector<fs::path> pluginSearchPath() {
    std::vector<fs::path> out = envPluginPath();
    if (const fs::path dir = exeDir(); !dir.empty()) {
        out.push_back((dir / ".." / "lib" / "irscope" / "plugins").lexically_normal());
    }
    return out;
}

PluginScan loadDevicePlugin(const fs::path& file) {
    std::lock_guard lock(cache().mutex);
    const LoadResult& r = loadCached(file);
    return {r.devices, r.errors};
}

PluginScan scanDevicePlugins() {
    PluginScan scan;
    std::vector<fs::path> files;
    const auto path = pluginSearchPath();
    const std::size_t fromEnv = envPluginPath().size();  // the first entries; then the install's
    for (std::size_t i = 0; i < path.size(); ++i) {
        const fs::path& p = path[i];
        const bool installDir = i >= fromEnv;
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<fs::path> inDir;
            for (const auto& e : fs::directory_iterator(p, ec)) {
                if (isLibrary(e.path()) && e.is_regular_file(ec)) {
                    inDir.push_back(e.path());
                }
            }
            std::sort(inDir.begin(), inDir.end());
            files.insert(files.end(), inDir.begin(), inDir.end());
        } else if (fs::exists(p, ec)) {
            files.push_back(p);
        } else if (!installDir) {
            scan.errors.push_back("IRSCOPE_PLUGIN_PATH: " + p.string() + " does not exist");
        }
    }
    std::lock_guard lock(cache().mutex);
    std::vector<std::string> seen;
    for (const fs::path& f : files) {
        std::error_code ec;
        const std::string real = fs::weakly_canonical(f, ec).string();
        if (std::find(seen.begin(), seen.end(), real) != seen.end()) {
            continue;
        }
        seen.push_back(real);
        const LoadResult& r = loadCached(f);
        scan.errors.insert(scan.errors.end(), r.errors.begin(), r.errors.end());
        for (const DevicePtr& d : r.devices) {
            const bool dup = std::any_of(scan.devices.begin(), scan.devices.end(), [&](const auto& o) {
                return o->info().name == d->info().name;
            });
            if (dup) {
                scan.errors.push_back("plugin " + d->info().plugin + ": device '" +
                                      d->info().name + "' ignored: an earlier plugin has a " +
                                      "device of that name");
                continue;
            }
            scan.devices.push_back(d);
        }
    }
    return scan;
}

DevicePtr findDevice(std::string_view name, std::vector<std::string>* errors) {
    if (name == "cpu") {
        return nullptr;
    }
    PluginScan scan = scanDevicePlugins();
    for (const DevicePtr& d : scan.devices) {
        if (d->info().name == name) {
            return d;
        }
    }
    if (errors) {
        std::string found = "cpu";
        for (const DevicePtr& d : scan.devices) {
            found += ", " + d->info().name;
        }
        errors->push_back("no device named '" + std::string(name) + "'; the devices found are: " +
                          found);
        errors->insert(errors->end(), scan.errors.begin(), scan.errors.end());
    }
    return nullptr;
}

}  // namespace irscope::runtime
