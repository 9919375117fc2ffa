#include "ir/types.h"

#include <array>

namespace irscope::ir {

namespace {

struct DTypeInfo {
    DType type;
    std::string_view name;
    std::string_view prefix;
    std::size_t size;
};

constexpr std::array<DTypeInfo, 16> kDTypes{{
    {DType::Bool, "Bool", "Bool", 1},
    {DType::Int8, "Int8", "I8", 1},
    {DType::Int16, "Int16", "I16", 2},
    {DType::Int32, "Int32", "I32", 4},
    {DType::Int64, "Int64", "I64", 8},
    {DType::UInt8, "UInt8", "U8", 1},
    {DType::UInt16, "UInt16", "U16", 2},
    {DType::UInt32, "UInt32", "U32", 4},
    {DType::UInt64, "UInt64", "U64", 8},
    {DType::Float16, "Float16", "F16", 2},
    {DType::BFloat16, "BFloat16", "BF16", 2},
    {DType::Float32, "Float32", "F32", 4},
    {DType::Float64, "Float64", "F64", 8},
    {DType::Complex64, "Complex64", "C64", 8},
    {DType::Complex128, "Complex128", "C128", 16},
    {DType::String, "String", "String", 0},
}};

const DTypeInfo& info(DType t) { return kDTypes[static_cast<std::size_t>(t)]; }

}  // namespace

std::string_view dtypeName(DType t) { return info(t).name; }
std::string_view dtypeScalarPrefix(DType t) { return info(t).prefix; }
std::size_t dtypeSize(DType t) { return info(t).size; }

std::optional<DType> dtypeFromName(std::string_view name) {
    for (const auto& d : kDTypes) {
        if (d.name == name) {
            return d.type;
        }
    }
    return std::nullopt;
}

std::optional<DType> dtypeFromScalarPrefix(std::string_view prefix) {
    for (const auto& d : kDTypes) {
        if (d.prefix == prefix) {
            return d.type;
        }
    }
    return std::nullopt;
}

bool isFloat(DType t) {
    return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 ||
           t == DType::Float64;
}

bool isComplex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }

DType complexPartType(DType t) {
    return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t;
}

DType complexOfPart(DType t) { return t == DType::Float64 ? DType::Complex128 : DType::Complex64; }

bool isUnsigned(DType t) {
    return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

bool isInteger(DType t) {
    return isUnsigned(t) || t == DType::Int8 || t == DType::Int16 || t == DType::Int32 ||
           t == DType::Int64;
}

bool Shape::isStatic() const {
    if (dynamicRank) {
        return false;
    }
    for (auto d : dims) {
        if (d < 0) {
            return false;
        }
    }
    return true;
}

std::int64_t Shape::elementCount() const {
    if (!isStatic()) {
        return -1;
    }
    std::int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

std::string Shape::toString() const {
    if (dynamicRank) {
        return "(-2)";
    }
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i != 0) {
            s += ", ";
        }
        s += std::to_string(dims[i]);
    }
    s += ")";
    return s;
}

}  // namespace irscope::ir
