# numpy functions irscope writes in Python over its native numpy: var and std, and
# numpy.random.choice (numpy's legacy algorithm: randint for draws with replacement,
# permutation without, so a seeded choice gives numpy's numbers).
import numpy as np


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    if out is not None:
        raise NotImplementedError("irscope: numpy.var with out= is not supported yet.")
    x = np.asarray(a)
    if dtype is not None:
        x = x.astype(dtype)
    elif str(x.dtype) not in ("float16", "float32", "float64"):
        x = x.astype(np.float64)
    mean = x.mean(axis=axis, keepdims=True)
    d = x - mean
    n = x.size // mean.size
    return (d * d).sum(axis=axis, keepdims=keepdims) / (n - ddof)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return np.sqrt(var(a, axis, dtype, out, ddof, keepdims))


def _choice(a, size=None, replace=True, p=None):
    if p is not None:
        raise NotImplementedError("irscope: numpy.random.choice with p= is not supported yet.")
    if isinstance(a, int):
        pop_size = a
        if pop_size <= 0:
            raise ValueError("a must be greater than 0 unless no samples are taken")
    elif isinstance(a, (list, tuple)) and len(a) > 0 and isinstance(a[0], str):
        # numpy would make an array of strings; irscope's arrays are numeric, so the strings
        # are picked from the list itself.
        pop_size = len(a)
    else:
        a = np.array(a)
        if len(a.shape) != 1:
            raise ValueError("a must be 1-dimensional")
        pop_size = a.shape[0]
        if pop_size == 0:
            raise ValueError("'a' cannot be empty unless no samples are taken")
    if replace:
        idx = np.random.randint(0, pop_size, size=size)
    else:
        count = 1 if size is None else int(np.prod(np.array(size)))
        if count > pop_size:
            raise ValueError("Cannot take a larger sample than population when 'replace=False'")
        idx = np.random.permutation(pop_size)[:count]
        idx = idx[0] if size is None else idx.reshape(size)
    if isinstance(a, int):
        return idx
    if isinstance(a, (list, tuple)):
        if size is not None:
            raise NotImplementedError("irscope: numpy.random.choice of strings with size= is not supported yet.")
        return a[int(idx)]
    return a[idx]
