// MindIR attributes and tensors -> irscope values, abstracts and tensor data (read side).
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "ir/ir_text.h"
#include "mindir/mindir_convert.h"

namespace irscope::mindir::detail {

using ir::Abstract;
using ir::AbstractPtr;
using ir::DType;
using ir::Value;
using ir::ValuePtr;
using AttrType = pb::AttributeProto;

namespace {

struct CodeType {
    int code;
    DType type;
    const char* name;
};
// TensorProto.DataType; 11 (DOUBLE) and 17 (FLOAT64) both mean Float64.
constexpr CodeType kTensorCodes[] = {
    {1, DType::Float32, "Float32"},  {2, DType::UInt8, "UInt8"},
    {3, DType::Int8, "Int8"},        {4, DType::UInt16, "UInt16"},
    {5, DType::Int16, "Int16"},      {6, DType::Int32, "Int32"},
    {7, DType::Int64, "Int64"},      {8, DType::String, "String"},
    {9, DType::Bool, "Bool"},        {10, DType::Float16, "Float16"},
    {11, DType::Float64, "Float64"}, {12, DType::UInt32, "UInt32"},
    {13, DType::UInt64, "UInt64"},   {16, DType::BFloat16, "BFloat16"},
    {17, DType::Float64, "Float64"},
};

bool isScalarCode(int type) {
    return type >= AttrType::FLOAT && type <= AttrType::BFLOAT16;
}

// Whether a tensor proto carries element data of any kind.
bool hasData(const pb::TensorProto& t) {
    return t.has_raw_data() || t.has_external_data() || t.float_data_size() > 0 ||
           t.int32_data_size() > 0 || t.int64_data_size() > 0 || t.double_data_size() > 0 ||
           t.uint64_data_size() > 0;
}

ir::Shape shapeOf(const pb::TensorProto& t) {
    ir::Shape s;
    if (t.dims_size() == 1 && t.dims(0) == -2) {
        s.dynamicRank = true;
        return s;
    }
    s.dims.assign(t.dims().begin(), t.dims().end());
    return s;
}

template <typename T>
void appendElement(std::vector<std::byte>& out, DType dt, T v) {
    const std::size_t size = ir::dtypeSize(dt);
    const std::size_t at = out.size();
    out.resize(at + size);
    std::byte* p = out.data() + at;
    auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (dt) {
        case DType::Bool:
            put(static_cast<std::uint8_t>(v != T{} ? 1 : 0));
            break;
        case DType::Int8:
            put(static_cast<std::int8_t>(v));
            break;
        case DType::UInt8:
            put(static_cast<std::uint8_t>(v));
            break;
        case DType::Int16:
            put(static_cast<std::int16_t>(v));
            break;
        case DType::UInt16:
            put(static_cast<std::uint16_t>(v));
            break;
        case DType::Int32:
            put(static_cast<std::int32_t>(v));
            break;
        case DType::UInt32:
            put(static_cast<std::uint32_t>(v));
            break;
        case DType::Int64:
            put(static_cast<std::int64_t>(v));
            break;
        case DType::UInt64:
            put(static_cast<std::uint64_t>(v));
            break;
        case DType::Float16:
            put(ir::floatToHalf(static_cast<float>(v)));
            break;
        case DType::BFloat16:
            put(ir::floatToBFloat16(static_cast<float>(v)));
            break;
        case DType::Float32:
            put(static_cast<float>(v));
            break;
        case DType::Float64:
            put(static_cast<double>(v));
            break;
        case DType::Complex64:  // no tensor code maps to a complex DType (see kTensorCodes)
        case DType::Complex128:
        case DType::String:
            break;
    }
}

void byteSwap(std::vector<std::byte>& data, std::size_t elem) {
    if (elem <= 1) {
        return;
    }
    for (std::size_t i = 0; i + elem <= data.size(); i += elem) {
        std::reverse(data.begin() + static_cast<std::ptrdiff_t>(i),
                     data.begin() + static_cast<std::ptrdiff_t>(i + elem));
    }
}

std::string tensorLabel(const pb::TensorProto& t) {
    return t.name().empty() ? std::string("a tensor") : "tensor '" + t.name() + "'";
}

// --- typed (2.x) attributes ------------------------------------------------------------

ValuePtr scalarTyped(const AttrType& a, int type) {
    const auto dt = dtypeFromAttrCode(type);
    if (type == AttrType::BOOL) {
        return Value::boolean((a.has_i() ? a.i() : (a.ints_size() > 0 ? a.ints(0) : 0)) != 0);
    }
    if (type == AttrType::STRING) {
        return Value::string(a.has_s() ? a.s() : (a.strings_size() > 0 ? a.strings(0) : ""));
    }
    if (type == AttrType::FLOAT || type == AttrType::FLOAT16 || type == AttrType::BFLOAT16) {
        const double f = a.has_f()              ? a.f()
                         : a.floats_size() > 0  ? a.floats(0)
                         : a.has_d()            ? a.d()
                         : a.doubles_size() > 0 ? a.doubles(0)
                                                : 0.0;
        return Value::floating(f, dt.value_or(DType::Float32));
    }
    if (type == AttrType::DOUBLE) {
        const double d = a.has_d()              ? a.d()
                         : a.doubles_size() > 0 ? a.doubles(0)
                         : a.has_f()            ? a.f()
                         : a.floats_size() > 0  ? a.floats(0)
                                                : 0.0;
        return Value::floating(d, DType::Float64);
    }
    const std::int64_t i = a.has_i() ? a.i() : (a.ints_size() > 0 ? a.ints(0) : 0);
    return Value::integer(i, dt.value_or(DType::Int64));
}

// A tensor attribute's value: a tensor with data, or a dtype used as a value (MindSpore
// writes `mstype.float32` as a data-less, shapeless tensor of that type).
ValuePtr tensorValue(const pb::TensorProto& t, const ConvertContext& cx) {
    if (!hasData(t) && t.dims_size() == 0) {
        const auto dt = dtypeFromTensorCode(t.data_type());
        return dt ? Value::type(*dt) : Value::opaque(tensorCodeName(t.data_type()));
    }
    auto data = tensorFromProto(t, cx);
    if (!data) {
        return Value::opaque("Tensor(shape=" + shapeOf(t).toString() +
                             ", dtype=" + tensorCodeName(t.data_type()) + ")");
    }
    return Value::tensorValue(std::move(*data));
}

ValuePtr typedValue(const AttrType& a, const ConvertContext& cx) {
    const int type = a.type();
    if (isScalarCode(type)) {
        return scalarTyped(a, type);
    }
    switch (type) {
        case AttrType::TENSOR:
            return tensorValue(a.t(), cx);
        case AttrType::TENSORS:
            if (a.tensors_size() == 1) {
                return tensorValue(a.tensors(0), cx);
            } else {
                std::vector<ValuePtr> elems;
                for (const auto& t : a.tensors()) {
                    elems.push_back(tensorValue(t, cx));
                }
                return Value::tuple(std::move(elems));
            }
        case AttrType::TUPLE:
        case AttrType::LIST: {
            std::vector<ValuePtr> elems;
            for (const auto& e : a.values()) {
                elems.push_back(valueFromAttr(e, cx));
            }
            return type == AttrType::TUPLE ? Value::tuple(std::move(elems))
                                           : Value::list(std::move(elems));
        }
        case AttrType::DICT: {
            std::string text = "{";
            for (int i = 0; i < a.values_size(); ++i) {
                const auto& e = a.values(i);
                text +=
                    (i > 0 ? ", " : "") + e.name() + ": " + ir::formatValue(*valueFromAttr(e, cx));
            }
            return Value::opaque(text + "}");
        }
        case AttrType::UMONAD:
            return Value::monadValue(ir::MonadKind::U);
        case AttrType::IOMONAD:
            return Value::monadValue(ir::MonadKind::IO);
        case AttrType::NONE:
            return Value::none();
        case AttrType::GRAPH:
        case AttrType::FUNCGRAPHCLOSURE: {
            const std::string name = a.has_s() ? a.s() : a.g().name();
            if (ir::FuncGraph* g = cx.findGraph ? cx.findGraph(name) : nullptr) {
                return Value::graphRef(g);
            }
            return Value::opaque("FuncGraph: " + name);
        }
        case AttrType::CLASS_TYPE:
            return Value::opaque("ClassType: " + a.s());
        case AttrType::NAME_SPACE:
            return Value::opaque("NameSpace: " + a.s());
        case AttrType::SYMBOL:
            return Value::opaque("Symbol: " + a.s());
        case AttrType::TYPE_NULL:
            return Value::opaque("TypeNull");
        default:
            break;
    }
    const auto* d = pb::AttributeProto::AttributeType_descriptor()->FindValueByNumber(type);
    return Value::opaque(d ? d->name() : "AttributeType(" + std::to_string(type) + ")");
}

// --- 1.x attributes: the type in ref_attr_name ------------------------------------------

// The structure of a ref_attr_name after its prefix: `Tuple[value1,List[value2,],]`.
struct RefItem {
    enum class K { Leaf, Tuple, List } k = K::Leaf;
    std::string name;
    std::vector<RefItem> items;
};

// Parses items up to `]` or the end; tolerant of a missing trailing comma.
std::vector<RefItem> parseRefItems(std::string_view s, std::size_t& pos, int depth) {
    std::vector<RefItem> out;
    while (pos < s.size() && s[pos] != ']') {
        RefItem it;
        const std::size_t bracket = s.find_first_of("[,]", pos);
        const std::string_view word = s.substr(
            pos, bracket == std::string_view::npos ? std::string_view::npos : bracket - pos);
        pos = bracket == std::string_view::npos ? s.size() : bracket;
        if (pos < s.size() && s[pos] == '[' && depth < 64) {
            it.k = word == "List" ? RefItem::K::List : RefItem::K::Tuple;
            ++pos;
            it.items = parseRefItems(s, pos, depth + 1);
            if (pos < s.size() && s[pos] == ']') {
                ++pos;
            }
        } else {
            it.name = std::string(word);
        }
        out.push_back(std::move(it));
        if (pos < s.size() && s[pos] == ',') {
            ++pos;
        }
        if (pos < s.size() && s[pos] == '[') {
            ++pos;  // malformed: skip rather than loop
        }
    }
    return out;
}

const pb::TensorProto* tensorNamed(const AttrType& a, std::string_view name) {
    for (const auto& t : a.tensors()) {
        if (t.name() == name) {
            return &t;
        }
    }
    return nullptr;
}

// Hands out the elements 1.x spread over ints/floats/doubles/strings/tensors, in order.
struct LegacyElements {
    const AttrType& a;
    int ints = 0, floats = 0, doubles = 0, strings = 0, tensors = 0;

