# mindspore.ops.function for irscope: the functional API that MindSpore writes in Python over
# its primitives, written here over irscope's. Each function is plain Python, so in graph mode
# it compiles like user code (inlined, specialized for its constant arguments) and in PyNative
# mode it runs op by op; both give the same numbers. Names are copied into mindspore.ops
# unless the native module already has them; some are Tensor methods too (the end). The array
# functions (split, pad, ...) are in ms_ops_array.py.
from mindspore.common import dtype as mstype
from mindspore.ops import functional as F
from mindspore.ops import operations as P
from mindspore.ops._array_function import _axis, chunk, narrow, split, tensor_split, unbind


def _max_min(name, input, axis, keepdims, initial, where, find_max):
    if where is not None:
        if initial is None:
            raise ValueError("For '" + name + "', the 'initial' must be given when 'where' is given.")
        input = F.select(where, input, F.fill(input.dtype, input.shape, initial))
    elif initial is not None:
        input = F.maximum(input, initial) if find_max else F.minimum(input, initial)
    if axis is None:
        value = F.reduce_max(input) if find_max else F.reduce_min(input)
        return value, F.zeros((), mstype.int32)
    # One pass for both outputs (Int32 indices), as MindSpore's ops.max uses the primitive.
    if find_max:
        index, value = P.ArgMaxWithValue(axis, keepdims)(input)
    else:
        index, value = P.ArgMinWithValue(axis, keepdims)(input)
    return value, index


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    return _max_min("max", input, axis, keepdims, initial, where, True)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    return _max_min("min", input, axis, keepdims, initial, where, False)


def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise ValueError("For 'clamp', at least one of 'min' and 'max' must not be None.")
    out = input
    if min is not None:
        out = F.maximum(out, min)
    if max is not None:
        out = F.minimum(out, max)
    return F.cast(out, input.dtype)


def clip(input, min=None, max=None):
    return clamp(input, min, max)


def flatten(input, order='C', *, start_dim=1, end_dim=-1):
    if order not in ('C', 'F'):
        raise ValueError("For 'flatten', 'order' must be 'C' or 'F', but got '" + str(order) + "'.")
    if order == 'F':
        input = F.transpose(input, tuple(range(len(input.shape) - 1, -1, -1)))
    shape = input.shape
    rank = len(shape)
    if rank <= 1:
        return F.reshape(input, (-1,))
    start = _axis(start_dim, rank)
    end = _axis(end_dim, rank)
    if start < 0 or start >= rank or end < 0 or end >= rank:
        raise ValueError("For 'flatten', 'start_dim' and 'end_dim' must be in [" + str(-rank) + ", " +
                         str(rank - 1) + "], but got " + str(start_dim) + " and " + str(end_dim) + ".")
    if start > end:
        raise ValueError("For 'flatten', 'start_dim' cannot come after 'end_dim'.")
    return F.reshape(input, shape[:start] + (-1,) + shape[end + 1:])


def arange(start=0, end=None, step=1, *, dtype=None):
    if end is None:
        start, end = 0, start
    floating = isinstance(start, float) or isinstance(end, float) or isinstance(step, float)
    if floating:
        out = P.Range()(float(start), float(end), float(step))
    else:
        out = P.Range()(start, end, step)
    if dtype is not None:
        return F.cast(out, dtype)
    return out


def linspace(start, end, steps):
    if steps == 1:
        return F.fill(mstype.float32, (1,), start)
    delta = (end - start) / (steps - 1)
    return F.cast(P.Range()(0, steps, 1), mstype.float32) * delta + start


def mm(input, mat2):
    return F.matmul(input, mat2)


def t(input):
    if len(input.shape) < 2:
        return input
    return F.transpose(input, (1, 0))


def swapaxes(input, axis0, axis1):
    rank = len(input.shape)
    a = _axis(axis0, rank)
    b = _axis(axis1, rank)
    if a > b:
        a, b = b, a
    if a == b:
        return input
    perm = tuple(range(rank))
    return F.transpose(input, perm[:a] + (b,) + perm[a + 1:b] + (a,) + perm[b + 1:])


def topk(input, k, dim=None, largest=True, sorted=True):
    # TopK takes the k largest of the last axis: another axis is swapped there and back, the
    # k smallest are the k largest of -input.
    last = len(input.shape) - 1
    axis = last if dim is None else _axis(dim, last + 1)
    x = input if largest else -input
    if axis != last:
        x = swapaxes(x, axis, last)
    values, indices = P.TopK(sorted)(x, k)
    if not largest:
        values = -values
    if axis != last:
        values = swapaxes(values, axis, last)
        indices = swapaxes(indices, axis, last)
    return values, indices


