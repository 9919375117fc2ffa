// Kernel placement: each kernel the device supports runs there, with host<->device copies
// of its inputs; everything else (and a kernel whose launch fails) runs on the CPU
// kernels. Each host buffer has at most one device mirror, keyed by its storage: a value
// is copied once, and a write on one side invalidates the other side's copy.
#include <algorithm>
#include <iostream>
#include <map>
#include <mutex>
#include <set>

#include "ir/prim_names.h"
#include "runtime/executor_impl.h"

namespace irscope::runtime {

using namespace detail;  // NOLINT: the runtime values and their helpers

namespace {

// Kernels that never go to a device: views of a weight and ops without a real kernel.
bool hostOnly(const ops::OpDef& op) {
    return op.structural || !op.cpuKernel || op.name == ir::prim::kLoad || op.sideEffectIo;
}

void tensorDTypes(const ir::AbstractPtr& a, std::vector<ir::DType>& out, bool& ok) {
    if (!a) {
        ok = false;
        return;
    }
    switch (a->kind) {
        case ir::Abstract::Kind::Tensor:
        case ir::Abstract::Kind::Ref:
            out.push_back(a->dtype);
            return;
        case ir::Abstract::Kind::Tuple:
        case ir::Abstract::Kind::List:
            for (const auto& e : a->elements) {
                tensorDTypes(e, out, ok);
            }
            return;
        default:
            return;
    }
}

std::optional<KernelParamValue> paramOf(const ir::ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    switch (v->kind) {
        case ir::Value::Kind::Bool:
            return KernelParamValue(v->b);
        case ir::Value::Kind::Int:
            return KernelParamValue(v->i);
        case ir::Value::Kind::Float:
            return KernelParamValue(v->f);
        case ir::Value::Kind::String:
            return KernelParamValue(v->text);
        case ir::Value::Kind::Type:
            return KernelParamValue(std::string(ir::dtypeName(v->dtype)));
        case ir::Value::Kind::Tuple:
        case ir::Value::Kind::List: {
            std::vector<std::int64_t> ints;
            for (const auto& e : v->elements) {
                if (!e || e->kind != ir::Value::Kind::Int) {
                    return std::nullopt;
                }
                ints.push_back(e->i);
            }
            return KernelParamValue(std::move(ints));
        }
        default:
            return std::nullopt;
    }
}

// Whether this is the first failed launch of `op` on `dev` in this process: a device's
// warning is printed once per op, however many executors run on it.
bool firstFailure(const DevicePtr& dev, const std::string& op) {
    static std::mutex mutex;
    static std::map<std::weak_ptr<Device>, std::set<std::string>, std::owner_less<>> warned;
    const std::lock_guard<std::mutex> lock(mutex);
    return warned[dev].insert(op).second;
}

}  // namespace

std::string_view Executor::Impl::placementName(const ir::CNode& c) const {
    if (!opts_.device) {
        return "cpu";
    }
    auto it = supported_.find(&c);
    if (it == supported_.end()) {
        bool ok = false;
        const ir::PrimitiveData* prim = c.primitive();
        const ops::OpDef* op = prim != nullptr ? findOp(prim->name) : nullptr;
        if (op != nullptr && !hostOnly(*op)) {
            std::vector<ir::DType> in;
            std::vector<ir::DType> out;
            bool typed = true;
            for (std::size_t i = 1; i < c.size(); ++i) {
                tensorDTypes(c.input(i)->abstract(), in, typed);
            }
            tensorDTypes(c.abstract(), out, typed);
            ok = typed && !out.empty() && opts_.device->supports(op->name, in, out);
        }
        it = supported_.emplace(&c, ok).first;
    }
    return it->second ? std::string_view(opts_.device->info().name) : std::string_view("cpu");
}

namespace {

Mirror* liveMirror(std::unordered_map<const void*, Mirror>& mirrors, const Tensor& t) {
    auto it = mirrors.find(t.storageId());
    if (it == mirrors.end()) {
        return nullptr;
    }
    if (it->second.host.expired()) {  // the buffer was freed and its address reused
        mirrors.erase(it);
        return nullptr;
    }
    return &it->second;
}

void forEachTensor(const ops::KernelArg& a, const std::function<void(const Tensor&)>& f) {
    if (a.isTensor()) {
        f(a.tensor());
    } else if (a.isTuple()) {
        for (const ops::KernelArg& e : a.elements()) {
            forEachTensor(e, f);
        }
    }
}

}  // namespace

// The host copy of `t` is current afterwards.
static void syncToHost(Device& dev, std::unordered_map<const void*, Mirror>& mirrors,
                       RunStats& stats, const Tensor& t) {
    Mirror* m = liveMirror(mirrors, t);
    if (m == nullptr || m->hostValid) {
        return;
    }
    Tensor target = t;  // shares the storage
    try {
        dev.copyToHost(target.bytes(), *m->device.memory, t.nbytes());
    } catch (const DeviceError& e) {
        // The only copy of the value is on the device: nothing to fall back to.
        throw EvalError("The device '" + dev.info().name +
                            "' failed to copy a value back to the host: " + e.what(),
                        "RuntimeError");
    }
    m->hostValid = true;
    ++stats.copiesToHost;
    stats.bytesCopied += t.nbytes();
}

ops::KernelArg Executor::Impl::runKernel(const ir::CNode& site, const ops::OpDef& op,
                                         const ir::AttrMap& attrs,
                                         std::vector<ops::KernelArg> inputs) {
    if (opts_.device && placementName(site) != "cpu") {
        Device& dev = *opts_.device;
        try {
            std::vector<DeviceTensor> din;
            std::vector<KernelParam> params;
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                const ops::KernelArg& a = inputs[i];
                if (a.isTensor() || a.isTuple()) {
                    forEachTensor(a, [&](const Tensor& t) {
                        Mirror* m = liveMirror(mirrors_, t);
                        if (m == nullptr) {
                            Mirror fresh;
                            fresh.device = {t.dtype(), t.shape(), dev.allocate(t.nbytes())};
                            fresh.host = t.storageHandle();
                            m = &(mirrors_[t.storageId()] = std::move(fresh));
                        }
                        if (!m->deviceValid) {
                            dev.copyToDevice(*m->device.memory, t.bytes(), t.nbytes());
                            m->deviceValid = true;
                            ++deviceStats_.copiesToDevice;
                            deviceStats_.bytesCopied += t.nbytes();
                        }
                        din.push_back(m->device);
                    });
                    continue;
                }
                if (a.isValue() && i < op.inputs.size()) {
                    if (auto p = paramOf(a.value())) {
                        params.push_back({op.inputs[i].name, std::move(*p)});
                    }
                }
            }
            for (const ops::ArgSpec& spec : op.attrs) {
                ir::ValuePtr v = attrs.get(spec.name);
                if (!v) {
                    v = spec.defaultValue;
                }
                if (auto p = paramOf(v)) {
                    params.push_back({spec.name, std::move(*p)});
                }
            }
            // Outputs: a write in place (Assign) writes the variable's own buffer.
            std::vector<DeviceTensor> dout;
            std::vector<Tensor> hostOut;
            if (op.sideEffectMem && !inputs.empty() && inputs[0].isTensor()) {
                dout.push_back(din.at(0));
                hostOut.push_back(inputs[0].tensor());
            } else {
                std::vector<ir::AbstractPtr> abs;
                const ir::AbstractPtr& a = site.abstract();
                if (a && a->kind == ir::Abstract::Kind::Tuple) {
                    abs = a->elements;
                } else {
                    abs.push_back(a);
                }
                for (const ir::AbstractPtr& e : abs) {
                    if (!e || e->kind != ir::Abstract::Kind::Tensor || !e->shape.isStatic()) {
                        throw DeviceError("the output shape is not static");
                    }
                    Tensor t(e->dtype, e->shape);
                    dout.push_back({t.dtype(), t.shape(), dev.allocate(t.nbytes())});
                    hostOut.push_back(std::move(t));
                }
            }
            dev.launch(KernelLaunch{op.name, din, dout, params});
            for (std::size_t k = 0; k < hostOut.size(); ++k) {
                Mirror m;
                m.device = dout[k];
                m.hostValid = false;
                m.deviceValid = true;
                m.host = hostOut[k].storageHandle();
                mirrors_[hostOut[k].storageId()] = std::move(m);
            }
            ++deviceStats_.kernelsOnDevice;
            ++deviceStats_.opsOnDevice[op.name];
            if (op.sideEffectMem || hostOut.size() == 1) {
                if (!(site.abstract() && site.abstract()->kind == ir::Abstract::Kind::Tuple)) {
                    return ops::KernelArg(hostOut.at(0));
                }
            }
            std::vector<ops::KernelArg> elems(hostOut.begin(), hostOut.end());
            return ops::KernelArg::tuple(std::move(elems));
        } catch (const DeviceError& e) {
            ++deviceStats_.fallbacks;
            const std::string line =
                "[WARNING] irscope: device '" + dev.info().name + "' failed to run " + op.name +
                " (" + (site.debug().name.empty() ? std::string("?") : site.debug().name) +
                "): " + e.what() + "; running it on the CPU";
            if (failedThisRun_.insert(op.name).second) {
                deviceStats_.messages.push_back(line);  // the run's first failure of op
            }
            if (firstFailure(opts_.device, op.name)) {
                if (opts_.warn) {
                    opts_.warn(line);
                } else {
                    std::cerr << line << '\n';
                }
            }
        }
    }
    if (opts_.device) {
        ++deviceStats_.opsOnCpu[op.name];
        for (const ops::KernelArg& a : inputs) {
            forEachTensor(
                a, [&](const Tensor& t) { syncToHost(*opts_.device, mirrors_, deviceStats_, t); });
        }
    }
    ops::KernelArg out = runOnCpu(site, op, attrs, inputs);
    if (opts_.device) {
        for (std::size_t k : op.writes) {
            if (k < inputs.size() && inputs[k].isTensor()) {
                if (Mirror* m = liveMirror(mirrors_, inputs[k].tensor())) {
                    m->deviceValid = false;  // written on the host
                }
            }
        }
    }
    return out;
}

