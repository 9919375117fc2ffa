// The lexer's UTF-8 handling: decoding, validation of the whole source, identifier characters.
#include <cstdio>

#include "frontend/lexer.h"

namespace irscope::frontend {

char32_t decodeUtf8(std::string_view s, std::size_t i, int* len) {
    auto b = [&](std::size_t k) {
        return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
    };
    unsigned c = b(0);
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    if ((c & 0xE0) == 0xC0) {
        *len = 2;
        return ((c & 0x1F) << 6) | (b(1) & 0x3F);
    }
    if ((c & 0xF0) == 0xE0) {
        *len = 3;
        return ((c & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    }
    *len = 4;
    return ((c & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

bool isIdentifierCodePoint(char32_t c) {
    // Letters of every script are accepted; the symbol and punctuation blocks a script is most
    // likely to contain by accident (copy-pasted quotes, ×, ÷, arrows, NBSP, full-width
    // punctuation) are not.
    if (c < 0x80) {
        return false;
    }
    if (c <= 0xBF) {
        return c == 0xAA || c == 0xB5 || c == 0xBA;
    }
    if (c == 0xD7 || c == 0xF7) {
        return false;
    }
    if ((c >= 0x2000 && c <= 0x206F) || (c >= 0x20A0 && c <= 0x20CF) ||
        (c >= 0x2190 && c <= 0x2BFF) || (c >= 0x3000 && c <= 0x3003) ||
        (c >= 0x3008 && c <= 0x3020) || (c >= 0xFF01 && c <= 0xFF0F) ||
        (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) ||
        (c >= 0xFF5B && c <= 0xFF65) || (c >= 0xE000 && c <= 0xF8FF) || c == 0xFEFF ||
        (c >= 0xFFF0 && c <= 0xFFFF) || (c >= 0x1F000 && c <= 0x1FAFF)) {
        return false;
    }
    return true;
}

void Lexer::validateUtf8() {
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < src_.size();) {
        auto c = static_cast<unsigned char>(src_[i]);
        if (c == '\n') {
            ++line;
            lineStart = i + 1;
            ++i;
            continue;
        }
        if (c == 0) {
            fail(line, static_cast<int>(i - lineStart), "source code cannot contain null bytes");
        }
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
        bool ok = len > 0 && c <= 0xF4 && i + static_cast<std::size_t>(len) <= src_.size();
        for (int k = 1; ok && k < len; ++k) {
            ok = (static_cast<unsigned char>(src_[i + static_cast<std::size_t>(k)]) & 0xC0) == 0x80;
        }
        if (ok && len >= 3) {
            int dummy = 0;
            char32_t cp = decodeUtf8(src_, i, &dummy);
            ok = !(len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) &&
                 !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF));
        }
        if (!ok) {
            char buf[80];
            std::snprintf(buf, sizeof buf, "(unicode error) invalid UTF-8 byte 0x%02x", c);
            fail(line, static_cast<int>(i - lineStart), buf);
        }
        i += static_cast<std::size_t>(len);
    }
}

}  // namespace irscope::frontend
