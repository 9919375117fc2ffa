// Python scalar arithmetic and comparisons inside graphs, named as MindSpore's scalar
// primitives (ScalarAdd, ScalarLt, BoolNot, ...). type_inference folds them when both values
// are known (through these kernels, so Python semantics live in one place: int / int is a
// float, // and % round toward negative infinity, division by zero is ZeroDivisionError) and
// keeps them as nodes when a value is unknown (a loop-carried int of a while loop whose
// condition is a tensor).
#include <cmath>

#include "ops/infer_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

enum class SOp : std::uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, Eq, Ne, Lt, Le, Gt, Ge };

bool isCompare(SOp op) {
    return op >= SOp::Eq;
}

struct Num {
    bool isFloat = false;
    std::int64_t i = 0;
    double f = 0;
    double d() const { return isFloat ? f : static_cast<double>(i); }
};

Num numOf(std::string_view op, const KernelArg& a) {
    if (!a.isValue() || !a.value()) {
        typeError(op, "the inputs must be Python numbers.");
    }
    const ValuePtr& v = a.value();
    switch (v->kind) {
        case ir::Value::Kind::Bool:
            return {false, v->b ? 1 : 0, 0};
        case ir::Value::Kind::Int:
            return {false, v->i, 0};
        case ir::Value::Kind::Float:
            return {true, 0, v->f};
        default:
            typeError(op, "the inputs must be Python numbers.");
    }
}

std::int64_t floorDivInt(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        --q;
    }
    return q;
}

std::int64_t floorModInt(std::int64_t a, std::int64_t b) {
    std::int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) {
        r += b;
    }
    return r;
}

double floorModFloat(double a, double b) {
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) {
        r += b;
    }
    return r;
}

[[noreturn]] void zeroDivision(const char* what) {
    fail(ErrorKind::ZeroDivisionError, what);
}

ValuePtr compute(std::string_view name, SOp op, const Num& a, const Num& b) {
    const bool fl = a.isFloat || b.isFloat;
    auto flt = [](double v) { return ir::Value::floating(v); };
    switch (op) {
        case SOp::Add:
            return fl ? flt(a.d() + b.d()) : ir::Value::integer(a.i + b.i);
        case SOp::Sub:
            return fl ? flt(a.d() - b.d()) : ir::Value::integer(a.i - b.i);
        case SOp::Mul:
            return fl ? flt(a.d() * b.d()) : ir::Value::integer(a.i * b.i);
        case SOp::Div:
            if (b.d() == 0) {
                zeroDivision(fl ? "float division by zero" : "division by zero");
            }
            return flt(a.d() / b.d());
        case SOp::FloorDiv:
            if (b.d() == 0) {
                zeroDivision(fl ? "float floor division by zero"
                                : "integer division or modulo by zero");
            }
            return fl ? flt(std::floor(a.d() / b.d())) : ir::Value::integer(floorDivInt(a.i, b.i));
        case SOp::Mod:
            if (b.d() == 0) {
                zeroDivision(fl ? "float modulo" : "integer division or modulo by zero");
            }
            return fl ? flt(floorModFloat(a.d(), b.d()))
                      : ir::Value::integer(floorModInt(a.i, b.i));
        case SOp::Pow:
            if (!fl && b.i >= 0) {
                std::int64_t r = 1;
                for (std::int64_t k = 0; k < b.i && k < 64; ++k) {
                    r *= a.i;
                }
                return ir::Value::integer(b.i >= 64 && (a.i > 1 || a.i < -1) ? 0 : r);
            }
            if (a.d() == 0 && b.d() < 0) {
                zeroDivision("0.0 cannot be raised to a negative power");
            }
            return flt(std::pow(a.d(), b.d()));
        case SOp::Eq:
            return ir::Value::boolean(a.d() == b.d());
        case SOp::Ne:
            return ir::Value::boolean(a.d() != b.d());
        case SOp::Lt:
            return ir::Value::boolean(a.d() < b.d());
        case SOp::Le:
            return ir::Value::boolean(a.d() <= b.d());
        case SOp::Gt:
            return ir::Value::boolean(a.d() > b.d());
        case SOp::Ge:
            return ir::Value::boolean(a.d() >= b.d());
    }
    typeError(name, "unknown scalar operation.");
}

void checkNumber(std::string_view op, const AbstractPtr& a, const char* argName) {
    if (!a || a->kind != ir::Abstract::Kind::Scalar || !isNumberScalar(a->dtype)) {
        typeError(op, std::string("the input '") + argName +
                          "' must be a Python number (int, float or bool), but got " + typeStr(a) +
                          ".");
    }
}