def swapdims(input, dim0, dim1):
    return swapaxes(input, dim0, dim1)


def moveaxis(x, source, destination):
    rank = len(x.shape)
    src = _axis(source, rank)
    dst = _axis(destination, rank)
    perm = tuple(range(rank))
    rest = perm[:src] + perm[src + 1:]
    return F.transpose(x, rest[:dst] + (src,) + rest[dst:])


def movedim(x, source, destination):
    return moveaxis(x, source, destination)


def index_select(input, axis, index):
    return F.gather(input, index, axis)


def gather_d(x, dim, index):
    return F.gather_elements(x, dim, index)


def var(input, axis=None, ddof=0, keepdims=False):
    if isinstance(ddof, bool):
        ddof = 1 if ddof else 0
    mean = F.reduce_mean(input, axis, True)
    total = F.reduce_sum(F.square(input - mean), axis, keepdims)
    count = F.size(input) // F.size(mean)
    return total / (count - ddof)


def std(input, axis=None, ddof=0, keepdims=False):
    return F.sqrt(var(input, axis, ddof, keepdims))


def logsumexp(input, axis, keep_dims=False):
    peak = F.stop_gradient(F.amax(input, axis, True))
    out = F.log(F.reduce_sum(F.exp(input - peak), axis, True)) + peak
    if keep_dims:
        return out
    return F.squeeze(out, axis)


def logaddexp(input, other):
    peak = F.stop_gradient(F.maximum(input, other))
    return peak + F.log(F.exp(input - peak) + F.exp(other - peak))


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        A = F.cast(A, dtype)
    axes = dim
    if ord is None or ord == 'fro' or ord == 2:
        if ord == 2 and (dim is None and len(A.shape) == 2 or isinstance(dim, tuple) and len(dim) == 2):
            raise ValueError("irscope: the matrix 2-norm (ord=2 over two dimensions) is not supported yet.")
        return F.sqrt(F.reduce_sum(F.square(A), axes, keepdim))
    if ord == 'nuc':
        raise ValueError("irscope: the nuclear norm (ord='nuc') is not supported yet.")
    if ord == float('inf'):
        return F.amax(F.abs(A), axes, keepdim)
    if ord == float('-inf'):
        return F.amin(F.abs(A), axes, keepdim)
    if ord == 0:
        return F.reduce_sum(F.cast(F.not_equal(A, 0), A.dtype), axes, keepdim)
    if ord == 1:
        return F.reduce_sum(F.abs(A), axes, keepdim)
    return F.pow(F.reduce_sum(F.pow(F.abs(A), ord), axes, keepdim), 1.0 / ord)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    close = F.logical_or(F.equal(input, other),
                         F.less_equal(F.abs(input - other), atol + rtol * F.abs(other)))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(F.isnan(input), F.isnan(other)))
    return close


def outer(input, vec2):
    return F.reshape(input, (-1, 1)) * F.reshape(vec2, (1, -1))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(mat1, mat2)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return beta * input + alpha * F.bmm(batch1, batch2)


def addcmul(input, tensor1, tensor2, value=1):
    return input + value * tensor1 * tensor2


def addcdiv(input, tensor1, tensor2, value=1):
    return input + value * tensor1 / tensor2


def hstack(tensors):
    if len(tensors[0].shape) == 1:
        return F.concat(tensors, 0)
    return F.concat(tensors, 1)


def vstack(inputs):
    if len(inputs[0].shape) == 1:
        return F.stack(inputs, 0)
    return F.concat(inputs, 0)


def repeat_interleave(input, repeats, axis=None):
    if not isinstance(repeats, int):
        raise ValueError("irscope: repeat_interleave with per-element 'repeats' is not supported yet.")
    if axis is None:
        input = F.reshape(input, (-1,))
        axis = 0
    rank = len(input.shape)
    axis = _axis(axis, rank)
    grown = F.expand_dims(input, axis + 1)
    tiled = F.tile(grown, (1,) * (axis + 1) + (repeats,) + (1,) * (rank - axis - 1))
    shape = input.shape
    return F.reshape(tiled, shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:])


def repeat_elements(x, rep, axis=0):
    return repeat_interleave(x, rep, axis)


def trace(input):
    if len(input.shape) != 2:
        raise ValueError("For 'trace', the input must be 2-D, but got " + str(len(input.shape)) + "-D.")
    return F.reduce_sum(input * F.eye(input.shape[0], input.shape[1], input.dtype))


