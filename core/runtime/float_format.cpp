#include "runtime/float_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "ir/value.h"

namespace irscope::runtime {

namespace {

// Unsigned arbitrary-precision integer, just the operations digit generation needs.
class BigUInt {
public:
    BigUInt() = default;
    explicit BigUInt(std::uint64_t v) {
        if (v != 0) {
            limbs_.push_back(static_cast<std::uint32_t>(v));
            if ((v >> 32) != 0) {
                limbs_.push_back(static_cast<std::uint32_t>(v >> 32));
            }
        }
    }
    static BigUInt pow2(unsigned n) {
        BigUInt b(1);
        b.shiftLeft(n);
        return b;
    }

    bool isZero() const { return limbs_.empty(); }

    void shiftLeft(unsigned bits) {
        if (isZero() || bits == 0) {
            return;
        }
        const unsigned words = bits / 32;
        const unsigned rest = bits % 32;
        if (rest != 0) {
            std::uint32_t carry = 0;
            for (auto& l : limbs_) {
                const std::uint32_t next = l >> (32 - rest);
                l = (l << rest) | carry;
                carry = next;
            }
            if (carry != 0) {
                limbs_.push_back(carry);
            }
        }
        limbs_.insert(limbs_.begin(), words, 0u);
    }

    void mulSmall(std::uint32_t m) {
        std::uint64_t carry = 0;
        for (auto& l : limbs_) {
            const std::uint64_t p = static_cast<std::uint64_t>(l) * m + carry;
            l = static_cast<std::uint32_t>(p);
            carry = p >> 32;
        }
        if (carry != 0) {
            limbs_.push_back(static_cast<std::uint32_t>(carry));
        }
        trim();
    }

    void mulPow10(int n) {
        static constexpr std::uint32_t kPow[] = {1,      10,      100,      1000,     10000,
                                                 100000, 1000000, 10000000, 100000000};
        while (n >= 9) {
            mulSmall(1000000000u);
            n -= 9;
        }
        if (n > 0) {
            mulSmall(kPow[n]);
        }
    }

    void add(const BigUInt& o) {
        if (o.limbs_.size() > limbs_.size()) {
            limbs_.resize(o.limbs_.size(), 0u);
        }
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < limbs_.size(); ++i) {
            const std::uint64_t s = static_cast<std::uint64_t>(limbs_[i]) +
                                    (i < o.limbs_.size() ? o.limbs_[i] : 0u) + carry;
            limbs_[i] = static_cast<std::uint32_t>(s);
            carry = s >> 32;
        }
        if (carry != 0) {
            limbs_.push_back(static_cast<std::uint32_t>(carry));
        }
    }

    // *this -= o; requires *this >= o.
    void sub(const BigUInt& o) {
        std::int64_t borrow = 0;
        for (std::size_t i = 0; i < limbs_.size(); ++i) {
            std::int64_t d = static_cast<std::int64_t>(limbs_[i]) -
                             (i < o.limbs_.size() ? static_cast<std::int64_t>(o.limbs_[i]) : 0) -
                             borrow;
            borrow = d < 0 ? 1 : 0;
            if (d < 0) {
                d += std::int64_t{1} << 32;
            }
            limbs_[i] = static_cast<std::uint32_t>(d);
        }
        trim();
    }

