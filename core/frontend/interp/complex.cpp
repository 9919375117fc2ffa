// Python's complex numbers: the `complex` class (operators with int/float/complex, abs,
// ==, hash, .real/.imag/.conjugate(), repr) and the `cmath` module's basics.
#include "frontend/interp/complex.h"

#include <cmath>
#include <limits>

#include "frontend/interp/interp_internal.h"
#include "runtime/float_format.h"

namespace irscope::interp {

using C = std::complex<double>;

namespace {

// CPython's _Py_c_prod (no NaN recovery, unlike std::complex's operator*).
C mul(C a, C b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// CPython's c_powu: exponentiation by squaring for a non-negative integral power.
C powu(C x, long n) {
    C r{1.0, 0.0};
    C p = x;
    long mask = 1;
    while (mask > 0 && n >= mask) {
        if ((n & mask) != 0) {
            r = mul(r, p);
        }
        mask <<= 1;
        p = mul(p, p);
    }
    return r;
}

[[noreturn]] void zeroPower() {
    throw PyError(Exc::ZeroDivisionError, "0.0 to a negative or complex power");
}

// _Py_c_pow: the general power through polar form.
C powGeneral(C a, C b) {
    if (b.real() == 0.0 && b.imag() == 0.0) {
        return {1.0, 0.0};
    }
    if (a.real() == 0.0 && a.imag() == 0.0) {
        if (b.imag() != 0.0 || b.real() < 0.0) {
            zeroPower();
        }
        return {0.0, 0.0};
    }
    double vabs = std::hypot(a.real(), a.imag());
    double len = std::pow(vabs, b.real());
    double at = std::atan2(a.imag(), a.real());
    double phase = at * b.real();
    if (b.imag() != 0.0) {
        len /= std::exp(at * b.imag());
        phase += b.imag() * std::log(vabs);
    }
    return {len * std::cos(phase), len * std::sin(phase)};
}

ComplexObject* selfOf(const Value& v) {
    auto* c = v.as<ComplexObject>();
    if (c == nullptr) {
        throw PyError(Exc::TypeError, "descriptor requires a 'complex' object");
    }
    return c;
}

// The float repr CPython uses inside a complex: no ".0" added (`(1+2j)`).
std::string part(double d) {
    std::string s = runtime::formatPyFloat(d);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) {
        s.resize(s.size() - 2);
    }
    return s;
}

using BinaryFn = C (*)(C, C);

C addFn(C a, C b) { return {a.real() + b.real(), a.imag() + b.imag()}; }
C subFn(C a, C b) { return {a.real() - b.real(), a.imag() - b.imag()}; }
C mulFn(C a, C b) { return mul(a, b); }
C divFn(C a, C b) { return complexDiv(a, b); }
C powFn(C a, C b) { return complexPow(a, b); }

void defBinary(ClassBuilder& b, const char* name, const char* reflected, BinaryFn fn) {
    b.method(name, [fn](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "complex operator");
        auto o = complexOf(a.pos[1]);
        if (!o) {
            return J.notImplemented();
        }
        return newComplex(J, fn(selfOf(a.pos[0])->value, *o));
    });
    b.method(reflected, [fn](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 3, "complex operator");
        auto o = complexOf(a.pos[1]);
        if (!o) {
            return J.notImplemented();
        }
        return newComplex(J, fn(*o, selfOf(a.pos[0])->value));
    });
}

