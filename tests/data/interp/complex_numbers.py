# complex: literals, arithmetic with int/float, repr, hash, abs, parts, cmath, errors.
import cmath
a = 1 + 2j
print(a, 2j, -1j, 0j, complex(-0.0, -1), complex(1.5, -2), complex("1+2j"), complex(" (3-4j) "))
print(repr(a), str(a), type(a), type(a).__name__)
print(a + 1, 1 + a, a - 1.5, 2 * a, a * a, a / 2, 1 / a, a ** 2, 2 ** a, a ** 0.5, (-8) ** 0.5)
print(-a, +a, abs(3 + 4j), a == 1 + 2j, a != 2, (1 + 0j) == 1, a.real, a.imag, a.conjugate())
print(hash(1 + 0j) == hash(1), bool(0j), bool(1j), complex(1e20, 1), complex(1, float('nan')))
print(cmath.sqrt(-1), cmath.exp(1j * cmath.pi), cmath.phase(-1), cmath.polar(1j), abs(cmath.rect(2, 1.0)))
print(isinstance(a, complex), [1j, 2+0j], {1j: 3})
try:
    a / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    a < 2
except TypeError as e:
    print("TypeError:", e)
try:
    float(a)
except TypeError as e:
    print("TypeError:", e)
