// Python's format mini-language (format(), f-strings, str.format) for int, float and str,
// str.format's field syntax, and printf-style `%` formatting.
#include <cmath>
#include <cstdio>

#include "frontend/interp/interp_internal.h"
#include "runtime/float_format.h"

namespace irscope::interp {

namespace {

struct Spec {
    std::string fill = " ";
    char align = 0;  // < > = ^ or 0
    char sign = 0;   // + - space or 0
    bool zeroNeg = false;  // 'z'
    bool alt = false;      // '#'
    bool zero = false;     // '0'
    std::int64_t width = -1;
    char grouping = 0;  // , _ or 0
    std::int64_t precision = -1;
    char type = 0;
};

bool isAlign(char c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

Spec parseSpec(std::string_view s, std::string_view typeName) {
    Spec sp;
    std::size_t i = 0;
    std::size_t firstLen = 1;
    if (!s.empty()) {
        decodeAt(s, 0, &firstLen);
    }
    if (s.size() > firstLen && isAlign(s[firstLen])) {
        sp.fill = std::string(s.substr(0, firstLen));
        sp.align = s[firstLen];
        i = firstLen + 1;
    } else if (!s.empty() && isAlign(s[0])) {
        sp.align = s[0];
        i = 1;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) {
        sp.sign = s[i++];
    }
    if (i < s.size() && s[i] == 'z') {
        sp.zeroNeg = true;
        ++i;
    }
    if (i < s.size() && s[i] == '#') {
        sp.alt = true;
        ++i;
    }
    if (i < s.size() && s[i] == '0') {
        sp.zero = true;
        ++i;
    }
    auto digits = [&](std::int64_t* out) {
        std::size_t b = i;
        std::int64_t v = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
            v = v * 10 + (s[i] - '0');
            if (v > 1000000000) {
                throw PyError(Exc::ValueError, "Too many decimal digits in format string");
            }
            ++i;
        }
        if (i > b) {
            *out = v;
        }
        return i > b;
    };
    digits(&sp.width);
    if (i < s.size() && (s[i] == ',' || s[i] == '_')) {
        sp.grouping = s[i++];
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits(&sp.precision)) {
            throw PyError(Exc::ValueError, "Format specifier missing precision");
        }
    }
    if (i < s.size()) {
        sp.type = s[i++];
    }
    if (i < s.size()) {
        throw PyError(Exc::ValueError, "Invalid format specifier '" + std::string(s) + "' for object of type '" +
                                           std::string(typeName) + "'");
    }
    if (sp.zero && sp.align == 0) {
        sp.fill = "0";
        sp.align = '=';
    }
    return sp;
}

std::int64_t cpLen(std::string_view s) { return static_cast<std::int64_t>(codePointOffsets(s).size() - 1); }

// Pads `body` (after `prefix`: sign and 0x) to the width.
std::string padded(const Spec& sp, const std::string& prefix, const std::string& body, char defaultAlign) {
    std::int64_t len = cpLen(prefix) + cpLen(body);
    if (sp.width <= len) {
        return prefix + body;
    }
    std::int64_t n = sp.width - len;
    char align = sp.align ? sp.align : defaultAlign;
    switch (align) {
        case '<': return prefix + body + repeatString(sp.fill, n);
        case '^': return repeatString(sp.fill, n / 2) + prefix + body + repeatString(sp.fill, n - n / 2);
        case '=': return prefix + repeatString(sp.fill, n) + body;
        default: return repeatString(sp.fill, n) + prefix + body;
    }
}

// Inserts `sep` every `every` digits from the right of the integer digits in `digits`.
std::string group(const std::string& digits, char sep, int every) {
    if (!sep) {
        return digits;
    }
    std::string out;
    int n = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (n > 0 && n % every == 0) {
            out.insert(out.begin(), sep);
        }
        out.insert(out.begin(), *it);
        ++n;
    }
    return out;
}

