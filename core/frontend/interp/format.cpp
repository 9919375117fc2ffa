// Python's format mini-language (format(), f-strings, str.format specs) for int, float, str.
#include <cmath>
#include <cstdio>

#include "frontend/interp/interp_internal.h"
#include "runtime/float_format.h"

namespace irscope::interp {

namespace {
std::int64_t cpLen(std::string_view s) {
    return static_cast<std::int64_t>(codePointOffsets(s).size() - 1);
}
}  // namespace

// Pads `body` (after `prefix`: sign and 0x) to the width.
std::string padFormatted(const FormatSpec& sp, const std::string& prefix, const std::string& body,
                         char defaultAlign) {
    std::int64_t len = cpLen(prefix) + cpLen(body);
    if (sp.width <= len) {
        return prefix + body;
    }
    std::int64_t n = sp.width - len;
    char align = sp.align ? sp.align : defaultAlign;
    switch (align) {
        case '<':
            return prefix + body + repeatString(sp.fill, n);
        case '^':
            return repeatString(sp.fill, n / 2) + prefix + body + repeatString(sp.fill, n - n / 2);
        case '=':
            return prefix + repeatString(sp.fill, n) + body;
        default:
            return repeatString(sp.fill, n) + prefix + body;
    }
}

std::string signPrefix(bool negative, char sign) {
    if (negative) {
        return "-";
    }
    return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

namespace {

bool isAlign(char c) {
    return c == '<' || c == '>' || c == '=' || c == '^';
}

FormatSpec parseSpec(std::string_view s, std::string_view typeName) {
    FormatSpec sp;
    std::size_t i = 0;
    std::size_t firstLen = 1;
    if (!s.empty()) {
        util::decodeUtf8(s, 0, &firstLen);
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
        throw PyError(Exc::ValueError, "Invalid format specifier '" + std::string(s) +
                                           "' for object of type '" + std::string(typeName) + "'");
    }
    if (sp.zero && sp.align == 0) {
        sp.fill.assign(1, '0');
        sp.align = '=';
    }
    return sp;
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
std::string zeroPadGrouped(const FormatSpec& sp, const std::string& prefix,
                           const std::string& intDigits, const std::string& rest, int every) {
    std::string body = group(intDigits, sp.grouping, every) + rest;
    if (sp.fill == "0" && sp.align == '=' && sp.grouping &&
        sp.width > cpLen(prefix) + cpLen(body)) {
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
    return padFormatted(sp, prefix, body, '>');
}

}  // namespace

std::string formatInt(std::int64_t v, std::string_view specText, std::string_view typeName) {
    FormatSpec sp = parseSpec(specText, typeName);
    char t = sp.type;
    if (t == 'e' || t == 'E' || t == 'f' || t == 'F' || t == 'g' || t == 'G' || t == '%') {
        return formatFloat(static_cast<double>(v), specText, typeName);
    }
    if (t != 0 && t != 'd' && t != 'n' && t != 'b' && t != 'o' && t != 'x' && t != 'X' &&
        t != 'c') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + t +
                                           "' for object of type '" + std::string(typeName) + "'");
    }
    if (sp.precision >= 0) {
        throw PyError(Exc::ValueError, "Precision not allowed in integer format specifier");
    }
    if (sp.grouping == ',' &&
        (t == 'b' || t == 'o' || t == 'x' || t == 'X' || t == 'n' || t == 'c')) {
        throw PyError(Exc::ValueError, std::string("Cannot specify ',' with '") + t + "'.");
    }
    if (t == 'c') {
        if (sp.sign) {
            throw PyError(Exc::ValueError, "Sign not allowed with integer format specifier 'c'");
        }
        if (v < 0 || v > 0x10FFFF) {
            throw PyError(Exc::OverflowError, "%c arg not in range(0x110000)");
        }
        return padFormatted(sp, "", util::encodeUtf8(static_cast<char32_t>(v)), '<');
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
    FormatSpec sp = parseSpec(specText, typeName);
    char t = sp.type;
    if (t != 0 && t != 'e' && t != 'E' && t != 'f' && t != 'F' && t != 'g' && t != 'G' &&
        t != 'n' && t != '%') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + t +
                                           "' for object of type '" + std::string(typeName) + "'");
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
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*f" : "%.*f",
                              static_cast<int>(p < 0 ? 6 : p), a);
                body = buf;
                break;
            case 'e':
            case 'E':
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*e" : "%.*e",
                              static_cast<int>(p < 0 ? 6 : p), a);
                body = buf;
                break;
            case 'g':
            case 'G':
            case 'n':
                std::snprintf(buf, sizeof buf, sp.alt ? "%#.*g" : "%.*g",
                              static_cast<int>(p < 0 ? 6 : (p == 0 ? 1 : p)), a);
                body = buf;
                break;
            default:  // no type: repr, or 'g' keeping a ".0"
                if (p < 0) {
                    body = runtime::formatPyFloat(a);
                } else {
                    std::snprintf(buf, sizeof buf, sp.alt ? "%#.*g" : "%.*g",
                                  static_cast<int>(p == 0 ? 1 : p), a);
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
        FormatSpec s2 = sp;
        if (s2.fill == "0" && s2.align == '=' && sp.zero) {
            s2.fill = "0";
        }
        return padFormatted(s2, prefix, body, '>');
    }
    return zeroPadGrouped(sp, prefix, body.substr(0, intEnd), body.substr(intEnd), 3);
}

std::string formatStrSpec(std::string_view s, std::string_view specText) {
    if (specText.empty()) {
        return std::string(s);
    }
    FormatSpec sp = parseSpec(specText, "str");
    if (sp.type != 0 && sp.type != 's') {
        throw PyError(Exc::ValueError, std::string("Unknown format code '") + sp.type +
                                           "' for object of type 'str'");
    }
    if (sp.sign) {
        throw PyError(Exc::ValueError, "Sign not allowed in string format specifier");
    }
    if (sp.alt) {
        throw PyError(Exc::ValueError, "Alternate form (#) not allowed in string format specifier");
    }
    if (sp.grouping) {
        throw PyError(Exc::ValueError,
                      std::string("Cannot specify '") + sp.grouping + "' with 's'.");
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
    return padFormatted(sp, "", body, '<');
}

}  // namespace irscope::interp
