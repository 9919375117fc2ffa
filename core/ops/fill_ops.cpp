// Constant-producing primitives: OnesLike ZerosLike Fill Ones Zeros.
#include <cstring>

#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

Tensor filled(DType dtype, const Shape& shape, const ValuePtr& value) {
    Tensor t(dtype, shape);
    if (!value || t.size() == 0) {
        return t;  // zeros
    }
    const Tensor one = tensorAs("Fill", KernelArg(value), dtype);
    const std::size_t esize = ir::dtypeSize(dtype);
    for (std::size_t i = 0; i < t.size(); ++i) {
        std::memcpy(t.bytes() + i * esize, one.bytes(), esize);
    }
    return t;
}

InferResult inferLike(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

// A shape given as an int or a tuple of ints; nullopt when unknown.
std::optional<Shape> shapeArg(std::string_view op, const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    auto dims = intsOf(v);
    if (!dims) {
        typeError(op, "the 'shape' must be an int or a tuple/list of ints, but got " +
                          typeStr(abstractOfValue(v)) + ".");
    }
    for (auto d : *dims) {
        if (d < 0) {
            valueError(op, "each dimension of 'shape' must be non-negative, but got " +
                               listStr(*dims) + ".");
        }
    }
    return Shape(*dims);
}

Shape unknownFrom(const AbstractPtr& shapeAbs) {
    if (shapeAbs && shapeAbs->kind == ir::Abstract::Kind::Tuple) {
        return unknownShape(shapeAbs->elements.size());
    }
    return dynamicRankShape();
}

// The dtype argument: a Type, or None for `fallback`.
DType dtypeArg(std::string_view op, const ValuePtr& v, DType fallback) {
    if (!v || isNoneValue(v)) {
        return fallback;
    }
    auto t = dtypeOf(v);
    if (!t) {
        typeError(op, "the 'dtype' must be a mindspore dtype, but got " +
                          typeStr(abstractOfValue(v)) + ".");
    }
    return *t;
}

// The dtype Fill gives a Python value when no dtype is given.
DType dtypeOfScalar(const ValuePtr& v) {
    if (v && v->kind == ir::Value::Kind::Bool) {
        return DType::Bool;
    }
    if (v && v->kind == ir::Value::Kind::Float) {
        return DType::Float32;
    }
    if (v && v->kind == ir::Value::Kind::Tensor) {
        return v->tensor->dtype;
    }
    return DType::Int64;
}

// Ones/Zeros: (shape, type).
InferResult inferOnes(const InferContext& ctx) {
    const DType dtype = dtypeArg(ctx.name(), ctx.arg(1).value, DType::Float32);
    const auto shape = shapeArg(ctx.name(), ctx.arg(0).value);
    return {ir::Abstract::tensor(dtype, shape ? *shape : unknownFrom(ctx.abs(0))), nullptr};
}

KernelArg runOnes(const KernelContext& ctx, bool ones) {
    const DType dtype = dtypeArg(ctx.name(), valueFromKernelArg(ctx.input(1)), DType::Float32);
    const auto shape = shapeArg(ctx.name(), valueFromKernelArg(ctx.input(0)));
    if (!shape) {
        typeError(ctx.name(), "the 'shape' must be given.");
    }
    return KernelArg(filled(dtype, *shape, ones ? vInt(1) : nullptr));
}

// Fill: (type, shape, value).
InferResult inferFill(const InferContext& ctx) {
    const InferArg value = ctx.arg(2);
    if (!isScalarAbs(value.abs) && !isTensorAbs(value.abs)) {
        typeError(ctx.name(),
                  "the 'value' must be a number or a bool, but got " + typeStr(value.abs) + ".");
    }
    DType fallback = value.abs->dtype;  // a Python int fills Int64, a float Float32
    if (isScalarAbs(value.abs) && ir::isInteger(fallback)) {
        fallback = DType::Int64;
    }
    const DType dtype = dtypeArg(ctx.name(), ctx.arg(0).value, fallback);
    const auto shape = shapeArg(ctx.name(), ctx.arg(1).value);
    return {ir::Abstract::tensor(dtype, shape ? *shape : unknownFrom(ctx.abs(1))), nullptr};
}

KernelArg runFill(const KernelContext& ctx) {
    const ValuePtr value = valueFromKernelArg(ctx.input(2));
    const DType dtype =
        dtypeArg(ctx.name(), valueFromKernelArg(ctx.input(0)), dtypeOfScalar(value));
    const auto shape = shapeArg(ctx.name(), valueFromKernelArg(ctx.input(1)));
    if (!shape) {
        typeError(ctx.name(), "the 'shape' must be given.");
    }
    return KernelArg(filled(dtype, *shape, value));
}

}  // namespace

void registerFillOps(OpRegistry& reg) {
    for (const bool ones : {true, false}) {
        OpDef d{.name = ones ? "OnesLike" : "ZerosLike",
                .family = "array",
                .summary = ones ? "ones of x's shape and dtype" : "zeros of x's shape and dtype"};
        d.inputs = {argIn("x")};
        d.infer = inferLike;
        d.cpuKernel = [ones](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            return KernelArg(filled(x.dtype(), x.shape(), ones ? vInt(1) : nullptr));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, ones ? "ones_like" : "zeros_like", {toInput("input", 0)});
        reg.add(std::move(d));
    }
    for (const bool ones : {true, false}) {
        OpDef d{.name = ones ? "Ones" : "Zeros",
                .family = "array",
                .summary = ones ? "a tensor of ones" : "a tensor of zeros"};
        d.inputs = {argIn("shape", ArgKind::IntOrTuple),
                    argDefault("type", ArgKind::Type, ir::Value::type(DType::Float32))};
        d.infer = inferOnes;
        d.cpuKernel = [ones](const KernelContext& c) { return runOnes(c, ones); };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, ones ? "ones" : "zeros",
                    {toInput("shape", 0), toInput("dtype", 1, vNone())});
        reg.add(std::move(d));
    }
    OpDef d{.name = "Fill", .family = "array", .summary = "a tensor filled with one value"};
    d.inputs = {argIn("type", ArgKind::Type), argIn("shape", ArgKind::IntOrTuple),
                argIn("value", ArgKind::Number)};
    d.infer = inferFill;
    d.cpuKernel = runFill;
    addClassSpellings(d);
    addFunction(d, {"ops", "F"}, "fill",
                {toInput("type", 0), toInput("shape", 1), toInput("value", 2)});
    addFunction(d, {"ops", "F"}, "full",
                {toInput("size", 1), toInput("fill_value", 2), toInput("dtype", 0, vNone())});
    reg.add(std::move(d));
}

}  // namespace irscope::ops