    friend int compare(const BigUInt& a, const BigUInt& b) {
        if (a.limbs_.size() != b.limbs_.size()) {
            return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
        }
        for (std::size_t i = a.limbs_.size(); i-- > 0;) {
            if (a.limbs_[i] != b.limbs_[i]) {
                return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
            }
        }
        return 0;
    }

private:
    void trim() {
        while (!limbs_.empty() && limbs_.back() == 0) {
            limbs_.pop_back();
        }
    }
    std::vector<std::uint32_t> limbs_;  // little-endian
};

// Quotient (0..9) of r / s, leaving the remainder in r.
unsigned divideDigit(BigUInt& r, const BigUInt& s) {
    unsigned q = 0;
    while (compare(r, s) >= 0) {
        r.sub(s);
        ++q;
    }
    return q;
}

// A finite value as mantissa * 2^exponent, with what Dragon4 needs to know about its
// neighbours in its own format.
struct Parts {
    std::uint64_t mantissa = 0;
    int exponent = 0;
    bool unequalMargins =
        false;  // the value is a power of two: the gap below is half the gap above
    bool negative = false;
    bool nan = false;
    bool inf = false;
};

Parts decompose(double value, FloatKind kind) {
    Parts p;
    std::uint64_t expBits = 0;
    std::uint64_t mant = 0;
    int mantBits = 0;
    int bias = 0;
    std::uint64_t expMax = 0;
    switch (kind) {
        case FloatKind::Half: {
            const std::uint16_t h = ir::floatToHalf(static_cast<float>(value));
            p.negative = (h >> 15) != 0;
            expBits = (h >> 10) & 0x1Fu;
            mant = h & 0x3FFu;
            mantBits = 10;
            bias = 15;
            expMax = 0x1F;
            break;
        }
        case FloatKind::Float: {
            const auto f = std::bit_cast<std::uint32_t>(static_cast<float>(value));
            p.negative = (f >> 31) != 0;
            expBits = (f >> 23) & 0xFFu;
            mant = f & 0x7FFFFFu;
            mantBits = 23;
            bias = 127;
            expMax = 0xFF;
            break;
        }
        case FloatKind::Double: {
            const auto d = std::bit_cast<std::uint64_t>(value);
            p.negative = (d >> 63) != 0;
            expBits = (d >> 52) & 0x7FFu;
            mant = d & 0xFFFFFFFFFFFFFull;
            mantBits = 52;
            bias = 1023;
            expMax = 0x7FF;
            break;
        }
    }
    if (expBits == expMax) {
        p.nan = mant != 0;
        p.inf = mant == 0;
        return p;
    }
    if (expBits != 0) {
        p.mantissa = (std::uint64_t{1} << mantBits) | mant;
        p.exponent = static_cast<int>(expBits) - bias - mantBits;
        p.unequalMargins = expBits != 1 && mant == 0;
    } else {
        p.mantissa = mant;
        p.exponent = 1 - bias - mantBits;
        p.unequalMargins = false;
    }
    return p;
}

enum class Cutoff { TotalLength, FractionLength };

struct Digits {
    std::string digits;  // significant digits, no point
    int exponent = 0;    // decimal exponent of the first digit
};

// Burger & Dybvig's free-format digit generation with numpy's conventions: digits are
// generated from the exact value; in unique mode generation stops as soon as the digits
// identify the value (but not before `cutoffMin`), in exact mode when the remainder is zero;
// it always stops at `cutoffMax`. The last digit is rounded half to even.
Digits dragon4(const Parts& v, bool unique, Cutoff mode, int cutoffMax, int cutoffMin) {
    if (v.mantissa == 0) {
        return {"0", 0};
    }
    const bool isEven = (v.mantissa & 1u) == 0;
    const unsigned u = v.unequalMargins ? 1u : 0u;
    BigUInt r(v.mantissa);
    BigUInt s;
    BigUInt mLow;
    if (v.exponent > 0) {
        r.shiftLeft(static_cast<unsigned>(v.exponent) + 1 + u);
        s = BigUInt(std::uint64_t{2} << u);
        mLow = BigUInt::pow2(static_cast<unsigned>(v.exponent));
    } else {
        r.shiftLeft(1 + u);
        s = BigUInt::pow2(static_cast<unsigned>(-v.exponent) + 1 + u);
        mLow = BigUInt(1);
    }
    auto highMargin = [&] {
        BigUInt h = mLow;
        h.shiftLeft(u);
        return h;
    };

    const int mantissaBit = 63 - std::countl_zero(v.mantissa);
    int digitExponent = static_cast<int>(
        std::ceil(static_cast<double>(mantissaBit + v.exponent) * 0.30102999566398119521 - 0.69));
    if (cutoffMax >= 0 && mode == Cutoff::FractionLength && digitExponent <= -cutoffMax) {
        digitExponent = -cutoffMax + 1;
    }
    if (digitExponent > 0) {
        s.mulPow10(digitExponent);
    } else if (digitExponent < 0) {
        r.mulPow10(-digitExponent);
        mLow.mulPow10(-digitExponent);
    }
    if (compare(r, s) >= 0) {
        ++digitExponent;
    } else {
        r.mulSmall(10);
        mLow.mulSmall(10);
    }
    BigUInt mHigh = highMargin();

    constexpr int kBufferDigits = 16384;
    int cutoffMaxExp = digitExponent - kBufferDigits;
    if (cutoffMax >= 0) {
        const int desired = mode == Cutoff::TotalLength ? digitExponent - cutoffMax : -cutoffMax;
        cutoffMaxExp = std::max(cutoffMaxExp, desired);
    }
    int cutoffMinExp = digitExponent;
    if (cutoffMin >= 0) {
        const int desired = mode == Cutoff::TotalLength ? digitExponent - cutoffMin : -cutoffMin;
        cutoffMinExp = std::min(cutoffMinExp, desired);
    }

    Digits out;
    out.exponent = digitExponent - 1;
    bool low = false;
    bool high = false;
    unsigned digit = 0;
    if (unique) {
        for (;;) {
            --digitExponent;
            digit = divideDigit(r, s);
            BigUInt rHigh = r;
            rHigh.add(mHigh);
            const int cl = compare(r, mLow);
            low = isEven ? cl <= 0 : cl < 0;
            const int ch = compare(rHigh, s);
            high = isEven ? ch >= 0 : ch > 0;
            if (((low || high) && digitExponent <= cutoffMinExp) || digitExponent == cutoffMaxExp) {
                break;
            }
            out.digits.push_back(static_cast<char>('0' + digit));
            r.mulSmall(10);
            mLow.mulSmall(10);
            mHigh = highMargin();
        }
    } else {
        for (;;) {
            --digitExponent;
            digit = divideDigit(r, s);
            if (r.isZero() || digitExponent == cutoffMaxExp) {
                break;
            }
            out.digits.push_back(static_cast<char>('0' + digit));
            r.mulSmall(10);
        }
    }

    bool roundDown = low;
    if (low == high) {
        r.shiftLeft(1);
        const int c = compare(r, s);
        roundDown = c < 0;
        if (c == 0) {
            roundDown = (digit & 1u) == 0;
        }
    }
    if (roundDown) {
        out.digits.push_back(static_cast<char>('0' + digit));
    } else if (digit == 9) {
        for (;;) {
            if (out.digits.empty()) {
                out.digits.assign(1, '1');
                ++out.exponent;
                break;
            }
            const char last = out.digits.back();
            out.digits.pop_back();
            if (last != '9') {
                out.digits.push_back(static_cast<char>(last + 1));
                break;
            }
        }
    } else {
        out.digits.push_back(static_cast<char>('0' + digit + 1));
    }
    return out;
}

std::string infNan(const Parts& p, bool sign) {
    if (p.nan) {
        return "nan";
    }
    if (p.negative) {
        return "-inf";
    }
    return sign ? "+inf" : "inf";
}

void stripTrailingZeros(std::string& out, int& fractionDigits) {
    while (fractionDigits > 0 && out.back() == '0') {
        out.pop_back();
        --fractionDigits;
    }
}

}  // namespace

