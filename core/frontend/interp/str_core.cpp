// str internals: UTF-8 decoding, repr(), repetition, indexing by code point, case mapping.
#include <cstdio>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

char32_t decodeAt(std::string_view s, std::size_t i, std::size_t* len) {
    auto c = static_cast<unsigned char>(s[i]);
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

std::string encodeUtf8(char32_t c) {
    std::string s;
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

std::vector<std::size_t> codePointOffsets(std::string_view s) {
    std::vector<std::size_t> offs;
    std::size_t i = 0;
    while (i < s.size()) {
        offs.push_back(i);
        std::size_t len = 1;
        decodeAt(s, i, &len);
        i += len;
    }
    offs.push_back(s.size());
    return offs;
}

namespace {

bool printable(char32_t c) {
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

}  // namespace

std::string reprString(std::string_view s) {
    bool single = s.find('\'') != std::string_view::npos;
    bool dbl = s.find('"') != std::string_view::npos;
    char q = single && !dbl ? '"' : '\'';
    std::string out(1, q);
    for (std::size_t i = 0; i < s.size();) {
        std::size_t len = 1;
        char32_t c = decodeAt(s, i, &len);
        if (c == static_cast<char32_t>(q) || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (!printable(c)) {
            char buf[16];
            if (c <= 0xFF) {
                std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
            } else if (c <= 0xFFFF) {
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
            } else {
                std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
            }
            out += buf;
        } else {
            out.append(s.substr(i, len));
        }
        i += len;
    }
    out += q;
    return out;
}

std::string repeatString(std::string_view s, std::int64_t n) {
    std::string out;
    if (n <= 0 || s.empty()) {
        return out;
    }
    if (static_cast<double>(s.size()) * static_cast<double>(n) > kMaxRepeatBytes) {
        throw PyError(Exc::MemoryError, "irscope: a str of more than 2**28 bytes is not supported");
    }
    out.reserve(s.size() * static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        out += s;
    }
    return out;
}

Value strGetItem(Interpreter& I, const StrObject& s, const Value& key) {
    const bool ascii = s.isAscii();
    std::vector<std::size_t> offs;
    if (!ascii) {
        offs = codePointOffsets(s.value);
    }
    const auto n = static_cast<std::int64_t>(ascii ? s.value.size() : offs.size() - 1);
    auto at = [&](std::int64_t i) {
        auto u = static_cast<std::size_t>(i);
        return ascii ? s.value.substr(u, 1) : s.value.substr(offs[u], offs[u + 1] - offs[u]);
    };
    if (const auto* sl = key.as<SliceObject>()) {
        SliceIndices ix = sliceIndices(I, *sl, n);
        std::string out;
        if (ix.step == 1 && ascii) {
            out = s.value.substr(static_cast<std::size_t>(ix.start),
                                 static_cast<std::size_t>(ix.length));
        } else {
            for (std::int64_t k = 0, i = ix.start; k < ix.length; ++k, i += ix.step) {
                out += at(i);
            }
        }
        return Value(I.newStr(std::move(out)));
    }
    if (!key.isIntLike() && !(key.isObj() && !I.typeOf(key)->lookup("__index__").isNull())) {
        throw PyError(Exc::TypeError,
                      "string indices must be integers, not '" + I.typeName(key) + "'");
    }
    std::int64_t i = normalizeIndex(I.toIndex(key), n);
    if (i < 0) {
        throw PyError(Exc::IndexError, "string index out of range");
    }
    return Value(I.newStr(at(i)));
}

// Simple case mapping: ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic letters.
char32_t upperOf(char32_t c) {
    if (c >= 'a' && c <= 'z') {
        return c - 32;
    }
    if (c < 0x80) {
        return c;
    }
    if ((c >= 0xE0 && c <= 0xFE && c != 0xF7) || (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) ||
        (c >= 0x430 && c <= 0x44F)) {
        return c - 32;
    }
    if (c >= 0x450 && c <= 0x45F) {
        return c - 80;
    }
    if (c >= 0x100 && c <= 0x17F && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
        bool oddLower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        return oddLower ? ((c & 1) ? c : c - 1) : ((c & 1) ? c - 1 : c);
    }
    return c;
}

char32_t lowerOf(char32_t c) {
    if (c >= 'A' && c <= 'Z') {
        return c + 32;
    }
    if (c < 0x80) {
        return c;
    }
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7) || (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) ||
        (c >= 0x410 && c <= 0x42F)) {
        return c + 32;
    }
    if (c >= 0x400 && c <= 0x40F) {
        return c + 80;
    }
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x17F) {
        bool oddLower = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        return oddLower ? ((c & 1) ? c + 1 : c) : ((c & 1) ? c : c + 1);
    }
    return c;
}

}  // namespace irscope::interp
