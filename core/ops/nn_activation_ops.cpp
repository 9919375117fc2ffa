// Activations with a parameter and the clipping primitive: LeakyReLU (alpha), SeLU, CeLU
// (alpha), HShrink and SoftShrink (lambd), ClipByValue; each with its bprop.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ops/bprop.h"
#include "ops/elementwise.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"
#include "util/py_text.h"

namespace irscope::ops {

using ir::Node;

namespace {

constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

// f(x, parameter) for one activation; `param` names its attribute ("" for none).
struct Activation {
    const char* name;
    const char* param;
    double defaultParam;
    const char* summary;
    double (*f)(double x, double p);
    void (*check)(std::string_view op, double p);  // attribute check, or nullptr
    const char* function;                          // ops.<f> / F.<f>
    const char* input;                             // its first parameter's name
    const char* method;                            // Tensor.<m>, or nullptr
};


void checkLambd(std::string_view op, double p) {
    if (p < 0) {
        valueError(op, "the values of 'lambd' should be greater or equal to 0, but got " +
                           util::pyFloatRepr(p) + ".");
    }
}

const std::vector<Activation>& activations() {
    static const std::vector<Activation> all = {
        {"LeakyReLU", "alpha", 0.2, "x where x > 0, alpha * x elsewhere",
         [](double x, double a) { return x > 0 ? x : a * x; }, nullptr, "leaky_relu", "input",
         nullptr},
        {"SeLU", "", 0.0, "scale * (x where x > 0, alpha * (e ** x - 1) elsewhere)",
         [](double x, double) { return kSeluScale * (x > 0 ? x : kSeluAlpha * std::expm1(x)); },
         nullptr, "selu", "input_x", nullptr},
        {"CeLU", "alpha", 1.0, "max(0, x) + min(0, alpha * (e ** (x / alpha) - 1))",
         [](double x, double a) { return std::max(0.0, x) + std::min(0.0, a * std::expm1(x / a)); },
         [](std::string_view op, double a) {
             if (a == 0.0) {
                 valueError(op, "the 'alpha' can not be equal to 0.");
             }
         },
         "celu", "x", nullptr},
        {"HShrink", "lambd", 0.5, "x where |x| > lambd, 0 elsewhere",
         [](double x, double l) { return std::abs(x) > l ? x : 0.0; }, checkLambd, "hardshrink",
         "x", "hardshrink"},
        {"SoftShrink", "lambd", 0.5, "x -+ lambd where |x| > lambd, 0 elsewhere",
         [](double x, double l) { return x > l ? x - l : (x < -l ? x + l : 0.0); }, checkLambd,
         "softshrink", "x", nullptr},
    };
    return all;
}

double paramOf(const Activation& a, const ValuePtr& v) {
    return *a.param && v ? numberOf(v).value_or(a.defaultParam) : a.defaultParam;
}

AbstractPtr floatInput(const InferContext& c, const char* argName) {
    const AbstractPtr x = tensorInput(c, 0, argName);
    if (x->dtype != DType::Float16 && x->dtype != DType::Float32 && x->dtype != DType::Float64) {
        typeError(c.name(), std::string("the type of '") + argName +
                                "' must be Tensor[Float16, Float32, Float64], but got " +
                                typeStr(x) + ".");
    }
    return x;
}

KernelArg runActivation(const Activation& a, const KernelContext& c) {
    const Tensor x = c.tensor(0);
    if (x.dtype() != DType::Float16 && x.dtype() != DType::Float32 && x.dtype() != DType::Float64) {
        typeError(c.name(), std::string("the type of '") + c.op().inputs[0].name +
                                "' must be Tensor[Float16, Float32, Float64], but got Tensor[" +
                                typeStr(x.dtype()) + "].");
    }
    const double p = paramOf(a, *a.param ? c.attr(a.param) : nullptr);
    if (a.check) {
        a.check(c.name(), p);
    }
    Tensor out(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        out.setDouble(i, a.f(x.getDouble(i), p));
    }
    return KernelArg(out);
}

// ---- ClipByValue -----------------------------------------------------------------------------

InferResult inferClip(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    Shape out = x->shape;
    for (std::size_t i = 1; i < 3; ++i) {
        const AbstractPtr b = c.abs(i);
        if (isTensorAbs(b)) {
            out = broadcastShapes(c.name(), out, b->shape, "x",
                                  i == 1 ? "clip_value_min" : "clip_value_max");
        } else if (!isScalarAbs(b)) {
            typeError(c.name(), std::string("the '") +
                                    (i == 1 ? "clip_value_min" : "clip_value_max") +
                                    "' must be a Tensor or a number, but got " + typeStr(b) + ".");
        }
    }
    return {ir::Abstract::tensor(x->dtype, out), nullptr};
}

// max(min(x, clip_value_max), clip_value_min), in x's dtype.
KernelArg runClip(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const DType t = x.dtype();
    const DType compute = computeType(t);
    const Tensor lo = tensorAs(c.name(), c.input(1), compute);
    const Tensor hi = tensorAs(c.name(), c.input(2), compute);
    const Tensor capped = arithKernel(c.name(), BinaryOp::Minimum, castTo(x, compute), hi, compute);
    return KernelArg(castTo(arithKernel(c.name(), BinaryOp::Maximum, capped, lo, compute), t));
}

// ---- gradients --------------------------------------------------------------------------------

void registerActivationBprops(OpRegistry& reg) {
    // LeakyReLU: dout where x > 0, alpha * dout elsewhere.
    setBprop(reg, "LeakyReLU", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const DType t = c.absOf(0)->dtype;
        const ValuePtr a = c.attrs().get("alpha");
        Node* positive = c.emit("Greater", {c.input(0), c.scalar(t, 0.0)});
        c.setGrad(
            0,
            c.emit("Select",
                   {positive, c.dout(),
                    c.emit("Mul", {c.dout(), c.scalar(t, a ? numberOf(a).value_or(0.2) : 0.2)})}));
    });
    // SeLU: scale where out > 0, out + scale * alpha elsewhere.
    setBprop(reg, "SeLU", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const DType t = c.absOf(0)->dtype;
        Node* positive = c.emit("Greater", {c.input(0), c.scalar(t, 0.0)});
        Node* neg = c.emit("Add", {c.out(), c.scalar(t, kSeluScale * kSeluAlpha)});
        Node* scale = c.emit("Mul", {c.onesLike(c.absOf(0)), c.scalar(t, kSeluScale)});
        c.setGrad(0, c.emit("Mul", {c.dout(), c.emit("Select", {positive, scale, neg})}));
    });
    // CeLU: 1 where x > 0, out / alpha + 1 elsewhere (e ** (x / alpha)).
    setBprop(reg, "CeLU", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const DType t = c.absOf(0)->dtype;
        const ValuePtr a = c.attrs().get("alpha");
        const double alpha = a ? numberOf(a).value_or(1.0) : 1.0;
        Node* positive = c.emit("Greater", {c.input(0), c.scalar(t, 0.0)});
        Node* neg = c.emit("Exp", {c.emit("Mul", {c.input(0), c.scalar(t, 1.0 / alpha)})});
        c.setGrad(0, c.emit("Mul",
                            {c.dout(), c.emit("Select", {positive, c.onesLike(c.absOf(0)), neg})}));
    });
    // HShrink, SoftShrink: dout where |x| > lambd, 0 elsewhere.
    for (const char* name : {"HShrink", "SoftShrink"}) {
        setBprop(reg, name, [](BpropContext& c) {
            if (!c.needsGrad(0)) {
                return;
            }
            const DType t = c.absOf(0)->dtype;
            const ValuePtr l = c.attrs().get("lambd");
            Node* outside = c.emit("Greater", {c.emit("Abs", {c.input(0)}),
                                               c.scalar(t, l ? numberOf(l).value_or(0.5) : 0.5)});
            c.setGrad(0, c.emit("Mul", {c.dout(), c.mask(outside, t)}));
        });
    }
    // ClipByValue: dout where min <= x <= max.
    setBprop(reg, "ClipByValue", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const DType t = c.absOf(0)->dtype;
        Node* inside = c.emit("LogicalAnd", {c.emit("GreaterEqual", {c.input(0), c.input(1)}),
                                             c.emit("LessEqual", {c.input(0), c.input(2)})});
        c.setGradReduced(0, c.emit("Mul", {c.dout(), c.mask(inside, t)}));
    });
}

}  // namespace

