// The binary element-wise math of ops.* beyond the arithmetic basics (elementwise_arith.cpp):
// SquaredDifference, Atan2, Xdivy, Xlogy, DivNoNan, TruncateDiv, TruncateMod and the bitwise
// And/Or/Xor, one table row each (a scalar function in double or int64 precision applied with
// numpy broadcasting), plus the ternary Lerp and MaskedFill.
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// Which dtypes an op takes; the output has the operands' promoted dtype.
enum class Domain : std::uint8_t {
    Number,   // any number but Bool
    Float,    // floats only
    Bitwise,  // integers and Bool (MindSpore's CPU bitwise kernels take bool tensors)
};

struct BinaryMathOp {
    const char* name;
    const char* x;  // the primitive's input names
    const char* y;
    std::vector<const char*> functions;  // ops.<f>(input, other)
    std::vector<const char*> methods;    // Tensor.<m>(other)
    const char* summary;
    Domain domain;
    double (*f)(double, double);                    // floats (and integers when i is null)
    std::int64_t (*i)(std::int64_t, std::int64_t);  // integers; null: through f
    // Float32 in float arithmetic, for the ops whose steps round separately (numpy's and
    // MindSpore's (x - y) * (x - y) rounds the difference first); null: through f.
    float (*f32)(float, float) = nullptr;
    const char* pyOperator = nullptr;  // the Python operator on tensors ("&"), if any
};

std::int64_t truncDiv(std::int64_t a, std::int64_t b) {
    return b == 0 ? 0 : a / b;
}

std::int64_t truncMod(std::int64_t a, std::int64_t b) {
    return b == 0 ? 0 : a % b;
}

const std::vector<BinaryMathOp>& binaryMathOps() {
    static const std::vector<BinaryMathOp> all = {
        {"SquaredDifference",
         "x",
         "y",
         {},
         {},
         "(x - y) ** 2",
         Domain::Number,
         [](double a, double b) { return (a - b) * (a - b); },
         [](std::int64_t a, std::int64_t b) { return (a - b) * (a - b); },
         [](float a, float b) {
             const float d = a - b;
             return d * d;
         }},
        {"Atan2",
         "x",
         "y",
         {"atan2", "arctan2"},
         {"atan2"},
         "atan(x / y) in the right quadrant",
         Domain::Float,
         [](double a, double b) { return std::atan2(a, b); },
         nullptr},
        {"Xdivy",
         "x",
         "y",
         {"xdivy"},
         {"xdivy"},
         "x / y, 0 where x is 0",
         Domain::Float,
         [](double a, double b) { return a == 0.0 ? 0.0 : a / b; },
         nullptr},
        {"Xlogy",
         "x",
         "y",
         {"xlogy"},
         {"xlogy"},
         "x * log(y), 0 where x is 0",
         Domain::Float,
         [](double a, double b) { return a == 0.0 ? 0.0 : a * std::log(b); },
         nullptr},
        {"DivNoNan",
         "x1",
         "x2",
         {"div_no_nan"},
         {},
         "x1 / x2, 0 where x2 is 0",
         Domain::Number,
         [](double a, double b) { return b == 0.0 ? 0.0 : a / b; },
         truncDiv},
        {"TruncateDiv",
         "x",
         "y",
         {"truncate_div"},
         {},
         "x / y rounded toward 0",
         Domain::Number,
         [](double a, double b) { return std::trunc(a / b); },
         truncDiv},
        {"TruncateMod",
         "x",
         "y",
         {"truncate_mod"},
         {},
         "the remainder of TruncateDiv",
         Domain::Number,
         [](double a, double b) { return std::fmod(a, b); },
         truncMod},
        {"BitwiseAnd",
         "x1",
         "x2",
         {"bitwise_and"},
         {"bitwise_and"},
         "x1 & x2",
         Domain::Bitwise,
         nullptr,
         [](std::int64_t a, std::int64_t b) { return a & b; },
         nullptr,
         "&"},
        {"BitwiseOr",
         "x1",
         "x2",
         {"bitwise_or"},
         {"bitwise_or"},
         "x1 | x2",
         Domain::Bitwise,
         nullptr,
         [](std::int64_t a, std::int64_t b) { return a | b; },
         nullptr,
         "|"},
        {"BitwiseXor",
         "x1",
         "x2",
         {"bitwise_xor"},
         {"bitwise_xor"},
         "x1 ^ x2",
         Domain::Bitwise,
         nullptr,
         [](std::int64_t a, std::int64_t b) { return a ^ b; },
         nullptr,
         "^"},
    };
    return all;
}

