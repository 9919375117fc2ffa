// Attribute access: object.__getattribute__/__setattr__/__delattr__ (descriptors, the
// instance dict), __getattr__ fallbacks, modules, super objects and object's own methods.
#include <cstdio>

#include <fmt/format.h>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

void defMethod(Interpreter& I, Type* t, const std::string& name, NativeFn fn) {
    std::string qualname = t->name + "." + name;
    if (name != "__new__") {  // a static method: it checks its own arguments
        // Called through the class with no instance (`object.__str__()`), as CPython says it.
        fn = [fn = std::move(fn), qualname](Interpreter& J, CallArgs& a) {
            if (a.pos.empty()) {
                throw PyError(Exc::TypeError, "unbound method " + qualname + "() needs an argument");
            }
            return fn(J, a);
        };
    }
    auto f = I.newNative(name, std::move(fn));
    f->qualname = std::move(qualname);
    t->dict()->setStr(I.intern(name), Value(f));
}

Value Interpreter::bindDescriptor(const Value& attr, const Value& obj, Type* objType) {
    switch (attr.obj() ? attr.obj()->kind() : ObjKind::Plain) {
        case ObjKind::Function:
            return Value(make<BoundMethodObject>(types_.boundMethod.get(), attr, obj));
        case ObjKind::NativeFunction: {
            auto* nf = attr.as<NativeFunctionObject>();
            if (nf->binding == NativeFunctionObject::Binding::Static) {
                return attr;
            }
            Value self = nf->binding == NativeFunctionObject::Binding::Class ? Value(objType) : obj;
            return Value(make<BoundMethodObject>(types_.builtinFunction.get(), attr, self));
        }
        case ObjKind::StaticMethod:
            return attr.as<StaticMethodObject>()->func;
        case ObjKind::ClassMethod:
            return Value(make<BoundMethodObject>(
                types_.boundMethod.get(), attr.as<ClassMethodObject>()->func, Value(objType)));
        case ObjKind::Property: {
            auto* p = attr.as<PropertyObject>();
            if (p->fget.isNone() || p->fget.isNull()) {
                throw PyError(Exc::AttributeError,
                              "property of '" + objType->name + "' object has no getter");
            }
            return call(p->fget, {obj});
        }
        case ObjKind::NativeProperty:
            return attr.as<NativePropertyObject>()->getter(*this, obj);
        default:
            break;
    }
    if (attr.isObj() && !attr.obj()->type()->immutable) {  // a script class with __get__
        Value get = attr.obj()->type()->lookup("__get__");
        if (!get.isNull()) {
            return call(get, {attr, obj, Value(objType)});
        }
    }
    return attr;
}

Value Interpreter::genericGetAttr(const Value& obj, const Ref<StrObject>& name) {
    Type* tp = typeOf(obj);
    Value descr = tp->lookup(name->value);
    if (descr.isObj()) {
        ObjKind k = descr.obj()->kind();
        if (k == ObjKind::NativeProperty || k == ObjKind::Property) {
            if (k == ObjKind::Property) {
                auto* p = descr.as<PropertyObject>();
                if (p->fget.isNone() || p->fget.isNull()) {
                    throw PyError(Exc::AttributeError, "property '" + name->value + "' of '" +
                                                           tp->name + "' object has no getter");
                }
            }
            return bindDescriptor(descr, obj, tp);
        }
        if (!descr.obj()->type()->immutable && !descr.obj()->type()->lookup("__set__").isNull()) {
            return bindDescriptor(descr, obj, tp);  // a script data descriptor
        }
    }
    if (obj.isObj()) {
        if (DictObject* d = obj.obj()->dict()) {
            Value v = d->getStr(name->value, name->hash());
            if (!v.isNull()) {
                return v;
            }
        }
    }
    if (!descr.isNull()) {
        return bindDescriptor(descr, obj, tp);
    }
    return {};
}

namespace {

[[noreturn]] void noAttribute(Interpreter& I, const Value& obj, const std::string& name) {
    if (const auto* t = obj.as<Type>()) {
        throw PyError(Exc::AttributeError,
                      "type object '" + t->name + "' has no attribute '" + name + "'");
    }
    if (const auto* m = obj.as<ModuleObject>()) {
        throw PyError(Exc::AttributeError,
                      "module '" + m->name + "' has no attribute '" + name + "'");
    }
    throw PyError(Exc::AttributeError,
                  "'" + I.typeName(obj) + "' object has no attribute '" + name + "'");
}

}  // namespace

