// Python's `complex`: a native class of the builtins whose instances hold a
// std::complex<double>. Arithmetic with int, float and complex follows CPython's algorithms
// (Smith's division, exponentiation by squaring for small integral powers), so results match
// CPython's to the last bit; repr prints as CPython does: `(1+2j)`, `2j`, `(-0-1j)`.
#pragma once

#include <complex>
#include <optional>
#include <string>

#include "frontend/interp/interpreter.h"

namespace irscope::interp {

class ComplexObject : public Object {
public:
    ComplexObject(Type* t, std::complex<double> v) : Object(t, ObjKind::Native), value(v) {}
    const std::complex<double> value;
};

Value newComplex(Interpreter& I, std::complex<double> v);
// An int, bool, float or complex as a complex; nullopt for anything else.
std::optional<std::complex<double>> complexOf(const Value& v);
// CPython's repr of a complex.
std::string complexRepr(std::complex<double> v);
// complex("1+2j"): CPython's grammar (parentheses and surrounding spaces allowed).
std::optional<std::complex<double>> parseComplex(std::string_view text);

// CPython's complex arithmetic (ZeroDivisionError / OverflowError with its messages).
std::complex<double> complexDiv(std::complex<double> a, std::complex<double> b);
std::complex<double> complexPow(std::complex<double> a, std::complex<double> b);

// The builtin `complex` class and the `cmath` module (complex.cpp).
void setUpComplex(Interpreter& I);

}  // namespace irscope::interp
