s = set()
for v in [5, 3, 17, 33, 1, 9, 64, 128, 2, 1000, -7, 21]:
    s.add(v)
print(s)
s.discard(17); s.discard(1000); s.add(49); s.add(81)
print(s, len(s))
print(set(range(0, 60, 7)), {x * 13 % 50 for x in range(20)}, {1.5, 2, -3, 4.25})
print(set([3, 1, 2]) | {100, 50}, {i for i in range(40) if i % 3 == 0} & set(range(0, 40, 2)))
print({(1, 2), (2, 1), (0, 0)}, {True, 0, 1.0, False}, {None, 1})
a = {1, 2, 3, 4}
a -= {2}; a |= {9}; a &= {1, 3, 9, 10}; a ^= {3, 11}
print(a, sorted(a), a.pop(), a)
big = set(range(100))
for i in range(0, 100, 3):
    big.remove(i)
print(len(big), sorted(big)[:5], 50 in big, 51 in big)
d = {}
for w in "the quick brown fox jumps over the lazy dog the end".split():
    d[w] = d.get(w, 0) + 1
print(d, max(d, key=d.get), sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
try:
    for k in d:
        d[k + "x"] = 1
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    for v in s:
        s.add(v + 1000)
except RuntimeError as e:
    print("RuntimeError:", e)
counts = {}
for ch in "mississippi":
    counts.setdefault(ch, []).append(ch)
print({k: len(v) for k, v in counts.items()})
inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inv, list(inv.keys()), 2 in inv.keys(), list(reversed(list(inv))))
nested = {"outer": {"inner": [1, {"deep": True}]}}
print(nested["outer"]["inner"][1]["deep"], nested)
d2 = dict.fromkeys(range(3), "z")
d2.update(x=1)
del d2[0]
print(d2, d2.pop(1), len(d2), {**d2, **{"y": 2}})
print({1: 2} == {1: 2.0}, {1: 2} != {1: 3}, list({3: 0, 1: 0, 2: 0}), dict(sorted({3: "c", 1: "a"}.items())))
keys = {1: "a", 2: "b"}.keys()
print(keys, len(keys), list(keys), 1 in keys)
print(frozenset_missing := "frozenset not used")