// Grouping with '0' padding: the padding zeros are grouped too (format(12, '010,')).
std::string zeroPadGrouped(const Spec& sp, const std::string& prefix, const std::string& intDigits,
                           const std::string& rest, int every) {
    std::string body = group(intDigits, sp.grouping, every) + rest;
    if (sp.fill == "0" && sp.align == '=' && sp.grouping && sp.width > cpLen(prefix) + cpLen(body)) {
        std::string digits = intDigits;
        while (cpLen(prefix) + cpLen(group(digits, sp.grouping, every) + rest) < sp.width) {
            digits.insert(digits.begin(), '0');
        }
        body = group(digits, sp.grouping, every) + rest;
        if (cpLen(prefix) + cpLen(body) > sp.width && body[0] == sp.grouping) {
            body.erase(0, 1);
        }
        return prefix + body;
    }
    return padded(sp, prefix, body, '>');
}

std::string signPrefix(bool negative, char sign) {
    if (negative) {
        return "-";
    }
    return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

}  // namespace

std::string formatInt(std::int64_t v, std::string_view specText, std::string_view typeName) {
    Spec sp = parseSpec(specText, typeName);
    char t = sp.type;
    if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
        return formatFloat(static_cast<double>(v), specText, typeName);
    }
    if (t != 0 && t != 'd' && t != 'n' && t != 'b' && t != 'o' && t != 'x' && t != 'X' && t != 'c') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + t + "' for object of type '" +
                                           std::string(typeName) + "'");
    }
    if (sp.precision >= 0) {
        throw PyError(Exc::ValueError, "Precision not allowed in integer format specifier");
    }
    if (sp.grouping == ',' && (t == 'b' || t == 'o' || t == 'x' || t == 'X' || t == 'n' || t == 'c')) {
        throw PyError(Exc::ValueError, std::string("Cannot specify ',' with '") + t + "'.");
    }
    if (t == 'c') {
        if (sp.sign) {
            throw PyError(Exc::ValueError, "Sign not allowed with integer format specifier 'c'");
        }
        if (v < 0 || v > 0x10FFFF) {
            throw PyError(Exc::OverflowError, "%c arg not in range(0x110000)");
        }
        return padded(sp, "", encodeUtf8(static_cast<char32_t>(v)), '<');
    }
    bool neg = v < 0;
    std::uint64_t mag = neg ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    std::string digits;
    int base = t == 'b' ? 2 : t == 'o' ? 8 : (t == 'x' || t == 'X') ? 16 : 10;
    const char* alphabet = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        digits.insert(digits.begin(), alphabet[mag % static_cast<unsigned>(base)]);
        mag /= static_cast<unsigned>(base);
    } while (mag);
    std::string prefix = signPrefix(neg, sp.sign);
    if (sp.alt && base != 10) {
        prefix += t == 'b' ? "0b" : t == 'o' ? "0o" : t == 'X' ? "0X" : "0x";
    }
    return zeroPadGrouped(sp, prefix, digits, "", base == 10 ? 3 : 4);
}

