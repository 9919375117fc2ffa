// Unary math and activation kernels (Neg ... HSwish, LogicalNot).
#include <cmath>
#include <type_traits>

#include "ops/elementwise_impl.h"

namespace irscope::ops {

namespace {

bool floatOnly(UnaryOp op) {
    return op == UnaryOp::GeLU || op == UnaryOp::GeLUErf || op == UnaryOp::HSwish;
}

bool transcendental(UnaryOp op) {
    return op == UnaryOp::Exp || op == UnaryOp::Log || op == UnaryOp::Sqrt ||
           op == UnaryOp::Sigmoid || op == UnaryOp::Tanh;
}

template <typename T>
void unaryTyped(std::string_view opName, UnaryOp op, const Tensor& x, Tensor& res) {
    const auto n = static_cast<Eigen::Index>(x.size());
    using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
    Eigen::Map<const Arr> in(x.data<T>(), n);
    if (op == UnaryOp::LogicalNot) {
        detail::applyUnary<T, std::uint8_t>(x.data<T>(), res.data<std::uint8_t>(), x.size(),
                                            [](T v) { return static_cast<std::uint8_t>(v == 0); });
        return;
    }
    Eigen::Map<Arr> out(res.data<T>(), n);
    switch (op) {
        case UnaryOp::Neg:
            out = in.unaryExpr([](T v) { return static_cast<T>(T(0) - v); });
            return;
        case UnaryOp::Abs:
            out = in.unaryExpr([](T v) {
                if constexpr (std::is_signed_v<T>) {
                    return static_cast<T>(v < 0 ? T(0) - v : v);
                } else {
                    return v;
                }
            });
            return;
        case UnaryOp::Square:
            out = in.unaryExpr([](T v) { return static_cast<T>(v * v); });
            return;
        case UnaryOp::ReLU:
            out = in.unaryExpr([](T v) { return v > T(0) ? v : T(0); });
            return;
        default:
            break;
    }
    if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
            case UnaryOp::Exp:
                out = in.exp();
                return;
            case UnaryOp::Log:
                out = in.log();
                return;
            case UnaryOp::Sqrt:
                out = in.sqrt();
                return;
            case UnaryOp::Tanh:
                out = in.tanh();
                return;
            case UnaryOp::Sigmoid:
                out = T(1) / (T(1) + (-in).exp());
                return;
            case UnaryOp::GeLU: {
                const T k = static_cast<T>(0.7978845608028654);  // sqrt(2 / pi)
                const T c = static_cast<T>(0.044715);
                out = T(0.5) * in * (T(1) + (k * (in + c * in * in * in)).tanh());
                return;
            }
            case UnaryOp::GeLUErf:
                out = in.unaryExpr([](T v) {
                    return static_cast<T>(0.5 * v * (1.0 + std::erf(v * 0.7071067811865476)));
                });
                return;
            case UnaryOp::HSwish:
                // Piecewise as MindSpore's kernel: exactly x above 3 and +0 below -3 (the
                // plain formula gives x*6/6, off by an ulp, and -0 for negative x).
                out = in.unaryExpr([](T v) {
                    if (v <= T(-3)) {
                        return T(0);
                    }
                    if (v >= T(3)) {
                        return v;
                    }
                    return v * (v + T(3)) / T(6);
                });
                return;
            default:
                break;
        }
    }
    typeError(opName, "the CPU kernel does not support data type " + typeStr(x.dtype()) + ".");
}

}  // namespace

UnaryTypes unaryTypes(std::string_view opName, UnaryOp op, DType in) {
    auto tensorType = [&](const std::string& allowed) {
        typeError(opName, "the type of 'x' must be Tensor[" + allowed + "], but got Tensor[" +
                              typeStr(in) + "].");
    };
    if (op == UnaryOp::LogicalNot) {
        if (in != DType::Bool) {
            tensorType("Bool");
        }
        return {DType::Bool, DType::Bool};
    }
    if (ir::isComplex(in)) {
        if (op == UnaryOp::Abs) {
            return {in, ir::complexPartType(in)};
        }
        if (op != UnaryOp::Neg && op != UnaryOp::Square && op != UnaryOp::Exp &&
            op != UnaryOp::Log && op != UnaryOp::Sqrt && op != UnaryOp::Tanh) {
            typeError(opName, "the CPU kernel does not support data type " + typeStr(in) + ".");
        }
        return {in, in};
    }
    if (floatOnly(op)) {
        if (!ir::isFloat(in)) {
            tensorType("Float16, Float32, Float64");
        }
        return {computeType(in), in};
    }
    if (transcendental(op)) {
        if (!ir::isFloat(in)) {
            return {DType::Float32, DType::Float32};  // integers and bools compute in Float32
        }
        return {computeType(in), in};
    }
    if (in == DType::Bool) {
        tensorType("Int8, Int16, Int32, Int64, UInt8, Float16, Float32, Float64");
    }
    return {computeType(in), in};
}

Tensor unaryKernel(std::string_view opName, UnaryOp op, const Tensor& x) {
    if (ir::isComplex(x.dtype())) {
        return detail::complexUnary(opName, op, x);
    }
    Tensor res(op == UnaryOp::LogicalNot ? DType::Bool : x.dtype(), x.shape());
    if (x.size() == 0) {
        return res;
    }
    dispatchNative(opName, x.dtype(),
                   [&](auto tag) { unaryTyped<decltype(tag)>(opName, op, x, res); });
    return res;
}

InferResult inferUnary(const InferContext& ctx, UnaryOp op) {
    const Operand x = operandOf(ctx.name(), "x", ctx.abs(0));
    if (!x.tensor) {
        // Python scalars follow Python: -True == -1, so a bool computes as an int.
        const DType in =
            (x.dtype == DType::Bool && op != UnaryOp::LogicalNot) ? DType::Int64 : x.dtype;
        return {ir::Abstract::scalar(unaryTypes(ctx.name(), op, in).out), nullptr};
    }
    return {ir::Abstract::tensor(unaryTypes(ctx.name(), op, x.dtype).out, x.shape), nullptr};
}

KernelArg runUnary(const KernelContext& ctx, UnaryOp op) {
    const KernelArg xa = ctx.input(0);
    const Operand x = operandOfArg(ctx.name(), "x", xa);
    if (!x.tensor) {
        const ir::Value& v = *xa.value();
        if (op == UnaryOp::LogicalNot) {
            if (v.kind != ir::Value::Kind::Bool) {
                unaryTypes(ctx.name(), op, x.dtype);  // throws the TypeError
            }
            return KernelArg(ir::Value::boolean(!v.b));
        }
        const DType label =
            unaryTypes(ctx.name(), op, x.dtype == DType::Bool ? DType::Int64 : x.dtype).out;
        const bool intMath = !ir::isFloat(label);
        const Tensor t = tensorAs(ctx.name(), xa, intMath ? DType::Int64 : DType::Float64);
        const Tensor r = unaryKernel(ctx.name(), op, t);
        return intMath ? KernelArg(ir::Value::integer(r.getInt(0), label))
                       : KernelArg(ir::Value::floating(r.getDouble(0), label));
    }
    const UnaryTypes t = unaryTypes(ctx.name(), op, x.dtype);
    const Tensor r = unaryKernel(ctx.name(), op, tensorAs(ctx.name(), xa, t.compute));
    return KernelArg(castTo(r, t.out));
}

}  // namespace irscope::ops