Value construct(Interpreter& I, Type*, CallArgs& args) {
    static const Signature sig = Signature("complex").arg("real", Value()).arg("imag", Value());
    auto v = sig.bind(I, args);
    if (v[0].isNull() && v[1].isNull()) {
        return newComplex(I, {0.0, 0.0});
    }
    if (const auto* s = v[0].as<StrObject>()) {
        if (!v[1].isNull()) {
            throw PyError(Exc::TypeError, "complex() can't take second arg if first is a string");
        }
        auto c = parseComplex(s->value);
        if (!c) {
            throw PyError(Exc::ValueError, "complex() arg is a malformed string");
        }
        return newComplex(I, *c);
    }
    if (v[1].is<StrObject>()) {
        throw PyError(Exc::TypeError, "complex() second arg can't be a string");
    }
    C re{0.0, 0.0}, im{0.0, 0.0};
    if (!v[0].isNull()) {
        auto c = complexOf(v[0]);
        if (!c) {  // an object with __complex__ (or __float__), as a numpy scalar
            for (const char* hook : {"__complex__", "__float__"}) {
                Value f = I.getAttrOrNull(v[0], hook);
                if (!f.isNull()) {
                    c = complexOf(I.call(f, {}));
                    break;
                }
            }
        }
        if (!c) {
            throw PyError(Exc::TypeError,
                          "complex() first argument must be a string or a number, not '" +
                              I.typeName(v[0]) + "'");
        }
        re = *c;
    }
    if (!v[1].isNull()) {
        auto c = complexOf(v[1]);
        if (!c) {
            throw PyError(Exc::TypeError, "complex() second argument must be a number, not '" +
                                              I.typeName(v[1]) + "'");
        }
        im = *c;
    }
    // complex(a, b) is a + b*1j, computed as CPython does.
    return newComplex(I, {re.real() - im.imag(), re.imag() + im.real()});
}

C cmathArg(Interpreter& I, const CallArgs& a, std::size_t i, const char* fn) {
    if (i >= a.pos.size()) {
        throw PyError(Exc::TypeError,
                      std::string("cmath.") + fn + "() takes exactly one argument (0 given)");
    }
    auto c = complexOf(a.pos[i]);
    if (!c) {
        throw PyError(Exc::TypeError, "must be real number, not " + I.typeName(a.pos[i]));
    }
    return *c;
}

void initCmath(Interpreter& I, ModuleObject& m) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    addToModule(I, m, "pi", Value::real(M_PI));
    addToModule(I, m, "e", Value::real(M_E));
    addToModule(I, m, "tau", Value::real(2 * M_PI));
    addToModule(I, m, "inf", Value::real(kInf));
    addToModule(I, m, "nan", Value::real(kNan));
    addToModule(I, m, "infj", newComplex(I, {0.0, kInf}));
    addToModule(I, m, "nanj", newComplex(I, {0.0, kNan}));
    struct Unary {
        const char* name;
        C (*fn)(C);
    };
    static constexpr Unary kUnary[] = {
        {"sqrt", [](C z) { return std::sqrt(z); }}, {"exp", [](C z) { return std::exp(z); }},
        {"log10", [](C z) { return std::log10(z); }}, {"sin", [](C z) { return std::sin(z); }},
        {"cos", [](C z) { return std::cos(z); }},   {"tan", [](C z) { return std::tan(z); }},
        {"sinh", [](C z) { return std::sinh(z); }}, {"cosh", [](C z) { return std::cosh(z); }},
        {"tanh", [](C z) { return std::tanh(z); }},
    };
    for (const Unary& u : kUnary) {
        addFunction(I, m, u.name, [u](Interpreter& J, CallArgs& a) {
            return newComplex(J, u.fn(cmathArg(J, a, 0, u.name)));
        });
    }
    addFunction(I, m, "log", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "log");
        if (z == C{0.0, 0.0}) {
            throw PyError(Exc::ValueError, "math domain error");
        }
        C r = std::log(z);
        if (a.pos.size() > 1) {
            r = complexDiv(r, std::log(cmathArg(J, a, 1, "log")));
        }
        return newComplex(J, r);
    });
    addFunction(I, m, "phase", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "phase");
        return Value::real(std::atan2(z.imag(), z.real()));
    });
    addFunction(I, m, "polar", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "polar");
        return Value(J.newTuple({Value::real(std::hypot(z.real(), z.imag())),
                                 Value::real(std::atan2(z.imag(), z.real()))}));
    });
    addFunction(I, m, "rect", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "rect");
        double r = toDouble(J, a.pos[0]), phi = toDouble(J, a.pos[1]);
        return newComplex(J, {r * std::cos(phi), r * std::sin(phi)});
    });
    addFunction(I, m, "isnan", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "isnan");
        return Value::boolean(std::isnan(z.real()) || std::isnan(z.imag()));
    });
    addFunction(I, m, "isinf", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "isinf");
        return Value::boolean(std::isinf(z.real()) || std::isinf(z.imag()));
    });
    addFunction(I, m, "isfinite", [](Interpreter& J, CallArgs& a) {
        C z = cmathArg(J, a, 0, "isfinite");
        return Value::boolean(std::isfinite(z.real()) && std::isfinite(z.imag()));
    });
}

}  // namespace

