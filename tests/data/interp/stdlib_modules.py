import math
from math import sqrt, pi
import functools
from functools import partial, reduce, wraps
from typing import List, Optional, Dict, Tuple, Any
print(sqrt(16), math.sqrt(2), pi, math.e, math.inf, math.isnan(math.nan), math.floor(-2.5), math.ceil(2.1), math.trunc(-2.7))
print(math.exp(1), math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(0.001), math.pow(2, 10), math.fabs(-3))
print(math.sin(0), math.cos(0), round(math.tan(math.pi / 4), 12), math.atan2(1, 1), math.hypot(3, 4), math.degrees(math.pi))
print(math.gcd(12, 18), math.factorial(10), math.prod([1, 2, 3, 4]), math.isclose(0.1 + 0.2, 0.3), math.isfinite(1e308))
print(math.floor(3), math.ceil(-0.5), math.copysign(1, -0.0), math.fmod(7, 3), math.erf(0), math.tanh(0.5))
for bad in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.exp(1000)]:
    try:
        bad()
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
def power(base, exp):
    return base ** exp
square = partial(power, exp=2)
cube = functools.partial(power, exp=3)
print(square(5), cube(2), partial(power, 2)(8), reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10))
def log_calls(fn):
    @wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
@log_calls
def documented(x: int) -> int:
    "Doubles x."
    return x * 2
print(documented(4), documented.__name__, documented.__qualname__, documented.__wrapped__.__name__)
def annotated(xs: List[int], m: Optional[Dict[str, Any]] = None) -> Tuple[int, ...]:
    return tuple(xs)
print(annotated([1, 2]))
try:
    reduce(lambda a, b: a, [])
except TypeError as e:
    print("TypeError:", e)
