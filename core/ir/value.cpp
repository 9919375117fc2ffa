#include "ir/value.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

namespace irscope::ir {

const ValuePtr* AttrMap::find(std::string_view key) const {
    for (const auto& [k, v] : items_) {
        if (k == key) {
            return &v;
        }
    }
    return nullptr;
}

ValuePtr AttrMap::get(std::string_view key) const {
    const ValuePtr* v = find(key);
    return v ? *v : nullptr;
}

void AttrMap::set(std::string key, ValuePtr v) {
    for (auto& [k, old] : items_) {
        if (k == key) {
            old = std::move(v);
            return;
        }
    }
    items_.emplace_back(std::move(key), std::move(v));
}

bool AttrMap::erase(std::string_view key) {
    for (auto it = items_.begin(); it != items_.end(); ++it) {
        if (it->first == key) {
            items_.erase(it);
            return true;
        }
    }
    return false;
}

bool AttrMap::operator==(const AttrMap& o) const {
    if (items_.size() != o.items_.size()) {
        return false;
    }
    for (std::size_t i = 0; i < items_.size(); ++i) {
        if (items_[i].first != o.items_[i].first) {
            return false;
        }
        const auto& a = items_[i].second;
        const auto& b = o.items_[i].second;
        if ((a == nullptr) != (b == nullptr) || (a && !a->equals(*b))) {
            return false;
        }
    }
    return true;
}

namespace {

template <typename T>
T readAs(const std::byte* data, std::size_t i) {
    T v;
    std::memcpy(&v, data + i * sizeof(T), sizeof(T));
    return v;
}

std::shared_ptr<Value> make(Value::Kind k) {
    auto v = std::make_shared<Value>();
    v->kind = k;
    return v;
}

}  // namespace

double loadElementAsDouble(DType t, const std::byte* data, std::size_t i) {
    switch (t) {
        case DType::Bool: return readAs<std::uint8_t>(data, i) != 0 ? 1.0 : 0.0;
        case DType::Int8: return readAs<std::int8_t>(data, i);
        case DType::Int16: return readAs<std::int16_t>(data, i);
        case DType::Int32: return readAs<std::int32_t>(data, i);
        case DType::Int64: return static_cast<double>(readAs<std::int64_t>(data, i));
        case DType::UInt8: return readAs<std::uint8_t>(data, i);
        case DType::UInt16: return readAs<std::uint16_t>(data, i);
        case DType::UInt32: return readAs<std::uint32_t>(data, i);
        case DType::UInt64: return static_cast<double>(readAs<std::uint64_t>(data, i));
        case DType::Float16: return halfToFloat(readAs<std::uint16_t>(data, i));
        case DType::BFloat16: return bfloat16ToFloat(readAs<std::uint16_t>(data, i));
        case DType::Float32: return readAs<float>(data, i);
        case DType::Float64: return readAs<double>(data, i);
        case DType::Complex64: return readAs<float>(data, 2 * i);  // the real part
        case DType::Complex128: return readAs<double>(data, 2 * i);
        case DType::String: return 0.0;
    }
    return 0.0;
}

double TensorData::elementAsDouble(std::size_t i) const {
    return loadElementAsDouble(dtype, data.data(), i);
}

std::int64_t TensorData::elementAsInt(std::size_t i) const {
    switch (dtype) {
        case DType::Int64: return readAs<std::int64_t>(data.data(), i);
        case DType::UInt64: return static_cast<std::int64_t>(readAs<std::uint64_t>(data.data(), i));
        default: {
            // Saturating, as a float too large for int64 is not undefined behaviour here.
            const double d = elementAsDouble(i);
            if (std::isnan(d)) {
                return 0;
            }
            constexpr double kLimit = 9223372036854775808.0;  // 2^63
            return d >= kLimit    ? std::numeric_limits<std::int64_t>::max()
                   : d < -kLimit ? std::numeric_limits<std::int64_t>::min()
                                 : static_cast<std::int64_t>(d);
        }
    }
}

TensorData scalarTensor(DType t, double v) {
    TensorData td;
    td.dtype = t;
    td.data.resize(dtypeSize(t));
    auto put = [&](auto x) { std::memcpy(td.data.data(), &x, sizeof(x)); };
    switch (t) {
        case DType::Bool: put(static_cast<std::uint8_t>(v != 0.0)); break;
        case DType::Int8: put(static_cast<std::int8_t>(v)); break;
        case DType::Int16: put(static_cast<std::int16_t>(v)); break;
        case DType::Int32: put(static_cast<std::int32_t>(v)); break;
        case DType::Int64: put(static_cast<std::int64_t>(v)); break;
        case DType::UInt8: put(static_cast<std::uint8_t>(v)); break;
        case DType::UInt16: put(static_cast<std::uint16_t>(v)); break;
        case DType::UInt32: put(static_cast<std::uint32_t>(v)); break;
        case DType::UInt64: put(static_cast<std::uint64_t>(v)); break;
        case DType::Float16: put(floatToHalf(static_cast<float>(v))); break;
        case DType::BFloat16: put(floatToBFloat16(static_cast<float>(v))); break;
        case DType::Float32: put(static_cast<float>(v)); break;
        case DType::Float64: put(v); break;
        case DType::Complex64: put(std::complex<float>(static_cast<float>(v), 0.0F)); break;
        case DType::Complex128: put(std::complex<double>(v, 0.0)); break;
        case DType::String: break;
    }
    return td;
}

ValuePtr Value::none() { return make(Kind::None); }

ValuePtr Value::boolean(bool v) {
    auto r = make(Kind::Bool);
    r->b = v;
    r->dtype = DType::Bool;
    return r;
}

ValuePtr Value::integer(std::int64_t v, DType t) {
    auto r = make(Kind::Int);
    r->i = v;
    r->dtype = t;
    return r;
}

ValuePtr Value::floating(double v, DType t) {
    auto r = make(Kind::Float);
    r->f = v;
    r->dtype = t;
    return r;
}

ValuePtr Value::string(std::string s) {
    auto r = make(Kind::String);
    r->text = std::move(s);
    return r;
}

ValuePtr Value::tensorValue(TensorData t) {
    auto r = make(Kind::Tensor);
    r->dtype = t.dtype;
    r->tensor = std::make_shared<const TensorData>(std::move(t));
    return r;
}

ValuePtr Value::tuple(std::vector<ValuePtr> elems) {
    auto r = make(Kind::Tuple);
    r->elements = std::move(elems);
    return r;
}

ValuePtr Value::list(std::vector<ValuePtr> elems) {
    auto r = make(Kind::List);
    r->elements = std::move(elems);
    return r;
}

ValuePtr Value::type(DType t) {
    auto r = make(Kind::Type);
    r->dtype = t;
    return r;
}

ValuePtr Value::primitive(std::string name, AttrMap attrs, std::string instanceName) {
    PrimitiveData p;
    p.name = std::move(name);
    p.attrs = std::move(attrs);
    p.instanceName = std::move(instanceName);
    return primitive(std::move(p));
}

ValuePtr Value::primitive(PrimitiveData p) {
    auto r = make(Kind::Primitive);
    r->prim = std::make_shared<const PrimitiveData>(std::move(p));
    return r;
}

ValuePtr Value::graphRef(FuncGraph* g) {
    auto r = make(Kind::Graph);
    r->graph = g;
    return r;
}

ValuePtr Value::monadValue(MonadKind m) {
    auto r = make(Kind::Monad);
    r->monad = m;
    return r;
}

ValuePtr Value::opaque(std::string text) {
    auto r = make(Kind::Opaque);
    r->text = std::move(text);
    return r;
}

ValuePtr Value::slice(ValuePtr start, ValuePtr stop, ValuePtr step) {
    auto r = make(Kind::Slice);
    r->elements = {std::move(start), std::move(stop), std::move(step)};
    return r;
}

ValuePtr Value::hostObject(std::shared_ptr<const HostObject> obj) {
    auto r = make(Kind::Host);
    r->host = std::move(obj);
    return r;
}

bool Value::equals(const Value& o) const {
    if (kind != o.kind) {
        return false;
    }
    switch (kind) {
        case Kind::None: return true;
        case Kind::Bool: return b == o.b;
        case Kind::Int: return i == o.i && dtype == o.dtype;
        case Kind::Float:
            return dtype == o.dtype &&
                   std::bit_cast<std::uint64_t>(f) == std::bit_cast<std::uint64_t>(o.f);
        case Kind::String:
        case Kind::Opaque: return text == o.text;
        case Kind::Tensor: return *tensor == *o.tensor;
        case Kind::Host: return host == o.host;
        case Kind::Tuple:
        case Kind::List:
        case Kind::Slice:
            if (elements.size() != o.elements.size()) {
                return false;
            }
            for (std::size_t k = 0; k < elements.size(); ++k) {
                if (!elements[k]->equals(*o.elements[k])) {
                    return false;
                }
            }
            return true;
        case Kind::Type: return dtype == o.dtype;
        case Kind::Primitive: return *prim == *o.prim;
        case Kind::Graph: return graph == o.graph;
        case Kind::Monad: return monad == o.monad;
    }
    return false;
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1Fu;
    std::uint32_t mant = h & 0x3FFu;
    std::uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            exp = 127 - 15 + 1;
            while ((mant & 0x400u) == 0) {
                mant <<= 1;
                --exp;
            }
            mant &= 0x3FFu;
            bits = sign | (exp << 23) | (mant << 13);
        }
    } else if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float f) {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::int32_t exp = static_cast<std::int32_t>((x >> 23) & 0xFFu) - 127 + 15;
    std::uint32_t mant = x & 0x7FFFFFu;
    if (((x >> 23) & 0xFFu) == 0xFFu) {  // inf or nan
        return static_cast<std::uint16_t>(sign | 0x7C00u | (mant ? 0x200u : 0u));
    }
    if (exp >= 0x1F) {
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    }
    if (exp <= 0) {
        if (exp < -10) {
            return sign;
        }
        mant |= 0x800000u;
        const int shift = 14 - exp;
        std::uint32_t half = mant >> shift;
        const std::uint32_t rem = mant & ((1u << shift) - 1);
        const std::uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u))) {
            ++half;
        }
        return static_cast<std::uint16_t>(sign | half);
    }
    std::uint32_t half = (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
    const std::uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) {
        ++half;  // may carry into the exponent, which is the correct rounding
    }
    return static_cast<std::uint16_t>(sign | half);
}

float bfloat16ToFloat(std::uint16_t h) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16);
}

std::uint16_t floatToBFloat16(float f) {
    std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) {
        return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    }
    x += 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>(x >> 16);
}

}  // namespace irscope::ir