void registerNnActivationOps(OpRegistry& reg) {
    for (const Activation& a : activations()) {
        OpDef d{.name = a.name, .family = "nn", .summary = a.summary};
        if (*a.param) {
            d.attrs = {argDefault(a.param, ArgKind::Float, vFloat(a.defaultParam))};
        }
        const char* xName = std::string_view(a.name) == "SeLU" ? "input_x" : "x";
        d.inputs = {argIn(xName)};
        d.infer = [&a, xName](const InferContext& c) {
            const AbstractPtr x = floatInput(c, xName);
            if (a.check) {
                a.check(c.name(), paramOf(a, c.attr(a.param)));
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = [&a](const KernelContext& c) { return runActivation(a, c); };
        addClassSpellings(d);
        std::vector<ParamMap> params = {toInput(a.input, 0)};
        std::vector<ParamMap> methodParams;
        if (*a.param) {
            params.push_back(toAttr(a.param, a.param, vFloat(a.defaultParam)));
            methodParams.push_back(toAttr(a.param, a.param, vFloat(a.defaultParam)));
        }
        addFunction(d, {"ops", "F"}, a.function, params);
        if (a.method) {
            addMethod(d, a.method, methodParams);
        }
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "ClipByValue",
                .family = "math",
                .summary = "x clipped to [clip_value_min, clip_value_max]"};
        d.inputs = {argIn("x"), argIn("clip_value_min", ArgKind::Number),
                    argIn("clip_value_max", ArgKind::Number)};
        d.infer = inferClip;
        d.cpuKernel = runClip;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "clip_by_value",
                    {toInput("x", 0), toInput("clip_value_min", 1), toInput("clip_value_max", 2)});
        reg.add(std::move(d));
    }
    registerActivationBprops(reg);
}

}  // namespace irscope::ops