double roundToKind(double value, FloatKind kind) {
    switch (kind) {
        case FloatKind::Half:
            return ir::halfToFloat(ir::floatToHalf(static_cast<float>(value)));
        case FloatKind::Float:
            return static_cast<float>(value);
        case FloatKind::Double:
            return value;
    }
    return value;
}

std::string formatFloatPositional(double value, FloatKind kind, const FloatFormatOptions& opt) {
    const Parts p = decompose(value, kind);
    if (p.nan || p.inf) {
        return infNan(p, opt.sign);
    }
    std::string out;
    int hasSign = 0;
    if (p.negative) {
        out = "-";
        hasSign = 1;
    } else if (opt.sign) {
        out = "+";
        hasSign = 1;
    }
    const Digits d =
        dragon4(p, opt.unique, opt.fractional ? Cutoff::FractionLength : Cutoff::TotalLength,
                opt.precision, opt.minDigits);
    const int numDigits = static_cast<int>(d.digits.size());
    int wholeDigits = 0;
    int fractionDigits = 0;
    if (d.exponent >= 0) {
        wholeDigits = d.exponent + 1;
        if (numDigits <= wholeDigits) {
            out += d.digits;
            out.append(static_cast<std::size_t>(wholeDigits - numDigits), '0');
        } else {
            out.append(d.digits, 0, static_cast<std::size_t>(wholeDigits));
            out += '.';
            out.append(d.digits, static_cast<std::size_t>(wholeDigits));
            fractionDigits = numDigits - wholeDigits;
        }
    } else {
        const int zeros = -(d.exponent + 1);
        out += "0.";
        out.append(static_cast<std::size_t>(zeros), '0');
        out += d.digits;
        fractionDigits = zeros + numDigits;
        wholeDigits = 1;
    }
    if (opt.trim != FloatTrim::DptZeros && fractionDigits == 0) {
        out += '.';
    }
    const int addDigits = opt.unique ? opt.minDigits : opt.precision;
    int desired = std::max(addDigits, 0);
    if (!opt.fractional) {
        desired = addDigits - wholeDigits;
    }
    if (opt.trim == FloatTrim::LeaveOneZero) {
        if (fractionDigits == 0) {
            out += '0';
            ++fractionDigits;
        }
    } else if (opt.trim == FloatTrim::Keep && desired > fractionDigits) {
        out.append(static_cast<std::size_t>(desired - fractionDigits), '0');
        fractionDigits = desired;
    }
    if (opt.trim != FloatTrim::Keep && fractionDigits > 0) {
        stripTrailingZeros(out, fractionDigits);
        if (out.back() == '.') {
            if (opt.trim == FloatTrim::LeaveOneZero) {
                out += '0';
                ++fractionDigits;
            } else if (opt.trim == FloatTrim::DptZeros) {
                out.pop_back();
            }
        }
    }
    if (opt.padRight >= fractionDigits) {
        if (opt.trim == FloatTrim::DptZeros && fractionDigits == 0) {
            out += ' ';
        }
        out.append(static_cast<std::size_t>(opt.padRight - fractionDigits), ' ');
    }
    if (opt.padLeft > wholeDigits + hasSign) {
        out.insert(0, static_cast<std::size_t>(opt.padLeft - (wholeDigits + hasSign)), ' ');
    }
    return out;
}