Value newComplex(Interpreter& I, C v) {
    return Value(I.make<ComplexObject>(I.types().complexType.get(), v));
}

std::optional<C> complexOf(const Value& v) {
    if (v.isNumber()) {
        return C{v.toDouble(), 0.0};
    }
    if (const auto* c = v.as<ComplexObject>()) {
        return c->value;
    }
    return std::nullopt;
}

std::string complexRepr(C v) {
    if (v.real() == 0.0 && !std::signbit(v.real())) {
        return part(v.imag()) + "j";
    }
    std::string im = part(v.imag());
    if (im[0] != '-') {
        im.insert(im.begin(), '+');
    }
    return "(" + part(v.real()) + im + "j)";
}

std::optional<C> parseComplex(std::string_view text) {
    auto trim = [](std::string_view s) {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
            s.remove_prefix(1);
        }
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
            s.remove_suffix(1);
        }
        return s;
    };
    std::string_view s = trim(text);
    if (s.size() >= 2 && s.front() == '(' && s.back() == ')') {
        s = trim(s.substr(1, s.size() - 2));
    }
    if (s.empty()) {
        return std::nullopt;
    }
    // A number: parseFloat's grammar ("1.5e3", "inf", "nan"), or empty for `j` alone.
    auto number = [](std::string_view t, double* out) {
        if (t == "+" || t == "-" || t.empty()) {
            *out = t == "-" ? -1.0 : 1.0;
            return true;
        }
        try {
            *out = parseFloat(t);
            return true;
        } catch (PyError&) {
            return false;
        }
    };
    if ((s.back() | 0x20) != 'j') {
        double re = 0.0;
        if (!number(s, &re) || s == "+" || s == "-") {
            return std::nullopt;
        }
        return C{re, 0.0};
    }
    std::string_view body = s.substr(0, s.size() - 1);
    // The sign that starts the imaginary part: the last + or - not after an exponent 'e'.
    std::size_t split = std::string_view::npos;
    for (std::size_t i = body.size(); i-- > 1;) {
        if ((body[i] == '+' || body[i] == '-') && (body[i - 1] | 0x20) != 'e') {
            split = i;
            break;
        }
    }
    double re = 0.0, im = 0.0;
    if (split == std::string_view::npos) {
        return number(body, &im) ? std::optional<C>(C{0.0, im}) : std::nullopt;
    }
    if (!number(body.substr(0, split), &re) || !number(body.substr(split), &im)) {
        return std::nullopt;
    }
    return C{re, im};
}

C complexDiv(C a, C b) {
    const double absR = std::fabs(b.real()), absI = std::fabs(b.imag());
    if (absR >= absI) {
        if (absR == 0.0) {
            throw PyError(Exc::ZeroDivisionError, "complex division by zero");
        }
        const double ratio = b.imag() / b.real();
        const double denom = b.real() + b.imag() * ratio;
        return {(a.real() + a.imag() * ratio) / denom, (a.imag() - a.real() * ratio) / denom};
    }
    if (absI >= absR) {
        const double ratio = b.real() / b.imag();
        const double denom = b.real() * ratio + b.imag();
        return {(a.real() * ratio + a.imag()) / denom, (a.imag() * ratio - a.real()) / denom};
    }
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    return {kNan, kNan};  // a NaN in b
}

