# random for irscope: CPython's Mersenne Twister functions written over the same MT19937
# (the natives _seed and _u32, shared with numpy's legacy generator), seeded the way CPython
# seeds it (init_by_array of the seed's 32-bit words, least significant first), so a seeded
# script draws CPython's numbers: random, getrandbits, randrange, randint, choice, shuffle,
# sample, uniform, gauss and normalvariate.
from math import log as _log, sqrt as _sqrt, cos as _cos, sin as _sin, pi as _pi, ceil as _ceil, exp as _exp

_gauss_next = [None]
_NV_MAGICCONST = 4 * _exp(-0.5) / _sqrt(2.0)


def seed(a=None, version=2):
    if a is None:
        _seed(None)
    elif isinstance(a, (int, float)):
        a = abs(int(a)) if isinstance(a, int) else abs(hash(a))
        words = []
        while True:
            words.append(a & 0xFFFFFFFF)
            a = a >> 32
            if a == 0:
                break
        _seed(words)
    elif isinstance(a, (str, bytes, bytearray)):
        raise NotImplementedError("irscope: random.seed() of a str or bytes is not supported yet (an int is).")
    else:
        raise TypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
    _gauss_next[0] = None


def random():
    return _random()


def getrandbits(k):
    if k < 0:
        raise ValueError("number of bits must be non-negative")
    if k == 0:
        return 0
    if k <= 32:
        return _u32() >> (32 - k)
    result = 0
    shift = 0
    while k > 0:
        r = _u32()
        if k < 32:
            r = r >> (32 - k)
        result = result | (r << shift)
        shift = shift + 32
        k = k - 32
    return result


def _bit_length(n):
    bits = 0
    while n > 0:
        n = n >> 1
        bits = bits + 1
    return bits


def _randbelow(n):
    k = _bit_length(n)
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def randrange(start, stop=None, step=1):
    istart = int(start)
    if stop is None:
        if istart > 0:
            return _randbelow(istart)
        raise ValueError("empty range for randrange()")
    istop = int(stop)
    width = istop - istart
    istep = int(step)
    if istep == 1:
        if width > 0:
            return istart + _randbelow(width)
        raise ValueError("empty range for randrange() (%d, %d, %d)" % (istart, istop, width))
    if istep > 0:
        n = (width + istep - 1) // istep
    elif istep < 0:
        n = (width + istep + 1) // istep
    else:
        raise ValueError("zero step for randrange()")
    if n <= 0:
        raise ValueError("empty range for randrange()")
    return istart + istep * _randbelow(n)


def randint(a, b):
    return randrange(a, b + 1)


def choice(seq):
    if not len(seq):
        raise IndexError("Cannot choose from an empty sequence")
    return seq[_randbelow(len(seq))]


def shuffle(x):
    for i in reversed(range(1, len(x))):
        j = _randbelow(i + 1)
        x[i], x[j] = x[j], x[i]


def sample(population, k, *, counts=None):
    if counts is not None:
        raise NotImplementedError("irscope: random.sample() with counts is not supported yet.")
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [None] * k
    setsize = 21
    if k > 5:
        setsize = setsize + 4 ** _ceil(_log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = _randbelow(n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = set()
        for i in range(k):
            j = _randbelow(n)
            while j in selected:
                j = _randbelow(n)
            selected.add(j)
            result[i] = population[j]
    return result


def uniform(a, b):
    return a + (b - a) * random()


def gauss(mu=0.0, sigma=1.0):
    z = _gauss_next[0]
    _gauss_next[0] = None
    if z is None:
        x2pi = random() * 2.0 * _pi
        g2rad = _sqrt(-2.0 * _log(1.0 - random()))
        z = _cos(x2pi) * g2rad
        _gauss_next[0] = _sin(x2pi) * g2rad
    return mu + z * sigma


def normalvariate(mu=0.0, sigma=1.0):
    while True:
        u1 = random()
        u2 = 1.0 - random()
        z = _NV_MAGICCONST * (u1 - 0.5) / u2
        zz = z * z / 4.0
        if zz <= -_log(u2):
            break
    return mu + z * sigma
