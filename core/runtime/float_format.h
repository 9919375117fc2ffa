// Exact decimal formatting of binary floating-point values the way numpy does it.
//
// numpy prints floats with the Dragon4 algorithm (Steele & White, Burger & Dybvig): either
// the shortest digit string that still identifies the value among its neighbours of the same
// type ("unique" mode; float16 0.1 prints as 0.1, float32 -1.8809001), or the exact binary
// value rounded half-to-even at a cutoff. The functions here are the equivalents of
// numpy.format_float_positional / numpy.format_float_scientific with every option numpy's
// array printer uses, plus the str() of numpy scalars and of Python floats.
#pragma once

#include <cstdint>
#include <string>

namespace irscope::runtime {

// The binary format a value is printed in: the digits depend on the neighbours of the value
// in that format, so float32(0.1) prints as 0.1 but float64(float32(0.1)) as
// 0.10000000149011612.
enum class FloatKind : std::uint8_t { Half, Float, Double };

// numpy's trim modes: 'k' keep trailing zeros and the point, '.' trim zeros keep the point,
// '0' trim zeros but keep one after the point, '-' trim zeros and the point.
enum class FloatTrim : std::uint8_t { Keep, Zeros, LeaveOneZero, DptZeros };

struct FloatFormatOptions {
    bool unique = true;      // shortest unique digits (true) or exact digits (false)
    int precision = -1;      // max digits after the point (-1: no limit; required if !unique)
    int minDigits = -1;      // min digits after the point in unique mode (-1: none)
    bool fractional = true;  // positional only: precision counts fractional, not total digits
    bool sign = false;       // print '+' for positive values
    FloatTrim trim = FloatTrim::Keep;
    int padLeft = -1;    // pad with spaces to this many characters left of the point
    int padRight = -1;   // positional: pad with spaces to this many characters right of it
    int expDigits = -1;  // scientific: at least this many exponent digits (default 2)
};

// `value` must be exactly representable in `kind` (it is rounded to it otherwise).
std::string formatFloatPositional(double value, FloatKind kind, const FloatFormatOptions& opt);
std::string formatFloatScientific(double value, FloatKind kind, const FloatFormatOptions& opt);

// str()/repr() of a numpy float scalar (numpy >= 1.14, not legacy): positional with one
// trailing zero kept for 1e-4 <= |x| < 1e16 (and 0), else scientific without a trailing point:
// np.float32(1.5) -> "1.5", np.float64(3) -> "3.0", 1e16 -> "1e+16", 1e-05, nan, -inf, -0.0.
std::string formatNumpyFloatScalar(double value, FloatKind kind);

// Python's repr(float): the shortest round-trip string ("0.1", "1e-05", "1e+16", "inf",
// "nan", "-0.0", "3.0"). Identical to the str() of a numpy float64 scalar.
std::string formatPyFloat(double value);

// Value of `value` rounded to the nearest `kind` (identity for Double).
double roundToKind(double value, FloatKind kind);

}  // namespace irscope::runtime