C complexPow(C a, C b) {
    C r;
    if (b.imag() == 0.0 && b.real() == std::floor(b.real()) && std::fabs(b.real()) <= 100.0) {
        const auto n = static_cast<long>(b.real());
        if (n >= 0) {
            r = powu(a, n);
        } else {
            if (a == C{0.0, 0.0}) {
                zeroPower();
            }
            r = complexDiv({1.0, 0.0}, powu(a, -n));
        }
    } else {
        r = powGeneral(a, b);
    }
    const bool finiteIn = std::isfinite(a.real()) && std::isfinite(a.imag()) &&
                          std::isfinite(b.real()) && std::isfinite(b.imag());
    if (finiteIn && (std::isinf(r.real()) || std::isinf(r.imag()))) {
        throw PyError(Exc::OverflowError, "complex exponentiation");
    }
    return r;
}

void setUpComplex(Interpreter& I) {
    ClassBuilder b(I, "complex", "builtins");
    b.construct(construct).subclassable(false).instanceDict(false);
    defBinary(b, "__add__", "__radd__", addFn);
    defBinary(b, "__sub__", "__rsub__", subFn);
    defBinary(b, "__mul__", "__rmul__", mulFn);
    defBinary(b, "__truediv__", "__rtruediv__", divFn);
    defBinary(b, "__pow__", "__rpow__", powFn);
    b.method("__neg__", [](Interpreter& J, CallArgs& a) {
        return newComplex(J, -selfOf(a.pos.at(0))->value);
    });
    b.method("__pos__", [](Interpreter&, CallArgs& a) { return a.pos.at(0); });
    b.method("__abs__", [](Interpreter&, CallArgs& a) {
        C z = selfOf(a.pos.at(0))->value;
        double r = std::hypot(z.real(), z.imag());
        if (std::isinf(r) && std::isfinite(z.real()) && std::isfinite(z.imag())) {
            throw PyError(Exc::OverflowError, "absolute value too large");
        }
        return Value::real(r);
    });
    b.method("__bool__", [](Interpreter&, CallArgs& a) {
        return Value::boolean(selfOf(a.pos.at(0))->value != C{0.0, 0.0});
    });
    b.method("__eq__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__eq__");
        auto o = complexOf(a.pos[1]);
        return o ? Value::boolean(selfOf(a.pos[0])->value == *o) : J.notImplemented();
    });
    b.method("__ne__", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 2, 2, "__ne__");
        auto o = complexOf(a.pos[1]);
        return o ? Value::boolean(selfOf(a.pos[0])->value != *o) : J.notImplemented();
    });
    b.method("__hash__", [](Interpreter&, CallArgs& a) {
        C z = selfOf(a.pos.at(0))->value;
        auto h = static_cast<std::uint64_t>(hashFloat(z.real())) +
                 1000003ULL * static_cast<std::uint64_t>(hashFloat(z.imag()));
        auto r = static_cast<std::int64_t>(h);
        return Value::integer(r == -1 ? -2 : r);
    });
    b.method("__repr__", [](Interpreter& J, CallArgs& a) {
        return Value(J.newStr(complexRepr(selfOf(a.pos.at(0))->value)));
    });
    b.method("conjugate", [](Interpreter& J, CallArgs& a) {
        expectArgs(a, 1, 1, "conjugate");
        return newComplex(J, std::conj(selfOf(a.pos[0])->value));
    });
    b.property("real", [](Interpreter&, const Value& self) {
        return Value::real(selfOf(self)->value.real());
    });
    b.property("imag", [](Interpreter&, const Value& self) {
        return Value::real(selfOf(self)->value.imag());
    });
    Ref<Type> t = b.build();
    I.types_.complexType = t;
    I.builtins().setStr(I.intern("complex"), Value(t));
    I.registerModule("cmath", initCmath);
}

}  // namespace irscope::interp