Value Interpreter::getAttr(const Value& obj, std::string_view name) {
    const Ref<StrObject>& n = intern(name);
    Value v = getAttrImpl(obj, n);
    if (v.isNull()) {
        noAttribute(*this, obj, n->value);
    }
    return v;
}

Value Interpreter::getAttr(const Value& obj, const Ref<StrObject>& name) {
    Value v = getAttrImpl(obj, name);
    if (v.isNull()) {
        noAttribute(*this, obj, name->value);
    }
    return v;
}

Value Interpreter::getAttrOrNull(const Value& obj, std::string_view name) {
    try {
        return getAttrImpl(obj, intern(name));
    } catch (PyError& e) {
        if (isInstance(exceptionOf(e), Exc::AttributeError)) {
            return {};
        }
        throw;
    }
}

Value Interpreter::superGetAttr(SuperObject& s, const Ref<StrObject>& name) {
    Interpreter& I = *this;
    const auto& mro = s.objType->mro;
    std::size_t i = 0;
    while (i < mro.size() && mro[i] != s.thisClass.get()) {
        ++i;
    }
    for (++i; i < mro.size(); ++i) {
        DictObject* d = mro[i]->dict();
        Value v = d ? d->getStr(name->value, name->hash()) : Value();
        if (v.isNull()) {
            continue;
        }
        if (s.obj.is<Type>() && s.obj.as<Type>() == s.objType.get()) {
            // super() in a classmethod: functions stay plain, classmethods bind to the class
            if (auto* cm = v.as<ClassMethodObject>()) {
                return Value(
                    I.make<BoundMethodObject>(I.types().boundMethod.get(), cm->func, s.obj));
            }
            if (auto* sm = v.as<StaticMethodObject>()) {
                return sm->func;
            }
            return v;
        }
        return I.bindDescriptor(v, s.obj, s.objType.get());
    }
    return {};
}

// The attribute, or Null when it does not exist.
Value Interpreter::getAttrImpl(const Value& obj, const Ref<StrObject>& name) {
    Interpreter& I = *this;
    if (obj.isObj()) {
        switch (obj.obj()->kind()) {
            case ObjKind::Type: {
                return typeGetAttr(obj.as<Type>(), name);
            }
            case ObjKind::Module: {
                auto* m = obj.as<ModuleObject>();
                Value v = m->dict()->getStr(name->value, name->hash());
                if (v.isNull()) {
                    std::string sub = m->name + "." + name->value;
                    if (I.hasModule(sub)) {
                        return Value(I.importModule(sub));
                    }
                    if (name->value == "__dict__") {
                        return Value(m->dict());
                    }
                    Value hook = m->dict()->getStr("__getattr__");  // PEP 562
                    if (!hook.isNull()) {
                        return I.call(hook, {Value(name)});
                    }
                }
                return v;
            }
            case ObjKind::Super: {
                Value v = superGetAttr(*obj.as<SuperObject>(), name);
                if (!v.isNull()) {
                    return v;
                }
                break;  // attributes of the super object itself
            }
            default:
                break;
        }
    }
    Type* tp = I.typeOf(obj);
    const Type::HookCache& h = hooksOf(tp);
    Value v;
    if (!h.getattribute.isNull() && !h.getattribute.identical(objectGetattribute_)) {
        try {
            v = I.call(h.getattribute, {obj, Value(name)});
        } catch (PyError& e) {
            if (!I.isInstance(I.exceptionOf(e), Exc::AttributeError) || h.getattr.isNull()) {
                throw;
            }
        }
    } else {
        v = I.genericGetAttr(obj, name);
    }
    if (v.isNull() && !h.getattr.isNull()) {
        return I.call(h.getattr, {obj, Value(name)});
    }
    return v;
}