double sigmoidOf(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

// The element-wise backward primitives of mindspore.ops.operations._grad_ops (G.SigmoidGrad,
// ...): the gradient of an activation from its output or input and the incoming gradient, in
// MindSpore's argument order. Their class spelling is G.<name> only.
const std::vector<BinaryMathOp>& gradMathOps() {
    static const std::vector<BinaryMathOp> all = {
        {"SigmoidGrad", "y", "dy", {}, {}, "dy * y * (1 - y)", Domain::Float,
         [](double y, double dy) { return dy * y * (1.0 - y); }, nullptr},
        {"TanhGrad", "y", "dy", {}, {}, "dy * (1 - y ** 2)", Domain::Float,
         [](double y, double dy) { return dy * (1.0 - y * y); }, nullptr},
        {"SqrtGrad", "y", "dy", {}, {}, "dy / (2 * y)", Domain::Float,
         [](double y, double dy) { return dy / (2.0 * y); }, nullptr},
        {"RsqrtGrad", "y", "dy", {}, {}, "dy * -0.5 * y ** 3", Domain::Float,
         [](double y, double dy) { return dy * -0.5 * y * y * y; }, nullptr},
        {"ReciprocalGrad", "y", "dy", {}, {}, "-dy * y ** 2", Domain::Float,
         [](double y, double dy) { return -dy * y * y; }, nullptr},
        {"InvGrad", "x", "grad", {}, {}, "-grad * x ** 2", Domain::Float,
         [](double y, double dy) { return -dy * y * y; }, nullptr},
        {"AsinGrad", "x", "dout", {}, {}, "dout / sqrt(1 - x ** 2)", Domain::Float,
         [](double x, double d) { return d / std::sqrt(1.0 - x * x); }, nullptr},
        {"ACosGrad", "x", "dout", {}, {}, "-dout / sqrt(1 - x ** 2)", Domain::Float,
         [](double x, double d) { return -d / std::sqrt(1.0 - x * x); }, nullptr},
        {"AtanGrad", "x", "dout", {}, {}, "dout / (1 + x ** 2)", Domain::Float,
         [](double x, double d) { return d / (1.0 + x * x); }, nullptr},
        {"AsinhGrad", "y", "dy", {}, {}, "dy / cosh(y)", Domain::Float,
         [](double y, double d) { return d / std::cosh(y); }, nullptr},
        {"AcoshGrad", "y", "dy", {}, {}, "dy / sinh(y)", Domain::Float,
         [](double y, double d) { return d / std::sinh(y); }, nullptr},
        {"ReluGrad", "y_backprop", "x", {}, {}, "y_backprop where x > 0, else 0", Domain::Number,
         [](double d, double x) { return x > 0.0 ? d : 0.0; },
         [](std::int64_t d, std::int64_t x) { return x > 0 ? d : std::int64_t{0}; }},
        {"ReLU6Grad", "y_grad", "x", {}, {}, "y_grad where 0 < x <= 6, else 0 (MindSpore's kernel)",
         Domain::Float, [](double d, double x) { return x > 0.0 && x <= 6.0 ? d : 0.0; }, nullptr},
        {"EluGrad", "dy", "y", {}, {}, "dy where y > 0, else dy * (y + 1)", Domain::Float,
         [](double d, double y) { return y > 0.0 ? d : d * (y + 1.0); }, nullptr},
        {"SoftplusGrad", "gradients", "features", {}, {}, "gradients * sigmoid(features)",
         Domain::Float, [](double d, double x) { return d * sigmoidOf(x); }, nullptr},
        {"SiLUGrad", "dout", "x", {}, {}, "dout * sigmoid(x) * (1 + x * (1 - sigmoid(x)))",
         Domain::Float,
         [](double d, double x) {
             const double s = sigmoidOf(x);
             return d * s * (1.0 + x * (1.0 - s));
         },
         nullptr},
        {"HSigmoidGrad", "grads", "input_x", {}, {}, "grads / 6 where -3 < x < 3, else 0",
         Domain::Float, [](double d, double x) { return x > -3.0 && x < 3.0 ? d / 6.0 : 0.0; },
         nullptr},
        {"HSwishGrad", "y_grad", "x", {}, {}, "y_grad * d hswish(x)", Domain::Float,
         [](double d, double x) {
             return x <= -3.0 ? 0.0 : (x >= 3.0 ? d : d * (2.0 * x + 3.0) / 6.0);
         },
         nullptr},
    };
    return all;
}

const char* domainTypes(Domain d) {
    switch (d) {
        case Domain::Float:
            return "Float16, Float32, Float64";
        case Domain::Bitwise:
            return "Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64";
        case Domain::Number:
            break;
    }
    return "Int8, Int16, Int32, Int64, UInt8, Float16, Float32, Float64";
}

// The promoted dtype of the operands; TypeError outside the op's domain.
DType resultType(const BinaryMathOp& m, const Operand& x, const Operand& y) {
    if (!x.tensor && !y.tensor) {
        typeError(m.name, std::string("the input '") + m.x + "' or '" + m.y +
                              "' must be a Tensor, but got two numbers.");
    }
    const Operand both[] = {x, y};
    const DType t = promoteOperands(both);
    const bool ok = m.domain == Domain::Float     ? ir::isFloat(t)
                    : m.domain == Domain::Bitwise ? ir::isInteger(t) || t == DType::Bool
                                                  : t != DType::Bool;
    if (!ok) {
        typeError(m.name, std::string("the type of '") + m.x + "' must be Tensor[" +
                              domainTypes(m.domain) + "], but got Tensor[" + typeStr(t) + "].");
    }
    return t;
}

InferResult inferBinaryMath(const BinaryMathOp& m, const InferContext& ctx) {
    const Operand x = operandOf(m.name, m.x, ctx.abs(0));
    const Operand y = operandOf(m.name, m.y, ctx.abs(1));
    const DType t = resultType(m, x, y);
    const Shape out = !x.tensor   ? y.shape
                      : !y.tensor ? x.shape
                                  : broadcastShapes(m.name, x.shape, y.shape, m.x, m.y);
    return {ir::Abstract::tensor(t, out), nullptr};
}

KernelArg runBinaryMath(const BinaryMathOp& m, const KernelContext& ctx) {
    const DType t = resultType(m, operandOfArg(m.name, m.x, ctx.input(0)),
                               operandOfArg(m.name, m.y, ctx.input(1)));
    const Tensor x0 = tensorAs(m.name, ctx.input(0), t);
    const Tensor y0 = tensorAs(m.name, ctx.input(1), t);
    const Shape shape = broadcastShapes(m.name, x0.shape(), y0.shape(), m.x, m.y);
    const Tensor x = broadcastTo(m.name, x0, shape);
    const Tensor y = broadcastTo(m.name, y0, shape);
    Tensor out(t, shape);
    const bool integral = (ir::isInteger(t) || t == DType::Bool) && m.i != nullptr;
    const bool single = t == DType::Float32 && m.f32 != nullptr;
    for (std::size_t k = 0; k < out.size(); ++k) {
        if (single) {
            out.data<float>()[k] = m.f32(x.data<float>()[k], y.data<float>()[k]);
        } else if (integral) {
            out.setInt(k, m.i(x.getInt(k), y.getInt(k)));
        } else {
            out.setDouble(k, m.f(x.getDouble(k), y.getDouble(k)));
        }
    }
    return KernelArg(out);
}

// ---- Lerp and MaskedFill ------------------------------------------------------------------

AbstractPtr floatTensor(const InferContext& c, std::size_t i, const char* argName) {
    const AbstractPtr a = c.abs(i);
    if (!isTensorAbs(a) || !ir::isFloat(a->dtype)) {
        typeError(c.name(), std::string("the type of '") + argName +
                                "' must be Tensor[Float16, Float32, Float64], but got " +
                                typeStr(a) + ".");
    }
    return a;
}

InferResult inferLerp(const InferContext& c) {
    const AbstractPtr start = floatTensor(c, 0, "start");
    const AbstractPtr end = floatTensor(c, 1, "end");
    if (start->dtype != end->dtype) {
        typeError(c.name(), "the dtype of 'start' and 'end' must be the same, but got " +
                                typeStr(start) + " and " + typeStr(end) + ".");
    }
    Shape out = broadcastShapes(c.name(), start->shape, end->shape, "start", "end");
    const AbstractPtr w = c.abs(2);
    if (isTensorAbs(w)) {
        if (w->dtype != start->dtype) {
            typeError(c.name(), "the dtype of 'weight' must be the same as 'start', but got " +
                                    typeStr(w) + " and " + typeStr(start) + ".");
        }
        out = broadcastShapes(c.name(), out, w->shape, "start", "weight");
    } else if (!isScalarAbs(w) || !(w->dtype == DType::Float32 || w->dtype == DType::Float64)) {
        typeError(c.name(),
                  "the 'weight' must be a float or a Tensor, but got " + typeStr(w) + ".");
    }
    return {ir::Abstract::tensor(start->dtype, out), nullptr};
}

KernelArg runLerp(const KernelContext& c) {
    const Tensor s0 = c.tensor(0);
    const DType t = s0.dtype();
    if (!ir::isFloat(t) || !c.input(1).isTensor() || c.tensor(1).dtype() != t) {
        typeError(c.name(),
                  "the type of 'start' and 'end' must be the same float Tensor type, "
                  "but got Tensor[" +
                      typeStr(t) + "] and " +
                      (c.input(1).isTensor() ? "Tensor[" + typeStr(c.tensor(1).dtype()) + "]"
                                             : std::string("a number")) +
                      ".");
    }
    const Tensor e0 = tensorAs(c.name(), c.input(1), t);
    const Tensor w0 = tensorAs(c.name(), c.input(2), t);
    const Shape shape =
        broadcastShapes(c.name(), broadcastShapes(c.name(), s0.shape(), e0.shape(), "start", "end"),
                        w0.shape(), "start", "weight");
    const Tensor s = broadcastTo(c.name(), s0, shape);
    const Tensor e = broadcastTo(c.name(), e0, shape);
    const Tensor w = broadcastTo(c.name(), w0, shape);
    Tensor out(t, shape);
    for (std::size_t k = 0; k < out.size(); ++k) {
        const double a = s.getDouble(k);
        out.setDouble(k, a + w.getDouble(k) * (e.getDouble(k) - a));
    }
    return KernelArg(out);
}

InferResult inferMaskedFill(const InferContext& c) {
    const AbstractPtr x = c.abs(0);
    if (!isTensorAbs(x)) {
        typeError(c.name(), "the input 'input' must be a Tensor, but got " + typeStr(x) + ".");
    }
    const AbstractPtr mask = c.abs(1);
    if (!isTensorAbs(mask) || mask->dtype != DType::Bool) {
        typeError(c.name(),
                  "the type of 'mask' must be Tensor[Bool], but got " + typeStr(mask) + ".");
    }
    const AbstractPtr v = c.abs(2);
    Shape out = broadcastShapes(c.name(), x->shape, mask->shape, "input", "mask");
    if (isTensorAbs(v)) {
        out = broadcastShapes(c.name(), out, v->shape, "input", "value");
    } else if (!isScalarAbs(v)) {
        typeError(c.name(),
                  "the 'value' must be a number or a Tensor, but got " + typeStr(v) + ".");
    }
    return {ir::Abstract::tensor(x->dtype, out), nullptr};
}

KernelArg runMaskedFill(const KernelContext& c) {
    const Tensor x0 = c.tensor(0);
    const Tensor m0 = c.tensor(1);
    if (m0.dtype() != DType::Bool) {
        typeError(c.name(), "the type of 'mask' must be Tensor[Bool], but got Tensor[" +
                                typeStr(m0.dtype()) + "].");
    }
    const Tensor v0 = tensorAs(c.name(), c.input(2), x0.dtype());
    const Shape shape = broadcastShapes(
        c.name(), broadcastShapes(c.name(), x0.shape(), m0.shape(), "input", "mask"), v0.shape(),
        "input", "value");
    const Tensor x = broadcastTo(c.name(), x0, shape);
    const Tensor m = broadcastTo(c.name(), m0, shape);
    const Tensor v = broadcastTo(c.name(), v0, shape);
    Tensor out = x.clone();
    const std::size_t width = ir::dtypeSize(out.dtype());
    for (std::size_t k = 0; k < out.size(); ++k) {
        if (m.getInt(k) != 0) {
            std::copy_n(v.bytes() + k * width, width, out.bytes() + k * width);
        }
    }
    return KernelArg(out);
}

void registerTernaryOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Lerp", .family = "math", .summary = "start + weight * (end - start)"};
        d.inputs = {argIn("start"), argIn("end"), argIn("weight", ArgKind::Number)};
        d.infer = inferLerp;
        d.cpuKernel = runLerp;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "lerp",
                    {toInput("input", 0), toInput("end", 1), toInput("weight", 2)});
        addMethod(d, "lerp", {toInput("end", 1), toInput("weight", 2)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "MaskedFill",
                .family = "array",
                .summary = "value where mask is True, input elsewhere"};
        d.inputs = {argIn("input"), argIn("mask"), argIn("value", ArgKind::Number)};
        d.infer = inferMaskedFill;
        d.cpuKernel = runMaskedFill;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "masked_fill",
                    {toInput("input_x", 0), toInput("mask", 1), toInput("value", 2)});
        addMethod(d, "masked_fill", {toInput("mask", 1), toInput("value", 2)});
        reg.add(std::move(d));
    }
}

