// The `mindspore` package object: context (set_context / get_context / GRAPH_MODE), dtypes,
// ParameterTuple, the decorators jit / jit_class / lazy_inline, the composite helpers
// (GradOperation, grad, value_and_grad, vmap, HyperMap, MultitypeFuncGraph), and the
// registration of every built-in module.
//
// Eager semantics of the composites: vmap loops over the mapped axis, calls the function on
// each slice and stacks the results on out_axes; HyperMap maps over (nested) tuples/lists;
// MultitypeFuncGraph dispatches on the registered type names ("Tensor", "Number", "Int",
// "Float", "Bool", "Tuple", "List", "String", "None", "Function") in registration order.
// GradOperation(...)(fn) / grad / value_and_grad return a function the graph compiler
// differentiates (GradData); calling it eagerly raises "not supported yet".
#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "frontend/interp/scope.h"
#include "frontend/modules/ms_internal.h"
#include "frontend/modules/ms_objects.h"

namespace irscope::modules {

using interp::ClassBuilder;
using interp::Signature;
using ir::Tensor;

void initNumpyTypes(Interpreter& I, const MsPtr& ms);
class CellObject;
CellObject* asCell(const Value& v);

namespace {

std::mutex gContextsMutex;
std::unordered_map<const Interpreter*, std::weak_ptr<MsContext>>& contexts() {
    static std::unordered_map<const Interpreter*, std::weak_ptr<MsContext>> m;
    return m;
}

HolderObject* holder(const Value& v) {
    return v.as<HolderObject>();
}

[[noreturn]] void notAvailable(const std::string& what) {
    throw PyError(Exc::RuntimeError, "irscope: GRAPH_MODE compilation is not available yet (" + what + ")");
}

Value jitWrap(Interpreter& I, const MsPtr& ms, const Value& fn) {
    std::string name = "function";
    if (auto* f = fn.as<interp::FunctionObject>()) {
        name = f->qualname;
    } else if (auto* n = fn.as<interp::NativeFunctionObject>()) {
        name = n->name;
    }
    auto w = I.newNative(fn.as<interp::FunctionObject>() ? fn.as<interp::FunctionObject>()->name : name,
                         [ms, fn, name](Interpreter& J, CallArgs& a) -> Value {
                             if (!ms->ctx->compiler) {
                                 notAvailable("@jit function '" + name + "'");
                             }
                             return ms->ctx->compiler->call(J, fn, a);
                         });
    // The original function, for the compiler: `wrapper.__wrapped__`.
    w->setDict(I.newDict().get());
    w->dict()->setStr(I.intern("__wrapped__"), fn);
    return Value(w);
}

std::string contextValueRepr(const ContextValue& v) {
    if (auto* s = std::get_if<std::string>(&v)) {
        return *s;
    }
    return "";
}

Value contextToPy(Interpreter& I, const ContextValue& v) {
    if (auto* i = std::get_if<std::int64_t>(&v)) {
        return Value::integer(*i);
    }
    if (auto* d = std::get_if<double>(&v)) {
        return Value::real(*d);
    }
    if (auto* b = std::get_if<bool>(&v)) {
        return Value::boolean(*b);
    }
    return Value(I.newStr(std::get<std::string>(v)));
}

void setContext(Interpreter& I, const MsPtr& ms, CallArgs& a) {
    if (!a.pos.empty()) {
        throw PyError(Exc::TypeError, "set_context() takes 0 positional arguments but " + std::to_string(a.pos.size()) +
                                          " were given");
    }
    for (const interp::KwArg& k : a.kw) {
        const Value& v = k.value;
        if (k.name == "mode") {
            if (!v.isInt() || (v.asInt() != MsContext::kGraphMode && v.asInt() != MsContext::kPynativeMode)) {
                throw PyError(Exc::ValueError, "For 'context.set_context', the argument 'mode' should be "
                                               "context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got " +
                                                   I.repr(v) + ".");
            }
            ms->ctx->mode = ms->ctx->forcedMode.value_or(v.asInt());
        }
        if (k.name == "device_target") {
            const std::string& t = interp::toStr(I, v, "device_target");
            if (t != "Ascend" && t != "GPU" && t != "CPU") {
                throw PyError(Exc::ValueError, "For 'context.set_context', the argument 'device_target' must be one of "
                                               "['Ascend', 'GPU', 'CPU'], but got '" + t + "'.");
            }
        }
        ContextValue cv;
        if (v.isBool()) {
            cv = v.asBool();
        } else if (v.isInt()) {
            cv = v.asInt();
        } else if (v.isFloat()) {
            cv = v.asFloat();
        } else {
            cv = I.str(v);
        }
        ms->ctx->settings[k.name] = cv;
    }
}

Value getContext(Interpreter& I, const MsPtr& ms, CallArgs& a) {
    static const Signature sig = Signature("get_context").arg("attr_key");
    auto v = sig.bind(I, a);
    const std::string& key = interp::toStr(I, v[0], "attr_key");
    if (key == "mode") {
        return Value::integer(ms->ctx->mode);
    }
    auto it = ms->ctx->settings.find(key);
    if (it != ms->ctx->settings.end()) {
        return contextToPy(I, it->second);
    }
    if (key == "device_target") {
        return Value(I.newStr("CPU"));
    }
    if (key == "device_id") {
        return Value::integer(0);
    }
    if (key == "save_graphs" || key == "enable_compile_cache") {
        return Value::boolean(false);
    }
    throw PyError(Exc::ValueError, "For 'context.get_context', the argument 'attr_key' '" + key +
                                       "' is not recognized.");
}

bool matchesType(Interpreter& I, const MsTypes& ms, const std::string& key, const Value& v) {
    if (key == "Tensor") {
        return asTensor(v) != nullptr;
    }
    if (key == "Number") {
        return v.isNumber();
    }
    if (key == "Int") {
        return v.isInt();
    }
    if (key == "Float") {
        return v.isFloat();
    }
    if (key == "Bool") {
        return v.isBool();
    }
    if (key == "Tuple") {
        return v.is<interp::TupleObject>();
    }
    if (key == "List") {
        return v.is<interp::ListObject>();
    }
    if (key == "String") {
        return v.is<interp::StrObject>();
    }
    if (key == "None") {
        return v.isNone();
    }
    if (key == "Function") {
        return I.callable(v) && !asTensor(v);
    }
    (void)ms;
    return false;
}

std::string typeKeyOf(Interpreter& I, const Value& v) {
    if (auto* s = v.as<interp::StrObject>()) {
        return s->value;
    }
    if (auto* t = v.as<Type>()) {
        return t->name;
    }
    return I.repr(v);
}

std::string pyTypeKey(Interpreter& I, const Value& v) {
    if (auto* t = asTensor(v)) {
        return "Tensor[" + std::string(ir::dtypeName(t->t.dtype())) + "]";
    }
    if (v.isBool()) {
        return "Bool";
    }
    if (v.isInt()) {
        return "Int64";
    }
    if (v.isFloat()) {
        return "Float32";
    }
    return I.typeName(v);
}

Value hyperMap(Interpreter& I, const Value& fn, std::vector<Value> args) {
    bool seq = false;
    std::size_t n = 0;
    bool isList = false;
    for (Value& a : args) {
        if (const HolderObject* h = holderOf(a); h && I.typeName(a) == "ParameterTuple") {
            a = Value(I.newTuple(h->items));  // mapped as the tuple of its Parameters
        }
        if (a.is<interp::TupleObject>() || a.is<interp::ListObject>()) {
            const std::size_t len = static_cast<std::size_t>(I.len(a));
            if (seq && len != n) {
                throw PyError(Exc::ValueError, "For 'HyperMap', the length of the sequences must be the same, but got " +
                                                   std::to_string(n) + " and " + std::to_string(len) + ".");
            }
            seq = true;
            n = len;
            isList = a.is<interp::ListObject>();
        }
    }
    if (!seq) {
        return I.call(fn, CallArgs(args));
    }
    std::vector<Value> out;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Value> elem;
        for (const Value& a : args) {
            elem.push_back(a.is<interp::TupleObject>() || a.is<interp::ListObject>()
                               ? I.getItem(a, Value::integer(static_cast<std::int64_t>(i)))
                               : a);
        }
        out.push_back(hyperMap(I, fn, elem));
    }
    return isList ? Value(I.newList(std::move(out))) : Value(I.newTuple(std::move(out)));
}

Value vmapCall(Interpreter& I, const MsTypes& ms, const Value& fn, const Value& inAxes, const Value& outAxes, CallArgs& a) {
    const std::size_t nargs = a.pos.size();
    std::vector<Value> axes(nargs, inAxes);
    if (inAxes.is<interp::TupleObject>() || inAxes.is<interp::ListObject>()) {
        axes = I.toVector(inAxes);
        if (axes.size() != nargs) {
            throw PyError(Exc::ValueError, "For 'vmap', the length of 'in_axes' must be equal to the number of "
                                           "arguments, but got " + std::to_string(axes.size()) + " and " +
                                               std::to_string(nargs) + ".");
        }
    }
    std::int64_t size = -1;
    std::vector<std::int64_t> ax(nargs, -1);
    for (std::size_t i = 0; i < nargs; ++i) {
        if (axes[i].isNone()) {
            continue;
        }
        auto* t = asTensor(a.pos[i]);
        if (!t) {
            throw PyError(Exc::ValueError, "For 'vmap', a mapped argument must be a Tensor, but got " + I.typeName(a.pos[i]) + ".");
        }
        std::int64_t axis = I.toIndex(axes[i]);
        const auto rank = static_cast<std::int64_t>(t->t.rank());
        if (axis < 0) {
            axis += rank;
        }
        if (axis < 0 || axis >= rank) {
            throw PyError(Exc::ValueError, "For 'vmap', the 'in_axes' " + std::to_string(I.toIndex(axes[i])) +
                                               " is out of the range of the argument's rank " + std::to_string(rank) + ".");
        }
        ax[i] = axis;
        const std::int64_t s = t->t.shape().dims[static_cast<std::size_t>(axis)];
        if (size >= 0 && s != size) {
            throw PyError(Exc::ValueError, "For 'vmap', the mapped axes of the arguments must have the same size, but got " +
                                               std::to_string(size) + " and " + std::to_string(s) + ".");
        }
        size = s;
    }
    if (size < 0) {
        throw PyError(Exc::ValueError, "For 'vmap', at least one argument must be mapped (in_axes all None).");
    }
    std::vector<Value> results;
    for (std::int64_t k = 0; k < size; ++k) {
        std::vector<Value> args;
        std::vector<Value> keys(nargs);
        for (std::size_t i = 0; i < nargs; ++i) {
            if (ax[i] < 0) {
                args.push_back(a.pos[i]);
                continue;
            }
            std::vector<Value> key;
            for (std::int64_t d = 0; d < ax[i]; ++d) {
                key.push_back(Value(I.make<interp::SliceObject>(I.types().slice.get(), Value::none(), Value::none(), Value::none())));
            }
            key.push_back(Value::integer(k));
            keys[i] = Value(I.newTuple(std::move(key)));
            args.push_back(newTensor(I, ms, indexTensor(I, asTensor(a.pos[i])->t, keys[i])));
        }
        std::vector<Value> rows = args;
        results.push_back(I.call(fn, CallArgs(std::move(args), a.kw)));
        // A mapped Parameter is batched in place, as MindSpore's vmap of Assign writes it: each
        // row the function wrote goes back into it.
        for (std::size_t i = 0; i < nargs; ++i) {
            if (ax[i] < 0 || !isParameter(a.pos[i])) {
                continue;
            }
            const ir::Tensor& row = asTensor(rows[i])->t;
            const ir::Tensor before = indexTensor(I, asTensor(a.pos[i])->t, keys[i]);
            if (row.nbytes() != before.nbytes() ||
                std::memcmp(row.bytes(), before.bytes(), row.nbytes()) != 0) {
                I.setItem(a.pos[i], keys[i], rows[i]);
            }
        }
    }
    const std::int64_t outAxis = outAxes.isIntLike() ? outAxes.intLike() : 0;
    std::function<Value(const std::vector<Value>&)> stack = [&](const std::vector<Value>& rs) -> Value {
        if (!rs.empty() && rs[0].is<interp::TupleObject>()) {
            std::vector<Value> outs;
            const std::size_t n = rs[0].as<interp::TupleObject>()->items.size();
            for (std::size_t j = 0; j < n; ++j) {
                std::vector<Value> col;
                for (const Value& r : rs) {
                    col.push_back(I.getItem(r, Value::integer(static_cast<std::int64_t>(j))));
                }
                outs.push_back(stack(col));
            }
            return Value(I.newTuple(std::move(outs)));
        }
        ir::AttrMap attrs;
        attrs.set("axis", ir::Value::integer(outAxis));
        std::vector<Value> ts;
        for (const Value& r : rs) {
            ts.push_back(asTensor(r) ? r : newTensor(I, ms, tensorFromData(I, ms, r, std::nullopt, false)));
        }
        return runOpByName(I, ms, "Stack", {Value(I.newTuple(ts))}, attrs);
    };
    return stack(results);
}

// The function GradOperation(...)(fn) / grad(fn, ...) returns. In construct the compiler
// reads its GradData; called from Python (PyNative mode, or outside any graph) it is
// compiled as a graph `after_grad(*args)` that calls it, as MindSpore wraps a grad function
// in ms_function, so it gives GRAPH_MODE's numbers, control flow and Parameters included.
Value gradFunction(Interpreter& I, std::shared_ptr<GradData> data) {
    const std::string what = data->kind;
    auto self = std::make_shared<interp::NativeFunctionObject*>(nullptr);
    auto f = I.newNative("after_grad", [what, self](Interpreter& J, CallArgs& a) -> Value {
        const std::shared_ptr<MsContext> ctx = msContext(J);
        if (!ctx || !ctx->compiler) {
            notAvailable(what + " called outside a graph");
        }
        if (!a.kw.empty()) {
            throw PyError(Exc::TypeError, "irscope: keyword arguments are not supported yet when calling a " + what +
                                              " function.");
        }
        return ctx->compiler->call(J, Value(*self), a);
    });
    *self = f.get();
    f->nativeData = std::move(data);
    return Value(f);
}

Value gradOrValueAndGrad(Interpreter& I, const std::string& kind, CallArgs& a) {
    static const Signature sig = Signature("grad")
                                     .arg("fn")
                                     .arg("grad_position", Value::integer(0))
                                     .arg("weights", Value::none())
                                     .arg("has_aux", Value::boolean(false))
                                     .arg("return_ids", Value::boolean(false));
    auto v = sig.bind(I, a);
    auto d = std::make_shared<GradData>();
    d->kind = kind;
    d->fn = v[0];
    d->gradPosition = v[1];
    d->weights = v[2];
    d->hasAux = v[3];
    d->returnIds = v[4];
    return gradFunction(I, std::move(d));
}

void ensureTypes(Interpreter& I, const MsPtr& ms) {
    if (!ms->tensor) {
        initTensorTypes(I, ms);
        initNumpyTypes(I, ms);
    }
}

void addDtypes(Interpreter& I, const MsTypes& ms, interp::ModuleObject& m) {
    static const std::pair<const char*, ir::DType> names[] = {
        {"float16", ir::DType::Float16}, {"float32", ir::DType::Float32}, {"float64", ir::DType::Float64},
        {"bfloat16", ir::DType::BFloat16}, {"half", ir::DType::Float16}, {"single", ir::DType::Float32},
        {"double", ir::DType::Float64},  {"int8", ir::DType::Int8},       {"int16", ir::DType::Int16},
        {"int32", ir::DType::Int32},     {"int64", ir::DType::Int64},     {"uint8", ir::DType::UInt8},
        {"uint16", ir::DType::UInt16},   {"uint32", ir::DType::UInt32},   {"uint64", ir::DType::UInt64},
        {"bool_", ir::DType::Bool},      {"int_", ir::DType::Int64},      {"float_", ir::DType::Float32},
        {"complex64", ir::DType::Complex64}, {"complex128", ir::DType::Complex128}};
    for (auto& [n, d] : names) {
        interp::addToModule(I, m, n, ms.msDtypes[static_cast<int>(d)]);
    }
}

void initComposite(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    Ref<Type> holderBase = ClassBuilder(I, "_Composite", "mindspore.ops.composite").layout<HolderObject>().build();
    ms->keep.push_back(Value(holderBase));
    // GradOperation
    ClassBuilder gradOpBuilder(I, "GradOperation", "mindspore.ops.composite", {holderBase});
    gradOpBuilder.method("__init__", [](Interpreter& J, CallArgs& a) {
                               static const Signature sig = Signature("GradOperation")
                                                                .arg("self")
                                                                .arg("get_all", Value::boolean(false))
                                                                .arg("get_by_list", Value::boolean(false))
                                                                .arg("sens_param", Value::boolean(false));
                               auto v = sig.bind(J, a);
                               // get_all, get_by_list, sens_param: read by the graph compiler.
                               holder(v[0])->items = {v[1], v[2], v[3]};
                               return Value::none();
                           })
                           .method("__call__", [](Interpreter& J, CallArgs& a) {
                               static const Signature sig =
                                   Signature("GradOperation").arg("self").arg("fn").arg("weights", Value::none());
                               auto v = sig.bind(J, a);
                               const auto& flags = holder(v[0])->items;
                               auto d = std::make_shared<GradData>();
                               d->kind = "GradOperation";
                               d->fn = v[1];
                               d->weights = v[2];
                               d->getAll = flags.size() == 3 && J.truthy(flags[0]);
                               d->getByList = flags.size() == 3 && J.truthy(flags[1]);
                               d->sensParam = flags.size() == 3 && J.truthy(flags[2]);
                               // As MindSpore's GradOperation keeps grad_fn while fn is the
                               // same, the same function comes back (compiled once per
                               // signature when called from Python).
                               Value& last = holder(v[0])->extra;
                               if (const auto* prev = modules::gradOf(last)) {
                                   if (prev->fn.identical(d->fn) && prev->weights.identical(d->weights) &&
                                       prev->getAll == d->getAll && prev->getByList == d->getByList &&
                                       prev->sensParam == d->sensParam) {
                                       return last;
                                   }
                               }
                               last = gradFunction(J, std::move(d));
                               return last;
                           });
    // get_all, get_by_list, sens_param: plain attributes of the instance in MindSpore, read
    // (and set) by scripts; a later __call__ uses the values they hold then.
    static const char* const flagNames[] = {"get_all", "get_by_list", "sens_param"};
    for (std::size_t k = 0; k < 3; ++k) {
        gradOpBuilder.property(
            flagNames[k],
            [k](Interpreter&, const Value& self) {
                const auto& items = holder(self)->items;
                return k < items.size() ? items[k] : Value::boolean(false);
            },
            [k](Interpreter&, const Value& self, const Value& v) {
                auto& items = holder(self)->items;
                items.resize(std::max<std::size_t>(items.size(), 3), Value::boolean(false));
                items[k] = v;
            });
    }
    Ref<Type> gradOp = gradOpBuilder.build();
    interp::addToModule(I, m, "GradOperation", Value(gradOp));
    // MultitypeFuncGraph
    Ref<Type> mfg =
        ClassBuilder(I, "MultitypeFuncGraph", "mindspore.ops.composite", {holderBase})
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) {
                        static const Signature sig =
                            Signature("MultitypeFuncGraph").arg("self").arg("name").arg("read_value", Value::boolean(false)).varKw();
                        auto v = sig.bind(J, a);
                        holder(v[0])->name = interp::toStr(J, v[1], "name");
                        return Value::none();
                    })
            .method("register",
                    [](Interpreter& J, CallArgs& a) {
                        Value self = a.pos.at(0);
                        std::vector<std::string> keys;
                        for (std::size_t i = 1; i < a.pos.size(); ++i) {
                            keys.push_back(typeKeyOf(J, a.pos[i]));
                        }
                        return Value(J.newNative("register", [self, keys](Interpreter&, CallArgs& b) {
                            auto* h = holder(self);
                            h->items.push_back(b.pos.at(0));
                            h->typeKeys.push_back(keys);
                            return b.pos[0];
                        }));
                    })
            .method("__call__",
                    [ms](Interpreter& J, CallArgs& a) -> Value {
                        auto* h = holder(a.pos.at(0));
                        std::vector<Value> args(a.pos.begin() + 1, a.pos.end());
                        for (std::size_t r = 0; r < h->items.size(); ++r) {
                            const auto& keys = h->typeKeys[r];
                            if (keys.size() != args.size()) {
                                continue;
                            }
                            bool ok = true;
                            for (std::size_t i = 0; i < keys.size() && ok; ++i) {
                                ok = matchesType(J, *ms, keys[i], args[i]);
                            }
                            if (ok) {
                                return J.call(h->items[r], CallArgs(args, a.kw));
                            }
                        }
                        std::string types;
                        for (const Value& v : args) {
                            types += (types.empty() ? "" : ", ") + pyTypeKey(J, v);
                        }
                        throw PyError(Exc::TypeError, "For 'MultitypeFuncGraph', the '" + h->name +
                                                          "' operation does not support the argument types [" + types + "].");
                    })
            .build();
    interp::addToModule(I, m, "MultitypeFuncGraph", Value(mfg));
    // HyperMap
    Ref<Type> hm = ClassBuilder(I, "HyperMap", "mindspore.ops.composite", {holderBase})
                       .method("__init__", [](Interpreter& J, CallArgs& a) {
                           static const Signature sig = Signature("HyperMap").arg("self").arg("ops", Value::none()).arg("reverse", Value::boolean(false));
                           auto v = sig.bind(J, a);
                           holder(v[0])->extra = v[1];
                           return Value::none();
                       })
                       .method("__call__", [](Interpreter& J, CallArgs& a) {
                           auto* h = holder(a.pos.at(0));
                           std::vector<Value> args(a.pos.begin() + 1, a.pos.end());
                           Value fn = h->extra;
                           if (fn.isNone() || fn.isNull()) {
                               if (args.empty()) {
                                   throw PyError(Exc::TypeError, "For 'HyperMap', the function to map must be given.");
                               }
                               fn = args[0];
                               args.erase(args.begin());
                           }
                           return hyperMap(J, fn, args);
                       })
                       .build();
    interp::addToModule(I, m, "HyperMap", Value(hm));
    interp::addToModule(I, m, "Map", Value(hm));
    interp::addFunction(I, m, "grad", [](Interpreter& J, CallArgs& a) { return gradOrValueAndGrad(J, "grad", a); });
    interp::addFunction(I, m, "value_and_grad",
                        [](Interpreter& J, CallArgs& a) { return gradOrValueAndGrad(J, "value_and_grad", a); });
    interp::addFunction(I, m, "vmap", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("vmap").arg("fn").arg("in_axes", Value::integer(0)).arg("out_axes", Value::integer(0));
        auto v = sig.bind(J, a);
        Value fn = v[0], in = v[1], out = v[2];
        auto w = J.newNative("vmap_fn", [ms, fn, in, out](Interpreter& K, CallArgs& b) {
            return vmapCall(K, *ms, fn, in, out, b);
        });
        w->nativeData = std::make_shared<VmapData>(VmapData{fn, in, out});
        return Value(w);
    });
}

