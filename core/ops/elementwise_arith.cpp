// Binary arithmetic: result types, Python-scalar semantics and the tensor kernel.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ops/elementwise_impl.h"

namespace irscope::ops {

bool isCompare(BinaryOp op) {
    return op == BinaryOp::Less || op == BinaryOp::LessEqual || op == BinaryOp::Greater ||
           op == BinaryOp::GreaterEqual || op == BinaryOp::Equal || op == BinaryOp::NotEqual;
}

bool isLogical(BinaryOp op) {
    return op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr || op == BinaryOp::LogicalXor;
}

namespace {

std::string operandStr(const Operand& o) {
    return o.tensor ? "Tensor[" + typeStr(o.dtype) + "]" : typeStr(o.dtype);
}

// Integer helpers with numpy's conventions: division by zero gives 0, MIN / -1 wraps.
template <typename T>
T floorDivInt(T a, T b) {
    if (b == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
            return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
        }
        T q = static_cast<T>(a / b);
        if (static_cast<T>(a % b) != 0 && ((a < 0) != (b < 0))) {
            --q;
        }
        return q;
    } else {
        return static_cast<T>(a / b);
    }
}

template <typename T>
T truncModInt(T a, T b) {
    if (b == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
            return 0;
        }
    }
    return static_cast<T>(a % b);
}

template <typename T>
T floorModInt(T a, T b) {
    T r = truncModInt(a, b);
    if constexpr (std::is_signed_v<T>) {
        if (r != 0 && ((r < 0) != (b < 0))) {
            r = static_cast<T>(r + b);
        }
    }
    return r;
}

template <typename T>
T powInt(T base, T exp) {
    if (exp < 0) {  // numpy refuses; keep the exact cases and truncate the rest to 0
        if (base == 1) {
            return 1;
        }
        if constexpr (std::is_signed_v<T>) {
            if (base == -1) {
                return static_cast<T>((exp % 2 == 0) ? 1 : -1);
            }
        }
        return 0;
    }
    std::uint64_t result = 1;
    auto b = static_cast<std::uint64_t>(static_cast<std::int64_t>(base));
    auto e = static_cast<std::uint64_t>(exp);
    while (e != 0) {
        if (e & 1u) {
            result *= b;
        }
        b *= b;
        e >>= 1;
    }
    return static_cast<T>(result);
}

template <typename T>
T floorModFloat(T a, T b) {
    T m = std::fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) {
            m += b;
        }
    } else {
        m = std::copysign(T(0), b);
    }
    return m;
}

template <typename T>
T maxNan(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) {
            return std::isnan(a) ? a : b;
        }
    }
    return a > b ? a : b;
}

template <typename T>
T minNan(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) {
            return std::isnan(a) ? a : b;
        }
    }
    return a < b ? a : b;
}

template <typename T>
void arithTyped(std::string_view opName, BinaryOp op, bool isBool, const detail::BinaryOperands& p,
                Tensor& res) {
    const T* a = p.x.data<T>();
    const T* b = p.y.data<T>();
    T* o = res.data<T>();
    auto run = [&](auto fn) {
        detail::applyBinary<T, T>(a, p.x.size(), b, p.y.size(), o, res.size(), fn);
    };
    if (isBool) {
        if (op == BinaryOp::Add || op == BinaryOp::Maximum) {
            run([](T x, T y) { return static_cast<T>((x != 0) || (y != 0)); });
        } else {
            run([](T x, T y) { return static_cast<T>((x != 0) && (y != 0)); });
        }
        return;
    }
    constexpr bool kFloat = std::is_floating_point_v<T>;
    switch (op) {
        case BinaryOp::Add:
            run([](T x, T y) { return static_cast<T>(x + y); });
            break;
        case BinaryOp::Sub:
            run([](T x, T y) { return static_cast<T>(x - y); });
            break;
        case BinaryOp::Mul:
            run([](T x, T y) { return static_cast<T>(x * y); });
            break;
        case BinaryOp::Div:
            run([](T x, T y) {
                if constexpr (kFloat) {
                    return static_cast<T>(x / y);
                } else {
                    return y == 0 ? T(0) : static_cast<T>(x / y);
                }
            });
            break;
        case BinaryOp::FloorDiv:
            run([](T x, T y) {
                if constexpr (kFloat) {
                    return static_cast<T>(std::floor(x / y));
                } else {
                    return floorDivInt(x, y);
                }
            });
            break;
        case BinaryOp::Mod:
            run([](T x, T y) {
                if constexpr (kFloat) {
                    return static_cast<T>(std::fmod(x, y));
                } else {
                    return truncModInt(x, y);
                }
            });
            break;
        case BinaryOp::FloorMod:
            run([](T x, T y) {
                if constexpr (kFloat) {
                    return floorModFloat(x, y);
                } else {
                    return floorModInt(x, y);
                }
            });
            break;
        case BinaryOp::Pow:
            run([](T x, T y) {
                if constexpr (kFloat) {
                    return static_cast<T>(std::pow(x, y));
                } else {
                    return powInt(x, y);
                }
            });
            break;
        case BinaryOp::Maximum:
            run([](T x, T y) { return maxNan(x, y); });
            break;
        case BinaryOp::Minimum:
            run([](T x, T y) { return minNan(x, y); });
            break;
        default:
            typeError(opName, "is not an arithmetic operation.");
    }
}

}  // namespace

