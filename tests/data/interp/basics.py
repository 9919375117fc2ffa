# Numbers, strings, truthiness, operators.
a = 7
b = 2
print(a + b, a - b, a * b, a / b, a // b, a % b, a ** b, -a // b, -a % b, a % -b)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, 2 ** -1, 2.0 ** 0.5, 10 / 4)
print(1 << 10, 1024 >> 3, 6 & 3, 6 | 3, 6 ^ 3, ~5, -(-3), +4)
print(True + 1, True * 3, False - 1, True / 2, isinstance(True, int), True == 1, 1.0 == 1)
print(0.1 + 0.2, 1e16, 1e-5, 1.5e300 * 1e10 if False else 3.0, 2.5, -0.0, 100.0, 1/3)
print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1234.5678, -2), round(15, -1), round(25, -1))
print(int(3.9), int(-3.9), int("  42 "), int("0x1f", 16), int("0b101", 0), int("1_000"), float("1.5"), float(" -inf "))
print(abs(-3), abs(-2.5), divmod(7, 2), divmod(-7, 2), divmod(7.5, 2), pow(2, 10), pow(3, 4, 5), pow(3, -1, 7))
print(min(3, 1, 2), max([4, 9, 2]), min("b", "a"), max((1, 2), (1, 3)), sum([1, 2, 3]), sum([0.5, 0.25], 1))
print(hex(255), bin(10), oct(8), hex(-255), chr(65), ord("a"), ord("é"))
print(bool(0), bool(""), bool([]), bool([0]), bool(None), bool(0.0), bool("0"), not 0, not [1])
print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 == 2, 1 == 1.0 != 2, "a" < "b" < "c", [1, 2] < [1, 3], (1, 2) == (1, 2))
print(None is None, x_ is not None if (x_ := 1) else 0, [] == [], "ab" in "cabd", 3 in [1, 2, 3], 4 not in (1, 2), "k" in {"k": 1})
print(5 and 6, 0 and 6, 5 or 6, 0 or 6, None or "d", [] or {} or 0)
x = 10
x += 5; x -= 3; x *= 2; x //= 5; x **= 3; x %= 7
print(x)
s = "ab"
s += "cd"
s *= 2
print(s, 3 * "xy", [0] * 3, (1,) * 2, [1] + [2], (1, 2) + (3,))
print(1_000_000, 0xFF, 0o17, 0b11, 1e3)
print(2 ** 62, -2 ** 62 * 2, 9223372036854775807)
print(7 // -2, -7 // -2, 7 % -3, 0 % 5, 5.0 // 0.3)
print(float("nan") == float("nan"), float("inf") > 1e308, 1e308 * 10)
print(3 == 3.0, hash(3) == hash(3.0), hash(True) == hash(1), int(True))
