// The element-wise math of ops.* beyond the Eigen-backed basics (elementwise_unary.cpp):
// trigonometric and hyperbolic functions, Erf/Erfc, Log1p/Expm1, Rsqrt/Reciprocal, the rounding
// ops, Sign, the smooth activations (Softplus, Softsign, ReLU6, HSigmoid, SiLU, Mish) and the
// IsNan/IsInf/IsFinite predicates. Each is one scalar function applied in double precision and
// rounded to the output dtype, with the class, functional and Tensor-method spellings
// MindSpore gives it.
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// How the output dtype follows the input's.
enum class Kind : std::uint8_t {
    Float,      // a float result: float inputs keep their dtype, ints and bools give Float32
    FloatOnly,  // float inputs only (Floor, Ceil, the activations); same dtype out
    Numeric,    // any number but Bool; same dtype out (Sign, Round)
    Predicate,  // any number; Bool out
};

struct MathOp {
    const char* name;
    std::vector<const char*> functions;  // ops.<f> / F.<f>
    std::vector<const char*> methods;    // Tensor.<m>
    const char* summary;
    Kind kind;
    double (*f)(double);
};

double sign(double x) {
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : (std::isnan(x) ? x : 0.0));
}

double softplus(double x) {
    // log(1 + e^x) without overflow for large x.
    return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// The inverse of erf: Giles' single-precision approximation refined by two Newton steps on
// erf(y) - x (its derivative 2 / sqrt(pi) e^(-y^2)).
double erfinv(double x) {
    if (x <= -1.0 || x >= 1.0) {
        return x == 1.0 ? HUGE_VAL : (x == -1.0 ? -HUGE_VAL : std::nan(""));
    }
    double w = -std::log((1.0 - x) * (1.0 + x));
    double p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                         -0.00125372503, -0.00417768164, 0.246640727, 1.50140941}) {
            p = c + p * w;
        }
    } else {
        w = std::sqrt(w) - 3.0;
        p = -0.000200214257;
        for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                         -0.0076224613, 0.00943887047, 1.00167406, 2.83297682}) {
            p = c + p * w;
        }
    }
    double y = p * x;
    for (int i = 0; i < 2; ++i) {
        y -= (std::erf(y) - x) / (1.1283791670955126 * std::exp(-y * y));
    }
    return y;
}

// Rounds half to even, as numpy and MindSpore's Round do.
double roundHalfEven(double x) {
    return std::nearbyint(x);
}

