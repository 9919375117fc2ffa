log = []
def source(n):
    for i in range(n):
        log.append("produce %d" % i)
    return range(n)
g = (log.append("consume %d" % x) or x for x in [1, 2, 3])
print(log)
print(next(g), log)
print(list(g), log)
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        n = self.n
        out = []
        while n > 0:
            out.append(n)
            n -= 1
        return iter(out)
print(list(Countdown(3)), sorted(Countdown(4)), sum(Countdown(5)), max(Countdown(2)), 2 in Countdown(3))
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * i
print(list(Seq()), [x for x in Seq()], 4 in Seq())
it = iter([1, 2, 3])
for x in it:
    if x == 1:
        print("skip", next(it))
    else:
        print("got", x)
z = zip(range(3), "abc", [True, False, None])
print(list(z), list(z))
e = enumerate(["a", "b"], start=10)
print(next(e), list(e))
m = map(lambda a, b: a + b, [1, 2, 3], [10, 20])
print(list(m))
r = reversed(range(1, 10, 3))
print(list(r), list(reversed((1, 2))), list(reversed({"a": 1, "b": 2})))
gen = (i for i in range(3))
print(sum(gen), sum(gen))
nested = ((i, j) for i in range(3) if i for j in range(i))
print(list(nested))
def lazy_error():
    g = (1 // x for x in [1, 0])
    print(next(g))
    try:
        next(g)
    except ZeroDivisionError as err:
        print("lazy", err)
    print(list(g))
lazy_error()
print(any(x > 2 for x in range(10**12)), next(x for x in range(10**12) if x > 5))
print(list(filter(str.isdigit, "a1b2")), list(map(int, "123")), list(zip(*[(1, 2), (3, 4)])))
print(iter([]).__class__.__name__, type(iter("")).__name__, type(iter(range(1))).__name__, type(reversed([])).__name__)
print(type(enumerate([])).__name__, type(zip()).__name__, type(map(abs, [])).__name__, type(x for x in []).__name__)
