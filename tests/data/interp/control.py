for i in range(3):
    print("i", i)
else:
    print("for-else ran")
for i in range(10):
    if i == 2:
        continue
    if i == 4:
        break
    print("loop", i)
else:
    print("not printed")
n = 0
while n < 3:
    n += 1
else:
    print("while-else", n)
while True:
    n -= 1
    if n == 0:
        break
print("n", n)
x = 5
if x > 10:
    print("big")
elif x > 3:
    print("medium")
else:
    print("small")
print("yes" if x else "no", [i for i in range(10) if i % 3 == 0], {i: i * i for i in range(4)}, sorted({c for c in "hello"}))
print([(i, j) for i in range(3) for j in range(i)], [[j for j in range(i)] for i in range(3)])
gen = (i * i for i in range(5))
print(next(gen), next(gen), list(gen), list(gen))
print(sum(i for i in range(101)), max(len(w) for w in ["a", "abc", "ab"]), any(c.isdigit() for c in "ab1"))
print(next((i for i in range(100) if i * i > 50), None), next(iter([]), "default"))
g = (x * 2 for x in [1, 2, 3])
print(type(g).__name__, 4 in g, list(g))
def infinite():
    i = 0
    while True:
        yield_value = i
        i += 1
        if i > 1000000:
            return
print(next(i for i in range(10**9) if i > 5))
pairs = {(a, b) for a in range(3) for b in range(3) if a < b}
print(sorted(pairs))
matrix = [[1, 2, 3], [4, 5, 6]]
print([list(col) for col in zip(*matrix)], [row[::-1] for row in matrix])
total = 0
for a, b in [(1, 2), (3, 4)]:
    total += a * b
print(total)
for k in {"b": 1, "a": 2}:
    print(k, end=";")
print()
it = iter([1, 2, 3])
print(next(it), list(it))
i = 0
while i < 10:
    i += 1
    if i % 2:
        continue
    if i > 6:
        break
else:
    print("no")
print(i)
result = []
for outer in range(3):
    for inner in range(3):
        if inner == outer:
            break
        result.append((outer, inner))
print(result)
del result[0], total
print(result, "total" in dir())
a = b = c = [0]
print(a is b is c)
def early(v):
    for x in v:
        if x < 0:
            return x
    return None
print(early([1, -2, -3]), early([]))
print(list(map(str, range(3))), list(filter(lambda s: s != "b", "abc")))
print(list(enumerate(x for x in "xy")), list(zip(range(3), (c for c in "abcd"))))
squares = {n: n ** 2 for n in range(5) if n % 2 == 0}
print(squares, len(squares))
print([y for x in [[1, 2], [3]] for y in x if y != 2])
print(*[1, 2, 3], sep=", ", end="!\n")
print(*"abc")
print()
print("a", "b", sep="")
