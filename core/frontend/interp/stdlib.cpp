// The small pure-computation standard modules every interpreter has: math, typing (names
// for annotations, which are not evaluated) and functools (partial, reduce, wraps).
#include <cmath>
#include <numeric>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

namespace {

double arg(Interpreter& I, const CallArgs& a, std::size_t i, const char* fn) {
    if (i >= a.pos.size()) {
        throw PyError(Exc::TypeError,
                      std::string("math.") + fn + "() takes exactly one argument (0 given)");
    }
    return toDouble(I, a.pos[i]);
}

[[noreturn]] void domainError() {
    throw PyError(Exc::ValueError, "math domain error");
}

double checked(double r, double x) {
    if (std::isnan(r) && !std::isnan(x)) {
        domainError();
    }
    if (std::isinf(r) && std::isfinite(x)) {
        throw PyError(Exc::OverflowError, "math range error");
    }
    return r;
}

void initMath(Interpreter& I, ModuleObject& m) {
    addToModule(I, m, "pi", Value::real(M_PI));
    addToModule(I, m, "e", Value::real(M_E));
    addToModule(I, m, "tau", Value::real(2 * M_PI));
    addToModule(I, m, "inf", Value::real(INFINITY));
    addToModule(I, m, "nan", Value::real(NAN));
    struct Unary {
        const char* name;
        double (*f)(double);
    };
    for (Unary u : {Unary{"exp", [](double x) { return std::exp(x); }},
                    Unary{"sin", [](double x) { return std::sin(x); }},
                    Unary{"cos", [](double x) { return std::cos(x); }},
                    Unary{"tan", [](double x) { return std::tan(x); }},
                    Unary{"asin", [](double x) { return std::asin(x); }},
                    Unary{"acos", [](double x) { return std::acos(x); }},
                    Unary{"atan", [](double x) { return std::atan(x); }},
                    Unary{"sinh", [](double x) { return std::sinh(x); }},
                    Unary{"cosh", [](double x) { return std::cosh(x); }},
                    Unary{"tanh", [](double x) { return std::tanh(x); }},
                    Unary{"erf", [](double x) { return std::erf(x); }},
                    Unary{"erfc", [](double x) { return std::erfc(x); }},
                    Unary{"fabs", [](double x) { return std::fabs(x); }},
                    Unary{"log2", [](double x) { return x > 0 ? std::log2(x) : NAN; }},
                    Unary{"log10", [](double x) { return x > 0 ? std::log10(x) : NAN; }},
                    Unary{"log1p", [](double x) { return x > -1 ? std::log1p(x) : NAN; }},
                    Unary{"expm1", [](double x) { return std::expm1(x); }},
                    Unary{"sqrt", [](double x) { return x >= 0 ? std::sqrt(x) : NAN; }},
                    Unary{"degrees", [](double x) { return x * 180.0 / M_PI; }},
                    Unary{"radians", [](double x) { return x * M_PI / 180.0; }}}) {
        addFunction(I, m, u.name, [u](Interpreter& J, CallArgs& a) {
            noKeywords(a, u.name);
            double x = arg(J, a, 0, u.name);
            return Value::real(checked(u.f(x), x));
        });
    }
    addFunction(I, m, "log", [](Interpreter& J, CallArgs& a) {
        double x = arg(J, a, 0, "log");
        if (x <= 0) {
            domainError();
        }
        double r = std::log(x);
        if (a.pos.size() > 1) {
            double b = toDouble(J, a.pos[1]);
            if (b <= 0 || b == 1) {
                if (b == 1) {
                    throw PyError(Exc::ZeroDivisionError, "float division by zero");
                }
                domainError();
            }
            r /= std::log(b);
        }
        return Value::real(r);
    });
    addFunction(I, m, "pow", [](Interpreter& J, CallArgs& a) {
        if (a.pos.size() != 2) {
            throw PyError(Exc::TypeError,
                          "pow expected 2 arguments, got " + std::to_string(a.pos.size()));
        }
        double x = toDouble(J, a.pos[0]), y = toDouble(J, a.pos[1]);
        if (x == 0 && y < 0) {
            domainError();
        }
        return Value::real(checked(std::pow(x, y), x));
    });
    addFunction(I, m, "atan2", [](Interpreter& J, CallArgs& a) {
        return Value::real(std::atan2(arg(J, a, 0, "atan2"), arg(J, a, 1, "atan2")));
    });
    addFunction(I, m, "hypot", [](Interpreter& J, CallArgs& a) {
        double s = 0;
        for (const Value& v : a.pos) {
            double x = toDouble(J, v);
            s = std::hypot(s, x);
        }
        return Value::real(s);
    });
    for (const char* n : {"floor", "ceil", "trunc"}) {
        addFunction(I, m, n, [n](Interpreter& J, CallArgs& a) {
            const Value& v = a.pos.at(0);
            if (v.isIntLike()) {
                return Value::integer(v.intLike());
            }
            double x = toDouble(J, v);
            double r = n[0] == 'f' ? std::floor(x) : n[0] == 'c' ? std::ceil(x) : std::trunc(x);
            return Value::integer(floatToInt(r));
        });
    }
    for (const char* n : {"isnan", "isinf", "isfinite"}) {
        addFunction(I, m, n, [n](Interpreter& J, CallArgs& a) {
            double x = arg(J, a, 0, n);
            bool r = n[2] == 'n'                  ? std::isnan(x)
                     : n[2] == 'i' && n[3] == 'n' ? std::isinf(x)
                                                  : std::isfinite(x);
            return Value::boolean(r);
        });
    }
    addFunction(I, m, "isclose", [](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("isclose")
                                         .arg("a")
                                         .arg("b")
                                         .kwOnly("rel_tol", Value::real(1e-9))
                                         .kwOnly("abs_tol", Value::real(0));
        auto v = sig.bind(J, a);
        double x = toDouble(J, v[0]), y = toDouble(J, v[1]);
        double rel = toDouble(J, v[2]), abs = toDouble(J, v[3]);
        if (x == y) {
            return Value::boolean(true);
        }
        if (std::isinf(x) || std::isinf(y)) {
            return Value::boolean(false);
        }
        double d = std::fabs(x - y);
        return Value::boolean(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs);
    });
    addFunction(I, m, "gcd", [](Interpreter& J, CallArgs& a) {
        std::int64_t g = 0;
        for (const Value& v : a.pos) {
            g = std::gcd(g, J.toIndex(v));
        }
        return Value::integer(g);
    });
    addFunction(I, m, "factorial", [](Interpreter& J, CallArgs& a) {
        std::int64_t n = J.toIndex(a.pos.at(0));
        if (n < 0) {
            throw PyError(Exc::ValueError, "factorial() not defined for negative values");
        }
        std::int64_t r = 1;
        for (std::int64_t i = 2; i <= n; ++i) {
            r = checkedMul(r, i);
        }
        return Value::integer(r);
    });
    addFunction(I, m, "prod", [](Interpreter& J, CallArgs& a) {
        Value acc = a.kwarg("start");
        if (acc.isNull()) {
            acc = Value::integer(1);
        }
        for (const Value& v : J.toVector(a.pos.at(0))) {
            acc = J.binaryOp(ast::Operator::Mult, acc, v);
        }
        return acc;
    });
    addFunction(I, m, "fsum", [](Interpreter& J, CallArgs& a) {
        long double s = 0;  // close to Python's exact fsum for ordinary inputs
        for (const Value& v : J.toVector(a.pos.at(0))) {
            s += toDouble(J, v);
        }
        return Value::real(static_cast<double>(s));
    });
    addFunction(I, m, "copysign", [](Interpreter& J, CallArgs& a) {
        return Value::real(std::copysign(arg(J, a, 0, "copysign"), arg(J, a, 1, "copysign")));
    });
    addFunction(I, m, "fmod", [](Interpreter& J, CallArgs& a) {
        double x = arg(J, a, 0, "fmod"), y = arg(J, a, 1, "fmod");
        if (y == 0) {
            domainError();
        }
        return Value::real(std::fmod(x, y));
    });
}

void initTyping(Interpreter& I, ModuleObject& m) {
    const BuiltinTypes& T = I.types();
    addToModule(I, m, "List", Value(T.list));
    addToModule(I, m, "Dict", Value(T.dict));
    addToModule(I, m, "Tuple", Value(T.tuple));
    addToModule(I, m, "Set", Value(T.set));
    addToModule(I, m, "Type", Value(T.type));
    // The rest only ever appear in annotations: a placeholder that can be subscripted.
    Ref<Type> special =
        ClassBuilder(I, "_SpecialForm", "typing")
            .method("__getitem__", [](Interpreter&, CallArgs& a) { return a.pos.at(0); })
            .method(
                "__repr__",
                [](Interpreter& J, CallArgs& a) {
                    return Value(J.newStr("typing." + toStr(J, J.getAttr(a.pos.at(0), "_name"))));
                })
            .build();
    for (const char* n :
         {"Any", "Optional", "Union", "Callable", "Iterable", "Iterator", "Sequence", "Mapping",
          "Generator", "Literal", "ClassVar", "Final", "NoReturn"}) {
        Value v = I.call(Value(special), {});
        I.genericSetAttr(v, I.intern("_name"), Value(I.newStr(n)));
        addToModule(I, m, n, v);
    }
    addFunction(I, m, "cast", [](Interpreter&, CallArgs& a) { return a.pos.at(1); });
    addToModule(I, m, "TYPE_CHECKING", Value::boolean(false));
}

void initFunctools(Interpreter& I, ModuleObject& m) {
    addFunction(I, m, "reduce", [](Interpreter& J, CallArgs& a) {
        if (a.pos.size() < 2 || a.pos.size() > 3) {
            throw PyError(Exc::TypeError, "reduce expected at least 2 arguments, got " +
                                              std::to_string(a.pos.size()));
        }
        Value it = J.iter(a.pos[1]);
        Value acc;
        if (a.pos.size() == 3) {
            acc = a.pos[2];
        } else if (!J.next(it, acc)) {
            throw PyError(Exc::TypeError, "reduce() of empty iterable with no initial value");
        }
        Value x;
        while (J.next(it, x)) {
            J.step();
            acc = J.call(a.pos[0], {acc, x});
        }
        return acc;
    });
    addFunction(I, m, "partial", [](Interpreter& J, CallArgs& a) -> Value {
        if (a.pos.empty()) {
            throw PyError(Exc::TypeError, "partial expected at least 1 argument, got 0");
        }
        CallArgs bound(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
        Value fn = a.pos[0];
        auto p = J.newNative("partial", [fn, bound](Interpreter& K, CallArgs& more) {
            CallArgs all = bound;
            all.pos.insert(all.pos.end(), more.pos.begin(), more.pos.end());
            for (const KwArg& k : more.kw) {
                bool replaced = false;
                for (KwArg& old : all.kw) {
                    if (old.name == k.name) {
                        old.value = k.value;
                        replaced = true;
                    }
                }
                if (!replaced) {
                    all.kw.push_back(k);
                }
            }
            return K.call(fn, std::move(all));
        });
        return Value(p);
    });
    addFunction(I, m, "wraps", [](Interpreter& J, CallArgs& a) -> Value {
        Value wrapped = a.pos.at(0);
        return Value(J.newNative("wraps", [wrapped](Interpreter& K, CallArgs& b) {
            Value wrapper = b.pos.at(0);
            for (const char* n : {"__module__", "__name__", "__qualname__", "__doc__"}) {
                Value v = K.getAttrOrNull(wrapped, n);
                if (!v.isNull()) {
                    try {
                        K.setAttr(wrapper, n, v);
                    } catch (PyError&) {  // read-only on this kind of callable
                    }
                }
            }
            K.setAttr(wrapper, "__wrapped__", wrapped);
            return wrapper;
        }));
    });
}

}  // namespace

void registerStandardModules(Interpreter& I) {
    I.registerModule("math", initMath);
    I.registerModule("typing", initTyping);
    I.registerModule("functools", initFunctools);
}

}  // namespace irscope::interp