ops::KernelArg Executor::Impl::hostValue(const RValue& v, bool quiet) const {
    if (v.fn) {
        if (quiet) {
            return {};
        }
        throw EvalError("A function value cannot be returned to the host.", "TypeError");
    }
    if (v.items) {
        std::vector<ops::KernelArg> elems;
        for (const RValue& e : *v.items) {
            elems.push_back(hostValue(e, quiet));
        }
        return ops::KernelArg::tuple(std::move(elems));
    }
    if (opts_.device) {
        forEachTensor(
            v.arg, [&](const Tensor& t) { syncToHost(*opts_.device, mirrors_, deviceStats_, t); });
    }
    return v.arg;
}

ops::KernelArg Executor::Impl::hostArg(const ir::CNode& site, const RValue& v) const {
    ops::KernelArg a = toKernel(site, v);
    if (opts_.device) {
        forEachTensor(
            a, [&](const Tensor& t) { syncToHost(*opts_.device, mirrors_, deviceStats_, t); });
    }
    return a;
}

RValue Executor::Impl::hostCondition(const RValue& v) const {
    if (opts_.device && !v.fn && !v.items) {
        (void)hostValue(v);
    }
    return v;
}

void Executor::Impl::collectMirrors() {
    std::erase_if(mirrors_, [](const auto& kv) { return kv.second.host.expired(); });
}

