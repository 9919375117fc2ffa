def check(code):
    try:
        code()
    except Exception as e:
        print(type(e).__name__ + ":", e)

check(lambda: 1 / 0)
check(lambda: 1 // 0)
check(lambda: 1 % 0)
check(lambda: 1.0 / 0)
check(lambda: [][0])
check(lambda: (1,)[5])
check(lambda: "ab"[9])
check(lambda: {}["k"])
check(lambda: {}[("a", 1)])
check(lambda: undefined_name)
check(lambda: object().attr)
check(lambda: 1 + "a")
check(lambda: "a" + 1)
check(lambda: [1] + (2,))
check(lambda: "a" * "b")
check(lambda: 1 < "a")
NONE = None
check(lambda: NONE())
check(lambda: len(5))
check(lambda: int("abc"))
check(lambda: float("x"))
check(lambda: [].pop())
check(lambda: [1].index(2))
check(lambda: [].remove(1))
check(lambda: hash([]))
check(lambda: {[]: 1})
check(lambda: -"a")
check(lambda: abs("a"))
check(lambda: int.foo)
check(lambda: (1).foo)
check(lambda: next(iter([])))
check(lambda: max([]))
check(lambda: chr(-1))
check(lambda: "x".join([1]))
check(lambda: range(1, 2, 0))
check(lambda: sorted([1, "a"]))
check(lambda: "{} {}".format(1))
check(lambda: "%d" % "x")
check(lambda: "%s %s" % (1,))
check(lambda: iter(5))
IDX = 1.0
check(lambda: [1, 2][IDX])
check(lambda: (1, 2).x)
check(lambda: print(sep=1))
check(lambda: getattr(1, "x"))
check(lambda: isinstance(1, 2))

def f(a, b):
    pass

check(lambda: f(1))
check(lambda: f())
check(lambda: f(1, 2, 3))
check(lambda: f(1, c=2))
check(lambda: f(1, a=2))

class E(Exception):
    pass

class F(E):
    def __init__(self, code):
        super().__init__("code " + str(code))
        self.code = code

for exc in [E("plain"), F(7), KeyError("key"), ValueError("a", 1), ValueError(), IndexError("idx")]:
    try:
        raise exc
    except F as e:
        print("F", e, e.code, e.args)
    except (KeyError, IndexError) as e:
        print("lookup", type(e).__name__, e, repr(e), e.args)
    except E as e:
        print("E", e, repr(e))
    except Exception as e:
        print("other", repr(e), str(e), e.args, len(e.args))

def order():
    log = []
    for i in range(3):
        try:
            log.append("try%d" % i)
            if i == 0:
                continue
            if i == 1:
                raise RuntimeError("r")
            log.append("no-exc")
        except RuntimeError:
            log.append("except")
        else:
            log.append("else")
        finally:
            log.append("finally")
    return log

print(order())

def finally_return():
    try:
        return "try"
    finally:
        print("finally runs")

def finally_override():
    try:
        raise ValueError("lost")
    finally:
        return "override"

print(finally_return(), finally_override())

def nested():
    try:
        try:
            raise ValueError("inner")
        except ValueError as e:
            raise TypeError("outer") from e
    except TypeError as e:
        return repr(e), repr(e.__cause__), e.__suppress_context__

print(nested())

def context():
    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise KeyError("during")
    except KeyError as e:
        return repr(e.__context__), e.__cause__

print(context())

def reraise():
    try:
        try:
            raise ValueError("again")
        except ValueError:
            raise
    except ValueError as e:
        return "reraised " + str(e)

print(reraise())
try:
    assert 1 == 2, "math is broken"
except AssertionError as e:
    print("AssertionError:", e)
try:
    assert False
except AssertionError as e:
    print("bare assert", repr(e))
e = None
try:
    raise ValueError("x")
except ValueError as e:
    pass
try:
    print(e)
except NameError as err:
    print("NameError:", err)
try:
    raise StopIteration(5)
except StopIteration as s:
    print(s.value, s.args)
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError), issubclass(ModuleNotFoundError, ImportError))
print(issubclass(RecursionError, RuntimeError), issubclass(NotImplementedError, RuntimeError), issubclass(UnboundLocalError, NameError))
print(ValueError.__mro__)
def unbound():
    print(local_var)
    local_var = 1
check(unbound)
def free_unbound():
    def inner():
        return v
    r = inner()
    v = 1
check(free_unbound)
try:
    raise E
except E as ex:
    print("class raise:", repr(ex))
def raise_in_finally():
    try:
        raise ValueError("first")
    finally:
        print("cleanup")
try:
    raise_in_finally()
except ValueError as ex:
    print("got", ex)
print(repr(KeyError()), str(KeyError("a", "b")), str(Exception("a", 2)))
