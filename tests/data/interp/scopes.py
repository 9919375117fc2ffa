x = "global"
def read():
    return x
def shadow():
    x = "local"
    return x
def use_global():
    global x
    x = "changed"
print(read(), shadow(), x)
use_global()
print(x)
def outer():
    a = 1
    def mid():
        nonlocal a
        a += 1
        def inner():
            nonlocal a
            a *= 10
            return a
        return inner()
    r = mid()
    return r, a
print(outer())
class K:
    val = 5
    doubled = [val * 2 for _ in range(1)] if False else None
    def method(self):
        try:
            return val
        except NameError as e:
            return "NameError: " + str(e)
    def uses_class(self):
        return K.val, self.val, type(self).val
print(K().method(), K().uses_class(), K.doubled)
def make_class(v):
    class Inner:
        captured = v
        def get(self):
            return v
    return Inner
C = make_class(42)
print(C.captured, C().get(), C.__qualname__)
def counter_factory():
    counts = {"n": 0}
    def bump():
        counts["n"] += 1
        return counts["n"]
    return bump
b = counter_factory(); b(); b()
print(b())
funcs = []
for i in range(3):
    def f(i=i):
        return i * 10
    funcs.append(f)
print([fn() for fn in funcs])
y = 10
def comp_scope():
    y = 20
    return [y + j for j in range(2)], (lambda: y)()
print(comp_scope())
print([j for j in range(3)], "j" in globals())
def del_local():
    v = 1
    del v
    try:
        return v
    except UnboundLocalError as e:
        return str(e)
print(del_local())
def cond_bind(flag):
    if flag:
        z = 1
    return z
print(cond_bind(True))
try:
    cond_bind(False)
except UnboundLocalError as e:
    print("UnboundLocalError:", e)
def gen_scope():
    vals = [1, 2]
    return list(v * k for v in vals for k in vals)
print(gen_scope())
g = 1
def walrus_scope():
    [g := 5 for _ in range(1)]
    return g
print(walrus_scope(), g)
def closure_over_loop():
    acc = []
    for n in range(3):
        acc.append(lambda: n)
    return [fn() for fn in acc]
print(closure_over_loop())
def super_in_nested():
    class A:
        def hello(self):
            return "A.hello"
    class B(A):
        def hello(self):
            helper = lambda: super(B, self).hello()
            return "B>" + helper()
    return B().hello()
print(super_in_nested())
class Outer:
    class Nested:
        def name(self):
            return type(self).__qualname__
print(Outer.Nested().name(), Outer.Nested.__qualname__)
def f_qual():
    def g_qual():
        pass
    return g_qual
print(f_qual().__qualname__, (lambda: 0).__qualname__, f_qual.__module__)