const std::vector<MathOp>& mathOps() {
    static const std::vector<MathOp> all = {
        {"Sin", {"sin"}, {"sin"}, "sine", Kind::Float, [](double x) { return std::sin(x); }},
        {"Cos", {"cos"}, {"cos"}, "cosine", Kind::Float, [](double x) { return std::cos(x); }},
        {"Tan", {"tan"}, {"tan"}, "tangent", Kind::Float, [](double x) { return std::tan(x); }},
        {"Asin",
         {"asin", "arcsin"},
         {"asin", "arcsin"},
         "inverse sine",
         Kind::Float,
         [](double x) { return std::asin(x); }},
        {"ACos",
         {"acos", "arccos"},
         {"acos", "arccos"},
         "inverse cosine",
         Kind::Float,
         [](double x) { return std::acos(x); }},
        {"Atan",
         {"atan", "arctan"},
         {"atan", "arctan"},
         "inverse tangent",
         Kind::Float,
         [](double x) { return std::atan(x); }},
        {"Sinh",
         {"sinh"},
         {"sinh"},
         "hyperbolic sine",
         Kind::Float,
         [](double x) { return std::sinh(x); }},
        {"Cosh",
         {"cosh"},
         {"cosh"},
         "hyperbolic cosine",
         Kind::Float,
         [](double x) { return std::cosh(x); }},
        {"Asinh",
         {"asinh", "arcsinh"},
         {"asinh", "arcsinh"},
         "inverse hyperbolic sine",
         Kind::Float,
         [](double x) { return std::asinh(x); }},
        {"Acosh",
         {"acosh", "arccosh"},
         {"acosh", "arccosh"},
         "inverse hyperbolic cosine",
         Kind::Float,
         [](double x) { return std::acosh(x); }},
        {"Atanh",
         {"atanh", "arctanh"},
         {"atanh", "arctanh"},
         "inverse hyperbolic tangent",
         Kind::Float,
         [](double x) { return std::atanh(x); }},
        {"Erf",
         {"erf"},
         {"erf"},
         "error function",
         Kind::Float,
         [](double x) { return std::erf(x); }},
        {"Erfc",
         {"erfc"},
         {"erfc"},
         "1 - erf(x)",
         Kind::Float,
         [](double x) { return std::erfc(x); }},
        {"Erfinv", {"erfinv"}, {"erfinv"}, "inverse error function", Kind::FloatOnly, erfinv},
        {"Lgamma",
         {"lgamma"},
         {"lgamma"},
         "log |gamma(x)|",
         Kind::Float,
         [](double x) { return std::lgamma(x); }},
        {"Log1p",
         {"log1p"},
         {"log1p"},
         "log(1 + x)",
         Kind::Float,
         [](double x) { return std::log1p(x); }},
        {"Expm1",
         {"expm1"},
         {"expm1"},
         "e ** x - 1",
         Kind::Float,
         [](double x) { return std::expm1(x); }},
        {"Rsqrt",
         {"rsqrt"},
         {"rsqrt"},
         "1 / sqrt(x)",
         Kind::Float,
         [](double x) { return 1.0 / std::sqrt(x); }},
        {"Reciprocal",
         {"reciprocal"},
         {"reciprocal"},
         "1 / x",
         Kind::Float,
         [](double x) { return 1.0 / x; }},
        {"Inv",
         {"inv"},
         {},
         "1 / x in x's dtype (integers truncate)",
         Kind::Numeric,
         [](double x) { return 1.0 / x; }},
        {"Rint", {"rint"}, {}, "round half to even", Kind::FloatOnly, roundHalfEven},
        {"Floor",
         {"floor"},
         {"floor"},
         "round toward -inf",
         Kind::FloatOnly,
         [](double x) { return std::floor(x); }},
        {"Ceil",
         {"ceil"},
         {"ceil"},
         "round toward +inf",
         Kind::FloatOnly,
         [](double x) { return std::ceil(x); }},
        {"Trunc",
         {"trunc"},
         {"trunc"},
         "round toward 0",
         Kind::Numeric,
         [](double x) { return std::trunc(x); }},
        {"Round", {"round"}, {"round"}, "round half to even", Kind::Numeric, roundHalfEven},
        {"Sign", {"sign"}, {"sign"}, "-1, 0 or 1 by the sign of x", Kind::Numeric, sign},
        {"Softplus", {"softplus"}, {}, "log(1 + e ** x)", Kind::FloatOnly, softplus},
        {"Softsign",
         {"softsign"},
         {},
         "x / (1 + |x|)",
         Kind::FloatOnly,
         [](double x) { return x / (1.0 + std::abs(x)); }},
        {"ReLU6",
         {"relu6"},
         {},
         "min(max(x, 0), 6)",
         Kind::Numeric,
         [](double x) { return std::min(std::max(x, 0.0), 6.0); }},
        {"HSigmoid",
         {"hardsigmoid"},
         {},
         "relu6(x + 3) / 6",
         Kind::FloatOnly,
         [](double x) { return std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; }},
        {"SiLU",
         {"silu"},
         {},
         "x * sigmoid(x)",
         Kind::FloatOnly,
         [](double x) { return x / (1.0 + std::exp(-x)); }},
        {"Mish",
         {"mish"},
         {},
         "x * tanh(softplus(x))",
         Kind::FloatOnly,
         [](double x) { return x * std::tanh(softplus(x)); }},
        {"IsNan",
         {"isnan"},
         {"isnan"},
         "x is NaN",
         Kind::Predicate,
         [](double x) { return std::isnan(x) ? 1.0 : 0.0; }},
        {"IsInf",
         {"isinf"},
         {"isinf"},
         "x is +inf or -inf",
         Kind::Predicate,
         [](double x) { return std::isinf(x) ? 1.0 : 0.0; }},
        {"IsFinite",
         {"isfinite"},
         {"isfinite"},
         "x is neither NaN nor infinite",
         Kind::Predicate,
         [](double x) { return std::isfinite(x) ? 1.0 : 0.0; }},
    };
    return all;
}