std::string formatFloatScientific(double value, FloatKind kind, const FloatFormatOptions& opt) {
    const Parts p = decompose(value, kind);
    if (p.nan || p.inf) {
        return infNan(p, opt.sign);
    }
    std::string out;
    const bool hasSign = p.negative || opt.sign;
    const int leftChars = 1 + (hasSign ? 1 : 0);
    if (opt.padLeft > leftChars) {
        out.append(static_cast<std::size_t>(opt.padLeft - leftChars), ' ');
    }
    if (p.negative) {
        out += '-';
    } else if (opt.sign) {
        out += '+';
    }
    const Digits d =
        dragon4(p, opt.unique, Cutoff::TotalLength, opt.precision < 0 ? -1 : opt.precision + 1,
                opt.minDigits < 0 ? -1 : opt.minDigits + 1);
    out += d.digits[0];
    int fractionDigits = static_cast<int>(d.digits.size()) - 1;
    if (fractionDigits > 0) {
        out += '.';
        out.append(d.digits, 1);
    }
    if (opt.trim != FloatTrim::DptZeros && fractionDigits == 0) {
        out += '.';
    }
    const int addDigits = std::max(opt.unique ? opt.minDigits : opt.precision, 0);
    if (opt.trim == FloatTrim::LeaveOneZero) {
        if (fractionDigits == 0) {
            out += '0';
            ++fractionDigits;
        }
    } else if (opt.trim == FloatTrim::Keep && addDigits > fractionDigits) {
        out.append(static_cast<std::size_t>(addDigits - fractionDigits), '0');
        fractionDigits = addDigits;
    }
    if (opt.trim != FloatTrim::Keep && fractionDigits > 0) {
        stripTrailingZeros(out, fractionDigits);
        if (opt.trim == FloatTrim::LeaveOneZero && out.back() == '.') {
            out += '0';
            ++fractionDigits;
        }
    }
    int e = d.exponent;
    out += 'e';
    out += e >= 0 ? '+' : '-';
    e = std::abs(e);
    const int expDigits = opt.expDigits < 0 ? 2 : std::min(opt.expDigits, 5);
    std::string ed = std::to_string(e);
    if (static_cast<int>(ed.size()) < expDigits) {
        ed.insert(0, static_cast<std::size_t>(expDigits) - ed.size(), '0');
    }
    out += ed;
    return out;
}

std::string formatNumpyFloatScalar(double value, FloatKind kind) {
    value = roundToKind(value, kind);
    if (std::isnan(value)) {
        return "nan";
    }
    if (std::isinf(value)) {
        return value < 0 ? "-inf" : "inf";
    }
    const double a = std::fabs(value);
    FloatFormatOptions opt;
    if (a == 0 || (a < 1e16 && a >= 1e-4)) {
        opt.trim = FloatTrim::LeaveOneZero;
        return formatFloatPositional(value, kind, opt);
    }
    opt.trim = FloatTrim::DptZeros;
    return formatFloatScientific(value, kind, opt);
}

std::string formatPyFloat(double value) {
    return formatNumpyFloatScalar(value, FloatKind::Double);
}

}  // namespace irscope::runtime
