// mindspore.nn: the native Cell base (attribute registration of Parameters and sub-cells,
// __call__ running construct eagerly in PyNative mode or handing the call to the
// GraphCompiler in GRAPH_MODE) and the layers Dense, ReLU, Softmax, LayerNorm, Dropout,
// SequentialCell and CellList with eager construct methods.
//
// Dense's default initializers are MindSpore 2.x's: weight HeUniform(negative_slope=sqrt(5))
// i.e. U(-1/sqrt(in), 1/sqrt(in)) of shape (out, in), bias U(-1/sqrt(in), 1/sqrt(in)); the
// values are drawn (weight first, then bias, C order, as float64 then cast to float32) from
// np.random's global generator, so `np.random.seed(n)` or `mindspore.set_seed(n)` (which
// seeds np.random too, as in MindSpore) makes them deterministic.
#include <functional>
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <unordered_set>

#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

using interp::ClassBuilder;
using interp::Signature;
using ir::Tensor;

class CellObject : public Object {
public:
    explicit CellObject(Type* t) : Object(t, interp::ObjKind::Native) {}
    std::vector<std::pair<std::string, Value>> params;  // registration order
    std::vector<std::pair<std::string, Value>> cells;
    bool training = false;
    bool autoPrefix = true;
    Value initArgs;  // @lazy_inline's cell_init_args (a str), Null when not decorated
    std::string initState;  // @lazy_inline: the plain attributes as __init__ left them
    bool initStateKnown = false;
    void clearRefs() override {
        params.clear();
        cells.clear();
        initArgs = Value();
        Object::clearRefs();
    }
    Value* findParam(const std::string& n) {
        for (auto& [k, v] : params) {
            if (k == n) {
                return &v;
            }
        }
        return nullptr;
    }
    Value* findCell(const std::string& n) {
        for (auto& [k, v] : cells) {
            if (k == n) {
                return &v;
            }
        }
        return nullptr;
    }
};

CellObject* asCell(const Value& v) {
    return v.as<CellObject>();
}

namespace {

// A plain attribute's value as text: None, numbers and strings by value, tuples and lists
// (8 levels deep) item by item. Any other object is named by identity when `I` is given
// (rebinding it to another object is a change), else the value has no text (nullopt).
std::optional<std::string> valueText(Interpreter* I, const Value& v, int depth) {
    if (v.isNone()) {
        return "None";
    }
    if (v.isBool()) {
        return v.asBool() ? "True" : "False";
    }
    if (v.isInt()) {
        return std::to_string(v.asInt());
    }
    if (v.isFloat()) {
        return fmt::format("{}f", v.asFloat());  // shortest text that reads back the same
    }
    if (auto* str = v.as<interp::StrObject>()) {
        return fmt::format("'{}:{}", str->value.size(), str->value);
    }
    const bool tup = v.is<interp::TupleObject>();
    if (depth < 8 && (tup || v.is<interp::ListObject>())) {
        const auto& items = tup ? v.as<interp::TupleObject>()->items : v.as<interp::ListObject>()->items;
        std::string out = tup ? "(" : "[";
        for (const Value& item : items) {
            std::optional<std::string> text = valueText(I, item, depth + 1);
            if (!text) {
                return std::nullopt;
            }
            out += *text + ",";
        }
        return out + (tup ? ")" : "]");
    }
    if (I == nullptr) {
        return std::nullopt;
    }
    return fmt::format("<{}@{}>", I->typeName(v), static_cast<const void*>(v.obj()));
}

std::string cellStateOf(Interpreter& I, const Value& cell) {
    std::string out;
    if (interp::DictObject* d = cell.obj()->dict()) {
        d->forEach([&](const Value& k, const Value& v) {
            if (auto* key = k.as<interp::StrObject>(); key && key->value != "cell_init_args") {
                out += key->value + "=" + *valueText(&I, v, 0) + ";";
            }
        });
    }
    return out;
}

}  // namespace

void recordCellInitState(Interpreter& I, const Value& cell) {
    if (auto* c = asCell(cell)) {
        c->initState = cellStateOf(I, cell);
        c->initStateKnown = true;
    }
}

