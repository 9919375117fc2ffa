// Calling the builtin types: int(), float(), str(), list(), dict(), range(), type(),
// property(), super() ..., and the attributes of functions, methods and descriptors.
#include <cmath>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

Value intOf(Interpreter& I, const Value& x, const Value& baseV) {
    if (!baseV.isNull()) {
        std::int64_t base = I.toIndex(baseV);
        if (base != 0 && (base < 2 || base > 36)) {
            throw PyError(Exc::ValueError, "int() base must be >= 2 and <= 36, or 0");
        }
        const auto* s = x.as<StrObject>();
        if (!s) {
            throw PyError(Exc::TypeError, "int() can't convert non-string with explicit base");
        }
        return Value::integer(parseInt(s->value, static_cast<int>(base), s->value));
    }
    if (x.isIntLike()) {
        return Value::integer(x.intLike());
    }
    if (x.isFloat()) {
        return Value::integer(floatToInt(x.asFloat()));
    }
    if (const auto* s = x.as<StrObject>()) {
        return Value::integer(parseInt(s->value, 10, s->value));
    }
    if (x.isObj()) {
        for (const char* m : {"__int__", "__index__", "__trunc__"}) {
            Value f = I.typeOf(x)->lookup(m);
            if (!f.isNull() && !f.isNone()) {
                Value r = I.call(f, {x});
                if (!r.isIntLike()) {
                    throw PyError(Exc::TypeError, std::string(m) + " returned non-int (type " +
                                                      I.typeName(r) + ")");
                }
                return Value::integer(r.intLike());
            }
        }
    }
    throw PyError(Exc::TypeError,
                  "int() argument must be a string, a bytes-like object or a real number, not '" +
                      I.typeName(x) + "'");
}

Value floatOf(Interpreter& I, const Value& x) {
    if (x.isNumber()) {
        return Value::real(x.toDouble());
    }
    if (const auto* s = x.as<StrObject>()) {
        return Value::real(parseFloat(s->value));
    }
    if (x.isObj()) {
        Value f = I.typeOf(x)->lookup("__float__");
        if (!f.isNull() && !f.isNone()) {
            Value r = I.call(f, {x});
            if (!r.isFloat()) {
                throw PyError(
                    Exc::TypeError,
                    I.typeName(x) + ".__float__ returned non-float (type " + I.typeName(r) + ")");
            }
            return r;
        }
        Value ix = I.typeOf(x)->lookup("__index__");
        if (!ix.isNull() && !ix.isNone()) {
            return Value::real(static_cast<double>(I.toIndex(x)));
        }
    }
    throw PyError(Exc::TypeError, "float() argument must be a string or a real number, not '" +
                                      I.typeName(x) + "'");
}

void onlyPositional(const CallArgs& a, const char* name, std::size_t max) {
    noKeywords(a, name);
    if (a.pos.size() > max) {
        throw PyError(Exc::TypeError,
                      std::string(name) + " expected at most " + std::to_string(max) + " argument" +
                          (max == 1 ? "" : "s") + ", got " + std::to_string(a.pos.size()));
    }
}

using Getter = NativeGetter;

void prop(Interpreter& I, Type* t, const char* name, Getter g, NativeSetter s = nullptr) {
    t->dict()->setStr(I.intern(name),
                      Value(I.make<NativePropertyObject>(I.types().getSetDescriptor.get(), name,
                                                         std::move(g), std::move(s))));
}

Value strOrNone(Interpreter& I, const std::string& s) {
    return Value(I.newStr(s));
}

}  // namespace