void Interpreter::setAttr(const Value& obj, std::string_view name, const Value& v) {
    const Ref<StrObject>& n = intern(name);
    if (obj.isObj()) {
        if (auto* t = obj.as<Type>()) {
            typeSetAttr(t, n, v);
            return;
        }
        if (auto* m = obj.as<ModuleObject>()) {
            m->dict()->setStr(n, v);
            return;
        }
    }
    Type* tp = typeOf(obj);
    const Type::HookCache& h = hooksOf(tp);
    if (!h.setattr.isNull() && !h.setattr.identical(objectSetattr_)) {
        call(h.setattr, {obj, Value(n), v});
        return;
    }
    genericSetAttr(obj, n, v);
}

void Interpreter::genericSetAttr(const Value& obj, const Ref<StrObject>& name, const Value& v) {
    Type* tp = typeOf(obj);
    Value descr = tp->lookup(name->value);
    if (auto* p = descr.as<NativePropertyObject>()) {
        if (!p->setter) {
            throw PyError(Exc::AttributeError, "attribute '" + name->value + "' of '" + tp->name +
                                                   "' objects is not writable");
        }
        p->setter(*this, obj, v);
        return;
    }
    if (auto* p = descr.as<PropertyObject>()) {
        if (p->fset.isNone() || p->fset.isNull()) {
            throw PyError(Exc::AttributeError, "property '" + name->value + "' of '" + tp->name +
                                                   "' object has no setter");
        }
        call(p->fset, {obj, v});
        return;
    }
    if (descr.isObj() && !descr.obj()->type()->immutable) {
        Value set = descr.obj()->type()->lookup("__set__");
        if (!set.isNull()) {
            call(set, {descr, obj, v});
            return;
        }
    }
    if (obj.isObj() && (obj.obj()->dict() || tp->instanceDict)) {
        if (!obj.obj()->dict()) {
            obj.obj()->setDict(newDict().get());
        }
        obj.obj()->dict()->setStr(name, v);
        return;
    }
    throw PyError(Exc::AttributeError,
                  "'" + tp->name + "' object has no attribute '" + name->value + "'");
}

void Interpreter::delAttr(const Value& obj, std::string_view name) {
    const Ref<StrObject>& n = intern(name);
    if (auto* t = obj.as<Type>()) {
        typeSetAttr(t, n, Value());
        return;
    }
    if (auto* m = obj.as<ModuleObject>()) {
        if (!m->dict()->removeStr(name)) {
            throw PyError(Exc::AttributeError,
                          "module '" + m->name + "' has no attribute '" + n->value + "'");
        }
        return;
    }
    const Type::HookCache& h = hooksOf(typeOf(obj));
    if (!h.delattr.isNull() && !h.delattr.identical(objectDelattr_)) {
        call(h.delattr, {obj, Value(n)});
        return;
    }
    genericDelAttr(obj, n);
}

void Interpreter::genericDelAttr(const Value& obj, const Ref<StrObject>& name) {
    Type* tp = typeOf(obj);
    Value descr = tp->lookup(name->value);
    if (auto* p = descr.as<PropertyObject>()) {
        if (p->fdel.isNone() || p->fdel.isNull()) {
            throw PyError(Exc::AttributeError, "property '" + name->value + "' of '" + tp->name +
                                                   "' object has no deleter");
        }
        call(p->fdel, {obj});
        return;
    }
    if (obj.isObj() && obj.obj()->dict() && obj.obj()->dict()->removeStr(name->value)) {
        return;
    }
    throw PyError(Exc::AttributeError,
                  "'" + tp->name + "' object has no attribute '" + name->value + "'");
}

// --- object's methods -------------------------------------------------------------------------

namespace {

std::string addressOf(const Value& v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%012llx",
                  static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(v.obj())));
    return buf;
}

}  // namespace

std::string defaultRepr(Interpreter& I, const Value& v) {
    Type* t = I.typeOf(v);
    return fmt::format("<{} object at {}>", t->fullName(), addressOf(v));
}

