// The builtins module: print, len, isinstance, min/max/sum, sorted, getattr, ... and the
// builtin classes and exceptions by name. There is deliberately no open, exec, eval,
// compile, input or __import__.
#include <cmath>
#include <cstdio>
#include <limits>

#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

bool isInstanceOf(Interpreter& I, const Value& obj, const Value& cls, const char* fn) {
    if (const auto* t = cls.as<TupleObject>()) {
        for (const Value& c : t->items) {
            if (isInstanceOf(I, obj, c, fn)) {
                return true;
            }
        }
        return false;
    }
    const auto* ty = cls.as<Type>();
    if (!ty) {
        throw PyError(Exc::TypeError,
                      std::string(fn) + "() arg 2 must be a type, a tuple of types, or a union");
    }
    if (std::string(fn) == "issubclass") {
        return obj.as<Type>()->isSubtypeOf(ty);
    }
    return I.isInstance(obj, ty);
}

Value minMax(Interpreter& I, CallArgs& a, bool isMax) {
    const char* name = isMax ? "max" : "min";
    Value key, dflt;
    for (const KwArg& k : a.kw) {
        if (k.name == "key") {
            key = k.value;
        } else if (k.name == "default") {
            dflt = k.value;
        } else {
            throw PyError(
                Exc::TypeError,
                std::string(name) + "() got an unexpected keyword argument '" + k.name + "'");
        }
    }
    if (a.pos.empty()) {
        throw PyError(Exc::TypeError, std::string(name) + " expected at least 1 argument, got 0");
    }
    std::vector<Value> items;
    if (a.pos.size() == 1) {
        items = I.toVector(a.pos[0]);
    } else {
        if (!dflt.isNull()) {
            throw PyError(Exc::TypeError, std::string("Cannot specify a default for ") + name +
                                              "() with multiple positional arguments");
        }
        items = a.pos;
    }
    if (items.empty()) {
        if (!dflt.isNull()) {
            return dflt;
        }
        throw PyError(Exc::ValueError, std::string(name) + "() arg is an empty sequence");
    }
    bool useKey = !key.isNull() && !key.isNone();
    Value best = items[0];
    Value bestKey = useKey ? I.call(key, {best}) : best;
    for (std::size_t i = 1; i < items.size(); ++i) {
        Value k = useKey ? I.call(key, {items[i]}) : items[i];
        bool better = isMax ? I.lessThan(bestKey, k) : I.lessThan(k, bestKey);
        if (better) {
            best = items[i];
            bestKey = k;
        }
    }
    return best;
}

std::int64_t powMod(Interpreter& I, std::int64_t b, std::int64_t e, std::int64_t m) {
    if (m == 0) {
        throw PyError(Exc::ValueError, "pow() 3rd argument cannot be 0");
    }
    bool negMod = m < 0;
    Int128 mod = negMod ? -static_cast<Int128>(m) : m;
    Int128 base = b % mod;
    if (base < 0) {
        base += mod;
    }
    if (e < 0) {  // modular inverse (extended Euclid)
        Int128 t = 0, newT = 1, r = mod, newR = base;
        while (newR != 0) {
            Int128 q = r / newR;
            Int128 tmp = t - q * newT;
            t = newT;
            newT = tmp;
            tmp = r - q * newR;
            r = newR;
            newR = tmp;
        }
        if (r > 1) {
            throw PyError(Exc::ValueError, "base is not invertible for the given modulus");
        }
        base = t < 0 ? t + mod : t;
        e = -e;
    }
    Int128 result = 1 % mod;
    while (e > 0) {
        if (e & 1) {
            result = result * base % mod;
        }
        base = base * base % mod;
        e >>= 1;
    }
    if (negMod && result != 0) {
        result -= mod;
    }
    (void)I;
    return static_cast<std::int64_t>(result);
}

std::string intToBase(std::int64_t v, int base, const char* prefix) {
    bool neg = v < 0;
    std::uint64_t m = neg ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    std::string digits;
    do {
        digits.insert(digits.begin(), "0123456789abcdef"[m % static_cast<unsigned>(base)]);
        m /= static_cast<unsigned>(base);
    } while (m);
    std::string out(neg ? "-" : "");
    out += prefix;
    out += digits;
    return out;
}

