# mindspore.numpy for irscope: NumPy's array functions over Tensors, written over mindspore.ops
# as MindSpore's own module is, so they run op by op in PyNative mode and compile like user
# code in graph mode. As in MindSpore, an integer array without a dtype is Int32 and a float
# one Float32. The everyday functions only: creation, shape, reductions, elementwise math.
from mindspore import Tensor, ops
from mindspore.common import dtype as mstype

bool_ = mstype.bool_
int8, int16, int32, int64 = mstype.int8, mstype.int16, mstype.int32, mstype.int64
uint8 = mstype.uint8
float16, float32, float64 = mstype.float16, mstype.float32, mstype.float64
pi = 3.141592653589793
e = 2.718281828459045
inf = float("inf")
nan = float("nan")


def _default_dtype(value):
    if isinstance(value, bool):
        return mstype.bool_
    if isinstance(value, int):
        return mstype.int32
    if isinstance(value, float):
        return mstype.float32
    if isinstance(value, (tuple, list)):
        kinds = [_default_dtype(v) for v in value]
        if mstype.float32 in kinds:
            return mstype.float32
        if mstype.int32 in kinds:
            return mstype.int32
        return mstype.bool_ if kinds else mstype.float32
    return None


def array(obj, dtype=None, copy=True, ndmin=0):
    if isinstance(obj, Tensor):
        out = obj if dtype is None else ops.cast(obj, dtype)
    else:
        d = dtype if dtype is not None else _default_dtype(obj)
        out = Tensor(obj, d) if d is not None else Tensor(obj)
    while len(out.shape) < ndmin:
        out = ops.expand_dims(out, 0)
    return out


def asarray(a, dtype=None):
    return array(a, dtype)


def zeros(shape, dtype=mstype.float32):
    return ops.zeros(shape, dtype)


def ones(shape, dtype=mstype.float32):
    return ops.ones(shape, dtype)


def full(shape, fill_value, dtype=None):
    d = dtype if dtype is not None else _default_dtype(fill_value)
    return ops.fill(d, shape if isinstance(shape, tuple) else (shape,), fill_value)


def zeros_like(a, dtype=None):
    return ops.zeros(a.shape, a.dtype if dtype is None else dtype)


def ones_like(a, dtype=None):
    return ops.ones(a.shape, a.dtype if dtype is None else dtype)


def full_like(a, fill_value, dtype=None):
    return ops.fill(a.dtype if dtype is None else dtype, a.shape, fill_value)


def arange(start, stop=None, step=None, dtype=None):
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    d = dtype if dtype is not None else _default_dtype((start, stop, step))
    return ops.cast(ops.arange(start, stop, step), d)


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    if endpoint:
        out = ops.linspace(float(start), float(stop), num)
    else:
        out = ops.linspace(float(start), float(stop), num + 1)[:num]
    return out if dtype is None else ops.cast(out, dtype)


def eye(N, M=None, k=0, dtype=mstype.float32):
    if k != 0:
        raise ValueError("irscope: mindspore.numpy.eye with k != 0 is not supported yet.")
    return ops.eye(N, N if M is None else M, dtype)


def identity(n, dtype=mstype.float32):
    return ops.eye(n, n, dtype)


def shape(a):
    return a.shape


def ndim(a):
    return len(a.shape)


def size(a):
    return a.size


def reshape(a, newshape):
    return ops.reshape(a, newshape)


def ravel(a):
    return ops.reshape(a, (-1,))


def transpose(a, axes=None):
    if axes is None:
        axes = tuple(range(len(a.shape) - 1, -1, -1))
    return ops.transpose(a, axes)


def expand_dims(a, axis):
    return ops.expand_dims(a, axis)


def squeeze(a, axis=None):
    return ops.squeeze(a) if axis is None else ops.squeeze(a, axis)


def concatenate(arrays, axis=0):
    return ops.concat(tuple(arrays), axis)


def stack(arrays, axis=0):
    return ops.stack(tuple(arrays), axis)


def tile(a, reps):
    return ops.tile(a, reps if isinstance(reps, tuple) else (reps,))


def flip(m, axis=None):
    if axis is None:
        axis = tuple(range(len(m.shape)))
    return ops.flip(m, axis if isinstance(axis, tuple) else (axis,))


def where(condition, x, y):
    return ops.select(condition, x, y)


def clip(a, a_min, a_max):
    return ops.clamp(a, a_min, a_max)


def sum(a, axis=None, dtype=None, keepdims=False):
    out = a.sum(axis, keepdims=keepdims)
    return out if dtype is None else ops.cast(out, dtype)


def mean(a, axis=None, keepdims=False):
    return ops.mean(a, axis, keepdims)


def amax(a, axis=None, keepdims=False):
    return ops.amax(a, axis, keepdims)


def amin(a, axis=None, keepdims=False):
    return ops.amin(a, axis, keepdims)


def argmax(a, axis=None):
    return ops.argmax(a if axis is not None else ops.reshape(a, (-1,)), 0 if axis is None else axis)


def argmin(a, axis=None):
    return ops.argmin(a if axis is not None else ops.reshape(a, (-1,)), 0 if axis is None else axis)


def cumsum(a, axis=None):
    return ops.cumsum(a if axis is not None else ops.reshape(a, (-1,)), 0 if axis is None else axis)


# The functions that are mindspore.ops' own, under NumPy's names.
dot = matmul = ops.matmul
add, subtract, multiply, divide, power = ops.add, ops.sub, ops.mul, ops.div, ops.pow
maximum, minimum = ops.maximum, ops.minimum
absolute = abs = ops.abs
exp, log, sqrt, square = ops.exp, ops.log, ops.sqrt, ops.square
sin, cos, tanh = ops.sin, ops.cos, ops.tanh
isnan, isinf, isfinite = ops.isnan, ops.isinf, ops.isfinite
