#include "ir/ir_value_reader.h"

#include <charconv>
#include <cstring>
#include <vector>

#include "util/diagnostic.h"

namespace irscope::ir::text {

namespace {

[[noreturn]] void tooDeep(const LineCursor& c) {
    c.fail("nesting deeper than " + std::to_string(kMaxNesting) + " levels");
}

std::string_view readToken(LineCursor& c) {
    const std::size_t b = c.pos;
    while (!c.atEnd()) {
        const char ch = c.peek();
        if (!(isNameByte(static_cast<unsigned char>(ch)) || ch == '+')) {
            break;
        }
        ++c.pos;
    }
    return c.slice(b, c.pos);
}

template <typename T>
bool parseWhole(std::string_view s, T& out) {
    if (s.empty()) {
        return false;
    }
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

bool parseBoolText(std::string_view s, bool& out) {
    if (s == "1" || s == "true" || s == "True") {
        out = true;
        return true;
    }
    if (s == "0" || s == "false" || s == "False") {
        out = false;
        return true;
    }
    return false;
}

// A signed integer that may also be written as an unsigned one above INT64_MAX.
bool parseIntBits(std::string_view s, bool isUnsignedType, std::int64_t& out) {
    if (isUnsignedType) {
        std::uint64_t u = 0;
        if (parseWhole(s, u)) {
            out = static_cast<std::int64_t>(u);
            return true;
        }
    }
    return parseWhole(s, out);
}

// The double a printed float of dtype t stands for: Float64 exactly, the narrower types
// through float, the precision their printer used.
bool parseFloatText(std::string_view s, DType t, double& out) {
    if (t == DType::Float64) {
        return parseWhole(s, out);
    }
    float f = 0;
    if (!parseWhole(s, f)) {
        return false;
    }
    out = f;
    return true;
}

template <typename T>
void putElem(std::vector<std::byte>& data, std::size_t i, T v) {
    std::memcpy(data.data() + i * sizeof(T), &v, sizeof(T));
}

bool storeElement(std::vector<std::byte>& data, std::size_t i, DType t, std::string_view tok) {
    if (t == DType::Bool) {
        bool b = false;
        if (!parseBoolText(tok, b)) {
            return false;
        }
        putElem<std::uint8_t>(data, i, b ? 1 : 0);
        return true;
    }
    if (isInteger(t)) {
        std::int64_t v = 0;
        if (!parseIntBits(tok, isUnsigned(t), v)) {
            return false;
        }
        switch (t) {
            case DType::Int8:
                putElem(data, i, static_cast<std::int8_t>(v));
                break;
            case DType::Int16:
                putElem(data, i, static_cast<std::int16_t>(v));
                break;
            case DType::Int32:
                putElem(data, i, static_cast<std::int32_t>(v));
                break;
            case DType::Int64:
                putElem(data, i, v);
                break;
            case DType::UInt8:
                putElem(data, i, static_cast<std::uint8_t>(v));
                break;
            case DType::UInt16:
                putElem(data, i, static_cast<std::uint16_t>(v));
                break;
            case DType::UInt32:
                putElem(data, i, static_cast<std::uint32_t>(v));
                break;
            default:
                putElem(data, i, static_cast<std::uint64_t>(v));
                break;
        }
        return true;
    }
    if (isFloat(t)) {
        double d = 0;
        if (!parseFloatText(tok, t, d)) {
            return false;
        }
        const auto f = static_cast<float>(d);
        switch (t) {
            case DType::Float16:
                putElem(data, i, floatToHalf(f));
                break;
            case DType::BFloat16:
                putElem(data, i, floatToBFloat16(f));
                break;
            case DType::Float32:
                putElem(data, i, f);
                break;
            default:
                putElem(data, i, d);
                break;
        }
        return true;
    }
    if (isComplex(t)) {  // `1+2j`, `-0.5-1e-08j`: the split is the last sign not after an 'e'
        if (tok.size() < 2 || (tok.back() | 0x20) != 'j') {
            return false;
        }
        const std::string_view body = tok.substr(0, tok.size() - 1);
        std::size_t split = std::string_view::npos;
        for (std::size_t k = body.size(); k-- > 1;) {
            if ((body[k] == '+' || body[k] == '-') && (body[k - 1] | 0x20) != 'e') {
                split = k;
                break;
            }
        }
        const DType part = complexPartType(t);
        double re = 0, im = 0;
        std::string_view imText = split == std::string_view::npos ? body : body.substr(split);
        if (!imText.empty() && imText[0] == '+') {
            imText.remove_prefix(1);
        }
        if (split == std::string_view::npos ? !parseFloatText(imText, part, im)
                                            : !parseFloatText(body.substr(0, split), part, re) ||
                                                  !parseFloatText(imText, part, im)) {
            return false;
        }
        if (t == DType::Complex64) {
            putElem(data, 2 * i, static_cast<float>(re));
            putElem(data, 2 * i + 1, static_cast<float>(im));
        } else {
            putElem(data, 2 * i, re);
            putElem(data, 2 * i + 1, im);
        }
        return true;
    }
    return false;  // String tensors have no element encoding
}

// Tensor elements: nested [...] lists of tokens separated by ',' or blanks (numpy style
// too); `...` anywhere means the data is not known.
bool collectElements(LineCursor& c, std::vector<std::string_view>& out, bool& ellipsis, int depth) {
    c.skipSpaces();
    if (c.eat("...")) {
        ellipsis = true;
        return true;
    }
    if (!c.eat('[')) {
        const std::string_view tok = readToken(c);
        if (tok.empty()) {
            return false;
        }
        out.push_back(tok);
        return true;
    }
    if (depth >= kMaxNesting) {
        tooDeep(c);
    }
    for (;;) {
        c.skipSpaces();
        if (c.eat(']')) {
            return true;
        }
        if (!collectElements(c, out, ellipsis, depth + 1)) {
            return false;
        }
        c.skipSpaces();
        c.eat(',');
    }
}

}  // namespace

// --- values --------------------------------------------------------------------------

ValuePtr ValueReader::value(LineCursor& c, int depth, bool callee) const {
    if (depth > kMaxNesting) {
        tooDeep(c);
    }
    c.skipSpaces();
    const std::size_t start = c.pos;
    const std::string_view stops = callee ? ",)]}([" : ",)]}";
    if (ValuePtr v = structured(c, depth, callee)) {
        const std::size_t after = c.pos;
        c.skipSpaces();
        if (c.atEnd() || stops.find(c.peek()) != std::string_view::npos) {
            c.pos = after;
            return v;
        }
    }
    c.pos = start;
    std::size_t e = c.scanBalanced(stops, false);
    while (e > start && isSpace(c.line()[e - 1])) {
        --e;
    }
    if (e == start) {
        c.fail("expected a value");
    }
    c.pos = e;
    return Value::opaque(std::string(c.slice(start, e)));
}

ValuePtr ValueReader::structured(LineCursor& c, int depth, bool callee) const {
    const char ch = c.peek();
    if (ch == '"') {
        return Value::string(c.readQuoted());
    }
    if (ch == '(' || ch == '[') {
        const char close = ch == '(' ? ')' : ']';
        ++c.pos;
        std::vector<ValuePtr> elems;
        c.skipSpaces();
        while (!c.eat(close)) {
            elems.push_back(value(c, depth + 1));
            c.skipSpaces();
            if (c.eat(close)) {
                break;
            }
            if (!c.eat(',')) {
                return nullptr;
            }
            c.skipSpaces();
        }
        return ch == '(' ? Value::tuple(std::move(elems)) : Value::list(std::move(elems));
    }
    if (ch == '@') {
        const std::size_t at = c.pos++;
        const std::string name = c.readName();
        FuncGraph* g = find_(name);
        if (g == nullptr) {
            if (!external_) {
                c.failAt(at, "unknown graph @" + name);
            }
            external_(c, at, name);
            return Value::opaque(std::string(c.slice(at, c.pos)));
        }
        return Value::graphRef(g);
    }
    if (!isIdentStart(static_cast<unsigned char>(ch))) {
        return nullptr;
    }
    const std::size_t b = c.pos;
    while (!c.atEnd() && isNameByte(static_cast<unsigned char>(c.peek()))) {
        ++c.pos;
    }
    const std::string_view id = c.slice(b, c.pos);
    if (c.peek() == '(') {
        if (id == "Tensor") {
            return tensorBody(c, depth);
        }
        if (id == "Prim") {
            return primBody(c, depth);
        }
        return scalarBody(c, id);
    }
    if (c.peek() == '[') {
        if (id == "UMonad" && c.eat("[U]")) {
            return Value::monadValue(MonadKind::U);
        }
        if (id == "IOMonad" && c.eat("[IO]")) {
            return Value::monadValue(MonadKind::IO);
        }
        return nullptr;
    }
    (void)callee;
    if (id == "None") {
        return Value::none();
    }
    if (id == "U" || id == "UMonad") {
        return Value::monadValue(MonadKind::U);
    }
    if (id == "IO" || id == "IOMonad") {
        return Value::monadValue(MonadKind::IO);
    }
    if (auto dt = dtypeFromName(id)) {
        return Value::type(*dt);
    }
    return Value::primitive(std::string(id));
}

ValuePtr ValueReader::scalarBody(LineCursor& c, std::string_view prefix) const {
    if (!c.eat('(')) {
        return nullptr;
    }
    c.skipSpaces();
    const std::string_view tok = readToken(c);
    c.skipSpaces();
    if (!c.eat(')')) {
        return nullptr;
    }
    if (prefix == "Bool") {
        bool b = false;
        return parseBoolText(tok, b) ? Value::boolean(b) : nullptr;
    }
    auto dt = dtypeFromScalarPrefix(prefix);
    if (!dt) {
        return nullptr;
    }
    if (isInteger(*dt)) {
        std::int64_t v = 0;
        return parseIntBits(tok, isUnsigned(*dt), v) ? Value::integer(v, *dt) : nullptr;
    }
    if (isFloat(*dt)) {
        double d = 0;
        return parseFloatText(tok, *dt, d) ? Value::floating(d, *dt) : nullptr;
    }
    return nullptr;
}

ValuePtr ValueReader::tensorBody(LineCursor& c, int depth) const {
    (void)depth;
    TensorData td;
    std::vector<std::int64_t> dims;
    auto field = [&](std::string_view name) {
        c.skipSpaces();
        if (!c.eat(name)) {
            return false;
        }
        c.skipSpaces();
        return c.eat('=');
    };
    if (!c.eat('(') || !field("shape") || (c.skipSpaces(), !c.eat('[')) || !c.readDims(']', dims)) {
        return nullptr;
    }
    c.skipSpaces();
    if (!c.eat(',') || !field("dtype")) {
        return nullptr;
    }
    c.skipSpaces();
    const std::size_t nb = c.pos;
    while (!c.atEnd() && isNameByte(static_cast<unsigned char>(c.peek()))) {
        ++c.pos;
    }
    auto dt = dtypeFromName(c.slice(nb, c.pos));
    c.skipSpaces();
    if (!dt || !c.eat(',') || !field("value")) {
        return nullptr;
    }
    std::vector<std::string_view> elems;
    bool ellipsis = false;
    if (!collectElements(c, elems, ellipsis, 0)) {
        return nullptr;
    }
    c.skipSpaces();
    if (!c.eat(')')) {
        return nullptr;
    }
    td.dtype = *dt;
    td.shape = Shape(std::move(dims));
    std::int64_t count = 1;
    bool isStatic = true;
    for (auto d : td.shape.dims) {
        if (d < 0) {
            isStatic = false;
        } else if (__builtin_mul_overflow(count, d, &count)) {
            return nullptr;  // no real tensor has that many elements; keep the text
        }
    }
    if (ellipsis) {
        return Value::tensorValue(std::move(td));
    }
    if (!isStatic || static_cast<std::uint64_t>(count) != elems.size()) {
        return nullptr;
    }
    td.data.resize(elems.size() * dtypeSize(*dt));
    for (std::size_t i = 0; i < elems.size(); ++i) {
        if (!storeElement(td.data, i, *dt, elems[i])) {
            return nullptr;
        }
    }
    return Value::tensorValue(std::move(td));
}

ValuePtr ValueReader::primBody(LineCursor& c, int depth) const {
    PrimitiveData p;
    if (!c.eat('(')) {
        return nullptr;
    }
    c.skipSpaces();
    if (c.peek() == '"') {
        p.name = c.readQuoted();
    } else {
        const std::size_t b = c.pos;
        while (!c.atEnd() && isNameByte(static_cast<unsigned char>(c.peek()))) {
            ++c.pos;
        }
        if (c.pos == b) {
            return nullptr;
        }
        p.name = std::string(c.slice(b, c.pos));
    }
    for (;;) {
        c.skipSpaces();
        if (c.eat(')')) {
            return Value::primitive(std::move(p));
        }
        if (!c.eat(',')) {
            return nullptr;
        }
        c.skipSpaces();
        if (c.eat("instance name:")) {
            c.skipSpaces();
            if (c.peek() != '"') {
                return nullptr;
            }
            p.instanceName = c.readQuoted();
        } else if (c.eat("primitive_attrs:")) {
            c.skipSpaces();
            if (c.peek() != '{') {
                return nullptr;
            }
            attrMap(c, p.attrs, depth + 1);
        } else {
            return nullptr;
        }
    }
}

std::string ValueReader::attrKey(LineCursor& c) const {
    c.skipSpaces();
    if (c.peek() == '"') {
        return c.readQuoted();
    }
    const std::size_t b = c.pos;
    while (!c.atEnd() && c.peek() != ':') {
        ++c.pos;
    }
    std::size_t e = c.pos;
    while (e > b && isSpace(c.line()[e - 1])) {
        --e;
    }
    return std::string(c.slice(b, e));
}

void ValueReader::attrMap(LineCursor& c, AttrMap& out, int depth) const {
    if (depth > kMaxNesting) {
        tooDeep(c);
    }
    ++c.pos;  // '{'
    c.skipSpaces();
    if (c.eat('}')) {
        return;
    }
    for (;;) {
        const std::size_t keyAt = c.pos;
        std::string key = attrKey(c);
        c.skipSpaces();
        if (!c.eat(':')) {
            c.failAt(keyAt, "expected 'key: value' in an attribute map");
        }
        ValuePtr v = value(c, depth + 1);
        out.set(std::move(key), std::move(v));
        c.skipSpaces();
        if (c.eat('}')) {
            return;
        }
        if (!c.eat(',')) {
            c.fail("expected ',' or '}' in an attribute map");
        }
        c.skipSpaces();
    }
}

ValuePtr ValueReader::lineAttrValue(LineCursor& c) const {
    c.skipSpaces();
    const std::string_view all = c.rest();
    if (all.empty()) {
        return Value::string({});
    }
    std::int64_t iv = 0;
    if (parseWhole(all, iv)) {
        c.pos = c.end;
        return iv == 0 || iv == 1 ? Value::boolean(iv == 1) : Value::integer(iv);
    }
    const std::size_t start = c.pos;
    ValuePtr v;
    try {
        v = structured(c, 0, false);
    } catch (const ParseError&) {
        v = nullptr;  // not a well-formed value: the raw text is the attribute
    }
    c.skipSpaces();
    // A bare name reads as raw text (`jit_level: O0`); `Prim(...)` is a primitive.
    const bool bareName = v && v->kind == Value::Kind::Primitive && !all.starts_with("Prim(");
    if (v && c.atEnd() && !bareName) {
        return v;
    }
    c.pos = c.end;
    return Value::string(std::string(c.slice(start, c.end)));
}

}  // namespace irscope::ir::text