OpDef scalarBinary(std::string name, std::string summary, SOp op) {
    OpDef d{.name = std::move(name), .family = "scalar", .summary = std::move(summary)};
    d.inputs = {argIn("x", ArgKind::Number), argIn("y", ArgKind::Number)};
    d.infer = [op](const InferContext& ctx) {
        checkNumber(ctx.name(), ctx.abs(0), "x");
        checkNumber(ctx.name(), ctx.abs(1), "y");
        if (isCompare(op)) {
            return InferResult{ir::Abstract::scalar(DType::Bool), nullptr};
        }
        const bool fl = isFloat(ctx.abs(0)->dtype) || isFloat(ctx.abs(1)->dtype);
        return InferResult{
            ir::Abstract::scalar(fl || op == SOp::Div ? DType::Float32 : DType::Int64), nullptr};
    };
    d.cpuKernel = [op](const KernelContext& ctx) {
        return KernelArg(compute(ctx.name(), op, numOf(ctx.name(), ctx.input(0)),
                                 numOf(ctx.name(), ctx.input(1))));
    };
    return d;
}

}  // namespace

void registerScalarOps(OpRegistry& reg) {
    struct B {
        const char* name;
        const char* summary;
        SOp op;
    };
    for (const B& b : {B{"ScalarAdd", "x + y on Python numbers", SOp::Add},
                       B{"ScalarSub", "x - y on Python numbers", SOp::Sub},
                       B{"ScalarMul", "x * y on Python numbers", SOp::Mul},
                       B{"ScalarDiv", "x / y on Python numbers (always a float)", SOp::Div},
                       B{"ScalarFloorDiv", "x // y on Python numbers", SOp::FloorDiv},
                       B{"ScalarMod", "x % y on Python numbers (sign of y)", SOp::Mod},
                       B{"ScalarPow", "x ** y on Python numbers", SOp::Pow},
                       B{"ScalarEq", "x == y on Python numbers", SOp::Eq},
                       B{"ScalarNe", "x != y on Python numbers", SOp::Ne},
                       B{"ScalarLt", "x < y on Python numbers", SOp::Lt},
                       B{"ScalarLe", "x <= y on Python numbers", SOp::Le},
                       B{"ScalarGt", "x > y on Python numbers", SOp::Gt},
                       B{"ScalarGe", "x >= y on Python numbers", SOp::Ge}}) {
        reg.add(scalarBinary(b.name, b.summary, b.op));
    }
    {
        OpDef d{.name = "ScalarUsub", .family = "scalar", .summary = "-x on a Python number"};
        d.inputs = {argIn("x", ArgKind::Number)};
        d.infer = [](const InferContext& ctx) {
            checkNumber(ctx.name(), ctx.abs(0), "x");
            const DType t = ctx.abs(0)->dtype == DType::Bool ? DType::Int64 : ctx.abs(0)->dtype;
            return InferResult{ir::Abstract::scalar(t), nullptr};
        };
        d.cpuKernel = [](const KernelContext& ctx) {
            const Num a = numOf(ctx.name(), ctx.input(0));
            return KernelArg(a.isFloat ? ir::Value::floating(-a.f) : ir::Value::integer(-a.i));
        };
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "BoolNot", .family = "scalar", .summary = "not x on a Python bool"};
        d.inputs = {argIn("x", ArgKind::Bool)};
        d.infer = [](const InferContext& ctx) {
            checkNumber(ctx.name(), ctx.abs(0), "x");
            return InferResult{ir::Abstract::scalar(DType::Bool), nullptr};
        };
        d.cpuKernel = [](const KernelContext& ctx) {
            return KernelArg(ir::Value::boolean(numOf(ctx.name(), ctx.input(0)).d() == 0));
        };
        reg.add(std::move(d));
    }
    {
        // What the parser wraps isolated statements in: the identity, which autodiff will not
        // differentiate through.
        OpDef d{.name = "StopGradient",
                .family = "structural",
                .summary = "returns its input; gradients do not flow through it"};
        d.foldable = false;
        d.inputs = {argIn("x", ArgKind::Any)};
        d.infer = [](const InferContext& ctx) { return InferResult{ctx.abs(0), nullptr}; };
        d.cpuKernel = [](const KernelContext& ctx) { return ctx.input(0); };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "stop_gradient", {toInput("value", 0)});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