BinaryTypes binaryTypes(std::string_view opName, BinaryOp op, const Operand& x, const Operand& y) {
    if (isLogical(op)) {
        for (const Operand* o : {&x, &y}) {
            if (o->dtype != DType::Bool) {
                typeError(opName, std::string("the type of '") + (o == &x ? "x" : "y") +
                                      "' must be Tensor[Bool] or bool, but got " + operandStr(*o) +
                                      ".");
            }
        }
        return {DType::Bool, DType::Bool};
    }
    const Operand both[] = {x, y};
    const DType p = promoteOperands(both);
    if (isCompare(op)) {
        return {computeType(p), DType::Bool};
    }
    if (ir::isComplex(p) && op != BinaryOp::Add && op != BinaryOp::Sub &&
        op != BinaryOp::Mul && op != BinaryOp::Div && op != BinaryOp::Pow &&
        op != BinaryOp::Equal && op != BinaryOp::NotEqual) {
        typeError(opName, "the CPU kernel does not support data type " + typeStr(p) + ".");
    }
    if (op == BinaryOp::Div) {
        if (!ir::isFloat(p) && !ir::isComplex(p)) {
            return {DType::Float64, DType::Float32};  // exact for every integer input
        }
        return {computeType(p), p};
    }
    if (p == DType::Bool) {
        if (op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Maximum ||
            op == BinaryOp::Minimum) {
            return {DType::Bool, DType::Bool};
        }
        typeError(opName, "the inputs can not both be bool, but got " + operandStr(x) + " and " +
                              operandStr(y) + ".");
    }
    return {computeType(p), p};
}

DType scalarResultType(BinaryOp op, DType x, DType y) {
    if (isCompare(op) || isLogical(op)) {
        return DType::Bool;
    }
    const DType p = promoteScalars(x, y);
    if (op == BinaryOp::Div) {
        return ir::isFloat(p) ? p : DType::Float32;
    }
    return p == DType::Bool ? DType::Int64 : p;  // Python: True + True == 2
}

