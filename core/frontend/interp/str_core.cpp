// str internals: repetition, indexing by code point, case mapping.
#include <cstdio>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

std::vector<std::size_t> codePointOffsets(std::string_view s) {
    std::vector<std::size_t> offs;
    std::size_t i = 0;
    while (i < s.size()) {
        offs.push_back(i);
        std::size_t len = 1;
        util::decodeUtf8(s, i, &len);
        i += len;
    }
    offs.push_back(s.size());
    return offs;
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
