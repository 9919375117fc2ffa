// Python number semantics on int64 and double: floor division and modulo with the sign of
// the divisor, true division, exponentiation, shifts, exact int/float comparison, round(),
// and int()/float() parsing. Results outside int64 raise OverflowError.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

void intOverflow() {
    throw PyError(Exc::OverflowError, "integer out of range: irscope integers are 64-bit");
}

std::int64_t checkedAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        intOverflow();
    }
    return r;
}

std::int64_t checkedMul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        intOverflow();
    }
    return r;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    if (b == 0) {
        throw PyError(Exc::ZeroDivisionError, "integer division or modulo by zero");
    }
    if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
        intOverflow();
    }
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        --q;
    }
    return q;
}

std::int64_t floorMod(std::int64_t a, std::int64_t b) {
    if (b == 0) {
        throw PyError(Exc::ZeroDivisionError, "integer modulo by zero");
    }
    if (b == -1) {
        return 0;
    }
    std::int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) {
        r += b;
    }
    return r;
}

namespace {

// Python's float divmod: (floor quotient, remainder with the divisor's sign).
void floatDivmod(double a, double b, double* quot, double* rem) {
    double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0;
        }
    } else {
        mod = std::copysign(0.0, b);
    }
    double floordiv;
    if (div != 0.0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) {
            floordiv += 1.0;
        }
    } else {
        floordiv = std::copysign(0.0, a / b);
    }
    *quot = floordiv;
    *rem = mod;
}

std::int64_t intPow(std::int64_t base, std::int64_t exp) {
    std::int64_t result = 1;
    while (exp > 0) {
        if (exp & 1) {
            result = checkedMul(result, base);
        }
        exp >>= 1;
        if (exp > 0) {
            base = checkedMul(base, base);
        }
    }
    return result;
}

double floatPow(double a, double b) {
    if (a == 0.0 && b < 0.0) {
        throw PyError(Exc::ZeroDivisionError, "0.0 cannot be raised to a negative power");
    }
    if (a < 0.0 && std::isfinite(b) && b != std::floor(b)) {
        throw PyError(Exc::ValueError,
                      "irscope: complex numbers are not supported (negative base, "
                      "fractional exponent)");
    }
    errno = 0;
    double r = std::pow(a, b);
    if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) {
        throw PyError(Exc::OverflowError, "(34, 'Numerical result out of range')");
    }
    return r;
}

}  // namespace

double floatMod(double a, double b) {
    if (b == 0.0) {
        throw PyError(Exc::ZeroDivisionError, "float modulo");
    }
    double q, r;
    floatDivmod(a, b, &q, &r);
    return r;
}

