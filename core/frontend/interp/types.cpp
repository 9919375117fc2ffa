// Classes: bootstrapping the builtin types, creating classes (C3 MRO, instance layout),
// calling a class (__new__ / __init__), and attributes of class objects.
#include <algorithm>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/complex.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

Ref<Type> Interpreter::builtinType(const char* name, Type* base, bool subclassable) {
    Ref<Type> t = make<Type>(types_.type.get(), name);
    t->module = "builtins";
    t->immutable = true;
    t->subclassable = subclassable;
    t->setDict(newDict().get());
    if (base) {
        t->bases.push_back(Ref<Type>(base));
        t->mro.push_back(t.get());
        t->mro.insert(t->mro.end(), base->mro.begin(), base->mro.end());
        t->layoutOwner = base->layoutOwner;
    } else {
        t->mro.push_back(t.get());
    }
    return t;
}

void Interpreter::setUpTypes() {
    // type, object, dict and str need each other: make them bare, then wire them up.
    types_.type = heap_.adopt(new Type(nullptr, "type"));
    types_.object = heap_.adopt(new Type(nullptr, "object"));
    types_.dict = heap_.adopt(new Type(nullptr, "dict"));
    types_.str = heap_.adopt(new Type(nullptr, "str"));
    types_.object->mro = {types_.object.get()};
    for (Type* t : {types_.type.get(), types_.object.get(), types_.dict.get(), types_.str.get()}) {
        t->setType(types_.type.get());
        t->module = "builtins";
        t->immutable = true;
        if (t != types_.object.get()) {
            t->bases = {types_.object};
            t->mro = {t, types_.object.get()};
        }
    }
    for (Type* t : {types_.type.get(), types_.object.get(), types_.dict.get(), types_.str.get()}) {
        t->setDict(make<DictObject>(types_.dict.get()).get());
    }
    types_.str->subclassable = false;
    Type* obj = types_.object.get();
    auto& T = types_;
    T.noneType = builtinType("NoneType", obj, false);
    T.notImplementedType = builtinType("NotImplementedType", obj, false);
    T.ellipsisType = builtinType("ellipsis", obj, false);
    T.intType = builtinType("int", obj, false);
    T.boolType = builtinType("bool", T.intType.get(), false);
    T.floatType = builtinType("float", obj, false);
    T.tuple = builtinType("tuple", obj, false);
    T.list = builtinType("list", obj, true);
    T.set = builtinType("set", obj, true);
    T.range = builtinType("range", obj, false);
    T.slice = builtinType("slice", obj, false);
    T.function = builtinType("function", obj, false);
    T.boundMethod = builtinType("method", obj, false);
    T.builtinFunction = builtinType("builtin_function_or_method", obj, false);
    T.cell = builtinType("cell", obj, false);
    T.module = builtinType("module", obj, false);
    T.property = builtinType("property", obj, false);
    T.staticMethod = builtinType("staticmethod", obj, false);
    T.classMethod = builtinType("classmethod", obj, false);
    T.super = builtinType("super", obj, false);
    T.getSetDescriptor = builtinType("getset_descriptor", obj, false);
    T.dictKeys = builtinType("dict_keys", obj, false);
    T.dictValues = builtinType("dict_values", obj, false);
    T.dictItems = builtinType("dict_items", obj, false);
    T.function->instanceDict = true;

    T.list->alloc = [](Interpreter& I, Type* cls, CallArgs&) {
        return Ref<Object>(I.make<ListObject>(cls));
    };
    T.list->layoutOwner = T.list.get();
    T.dict->alloc = [](Interpreter& I, Type* cls, CallArgs&) {
        return Ref<Object>(I.make<DictObject>(cls));
    };
    T.dict->layoutOwner = T.dict.get();
    T.set->alloc = [](Interpreter& I, Type* cls, CallArgs&) {
        return Ref<Object>(I.make<SetObject>(cls));
    };
    T.set->layoutOwner = T.set.get();

    notImplemented_ = Value(make<PlainObject>(T.notImplementedType.get()));
    ellipsis_ = Value(make<PlainObject>(T.ellipsisType.get()));
    setUpExceptionTypes(*this, types_);
}

void Interpreter::setUpBuiltins() {
    builtins_ = make<ModuleObject>(types_.module.get(), "builtins");
    builtins_->setDict(newDict().get());
    builtins_->dict()->setStr(intern("__name__"), Value(newStr("builtins")));
    setUpObjectMethods();
    setUpTypeMethods();
    setUpTypeConstructors(*this);
    setUpStrMethods(*this);
    setUpSeqMethods(*this);
    setUpDictMethods(*this);
    setUpIterators(*this);
    setUpBuiltinFunctions(*this);
    setUpComplex(*this);
    typesChanged();
}

// --- creating classes -------------------------------------------------------------------------

