// Shared helpers for CPU kernels: dtype dispatch, argument conversion and the data-movement
// primitives (broadcast, transpose, concat) built on Eigen::Tensor.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ops/infer_util.h"
#include "ops/op_registry.h"

namespace irscope::ops {

using ir::Tensor;

// Row-major strides of a shape, in elements.
inline std::vector<std::size_t> strides(const Shape& s) {
    std::vector<std::size_t> st(s.rank(), 1);
    for (std::size_t d = s.rank(); d-- > 1;) {
        st[d - 1] = st[d] * static_cast<std::size_t>(s.dims[d]);
    }
    return st;
}

// Calls f(flat, coord) for every element of `s` in row-major order.
template <typename F>
void forEachIndex(const Shape& s, F f) {
    const auto count = static_cast<std::size_t>(s.elementCount());
    std::vector<std::int64_t> coord(s.rank(), 0);
    for (std::size_t flat = 0; flat < count; ++flat) {
        f(flat, coord);
        for (std::size_t d = s.rank(); d-- > 0;) {
            if (++coord[d] < s.dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
}

// Copies element `from` of src to element `to` of dst (the same dtype), bytes as they are.
inline void copyElement(const Tensor& src, std::size_t from, Tensor& dst, std::size_t to) {
    const std::size_t w = ir::dtypeSize(src.dtype());
    std::copy_n(src.bytes() + from * w, w, dst.bytes() + to * w);
}

// The dtypes a kernel computes in natively. Float16/BFloat16 compute in Float32 and round
// at the end; Bool shares uint8_t storage (0/1).
bool isHalf(DType t);
DType computeType(DType t);  // Float16/BFloat16 -> Float32, else t

// Calls f(T{}) with the C++ element type of a native dtype: Bool and UInt8 -> uint8_t,
// Int8..Int64, UInt16..UInt64, Float32 -> float, Float64 -> double. TypeError for the others.
template <typename F>
decltype(auto) dispatchNative(std::string_view op, DType t, F&& f) {
    switch (t) {
        case DType::Bool:
        case DType::UInt8:
            return f(std::uint8_t{});
        case DType::Int8:
            return f(std::int8_t{});
        case DType::Int16:
            return f(std::int16_t{});
        case DType::Int32:
            return f(std::int32_t{});
        case DType::Int64:
            return f(std::int64_t{});
        case DType::UInt16:
            return f(std::uint16_t{});
        case DType::UInt32:
            return f(std::uint32_t{});
        case DType::UInt64:
            return f(std::uint64_t{});
        case DType::Float32:
            return f(float{});
        case DType::Float64:
            return f(double{});
        default:
            typeError(op, "the CPU kernel does not support data type " + typeStr(t) + ".");
    }
}

// Same, for the element size only (data movement): 1, 2, 4, 8 or 16 bytes (Complex128, moved
// as a std::complex<double>, which Eigen's expressions take).
template <typename F>
decltype(auto) dispatchBySize(std::size_t size, F&& f) {
    switch (size) {
        case 1:
            return f(std::uint8_t{});
        case 2:
            return f(std::uint16_t{});
        case 4:
            return f(std::uint32_t{});
        case 8:
            return f(std::uint64_t{});
        case 16:
            return f(std::complex<double>{});
        default:
            throw std::logic_error("dispatchBySize: no element type of " + std::to_string(size) +
                                   " bytes");
    }
}

// A tensor of `dtype` holding the argument: a tensor is cast when its dtype differs (shared
// otherwise), a Python scalar becomes a 0-d tensor. TypeError for anything else.
Tensor tensorAs(std::string_view op, const KernelArg& a, DType dtype);
// The dtype a kernel argument has for type promotion, and whether it is a tensor.
Operand operandOfArg(std::string_view op, std::string_view argName, const KernelArg& a);
// The tensors of a tuple argument (KernelArg::tuple or a tuple constant of tensors).
std::vector<Tensor> tensorList(std::string_view op, const KernelArg& a);
// A tensor constant -> Tensor, and back.
Tensor tensorFromValue(const ValuePtr& v);

// A contiguous tensor of shape `to` holding `t` broadcast by numpy's rules (shares `t` when
// the shapes are equal). Throws ValueError when it does not broadcast.
Tensor broadcastTo(std::string_view op, const Tensor& t, const Shape& to);
// out[i_perm[0], ..., i_perm[n-1]] layout: out.shape[k] = t.shape[perm[k]].
Tensor transposeTensor(const Tensor& t, std::span<const std::int64_t> perm);
// Concatenation along `axis` (already normalized); shapes agree except on the axis and
// every dtype equals `dtype`.
Tensor concatTensors(std::span<const Tensor> ts, std::int64_t axis, const Shape& outShape);
// Casts back from the compute type when the requested output dtype differs.
Tensor castTo(const Tensor& t, DType dtype);

}  // namespace irscope::ops