void setUpTypeConstructors(Interpreter& I) {
    const BuiltinTypes& T = I.types();
    T.intType->construct = [](Interpreter& J, Type*, CallArgs& a) {
        static const Signature sig =
            Signature("int").arg("x", Value()).arg("base", Value()).positionalOnly();
        if (a.pos.size() > 2) {
            throw PyError(Exc::TypeError, "int() takes at most 2 arguments (" +
                                              std::to_string(a.pos.size()) + " given)");
        }
        CallArgs b = a;
        for (KwArg& k : b.kw) {
            if (k.name == "base") {
                if (b.pos.size() < 2) {
                    b.pos.resize(2);
                }
                b.pos[1] = k.value;
            } else {
                throw PyError(Exc::TypeError,
                              "'" + k.name + "' is an invalid keyword argument for int()");
            }
        }
        b.kw.clear();
        auto v = sig.bind(J, b);
        if (v[0].isNull()) {
            if (!v[1].isNull()) {
                throw PyError(Exc::TypeError, "int() missing string argument");
            }
            return Value::integer(0);
        }
        return intOf(J, v[0], v[1]);
    };
    T.floatType->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "float", 1);
        return a.pos.empty() ? Value::real(0.0) : floatOf(J, a.pos[0]);
    };
    T.boolType->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "bool", 1);
        return Value::boolean(!a.pos.empty() && J.truthy(a.pos[0]));
    };
    T.str->construct = [](Interpreter& J, Type*, CallArgs& a) {
        if (a.pos.size() > 1 || !a.kw.empty()) {
            Value enc = a.pos.size() > 1 ? a.pos[1] : a.kwarg("encoding");
            throw PyError(Exc::TypeError,
                          "str() argument 'encoding' must be str, not " + J.typeName(enc));
        }
        return a.pos.empty() ? Value(J.newStr("")) : Value(J.newStr(J.str(a.pos[0])));
    };
    T.tuple->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "tuple", 1);
        if (a.pos.empty()) {
            return Value(J.newTuple({}));
        }
        if (a.pos[0].is<TupleObject>()) {
            return a.pos[0];
        }
        return Value(J.newTuple(J.toVector(a.pos[0])));
    };
    T.list->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "list", 1);
        return Value(J.newList(a.pos.empty() ? std::vector<Value>() : J.toVector(a.pos[0])));
    };
    T.dict->construct = [](Interpreter& J, Type*, CallArgs& a) {
        Value d(J.newDict());
        CallArgs b = a;
        b.pos.insert(b.pos.begin(), d);
        J.call(J.types().dict->dict()->getStr("__init__"), std::move(b));
        return d;
    };
    T.set->construct = [](Interpreter& J, Type*, CallArgs& a) {
        Value s(J.newSet());
        CallArgs b = a;
        b.pos.insert(b.pos.begin(), s);
        J.call(J.types().set->dict()->getStr("__init__"), std::move(b));
        return s;
    };
    T.range->construct = [](Interpreter& J, Type*, CallArgs& a) {
        noKeywords(a, "range");
        if (a.pos.empty() || a.pos.size() > 3) {
            throw PyError(Exc::TypeError, a.pos.empty()
                                              ? "range expected at least 1 argument, got 0"
                                              : "range expected at most 3 arguments, got " +
                                                    std::to_string(a.pos.size()));
        }
        std::int64_t start = 0, stop, step = 1;
        if (a.pos.size() == 1) {
            stop = J.toIndex(a.pos[0]);
        } else {
            start = J.toIndex(a.pos[0]);
            stop = J.toIndex(a.pos[1]);
            if (a.pos.size() == 3) {
                step = J.toIndex(a.pos[2]);
                if (step == 0) {
                    throw PyError(Exc::ValueError, "range() arg 3 must not be zero");
                }
            }
        }
        return Value(J.make<RangeObject>(J.types().range.get(), start, stop, step));
    };
    T.slice->construct = [](Interpreter& J, Type*, CallArgs& a) {
        noKeywords(a, "slice");
        if (a.pos.empty() || a.pos.size() > 3) {
            throw PyError(Exc::TypeError, "slice expected at least 1 argument, got 0");
        }
        Value n = Value::none();
        if (a.pos.size() == 1) {
            return Value(J.make<SliceObject>(J.types().slice.get(), n, a.pos[0], n));
        }
        return Value(J.make<SliceObject>(J.types().slice.get(), a.pos[0], a.pos[1],
                                         a.pos.size() > 2 ? a.pos[2] : n));
    };
    T.type->construct = [](Interpreter& J, Type*, CallArgs& a) -> Value {
        if (a.pos.size() == 1 && a.kw.empty()) {
            return Value(J.typeOf(a.pos[0]));
        }
        if (a.pos.size() != 3) {
            throw PyError(Exc::TypeError, "type() takes 1 or 3 arguments");
        }
        const std::string& name = toStr(J, a.pos[0], "type.__new__() argument 1");
        std::vector<Ref<Type>> bases;
        for (const Value& b : J.toVector(a.pos[1])) {
            auto* t = b.as<Type>();
            if (!t) {
                throw PyError(Exc::TypeError, "bases must be types");
            }
            bases.emplace_back(t);
        }
        auto* src = a.pos[2].as<DictObject>();
        if (!src) {
            throw PyError(Exc::TypeError,
                          "type.__new__() argument 3 must be dict, not " + J.typeName(a.pos[2]));
        }
        Ref<DictObject> ns = J.newDict();
        src->forEach([&](const Value& k, const Value& v) { ns->set(J, k, v); });
        std::string module = "__main__";
        if (const auto* m = ns->getStr("__module__").as<StrObject>()) {
            module = m->value;
        }
        return Value(J.newClass(name, std::move(bases), ns, module));
    };
    T.object->construct = [](Interpreter& J, Type* t, CallArgs& a) {
        if (!a.pos.empty() || !a.kw.empty()) {
            throw PyError(Exc::TypeError, "object() takes no arguments");
        }
        return Value(J.make<PlainObject>(t));
    };
    T.property->construct = [](Interpreter& J, Type*, CallArgs& a) {
        static const Signature sig = Signature("property")
                                         .arg("fget", Value::none())
                                         .arg("fset", Value::none())
                                         .arg("fdel", Value::none())
                                         .arg("doc", Value::none());
        auto v = sig.bind(J, a);
        auto p = J.make<PropertyObject>(J.types().property.get());
        p->fget = v[0];
        p->fset = v[1];
        p->fdel = v[2];
        p->doc = v[3];
        return Value(p);
    };
    T.staticMethod->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "staticmethod", 1);
        if (a.pos.size() != 1) {
            throw PyError(Exc::TypeError,
                          "staticmethod expected 1 argument, got " + std::to_string(a.pos.size()));
        }
        return Value(J.make<StaticMethodObject>(J.types().staticMethod.get(), a.pos[0]));
    };
    T.classMethod->construct = [](Interpreter& J, Type*, CallArgs& a) {
        onlyPositional(a, "classmethod", 1);
        if (a.pos.size() != 1) {
            throw PyError(Exc::TypeError,
                          "classmethod expected 1 argument, got " + std::to_string(a.pos.size()));
        }
        return Value(J.make<ClassMethodObject>(J.types().classMethod.get(), a.pos[0]));
    };
    T.super->construct = [](Interpreter& J, Type*, CallArgs& a) {
        noKeywords(a, "super");
        if (a.pos.empty()) {
            return J.eval_->zeroArgSuper();
        }
        auto* cls = a.pos[0].as<Type>();
        if (!cls) {
            throw PyError(Exc::TypeError,
                          "super() argument 1 must be a type, not " + J.typeName(a.pos[0]));
        }
        if (a.pos.size() == 1) {
            throw PyError(Exc::RuntimeError,
                          "irscope: unbound super objects (one argument) are not supported");
        }
        const Value& obj = a.pos[1];
        Type* objType = J.typeOf(obj);
        if (auto* t = obj.as<Type>(); t && t->isSubtypeOf(cls)) {
            objType = t;
        } else if (!objType->isSubtypeOf(cls)) {
            throw PyError(Exc::TypeError,
                          "super(type, obj): obj must be an instance or subtype of type");
        }
        return Value(
            J.make<SuperObject>(J.types().super.get(), Ref<Type>(cls), obj, Ref<Type>(objType)));
    };
    T.noneType->construct = [](Interpreter&, Type*, CallArgs&) { return Value::none(); };

    // property: getter/setter/deleter and its fields.
    Type* pt = T.property.get();
    struct Accessor {
        const char* name;
        Value PropertyObject::*field;
    };
    for (Accessor acc :
         {Accessor{"getter", &PropertyObject::fget}, Accessor{"setter", &PropertyObject::fset},
          Accessor{"deleter", &PropertyObject::fdel}}) {
        defMethod(I, pt, acc.name, [acc](Interpreter& J, CallArgs& a) {
            expectArgs(a, 2, 2, acc.name);
            auto* p = a.pos[0].as<PropertyObject>();
            auto q = J.make<PropertyObject>(J.types().property.get());
            q->fget = p->fget;
            q->fset = p->fset;
            q->fdel = p->fdel;
            q->doc = p->doc;
            (*q).*(acc.field) = a.pos[1];
            return Value(q);
        });
    }
    for (Accessor acc :
         {Accessor{"fget", &PropertyObject::fget}, Accessor{"fset", &PropertyObject::fset},
          Accessor{"fdel", &PropertyObject::fdel}}) {
        prop(I, pt, acc.name,
             [acc](Interpreter&, const Value& v) { return v.as<PropertyObject>()->*(acc.field); });
    }
    prop(I, T.staticMethod.get(), "__func__",
         [](Interpreter&, const Value& v) { return v.as<StaticMethodObject>()->func; });
    prop(I, T.classMethod.get(), "__func__",
         [](Interpreter&, const Value& v) { return v.as<ClassMethodObject>()->func; });

    // Functions and methods.
    Type* ft = T.function.get();
    prop(
        I, ft, "__name__",
        [](Interpreter& J, const Value& v) { return strOrNone(J, v.as<FunctionObject>()->name); },
        [](Interpreter& J, const Value& v, const Value& x) {
            v.as<FunctionObject>()->name = toStr(J, x, "__name__");
        });
    prop(
        I, ft, "__qualname__",
        [](Interpreter& J, const Value& v) {
            return strOrNone(J, v.as<FunctionObject>()->qualname);
        },
        [](Interpreter& J, const Value& v, const Value& x) {
            v.as<FunctionObject>()->qualname = toStr(J, x, "__qualname__");
        });
    prop(I, ft, "__module__", [](Interpreter& J, const Value& v) {
        return strOrNone(J, v.as<FunctionObject>()->moduleName);
    });
    prop(I, ft, "__defaults__", [](Interpreter& J, const Value& v) {
        auto* f = v.as<FunctionObject>();
        return f->defaults.empty() ? Value::none() : Value(J.newTuple(f->defaults));
    });
    prop(I, ft, "__globals__",
         [](Interpreter&, const Value& v) { return Value(v.as<FunctionObject>()->globals); });
    prop(I, ft, "__doc__", [](Interpreter& J, const Value& v) {
        auto* f = v.as<FunctionObject>();
        if (f->def && !f->def->body.empty() && f->def->body[0]->kind == ast::StmtKind::Expr) {
            const auto* c = f->def->body[0]->cast<ast::ExprStmt>().value->as<ast::Constant>();
            if (c && c->type == ast::Constant::Type::Str) {
                return Value(J.newStr(c->strValue));
            }
        }
        return Value::none();
    });
    Type* mt = T.boundMethod.get();
    prop(I, mt, "__self__",
         [](Interpreter&, const Value& v) { return v.as<BoundMethodObject>()->self; });
    prop(I, mt, "__func__",
         [](Interpreter&, const Value& v) { return v.as<BoundMethodObject>()->func; });
    prop(I, mt, "__name__", [](Interpreter& J, const Value& v) {
        return J.getAttr(v.as<BoundMethodObject>()->func, "__name__");
    });
    prop(I, mt, "__qualname__", [](Interpreter& J, const Value& v) {
        return J.getAttr(v.as<BoundMethodObject>()->func, "__qualname__");
    });
    Type* bt = T.builtinFunction.get();
    auto nativeOf = [](const Value& v) -> NativeFunctionObject* {
        if (auto* m = v.as<BoundMethodObject>()) {
            return m->func.as<NativeFunctionObject>();
        }
        return v.as<NativeFunctionObject>();
    };
    prop(I, bt, "__name__",
         [nativeOf](Interpreter& J, const Value& v) { return strOrNone(J, nativeOf(v)->name); });
    prop(I, bt, "__qualname__", [nativeOf](Interpreter& J, const Value& v) {
        return strOrNone(J, nativeOf(v)->qualname);
    });
    prop(I, bt, "__self__", [](Interpreter&, const Value& v) {
        auto* m = v.as<BoundMethodObject>();
        return m ? m->self : Value::none();
    });
    Type* st = T.slice.get();
    prop(I, st, "start", [](Interpreter&, const Value& v) { return v.as<SliceObject>()->start; });
    prop(I, st, "stop", [](Interpreter&, const Value& v) { return v.as<SliceObject>()->stop; });
    prop(I, st, "step", [](Interpreter&, const Value& v) { return v.as<SliceObject>()->step; });
    prop(I, T.cell.get(), "cell_contents", [](Interpreter&, const Value& v) {
        Value x = v.as<CellObject>()->value;
        if (x.isNull()) {
            throw PyError(Exc::ValueError, "Cell is empty");
        }
        return x;
    });
    for (Type* num : {T.intType.get(), T.floatType.get()}) {
        prop(I, num, "real", [](Interpreter&, const Value& v) {
            return v.isBool() ? Value::integer(v.intLike()) : v;
        });
        prop(I, num, "imag", [](Interpreter&, const Value& v) {
            return v.isFloat() ? Value::real(0) : Value::integer(0);
        });
        defMethod(I, num, "conjugate", [](Interpreter&, CallArgs& a) { return a.pos.at(0); });
    }
    prop(I, T.intType.get(), "numerator",
         [](Interpreter&, const Value& v) { return Value::integer(v.intLike()); });
    prop(I, T.intType.get(), "denominator",
         [](Interpreter&, const Value&) { return Value::integer(1); });
    defMethod(I, T.floatType.get(), "is_integer", [](Interpreter&, CallArgs& a) {
        double d = a.pos.at(0).asFloat();
        return Value::boolean(std::isfinite(d) && d == std::floor(d));
    });
    defMethod(I, T.intType.get(), "bit_length", [](Interpreter&, CallArgs& a) {
        std::int64_t v = a.pos.at(0).intLike();
        std::uint64_t m = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        return Value::integer(m == 0 ? 0 : 64 - __builtin_clzll(m));
    });
    defMethod(I, T.intType.get(), "__index__",
              [](Interpreter&, CallArgs& a) { return Value::integer(a.pos.at(0).intLike()); });
    defMethod(I, T.intType.get(), "__int__",
              [](Interpreter&, CallArgs& a) { return Value::integer(a.pos.at(0).intLike()); });
    defMethod(I, T.intType.get(), "__float__",
              [](Interpreter&, CallArgs& a) { return Value::real(a.pos.at(0).toDouble()); });
    defMethod(I, T.floatType.get(), "__float__",
              [](Interpreter&, CallArgs& a) { return Value::real(a.pos.at(0).toDouble()); });
    defMethod(I, T.floatType.get(), "__int__", [](Interpreter&, CallArgs& a) {
        return Value::integer(floatToInt(a.pos.at(0).asFloat()));
    });
}

}  // namespace irscope::interp