namespace {

// C3 linearization of the bases' MROs; false when no consistent order exists.
bool c3Merge(std::vector<std::vector<Type*>> seqs, std::vector<Type*>& out) {
    for (;;) {
        seqs.erase(
            std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }),
            seqs.end());
        if (seqs.empty()) {
            return true;
        }
        Type* next = nullptr;
        for (const auto& s : seqs) {
            Type* cand = s.front();
            bool inTail = false;
            for (const auto& other : seqs) {
                if (std::find(other.begin() + 1, other.end(), cand) != other.end()) {
                    inTail = true;
                    break;
                }
            }
            if (!inTail) {
                next = cand;
                break;
            }
        }
        if (!next) {
            return false;
        }
        out.push_back(next);
        for (auto& s : seqs) {
            if (!s.empty() && s.front() == next) {
                s.erase(s.begin());
            }
        }
    }
}

}  // namespace

Ref<Type> Interpreter::newClass(std::string name, std::vector<Ref<Type>> bases, Ref<DictObject> ns,
                                std::string module) {
    if (bases.empty()) {
        bases.push_back(types_.object);
    }
    for (std::size_t i = 0; i < bases.size(); ++i) {
        if (!bases[i]->subclassable) {
            throw PyError(Exc::TypeError,
                          "type '" + bases[i]->name + "' is not an acceptable base type");
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (bases[i] == bases[j]) {
                throw PyError(Exc::TypeError, "duplicate base class " + bases[i]->name);
            }
        }
    }
    std::vector<std::vector<Type*>> seqs;
    for (const Ref<Type>& b : bases) {
        seqs.push_back(b->mro);
    }
    std::vector<Type*> direct;
    for (const Ref<Type>& b : bases) {
        direct.push_back(b.get());
    }
    seqs.push_back(direct);
    std::vector<Type*> merged;
    if (!c3Merge(seqs, merged)) {
        std::string names;
        for (std::size_t i = 0; i < bases.size(); ++i) {
            names += (i ? ", " : "") + bases[i]->name;
        }
        throw PyError(
            Exc::TypeError,
            "Cannot create a consistent method resolution\norder (MRO) for bases " + names);
    }
    // The instance layout: the most derived native layout among the bases.
    Type* owner = nullptr;
    for (const Ref<Type>& b : bases) {
        Type* lo = b->layoutOwner;
        if (!lo) {
            continue;
        }
        if (!owner || lo->isSubtypeOf(owner)) {
            owner = lo;
        } else if (!owner->isSubtypeOf(lo)) {
            throw PyError(Exc::TypeError, "multiple bases have instance lay-out conflict");
        }
    }
    Ref<Type> t = make<Type>(types_.type.get(), name);
    t->module = std::move(module);
    if (const auto* q = ns->getStr("__qualname__").as<StrObject>()) {
        t->qualname = q->value;
        ns->removeStr("__qualname__");
    }
    t->bases = std::move(bases);
    t->mro.push_back(t.get());
    t->mro.insert(t->mro.end(), merged.begin(), merged.end());
    t->layoutOwner = owner;
    t->instanceDict = true;
    t->setDict(ns.get());
    if (!ns->getStr("__eq__").isNull() && ns->getStr("__hash__").isNull()) {
        ns->setStr(intern("__hash__"), Value::none());
    }
    if (auto* f = ns->getStr("__new__").as<FunctionObject>()) {  // implicitly a staticmethod
        ns->setStr(intern("__new__"),
                   Value(make<StaticMethodObject>(types_.staticMethod.get(), Value(f))));
    }
    if (ns->getStr("__module__").isNull()) {
        ns->setStr(intern("__module__"), Value(newStr(t->module)));
    }
    typesChanged();
    return t;
}

// --- calling a class --------------------------------------------------------------------------

Value Interpreter::callType(Type* t, CallArgs& args) {
    if (t->construct) {
        return t->construct(*this, t, args);
    }
    Value newFn = t->lookup("__new__");
    Value obj;
    bool customNew = !newFn.isNull() && !newFn.identical(objectNew_);
    if (customNew) {
        if (auto* sm = newFn.as<StaticMethodObject>()) {
            newFn = sm->func;
        }
        CallArgs a2 = args;
        a2.pos.insert(a2.pos.begin(), Value(t));
        obj = call(newFn, std::move(a2));
        if (!isInstance(obj, t)) {
            return obj;
        }
    } else {
        Type* owner = t->layoutOwner;
        obj = owner && owner->alloc ? Value(owner->alloc(*this, t, args))
                                    : Value(make<PlainObject>(t));
    }
    Value init = t->lookup("__init__");
    if (init.isNull() || init.identical(objectInit_)) {
        if (!customNew && t->layoutOwner == nullptr && (!args.pos.empty() || !args.kw.empty())) {
            throw PyError(Exc::TypeError, t->name + "() takes no arguments");
        }
        return obj;
    }
    Value bound = bindDescriptor(init, obj, t);
    Value r = call(bound, std::move(args));
    if (!r.isNone() && !r.isNull()) {
        throw PyError(Exc::TypeError, "__init__() should return None, not '" + typeName(r) + "'");
    }
    return obj;
}

// --- attributes of classes --------------------------------------------------------------------