DType outputType(const MathOp& m, DType in) {
    auto wrongType = [&](const char* allowed) {
        typeError(m.name, std::string("the type of 'x' must be Tensor[") + allowed +
                              "], but got Tensor[" + typeStr(in) + "].");
    };
    switch (m.kind) {
        case Kind::Float:
            return ir::isFloat(in) ? in : DType::Float32;
        case Kind::FloatOnly:
            if (!ir::isFloat(in)) {
                wrongType("Float16, Float32, Float64");
            }
            return in;
        case Kind::Numeric:
            if (in == DType::Bool) {
                wrongType("Int8, Int16, Int32, Int64, UInt8, Float16, Float32, Float64");
            }
            return in;
        case Kind::Predicate:
            return DType::Bool;
    }
    return in;
}

InferResult inferMath(const MathOp& m, const InferContext& ctx) {
    const AbstractPtr x = tensorInput(ctx, 0, "x");
    return {ir::Abstract::tensor(outputType(m, x->dtype), x->shape), nullptr};
}

template <typename In, typename OutT>
void applyTyped(const Tensor& x, Tensor& out, double (*f)(double)) {
    const In* src = x.data<In>();
    OutT* dst = out.data<OutT>();
    for (std::size_t i = 0; i < x.size(); ++i) {
        dst[i] = static_cast<OutT>(f(static_cast<double>(src[i])));
    }
}

KernelArg runMath(const MathOp& m, const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    const DType outType = outputType(m, x.dtype());
    Tensor out(outType, x.shape());
    if (x.dtype() == DType::Float32 && outType == DType::Float32) {
        applyTyped<float, float>(x, out, m.f);
    } else if (x.dtype() == DType::Float64 && outType == DType::Float64) {
        applyTyped<double, double>(x, out, m.f);
    } else {
        // Half types, integers and the Bool outputs: through the tensor's double accessors.
        const bool integral = !ir::isFloat(outType) && outType != DType::Bool;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double r = m.f(x.getDouble(i));
            out.setDouble(i, integral && !std::isfinite(r) ? 0.0 : r);  // Inv(0) on an int
        }
    }
    return KernelArg(out);
}

// ---- gradients of the differentiable ones -------------------------------------------------

// dx = dout * d(x), d built from the forward input x and output y with emit.
using Derivative = ir::Node* (*)(BpropContext& c, ir::Node* x, ir::Node* y);

ir::Node* k(BpropContext& c, double v) {
    return c.scalar(c.absOf(0)->dtype, v);
}

void setDerivative(OpRegistry& reg, const char* name, Derivative d) {
    setBprop(reg, name, [d](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        c.setGrad(0, c.emit("Mul", {c.dout(), d(c, c.input(0), c.out())}));
    });
}

void registerElementwiseMathBprops(OpRegistry& reg) {
    setDerivative(reg, "Sin",
                  [](BpropContext& c, ir::Node* x, ir::Node*) { return c.emit("Cos", {x}); });
    setDerivative(reg, "Cos", [](BpropContext& c, ir::Node* x, ir::Node*) {
        return c.emit("Neg", {c.emit("Sin", {x})});
    });
    setDerivative(reg, "Tan", [](BpropContext& c, ir::Node*, ir::Node* y) {
        return c.emit("Add", {k(c, 1.0), c.emit("Square", {y})});
    });
    setDerivative(reg, "Atan", [](BpropContext& c, ir::Node* x, ir::Node*) {
        return c.emit("Reciprocal", {c.emit("Add", {k(c, 1.0), c.emit("Square", {x})})});
    });
    setDerivative(reg, "Sinh",
                  [](BpropContext& c, ir::Node* x, ir::Node*) { return c.emit("Cosh", {x}); });
    setDerivative(reg, "Cosh",
                  [](BpropContext& c, ir::Node* x, ir::Node*) { return c.emit("Sinh", {x}); });
    setDerivative(reg, "Log1p", [](BpropContext& c, ir::Node* x, ir::Node*) {
        return c.emit("Reciprocal", {c.emit("Add", {k(c, 1.0), x})});
    });
    setDerivative(reg, "Expm1", [](BpropContext& c, ir::Node*, ir::Node* y) {
        return c.emit("Add", {y, k(c, 1.0)});
    });
    setDerivative(reg, "Reciprocal", [](BpropContext& c, ir::Node*, ir::Node* y) {
        return c.emit("Neg", {c.emit("Square", {y})});
    });
    setDerivative(reg, "Rsqrt", [](BpropContext& c, ir::Node*, ir::Node* y) {
        // d(x^-1/2) = -1/2 x^-3/2 = -1/2 y^3
        return c.emit("Mul", {k(c, -0.5), c.emit("Mul", {y, c.emit("Square", {y})})});
    });
    setDerivative(reg, "Erf", [](BpropContext& c, ir::Node* x, ir::Node*) {
        // 2/sqrt(pi) e^(-x^2)
        return c.emit("Mul", {k(c, 1.1283791670955126),
                              c.emit("Exp", {c.emit("Neg", {c.emit("Square", {x})})})});
    });
    setDerivative(reg, "Softplus",
                  [](BpropContext& c, ir::Node* x, ir::Node*) { return c.emit("Sigmoid", {x}); });
    for (const char* flat : {"Floor", "Ceil", "Trunc", "Round", "Sign"}) {
        setBprop(reg, flat, [](BpropContext& c) {
            if (c.needsGrad(0)) {
                c.setGrad(0, c.zerosLike(c.absOf(0)));
            }
        });
    }
}