void Executor::Impl::beginDeviceRun() {
    mirrors_.clear();
    deviceStats_ = RunStats{};
    failedThisRun_.clear();
}

void Executor::Impl::endDeviceRun() {
    if (!opts_.device) {
        return;
    }
    // Weights written on the device go back to the caller's storage.
    for (auto& [id, m] : mirrors_) {
        (void)id;
        if (m.hostValid) {
            continue;
        }
        if (const std::shared_ptr<ir::Storage> storage = m.host.lock()) {
            try {
                opts_.device->copyToHost(storage->data(), *m.device.memory,
                                         std::min(m.device.memory->bytes(), storage->size()));
            } catch (const DeviceError& e) {
                mirrors_.clear();
                throw EvalError("The device '" + opts_.device->info().name +
                                    "' failed to copy a weight back to the host: " + e.what(),
                                "RuntimeError");
            }
            m.hostValid = true;
            ++deviceStats_.copiesToHost;
            deviceStats_.bytesCopied += storage->size();
        }
    }
    mirrors_.clear();
    try {
        opts_.device->synchronize();
    } catch (const DeviceError& e) {
        throw EvalError(
            "The device '" + opts_.device->info().name + "' failed to finish the run: " + e.what(),
            "RuntimeError");
    }
}

void Executor::Impl::fillDeviceStats(RunStats& s) const {
    s.kernelsOnDevice = deviceStats_.kernelsOnDevice;
    s.fallbacks = deviceStats_.fallbacks;
    s.copiesToDevice = deviceStats_.copiesToDevice;
    s.copiesToHost = deviceStats_.copiesToHost;
    s.bytesCopied = deviceStats_.bytesCopied;
    s.messages = deviceStats_.messages;
    s.opsOnDevice = deviceStats_.opsOnDevice;
    s.opsOnCpu = deviceStats_.opsOnCpu;
}

}  // namespace irscope::runtime
