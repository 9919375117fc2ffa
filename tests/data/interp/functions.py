def add(a, b=10, *args, scale=1, **kwargs):
    return (a + b + sum(args)) * scale, sorted(kwargs.items())

print(add(1), add(1, 2), add(1, 2, 3, 4), add(1, scale=2), add(a=5, b=6, extra=1, more=2), add(*[1, 2], **{"scale": 3}))

def defaults_once(x, acc=[]):
    acc.append(x)
    return acc

print(defaults_once(1), defaults_once(2), defaults_once(3, []))

def kwonly(a, *, b, c=3):
    return a, b, c

print(kwonly(1, b=2), kwonly(1, c=4, b=5))

def posonly(a, b, /, c):
    return a + b + c

print(posonly(1, 2, 3), posonly(1, 2, c=3))

def counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc

c = counter()
print(c(), c(), c(5))

total = 0
def add_global(n):
    global total
    total += n

add_global(3); add_global(4); print(total)

def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

print(fact(10), fact(20))

def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a

print([fib(i) for i in range(15)])
square = lambda x: x * x
print(square(7), (lambda *a, **k: (a, k))(1, 2, z=3), list(map(lambda x, y=2: x ** y, [1, 2, 3])))

def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]

print([f(10) for f in make_adders()])

def late_binding():
    fs = [lambda: i for i in range(3)]
    return [f() for f in fs]

print(late_binding())

def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner()
    return middle()

print(outer())

def decorator(fn):
    def wrapper(*args, **kwargs):
        print("calling", fn.__name__, args, kwargs)
        return fn(*args, **kwargs)
    wrapper.__name__ = fn.__name__
    return wrapper

def repeat(n):
    def deco(fn):
        def wrapped(*a):
            return [fn(*a) for _ in range(n)]
        return wrapped
    return deco

@decorator
@repeat(2)
def greet(name):
    return "hi " + name

print(greet("bob"), greet.__name__)

def gen_closure():
    values = []
    def push(v):
        values.append(v)
        return len(values)
    return push, values

push, vals = gen_closure()
push(1); push(2); print(vals)

def shadow(len=len):
    return len([1, 2])

print(shadow(), shadow(lambda x: -1))

def docs():
    "A docstring."
    return docs.__doc__

print(docs(), add.__name__, add.__qualname__, counter().__qualname__, add.__defaults__, square.__name__)

def varargs_only(*items):
    return items

print(varargs_only(), varargs_only(1, "a"))

def recursion_with_default(n, memo={}):
    if n in memo:
        return memo[n]
    memo[n] = n if n < 2 else recursion_with_default(n - 1) + recursion_with_default(n - 2)
    return memo[n]

print(recursion_with_default(80))

def unpack_args(a, b, c):
    return a * 100 + b * 10 + c

print(unpack_args(*(1, 2), 3), unpack_args(1, *[2, 3]), unpack_args(**{"a": 1, "b": 2, "c": 3}))
x = 5
def reads_global():
    return x * 2
print(reads_global())
def walrus(data):
    if (n := len(data)) > 2:
        return n
    return [y for v in data if (y := v * 2) > 2], y
print(walrus([1, 2]), walrus([1, 2, 3]))
print((lambda: (yield_ := 3))(), callable(add), callable(3))