// ~x on an integer tensor, in the dtype's width.
KernelArg runInvert(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    if (!ir::isInteger(x.dtype())) {
        typeError(ctx.name(),
                  "the type of 'x' must be Tensor[Int8, Int16, Int32, Int64, UInt8, "
                  "UInt16, UInt32, UInt64], but got Tensor[" +
                      typeStr(x.dtype()) + "].");
    }
    const std::size_t bits = ir::dtypeSize(x.dtype()) * 8;
    const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    const bool isUnsigned = x.dtype() == DType::UInt8 || x.dtype() == DType::UInt16 ||
                            x.dtype() == DType::UInt32 || x.dtype() == DType::UInt64;
    Tensor out(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::int64_t v = x.getInt(i);
        out.setInt(
            i, isUnsigned ? static_cast<std::int64_t>(~static_cast<std::uint64_t>(v) & mask) : ~v);
    }
    return KernelArg(out);
}

void registerBitwiseAndIdentity(OpRegistry& reg) {
    {
        OpDef d{.name = "Invert", .family = "math", .summary = "bitwise not of an integer tensor"};
        d.inputs = {argIn("x", ArgKind::Tensor)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = c.abs(0);
            if (!isTensorAbs(x) || !ir::isInteger(x->dtype)) {
                typeError(c.name(),
                          "the type of 'x' must be an integer Tensor, but got " + typeStr(x) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runInvert;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "invert", {toInput("x", 0)});
        addFunction(d, {"ops", "F"}, "bitwise_not", {toInput("input", 0)});
        reg.add(std::move(d));
    }
    {
        // A copy of x (a new tensor, not x itself).
        OpDef d{.name = "Identity", .family = "array", .summary = "a copy of x"};
        d.inputs = {argIn("x", ArgKind::Tensor)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) { return KernelArg(c.tensor(0).clone()); };
        addClassSpellings(d);
        addMethod(d, "value", {});  // Parameter.value(): its current value
        reg.add(std::move(d));
    }
    setBprop(reg, "Identity", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.dout());
        }
    });
}

}  // namespace

void registerElementwiseMathOps(OpRegistry& reg) {
    for (const MathOp& m : mathOps()) {
        OpDef d{.name = m.name,
                .family = m.kind == Kind::Predicate ? "compare" : "math",
                .summary = m.summary};
        d.inputs = {argIn("x", ArgKind::Tensor)};
        d.infer = [&m](const InferContext& c) { return inferMath(m, c); };
        d.cpuKernel = [&m](const KernelContext& c) { return runMath(m, c); };
        addClassSpellings(d);
        for (const char* f : m.functions) {
            addFunction(d, {"ops", "F"}, f, {toInput("input", 0)});
        }
        for (const char* meth : m.methods) {
            addMethod(d, meth, {});
        }
        reg.add(std::move(d));
    }
    registerElementwiseMathBprops(reg);
    registerBitwiseAndIdentity(reg);
}

}  // namespace irscope::ops
