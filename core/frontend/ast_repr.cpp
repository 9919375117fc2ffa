// Python-style text of values: repr() of a float, decimal text of int literals.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "frontend/ast.h"

namespace irscope::ast {

std::string pyRepr(double d) {
    if (d != d) {
        return "nan";
    }
    if (d == 1.0 / 0.0) {
        return "inf";
    }
    if (d == -1.0 / 0.0) {
        return "-inf";
    }
    // Shortest round-trip digits, then Python's layout: positional for exponents in
    // [-4, 16), scientific otherwise.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    std::string sign;
    if (!sci.empty() && sci[0] == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    std::size_t e = sci.find('e');
    std::string mant = sci.substr(0, e);
    int exp = std::atoi(sci.c_str() + e + 1);
    std::string digits;
    for (char c : mant) {
        if (c != '.') {
            digits += c;
        }
    }
    std::string out;
    if (exp >= 16 || exp < -4) {
        out = digits.substr(0, 1);
        if (digits.size() > 1) {
            out += "." + digits.substr(1);
        }
        char eb[16];
        std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        out += eb;
    } else if (exp < 0) {
        out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
    } else {
        auto intDigits = static_cast<std::size_t>(exp + 1);
        if (digits.size() <= intDigits) {
            out = digits + std::string(intDigits - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, intDigits) + "." + digits.substr(intDigits);
        }
    }
    return sign + out;
}

// Decimal text of an integer literal ("0x1F" -> "31"), exact for any length.
std::string intLiteralDecimal(const std::string& text) {
    int base = 10;
    std::size_t i = 0;
    if (text.size() > 1 && text[0] == '0') {
        char p = static_cast<char>(text[1] | 0x20);
        base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
        if (base != 10) {
            i = 2;
        }
    }
    std::vector<std::uint32_t> limbs{0};  // base 1e9, little-endian
    for (; i < text.size(); ++i) {
        char c = text[i];
        int v = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        std::uint64_t carry = static_cast<std::uint64_t>(v);
        for (auto& limb : limbs) {
            std::uint64_t x =
                static_cast<std::uint64_t>(limb) * static_cast<std::uint64_t>(base) + carry;
            limb = static_cast<std::uint32_t>(x % 1000000000u);
            carry = x / 1000000000u;
        }
        if (carry) {
            limbs.push_back(static_cast<std::uint32_t>(carry));
        }
    }
    std::string out = std::to_string(limbs.back());
    for (std::size_t k = limbs.size() - 1; k-- > 0;) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09u", limbs[k]);
        out += buf;
    }
    return out;
}

}  // namespace irscope::ast