std::string formatFloat(double v, std::string_view specText, std::string_view typeName) {
    Spec sp = parseSpec(specText, typeName);
    char t = sp.type;
    if (t != 0 && t != 'e' && t != 'E' && t != 'f' && t != 'F' && t != 'g' && t != 'G' && t != 'n' && t != '%') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + t + "' for object of type '" +
                                           std::string(typeName) + "'");
    }
    if (sp.grouping == ',' && t == 'n') {
        throw PyError(Exc::ValueError, "Cannot specify ',' with 'n'.");
    }
    if (t == '%') {
        v *= 100;
    }
    bool neg = std::signbit(v) && !std::isnan(v);
    double a = std::fabs(v);
    std::string body;
    if (std::isinf(a) || std::isnan(a)) {
        body = std::isinf(a) ? "inf" : "nan";
        if (t == 'E' || t == 'F' || t == 'G') {
            body = std::isinf(a) ? "INF" : "NAN";
        }
        if (t == '%') {
            body += "%";
        }
    } else {
        char buf[512];
        std::int64_t p = sp.precision;
        if (p > 400) {
            p = 400;
        }
        switch (t) {
            case 'f':
            case 'F':
            case '%':
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*f" : "%.*f", static_cast<int>(p < 0 ? 6 : p), a);
                body = buf;
                break;
            case 'e':
            case 'E':
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*e" : "%.*e", static_cast<int>(p < 0 ? 6 : p), a);
                body = buf;
                break;
            case 'g':
            case 'G':
            case 'n':
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*g" : "%.*g", static_cast<int>(p < 0 ? 6 : (p == 0 ? 1 : p)), a);
                body = buf;
                break;
            default:  // no type: repr, or 'g' keeping a ".0"
                if (p < 0) {
                    body = runtime::formatPyFloat(a);
                } else {
                    std::snprintf(buf, sizeof buf, sp.alt ? "%#.*g" : "%.*g", static_cast<int>(p == 0 ? 1 : p), a);
                    body = buf;
                    if (body.find_first_of(".e") == std::string::npos) {
                        body += ".0";
                    }
                }
        }
        if (t == 'E' || t == 'G') {
            for (char& c : body) {
                c = c == 'e' ? 'E' : c;
            }
        }
        if (t == '%') {
            body += "%";
        }
        if (neg && sp.zeroNeg) {
            bool allZero = body.find_first_of("123456789") == std::string::npos;
            neg = !allZero;
        }
    }
    std::string prefix = signPrefix(neg, sp.sign);
    std::size_t intEnd = body.find_first_not_of("0123456789");
    if (intEnd == std::string::npos) {
        intEnd = body.size();
    }
    if (std::isinf(a) || std::isnan(a)) {
        Spec s2 = sp;
        if (s2.fill == "0" && s2.align == '=' && sp.zero) {
            s2.fill = "0";
        }
        return padded(s2, prefix, body, '>');
    }
    return zeroPadGrouped(sp, prefix, body.substr(0, intEnd), body.substr(intEnd), 3);
}

std::string formatStrSpec(std::string_view s, std::string_view specText) {
    if (specText.empty()) {
        return std::string(s);
    }
    Spec sp = parseSpec(specText, "str");
    if (sp.type != 0 && sp.type != 's') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + sp.type + "' for object of type 'str'");
    }
    if (sp.sign) {
        throw PyError(Exc::ValueError, "Sign not allowed in string format specifier");
    }
    if (sp.alt) {
        throw PyError(Exc::ValueError, "Alternate form (#) not allowed in string format specifier");
    }
    if (sp.grouping) {
        throw PyError(Exc::ValueError, std::string("Cannot specify '") + sp.grouping + "' with 's'.");
    }
    if (sp.align == '=') {
        throw PyError(Exc::ValueError, "'=' alignment not allowed in string format specifier");
    }
    std::string body(s);
    if (sp.precision >= 0) {
        std::vector<std::size_t> offs = codePointOffsets(s);
        if (static_cast<std::size_t>(sp.precision) + 1 < offs.size()) {
            body = std::string(s.substr(0, offs[static_cast<std::size_t>(sp.precision)]));
        }
    }
    return padded(sp, "", body, '<');
}

// --- str.format ---------------------------------------------------------------------------------

