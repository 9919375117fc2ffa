#include "ir/tensor.h"

#include <bit>
#include <cmath>
#include <limits>

namespace irscope::ir {

namespace {

std::size_t checkedCount(const Shape& shape) {
    if (!shape.isStatic()) {
        throw std::invalid_argument("tensor shape must be static, got " + shape.toString());
    }
    std::size_t n = 1;
    for (auto d : shape.dims) {
        n *= static_cast<std::size_t>(d);
    }
    return n;
}

template <typename T>
T load(const std::byte* p, std::size_t i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    return v;
}

template <typename T>
void store(std::byte* p, std::size_t i, T v) {
    std::memcpy(p + i * sizeof(T), &v, sizeof(T));
}

// double -> IEEE half with a single rounding (round to nearest, ties to even), so that a
// Float64 -> Float16 conversion agrees with numpy's astype(np.float16).
std::uint16_t doubleToHalf(double d) {
    const std::uint64_t x = std::bit_cast<std::uint64_t>(d);
    const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
    const int bexp = static_cast<int>((x >> 52) & 0x7FFu);
    std::uint64_t mant = x & 0xFFFFFFFFFFFFFull;
    if (bexp == 0x7FF) {
        return static_cast<std::uint16_t>(sign | 0x7C00u | (mant ? 0x200u : 0u));
    }
    const int exp = bexp - 1023 + 15;
    if (exp >= 0x1F) {
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    }
    if (exp <= 0) {
        if (exp < -10 || bexp == 0) {
            return sign;
        }
        mant |= 1ull << 52;
        const int shift = 43 - exp;  // 52 - 10 + 1 - exp
        std::uint64_t h = mant >> shift;
        const std::uint64_t rem = mant & ((1ull << shift) - 1);
        const std::uint64_t mid = 1ull << (shift - 1);
        if (rem > mid || (rem == mid && (h & 1u))) {
            ++h;
        }
        return static_cast<std::uint16_t>(sign | h);
    }
    std::uint64_t h = (static_cast<std::uint64_t>(exp) << 10) | (mant >> 42);
    const std::uint64_t rem = mant & ((1ull << 42) - 1);
    const std::uint64_t mid = 1ull << 41;
    if (rem > mid || (rem == mid && (h & 1u))) {
        ++h;  // a carry into the exponent is the correct rounding (up to inf)
    }
    return static_cast<std::uint16_t>(sign | h);
}

// float -> integer the way x86 numpy/MindSpore CPU kernels behave in practice: truncate
// toward zero through int64 (NaN and out-of-range give INT64_MIN, the "integer indefinite"),
// then keep the low bits of the target width.
std::int64_t truncToInt64(double v) {
    if (std::isnan(v) || v >= 9223372036854775808.0 || v < -9223372036854775808.0) {
        return std::numeric_limits<std::int64_t>::min();
    }
    return static_cast<std::int64_t>(v);
}

std::uint64_t truncToUInt64(double v) {
    if (v >= 9223372036854775808.0 && v < 18446744073709551616.0) {
        return static_cast<std::uint64_t>(v);
    }
    return static_cast<std::uint64_t>(truncToInt64(v));
}

}  // namespace

Tensor::Tensor(DType dtype, Shape shape)
    : dtype_(dtype),
      shape_(std::move(shape)),
      count_(checkedCount(shape_)),
      storage_(std::make_shared<Storage>(count_ * ir::dtypeSize(dtype))) {}

Tensor Tensor::scalar(DType dtype, double value) {
    Tensor t(dtype, Shape{});
    t.setDouble(0, value);
    return t;
}

Tensor Tensor::fromDoubles(DType dtype, Shape shape, std::span<const double> values) {
    Tensor t(dtype, std::move(shape));
    if (values.size() != t.size()) {
        throw std::invalid_argument("fromDoubles: " + std::to_string(values.size()) +
                                    " values for " + std::to_string(t.size()) + " elements");
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        t.setDouble(i, values[i]);
    }
    return t;
}

Tensor Tensor::fromInts(DType dtype, Shape shape, std::span<const std::int64_t> values) {
    Tensor t(dtype, std::move(shape));
    if (values.size() != t.size()) {
        throw std::invalid_argument("fromInts: " + std::to_string(values.size()) + " values for " +
                                    std::to_string(t.size()) + " elements");
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        t.setInt(i, values[i]);
    }
    return t;
}

Tensor Tensor::fromValueData(const ir::TensorData& data) {
    if (!data.hasData()) {
        throw std::invalid_argument("tensor constant has no data");
    }
    Tensor t(data.dtype, data.shape);
    if (data.data.size() != t.nbytes()) {
        throw std::invalid_argument("tensor constant holds " + std::to_string(data.data.size()) +
                                    " bytes, expected " + std::to_string(t.nbytes()));
    }
    if (!data.data.empty()) {
        std::memcpy(t.bytes(), data.data.data(), data.data.size());
    }
    return t;
}

ir::TensorData Tensor::toValueData() const {
    ir::TensorData d;
    d.dtype = dtype_;
    d.shape = shape_;
    d.data.assign(bytes(), bytes() + nbytes());
    return d;
}

double Tensor::getDouble(std::size_t i) const { return ir::loadElementAsDouble(dtype_, bytes(), i); }

std::int64_t Tensor::getInt(std::size_t i) const {
    const std::byte* p = bytes();
    switch (dtype_) {
        case DType::Bool:
            return load<std::uint8_t>(p, i) != 0 ? 1 : 0;
        case DType::Int8:
            return load<std::int8_t>(p, i);
        case DType::Int16:
            return load<std::int16_t>(p, i);
        case DType::Int32:
            return load<std::int32_t>(p, i);
        case DType::Int64:
            return load<std::int64_t>(p, i);
        case DType::UInt8:
            return load<std::uint8_t>(p, i);
        case DType::UInt16:
            return load<std::uint16_t>(p, i);
        case DType::UInt32:
            return load<std::uint32_t>(p, i);
        case DType::UInt64:
            return static_cast<std::int64_t>(load<std::uint64_t>(p, i));
        default:  // String reads as 0.0
            return truncToInt64(getDouble(i));
    }
}

void Tensor::setDouble(std::size_t i, double v) {
    std::byte* p = bytes();
    switch (dtype_) {
        case DType::Bool:
            store<std::uint8_t>(p, i, v != 0.0 ? 1 : 0);
            break;
        case DType::Float16:
            store<std::uint16_t>(p, i, doubleToHalf(v));
            break;
        case DType::BFloat16:
            store<std::uint16_t>(p, i, ir::floatToBFloat16(static_cast<float>(v)));
            break;
        case DType::Float32:
            store<float>(p, i, static_cast<float>(v));
            break;
        case DType::Float64:
            store<double>(p, i, v);
            break;
        case DType::Complex64:
        case DType::Complex128:
            setComplex(i, {v, 0.0});
            break;
        case DType::UInt64:
            store<std::uint64_t>(p, i, truncToUInt64(v));
            break;
        case DType::String:
            break;
        default:
            setInt(i, truncToInt64(v));
            break;
    }
}

void Tensor::setInt(std::size_t i, std::int64_t v) {
    std::byte* p = bytes();
    switch (dtype_) {
        case DType::Bool:
            store<std::uint8_t>(p, i, v != 0 ? 1 : 0);
            break;
        // Narrowing keeps the low bits (two's complement wrap), as numpy's astype does.
        case DType::Int8:
            store<std::int8_t>(p, i, static_cast<std::int8_t>(v));
            break;
        case DType::Int16:
            store<std::int16_t>(p, i, static_cast<std::int16_t>(v));
            break;
        case DType::Int32:
            store<std::int32_t>(p, i, static_cast<std::int32_t>(v));
            break;
        case DType::Int64:
            store<std::int64_t>(p, i, v);
            break;
        case DType::UInt8:
            store<std::uint8_t>(p, i, static_cast<std::uint8_t>(v));
            break;
        case DType::UInt16:
            store<std::uint16_t>(p, i, static_cast<std::uint16_t>(v));
            break;
        case DType::UInt32:
            store<std::uint32_t>(p, i, static_cast<std::uint32_t>(v));
            break;
        case DType::UInt64:
            store<std::uint64_t>(p, i, static_cast<std::uint64_t>(v));
            break;
        case DType::Float16:
            store<std::uint16_t>(p, i, doubleToHalf(static_cast<double>(v)));
            break;
        case DType::BFloat16:
            store<std::uint16_t>(p, i, ir::floatToBFloat16(static_cast<float>(v)));
            break;
        case DType::Float32:
            store<float>(p, i, static_cast<float>(v));
            break;
        case DType::Float64:
            store<double>(p, i, static_cast<double>(v));
            break;
        case DType::Complex64:
        case DType::Complex128:
            setComplex(i, {static_cast<double>(v), 0.0});
            break;
        case DType::String:
            break;
    }
}

std::complex<double> Tensor::getComplex(std::size_t i) const {
    switch (dtype_) {
        case DType::Complex64: {
            const auto c = load<std::complex<float>>(bytes(), i);
            return {c.real(), c.imag()};
        }
        case DType::Complex128:
            return load<std::complex<double>>(bytes(), i);
        default:
            return {getDouble(i), 0.0};
    }
}

void Tensor::setComplex(std::size_t i, std::complex<double> v) {
    switch (dtype_) {
        case DType::Complex64:
            store(bytes(), i,
                  std::complex<float>(static_cast<float>(v.real()), static_cast<float>(v.imag())));
            break;
        case DType::Complex128:
            store(bytes(), i, v);
            break;
        default:
            setDouble(i, v.real());
            break;
    }
}

Tensor Tensor::clone() const {
    Tensor t(dtype_, shape_);
    if (nbytes() != 0) {
        std::memcpy(t.bytes(), bytes(), nbytes());
    }
    return t;
}

Tensor Tensor::cast(DType to) const {
    if (to == dtype_) {
        return clone();
    }
    Tensor t(to, shape_);
    const bool srcExactInt = !ir::isFloat(dtype_);  // ints and bools go through int64
    if (dtype_ == DType::Float16 && to == DType::Float32) {
        for (std::size_t i = 0; i < count_; ++i) {
            t.data<float>()[i] = ir::halfToFloat(data<std::uint16_t>()[i]);
        }
        return t;
    }
    if (ir::isComplex(dtype_) || ir::isComplex(to)) {
        for (std::size_t i = 0; i < count_; ++i) {
            if (to == DType::Bool) {
                t.setInt(i, getComplex(i) != std::complex<double>{} ? 1 : 0);
            } else if (ir::isComplex(dtype_) || ir::isFloat(dtype_) || dtype_ == DType::UInt64) {
                t.setComplex(i, getComplex(i));
            } else {
                t.setInt(i, getInt(i));
            }
        }
        return t;
    }
    for (std::size_t i = 0; i < count_; ++i) {
        if (to == DType::Bool) {
            t.setInt(i, srcExactInt ? (getInt(i) != 0) : (getDouble(i) != 0.0));
        } else if (srcExactInt) {
            if (dtype_ == DType::UInt64 && ir::isFloat(to)) {
                t.setDouble(i, static_cast<double>(data<std::uint64_t>()[i]));
            } else {
                t.setInt(i, getInt(i));
            }
        } else if (dtype_ == DType::Float32 && to == DType::Float16) {
            t.data<std::uint16_t>()[i] = ir::floatToHalf(data<float>()[i]);
        } else {
            t.setDouble(i, getDouble(i));
        }
    }
    return t;
}

Tensor Tensor::reshaped(Shape s) const {
    const std::size_t n = checkedCount(s);
    if (n != count_) {
        throw std::invalid_argument("cannot reshape " + shape_.toString() + " to " + s.toString());
    }
    Tensor t = *this;
    t.shape_ = std::move(s);
    return t;
}

void Tensor::assignFrom(const Tensor& src) {
    if (src.dtype_ != dtype_ || src.count_ != count_) {
        throw std::invalid_argument("assign: " + std::string(ir::dtypeName(src.dtype_)) +
                                    src.shape_.toString() + " into " +
                                    std::string(ir::dtypeName(dtype_)) + shape_.toString());
    }
    if (src.storage_ != storage_ && nbytes() != 0) {
        std::memmove(bytes(), src.bytes(), nbytes());
    }
}

}  // namespace irscope::ir