Value numberBinary(ast::Operator op, const Value& a, const Value& b) {
    using ast::Operator;
    if (!a.isNumber() || !b.isNumber()) {
        return {};
    }
    if (a.isIntLike() && b.isIntLike()) {
        const std::int64_t x = a.intLike(), y = b.intLike();
        std::int64_t r;
        switch (op) {
            case Operator::Add:
                return Value::integer(checkedAdd(x, y));
            case Operator::Sub:
                if (__builtin_sub_overflow(x, y, &r)) {
                    intOverflow();
                }
                return Value::integer(r);
            case Operator::Mult:
                return Value::integer(checkedMul(x, y));
            case Operator::Div:
                if (y == 0) {
                    throw PyError(Exc::ZeroDivisionError, "division by zero");
                }
                return Value::real(static_cast<double>(x) / static_cast<double>(y));
            case Operator::FloorDiv:
                return Value::integer(floorDiv(x, y));
            case Operator::Mod:
                return Value::integer(floorMod(x, y));
            case Operator::Pow:
                if (y < 0) {
                    return Value::real(floatPow(static_cast<double>(x), static_cast<double>(y)));
                }
                return Value::integer(intPow(x, y));
            case Operator::LShift:
                if (y < 0) {
                    throw PyError(Exc::ValueError, "negative shift count");
                }
                if (x == 0) {
                    return Value::integer(0);
                }
                if (y >= 63 || (x > 0 ? x > (std::numeric_limits<std::int64_t>::max() >> y)
                                      : x < (std::numeric_limits<std::int64_t>::min() >> y))) {
                    intOverflow();
                }
                return Value::integer(
                    static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y));
            case Operator::RShift:
                if (y < 0) {
                    throw PyError(Exc::ValueError, "negative shift count");
                }
                return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : (x >> y));
            case Operator::BitAnd:
                if (a.isBool() && b.isBool()) {
                    return Value::boolean((x & y) != 0);
                }
                return Value::integer(x & y);
            case Operator::BitOr:
                if (a.isBool() && b.isBool()) {
                    return Value::boolean((x | y) != 0);
                }
                return Value::integer(x | y);
            case Operator::BitXor:
                if (a.isBool() && b.isBool()) {
                    return Value::boolean((x ^ y) != 0);
                }
                return Value::integer(x ^ y);
            case Operator::MatMult:
                return {};
        }
        return {};
    }
    const double x = a.toDouble(), y = b.toDouble();
    switch (op) {
        case Operator::Add:
            return Value::real(x + y);
        case Operator::Sub:
            return Value::real(x - y);
        case Operator::Mult:
            return Value::real(x * y);
        case Operator::Div:
            if (y == 0.0) {
                throw PyError(Exc::ZeroDivisionError, "float division by zero");
            }
            return Value::real(x / y);
        case Operator::FloorDiv: {
            if (y == 0.0) {
                throw PyError(Exc::ZeroDivisionError, "float floor division by zero");
            }
            double q, r;
            floatDivmod(x, y, &q, &r);
            return Value::real(q);
        }
        case Operator::Mod:
            return Value::real(floatMod(x, y));
        case Operator::Pow:
            return Value::real(floatPow(x, y));
        default:
            return {};
    }
}

bool numbersEqual(const Value& a, const Value& b) {
    return compareNumbers(a, b) == 0;
}

int compareNumbers(const Value& a, const Value& b) {
    if (a.isIntLike() && b.isIntLike()) {
        return a.intLike() < b.intLike() ? -1 : (a.intLike() > b.intLike() ? 1 : 0);
    }
    if (a.isFloat() && b.isFloat()) {
        double x = a.asFloat(), y = b.asFloat();
        if (std::isnan(x) || std::isnan(y)) {
            return 2;
        }
        return x < y ? -1 : (x > y ? 1 : 0);
    }
    // int vs float, exactly (2**53 + 1 != float(2**53 + 1)).
    bool swapped = a.isFloat();
    std::int64_t i = swapped ? b.intLike() : a.intLike();
    double d = swapped ? a.asFloat() : b.asFloat();
    int r;
    if (std::isnan(d)) {
        return 2;
    }
    if (d >= 9223372036854775808.0) {
        r = -1;
    } else if (d < -9223372036854775808.0) {
        r = 1;
    } else {
        double t = std::trunc(d);
        auto ti = static_cast<std::int64_t>(t);
        if (i != ti) {
            r = i < ti ? -1 : 1;
        } else {
            r = d > t ? -1 : (d < t ? 1 : 0);
        }
    }
    return swapped ? -r : r;
}

std::int64_t floatToInt(double d) {
    if (std::isinf(d)) {
        throw PyError(Exc::OverflowError, "cannot convert float infinity to integer");
    }
    if (std::isnan(d)) {
        throw PyError(Exc::ValueError, "cannot convert float NaN to integer");
    }
    double t = std::trunc(d);
    if (t >= 9223372036854775808.0 || t < -9223372036854775808.0) {
        intOverflow();
    }
    return static_cast<std::int64_t>(t);
}

