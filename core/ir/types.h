// Element types and shapes shared by values and abstracts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir {

// Element types, named as MindSpore prints them (Float32, Int64, Bool, ...).
enum class DType : std::uint8_t {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Complex64,   // two Float32: real, imaginary (std::complex<float>)
    Complex128,  // two Float64 (std::complex<double>)
    String,
};

// "Float32", "Int64", ... as in `Tensor[Float32]`.
std::string_view dtypeName(DType t);
std::optional<DType> dtypeFromName(std::string_view name);
// The scalar value prefix MindSpore uses: I64(3), F32(1.5), U8(1), Bool(1).
std::string_view dtypeScalarPrefix(DType t);
std::optional<DType> dtypeFromScalarPrefix(std::string_view prefix);
// Bytes of one element; 0 for String.
std::size_t dtypeSize(DType t);
bool isFloat(DType t);
bool isInteger(DType t);  // signed or unsigned, not Bool
bool isUnsigned(DType t);
bool isComplex(DType t);  // Complex64, Complex128
// The real type of a complex's parts (Complex64 -> Float32), else t itself.
DType complexPartType(DType t);
// The complex type whose parts are t (Float64 -> Complex128, other floats -> Complex64).
DType complexOfPart(DType t);

// A tensor shape. A dimension of -1 is unknown (dynamic); `dynamicRank` means even the
// number of dimensions is unknown, printed as (-2) like MindSpore.
struct Shape {
    std::vector<std::int64_t> dims;
    bool dynamicRank = false;

    Shape() = default;
    Shape(std::initializer_list<std::int64_t> d) : dims(d) {}
    explicit Shape(std::vector<std::int64_t> d) : dims(std::move(d)) {}

    std::size_t rank() const { return dims.size(); }
    bool isStatic() const;
    // Number of elements; 1 for a scalar shape (); -1 when not static.
    std::int64_t elementCount() const;
    // "(2, 3)", "()", "(-1, 3)", "(-2)".
    std::string toString() const;
    bool operator==(const Shape&) const = default;
};

}  // namespace irscope::ir
