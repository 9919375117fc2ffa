// mindspore.ops / ops.functional / ops.operations: every registry spelling, run eagerly
// through the CPU kernels. Primitive classes (ops.Add, ops.ReduceSum(keep_dims=True)) are
// native classes whose instances are callable; Depend returns its first input and Print
// writes its inputs (tensors as the Print operator shows them) to the output sink.
#include "frontend/modules/ms_internal.h"
#include "frontend/modules/ms_objects.h"
#include "ir/prim_names.h"
#include "ops/call_binding.h"
#include "runtime/tensor_format.h"

namespace irscope::modules {

using interp::ClassBuilder;
using interp::Signature;

namespace {

Value printInputs(Interpreter& I, const std::vector<Value>& inputs) {
    std::string text;
    for (const Value& v : inputs) {
        if (auto* t = asTensor(v)) {
            text += runtime::formatGraphPrint(t->t);
        } else if (auto* s = v.as<interp::StrObject>()) {
            text += s->value;
        } else {
            text += I.str(v);
        }
        text += "\n";
    }
    I.writeOutput(text);
    return Value::none();
}

}  // namespace

Value runOp(Interpreter& I, const MsTypes& ms, const ops::OpDef& op, const ir::AttrMap& attrs,
            std::vector<ops::KernelArg> inputs, bool training, int outputIndex) {
    if (op.name == ir::prim::kDepend) {
        if (inputs.empty()) {
            throw PyError(Exc::TypeError, "For 'Depend', the input 'value' must be given.");
        }
        return fromKernelArg(I, ms, inputs[0]);
    }
    try {
        ops::KernelArg r = ops::OpRegistry::instance().run(op, attrs, inputs, training);
        if (ms.ctx && ms.ctx->eagerObserver) {
            ms.ctx->eagerObserver->afterOp(I, op, r);
        }
        if (outputIndex >= 0 && r.isTuple()) {
            return fromKernelArg(I, ms, r.elements().at(static_cast<std::size_t>(outputIndex)));
        }
        return fromKernelArg(I, ms, r);
    } catch (const ops::OpError& e) {
        raiseOpError(e);
    }
}

Value runOpByName(Interpreter& I, const MsTypes& ms, std::string_view name,
                  std::vector<Value> inputs, const ir::AttrMap& attrs) {
    const ops::OpDef* op = ops::OpRegistry::instance().find(name);
    if (!op) {
        throw PyError(Exc::RuntimeError, "irscope: unknown primitive " + std::string(name));
    }
    std::vector<ops::KernelArg> in;
    for (const Value& v : inputs) {
        in.push_back(toKernelArg(I, ms, v));
    }
    return runOp(I, ms, *op, attrs, std::move(in));
}

namespace {

// Resolves one binding source against the call's arguments.
Value sourceValue(Interpreter& I, const ops::ArgSource& s, const std::vector<Value>& all) {
    if (s.kind == ops::ArgSource::Kind::Pack) {
        if (s.args.size() == 1 &&
            (all[s.args[0]].is<interp::TupleObject>() || all[s.args[0]].is<interp::ListObject>())) {
            return all[s.args[0]];
        }
        std::vector<Value> items;
        for (std::size_t i : s.args) {
            items.push_back(all[i]);
        }
        return Value(I.newTuple(std::move(items)));
    }
    return all.at(s.args.at(0));
}

ops::KernelArg sourceArg(Interpreter& I, const MsTypes& ms, const ops::ArgSource& s,
                         const std::vector<Value>& all) {
    switch (s.kind) {
        case ops::ArgSource::Kind::Default:
            return ops::kernelArgFromValue(s.value);
        case ops::ArgSource::Kind::Absent:
            return ops::KernelArg();
        default:
            break;
    }
    Value v = sourceValue(I, s, all);
    if (s.convert) {
        return ops::kernelArgFromValue(s.convert(toIrValue(I, ms, v)));
    }
    return toKernelArg(I, ms, v);
}

ir::ValuePtr sourceAttr(Interpreter& I, const MsTypes& ms, const ops::ArgSource& s,
                        const std::vector<Value>& all) {
    switch (s.kind) {
        case ops::ArgSource::Kind::Default:
            return s.value;
        case ops::ArgSource::Kind::Absent:
            return nullptr;
        default:
            break;
    }
    ir::ValuePtr v = toIrValue(I, ms, sourceValue(I, s, all));
    return s.convert ? s.convert(v) : v;
}

Value runBinding(Interpreter& I, const MsTypes& ms, const ops::OpDef& op, const ops::CallBinding& b,
                 const std::vector<Value>& all, ir::AttrMap attrs) {
    for (const auto& [name, src] : b.attrs) {
        if (ir::ValuePtr v = sourceAttr(I, ms, src, all)) {
            attrs.set(name, v);
        }
    }
    if (op.name == ir::prim::kPrint || op.name == ir::prim::kPartial) {
        std::vector<Value> vals;
        for (const ops::ArgSource& s : b.inputs) {
            if (s.kind == ops::ArgSource::Kind::Arg) {
                for (std::size_t i : s.args) {
                    vals.push_back(all[i]);
                }
            }
        }
        if (op.name == ir::prim::kPrint) {
            return printInputs(I, vals);
        }
        // Outside a graph, the function with its leading arguments bound: functools.partial.
        CallArgs call;
        call.pos = std::move(vals);
        return I.call(I.getAttr(Value(I.importModule("functools")), "partial"), std::move(call));
    }
    std::vector<ops::KernelArg> in;
    for (const ops::ArgSource& s : b.inputs) {
        in.push_back(sourceArg(I, ms, s, all));
    }
    return runOp(I, ms, op, attrs, std::move(in), true, b.outputIndex);
}

void splitArgs(const CallArgs& a, std::size_t skip, std::vector<Value>& all,
               std::vector<std::string>& kws) {
    all.assign(a.pos.begin() + static_cast<std::ptrdiff_t>(skip), a.pos.end());
    for (const interp::KwArg& k : a.kw) {
        kws.push_back(k.name);
        all.push_back(k.value);
    }
}

}  // namespace

Value callSpelling(Interpreter& I, const MsTypes& ms, const ops::OpDef& op, const ops::Spelling& sp,
                   CallArgs& args) {
    // ops.dropout(x, p, training=False) is the identity (the registry ignores `training`).
    if (op.name == "Dropout" && sp.kind == ops::SpellingKind::Function) {
        Value training = args.kwarg("training");
        if (training.isNull() && args.pos.size() > 2) {
            training = args.pos[2];
        }
        if (!training.isNull() && !I.truthy(training)) {
            Value x = args.pos.empty() ? args.kwarg("input") : args.pos[0];
            if (!x.isNull()) {
                return x;
            }
        }
    }
    std::vector<Value> all;
    std::vector<std::string> kws;
    splitArgs(args, 0, all, kws);
    ops::CallBinding b;
    try {
        b = ops::bindCall(op, sp, args.pos.size(), kws, [&all](std::size_t i) {
            return all[i].is<interp::TupleObject>() || all[i].is<interp::ListObject>();
        });
    } catch (const ops::OpError& e) {
        raiseOpError(e);
    }
    Value r = runBinding(I, ms, op, b, all, {});
    // Tensor methods of a numpy-backed operand stay tensors (MindSpore semantics).
    return r;
}

namespace {

Ref<Type> primitiveClass(Interpreter& I, const MsPtr& ms, const ops::OpDef* op,
                         const ops::Spelling* sp) {
    ClassBuilder b(I, op->name, "mindspore.ops.operations");
    b.layout<PrimitiveObject>();
    b.method("__init__", [ms, op, sp](Interpreter& J, CallArgs& a) {
        auto* self = a.pos.at(0).as<PrimitiveObject>();
        self->op = op;
        self->classSpelling = sp;
        std::vector<Value> all;
        std::vector<std::string> kws;
        splitArgs(a, 1, all, kws);
        ops::CallBinding cb;
        try {
            cb = ops::bindConstructor(*op, a.pos.size() - 1, kws);
        } catch (const ops::OpError& e) {
            raiseOpError(e);
        }
        for (const auto& [name, src] : cb.attrs) {
            if (ir::ValuePtr v = sourceAttr(J, *ms, src, all)) {
                self->attrs.set(name, v);
            }
        }
        return Value::none();
    });
    b.method("__call__", [ms](Interpreter& J, CallArgs& a) {
        Value selfV = a.pos.at(0);
        auto* self = selfV.as<PrimitiveObject>();
        if (!self->op) {
            throw PyError(Exc::RuntimeError, "irscope: primitive used before __init__");
        }
        std::vector<Value> all;
        std::vector<std::string> kws;
        splitArgs(a, 1, all, kws);
        ops::CallBinding cb;
        try {
            cb = ops::bindCall(*self->op, *self->classSpelling, a.pos.size() - 1, kws);
        } catch (const ops::OpError& e) {
            raiseOpError(e);
        }
        return runBinding(J, *ms, *self->op, cb, all, self->attrs);
    });
    b.method("add_prim_attr", [ms](Interpreter& J, CallArgs& a) {
        auto* self = a.pos.at(0).as<PrimitiveObject>();
        self->attrs.set(interp::toStr(J, a.pos.at(1)), toIrValue(J, *ms, a.pos.at(2)));
        return a.pos[0];
    });
    b.method("__repr__", [](Interpreter& J, CallArgs& a) {
        auto* self = a.pos.at(0).as<PrimitiveObject>();
        return Value(J.newStr("Prim[" + (self->op ? self->op->name : J.typeName(a.pos[0])) + "]"));
    });
    b.property("name", [](Interpreter& J, const Value& s) {
        auto* self = s.as<PrimitiveObject>();
        return Value(J.newStr(self->op ? self->op->name : J.typeName(s)));
    });
    b.property("attrs", [ms](Interpreter& J, const Value& s) {
        Ref<interp::DictObject> d = J.newDict();
        for (const auto& [k, v] : s.as<PrimitiveObject>()->attrs) {
            d->set(J, Value(J.newStr(k)), fromIrValue(J, *ms, v));
        }
        return Value(d);
    });
    return b.build();
}

}  // namespace

void initOpsModule(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m,
                   const std::string& prefix) {
    const auto& reg = ops::OpRegistry::instance();
    // Primitive classes are made once per interpreter and shared by ops / P.
    static const char* kClassKey = "__irscope_primitive_classes__";
    for (const auto& op : reg.ops()) {
        for (const ops::Spelling& sp : op->spellings) {
            const bool mine =
                sp.text.rfind(prefix, 0) == 0 || (prefix == "F." && sp.text.rfind("ops.", 0) == 0 &&
                                                  sp.kind == ops::SpellingKind::Function);
            if (!mine) {
                continue;
            }
            const std::string name = sp.text.substr(sp.text.find('.') + 1);
            if (!m.dict()->getStr(name).isNull()) {
                continue;
            }
            const ops::OpDef* opp = op.get();
            const ops::Spelling* spp = &sp;
            if (sp.kind == ops::SpellingKind::Class) {
                // One class per primitive: `ops.Add is P.Add`.
                Value cls;
                for (const Value& k : ms->keep) {
                    if (auto* t = k.as<Type>();
                        t && t->name == op->name && t->module == "mindspore.ops.operations") {
                        cls = k;
                    }
                }
                if (cls.isNull()) {
                    cls = Value(primitiveClass(I, ms, opp, spp));
                    ms->keep.push_back(cls);
                }
                interp::addToModule(I, m, name, cls);
            } else if (sp.kind == ops::SpellingKind::Function) {
                auto fn =
                    interp::addFunction(I, m, name, [ms, opp, spp](Interpreter& J, CallArgs& a) {
                        return callSpelling(J, *ms, *opp, *spp, a);
                    });
                fn->nativeData = std::make_shared<ops::SpellingRef>(ops::SpellingRef{opp, spp});
            }
        }
    }
    (void)kClassKey;
}

}  // namespace irscope::modules