void copyNames(Interpreter& I, interp::ModuleObject& from, interp::ModuleObject& to, std::initializer_list<const char*> names) {
    for (const char* n : names) {
        Value v = from.dict()->getStr(n);
        if (!v.isNull()) {
            interp::addToModule(I, to, n, v);
        }
    }
}

}  // namespace

void initMindSpore(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    ensureTypes(I, ms);
    interp::addToModule(I, m, "Tensor", Value(ms->tensor));
    interp::addToModule(I, m, "Parameter", Value(ms->parameter));
    addDtypes(I, *ms, m);
    interp::addToModule(I, m, "GRAPH_MODE", Value::integer(MsContext::kGraphMode));
    interp::addToModule(I, m, "PYNATIVE_MODE", Value::integer(MsContext::kPynativeMode));
    interp::addToModule(I, m, "__version__", Value(I.newStr("2.3.0")));
    // Names mindspore re-exports from its Python-written submodules, resolved on first use
    // (PEP 562): `from mindspore import Model` imports mindspore.train then.
    interp::addFunction(I, m, "__getattr__", [](Interpreter& J, CallArgs& a) -> Value {
        const std::string name = J.str(interp::argAt(a, 0, "name"));
        static const std::pair<const char*, const char*> lazy[] = {
            {"Model", "mindspore.train"},
            {"FixedLossScaleManager", "mindspore.amp"},
            {"DynamicLossScaleManager", "mindspore.amp"},
            {"LossScaleManager", "mindspore.amp"}};
        for (const auto& [n, module] : lazy) {
            if (name == n) {
                return J.getAttr(Value(J.importModule(module)), name);
            }
        }
        throw PyError(Exc::AttributeError, "module 'mindspore' has no attribute '" + name + "'");
    });
    initMindirApi(I, ms, m);
    interp::addFunction(I, m, "set_context", [ms](Interpreter& J, CallArgs& a) {
        setContext(J, ms, a);
        return Value::none();
    });
    interp::addFunction(I, m, "get_context", [ms](Interpreter& J, CallArgs& a) { return getContext(J, ms, a); });
    // set_seed also seeds np.random (as MindSpore does), which Dense's initializers use.
    interp::addFunction(I, m, "set_seed", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("set_seed").arg("seed");
        auto v = sig.bind(J, a);
        if (!v[0].isInt()) {
            throw PyError(Exc::TypeError, "The argument 'seed' must be type of int, but got " + J.typeName(v[0]) + ".");
        }
        if (v[0].asInt() < 0) {
            throw PyError(Exc::ValueError, "The argument 'seed' must be greater than or equal to 0, but got " +
                                               std::to_string(v[0].asInt()) + ".");
        }
        try {
            ms->ctx->npRandom.seed(v[0].asInt());
        } catch (const std::invalid_argument& e) {
            throw PyError(Exc::ValueError, e.what());
        }
        ms->ctx->settings["seed"] = v[0].asInt();
        return Value::none();
    });
    // mindspore.tensor(input_data, dtype): the function spelling of Tensor(input_data, dtype).
    interp::addFunction(I, m, "tensor", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("tensor").arg("input_data", Value::none()).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        return J.call(Value(ms->tensor), {v[0], v[1]});
    });
    interp::addFunction(I, m, "get_seed", [ms](Interpreter&, CallArgs&) -> Value {
        auto it = ms->ctx->settings.find("seed");
        return it == ms->ctx->settings.end() ? Value::none() : Value::integer(std::get<std::int64_t>(it->second));
    });
    Ref<interp::NativeFunctionObject> jit = interp::addFunction(I, m, "jit", [ms](Interpreter& J, CallArgs& a) -> Value {
        Value fn = interp::argAt(a, 0, "function");
        if (fn.isNull() || fn.isNone()) {
            // @jit(...) with options: a decorator.
            return Value(J.newNative("jit", [ms](Interpreter& K, CallArgs& b) { return jitWrap(K, ms, b.pos.at(0)); }));
        }
        if (!J.callable(fn)) {
            throw PyError(Exc::TypeError, "For 'jit', the 'function' must be a function or method, but got " + J.typeName(fn) + ".");
        }
        return jitWrap(J, ms, fn);
    });
    // ms_function: the name MindSpore 2.x keeps (deprecated) for jit.
    interp::addToModule(I, m, "ms_function", Value(jit));
    interp::addFunction(I, m, "jit_class", [ms](Interpreter& J, CallArgs& a) -> Value {
        Value cls = a.pos.at(0);
        auto* t = cls.as<Type>();
        if (!t) {
            throw PyError(Exc::TypeError, "Decorator jit_class can only be used for class type, but got " + J.repr(cls) + ".");
        }
        if (t->isSubtypeOf(ms->cell)) {
            throw PyError(Exc::TypeError, "Decorator jit_class is used for user-defined classes and cannot be used for "
                                          "nn.Cell: " + t->name + "<>.");
        }
        t->nativeData = std::make_shared<std::string>("jit_class");
        return cls;
    });
    // mutable(input_data, dynamic_len=False): MindSpore compiles a graph input marked so as a
    // variable (one graph for every value) instead of a constant (a graph per value). Which
    // of the two changes how often irscope compiles, never what the graph computes: the
    // argument is checked as MindSpore checks it and given back (in a graph too, where
    // symbol_resolve makes the call its argument).
    interp::addFunction(I, m, "mutable", [](Interpreter& J, CallArgs& a) -> Value {
        static const Signature sig = Signature("mutable").arg("input_data").arg("dynamic_len", Value::boolean(false));
        auto v = sig.bind(J, a);
        std::function<void(const Value&)> check = [&](const Value& x) {
            if (x.is<interp::TupleObject>() || x.is<interp::ListObject>()) {
                for (const Value& e : J.toVector(x)) {
                    check(e);
                }
            } else if (auto* d = x.as<interp::DictObject>()) {
                d->forEach([&](const Value&, const Value& e) { check(e); });
            } else if (!(x.isBool() || x.isInt() || x.isFloat() || asTensor(x) != nullptr)) {
                throw PyError(Exc::TypeError, "For 'mutable', the 'input_data' should be one of (int, float, bool, "
                                              "Tensor, tuple, list, dict), but got " + J.typeName(x) + ".");
            }
        };
        check(v[0]);
        if (J.truthy(v[1]) && !v[0].is<interp::TupleObject>() && !v[0].is<interp::ListObject>()) {
            throw PyError(Exc::TypeError, "For 'mutable', when the 'dynamic_len' is True, the 'input_data' should "
                                          "be a list or tuple, but got " + J.typeName(v[0]) + ".");
        }
        return v[0];
    });
    // ms_class: the name MindSpore 2.0-2.2 gave jit_class (kept, deprecated).
    interp::addToModule(I, m, "ms_class", I.getAttr(Value(&m), "jit_class"));
    interp::addFunction(I, m, "lazy_inline", [](Interpreter& J, CallArgs& a) -> Value {
        auto wrap = [](Interpreter& K, Value init) -> Value {
            auto* f = init.as<interp::FunctionObject>();
            return Value(K.newNative("__init__", [init, f](Interpreter& L, CallArgs& args) {
                Value self = args.pos.at(0);
                Value r = L.call(init, args);
                // cell_init_args: "lazy_inline_" + class name + the bound __init__ arguments.
                std::string rec = "{";
                if (f && f->code) {
                    const int npos = f->code->posCount;
                    const auto ndef = static_cast<int>(f->defaults.size());
                    bool first = true;
                    for (int i = 1; i < npos; ++i) {
                        const std::string& pname = f->code->varNames[static_cast<std::size_t>(i)];
                        Value v = static_cast<std::size_t>(i) < args.pos.size() ? args.pos[static_cast<std::size_t>(i)]
                                                                                : args.kwarg(pname);
                        if (v.isNull() && i >= npos - ndef) {
                            v = f->defaults[static_cast<std::size_t>(i - (npos - ndef))];
                        }
                        rec += (first ? "'" : ", '") + pname + "': " + (v.isNull() ? "None" : L.repr(v));
                        first = false;
                    }
                }
                rec += "}";
                L.setAttr(self, "cell_init_args", Value(L.newStr("lazy_inline_" + L.typeName(self) + rec)));
                recordCellInitState(L, self);
                return r;
            }));
        };
        Value fn = interp::argAt(a, 0, "fn");
        if (fn.isNull() || fn.isNone()) {
            return Value(J.newNative("lazy_inline", [wrap](Interpreter& K, CallArgs& b) { return wrap(K, b.pos.at(0)); }));
        }
        return wrap(J, fn);
    });
    Ref<Type> ptuple =
        ClassBuilder(I, "ParameterTuple", "mindspore.common.parameter")
            .layout<HolderObject>()
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) {
                        auto* h = holder(a.pos.at(0));
                        h->items = a.pos.size() > 1 ? J.toVector(a.pos[1]) : std::vector<Value>{};
                        return Value::none();
                    })
            .method("__len__", [](Interpreter&, CallArgs& a) { return Value::integer(static_cast<std::int64_t>(holder(a.pos.at(0))->items.size())); })
            .method("__getitem__", [](Interpreter& J, CallArgs& a) { return J.getItem(Value(J.newTuple(holder(a.pos.at(0))->items)), a.pos.at(1)); })
            .method("__iter__", [](Interpreter& J, CallArgs& a) { return J.iter(Value(J.newTuple(holder(a.pos.at(0))->items))); })
            .method("__repr__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(J.repr(Value(J.newTuple(holder(a.pos.at(0))->items))))); })
            .method("__add__", [](Interpreter& J, CallArgs& a) {
                std::vector<Value> items = holder(a.pos.at(0))->items;
                for (const Value& v : J.toVector(a.pos.at(1))) {
                    items.push_back(v);
                }
                return Value(J.newTuple(std::move(items)));
            })
            .build();
    ms->keep.push_back(Value(ptuple));
    interp::addToModule(I, m, "ParameterTuple", Value(ptuple));
    // Submodules (importing them sets them as attributes of this module).
    for (const char* sub : {"mindspore.common", "mindspore.nn", "mindspore.ops", "mindspore.context", "mindspore.dtype"}) {
        if (I.hasModule(sub)) {
            I.importModule(sub);
        }
    }
    auto ops = I.importModule("mindspore.ops");
    copyNames(I, *ops, m, {"grad", "value_and_grad", "vmap"});
    (void)contextValueRepr;
}