    ValuePtr next(const std::string& leafName, const ConvertContext& cx) {
        if (const pb::TensorProto* t = tensorNamed(a, leafName)) {
            return tensorValue(*t, cx);
        }
        int type = a.type();
        if (type == AttrType::UNDEFINED) {
            type = a.ints_size() > 0      ? AttrType::INT64
                   : a.floats_size() > 0  ? AttrType::FLOAT
                   : a.doubles_size() > 0 ? AttrType::DOUBLE
                   : a.strings_size() > 0 ? AttrType::STRING
                                          : AttrType::UNDEFINED;
        }
        if ((type == AttrType::FLOAT || type == AttrType::FLOAT16) && floats < a.floats_size()) {
            return Value::floating(a.floats(floats++),
                                   dtypeFromAttrCode(type).value_or(DType::Float32));
        }
        if (type == AttrType::DOUBLE && doubles < a.doubles_size()) {
            return Value::floating(a.doubles(doubles++), DType::Float64);
        }
        if (type == AttrType::STRING && strings < a.strings_size()) {
            return Value::string(a.strings(strings++));
        }
        if (type == AttrType::BOOL && ints < a.ints_size()) {
            return Value::boolean(a.ints(ints++) != 0);
        }
        if (isScalarCode(type) && ints < a.ints_size()) {
            return Value::integer(a.ints(ints++), dtypeFromAttrCode(type).value_or(DType::Int64));
        }
        if (tensors < a.tensors_size()) {
            return tensorValue(a.tensors(tensors++), cx);
        }
        return Value::opaque(leafName);
    }
};

ValuePtr legacyItem(const RefItem& it, LegacyElements& el, const ConvertContext& cx) {
    if (it.k == RefItem::K::Leaf) {
        return el.next(it.name, cx);
    }
    std::vector<ValuePtr> elems;
    for (const RefItem& sub : it.items) {
        elems.push_back(legacyItem(sub, el, cx));
    }
    return it.k == RefItem::K::Tuple ? Value::tuple(std::move(elems))
                                     : Value::list(std::move(elems));
}

ValuePtr legacyValue(const AttrType& a, const ConvertContext& cx) {
    const std::string& ref = a.ref_attr_name();
    const std::size_t colon = ref.find(':');
    const std::string prefix = ref.substr(0, colon);
    const std::string_view rest =
        colon == std::string::npos ? std::string_view{} : std::string_view(ref).substr(colon + 1);
    if (prefix == "Monad") {
        return Value::monadValue(rest.starts_with("IO") ? ir::MonadKind::IO : ir::MonadKind::U);
    }
    if (prefix == "none" || prefix == "None") {
        return Value::none();
    }
    if (prefix == "type") {
        const pb::TensorProto* t =
            a.tensors_size() > 0 ? &a.tensors(0) : (a.has_t() ? &a.t() : nullptr);
        const int code = t ? t->data_type() : static_cast<int>(a.i());
        const auto dt = dtypeFromTensorCode(code);
        return dt ? Value::type(*dt) : Value::opaque(tensorCodeName(code));
    }
    if (prefix == "tensor") {
        if (a.tensors_size() > 0) {
            return tensorValue(a.tensors(0), cx);
        }
        if (a.has_t()) {
            return tensorValue(a.t(), cx);
        }
    }
    if (prefix == "scalar" || prefix == "tensor") {
        std::size_t pos = 0;
        const std::vector<RefItem> items = parseRefItems(rest, pos, 0);
        if (items.size() == 1 && items[0].k != RefItem::K::Leaf) {
            LegacyElements el{a};
            return legacyItem(items[0], el, cx);
        }
        if (a.has_i() || a.has_f() || a.has_d() || a.has_s() || a.type() != AttrType::UNDEFINED) {
            return scalarTyped(a, a.type() == AttrType::UNDEFINED ? (a.has_f()   ? AttrType::FLOAT
                                                                     : a.has_d() ? AttrType::DOUBLE
                                                                     : a.has_s() ? AttrType::STRING
                                                                                 : AttrType::INT64)
                                                                  : a.type());
        }
        LegacyElements el{a};
        return el.next(items.empty() ? std::string() : items[0].name, cx);
    }
    return Value::opaque(ref);
}

AbstractPtr legacyAbstractItem(const RefItem& it, const AttrType& a, int& next) {
    if (it.k != RefItem::K::Leaf) {
        std::vector<AbstractPtr> elems;
        for (const RefItem& sub : it.items) {
            elems.push_back(legacyAbstractItem(sub, a, next));
        }
        return it.k == RefItem::K::Tuple ? Abstract::tuple(std::move(elems))
                                         : Abstract::list(std::move(elems));
    }
    if (it.name == "UMonadType") {
        return Abstract::monadAbs(ir::MonadKind::U);
    }
    if (it.name == "IOMonadType") {
        return Abstract::monadAbs(ir::MonadKind::IO);
    }
    if (it.name == "TypeNone" || it.name == "None") {
        return Abstract::noneAbs();
    }
    const pb::TensorProto* t = tensorNamed(a, it.name);
    if (t == nullptr && next < a.tensors_size()) {
        t = &a.tensors(next);
    }
    ++next;
    return t ? abstractFromTensor(*t) : Abstract::opaque(it.name);
}

}  // namespace

std::optional<DType> dtypeFromTensorCode(int code) {
    for (const CodeType& c : kTensorCodes) {
        if (c.code == code) {
            return c.type;
        }
    }
    return std::nullopt;
}

int tensorCodeOf(DType t) {
    for (const CodeType& c : kTensorCodes) {
        if (c.type == t) {
            return c.code;
        }
    }
    return 0;
}

std::optional<DType> dtypeFromAttrCode(int code) {
    return code == AttrType::DOUBLE ? std::optional<DType>(DType::Float64)
                                    : dtypeFromTensorCode(code);
}

int attrCodeOf(DType t) {
    return t == DType::Float64 ? AttrType::DOUBLE : tensorCodeOf(t);
}

std::string tensorCodeName(int code) {
    for (const CodeType& c : kTensorCodes) {
        if (c.code == code) {
            return c.name;
        }
    }
    switch (code) {
        case 14:
            return "Complex64";
        case 15:
            return "Complex128";
        case 18:
            return "QInt4x2";
        default:
            return "DataType(" + std::to_string(code) + ")";
    }
}

std::optional<ir::TensorData> tensorFromProto(const pb::TensorProto& t, const ConvertContext& cx) {
    const auto dt = dtypeFromTensorCode(t.data_type());
    if (!dt) {
        return std::nullopt;
    }
    ir::TensorData out;
    out.dtype = *dt;
    out.shape = shapeOf(t);
    const std::int64_t count = out.shape.elementCount();
    const std::size_t elem = ir::dtypeSize(*dt);
    if (count < 0 || *dt == DType::String) {
        return out;  // dynamic shape or strings: no data irscope can hold
    }
    for (std::int64_t d : out.shape.dims) {
        if (d > (std::int64_t{1} << 40)) {
            throw MindirError(MindirError::Kind::Corrupt, cx.fileName,
                              tensorLabel(t) + " has an impossible dimension " + std::to_string(d));
        }
    }
    const auto ucount = static_cast<std::uint64_t>(count);
    if (ucount > (std::uint64_t{1} << 40) / std::max<std::size_t>(elem, 1)) {
        throw MindirError(
            MindirError::Kind::Corrupt, cx.fileName,
            tensorLabel(t) + " is impossibly large (shape " + out.shape.toString() + ")");
    }
    const std::size_t expect = static_cast<std::size_t>(ucount) * elem;
    auto sizeError = [&](const char* field, std::size_t got) {
        return MindirError(MindirError::Kind::Corrupt, cx.fileName,
                           tensorLabel(t) + ": " + field + " holds " + std::to_string(got) +
                               " bytes, but shape " + out.shape.toString() + " of " +
                               std::string(ir::dtypeName(*dt)) + " needs " +
                               std::to_string(expect));
    };
    if (t.has_raw_data()) {
        if (t.raw_data().size() != expect) {
            throw sizeError("raw_data", t.raw_data().size());
        }
        out.data.resize(expect);
        std::memcpy(out.data.data(), t.raw_data().data(), expect);
        if (!cx.littleEndian && std::endian::native == std::endian::little) {
            byteSwap(out.data, elem);
        }
    } else if (t.has_external_data()) {
        if (!cx.readExternal) {
            throw MindirError(MindirError::Kind::External, cx.fileName,
                              tensorLabel(t) +
                                  " keeps its data in an external file, which "
                                  "cannot be read without the file's folder");
        }
        cx.readExternal(t.external_data(), expect, t.name(), out.data);
        if (cx.externalBytes) {
            *cx.externalBytes += expect;
        }
        if (!cx.littleEndian && std::endian::native == std::endian::little) {
            byteSwap(out.data, elem);
        }
    } else {
        auto fill = [&](const auto& field, const char* name) {
            if (static_cast<std::uint64_t>(field.size()) != ucount) {
                throw sizeError(name, static_cast<std::size_t>(field.size()) * elem);
            }
            out.data.reserve(expect);
            for (const auto& v : field) {
                appendElement(out.data, *dt, v);
            }
        };
        if (t.float_data_size() > 0) {
            fill(t.float_data(), "float_data");
        } else if (t.double_data_size() > 0) {
            fill(t.double_data(), "double_data");
        } else if (t.int64_data_size() > 0) {
            fill(t.int64_data(), "int64_data");
        } else if (t.uint64_data_size() > 0) {
            fill(t.uint64_data(), "uint64_data");
        } else if (t.int32_data_size() > 0) {
            fill(t.int32_data(), "int32_data");
        }
    }
    return out;
}

AbstractPtr abstractFromTensor(const pb::TensorProto& t) {
    const auto dt = dtypeFromTensorCode(t.data_type());
    if (!dt) {
        return Abstract::opaque("<Tensor[" + tensorCodeName(t.data_type()) + "], " +
                                shapeOf(t).toString() + ">");
    }
    return Abstract::tensor(*dt, shapeOf(t));
}

ValuePtr valueFromAttr(const pb::AttributeProto& a, const ConvertContext& cx) {
    if (a.type() == AttrType::UNDEFINED && !a.ref_attr_name().empty()) {
        return legacyValue(a, cx);
    }
    if (a.type() == AttrType::UNDEFINED) {
        // Neither style: take whichever field is set.
        if (a.has_t()) {
            return tensorValue(a.t(), cx);
        }
        if (a.tensors_size() > 0) {
            return tensorValue(a.tensors(0), cx);
        }
        if (a.has_s()) {
            return Value::string(a.s());
        }
        if (a.has_f()) {
            return Value::floating(a.f());
        }
        if (a.has_d()) {
            return Value::floating(a.d(), DType::Float64);
        }
        if (a.has_i()) {
            return Value::integer(a.i());
        }
        return Value::none();
    }
    // 1.x wrote `type` too on scalars ("scalar:value0", type 7) and tuples ("scalar:Tuple[..]").
    if (!a.ref_attr_name().empty() && a.values_size() == 0 &&
        (a.ref_attr_name().starts_with("scalar:") || a.ref_attr_name().starts_with("type:") ||
         a.ref_attr_name().starts_with("tensor:") || a.ref_attr_name().starts_with("Monad:"))) {
        return legacyValue(a, cx);
    }
    return typedValue(a, cx);
}

bool isShapeAttr(const pb::AttributeProto& a, bool typedStyle) {
    if (a.ref_attr_name().starts_with("shape:")) {
        return true;
    }
    return typedStyle && a.name() == "shape";
}

AbstractPtr abstractFromAttr(const pb::AttributeProto& a) {
    if (a.ref_attr_name().starts_with("shape:")) {
        std::size_t pos = 0;
        const std::string_view rest = std::string_view(a.ref_attr_name()).substr(6);
        const std::vector<RefItem> items = parseRefItems(rest, pos, 0);
        if (items.empty()) {
            return nullptr;
        }
        int next = 0;
        return legacyAbstractItem(items[0], a, next);
    }
    const int type = a.type();
    switch (type) {
        case AttrType::TENSORS:
        case AttrType::TENSOR: {
            const pb::TensorProto* t = type == AttrType::TENSOR ? &a.t()
                                       : a.tensors_size() > 0   ? &a.tensors(0)
                                                                : nullptr;
            return t ? abstractFromTensor(*t) : nullptr;
        }
        case AttrType::SCALAR: {
            const int code = a.tensors_size() > 0 ? a.tensors(0).data_type() : 0;
            const auto dt = dtypeFromTensorCode(code);
            return dt ? Abstract::scalar(*dt)
                      : Abstract::opaque("<" + tensorCodeName(code) + ", NoShape>");
        }
        case AttrType::TUPLE:
        case AttrType::LIST: {
            std::vector<AbstractPtr> elems;
            for (const auto& e : a.values()) {
                AbstractPtr sub = abstractFromAttr(e);
                elems.push_back(sub ? sub : Abstract::opaque("<Any>"));
            }
            return type == AttrType::TUPLE ? Abstract::tuple(std::move(elems))
                                           : Abstract::list(std::move(elems));
        }
        case AttrType::UMONAD:
            return Abstract::monadAbs(ir::MonadKind::U);
        case AttrType::IOMONAD:
            return Abstract::monadAbs(ir::MonadKind::IO);
        case AttrType::NONE:
            return Abstract::noneAbs();
        default:
            if (isScalarCode(type)) {
                return Abstract::scalar(dtypeFromAttrCode(type).value_or(DType::Int64));
            }
            return nullptr;
    }
}

}  // namespace irscope::mindir::detail
