// The read-only window of ms_objects.h onto the built-in modules' objects.
#include "frontend/modules/ms_objects.h"

#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

class CellObject;
CellObject* asCell(const Value& v);

std::optional<ops::SpellingRef> opFunctionOf(const interp::Value& v) {
    auto* f = v.as<interp::NativeFunctionObject>();
    if (f == nullptr || !f->nativeData) {
        return std::nullopt;
    }
    // Only ms_ops.cpp stores a SpellingRef on a native function; vmap's result holds VmapData.
    if (f->name == "vmap_fn") {
        return std::nullopt;
    }
    auto ref = std::static_pointer_cast<ops::SpellingRef>(f->nativeData);
    const auto& reg = ops::OpRegistry::instance();
    for (const auto& op : reg.ops()) {
        if (op.get() == ref->op) {
            return *ref;
        }
    }
    return std::nullopt;
}

const PrimitiveObject* primitiveOf(const interp::Value& v) {
    auto* p = v.as<PrimitiveObject>();
    return (p != nullptr && p->op != nullptr) ? p : nullptr;
}

const VmapData* vmapOf(const interp::Value& v) {
    auto* f = v.as<interp::NativeFunctionObject>();
    if (f == nullptr || !f->nativeData || f->name != "vmap_fn") {
        return nullptr;
    }
    return static_cast<const VmapData*>(f->nativeData.get());
}

const GradData* gradOf(const interp::Value& v) {
    auto* f = v.as<interp::NativeFunctionObject>();
    if (f == nullptr || !f->nativeData || f->name != "after_grad") {
        return nullptr;
    }
    return static_cast<const GradData*>(f->nativeData.get());
}

std::string compositeKind(const interp::Value& v) {
    if (v.as<HolderObject>() == nullptr) {
        return "";
    }
    const Type* t = v.obj()->type();
    for (const Type* k : t->mro) {
        if (k->module == "mindspore.ops.composite" && k->name != "_Composite") {
            return k->name;
        }
    }
    return "";
}

const HolderObject* holderOf(const interp::Value& v) {
    return v.as<HolderObject>();
}

interp::FunctionObject* pythonFunctionOf(const interp::Value& v) {
    if (auto* fn = v.as<interp::FunctionObject>()) {
        return fn;
    }
    // jitWrap (ms_context.cpp): a native function whose dict keeps `__wrapped__`.
    if (const auto* nf = v.as<interp::NativeFunctionObject>(); nf != nullptr && nf->dict() != nullptr) {
        return nf->dict()->getStr("__wrapped__").as<interp::FunctionObject>();
    }
    return nullptr;
}

bool isCell(const interp::Value& v) {
    return asCell(v) != nullptr;
}

bool isParameter(const interp::Value& v) {
    if (asTensor(v) == nullptr) {
        return false;
    }
    for (const Type* k : v.obj()->type()->mro) {
        if (k->name == "Parameter" && k->module.rfind("mindspore", 0) == 0) {
            return true;
        }
    }
    return false;
}

const ir::Tensor* tensorOf(const interp::Value& v) {
    auto* t = asTensor(v);
    return t == nullptr ? nullptr : &t->t;
}

std::string parameterName(const interp::Value& v) {
    auto* t = asTensor(v);
    return t == nullptr ? std::string() : t->name;
}

std::optional<ir::DType> dtypeOf(const interp::Value& v) {
    if (auto* d = v.as<DTypeObject>()) {
        return d->dtype;
    }
    return std::nullopt;
}

bool isJitClass(const interp::Type* t) {
    if (t == nullptr) {
        return false;
    }
    for (const Type* k : t->mro) {
        if (k->nativeData) {
            auto* s = static_cast<const std::string*>(k->nativeData.get());
            if (k->classDef != nullptr && *s == "jit_class") {
                return true;
            }
        }
    }
    return false;
}

}  // namespace irscope::modules