namespace {

// Rounds a non-negative decimal digit string (integer digits only) to a multiple of 10**k,
// half to even; `sticky` tells whether non-zero digits follow the string.
std::string roundIntegerDigits(std::string digits, int k, bool sticky) {
    if (k <= 0) {
        return digits;
    }
    if (static_cast<std::size_t>(k) > digits.size()) {
        digits.insert(0, static_cast<std::size_t>(k) - digits.size() + 1, '0');
    }
    std::size_t cut = digits.size() - static_cast<std::size_t>(k);
    char first = digits[cut];
    bool restNonZero = sticky;
    for (std::size_t i = cut + 1; i < digits.size(); ++i) {
        restNonZero |= digits[i] != '0';
    }
    bool up = first > '5' ||
              (first == '5' && (restNonZero || (cut > 0 && (digits[cut - 1] - '0') % 2 == 1)));
    std::string head = digits.substr(0, cut);
    if (head.empty()) {
        head.assign(1, '0');
    }
    if (up) {
        int i = static_cast<int>(head.size()) - 1;
        while (i >= 0 && head[static_cast<std::size_t>(i)] == '9') {
            head[static_cast<std::size_t>(i)] = '0';
            --i;
        }
        if (i < 0) {
            head.insert(head.begin(), '1');
        } else {
            ++head[static_cast<std::size_t>(i)];
        }
    }
    return head + std::string(static_cast<std::size_t>(k), '0');
}

double roundFloat(double x, std::int64_t n) {
    if (!std::isfinite(x) || x == 0.0) {
        return x;
    }
    if (n > 323) {
        return x;
    }
    if (n < -308) {
        return std::copysign(0.0, x);
    }
    char buf[1400];
    if (n >= 0) {
        std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), x);  // exact, half-even
        return std::strtod(buf, nullptr);
    }
    std::snprintf(buf, sizeof buf, "%.1100f", std::fabs(x));
    std::string s(buf);
    std::size_t dot = s.find('.');
    bool frac = s.find_first_not_of('0', dot + 1) != std::string::npos;
    std::string r = roundIntegerDigits(s.substr(0, dot), static_cast<int>(-n), frac);
    double v = std::strtod(r.c_str(), nullptr);
    if (std::isinf(v)) {
        throw PyError(Exc::OverflowError, "rounded value too large to represent");
    }
    return std::copysign(v, x);
}

}  // namespace

Value roundNumber(const Value& x, const Value& ndigits) {
    bool noDigits = ndigits.isNull() || ndigits.isNone();
    if (x.isIntLike()) {
        std::int64_t v = x.intLike();
        if (noDigits) {
            return Value::integer(v);
        }
        std::int64_t n = ndigits.intLike();
        if (n >= 0) {
            return Value::integer(v);
        }
        if (n < -18) {
            return Value::integer(0);
        }
        std::int64_t p = 1;
        for (std::int64_t i = 0; i < -n; ++i) {
            p *= 10;
        }
        std::int64_t q = floorDiv(v, p), r = v - q * p;
        if (r * 2 > p || (r * 2 == p && (q & 1))) {
            ++q;
        }
        return Value::integer(checkedMul(q, p));
    }
    double d = x.asFloat();
    if (noDigits) {
        double r = std::nearbyint(d);  // the default rounding mode: half to even
        return Value::integer(floatToInt(r));
    }
    return Value::real(roundFloat(d, ndigits.intLike()));
}

// --- parsing --------------------------------------------------------------------------------

namespace {

std::string_view stripSpace(std::string_view s) {
    const char* ws = " \t\n\r\f\v";
    std::size_t b = s.find_first_not_of(ws);
    if (b == std::string_view::npos) {
        return {};
    }
    std::size_t e = s.find_last_not_of(ws);
    return s.substr(b, e - b + 1);
}

}  // namespace