def rank(input_x):
    return len(input_x.shape)


def l2_normalize(x, axis=0, epsilon=1e-4):
    norm2 = F.reduce_sum(F.square(x), axis, True)
    return x / F.sqrt(F.maximum(norm2, epsilon))


def mse_loss(input, target, reduction='mean'):
    if reduction not in ('mean', 'sum', 'none'):
        raise ValueError("For 'mse_loss', 'reduction' must be in ['mean', 'sum', 'none'], but got " + str(reduction) + ".")
    x = F.square(input - target)
    if reduction == 'mean':
        return F.reduce_mean(x)
    if reduction == 'sum':
        return F.reduce_sum(x)
    return x


# Functions with arguments that change the numbers (a dtype to compute in, an initial value,
# dropout's training flag) are written here, over the primitives.
def sum(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        input = F.cast(input, dtype)
    return F.reduce_sum(input, dim, keepdim)


def _tensor_sum(input, axis=None, dtype=None, keepdims=False, initial=None):
    out = sum(input, axis, keepdims, dtype=dtype)
    return out if initial is None else out + initial


def cumsum(x, axis, dtype=None):
    if dtype is not None:
        x = F.cast(x, dtype)
    return P.CumSum()(x, axis)


def cumprod(input, dim, dtype=None):
    if dtype is not None:
        input = F.cast(input, dtype)
    return P.CumProd()(input, dim)


def _tensor_cumsum(input, axis=None, dtype=None):
    return cumsum(input, axis, dtype)


def _tensor_cumprod(input, dim, dtype=None):
    return cumprod(input, dim, dtype)


def dropout(input, p=0.5, training=True, seed=None):
    # seed: irscope's random streams are its own (the numbers differ from MindSpore's anyway).
    if not training:
        return input
    return P.Dropout(keep_prob=1.0 - p)(input)[0]


def div(input, other, *, rounding_mode=None):
    if rounding_mode is None:
        return P.Div()(input, other)
    if rounding_mode == "floor":
        return P.FloorDiv()(input, other)
    if rounding_mode == "trunc":
        return P.TruncateDiv()(input, other)
    raise ValueError("For 'div', the 'rounding_mode' must be None, 'floor' or 'trunc', but got '" +
                     str(rounding_mode) + "'.")


def _tensor_div(input, value, *, rounding_mode=None):
    return div(input, value, rounding_mode=rounding_mode)


def _ntuple(name, fn, value, n):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    if isinstance(value, (tuple, list)) and len(value) == 1:
        return (value[0],) * n
    if isinstance(value, (tuple, list)) and len(value) == n:
        return tuple(value)
    raise ValueError("For '" + fn + "', the '" + name + "' must be an int or a tuple of " + str(n) +
                     " ints, but got " + str(value) + ".")


# The 1-D, 2-D and 3-D pools all run as the 3-D primitives over (N, C, D, H, W), the
# missing leading spatial dimensions of size 1, with their padding given explicitly.
def _pool_nd(fn, x, n, kernel_size, stride, padding, ceil_mode, count_include_pad,
             divisor_override, find_max, dilation=1, return_indices=False):
    if len(x.shape) != n + 2:
        raise ValueError("For '" + fn + "', the input must be a " + str(n + 2) + "-D Tensor, but got " +
                         str(len(x.shape)) + "-D.")
    if _ntuple("dilation", fn, dilation, n) != (1,) * n:
        raise ValueError("For '" + fn + "', a 'dilation' other than 1 is not supported yet.")
    if return_indices:
        raise ValueError("For '" + fn + "', 'return_indices=True' is not supported yet.")
    kernel = _ntuple("kernel_size", fn, kernel_size, n)
    strides = kernel if stride is None else _ntuple("stride", fn, stride, n)
    if n == 3 and isinstance(padding, (tuple, list)) and len(padding) == 6:
        pad_list = tuple(padding)  # head, tail, top, bottom, left, right
    else:
        p = _ntuple("padding", fn, padding, n)
        pad_list = (p[0], p[0]) if n == 1 else (p[0], p[0], p[1], p[1]) if n == 2 else (
            p[0], p[0], p[1], p[1], p[2], p[2])
    lead = 3 - n
    kernel = (1,) * lead + kernel
    strides = (1,) * lead + strides
    pad_list = (0, 0) * lead + pad_list
    if lead >= 1:
        x = F.expand_dims(x, 2)
    if lead == 2:
        x = F.expand_dims(x, 2)
    if find_max:
        out = P.MaxPool3D(kernel_size=kernel, strides=strides, pad_mode="pad", pad_list=pad_list,
                          ceil_mode=ceil_mode)(x)
    else:
        out = P.AvgPool3D(kernel_size=kernel, strides=strides, pad_mode="pad", pad=pad_list,
                          ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                          divisor_override=0 if divisor_override is None else divisor_override)(x)
    if lead >= 1:
        out = F.squeeze(out, 2)
    if lead == 2:
        out = F.squeeze(out, 2)
    return out


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    return _pool_nd("avg_pool1d", input_x, 1, kernel_size, stride, padding, ceil_mode,
                    count_include_pad, None, False)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _pool_nd("avg_pool2d", input_x, 2, kernel_size, stride, padding, ceil_mode,
                    count_include_pad, divisor_override, False)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    return _pool_nd("avg_pool3d", input_x, 3, kernel_size, stride, padding, ceil_mode,
                    count_include_pad, divisor_override, False)


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    return _pool_nd("max_pool2d", x, 2, kernel_size, stride, padding, ceil_mode, True, None, True,
                    dilation, return_indices)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    return _pool_nd("max_pool3d", x, 3, kernel_size, stride, padding, ceil_mode, True, None, True,
                    dilation, return_indices)


# Tensor methods MindSpore defines over these functions (x.clamp(0, 1) is clamp(x, 0, 1)).
# In GRAPH_MODE symbol_resolve finds them on the class and type_inference binds them to the
# tensor when the registry has no native method of the name, or when its method does not take
# the call's arguments (x.sum(dtype=ms.float32)).
def _tensor_flatten(input, order='C', *, start_dim=0, end_dim=-1):
    """Tensor.flatten: all dimensions by default (ops.flatten keeps the first)."""
    return flatten(input, order, start_dim=start_dim, end_dim=end_dim)


def _tensor_float(input):
    return F.cast(input, mstype.float32)


def _tensor_half(input):
    return F.cast(input, mstype.float16)


def _tensor_int(input):
    return F.cast(input, mstype.int32)


def _tensor_long(input):
    return F.cast(input, mstype.int64)


def _tensor_bool(input):
    return F.cast(input, mstype.bool_)


def _tensor_expand_as(input, other):
    return F.broadcast_to(input, other.shape)


def _tensor_ravel(input):
    return F.reshape(input, (-1,))


def _tensor_gather(input, input_indices, axis, batch_dims=0):
    if batch_dims != 0:
        raise ValueError("irscope: Tensor.gather with batch_dims is not supported yet.")
    return F.gather(input, input_indices, axis)


def _tensor_new_zeros(input, size, dtype=None):
    return F.zeros(size, input.dtype if dtype is None else dtype)


def _tensor_new_ones(input, size, dtype=None):
    return F.ones(size, input.dtype if dtype is None else dtype)


def _tensor_exp2(input):
    return F.pow(2.0, input)


def _tensor_log2(input):
    return F.log(input) / 0.6931471805599453


def _tensor_log10(input):
    return F.log(input) / 2.302585092994046


def _attach_tensor_methods():
    _add_tensor_method("flatten", _tensor_flatten)
    _add_tensor_method("float", _tensor_float)
    _add_tensor_method("half", _tensor_half)
    _add_tensor_method("int", _tensor_int)
    _add_tensor_method("long", _tensor_long)
    _add_tensor_method("bool", _tensor_bool)
    _add_tensor_method("expand_as", _tensor_expand_as)
    _add_tensor_method("ravel", _tensor_ravel)
    _add_tensor_method("gather", _tensor_gather)
    _add_tensor_method("new_zeros", _tensor_new_zeros)
    _add_tensor_method("new_ones", _tensor_new_ones)
    _add_tensor_method("exp2", _tensor_exp2)
    _add_tensor_method("log2", _tensor_log2)
    _add_tensor_method("log10", _tensor_log10)
    _add_tensor_method("repeat", repeat_interleave)
    _add_tensor_method("div", _tensor_div)
    _add_tensor_method("sum", _tensor_sum)
    _add_tensor_method("cumsum", _tensor_cumsum)
    _add_tensor_method("cumprod", _tensor_cumprod)
    for name in ("clamp", "clip", "split", "chunk", "narrow", "tensor_split", "swapaxes", "t", "var", "std",
                 "norm", "logsumexp", "outer", "mm", "addmm", "index_select", "repeat_interleave",
                 "logaddexp", "trace", "unbind", "moveaxis", "topk"):
        _add_tensor_method(name, globals()[name])


_attach_tensor_methods()
