// str.format's field syntax ({0}, {name.attr[key]!r:spec}, nested specs) and printf-style
// `%` formatting.
#include <cmath>
#include <cstdio>
#include <functional>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

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
                        throw PyError(Exc::ValueError,
                                      std::string("Unknown conversion specifier ") + conv);
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
                                  "cannot switch from manual field specification to automatic "
                                  "field numbering");
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
                                  "cannot switch from automatic field numbering to manual field "
                                  "specification");
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
                    throw PyError(Exc::KeyError,
                                  std::vector<Value>{Value(I.newStr(std::string(first)))});
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
                    Value kv =
                        !key.empty() && key.find_first_not_of("0123456789") == std::string::npos
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

// --- printf-style
// ---------------------------------------------------------------------------------

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
        FormatSpec sp;
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
                    throw PyError(
                        Exc::TypeError,
                        std::string("%") + t + " format: " +
                            (t == 'o' || t == 'x' || t == 'X' ? "an integer" : "a real number") +
                            " is required, not " + I.typeName(v));
                }
                std::uint64_t mag =
                    n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
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
                    throw PyError(Exc::TypeError,
                                  std::string("must be real number, not ") + I.typeName(v));
                }
                double d = toDouble(I, v);
                std::string spec;
                if (sp.alt) {
                    spec += '#';
                }
                spec += '.';
                spec += std::to_string(sp.precision < 0 ? 6 : sp.precision);
                spec += t;
                body = formatFloat(std::fabs(d), spec, "float");
                prefix = signPrefix(std::signbit(d) && !std::isnan(d), sp.sign);
                break;
            }
            case 'c':
                if (v.isIntLike()) {
                    body = util::encodeUtf8(static_cast<char32_t>(v.intLike()));
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
                std::snprintf(buf, sizeof buf, "%x",
                              static_cast<unsigned>(static_cast<unsigned char>(t)));
                (void)start;
                throw PyError(Exc::ValueError, std::string("unsupported format character '") + t +
                                                   "' (0x" + buf + ") at index " +
                                                   std::to_string(i));
            }
        }
        out += padFormatted(sp, prefix, body, '>');
    }
    if (next < items.size() && !usedMapping && !mapping) {
        throw PyError(Exc::TypeError, "not all arguments converted during string formatting");
    }
    return out;
}

}  // namespace irscope::interp