void registerBinaryMathBprops(OpRegistry& reg) {
    // d(x - y)^2 = 2 (x - y) (dx - dy)
    setBprop(reg, "SquaredDifference", [](BpropContext& c) {
        const DType t = c.out()->abstract()->dtype;
        ir::Node* g = c.emit(
            "Mul",
            {c.dout(), c.emit("Mul", {c.scalar(t, 2.0), c.emit("Sub", {c.input(0), c.input(1)})})});
        if (c.needsGrad(0)) {
            c.setGradReduced(0, g);
        }
        if (c.needsGrad(1)) {
            c.setGradReduced(1, c.emit("Neg", {g}));
        }
    });
    // d lerp = (1 - w) d start + w d end
    setBprop(reg, "Lerp", [](BpropContext& c) {
        const DType t = c.out()->abstract()->dtype;
        ir::Node* w = c.input(2);
        if (c.needsGrad(0)) {
            c.setGradReduced(0, c.emit("Mul", {c.dout(), c.emit("Sub", {c.scalar(t, 1.0), w})}));
        }
        if (c.needsGrad(1)) {
            c.setGradReduced(1, c.emit("Mul", {c.dout(), w}));
        }
    });
}

}  // namespace

void registerBinaryMathOps(OpRegistry& reg) {
    for (const BinaryMathOp& m : binaryMathOps()) {
        OpDef d{.name = m.name, .family = "math", .summary = m.summary};
        d.inputs = {argIn(m.x, ArgKind::Number), argIn(m.y, ArgKind::Number)};
        d.infer = [&m](const InferContext& c) { return inferBinaryMath(m, c); };
        d.cpuKernel = [&m](const KernelContext& c) { return runBinaryMath(m, c); };
        addClassSpellings(d);
        for (const char* f : m.functions) {
            addFunction(d, {"ops", "F"}, f, {toInput("input", 0), toInput("other", 1)});
        }
        for (const char* meth : m.methods) {
            addMethod(d, meth, {toInput("other", 1)});
        }
        if (m.pyOperator != nullptr) {
            addOperator(d, m.pyOperator);
        }
        reg.add(std::move(d));
    }
    for (const BinaryMathOp& m : gradMathOps()) {
        OpDef d{.name = m.name, .family = "grad", .summary = m.summary};
        d.inputs = {argIn(m.x, ArgKind::Tensor), argIn(m.y, ArgKind::Tensor)};
        d.infer = [&m](const InferContext& c) { return inferBinaryMath(m, c); };
        d.cpuKernel = [&m](const KernelContext& c) { return runBinaryMath(m, c); };
        d.spellings.push_back(Spelling{.kind = SpellingKind::Class, .text = std::string("G.") + m.name});
        reg.add(std::move(d));
    }
    registerTernaryOps(reg);
    registerBinaryMathBprops(reg);
}

}  // namespace irscope::ops