namespace {

void collectParameterPaths(CellObject* c, const std::string& prefix,
                           std::vector<std::pair<std::string, Value>>& out) {
    for (auto& [n, p] : c->params) {
        out.emplace_back(prefix + n, p);
    }
    for (auto& [n, sub] : c->cells) {
        if (auto* s = asCell(sub)) {
            collectParameterPaths(s, prefix + n + ".", out);
        }
    }
}

void collectSubCellConstants(Interpreter& I, CellObject* c, const std::string& prefix, std::string& out) {
    for (auto& [n, sub] : c->cells) {
        auto* s = asCell(sub);
        if (s == nullptr) {
            continue;
        }
        out += prefix + n + ":" + I.typeName(sub) + (s->training ? " train{" : " eval{");
        if (interp::DictObject* d = sub.obj()->dict()) {
            d->forEach([&](const Value& k, const Value& v) {
                auto* key = k.as<interp::StrObject>();
                if (key == nullptr || key->value == "cell_init_args") {
                    return;
                }
                if (std::optional<std::string> text = valueText(nullptr, v, 0)) {
                    out += key->value + "=" + *text + ";";
                }
            });
        }
        out += "}\n";
        collectSubCellConstants(I, s, prefix + n + ".", out);
    }
}

}  // namespace

std::string subCellConstants(Interpreter& I, const Value& cell) {
    std::string out;
    if (auto* c = asCell(cell)) {
        collectSubCellConstants(I, c, "", out);
    }
    return out;
}

std::vector<std::pair<std::string, Value>> cellParameterPaths(const Value& cell) {
    std::vector<std::pair<std::string, Value>> out;
    if (auto* c = asCell(cell)) {
        collectParameterPaths(c, "", out);
    }
    return out;
}

bool cellChangedSinceInit(Interpreter& I, const Value& cell) {
    auto* c = asCell(cell);
    return c != nullptr && c->initStateKnown && c->initState != cellStateOf(I, cell);
}