Value Interpreter::typeGetAttr(Type* t, const Ref<StrObject>& name) {
    Type* meta = typeOf(Value(t));
    Value metaAttr = meta->lookup(name->value);
    if (auto* p = metaAttr.as<NativePropertyObject>()) {
        return p->getter(*this, Value(t));
    }
    Value v = t->lookup(name->value);
    if (!v.isNull()) {
        if (auto* sm = v.as<StaticMethodObject>()) {
            return sm->func;
        }
        if (auto* cm = v.as<ClassMethodObject>()) {
            return Value(make<BoundMethodObject>(types_.boundMethod.get(), cm->func, Value(t)));
        }
        if (auto* nf = v.as<NativeFunctionObject>()) {
            if (nf->binding == NativeFunctionObject::Binding::Class) {
                return Value(make<BoundMethodObject>(types_.builtinFunction.get(), v, Value(t)));
            }
            return v;
        }
        if (v.isObj() && !v.obj()->type()->immutable) {  // a script descriptor's __get__
            Value get = v.obj()->type()->lookup("__get__");
            if (!get.isNull()) {
                return call(get, {v, Value::none(), Value(t)});
            }
        }
        return v;
    }
    if (!metaAttr.isNull()) {
        return bindDescriptor(metaAttr, Value(t), meta);
    }
    if (name->value == "__doc__") {
        return Value::none();
    }
    return {};
}

void Interpreter::typeSetAttr(Type* t, const Ref<StrObject>& name, const Value& v) {
    if (t->immutable) {
        throw PyError(Exc::TypeError, "cannot set '" + name->value +
                                          "' attribute of immutable type '" + t->name + "'");
    }
    Type* meta = typeOf(Value(t));
    if (auto* p = meta->lookup(name->value).as<NativePropertyObject>()) {
        if (!p->setter) {
            throw PyError(Exc::AttributeError,
                          "attribute '" + name->value + "' of 'type' objects is not writable");
        }
        p->setter(*this, Value(t), v);
        return;
    }
    if (v.isNull()) {
        if (!t->dict()->removeStr(name->value)) {
            throw PyError(Exc::AttributeError,
                          "type object '" + t->name + "' has no attribute '" + name->value + "'");
        }
    } else {
        t->dict()->setStr(name, v);
    }
    typesChanged();
}

const Type::HookCache& Interpreter::hooksOf(Type* t) {
    Type::HookCache& h = t->hooks;
    if (h.epoch != typeEpoch_) {
        h.getattribute = t->lookup("__getattribute__");
        h.getattr = t->lookup("__getattr__");
        h.setattr = t->lookup("__setattr__");
        h.delattr = t->lookup("__delattr__");
        h.epoch = typeEpoch_;
    }
    return h;
}

void Interpreter::setUpTypeMethods() {
    Type* type = types_.type.get();
    auto prop = [&](const char* n, NativeGetter g, NativeSetter s = nullptr) {
        type->dict()->setStr(intern(n),
                             Value(make<NativePropertyObject>(types_.getSetDescriptor.get(), n,
                                                              std::move(g), std::move(s))));
    };
    auto self = [](const Value& v) { return v.as<Type>(); };
    prop(
        "__name__",
        [self](Interpreter& I, const Value& v) { return Value(I.newStr(self(v)->name)); },
        [self](Interpreter& I, const Value& v, const Value& n) {
            self(v)->name = toStr(I, n, "__name__");
        });
    prop(
        "__qualname__",
        [self](Interpreter& I, const Value& v) { return Value(I.newStr(self(v)->qualname)); },
        [self](Interpreter& I, const Value& v, const Value& n) {
            self(v)->qualname = toStr(I, n, "__qualname__");
        });
    prop("__mro__", [self](Interpreter& I, const Value& v) {
        std::vector<Value> items;
        for (Type* t : self(v)->mro) {
            items.push_back(Value(t));
        }
        return Value(I.newTuple(std::move(items)));
    });
    prop("__bases__", [self](Interpreter& I, const Value& v) {
        std::vector<Value> items;
        for (const Ref<Type>& t : self(v)->bases) {
            items.push_back(Value(t));
        }
        return Value(I.newTuple(std::move(items)));
    });
    prop("__base__", [self](Interpreter&, const Value& v) {
        Type* t = self(v);
        return t->bases.empty() ? Value::none() : Value(t->bases.front());
    });
    prop("__dict__", [self](Interpreter& I, const Value& v) {
        Ref<DictObject> d = I.newDict();
        self(v)->dict()->forEach([&](const Value& k, const Value& x) { d->set(I, k, x); });
        return Value(d);
    });
    prop("__module__", [self](Interpreter& I, const Value& v) {
        Value m = self(v)->dict()->getStr("__module__");
        return m.isNull() ? Value(I.newStr(self(v)->module)) : m;
    });
    defMethod(*this, type, "mro", [self](Interpreter& I, CallArgs& a) {
        std::vector<Value> items;
        for (Type* t : self(a.pos.at(0))->mro) {
            items.push_back(Value(t));
        }
        return Value(I.newList(std::move(items)));
    });
}

}  // namespace irscope::interp