std::string strFormat(Interpreter& I, std::string_view fmt, const CallArgs& args) {
    std::string out;
    int autoIndex = 0;
    enum { Unknown, Auto, Manual } numbering = Unknown;
    std::function<std::string(std::string_view, int)> render = [&](std::string_view f, int depth) {
        std::string res;
        for (std::size_t i = 0; i < f.size(); ++i) {
            char c = f[i];
            if (c == '}') {
                if (i + 1 < f.size() && f[i + 1] == '}') {
                    res += '}';
                    ++i;
                    continue;
                }
                throw PyError(Exc::ValueError, "Single '}' encountered in format string");
            }
            if (c != '{') {
                res += c;
                continue;
            }
            if (i + 1 < f.size() && f[i + 1] == '{') {
                res += '{';
                ++i;
                continue;
            }
            // Find the matching '}' (nested braces belong to the spec).
            std::size_t j = i + 1;
            int level = 1;
            while (j < f.size() && level > 0) {
                if (f[j] == '{') {
                    ++level;
                } else if (f[j] == '}') {
                    --level;
                }
                if (level > 0) {
                    ++j;
                }
            }
            if (j >= f.size()) {
                if (f.find('}', i) == std::string_view::npos) {
                    throw PyError(Exc::ValueError, "Single '{' encountered in format string");
                }
                throw PyError(Exc::ValueError, "expected '}' before end of string");
            }
            std::string_view field = f.substr(i + 1, j - i - 1);
            i = j;
            std::string_view spec;
            char conv = 0;
            std::size_t colon = std::string_view::npos;
            for (std::size_t k = 0, br = 0; k < field.size(); ++k) {
                if (field[k] == '[') {
                    ++br;
                } else if (field[k] == ']') {
                    br = br ? br - 1 : 0;
                } else if (br == 0 && (field[k] == ':' || field[k] == '!')) {
                    colon = k;
                    break;
                }
            }
            std::string_view name = field.substr(0, colon);
            if (colon != std::string_view::npos) {
                std::string_view rest = field.substr(colon);
                if (rest[0] == '!') {
                    if (rest.size() < 2 || (rest.size() > 2 && rest[2] != ':')) {
                        throw PyError(Exc::ValueError, "expected ':' after conversion specifier");
                    }
                    conv = rest[1];
                    if (conv != 'r' && conv != 's' && conv != 'a') {
                        throw PyError(Exc::ValueError, std::string("Unknown conversion specifier ") + conv);
                    }
                    rest = rest.size() > 2 ? rest.substr(3) : std::string_view();
                } else {
                    rest = rest.substr(1);
                }
                spec = rest;
            }
            // The first part of the name: an index, a keyword, or empty (automatic).
            std::size_t endFirst = name.find_first_of(".[");
            std::string_view first = name.substr(0, endFirst);
            Value obj;
            if (first.empty()) {
                if (numbering == Manual) {
                    throw PyError(Exc::ValueError,
                                  "cannot switch from manual field specification to automatic field numbering");
                }
                numbering = Auto;
                int idx = autoIndex++;
                if (static_cast<std::size_t>(idx) >= args.pos.size()) {
                    throw PyError(Exc::IndexError, "Replacement index " + std::to_string(idx) +
                                                       " out of range for positional args tuple");
                }
                obj = args.pos[static_cast<std::size_t>(idx)];
            } else if (first.find_first_not_of("0123456789") == std::string_view::npos) {
                if (numbering == Auto) {
                    throw PyError(Exc::ValueError,
                                  "cannot switch from automatic field numbering to manual field specification");
                }
                numbering = Manual;
                std::size_t idx = std::stoul(std::string(first));
                if (idx >= args.pos.size()) {
                    throw PyError(Exc::IndexError, "Replacement index " + std::to_string(idx) +
                                                       " out of range for positional args tuple");
                }
                obj = args.pos[idx];
            } else {
                obj = args.kwarg(first);
                if (obj.isNull()) {
                    throw PyError(Exc::KeyError, std::vector<Value>{Value(I.newStr(std::string(first)))});
                }
            }
            // .attr and [key] accessors.
            std::size_t k = endFirst == std::string_view::npos ? name.size() : endFirst;
            while (k < name.size()) {
                if (name[k] == '.') {
                    std::size_t e = name.find_first_of(".[", k + 1);
                    if (e == std::string_view::npos) {
                        e = name.size();
                    }
                    obj = I.getAttr(obj, name.substr(k + 1, e - k - 1));
                    k = e;
                } else {
                    std::size_t e = name.find(']', k);
                    if (e == std::string_view::npos) {
                        throw PyError(Exc::ValueError, "Missing ']' in format string");
                    }
                    std::string key(name.substr(k + 1, e - k - 1));
                    Value kv = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos
                                   ? Value::integer(std::stoll(key))
                                   : Value(I.newStr(key));
                    obj = I.getItem(obj, kv);
                    k = e + 1;
                }
            }
            std::string specText = depth < 2 ? render(spec, depth + 1) : std::string(spec);
            if (conv == 'r') {
                res += formatStrSpec(I.repr(obj), specText);
            } else if (conv == 's') {
                res += formatStrSpec(I.str(obj), specText);
            } else if (conv == 'a') {
                res += formatStrSpec(I.repr(obj), specText);
            } else {
                res += I.format(obj, specText);
            }
        }
        return res;
    };
    out = render(fmt, 0);
    return out;
}