namespace {

void prefixParams(CellObject* c, const std::string& prefix) {
    for (auto& [n, p] : c->params) {
        auto* t = asTensor(p);
        t->name = prefix + (t->name.empty() ? n : t->name);
    }
    for (auto& [n, sub] : c->cells) {
        if (auto* s = asCell(sub)) {
            prefixParams(s, prefix);
        }
    }
}

void registerAttr(Interpreter& I, const MsTypes& ms, const Value& selfV, const std::string& name, const Value& v) {
    auto* self = asCell(selfV);
    if (v.isObj() && v.obj()->type()->isSubtypeOf(ms.parameter)) {
        auto* t = asTensor(v);
        if (t->name.empty()) {
            t->name = name;
        }
        if (Value* p = self->findParam(name)) {
            *p = v;
        } else {
            self->params.emplace_back(name, v);
        }
        if (interp::DictObject* d = selfV.obj()->dict()) {
            d->removeStr(name);
        }
        return;
    }
    if (auto* c = asCell(v)) {
        if (self->autoPrefix) {
            prefixParams(c, name + ".");
        }
        if (Value* p = self->findCell(name)) {
            *p = v;
        } else {
            self->cells.emplace_back(name, v);
        }
        // A plain value set before (`self.manager = None`) no longer shadows the cell.
        if (interp::DictObject* d = selfV.obj()->dict()) {
            d->removeStr(name);
        }
        return;
    }
    // A Tensor assigned to a Parameter attribute (PyNative `self.p = v`) sets the Parameter's
    // data in place, cast to its dtype (MindSpore's Cell.__setattr__ -> Parameter.set_data).
    if (Value* p = self->findParam(name)) {
        auto* src = asTensor(v);
        if (src != nullptr) {
            auto* dst = asTensor(*p);
            if (src->t.shape() != dst->t.shape()) {
                throw PyError(Exc::ValueError, "Can not change the shape of Parameter which has been initialized. "
                                               "Current shape is " + I.repr(I.getAttr(*p, "shape")) +
                                                   ", and incoming is " + I.repr(I.getAttr(v, "shape")) + ".");
            }
            dst->t.assignFrom(src->t.dtype() == dst->t.dtype() ? src->t : src->t.cast(dst->t.dtype()));
            return;
        }
        if (!v.isNone()) {
            throw PyError(Exc::TypeError, "For 'Cell', the type of " + name +
                                              " must be Parameter or ParameterTuple, but got " + I.typeName(v) + ".");
        }
    }
    // A plain value replacing a registered one drops the registration.
    for (auto* list : {&self->params, &self->cells}) {
        for (auto it = list->begin(); it != list->end(); ++it) {
            if (it->first == name) {
                list->erase(it);
                break;
            }
        }
    }
    I.genericSetAttr(selfV, I.intern(name), v);
}

void collectParams(CellObject* c, std::vector<Value>& out,
                   std::unordered_set<const Object*>& seen) {
    for (auto& [n, p] : c->params) {
        if (seen.insert(p.obj()).second) {
            out.push_back(p);
        }
    }
    for (auto& [n, sub] : c->cells) {
        if (auto* s = asCell(sub)) {
            collectParams(s, out, seen);
        }
    }
}

std::vector<Value> allParams(const Value& cell) {
    std::vector<Value> out;
    std::unordered_set<const Object*> seen;
    collectParams(asCell(cell), out, seen);
    return out;
}

void setTrainRec(CellObject* c, bool mode) {
    c->training = mode;
    for (auto& [n, sub] : c->cells) {
        if (auto* s = asCell(sub)) {
            setTrainRec(s, mode);
        }
    }
}

[[noreturn]] void graphUnavailable(const std::string& what) {
    throw PyError(Exc::RuntimeError, "irscope: GRAPH_MODE compilation is not available yet (" + what + ")");
}

Value cellCall(Interpreter& I, const MsTypes& ms, CallArgs& a) {
    Value self = a.pos.at(0);
    if (ms.ctx->mode == MsContext::kGraphMode) {
        const std::string what = "calling Cell '" + I.typeName(self) + "' in GRAPH_MODE; use "
                                 "set_context(mode=PYNATIVE_MODE) to run it eagerly";
        if (!ms.ctx->compiler) {
            graphUnavailable(what);
        }
        CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
        return ms.ctx->compiler->call(I, self, rest);
    }
    CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
    return I.callMethod(self, "construct", std::move(rest));
}

// Cell.compile(*args): compiles the network for these inputs without running it, in either
// mode (MindSpore's `model(x) = model.compile(x) + model.construct(x)` in graph mode).
Value cellCompile(Interpreter& I, const MsTypes& ms, CallArgs& a) {
    Value self = a.pos.at(0);
    if (!ms.ctx->compiler) {
        return Value::none();  // nothing to compile with (a bare interpreter): a no-op
    }
    CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
    ms.ctx->compiler->compile(I, self, rest);
    return Value::none();
}

Tensor uniformTensor(MsContext& ctx, ir::Shape shape, double bound) {
    const auto n = static_cast<std::size_t>(shape.elementCount());
    std::vector<double> v = ctx.npRandom.uniforms(-bound, bound, n);
    return Tensor::fromDoubles(ir::DType::Float32, std::move(shape), v);
}

Value makeParam(Interpreter& I, const MsTypes& ms, Tensor t, const std::string& name) {
    Ref<TensorObject> p = I.make<TensorObject>(ms.parameter);
    p->t = std::move(t);
    p->name = name;
    return Value(p);
}

Value activationCell(Interpreter& I, const Value& nnModule, const Value& act) {
    if (act.isNone() || act.isNull()) {
        return Value::none();
    }
    if (auto* s = act.as<interp::StrObject>()) {
        static const std::pair<const char*, const char*> names[] = {
            {"relu", "ReLU"}, {"softmax", "Softmax"}, {"sigmoid", "Sigmoid"}, {"tanh", "Tanh"}, {"gelu", "GELU"}};
        for (auto& [k, cls] : names) {
            if (s->value == k) {
                Value c = I.getAttrOrNull(nnModule, cls);
                if (!c.isNull()) {
                    return I.call(c, {});
                }
            }
        }
        throw PyError(Exc::KeyError, "For 'get_activation', the activation '" + s->value + "' is not supported.");
    }
    return act;
}

}  // namespace

