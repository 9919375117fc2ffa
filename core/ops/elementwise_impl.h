// Templates behind the elementwise kernels (include only from elementwise_*.cpp).
#pragma once

#include <Eigen/Core>
#include <cstddef>

#include "ops/elementwise.h"

namespace irscope::ops::detail {

// Operands broadcast so that each has either the output's element count or one element.
struct BinaryOperands {
    Tensor x;
    Tensor y;
    Shape out;
};

inline BinaryOperands prepareBinary(std::string_view opName, const Tensor& x, const Tensor& y) {
    BinaryOperands p{x, y, broadcastShapes(opName, x.shape(), y.shape())};
    const auto n = static_cast<std::size_t>(p.out.elementCount());
    if (p.x.size() != n && p.x.size() != 1) {
        p.x = broadcastTo(opName, x, p.out);
    }
    if (p.y.size() != n && p.y.size() != 1) {
        p.y = broadcastTo(opName, y, p.out);
    }
    return p;
}

// out[i] = fn(a[i or 0], b[i or 0]) over n elements; na and nb are n or 1.
template <typename T, typename R, typename Fn>
void applyBinary(const T* a, std::size_t na, const T* b, std::size_t nb, R* out, std::size_t n,
                 Fn fn) {
    if (n == 0) {
        return;
    }
    using In = Eigen::Array<T, Eigen::Dynamic, 1>;
    using Out = Eigen::Array<R, Eigen::Dynamic, 1>;
    const auto len = static_cast<Eigen::Index>(n);
    Eigen::Map<Out> o(out, len);
    if (na == n && nb == n) {
        o = Eigen::Map<const In>(a, len).binaryExpr(Eigen::Map<const In>(b, len), fn);
    } else if (na == 1) {
        const T s = a[0];
        o = Eigen::Map<const In>(b, len).unaryExpr([s, fn](T v) { return fn(s, v); });
    } else {
        const T s = b[0];
        o = Eigen::Map<const In>(a, len).unaryExpr([s, fn](T v) { return fn(v, s); });
    }
}

// Complex64 / Complex128 kernels (complex_ops.cpp): TypeError for an op they do not have.
Tensor complexArith(std::string_view opName, BinaryOp op, const BinaryOperands& p);
Tensor complexUnary(std::string_view opName, UnaryOp op, const Tensor& x);  // Abs -> real

template <typename T, typename R, typename Fn>
void applyUnary(const T* a, R* out, std::size_t n, Fn fn) {
    using In = Eigen::Array<T, Eigen::Dynamic, 1>;
    using Out = Eigen::Array<R, Eigen::Dynamic, 1>;
    const auto len = static_cast<Eigen::Index>(n);
    Eigen::Map<Out>(out, len) = Eigen::Map<const In>(a, len).unaryExpr(fn);
}

}  // namespace irscope::ops::detail
