// Comparison and logical kernels: Bool (uint8 0/1) results with broadcasting.
#include "ops/elementwise_impl.h"

namespace irscope::ops {

namespace {

template <typename T>
void compareTyped(BinaryOp op, const detail::BinaryOperands& p, Tensor& res) {
    const T* a = p.x.data<T>();
    const T* b = p.y.data<T>();
    auto* o = res.data<std::uint8_t>();
    auto run = [&](auto fn) {
        detail::applyBinary<T, std::uint8_t>(a, p.x.size(), b, p.y.size(), o, res.size(), fn);
    };
    using U8 = std::uint8_t;
    switch (op) {
        case BinaryOp::Less:
            run([](T x, T y) { return static_cast<U8>(x < y); });
            break;
        case BinaryOp::LessEqual:
            run([](T x, T y) { return static_cast<U8>(x <= y); });
            break;
        case BinaryOp::Greater:
            run([](T x, T y) { return static_cast<U8>(x > y); });
            break;
        case BinaryOp::GreaterEqual:
            run([](T x, T y) { return static_cast<U8>(x >= y); });
            break;
        case BinaryOp::Equal:
            run([](T x, T y) { return static_cast<U8>(x == y); });
            break;
        case BinaryOp::NotEqual:
            run([](T x, T y) { return static_cast<U8>(x != y); });
            break;
        case BinaryOp::LogicalAnd:
            run([](T x, T y) { return static_cast<U8>(x != 0 && y != 0); });
            break;
        case BinaryOp::LogicalOr:
            run([](T x, T y) { return static_cast<U8>(x != 0 || y != 0); });
            break;
        case BinaryOp::LogicalXor:
            run([](T x, T y) { return static_cast<U8>((x != 0) != (y != 0)); });
            break;
        default:
            break;
    }
}

}  // namespace

Tensor compareKernel(std::string_view opName, BinaryOp op, const Tensor& x, const Tensor& y) {
    const detail::BinaryOperands p = detail::prepareBinary(opName, x, y);
    Tensor res(DType::Bool, p.out);
    if (!isCompare(op) && !isLogical(op)) {
        typeError(opName, "is not a comparison.");
    }
    if (ir::isComplex(x.dtype()) && (op == BinaryOp::Equal || op == BinaryOp::NotEqual)) {
        const std::size_t na = p.x.size(), nb = p.y.size();
        for (std::size_t i = 0; i < res.size(); ++i) {
            const bool eq = p.x.getComplex(na == 1 ? 0 : i) == p.y.getComplex(nb == 1 ? 0 : i);
            res.setInt(i, (op == BinaryOp::Equal) == eq ? 1 : 0);
        }
        return res;
    }
    dispatchNative(opName, x.dtype(), [&](auto tag) { compareTyped<decltype(tag)>(op, p, res); });
    return res;
}

}  // namespace irscope::ops