Value dirOf(Interpreter& I, const Value& obj) {
    Ref<SetObject> names = I.newSet();
    if (obj.isObj() && obj.obj()->dict()) {
        obj.obj()->dict()->forEach([&](const Value& k, const Value&) { names->add(I, k); });
    }
    Type* t = obj.as<Type>() ? obj.as<Type>() : I.typeOf(obj);
    for (Type* m : t->mro) {
        m->dict()->forEach([&](const Value& k, const Value&) { names->add(I, k); });
    }
    std::vector<Value> items = names->items();
    sortValues(I, items, Value(), false);
    return Value(I.newList(std::move(items)));
}

}  // namespace

void setUpBuiltinFunctions(Interpreter& I) {
    DictObject& bd = I.builtins();
    auto def = [&](const char* name, NativeFn fn) {
        bd.setStr(I.intern(name), Value(I.newNative(name, std::move(fn))));
    };
    auto one = [](const CallArgs& a, const char* name) {
        noKeywords(a, name);
        if (a.pos.size() != 1) {
            throw PyError(Exc::TypeError, std::string(name) + "() takes exactly one argument (" +
                                              std::to_string(a.pos.size()) + " given)");
        }
    };
    def("print", [](Interpreter& J, CallArgs& a) {
        std::string sep = " ", end = "\n";
        Value file;
        for (const KwArg& k : a.kw) {
            if (k.name == "sep" || k.name == "end") {
                if (!k.value.isNone()) {
                    const auto* s = k.value.as<StrObject>();
                    if (!s) {
                        throw PyError(Exc::TypeError, k.name + " must be None or a string, not " +
                                                          J.typeName(k.value));
                    }
                    (k.name == "sep" ? sep : end) = s->value;
                }
            } else if (k.name == "file") {
                file = k.value;
            } else if (k.name != "flush") {
                throw PyError(Exc::TypeError,
                              "'" + k.name + "' is an invalid keyword argument for print()");
            }
        }
        std::string out;
        for (std::size_t i = 0; i < a.pos.size(); ++i) {
            if (i) {
                out += sep;
            }
            out += J.str(a.pos[i]);
        }
        out += end;
        if (!file.isNull() && !file.isNone()) {
            J.callMethod(file, "write", {Value(J.newStr(out))});
        } else {
            J.writeOutput(out);
        }
        return Value::none();
    });
    def("len", [one](Interpreter& J, CallArgs& a) {
        one(a, "len");
        return Value::integer(J.len(a.pos[0]));
    });
    def("isinstance", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "isinstance");
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "isinstance expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        return Value::boolean(isInstanceOf(J, a.pos[0], a.pos[1], "isinstance"));
    });
    def("issubclass", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "issubclass");
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "issubclass expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        if (!a.pos[0].is<Type>()) {
            throw PyError(Exc::TypeError, "issubclass() arg 1 must be a class");
        }
        return Value::boolean(isInstanceOf(J, a.pos[0], a.pos[1], "issubclass"));
    });
    def("min", [](Interpreter& J, CallArgs& a) { return minMax(J, a, false); });
    def("max", [](Interpreter& J, CallArgs& a) { return minMax(J, a, true); });
    def("sum", [](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("sum").arg("iterable").arg("start", Value::integer(0)).positionalOnly();
        CallArgs b = a;
        Value start = a.kwarg("start");
        b.kw.clear();
        if (!start.isNull()) {
            b.pos.resize(std::max<std::size_t>(b.pos.size(), 1));
            b.pos.push_back(start);
        }
        auto v = sig.bind(J, b);
        Value acc = v[1];
        if (acc.is<StrObject>()) {
            throw PyError(Exc::TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
        }
        Value it = J.iter(v[0]);
        Value x;
        while (J.next(it, x)) {
            J.step();
            acc = J.binaryOp(ast::Operator::Add, acc, x);
        }
        return acc;
    });
    def("abs", [one](Interpreter& J, CallArgs& a) {
        one(a, "abs");
        const Value& x = a.pos[0];
        if (x.isIntLike()) {
            if (x.intLike() == std::numeric_limits<std::int64_t>::min()) {
                intOverflow();
            }
            return Value::integer(std::abs(x.intLike()));
        }
        if (x.isFloat()) {
            return Value::real(std::fabs(x.asFloat()));
        }
        Value f = J.typeOf(x)->lookup("__abs__");
        if (f.isNull() || f.isNone()) {
            throw PyError(Exc::TypeError, "bad operand type for abs(): '" + J.typeName(x) + "'");
        }
        return J.call(f, {x});
    });
    def("round", [](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("round").arg("number").arg("ndigits", Value::none());
        auto v = sig.bind(J, a);
        if (v[0].isNumber()) {
            if (!v[1].isNone() && !v[1].isIntLike()) {
                throw PyError(Exc::TypeError, "'" + J.typeName(v[1]) +
                                                  "' object cannot be interpreted as an integer");
            }
            return roundNumber(v[0], v[1]);
        }
        Value f = J.typeOf(v[0])->lookup("__round__");
        if (f.isNull() || f.isNone()) {
            throw PyError(Exc::TypeError,
                          "type " + J.typeName(v[0]) + " doesn't define __round__ method");
        }
        return v[1].isNone() ? J.call(f, {v[0]}) : J.call(f, {v[0], v[1]});
    });
    def("sorted", [](Interpreter& J, CallArgs& a) {
        if (a.pos.size() != 1) {
            throw PyError(Exc::TypeError,
                          "sorted expected 1 argument, got " + std::to_string(a.pos.size()));
        }
        static const Signature sig = Signature("sorted")
                                         .arg("iterable")
                                         .kwOnly("key", Value::none())
                                         .kwOnly("reverse", Value::boolean(false));
        auto v = sig.bind(J, a);
        std::vector<Value> items = J.toVector(v[0]);
        sortValues(J, items, v[1], J.truthy(v[2]));
        return Value(J.newList(std::move(items)));
    });
    for (bool all : {false, true}) {
        const char* name = all ? "all" : "any";
        def(name, [all, name, one](Interpreter& J, CallArgs& a) {
            one(a, name);
            Value it = J.iter(a.pos[0]);
            Value x;
            while (J.next(it, x)) {
                J.step();
                if (J.truthy(x) != all) {
                    return Value::boolean(!all);
                }
            }
            return Value::boolean(all);
        });
    }
    def("getattr", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "getattr");
        if (a.pos.size() < 2 || a.pos.size() > 3) {
            throw PyError(
                Exc::TypeError,
                a.pos.size() < 2
                    ? "getattr expected at least 2 arguments, got " + std::to_string(a.pos.size())
                    : "getattr expected at most 3 arguments, got " + std::to_string(a.pos.size()));
        }
        if (!a.pos[1].is<StrObject>()) {
            throw PyError(Exc::TypeError,
                          "attribute name must be string, not '" + J.typeName(a.pos[1]) + "'");
        }
        const std::string& n = a.pos[1].as<StrObject>()->value;
        if (a.pos.size() == 3) {
            Value v = J.getAttrOrNull(a.pos[0], n);
            return v.isNull() ? a.pos[2] : v;
        }
        return J.getAttr(a.pos[0], n);
    });
    def("setattr", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "setattr");
        if (a.pos.size() != 3) {
            throw PyError(Exc::TypeError,
                          "setattr expected 3 arguments, got " + std::to_string(a.pos.size()));
        }
        J.setAttr(a.pos[0], toStr(J, a.pos[1], "attribute name"), a.pos[2]);
        return Value::none();
    });
    def("delattr", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "delattr");
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "delattr expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        J.delAttr(a.pos[0], toStr(J, a.pos[1], "attribute name"));
        return Value::none();
    });
    def("hasattr", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "hasattr");
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "hasattr expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        if (!a.pos[1].is<StrObject>()) {
            throw PyError(Exc::TypeError, "hasattr(): attribute name must be string");
        }
        return Value::boolean(!J.getAttrOrNull(a.pos[0], a.pos[1].as<StrObject>()->value).isNull());
    });
    def("repr", [one](Interpreter& J, CallArgs& a) {
        one(a, "repr");
        return Value(J.newStr(J.repr(a.pos[0])));
    });
    def("ascii", [one](Interpreter& J, CallArgs& a) {
        one(a, "ascii");
        return Value(J.newStr(util::pyAsciiEscape(J.repr(a.pos[0]))));
    });
    def("hash", [one](Interpreter& J, CallArgs& a) {
        one(a, "hash");
        return Value::integer(J.hash(a.pos[0]));
    });
    def("id", [one](Interpreter& J, CallArgs& a) {
        one(a, "id");
        const Value& v = a.pos[0];
        if (v.isObj()) {
            return Value::integer(
                static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(v.obj())));
        }
        return Value::integer(J.hash(v) * 16 + static_cast<int>(v.tag()));
    });
    def("iter", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "iter");
        if (a.pos.size() != 1) {
            throw PyError(Exc::TypeError,
                          a.pos.size() == 2
                              ? "irscope: iter(callable, sentinel) is not supported"
                              : "iter expected 1 argument, got " + std::to_string(a.pos.size()));
        }
        return J.iter(a.pos[0]);
    });
    def("next", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "next");
        if (a.pos.empty() || a.pos.size() > 2) {
            throw PyError(Exc::TypeError, "next expected at least 1 argument, got 0");
        }
        Value out;
        if (J.next(a.pos[0], out)) {
            return out;
        }
        if (a.pos.size() == 2) {
            return a.pos[1];
        }
        throw PyError(Exc::StopIteration, std::vector<Value>{});
    });
    def("divmod", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "divmod");
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "divmod expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        const Value &x = a.pos[0], &y = a.pos[1];
        if (x.isIntLike() && y.isIntLike()) {
            if (y.intLike() == 0) {
                throw PyError(Exc::ZeroDivisionError, "integer division or modulo by zero");
            }
            return Value(J.newTuple({Value::integer(floorDiv(x.intLike(), y.intLike())),
                                     Value::integer(floorMod(x.intLike(), y.intLike()))}));
        }
        if (x.isNumber() && y.isNumber()) {
            if (y.toDouble() == 0.0) {
                throw PyError(Exc::ZeroDivisionError, "float divmod()");
            }
            return Value(J.newTuple({numberBinary(ast::Operator::FloorDiv, x, y),
                                     numberBinary(ast::Operator::Mod, x, y)}));
        }
        Value f = J.typeOf(x)->lookup("__divmod__");
        if (!f.isNull() && !f.isNone()) {
            return J.call(f, {x, y});
        }
        throw PyError(Exc::TypeError, "unsupported operand type(s) for divmod(): '" +
                                          J.typeName(x) + "' and '" + J.typeName(y) + "'");
    });
    def("pow", [](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("pow").arg("base").arg("exp").arg("mod", Value::none());
        auto v = sig.bind(J, a);
        if (!v[2].isNone()) {
            if (!v[0].isIntLike() || !v[1].isIntLike() || !v[2].isIntLike()) {
                throw PyError(Exc::TypeError,
                              "pow() 3rd argument not allowed unless all arguments are integers");
            }
            return Value::integer(powMod(J, v[0].intLike(), v[1].intLike(), v[2].intLike()));
        }
        return J.binaryOp(ast::Operator::Pow, v[0], v[1]);
    });
    def("chr", [one](Interpreter& J, CallArgs& a) {
        one(a, "chr");
        std::int64_t c = J.toIndex(a.pos[0]);
        if (c < 0 || c > 0x10FFFF) {
            throw PyError(Exc::ValueError, "chr() arg not in range(0x110000)");
        }
        return Value(J.newStr(util::encodeUtf8(static_cast<char32_t>(c))));
    });
    def("ord", [one](Interpreter& J, CallArgs& a) {
        one(a, "ord");
        const auto* s = a.pos[0].as<StrObject>();
        if (!s) {
            throw PyError(Exc::TypeError, "ord() expected string of length 1, but " +
                                              J.typeName(a.pos[0]) + " found");
        }
        if (s->length() != 1) {
            throw PyError(Exc::TypeError, "ord() expected a character, but string of length " +
                                              std::to_string(s->length()) + " found");
        }
        std::size_t len;
        return Value::integer(static_cast<std::int64_t>(util::decodeUtf8(s->value, 0, &len)));
    });
    struct BaseDef {
        const char* name;
        int base;
        const char* prefix;
    };
    for (BaseDef d : {BaseDef{"hex", 16, "0x"}, BaseDef{"bin", 2, "0b"}, BaseDef{"oct", 8, "0o"}}) {
        def(d.name, [d, one](Interpreter& J, CallArgs& a) {
            one(a, d.name);
            return Value(J.newStr(intToBase(J.toIndex(a.pos[0]), d.base, d.prefix)));
        });
    }
    def("format", [](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("format").arg("value").arg("format_spec", Value()).positionalOnly();
        auto v = sig.bind(J, a);
        std::string spec = v[1].isNull() ? std::string() : toStr(J, v[1], "format() argument 2");
        return Value(J.newStr(J.format(v[0], spec)));
    });
    def("callable", [one](Interpreter& J, CallArgs& a) {
        one(a, "callable");
        return Value::boolean(J.callable(a.pos[0]));
    });
    def("vars", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "vars");
        if (a.pos.empty()) {
            Frame* f = J.eval_->top;
            return f && f->ns ? Value(f->ns) : Value(J.newDict());
        }
        Value d = J.getAttrOrNull(a.pos[0], "__dict__");
        if (d.isNull()) {
            throw PyError(Exc::TypeError, "vars() argument must have __dict__ attribute");
        }
        return d;
    });
    def("dir", [](Interpreter& J, CallArgs& a) {
        noKeywords(a, "dir");
        if (a.pos.empty()) {
            Frame* f = J.eval_->top;
            std::vector<Value> names;
            if (f && f->ns) {
                f->ns->forEach([&](const Value& k, const Value&) { names.push_back(k); });
            }
            sortValues(J, names, Value(), false);
            return Value(J.newList(std::move(names)));
        }
        return dirOf(J, a.pos[0]);
    });
    def("globals", [](Interpreter& J, CallArgs&) {
        Frame* f = J.eval_->top;
        return f ? Value(f->globals) : Value(J.newDict());
    });
    def("locals", [](Interpreter& J, CallArgs&) {
        Frame* f = J.eval_->top;
        if (!f) {
            return Value(J.newDict());
        }
        if (f->ns) {
            return Value(f->ns);
        }
        Ref<DictObject> d = J.newDict();
        for (std::size_t i = 0; i < f->code->varNames.size(); ++i) {
            if (!f->fast[i].isNull()) {
                d->setStr(J.intern(f->code->varNames[i]), f->fast[i]);
            }
        }
        for (std::size_t i = 0; i < f->cells.size(); ++i) {
            const std::string& n = i < f->code->cellNames.size()
                                       ? f->code->cellNames[i]
                                       : f->code->freeNames[i - f->code->cellNames.size()];
            if (!f->cells[i]->value.isNull()) {
                d->setStr(J.intern(n), f->cells[i]->value);
            }
        }
        return Value(d);
    });
    for (const char* name : {"exit", "quit"}) {
        def(name, [](Interpreter& J, CallArgs& a) -> Value {
            throw PyError(Value(J.make<ExceptionObject>(
                J.types().exception(Exc::SystemExit),
                Value(J.newTuple(a.pos.empty() ? std::vector<Value>{}
                                               : std::vector<Value>{a.pos[0]})))));
        });
    }
    const BuiltinTypes& T = I.types();
    for (const Ref<Type>& t :
         {T.object, T.type, T.boolType, T.intType, T.floatType, T.str, T.tuple, T.list, T.dict,
          T.set, T.range, T.slice, T.property, T.staticMethod, T.classMethod, T.super}) {
        bd.setStr(I.intern(t->name), Value(t));
    }
    for (int i = 0; i < static_cast<int>(Exc::Count); ++i) {
        bd.setStr(I.intern(T.exc[i]->name), Value(T.exc[i]));
    }
    bd.setStr(I.intern("NotImplemented"), I.notImplemented());
    bd.setStr(I.intern("Ellipsis"), I.ellipsis());
    bd.setStr(I.intern("__debug__"), Value::boolean(true));
}

}  // namespace irscope::interp