std::int64_t parseInt(std::string_view text, int base, std::string_view original) {
    auto fail = [&]() -> std::int64_t {
        throw PyError(Exc::ValueError, "invalid literal for int() with base " +
                                           std::to_string(base) + ": " + util::pyStrRepr(original));
    };
    std::string_view s = stripSpace(text);
    bool neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    int b = base;
    auto hasPrefix = [&](char lower) {
        return s.size() >= 2 && s[0] == '0' && (s[1] == lower || s[1] == lower - 32);
    };
    if (b == 0) {
        if (hasPrefix('x')) {
            b = 16;
        } else if (hasPrefix('o')) {
            b = 8;
        } else if (hasPrefix('b')) {
            b = 2;
        } else {
            b = 10;
            // base 0 forbids leading zeros in a non-zero decimal
            if (s.size() > 1 && s[0] == '0' &&
                s.find_first_not_of("0_") != std::string_view::npos) {
                fail();
            }
        }
        if (b != 10) {
            s.remove_prefix(2);
            if (!s.empty() && s[0] == '_') {
                s.remove_prefix(1);
            }
        }
    } else if ((b == 16 && hasPrefix('x')) || (b == 8 && hasPrefix('o')) ||
               (b == 2 && hasPrefix('b'))) {
        s.remove_prefix(2);
        if (!s.empty() && s[0] == '_') {
            s.remove_prefix(1);
        }
    }
    if (s.empty()) {
        fail();
    }
    UInt128 acc = 0;
    bool lastUnderscore = true;  // no leading underscore
    for (char c : s) {
        if (c == '_') {
            if (lastUnderscore) {
                fail();
            }
            lastUnderscore = true;
            continue;
        }
        int d;
        if (c >= '0' && c <= '9') {
            d = c - '0';
        } else if (c >= 'a' && c <= 'z') {
            d = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'Z') {
            d = c - 'A' + 10;
        } else {
            return fail();
        }
        if (d >= b) {
            fail();
        }
        lastUnderscore = false;
        acc = acc * static_cast<unsigned>(b) + static_cast<unsigned>(d);
        if (acc > (static_cast<UInt128>(1) << 63)) {
            intOverflow();
        }
    }
    if (lastUnderscore) {
        fail();
    }
    if (!neg && acc == (static_cast<UInt128>(1) << 63)) {
        intOverflow();
    }
    auto v = static_cast<std::int64_t>(static_cast<std::uint64_t>(acc));
    return neg ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(acc)) : v;
}

double parseFloat(std::string_view text) {
    auto fail = [&]() -> double {
        throw PyError(Exc::ValueError, "could not convert string to float: " + util::pyStrRepr(text));
    };
    std::string_view s = stripSpace(text);
    std::string clean;
    char prev = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '_') {
            bool digitBefore = prev >= '0' && prev <= '9';
            bool digitAfter = i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9';
            if (!digitBefore || !digitAfter) {
                fail();
            }
        } else {
            clean += c;
        }
        prev = c;
    }
    if (clean.empty()) {
        fail();
    }
    std::string lower;
    for (char c : clean) {
        lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    std::string_view body = lower;
    bool neg = false;
    if (body[0] == '+' || body[0] == '-') {
        neg = body[0] == '-';
        body.remove_prefix(1);
    }
    if (body == "inf" || body == "infinity") {
        return neg ? -INFINITY : INFINITY;
    }
    if (body == "nan") {
        return neg ? -NAN : NAN;
    }
    // Only decimal forms: digits, one point, an exponent (strtod would also take hex).
    bool digits = false, point = false, exp = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c >= '0' && c <= '9') {
            digits = true;
        } else if (c == '.' && !point && !exp) {
            point = true;
        } else if (c == 'e' && digits && !exp) {
            exp = true;
            digits = false;
            if (i + 1 < body.size() && (body[i + 1] == '+' || body[i + 1] == '-')) {
                ++i;
            }
        } else {
            fail();
        }
    }
    if (!digits) {
        fail();
    }
    return std::strtod(clean.c_str(), nullptr);
}

}  // namespace irscope::interp