std::shared_ptr<MsContext> msContext(Interpreter& I) {
    std::lock_guard<std::mutex> lock(gContextsMutex);
    auto it = contexts().find(&I);
    return it == contexts().end() ? nullptr : it->second.lock();
}

std::shared_ptr<MsContext> registerBuiltinModules(Interpreter& I) {
    auto ms = std::make_shared<MsTypes>();
    ms->ctx = std::make_shared<MsContext>();
    {
        std::lock_guard<std::mutex> lock(gContextsMutex);
        contexts()[&I] = ms->ctx;
    }
    // The modules hold `ms` weakly through a raw pointer owned by the module init closures
    // and the native functions; the shared context outlives them for the host.
    I.registerModule("mindspore", [ms](Interpreter& J, interp::ModuleObject& m) { initMindSpore(J, ms, m); });
    I.registerModule("mindspore.common", [ms](Interpreter& J, interp::ModuleObject& m) {
        J.importModule("mindspore");
        interp::ModuleObject& root = *J.importModule("mindspore");
        copyNames(J, root, m, {"Tensor", "Parameter", "ParameterTuple", "lazy_inline", "jit", "ms_function", "jit_class", "ms_class",
                               "set_seed", "get_seed"});
        m.dict()->setStr(J.intern("dtype"), Value(J.importModule("mindspore.common.dtype")));
        interp::addToModule(J, m, "mstype", Value(J.importModule("mindspore.common.dtype")));
    });
    auto dtypeInit = [ms](Interpreter& J, interp::ModuleObject& m) {
        J.importModule("mindspore");
        ensureTypes(J, ms);
        addDtypes(J, *ms, m);
        interp::addToModule(J, m, "Type", Value(ms->msDtype));
    };
    I.registerModule("mindspore.common.dtype", dtypeInit);
    I.registerModule("mindspore.dtype", dtypeInit);
    I.registerModule("mindspore.context", [ms](Interpreter& J, interp::ModuleObject& m) {
        interp::ModuleObject& root = *J.importModule("mindspore");
        copyNames(J, root, m, {"set_context", "get_context", "GRAPH_MODE", "PYNATIVE_MODE"});
    });
    I.registerModule("mindspore.nn", [ms](Interpreter& J, interp::ModuleObject& m) {
        J.importModule("mindspore");
        ensureTypes(J, ms);
        initNn(J, ms, m);
        addPythonNnNames(J, m);
    });
    I.registerModule("mindspore.ops", [ms](Interpreter& J, interp::ModuleObject& m) {
        J.importModule("mindspore");
        ensureTypes(J, ms);
        initOpsModule(J, ms, m, "ops.");
        interp::ModuleObject& c = *J.importModule("mindspore.ops.composite");
        copyNames(J, c, m, {"GradOperation", "HyperMap", "Map", "MultitypeFuncGraph", "grad", "value_and_grad", "vmap"});
        interp::ModuleObject& f = *J.importModule("mindspore.ops.functional");
        J.importModule("mindspore.ops.operations");
        // mindspore.ops re-exports functional's names (ops.make_tuple as F.make_tuple).
        copyNames(J, f, m, {"make_tuple", "tuple_getitem", "list_getitem", "tuple_len", "make_range", "switch"});
        addPythonOpsNames(J, m);
    });
    I.registerModule("mindspore.ops.functional", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initOpsModule(J, ms, m, "F.");
        interp::ModuleObject& c = *J.importModule("mindspore.ops.composite");
        copyNames(J, c, m, {"grad", "value_and_grad", "vmap"});
        // Functional names of Python builtins (graph mode turns them into the same meta ops).
        for (const auto& [name, builtin] : {std::pair{"tuple_len", "len"}, std::pair{"make_range", "range"}}) {
            interp::addToModule(J, m, name, J.builtins().getStr(builtin));
        }
        // MindSpore's MakeTuple and TupleGetItem as functions (graph mode: the tuple display
        // and the subscript, symbol_resolve).
        interp::addFunction(J, m, "make_tuple", [](Interpreter& K, CallArgs& a) {
            return Value(K.newTuple(a.pos));
        });
        for (const char* name : {"tuple_getitem", "list_getitem"}) {
            interp::addFunction(J, m, name, [](Interpreter& K, CallArgs& a) {
                return K.getItem(interp::argAt(a, 0, "data"), interp::argAt(a, 1, "index"));
            });
        }
        // The Switch primitive as a function: the second input when the condition holds, else
        // the third (graph mode: a Switch node, symbol_resolve).
        interp::addFunction(J, m, "switch", [](Interpreter& K, CallArgs& a) {
            const Value cond = interp::argAt(a, 0, "cond");
            return K.truthy(cond) ? interp::argAt(a, 1, "true_branch") : interp::argAt(a, 2, "false_branch");
        });
    });
    I.registerModule("mindspore.ops.operations", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initOpsModule(J, ms, m, "P.");
    });
    // The backward primitives (G.SigmoidGrad, ...), which MindSpore keeps out of P.
    I.registerModule("mindspore.ops.operations._grad_ops", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initOpsModule(J, ms, m, "G.");
    });
    I.registerModule("mindspore.ops.composite", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initComposite(J, ms, m);
        // The functional helpers composite re-exports (C.ones_like in loss-scale code).
        interp::ModuleObject& f = *J.importModule("mindspore.ops.functional");
        copyNames(J, f, m, {"ones_like", "zeros_like", "partial", "depend"});
    });
    I.registerModule("numpy", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initNumpy(J, ms, m);
        initNumpyExtra(J, ms, m);
        Ref<interp::ModuleObject> random = J.importModule("numpy.random");
        J.importModule("numpy.testing");
        addPythonNumpyNames(J, m, *random);
    });
    I.registerModule("numpy.random", [ms](Interpreter& J, interp::ModuleObject& m) {
        ensureTypes(J, ms);
        initNumpyRandom(J, ms, m);
    });
    I.registerModule("time", [ms](Interpreter& J, interp::ModuleObject& m) { initTime(J, ms, m); });
    registerLayoutModules(I);
    return ms->ctx;
}

}  // namespace irscope::modules
