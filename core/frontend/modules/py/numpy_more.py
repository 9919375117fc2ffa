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


class AxisError(ValueError, IndexError):
    pass


def _norm_axis(axis, ndim):
    if axis < -ndim or axis >= ndim:
        raise AxisError("axis " + str(axis) + " is out of bounds for array of dimension " + str(ndim))
    return axis + ndim if axis < 0 else axis


def moveaxis(a, source, destination):
    x = np.asarray(a)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    src = [_norm_axis(s, x.ndim) for s in src]
    dst = [_norm_axis(d, x.ndim) for d in dst]
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x.transpose(tuple(order))


def swapaxes(a, axis1, axis2):
    x = np.asarray(a)
    order = list(range(x.ndim))
    i, j = _norm_axis(axis1, x.ndim), _norm_axis(axis2, x.ndim)
    order[i], order[j] = order[j], order[i]
    return x.transpose(tuple(order))


def _flat_list(x):
    return x.reshape(-1).tolist()


def nonzero(a):
    x = np.asarray(a)
    flat = _flat_list(x)
    hits = [i for i in range(len(flat)) if flat[i]]
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.")
    out = []
    stride = x.size
    for dim in x.shape:
        stride = stride // dim if dim else 1
        out.append(np.array([(i // stride) % dim for i in hits], np.int64))
    return tuple(out)


def flatnonzero(a):
    return nonzero(np.asarray(a).reshape(-1))[0]


def argwhere(a):
    idx = nonzero(a)
    return np.stack(idx, axis=-1) if len(idx[0]) else np.zeros((0, len(idx)), np.int64)


def _rows_along(x, axis):
    # x with `axis` moved last, as a list of rows (each a list), and the moved shape.
    m = moveaxis(x, axis, -1)
    n = m.shape[-1] if m.ndim else 1
    flat = _flat_list(m)
    return [flat[r * n:(r + 1) * n] for r in range(len(flat) // n if n else 0)], m.shape


def _from_rows(rows, moved_shape, axis, dtype):
    out = np.array([v for row in rows for v in row], dtype).reshape(moved_shape)
    return moveaxis(out, -1, axis)


def argsort(a, axis=-1, kind=None, order=None):
    x = np.asarray(a)
    if axis is None:
        x, axis = x.reshape(-1), 0
    rows, shape = _rows_along(x, axis)
    # A stable sort (numpy's default sort is stable for the sizes tests use); NaN last.
    key = lambda row: (lambda i: (row[i] != row[i], row[i] if row[i] == row[i] else 0))
    return _from_rows([sorted(range(len(row)), key=key(row)) for row in rows], shape, axis, np.int64)


def _cumulative(a, axis, dtype, step):
    x = np.asarray(a)
    if dtype is not None:
        x = x.astype(dtype)
    if axis is None:
        x, axis = x.reshape(-1), 0
    rows, shape = _rows_along(x, axis)
    for row in rows:
        for i in range(1, len(row)):
            row[i] = step(row[i - 1], row[i])
    return _from_rows(rows, shape, axis, x.dtype)


def cumprod(a, axis=None, dtype=None, out=None):
    return _cumulative(a, axis, dtype, lambda p, v: p * v)


def take(a, indices, axis=None, out=None, mode='raise'):
    x = np.asarray(a)
    if axis is None:
        return x.reshape(-1)[np.asarray(indices)]
    axis = _norm_axis(axis, x.ndim)
    ind = np.asarray(indices)
    picked = moveaxis(x, axis, 0)[ind]
    # picked: ind's dims, then x's other dims; ind's dims go where the axis was.
    k = ind.ndim
    rest = list(range(k, picked.ndim))
    order = rest[:axis] + list(range(k)) + rest[axis:]
    return picked.transpose(tuple(order))


def take_along_axis(arr, indices, axis):
    x = np.asarray(arr)
    ind = np.asarray(indices)
    if axis is None:
        return x.reshape(-1)[ind.reshape(-1)]
    rows, shape = _rows_along(x, axis)
    irows, ishape = _rows_along(ind, axis)
    if len(rows) == 1 and len(irows) > 1:
        rows = rows * len(irows)
    return _from_rows([[row[int(i)] for i in irow] for row, irow in zip(rows, irows)], ishape, axis, x.dtype)


def repeat(a, repeats, axis=None):
    x = np.asarray(a)
    if axis is None:
        x, axis = x.reshape(-1), 0
    axis = _norm_axis(axis, x.ndim)
    n = x.shape[axis]
    reps = [repeats] * n if isinstance(repeats, int) else list(np.asarray(repeats).reshape(-1).tolist())
    if len(reps) == 1:
        reps = reps * n
    if len(reps) != n:
        raise ValueError("operands could not be broadcast together with shape (" + str(n) + ",) (" + str(len(reps)) + ",)")
    idx = [i for i in range(n) for _ in range(int(reps[i]))]
    return take(x, np.array(idx, np.int64), axis=axis)


def tile(A, reps):
    x = np.asarray(A)
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    d = max(x.ndim, len(reps))
    x = x.reshape((1,) * (d - x.ndim) + tuple(x.shape))
    reps = (1,) * (d - len(reps)) + reps
    for ax in range(d):
        if reps[ax] != 1:
            x = np.concatenate([x] * reps[ax], axis=ax) if reps[ax] > 0 else take(x, np.zeros((0,), np.int64), axis=ax)
    return x


def diagonal(a, offset=0, axis1=0, axis2=1):
    x = np.asarray(a)
    m = moveaxis(x, (axis1, axis2), (-2, -1))
    rows, cols = m.shape[-2], m.shape[-1]
    start_r, start_c = (0, offset) if offset >= 0 else (-offset, 0)
    count = max(0, min(rows - start_r, cols - start_c))
    if count == 0:
        return np.zeros(tuple(m.shape[:-2]) + (0,), x.dtype)
    return np.stack([m[..., start_r + i, start_c + i] for i in range(count)], axis=-1)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    d = diagonal(a, offset, axis1, axis2)
    s = d.sum(axis=-1)
    return s.astype(dtype) if dtype is not None else s


def diag(v, k=0):
    x = np.asarray(v)
    if x.ndim == 1:
        n = x.shape[0] + abs(k)
        out = np.zeros((n, n), x.dtype)
        for i in range(x.shape[0]):
            if k >= 0:
                out[i, i + k] = x[i]
            else:
                out[i - k, i] = x[i]
        return out
    if x.ndim == 2:
        return diagonal(x, k)
    raise ValueError("Input must be 1- or 2-d.")


def vstack(tup):
    return np.concatenate([np.asarray(t).reshape(1, -1) if np.asarray(t).ndim < 2 else np.asarray(t) for t in tup], axis=0)


def hstack(tup):
    arrs = [np.asarray(t) for t in tup]
    return np.concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1)


def roll(a, shift, axis=None):
    x = np.asarray(a)
    if axis is None:
        return roll(x.reshape(-1), shift, 0).reshape(x.shape)
    axis = _norm_axis(axis, x.ndim)
    n = x.shape[axis]
    if n == 0:
        return x.copy()
    idx = [(i - shift) % n for i in range(n)]
    return take(x, np.array(idx, np.int64), axis=axis)


def outer(a, b):
    return np.asarray(a).reshape(-1, 1) * np.asarray(b).reshape(1, -1)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    if axis is not None:
        raise NotImplementedError("irscope: numpy.unique with axis= is not supported yet.")
    x = np.asarray(ar).reshape(-1)
    order = argsort(x)
    vals = _flat_list(x)
    uniq, first, counts, inverse = [], [], [], [0] * len(vals)
    for i in _flat_list(order):
        if not uniq or vals[i] != uniq[-1]:
            uniq.append(vals[i])
            first.append(i)
            counts.append(0)
        counts[-1] += 1
        inverse[i] = len(uniq) - 1
    result = [np.array(uniq, x.dtype)]
    if return_index:
        result.append(np.array(first, np.int64))
    if return_inverse:
        result.append(np.array(inverse, np.int64))
    if return_counts:
        result.append(np.array(counts, np.int64))
    return result[0] if len(result) == 1 else tuple(result)