void Interpreter::setUpObjectMethods() {
    Type* obj = types_.object.get();
    auto def = [&](const char* n, NativeFn fn) {
        defMethod(*this, obj, n, std::move(fn));
        return obj->dict()->getStr(n);
    };
    objectInit_ = def("__init__", [](Interpreter&, CallArgs& a) {
        if (a.pos.size() > 1 || !a.kw.empty()) {
            throw PyError(
                Exc::TypeError,
                "object.__init__() takes exactly one argument (the instance to initialize)");
        }
        return Value::none();
    });
    objectNew_ = def("__new__", [](Interpreter& I, CallArgs& a) {
        if (a.pos.empty() || !a.pos[0].is<Type>()) {
            throw PyError(Exc::TypeError, "object.__new__(X): X is not a type object");
        }
        Type* t = a.pos[0].as<Type>();
        CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
        Type* owner = t->layoutOwner;
        return owner && owner->alloc ? Value(owner->alloc(I, t, rest))
                                     : Value(I.make<PlainObject>(t));
    });
    obj->dict()->getStr("__new__").as<NativeFunctionObject>()->binding =
        NativeFunctionObject::Binding::Static;
    objectGetattribute_ = def("__getattribute__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 2, 2, "__getattribute__");
        Ref<StrObject> n(a.pos[1].as<StrObject>());
        if (!n) {
            throw PyError(Exc::TypeError,
                          "attribute name must be string, not '" + I.typeName(a.pos[1]) + "'");
        }
        Value v = I.genericGetAttr(a.pos[0], n);
        if (v.isNull()) {
            throw PyError(Exc::AttributeError, "'" + I.typeName(a.pos[0]) +
                                                   "' object has no attribute '" + n->value + "'");
        }
        return v;
    });
    objectSetattr_ = def("__setattr__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 3, 3, "__setattr__");
        Ref<StrObject> n(a.pos[1].as<StrObject>());
        if (!n) {
            throw PyError(Exc::TypeError,
                          "attribute name must be string, not '" + I.typeName(a.pos[1]) + "'");
        }
        I.genericSetAttr(a.pos[0], n, a.pos[2]);
        return Value::none();
    });
    objectDelattr_ = def("__delattr__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 2, 2, "__delattr__");
        Ref<StrObject> n(a.pos[1].as<StrObject>());
        if (!n) {
            throw PyError(Exc::TypeError,
                          "attribute name must be string, not '" + I.typeName(a.pos[1]) + "'");
        }
        I.genericDelAttr(a.pos[0], n);
        return Value::none();
    });
    def("__repr__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 1, 1, "__repr__");
        return Value(I.newStr(defaultRepr(I, a.pos[0])));
    });
    def("__str__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 1, 1, "__str__");
        return Value(I.newStr(I.repr(a.pos[0])));
    });
    def("__eq__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 2, 2, "__eq__");
        return a.pos[0].identical(a.pos[1]) ? Value::boolean(true) : I.notImplemented();
    });
    def("__ne__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 2, 2, "__ne__");
        Value eq = I.typeOf(a.pos[0])->lookup("__eq__");
        Value r =
            eq.isNull() || eq.isNone() ? I.notImplemented() : I.call(eq, {a.pos[0], a.pos[1]});
        if (r.identical(I.notImplemented())) {
            return r;
        }
        return Value::boolean(!I.truthy(r));
    });
    def("__hash__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 1, 1, "__hash__");
        return Value::integer(I.hash(a.pos[0]));
    });
    def("__format__", [](Interpreter& I, CallArgs& a) {
        expectArgs(a, 2, 2, "__format__");
        const std::string& spec = toStr(I, a.pos[1], "format_spec");
        if (!spec.empty()) {
            throw PyError(Exc::TypeError, "unsupported format string passed to " +
                                              I.typeName(a.pos[0]) + ".__format__");
        }
        return Value(I.newStr(I.str(a.pos[0])));
    });
    auto prop = [&](const char* n, NativeGetter g, NativeSetter s = nullptr) {
        obj->dict()->setStr(intern(n),
                            Value(make<NativePropertyObject>(types_.getSetDescriptor.get(), n,
                                                             std::move(g), std::move(s))));
    };
    prop("__class__", [](Interpreter& I, const Value& v) { return Value(I.typeOf(v)); });
    prop("__dict__", [](Interpreter& I, const Value& v) -> Value {
        if (v.isObj() && (v.obj()->dict() || I.typeOf(v)->instanceDict)) {
            if (!v.obj()->dict()) {
                v.obj()->setDict(I.newDict().get());
            }
            return Value(v.obj()->dict());
        }
        throw PyError(Exc::AttributeError,
                      "'" + I.typeName(v) + "' object has no attribute '__dict__'");
    });
}

}  // namespace irscope::interp
