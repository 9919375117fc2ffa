from_count = 0
def side(v):
    global from_count
    from_count += 1
    return v
print(side(1) < side(2) < side(3), from_count, 1 < side(0) < side(5), from_count)
x: int = 5
y: "list[int]"
def annotated(a: int, b: float = 1.0) -> float:
    return a * b
print(x, annotated(3), annotated.__name__)
class Base:
    @classmethod
    def make(cls, v):
        return cls(v)
    def __init__(self, v):
        self.v = v
class Derived(Base):
    @classmethod
    def make(cls, v):
        obj = super().make(v * 2)
        obj.tag = "derived"
        return obj
d = Derived.make(5)
print(type(d).__name__, d.v, d.tag)
class Singleton:
    _inst = None
    def __new__(cls, *args):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
            cls._inst.created = 0
        cls._inst.created += 1
        return cls._inst
    def __init__(self, name):
        self.name = name
s1 = Singleton("a"); s2 = Singleton("b")
print(s1 is s2, s1.created, s1.name)
class MyErr(Exception):
    def __init__(self, code, msg):
        super().__init__(code, msg)
        self.code = code
    def __str__(self):
        return f"[{self.code}] {self.args[1]}"
try:
    raise MyErr(404, "not found")
except MyErr as e:
    print(e, repr(e), e.args, e.code)
def returns():
    try:
        return "try"
    finally:
        pass
def finally_wins():
    for i in range(3):
        try:
            return i
        finally:
            if i == 0:
                continue
    return "loop done"
print(returns(), finally_wins())
def try_all(v):
    out = []
    try:
        out.append("try")
        if v:
            raise ValueError(v)
    except ValueError as e:
        out.append("except " + str(e))
        return out
    else:
        out.append("else")
    finally:
        out.append("finally")
    out.append("after")
    return out
print(try_all(0), try_all("boom"))
class Holder:
    pass
h = Holder()
h.a = 1; h.b = 2
del h.a
print(hasattr(h, "a"), h.b, vars(h))
lst = [1, 2, 3, 4]
del lst[1:3]
dd = {"k": 1, "j": 2}
del dd["k"]
print(lst, dd)
print(5 > 3 and "yes", 0 or None, [] and 1, not None, (1 and 2) + 1)
print("ab" * -1 == "", [1] * 0, 3 * (1,), -(3), --3, +-3)
a = 256
b = 256
print(a is b, a == b, None is None, True is True, () == ())
print(type(...).__name__, ... is Ellipsis)
class Box:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return isinstance(other, Box) and self.v == other.v
    def __hash__(self):
        return hash(self.v)
    def __repr__(self):
        return "Box(%r)" % (self.v,)
print({Box(1), Box(1), Box(2)} == {Box(2), Box(1)}, Box(1) in [Box(1)], [Box(3)].index(Box(3)), {Box(1): "x"}[Box(1)])
class Wrapper:
    def __init__(self, items):
        self.items = list(items)
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        if isinstance(i, slice):
            return Wrapper(self.items[i])
        return self.items[i]
    def __setitem__(self, i, v):
        self.items[i] = v
    def __delitem__(self, i):
        del self.items[i]
    def __contains__(self, v):
        return v in self.items
    def __repr__(self):
        return "W" + repr(self.items)
w = Wrapper("abcde")
w[0] = "A"
del w[1]
print(w, w[1:3], len(w), "c" in w, bool(Wrapper([])), w[-1], list(w))
def kw_collect(**kw):
    return kw
print(kw_collect(a=1, **{"b": 2}), kw_collect())
nums = [5, 3, 8, 1]
nums.sort(key=lambda n: -n)
print(nums, sorted(nums, key=abs, reverse=True), list(reversed(sorted(nums))))
print(" ".join(f"{n:02d}" for n in range(3)), "%s=%r" % ("k", "v"), "{0:*<6}|{0:*>6}".format("ab"))
matrix = [[0] * 3 for _ in range(2)]
matrix[0][1] = 5
print(matrix, [[0] * 2] * 2)
print(round(-1.5), round(2.5, 0), round(0.125, 2), round(-0.0), int(round(4.5)), round(1e300, -300))
print(abs(-7) // 2, -7 // 2, int(-7 / 2), 7 % 3 == 1, divmod(0, 5))
print(max([1, 5, 2], key=lambda v: v % 3), min(("b", 2), ("a", 3)), sum([], 5))