ValuePtr scalarBinary(std::string_view opName, BinaryOp op, const ir::Value& x,
                      const ir::Value& y) {
    auto num = [](const ir::Value& v) {
        if (v.kind == ir::Value::Kind::Float) {
            return v.f;
        }
        return static_cast<double>(v.kind == ir::Value::Kind::Bool ? std::int64_t{v.b} : v.i);
    };
    auto integer = [](const ir::Value& v) {
        return v.kind == ir::Value::Kind::Bool ? std::int64_t{v.b} : v.i;
    };
    auto dtypeOfScalar = [](const ir::Value& v) {
        return v.kind == ir::Value::Kind::Bool ? DType::Bool : v.dtype;
    };
    const DType rt = scalarResultType(op, dtypeOfScalar(x), dtypeOfScalar(y));
    const bool anyFloat = x.kind == ir::Value::Kind::Float || y.kind == ir::Value::Kind::Float;
    auto zeroDiv = [&](const char* what) { fail(ErrorKind::ZeroDivisionError, std::string(what)); };
    if (isLogical(op)) {
        const bool a = num(x) != 0.0;
        const bool b = num(y) != 0.0;
        return ir::Value::boolean(op == BinaryOp::LogicalAnd ? (a && b)
                                  : op == BinaryOp::LogicalOr ? (a || b)
                                                              : (a != b));
    }
    if (isCompare(op) || anyFloat || op == BinaryOp::Div) {
        const double a = num(x);
        const double b = num(y);
        switch (op) {
            case BinaryOp::Less:
                return ir::Value::boolean(a < b);
            case BinaryOp::LessEqual:
                return ir::Value::boolean(a <= b);
            case BinaryOp::Greater:
                return ir::Value::boolean(a > b);
            case BinaryOp::GreaterEqual:
                return ir::Value::boolean(a >= b);
            case BinaryOp::Equal:
                return ir::Value::boolean(a == b);
            case BinaryOp::NotEqual:
                return ir::Value::boolean(a != b);
            default:
                break;
        }
        double r = 0.0;
        switch (op) {
            case BinaryOp::Add:
                r = a + b;
                break;
            case BinaryOp::Sub:
                r = a - b;
                break;
            case BinaryOp::Mul:
                r = a * b;
                break;
            case BinaryOp::Div:
                if (b == 0.0) {
                    zeroDiv(anyFloat ? "float division by zero" : "division by zero");
                }
                r = a / b;
                break;
            case BinaryOp::FloorDiv:
                if (b == 0.0) {
                    zeroDiv("float floor division by zero");
                }
                r = std::floor(a / b);
                break;
            case BinaryOp::Mod:
                if (b == 0.0) {
                    zeroDiv("float modulo");
                }
                r = std::fmod(a, b);
                break;
            case BinaryOp::FloorMod:
                if (b == 0.0) {
                    zeroDiv("float modulo");
                }
                r = floorModFloat(a, b);
                break;
            case BinaryOp::Pow:
                r = std::pow(a, b);
                break;
            case BinaryOp::Maximum:
                r = maxNan(a, b);
                break;
            case BinaryOp::Minimum:
                r = minNan(a, b);
                break;
            default:
                break;
        }
        return ir::Value::floating(r, rt);
    }
    const std::int64_t a = integer(x);
    const std::int64_t b = integer(y);
    auto wrap = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
    const auto ua = static_cast<std::uint64_t>(a);
    const auto ub = static_cast<std::uint64_t>(b);
    std::int64_t r = 0;
    switch (op) {
        case BinaryOp::Add:
            r = wrap(ua + ub);
            break;
        case BinaryOp::Sub:
            r = wrap(ua - ub);
            break;
        case BinaryOp::Mul:
            r = wrap(ua * ub);
            break;
        case BinaryOp::FloorDiv:
            if (b == 0) {
                zeroDiv("integer division or modulo by zero");
            }
            r = floorDivInt(a, b);
            break;
        case BinaryOp::Mod:
            if (b == 0) {
                zeroDiv("integer division or modulo by zero");
            }
            r = truncModInt(a, b);
            break;
        case BinaryOp::FloorMod:
            if (b == 0) {
                zeroDiv("integer division or modulo by zero");
            }
            r = floorModInt(a, b);
            break;
        case BinaryOp::Pow:
            if (b < 0) {
                if (a == 0) {
                    zeroDiv("0.0 cannot be raised to a negative power");
                }
                return ir::Value::floating(std::pow(static_cast<double>(a), static_cast<double>(b)),
                                           DType::Float32);
            }
            r = powInt(a, b);
            break;
        case BinaryOp::Maximum:
            r = std::max(a, b);
            break;
        case BinaryOp::Minimum:
            r = std::min(a, b);
            break;
        default:
            typeError(opName, "is not an arithmetic operation.");
    }
    return ir::Value::integer(r, rt);
}

Tensor arithKernel(std::string_view opName, BinaryOp op, const Tensor& x, const Tensor& y,
                   DType out) {
    const detail::BinaryOperands p = detail::prepareBinary(opName, x, y);
    if (ir::isComplex(x.dtype())) {
        return castTo(detail::complexArith(opName, op, p), out);
    }
    Tensor res(x.dtype(), p.out);
    const bool isBool = x.dtype() == DType::Bool;
    dispatchNative(opName, x.dtype(),
                   [&](auto tag) { arithTyped<decltype(tag)>(opName, op, isBool, p, res); });
    return castTo(res, out);
}

InferResult inferBinary(const InferContext& ctx, BinaryOp op) {
    const Operand x = operandOf(ctx.name(), "x", ctx.abs(0));
    const Operand y = operandOf(ctx.name(), "y", ctx.abs(1));
    if (!x.tensor && !y.tensor) {
        return {ir::Abstract::scalar(scalarResultType(op, x.dtype, y.dtype)), nullptr};
    }
    const BinaryTypes t = binaryTypes(ctx.name(), op, x, y);
    return {ir::Abstract::tensor(t.out, broadcastShapes(ctx.name(), x.shape, y.shape)), nullptr};
}

KernelArg runBinary(const KernelContext& ctx, BinaryOp op) {
    const KernelArg xa = ctx.input(0);
    const KernelArg ya = ctx.input(1);
    const Operand x = operandOfArg(ctx.name(), "x", xa);
    const Operand y = operandOfArg(ctx.name(), "y", ya);
    if (!x.tensor && !y.tensor) {
        return KernelArg(scalarBinary(ctx.name(), op, *xa.value(), *ya.value()));
    }
    const BinaryTypes t = binaryTypes(ctx.name(), op, x, y);
    const Tensor xt = tensorAs(ctx.name(), xa, t.compute);
    const Tensor yt = tensorAs(ctx.name(), ya, t.compute);
    if (isCompare(op) || isLogical(op)) {
        return KernelArg(compareKernel(ctx.name(), op, xt, yt));
    }
    return KernelArg(arithKernel(ctx.name(), op, xt, yt, t.out));
}

}  // namespace irscope::ops
