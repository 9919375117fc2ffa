// Formatting of values and abstracts in the .ir text (see ir_format.h and ir_text.h).
#include "ir/ir_format.h"

#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "ir/ir_lexer.h"
#include "ir/ir_text.h"

namespace irscope::ir {

namespace text {

namespace {

template <typename T>
std::string shortest(T v) {
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    return ec == std::errc() ? std::string(buf, p) : std::string("nan");
}

// Floats print at the precision of their dtype (the reader parses them back the same way).
std::string floatText(double f, DType t) {
    if (t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32) {
        return shortest(static_cast<float>(f));
    }
    return shortest(f);
}

// Names that mean something else when they stand alone in a value position.
bool isReservedWord(std::string_view s) {
    return s == "None" || s == "U" || s == "IO" || s == "UMonad" || s == "IOMonad" || s == "Prim" ||
           dtypeFromName(s).has_value();
}

constexpr std::int64_t kMaxPrintedElements = 256;

template <typename T>
T readElem(const std::vector<std::byte>& data, std::size_t i) {
    T v;
    std::memcpy(&v, data.data() + i * sizeof(T), sizeof(T));
    return v;
}

// A complex element as one token: `1+2j`, `-0.5-1j` (the reader's storeElement parses it).
template <typename T>
std::string complexText(T re, T im) {
    std::string i = shortest(im);
    if (i[0] != '-') {
        i.insert(i.begin(), '+');
    }
    return shortest(re) + i + "j";
}

// Elements are printed only when the data matches a static shape of at most 256 elements.
bool printableData(const TensorData& t, std::int64_t& count) {
    count = 1;
    for (auto d : t.shape.dims) {
        if (d < 0 || __builtin_mul_overflow(count, d, &count)) {
            return false;
        }
    }
    if (t.shape.dynamicRank || count > kMaxPrintedElements) {
        return false;
    }
    if (count > 0 && t.dtype == DType::String) {
        return false;
    }
    return t.data.size() == static_cast<std::size_t>(count) * dtypeSize(t.dtype);
}

void nestedElements(const TensorData& t, std::size_t dim, std::size_t& next, std::string& out) {
    if (dim == t.shape.dims.size()) {
        out += elementText(t, next++);
        return;
    }
    out += '[';
    for (std::int64_t k = 0; k < t.shape.dims[dim]; ++k) {
        if (k != 0) {
            out += ", ";
        }
        nestedElements(t, dim + 1, next, out);
    }
    out += ']';
}

}  // namespace

std::string elementText(const TensorData& t, std::size_t i) {
    switch (t.dtype) {
        case DType::Bool:
            return readElem<std::uint8_t>(t.data, i) != 0 ? "True" : "False";
        case DType::Int8:
            return std::to_string(readElem<std::int8_t>(t.data, i));
        case DType::Int16:
            return std::to_string(readElem<std::int16_t>(t.data, i));
        case DType::Int32:
            return std::to_string(readElem<std::int32_t>(t.data, i));
        case DType::Int64:
            return std::to_string(readElem<std::int64_t>(t.data, i));
        case DType::UInt8:
            return std::to_string(readElem<std::uint8_t>(t.data, i));
        case DType::UInt16:
            return std::to_string(readElem<std::uint16_t>(t.data, i));
        case DType::UInt32:
            return std::to_string(readElem<std::uint32_t>(t.data, i));
        case DType::UInt64:
            return std::to_string(readElem<std::uint64_t>(t.data, i));
        case DType::Float16:
            return shortest(halfToFloat(readElem<std::uint16_t>(t.data, i)));
        case DType::BFloat16:
            return shortest(bfloat16ToFloat(readElem<std::uint16_t>(t.data, i)));
        case DType::Float32:
            return shortest(readElem<float>(t.data, i));
        case DType::Float64:
            return shortest(readElem<double>(t.data, i));
        case DType::Complex64:
            return complexText(readElem<float>(t.data, 2 * i), readElem<float>(t.data, 2 * i + 1));
        case DType::Complex128:
            return complexText(readElem<double>(t.data, 2 * i),
                               readElem<double>(t.data, 2 * i + 1));
        case DType::String:
            return "...";
    }
    return "...";
}

std::string defaultGraphName(const FuncGraph* g) {
    return g == nullptr ? std::string("\"\"") : nameText(g->name());
}

std::string ValueFormatter::value(const Value& v) const {
    std::string out;
    append(v, out);
    return out;
}

void ValueFormatter::attrs(const AttrMap& m, std::string& out) const {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : m) {
        if (!first) {
            out += ", ";
        }
        first = false;
        out += nameText(k);
        out += ": ";
        if (v) {
            append(*v, out);
        } else {
            out += "null";
        }
    }
    out += '}';
}

std::string ValueFormatter::callee(const Value& v) const {
    if (v.kind == Value::Kind::Primitive) {
        const std::string& n = v.prim->name;
        if (isPlainOpName(n) && n != "Prim") {
            return n;
        }
        return "Prim(" + (isPlainOpName(n) ? n : quoteString(n)) + ")";
    }
    if (v.kind == Value::Kind::Graph) {
        return "call @" + namer_(v.graph);
    }
    return value(v);
}

void ValueFormatter::append(const Value& v, std::string& out) const {
    switch (v.kind) {
        case Value::Kind::None:
            out += "None";
            return;
        case Value::Kind::Bool:
            out += v.b ? "Bool(1)" : "Bool(0)";
            return;
        case Value::Kind::Int:
            out += dtypeScalarPrefix(v.dtype);
            out += '(';
            out += isUnsigned(v.dtype) ? std::to_string(static_cast<std::uint64_t>(v.i))
                                       : std::to_string(v.i);
            out += ')';
            return;
        case Value::Kind::Float:
            out += dtypeScalarPrefix(v.dtype);
            out += '(' + floatText(v.f, v.dtype) + ')';
            return;
        case Value::Kind::String:
            out += quoteString(v.text);
            return;
        case Value::Kind::Tensor:
            tensor(*v.tensor, out);
            return;
        case Value::Kind::Tuple:
        case Value::Kind::List: {
            const bool tup = v.kind == Value::Kind::Tuple;
            out += tup ? '(' : '[';
            for (std::size_t k = 0; k < v.elements.size(); ++k) {
                if (k != 0) {
                    out += ", ";
                }
                append(*v.elements[k], out);
            }
            out += tup ? ')' : ']';
            return;
        }
        case Value::Kind::Type:
            out += dtypeName(v.dtype);
            return;
        case Value::Kind::Primitive:
            primitive(*v.prim, out);
            return;
        case Value::Kind::Graph:
            out += '@' + namer_(v.graph);
            return;
        case Value::Kind::Monad:
            out += v.monad == MonadKind::U ? "U" : "IO";
            return;
        case Value::Kind::Opaque:
            out += v.text;
            return;
        case Value::Kind::Slice:
            out += "Slice[";
            for (std::size_t k = 0; k < v.elements.size(); ++k) {
                if (k != 0) {
                    out += ": ";
                }
                append(*v.elements[k], out);
            }
            out += ']';
            return;
        case Value::Kind::Host:
            out += v.host ? v.host->text() : "NameSpace[?]";
            return;
    }
}

void ValueFormatter::tensor(const TensorData& t, std::string& out) const {
    out += "Tensor(shape=[";
    for (std::size_t k = 0; k < t.shape.dims.size(); ++k) {
        if (k != 0) {
            out += ", ";
        }
        out += std::to_string(t.shape.dims[k]);
    }
    out += "], dtype=";
    out += dtypeName(t.dtype);
    out += ", value=";
    std::int64_t count = 0;
    if (printableData(t, count)) {
        std::size_t next = 0;
        nestedElements(t, 0, next, out);
    } else {
        out += "...";
    }
    out += ')';
}

// A primitive used as a value (not as a callee): its bare name when nothing else needs
// saying, else `Prim(Name, instance name: "x", primitive_attrs: {...})`.
void ValueFormatter::primitive(const PrimitiveData& p, std::string& out) const {
    if (isPlainOpName(p.name) && !isReservedWord(p.name) && p.instanceName.empty() &&
        p.attrs.empty()) {
        out += p.name;
        return;
    }
    out += "Prim(";
    out += isPlainOpName(p.name) ? p.name : quoteString(p.name);
    if (!p.instanceName.empty()) {
        out += ", instance name: " + quoteString(p.instanceName);
    }
    if (!p.attrs.empty()) {
        out += ", primitive_attrs: ";
        attrs(p.attrs, out);
    }
    out += ')';
}

namespace {

// --- abstracts ------------------------------------------------------------------------------

bool simpleElement(const AbstractPtr& a);

bool allSimple(const std::vector<AbstractPtr>& elems) {
    for (const auto& e : elems) {
        if (!simpleElement(e)) {
            return false;
        }
    }
    return true;
}

// Elements that MindSpore's `Tuple[types], TupleShape(shapes)` form describes completely.
bool simpleElement(const AbstractPtr& a) {
    if (!a) {
        return false;
    }
    switch (a->kind) {
        case Abstract::Kind::Tensor:
            return !a->valueKnown;
        case Abstract::Kind::Ref:
            return a->refKey.empty();
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List:
            return allSimple(a->elements);
        case Abstract::Kind::Opaque:
            return false;
        default:
            return true;
    }
}

std::string shapeText(const Abstract& a) {
    switch (a.kind) {
        case Abstract::Kind::Tensor:
        case Abstract::Kind::Ref:
            return a.shape.toString();
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List: {
            std::string out = a.kind == Abstract::Kind::Tuple ? "TupleShape(" : "ListShape(";
            for (std::size_t k = 0; k < a.elements.size(); ++k) {
                out += (k != 0 ? ", " : "") + shapeText(*a.elements[k]);
            }
            return out + ")";
        }
        default:
            return "NoShape";
    }
}

}  // namespace

std::string abstractOrNull(const AbstractPtr& a) {
    return a ? formatAbstract(*a) : "<null>";
}

bool rawAttrString(std::string_view s) {
    if (s.empty()) {
        return true;
    }
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) {
            return false;
        }
    }
    if (text::isSpace(s.back()) || !text::isIdentStart(static_cast<unsigned char>(s[0]))) {
        return false;
    }
    std::size_t n = 0;
    while (n < s.size() && text::isNameByte(static_cast<unsigned char>(s[n]))) {
        ++n;
    }
    if (n < s.size() && (s[n] == '(' || s[n] == '[')) {
        return false;
    }
    return !isReservedWord(s.substr(0, n)) || s.substr(0, n) == "Prim";
}

