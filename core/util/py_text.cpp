#include "util/py_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace irscope::util {

char32_t decodeUtf8(std::string_view s, std::size_t i, std::size_t* len) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s.size()) {
        n = 1;
    }
    char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    }
    *len = n;
    return cp;
}

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

std::string encodeUtf8(char32_t c) {
    std::string s;
    appendUtf8(s, c);
    return s;
}

bool isPrintable(char32_t c) {
    if (c < 0x20 || c == 0x7F) {
        return false;
    }
    if (c < 0x7F) {
        return true;
    }
    if (c < 0xA1 || c == 0xAD) {
        return false;
    }
    if ((c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) ||
        (c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0xFEFF ||
        (c >= 0xD800 && c <= 0xDFFF)) {
        return false;
    }
    return true;
}

namespace {

void appendCodePointEscape(std::string& out, char32_t c) {
    char buf[16];
    const char* form = c <= 0xFF ? "\\x%02x" : c <= 0xFFFF ? "\\u%04x" : "\\U%08x";
    std::snprintf(buf, sizeof buf, form, static_cast<unsigned>(c));
    out += buf;
}

}  // namespace

std::string pyStrRepr(std::string_view s) {
    const bool single = s.find('\'') != std::string_view::npos;
    const bool dbl = s.find('"') != std::string_view::npos;
    const char q = single && !dbl ? '"' : '\'';
    std::string out(1, q);
    out.reserve(s.size() + 2);
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len = 1;
        const char32_t c = decodeUtf8(s, i, &len);
        if (c == static_cast<char32_t>(q) || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (!isPrintable(c)) {
            appendCodePointEscape(out, c);
        } else {
            out.append(s.substr(i, len));
        }
        i += len;
    }
    out += q;
    return out;
}

std::string pyAsciiEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len = 1;
        const char32_t c = decodeUtf8(s, i, &len);
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else {
            appendCodePointEscape(out, c);
        }
        i += len;
    }
    return out;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

std::optional<char> simpleEscape(char e) {
    switch (e) {
        case '\\': return '\\';
        case '\'': return '\'';
        case '"': return '"';
        case 'a': return '\a';
        case 'b': return '\b';
        case 'f': return '\f';
        case 'n': return '\n';
        case 'r': return '\r';
        case 't': return '\t';
        case 'v': return '\v';
        default: return std::nullopt;
    }
}

std::string pyFloatRepr(double v) {
    if (std::isnan(v)) {
        return "nan";
    }
    if (std::isinf(v)) {
        return v < 0 ? "-inf" : "inf";
    }
    // The shortest round-trip digits, in scientific form: [-]d[.ddd]e[+-]xx.
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    const std::string sci(buf, res.ptr);
    const std::size_t e = sci.find('e');
    const bool negative = sci[0] == '-';
    std::string digits;
    for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
        if (sci[i] != '.') {
            digits += sci[i];
        }
    }
    const int exp = std::stoi(sci.substr(e + 1));
    std::string out = negative ? "-" : "";
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
        } else if (static_cast<std::size_t>(exp) + 1 >= digits.size()) {
            out += digits + std::string(static_cast<std::size_t>(exp) + 1 - digits.size(), '0') + ".0";
        } else {
            out += digits.substr(0, static_cast<std::size_t>(exp) + 1) + "." +
                   digits.substr(static_cast<std::size_t>(exp) + 1);
        }
        return out;
    }
    out += digits.substr(0, 1);
    if (digits.size() > 1) {
        out += "." + digits.substr(1);
    }
    const int a = exp < 0 ? -exp : exp;
    out += std::string("e") + (exp < 0 ? "-" : "+") + (a < 10 ? "0" : "") + std::to_string(a);
    return out;
}

}  // namespace irscope::util