// --- printf-style ---------------------------------------------------------------------------------

std::string percentFormat(Interpreter& I, std::string_view fmt, const Value& args) {
    std::vector<Value> items;
    const DictObject* mapping = nullptr;
    if (const auto* t = args.as<TupleObject>()) {
        items = t->items;
    } else {
        items.push_back(args);
        if (args.is<DictObject>()) {
            mapping = args.as<DictObject>();
        }
    }
    std::size_t next = 0;
    bool usedMapping = false;
    auto take = [&]() -> Value {
        if (next >= items.size()) {
            throw PyError(Exc::TypeError, "not enough arguments for format string");
        }
        return items[next++];
    };
    std::string out;
    for (std::size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') {
            out += fmt[i];
            continue;
        }
        std::size_t start = i;
        ++i;
        if (i >= fmt.size()) {
            throw PyError(Exc::ValueError, "incomplete format");
        }
        Value keyed;
        if (fmt[i] == '(') {
            std::size_t e = fmt.find(')', i);
            if (e == std::string_view::npos) {
                throw PyError(Exc::ValueError, "incomplete format key");
            }
            if (!mapping) {
                throw PyError(Exc::TypeError, "format requires a mapping");
            }
            keyed = I.getItem(args, Value(I.newStr(std::string(fmt.substr(i + 1, e - i - 1)))));
            usedMapping = true;
            i = e + 1;
        }
        Spec sp;
        bool left = false;
        for (; i < fmt.size(); ++i) {
            char c = fmt[i];
            if (c == '-') {
                left = true;
            } else if (c == '+' || c == ' ') {
                sp.sign = sp.sign == '+' ? '+' : c;
            } else if (c == '#') {
                sp.alt = true;
            } else if (c == '0') {
                sp.zero = true;
            } else {
                break;
            }
        }
        if (i < fmt.size() && fmt[i] == '*') {
            sp.width = I.toIndex(take());
            if (sp.width < 0) {
                left = true;
                sp.width = -sp.width;
            }
            ++i;
        } else {
            while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
                sp.width = (sp.width < 0 ? 0 : sp.width) * 10 + (fmt[i++] - '0');
            }
        }
        if (i < fmt.size() && fmt[i] == '.') {
            ++i;
            sp.precision = 0;
            if (i < fmt.size() && fmt[i] == '*') {
                sp.precision = I.toIndex(take());
                ++i;
            } else {
                while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
                    sp.precision = sp.precision * 10 + (fmt[i++] - '0');
                }
            }
        }
        while (i < fmt.size() && (fmt[i] == 'l' || fmt[i] == 'h' || fmt[i] == 'L')) {
            ++i;
        }
        if (i >= fmt.size()) {
            throw PyError(Exc::ValueError, "incomplete format");
        }
        char t = fmt[i];
        if (t == '%') {
            out += '%';
            continue;
        }
        Value v = keyed.isNull() ? take() : keyed;
        if (left) {
            sp.align = '<';
        } else if (sp.zero && t != 's' && t != 'r' && t != 'a' && t != 'c') {
            sp.align = '=';
            sp.fill = "0";
        } else {
            sp.align = '>';
        }
        std::string body, prefix;
        switch (t) {
            case 'd':
            case 'i':
            case 'u':
            case 'o':
            case 'x':
            case 'X': {
                std::int64_t n;
                if (v.isIntLike()) {
                    n = v.intLike();
                } else if (v.isFloat() && (t == 'd' || t == 'i' || t == 'u')) {
                    n = floatToInt(v.asFloat());
                } else if (v.isObj() && !I.typeOf(v)->lookup("__index__").isNull()) {
                    n = I.toIndex(v);
                } else {
                    throw PyError(Exc::TypeError, std::string("%") + t + " format: " +
                                                      (t == 'o' || t == 'x' || t == 'X' ? "an integer" : "a real number") +
                                                      " is required, not " + I.typeName(v));
                }
                std::uint64_t mag = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
                int base = t == 'o' ? 8 : (t == 'x' || t == 'X') ? 16 : 10;
                const char* alphabet = t == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
                do {
                    body.insert(body.begin(), alphabet[mag % static_cast<unsigned>(base)]);
                    mag /= static_cast<unsigned>(base);
                } while (mag);
                if (sp.precision > static_cast<std::int64_t>(body.size())) {
                    body.insert(0, static_cast<std::size_t>(sp.precision) - body.size(), '0');
                }
                prefix = signPrefix(n < 0, sp.sign);
                if (sp.alt && base != 10) {
                    prefix += t == 'o' ? "0o" : t == 'X' ? "0X" : "0x";
                }
                break;
            }
            case 'e':
            case 'E':
            case 'f':
            case 'F':
            case 'g':
            case 'G': {
                if (!v.isNumber() && !(v.isObj() && !I.typeOf(v)->lookup("__float__").isNull())) {
                    throw PyError(Exc::TypeError, std::string("must be real number, not ") + I.typeName(v));
                }
                double d = toDouble(I, v);
                std::string spec;
                if (sp.alt) {
                    spec += '#';
                }
                spec += "." + std::to_string(sp.precision < 0 ? 6 : sp.precision) + t;
                body = formatFloat(std::fabs(d), spec, "float");
                prefix = signPrefix(std::signbit(d) && !std::isnan(d), sp.sign);
                break;
            }
            case 'c':
                if (v.isIntLike()) {
                    body = encodeUtf8(static_cast<char32_t>(v.intLike()));
                } else if (const auto* s = v.as<StrObject>(); s && s->length() == 1) {
                    body = s->value;
                } else {
                    throw PyError(Exc::TypeError, "%c requires int or char");
                }
                break;
            case 's':
            case 'r':
            case 'a':
                body = t == 's' ? I.str(v) : I.repr(v);
                if (sp.precision >= 0) {
                    std::vector<std::size_t> offs = codePointOffsets(body);
                    if (static_cast<std::size_t>(sp.precision) + 1 < offs.size()) {
                        body = body.substr(0, offs[static_cast<std::size_t>(sp.precision)]);
                    }
                }
                break;
            default: {
                char buf[16];
                std::snprintf(buf, sizeof buf, "%x", static_cast<unsigned>(static_cast<unsigned char>(t)));
                (void)start;
                throw PyError(Exc::ValueError, std::string("unsupported format character '") + t + "' (0x" + buf +
                                                   ") at index " + std::to_string(i));
            }
        }
        out += padded(sp, prefix, body, '>');
    }
    if (next < items.size() && !usedMapping && !mapping) {
        throw PyError(Exc::TypeError, "not all arguments converted during string formatting");
    }
    return out;
}

}  // namespace irscope::interp