bool mayContinueAttrBlock(std::string_view line) {
    return !line.empty() && line.front() != '#' && line.front() != '%' && line.front() != '}' &&
           !line.starts_with("subgraph ");
}

}  // namespace text

using text::abstractOrNull;
using text::allSimple;
using text::shapeText;

std::string formatValue(const Value& v) {
    return text::ValueFormatter(text::defaultGraphName).value(v);
}

std::string formatAbstract(const Abstract& a) {
    switch (a.kind) {
        case Abstract::Kind::Tensor:
            return fmt::format("<{}, {}{}", typeName(a), a.shape.toString(),
                               a.valueKnown ? ", value=...>" : ">");
        case Abstract::Kind::Ref:
            if (a.refKey.empty()) {
                return fmt::format("<{}, {}>", typeName(a), a.shape.toString());
            }
            return fmt::format("<{}, {}, ref_key={}>", typeName(a), a.shape.toString(), a.refKey);
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List: {
            if (allSimple(a.elements)) {
                return fmt::format("<{}, {}>", typeName(a), shapeText(a));
            }
            // Per-element form: each element with everything it carries.
            std::string out = a.kind == Abstract::Kind::Tuple ? "<Tuple[" : "<List[";
            for (std::size_t k = 0; k < a.elements.size(); ++k) {
                out += (k != 0 ? ", " : "") + abstractOrNull(a.elements[k]);
            }
            return out + "]>";
        }
        case Abstract::Kind::Opaque:
            return fmt::format("<{}>", a.text);
        default:
            return fmt::format("<{}, NoShape>", typeName(a));
    }
}

}  // namespace irscope::ir