void initNn(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    initGraphCell(I, ms, m);
    Ref<Type> cell =
        ClassBuilder(I, "Cell", "mindspore.nn.cell")
            .layout<CellObject>()
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) {
                        static const Signature sig =
                            Signature("Cell.__init__").arg("self").arg("auto_prefix", Value::boolean(true)).arg("flags", Value::none());
                        auto v = sig.bind(J, a);
                        asCell(v[0])->autoPrefix = J.truthy(v[1]);
                        return Value::none();
                    })
            .method("__setattr__",
                    [ms](Interpreter& J, CallArgs& a) {
                        registerAttr(J, *ms, a.pos.at(0), interp::toStr(J, a.pos.at(1), "attribute name"), a.pos.at(2));
                        return Value::none();
                    })
            .method("__getattr__",
                    [](Interpreter& J, CallArgs& a) -> Value {
                        auto* self = asCell(a.pos.at(0));
                        const std::string& name = interp::toStr(J, a.pos.at(1), "attribute name");
                        if (Value* p = self->findParam(name)) {
                            return *p;
                        }
                        if (Value* c = self->findCell(name)) {
                            return *c;
                        }
                        if (name == "cell_init_args" && !self->initArgs.isNull()) {
                            return self->initArgs;
                        }
                        throw PyError(Exc::AttributeError,
                                      "'" + J.typeName(a.pos[0]) + "' object has no attribute '" + name + "'");
                    })
            .method("__delattr__",
                    [](Interpreter& J, CallArgs& a) {
                        auto* self = asCell(a.pos.at(0));
                        const std::string& name = interp::toStr(J, a.pos.at(1), "attribute name");
                        for (auto* list : {&self->params, &self->cells}) {
                            for (auto it = list->begin(); it != list->end(); ++it) {
                                if (it->first == name) {
                                    list->erase(it);
                                    return Value::none();
                                }
                            }
                        }
                        J.genericDelAttr(a.pos[0], J.intern(name));
                        return Value::none();
                    })
            .method("__call__", [ms](Interpreter& J, CallArgs& a) { return cellCall(J, *ms, a); })
            .method("construct",
                    [](Interpreter& J, CallArgs& a) -> Value {
                        throw PyError(Exc::AttributeError, "For 'Cell', the method 'construct' is not defined in '" +
                                                               J.typeName(a.pos.at(0)) + "'.");
                    })
            .method("compile", [ms](Interpreter& J, CallArgs& a) { return cellCompile(J, *ms, a); })
            // set_inputs(*inputs): the network's inputs declared ahead of the call, possibly with
            // dynamic dimensions; each call compiles for the shapes it is given.
            .method("set_inputs",
                    [](Interpreter& J, CallArgs& a) {
                        J.setAttr(a.pos.at(0), "_dynamic_shape_inputs",
                                  Value(J.newTuple(std::vector<Value>(a.pos.begin() + 1, a.pos.end()))));
                        return Value::none();
                    })
            .method("get_inputs",
                    [](Interpreter& J, CallArgs& a) {
                        Value v = J.getAttrOrNull(a.pos.at(0), "_dynamic_shape_inputs");
                        return v.isNull() ? Value::none() : v;
                    })
            .method("set_train",
                    [](Interpreter& J, CallArgs& a) {
                        setTrainRec(asCell(a.pos.at(0)), a.pos.size() > 1 ? J.truthy(a.pos[1]) : true);
                        return a.pos[0];
                    })
            .method("set_grad", [](Interpreter&, CallArgs& a) { return a.pos.at(0); })
            .method("to_float", [](Interpreter&, CallArgs& a) { return a.pos.at(0); })
            .method("trainable_params",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out;
                        for (const Value& p : allParams(a.pos.at(0))) {
                            if (asTensor(p)->requiresGrad) {
                                out.push_back(p);
                            }
                        }
                        return Value(J.newList(std::move(out)));
                    })
            .method("untrainable_params",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out;
                        for (const Value& p : allParams(a.pos.at(0))) {
                            if (!asTensor(p)->requiresGrad) {
                                out.push_back(p);
                            }
                        }
                        return Value(J.newList(std::move(out)));
                    })
            .method("get_parameters",
                    [](Interpreter& J, CallArgs& a) { return J.iter(Value(J.newList(allParams(a.pos.at(0))))); })
            .method("parameters_and_names",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out;
                        for (const Value& p : allParams(a.pos.at(0))) {
                            out.push_back(Value(J.newTuple({J.getAttr(p, "name"), p})));
                        }
                        return J.iter(Value(J.newList(std::move(out))));
                    })
            .method("parameters_dict",
                    [](Interpreter& J, CallArgs& a) {
                        Ref<interp::DictObject> d = J.newDict();
                        for (const Value& p : allParams(a.pos.at(0))) {
                            d->set(J, J.getAttr(p, "name"), p);
                        }
                        return Value(d);
                    })
            .method("cells",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out;
                        for (auto& [n, c] : asCell(a.pos.at(0))->cells) {
                            out.push_back(c);
                        }
                        return J.iter(Value(J.newList(std::move(out))));
                    })
            .method("name_cells",
                    [](Interpreter& J, CallArgs& a) {
                        Ref<interp::DictObject> d = J.newDict();
                        for (auto& [n, c] : asCell(a.pos.at(0))->cells) {
                            d->set(J, Value(J.newStr(n)), c);
                        }
                        return Value(d);
                    })
            .method("cells_and_names",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out{Value(J.newTuple({Value(J.newStr("")), a.pos.at(0)}))};
                        std::function<void(const Value&, const std::string&)> rec = [&](const Value& c, const std::string& pre) {
                            for (auto& [n, sub] : asCell(c)->cells) {
                                const std::string full = pre.empty() ? n : pre + "." + n;
                                out.push_back(Value(J.newTuple({Value(J.newStr(full)), sub})));
                                rec(sub, full);
                            }
                        };
                        rec(a.pos[0], "");
                        return J.iter(Value(J.newList(std::move(out))));
                    })
            .method("insert_child_to_cell",
                    [ms](Interpreter& J, CallArgs& a) {
                        registerAttr(J, *ms, a.pos.at(0), interp::toStr(J, a.pos.at(1)), a.pos.at(2));
                        return Value::none();
                    })
            .method("__repr__",
                    [](Interpreter& J, CallArgs& a) {
                        // MindSpore's layout: Net<\n  (fc): Dense<...>\n  >, children indented.
                        Value self = a.pos.at(0);
                        std::string extra;
                        Value ext = J.getAttrOrNull(self, "extend_repr");
                        if (!ext.isNull()) {
                            extra = J.str(J.call(ext, {}));
                        }
                        std::string out = J.typeName(self) + "<";
                        auto* c = asCell(self);
                        if (!c->cells.empty()) {
                            std::string sub = "\n";
                            if (!extra.empty()) {
                                sub += extra + "\n";
                            }
                            for (auto& [n, child] : std::vector<std::pair<std::string, Value>>(c->cells)) {
                                sub += "(" + n + "): " + J.repr(child) + "\n";
                            }
                            for (char ch : sub) {
                                out += ch;
                                if (ch == '\n') {
                                    out += "  ";
                                }
                            }
                        } else {
                            out += extra;
                        }
                        return Value(J.newStr(out + ">"));
                    })
            .method("extend_repr", [](Interpreter& J, CallArgs&) { return Value(J.newStr("")); })
            .property(
                "training", [](Interpreter&, const Value& s) { return Value::boolean(asCell(s)->training); },
                [](Interpreter& J, const Value& s, const Value& v) { asCell(s)->training = J.truthy(v); })
            .build();
    ms->cell = cell.get();
    ms->keep.push_back(Value(cell));
    interp::addToModule(I, m, "Cell", Value(cell));
    Value nnModule(&m);

    auto layer = [&](const std::string& name, interp::NativeFn init, interp::NativeFn construct,
                     interp::NativeFn extendRepr = nullptr) {
        ClassBuilder b(I, name, "mindspore.nn", {cell});
        b.method("__init__", std::move(init)).method("construct", std::move(construct));
        if (extendRepr) {
            b.method("extend_repr", std::move(extendRepr));
        }
        Ref<Type> t = b.build();
        interp::addToModule(I, m, name, Value(t));
        return t;
    };
    auto baseInit = [](Interpreter& J, const Value& self) { asCell(self)->autoPrefix = true; (void)J; };
    // A layer's initial weight: a Tensor as given, None by the layer's default, anything else
    // (a name such as 'ones', a number, an Initializer) through mindspore.common.initializer.
    auto initialTensor = [](Interpreter& J, const Value& init, const ir::Shape& shape,
                            const std::function<Tensor(const ir::Shape&)>& byDefault) -> Tensor {
        if (auto* t = asTensor(init)) {
            return t->t.cast(ir::DType::Float32);
        }
        if (init.isNone()) {
            return byDefault(shape);
        }
        std::vector<Value> dims;
        for (std::int64_t d : shape.dims) {
            dims.push_back(Value::integer(d));
        }
        Value fn = J.getAttr(Value(J.importModule("mindspore.common.initializer")), "initializer");
        Value r = J.call(fn, {init, Value(J.newTuple(std::move(dims)))});
        auto* t = asTensor(r);
        if (t == nullptr) {
            throw PyError(Exc::TypeError, "irscope: the initializer did not give a Tensor");
        }
        return t->t.cast(ir::DType::Float32);
    };

    // Dense
    layer(
        "Dense",
        [ms, baseInit, nnModule, initialTensor](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("Dense")
                                             .arg("self")
                                             .arg("in_channels")
                                             .arg("out_channels")
                                             .arg("weight_init", Value::none())
                                             .arg("bias_init", Value::none())
                                             .arg("has_bias", Value::boolean(true))
                                             .arg("activation", Value::none())
                                             .arg("dtype", Value::none());
            auto v = sig.bind(J, a);
            baseInit(J, v[0]);
            const std::int64_t in = J.toIndex(v[1]), out = J.toIndex(v[2]);
            if (in <= 0 || out <= 0) {
                throw PyError(Exc::ValueError, "For 'Dense', 'in_channels' and 'out_channels' must be positive int.");
            }
            const double bound = 1.0 / std::sqrt(static_cast<double>(in));
            const Tensor w = initialTensor(J, v[3], ir::Shape{out, in},
                                           [&](const ir::Shape& s) { return uniformTensor(*ms->ctx, s, bound); });
            registerAttr(J, *ms, v[0], "weight", makeParam(J, *ms, w, "weight"));
            const bool hasBias = J.truthy(v[5]);
            J.genericSetAttr(v[0], J.intern("has_bias"), Value::boolean(hasBias));
            J.genericSetAttr(v[0], J.intern("in_channels"), Value::integer(in));
            J.genericSetAttr(v[0], J.intern("out_channels"), Value::integer(out));
            if (hasBias) {
                const Tensor b = initialTensor(J, v[4], ir::Shape{out}, [&](const ir::Shape& s) {
                    return uniformTensor(*ms->ctx, s, bound);
                });
                registerAttr(J, *ms, v[0], "bias", makeParam(J, *ms, b, "bias"));
            }
            Value act = activationCell(J, nnModule, v[6]);
            if (!act.isNone()) {
                registerAttr(J, *ms, v[0], "activation", act);
            }
            J.genericSetAttr(v[0], J.intern("activation_flag"), Value::boolean(!act.isNone()));
            return Value::none();
        },
        [ms](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            auto* c = asCell(self);
            Value x = a.pos.at(1);
            auto* xt = asTensor(x);
            if (!xt) {
                throw PyError(Exc::TypeError, "For 'Dense', the input 'x' must be a Tensor, but got " + J.typeName(x) + ".");
            }
            const Tensor in = xt->t;
            Tensor x2 = in;
            if (in.rank() != 2) {
                const std::int64_t last = in.rank() == 0 ? 1 : in.shape().dims.back();
                x2 = in.reshaped(ir::Shape{static_cast<std::int64_t>(in.size()) / std::max<std::int64_t>(last, 1), last});
            }
            ir::AttrMap attrs;
            attrs.set("transpose_b", ir::Value::boolean(true));
            Value y = runOpByName(J, *ms, "MatMul", {newTensor(J, *ms, x2), *c->findParam("weight")}, attrs);
            if (Value* b = c->findParam("bias")) {
                y = runOpByName(J, *ms, "BiasAdd", {y, *b});
            }
            if (Value* act = c->findCell("activation")) {
                y = J.call(*act, {y});
            }
            if (in.rank() != 2) {
                std::vector<std::int64_t> dims = in.shape().dims;
                if (dims.empty()) {
                    dims.push_back(1);
                }
                dims.back() = asTensor(y)->t.shape().dims.back();
                y = newTensor(J, *ms, asTensor(y)->t.reshaped(ir::Shape{std::move(dims)}));
            }
            return y;
        },
        [](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            std::string r = "input_channels=" + J.str(J.getAttr(self, "in_channels")) +
                            ", output_channels=" + J.str(J.getAttr(self, "out_channels")) +
                            ", has_bias=" + J.str(J.getAttr(self, "has_bias"));
            if (Value* act = asCell(self)->findCell("activation")) {
                r += ", activation=" + J.repr(*act);
            }
            return Value(J.newStr(r));
        });

    // Activations
    auto simpleAct = [&](const std::string& name, const std::string& prim) {
        layer(
            name, [baseInit](Interpreter& J, CallArgs& a) { baseInit(J, a.pos.at(0)); return Value::none(); },
            [ms, prim](Interpreter& J, CallArgs& a) { return runOpByName(J, *ms, prim, {a.pos.at(1)}); });
    };
    simpleAct("ReLU", "ReLU");
    simpleAct("Sigmoid", "Sigmoid");
    simpleAct("Tanh", "Tanh");
    simpleAct("GELU", "GeLU");
    simpleAct("HSwish", "HSwish");
    layer(
        "Softmax",
        [baseInit](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("Softmax").arg("self").arg("axis", Value::integer(-1));
            auto v = sig.bind(J, a);
            baseInit(J, v[0]);
            J.genericSetAttr(v[0], J.intern("axis"), v[1]);
            return Value::none();
        },
        [ms](Interpreter& J, CallArgs& a) {
            ir::AttrMap attrs;
            attrs.set("axis", toIrValue(J, *ms, J.getAttr(a.pos.at(0), "axis")));
            return runOpByName(J, *ms, "Softmax", {a.pos.at(1)}, attrs);
        });
    layer(
        "LayerNorm",
        [ms, baseInit](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("LayerNorm")
                                             .arg("self")
                                             .arg("normalized_shape")
                                             .arg("begin_norm_axis", Value::integer(-1))
                                             .arg("begin_params_axis", Value::integer(-1))
                                             .arg("gamma_init", Value(J.newStr("ones")))
                                             .arg("beta_init", Value(J.newStr("zeros")))
                                             .arg("epsilon", Value::real(1e-7))
                                             .arg("dtype", Value::none());
            auto v = sig.bind(J, a);
            baseInit(J, v[0]);
            if (!v[1].is<interp::TupleObject>() && !v[1].is<interp::ListObject>()) {
                throw PyError(Exc::TypeError, "For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or "
                                              "list[int], but got " + J.typeName(v[1]) + ".");
            }
            std::vector<std::int64_t> dims;
            for (const Value& d : J.toVector(v[1])) {
                dims.push_back(J.toIndex(d));
            }
            Tensor g(ir::DType::Float32, ir::Shape{std::vector<std::int64_t>(dims)});
            for (std::size_t i = 0; i < g.size(); ++i) {
                g.setDouble(i, 1.0);
            }
            registerAttr(J, *ms, v[0], "gamma", makeParam(J, *ms, g, "gamma"));
            registerAttr(J, *ms, v[0], "beta", makeParam(J, *ms, Tensor(ir::DType::Float32, ir::Shape{dims}), "beta"));
            J.genericSetAttr(v[0], J.intern("begin_norm_axis"), v[2]);
            J.genericSetAttr(v[0], J.intern("begin_params_axis"), v[3]);
            J.genericSetAttr(v[0], J.intern("epsilon"), v[6]);
            return Value::none();
        },
        [ms](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            ir::AttrMap attrs;
            attrs.set("begin_norm_axis", toIrValue(J, *ms, J.getAttr(self, "begin_norm_axis")));
            attrs.set("begin_params_axis", toIrValue(J, *ms, J.getAttr(self, "begin_params_axis")));
            attrs.set("epsilon", ir::Value::floating(toDouble(J, J.getAttr(self, "epsilon"))));
            auto* c = asCell(self);
            const ops::OpDef* op = ops::OpRegistry::instance().find("LayerNorm");
            std::vector<ops::KernelArg> in{toKernelArg(J, *ms, a.pos.at(1)), toKernelArg(J, *ms, *c->findParam("gamma")),
                                           toKernelArg(J, *ms, *c->findParam("beta"))};
            return runOp(J, *ms, *op, attrs, std::move(in), false, 0);
        });
    layer(
        "Dropout",
        [baseInit](Interpreter& J, CallArgs& a) {
            static const Signature sig =
                Signature("Dropout").arg("self").arg("keep_prob", Value::none()).arg("p", Value::none()).arg("dtype", Value::none());
            auto v = sig.bind(J, a);
            baseInit(J, v[0]);
            double keep = 0.5;
            if (!v[2].isNone()) {
                const double p = toDouble(J, v[2]);
                if (p < 0 || p >= 1) {
                    throw PyError(Exc::ValueError, "For 'Dropout', the 'p' must be a number in range [0, 1), but got " +
                                                       J.repr(v[2]) + ".");
                }
                keep = 1 - p;
            } else if (!v[1].isNone()) {
                keep = toDouble(J, v[1]);
                if (keep <= 0 || keep > 1) {
                    throw PyError(Exc::ValueError, "For 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got " +
                                                       J.repr(v[1]) + ".");
                }
            }
            J.genericSetAttr(v[0], J.intern("keep_prob"), Value::real(keep));
            return Value::none();
        },
        [ms](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            const double keep = toDouble(J, J.getAttr(self, "keep_prob"));
            if (!asCell(self)->training || keep == 1.0) {
                return a.pos.at(1);
            }
            ir::AttrMap attrs;
            attrs.set("keep_prob", ir::Value::floating(keep));
            const ops::OpDef* op = ops::OpRegistry::instance().find("Dropout");
            return runOp(J, *ms, *op, attrs, {toKernelArg(J, *ms, a.pos.at(1))}, true, 0);
        });

    // Containers: cells registered under "0", "1", ...
    auto appendCell = [ms](Interpreter& J, const Value& self, const Value& c) {
        if (!asCell(c)) {
            throw PyError(Exc::TypeError, "For '" + J.typeName(self) + "', each cell must be a Cell, but got " +
                                              J.typeName(c) + ".");
        }
        registerAttr(J, *ms, self, std::to_string(asCell(self)->cells.size()), c);
    };
    auto containerMethods = [&](ClassBuilder& b) {
        b.method("__len__", [](Interpreter&, CallArgs& a) {
            return Value::integer(static_cast<std::int64_t>(asCell(a.pos.at(0))->cells.size()));
        });
        // As MindSpore's containers: an int picks a cell (negative from the end), a slice
        // makes a container of the same class holding those cells; an index in range reads
        // its cell directly (`self.blocks[i]` over hundreds of layers listed every cell at
        // every step).
        b.method("__getitem__", [](Interpreter& J, CallArgs& a) -> Value {
            const Value self = a.pos.at(0);
            const Value& index = a.pos.at(1);
            const auto& cells = asCell(self)->cells;
            const auto prefix = [&J, &self] { return "For '" + J.typeName(self) + "', the "; };
            if (index.is<interp::SliceObject>()) {
                std::vector<Value> items;
                for (const auto& [n, c] : cells) {
                    items.push_back(c);
                }
                const Value chosen = J.getItem(Value(J.newList(std::move(items))), index);
                return J.call(Value(J.typeOf(self)), {chosen});
            }
            // An int, or what converts to one (a scalar Tensor in PyNative).
            const Value toInt = index.isObj() ? J.typeOf(index)->lookup("__index__") : Value();
            if (!index.isIntLike() && (toInt.isNull() || toInt.isNone())) {
                throw PyError(Exc::TypeError, prefix() + "type of 'index' must be int, but got " +
                                                  J.typeName(index) + ".");
            }
            const auto n = static_cast<std::int64_t>(cells.size());
            const std::int64_t i = J.toIndex(index);
            if (i < -n || i >= n) {
                throw PyError(Exc::IndexError, prefix() +
                                                   "value of 'index' must be a number in range [" +
                                                   std::to_string(-n) + ", " + std::to_string(n) +
                                                   "), but got " + std::to_string(i) + ".");
            }
            return cells[static_cast<std::size_t>(i < 0 ? i + n : i)].second;
        });
        b.method("__iter__", [](Interpreter& J, CallArgs& a) {
            std::vector<Value> items;
            for (auto& [n, c] : asCell(a.pos.at(0))->cells) {
                items.push_back(c);
            }
            return J.iter(Value(J.newList(std::move(items))));
        });
        b.method("append", [appendCell](Interpreter& J, CallArgs& a) {
            appendCell(J, a.pos.at(0), a.pos.at(1));
            return Value::none();
        });
        b.method("extend", [appendCell](Interpreter& J, CallArgs& a) {
            for (const Value& c : J.toVector(a.pos.at(1))) {
                appendCell(J, a.pos[0], c);
            }
            return a.pos[0];
        });
    };
    {
        ClassBuilder b(I, "SequentialCell", "mindspore.nn", {cell});
        b.method("__init__", [appendCell](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            std::vector<Value> items;
            if (a.pos.size() == 2 && (a.pos[1].is<interp::ListObject>() || a.pos[1].is<interp::TupleObject>())) {
                items = J.toVector(a.pos[1]);
            } else {
                items.assign(a.pos.begin() + 1, a.pos.end());
            }
            for (const Value& c : items) {
                appendCell(J, self, c);
            }
            return Value::none();
        });
        containerMethods(b);
        b.method("construct", [](Interpreter& J, CallArgs& a) {
            Value x = a.pos.at(1);
            std::vector<Value> cells;
            for (auto& [n, c] : asCell(a.pos.at(0))->cells) {
                cells.push_back(c);
            }
            for (const Value& c : cells) {
                x = J.call(c, {x});
            }
            return x;
        });
        interp::addToModule(I, m, "SequentialCell", Value(b.build()));
    }
    {
        ClassBuilder b(I, "CellList", "mindspore.nn", {cell});
        b.method("__init__", [appendCell](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            if (a.pos.size() > 1 && !a.pos[1].isNone()) {
                for (const Value& c : J.toVector(a.pos[1])) {
                    appendCell(J, self, c);
                }
            }
            return Value::none();
        });
        containerMethods(b);
        b.method("insert", [ms](Interpreter& J, CallArgs& a) {
            Value self = a.pos.at(0);
            auto* c = asCell(self);
            std::vector<Value> items;
            for (auto& [n, v] : c->cells) {
                items.push_back(v);
            }
            std::int64_t i = J.toIndex(a.pos.at(1));
            const auto n = static_cast<std::int64_t>(items.size());
            i = i < 0 ? std::max<std::int64_t>(0, i + n) : std::min(i, n);
            items.insert(items.begin() + i, a.pos.at(2));
            c->cells.clear();
            for (std::size_t k = 0; k < items.size(); ++k) {
                c->cells.emplace_back(std::to_string(k), items[k]);
            }
            (void)ms;
            return Value::none();
        });
        b.method("construct", [](Interpreter& J, CallArgs& a) -> Value {
            (void)J;
            (void)a;
            throw PyError(Exc::NotImplementedError, "CellList has no construct; call its cells");
        });
        interp::addToModule(I, m, "CellList", Value(b.build()));
    }
}

}  // namespace irscope::modules
