# mindspore.ops.function's array functions for irscope (MindSpore's array_func.py): cutting a
# tensor into pieces (split, chunk, narrow, tensor_split) and padding it (pad), written over
# Slice, Split, Concat, Fill, BroadcastTo and ReverseV2. Plain Python, as ms_ops_function.py:
# in graph mode their loops over tuples whose length only type inference knows (the padding,
# the sections) are counter loops that type inference unrolls.
from mindspore.ops import functional as F
from mindspore.ops import operations as P


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


def _slice_axis(x, axis, start, length):
    rank = len(x.shape)
    begin = (0,) * axis + (start,) + (0,) * (rank - axis - 1)
    return F.slice(x, begin, x.shape[:axis] + (length,) + x.shape[axis + 1:])


def _split_by_size(tensor, size, axis, name):
    if not isinstance(size, int) or size <= 0:
        raise ValueError("For '" + name + "', the size of each piece must be a positive int, but got " + str(size) + ".")
    n = tensor.shape[axis]
    count = n // size
    rest = n - count * size
    if count == 0:
        return (tensor,)
    if rest == 0:
        return P.Split(axis, count)(tensor)
    return P.Split(axis, count)(_slice_axis(tensor, axis, 0, count * size)) + (_slice_axis(tensor, axis, count * size, rest),)


def _split_by_sections(tensor, sections, axis):
    out = ()
    start = 0
    for size in sections:
        out = out + (_slice_axis(tensor, axis, start, size),)
        start = start + size
    if start != tensor.shape[axis]:
        raise ValueError("For 'split', the sum of 'split_size_or_sections' must be " + str(tensor.shape[axis]) +
                         ", but got " + str(start) + ".")
    return out


def split(tensor, split_size_or_sections, axis=0):
    axis = _axis(axis, len(tensor.shape))
    if isinstance(split_size_or_sections, int):
        return _split_by_size(tensor, split_size_or_sections, axis, "split")
    return _split_by_sections(tensor, split_size_or_sections, axis)


def chunk(input, chunks, axis=0):
    if not isinstance(chunks, int) or chunks <= 0:
        raise ValueError("For 'chunk', 'chunks' must be a positive int, but got " + str(chunks) + ".")
    axis = _axis(axis, len(input.shape))
    n = input.shape[axis]
    return _split_by_size(input, (n + chunks - 1) // chunks, axis, "chunk")


def unbind(input, dim=0):
    return F.unstack(input, dim)


def narrow(input, axis, start, length):
    return _slice_axis(input, _axis(axis, len(input.shape)), start, length)


def tensor_split(input, indices_or_sections, axis=0):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError("Type of Argument `axis` should be integer but got " + str(axis))
    rank = len(input.shape)
    if axis < -rank or axis >= rank:
        raise ValueError("For 'tensor_split', the 'axis' must be in [" + str(-rank) + ", " + str(rank) +
                         "), but got " + str(axis) + ".")
    axis = _axis(axis, rank)
    n = input.shape[axis]
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        if indices_or_sections <= 0:
            raise ValueError("For tensor_split, the value of 'indices_or_sections' must be more than zero "
                             "but got " + str(indices_or_sections))
        # n // sections elements each, the first n % sections of them one more.
        size = n // indices_or_sections
        longer = n % indices_or_sections
        out = ()
        start = 0
        for i in range(indices_or_sections):
            length = size + 1 if i < longer else size
            out = out + (_slice_axis(input, axis, start, length),)
            start = start + length
        return out
    if not isinstance(indices_or_sections, (tuple, list)):
        raise TypeError("Type of Argument `indices_or_sections` should be integer, tuple(int) or list(int), "
                        "but got " + str(indices_or_sections))
    # input[:i0], input[i0:i1], ..., input[ik:] along axis, with Python's slice bounds.
    out = ()
    start = 0
    for index in tuple(indices_or_sections) + (n,):
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError("Each element in 'indices_or_sections' should be integer, but got " +
                            str(indices_or_sections) + ".")
        stop = index + n if index < 0 else index
        stop = 0 if stop < 0 else n if stop > n else stop
        out = out + (_slice_axis(input, axis, start, stop - start if stop > start else 0),)
        start = stop
    return out


def _pad_block(x, axis, size, mode, value, before):
    """What pad puts before (or after) x along axis: `size` elements."""
    n = x.shape[axis]
    shape = x.shape[:axis] + (size,) + x.shape[axis + 1:]
    if mode == 'constant':
        return F.fill(x.dtype, shape, 0 if value is None else value)
    if mode == 'replicate':
        return F.broadcast_to(_slice_axis(x, axis, 0 if before else n - 1, 1), shape)
    if mode == 'circular':
        # The other end wrapped around: before x its last `size` elements, after it its first.
        if size > n:
            raise ValueError("For 'pad', in 'circular' mode each padding must be at most the size of its dimension (" +
                             str(n) + "), but got " + str(size) + ".")
        return _slice_axis(x, axis, n - size if before else 0, size)
    # reflect: the elements next to the edge, mirrored (the edge itself is not repeated).
    if size >= n:
        raise ValueError("For 'pad', in 'reflect' mode each padding must be less than the size of its dimension (" +
                         str(n) + "), but got " + str(size) + ".")
    if before:
        return F.flip(_slice_axis(x, axis, 1, size), (axis,))
    return F.flip(_slice_axis(x, axis, n - 1 - size, size), (axis,))


def _pad_axis(x, axis, before, after, mode, value):
    if before < 0 or after < 0:
        # A negative padding crops.
        if mode != 'constant':
            raise ValueError("For 'pad', a negative padding is supported in 'constant' mode only, but got mode '" +
                             mode + "'.")
        n = x.shape[axis]
        start = -before if before < 0 else 0
        stop = n + after if after < 0 else n
        if stop < start:
            raise ValueError("For 'pad', the negative padding (" + str(before) + ", " + str(after) +
                             ") removes more than the " + str(n) + " elements of dimension " + str(axis) + ".")
        x = _slice_axis(x, axis, start, stop - start)
        before = 0 if before < 0 else before
        after = 0 if after < 0 else after
    if before == 0 and after == 0:
        return x
    parts = (x,)
    if before > 0:
        parts = (_pad_block(x, axis, before, mode, value, True),) + parts
    if after > 0:
        parts = parts + (_pad_block(x, axis, after, mode, value, False),)
    return F.concat(parts, axis)


def pad(input_x, padding, mode='constant', value=None):
    if not isinstance(padding, (tuple, list)):
        raise TypeError("For 'pad', the 'padding' must be a tuple or list of ints (a Tensor is not supported "
                        "yet by irscope).")
    for p in padding:
        if not isinstance(p, int) or isinstance(p, bool):
            raise TypeError("For 'pad', the 'padding' must be a tuple or list of ints, but got " +
                            str(padding) + ".")
    if len(padding) % 2 != 0:
        raise ValueError("For 'pad', the length of 'padding' must be even, but got " + str(len(padding)) + ".")
    rank = len(input_x.shape)
    if len(padding) // 2 > rank:
        raise ValueError("For 'pad', the 'padding' pads " + str(len(padding) // 2) + " dimensions, but the input " +
                         "has " + str(rank) + ".")
    if mode not in ('constant', 'reflect', 'replicate', 'circular'):
        raise ValueError("For 'pad', the 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', but got '" +
                         str(mode) + "'.")
    if mode != 'constant' and value is not None:
        raise ValueError("For 'pad', the 'value' can be given in 'constant' mode only, but got mode '" + mode + "'.")
    # (left, right) of the last dimension first, then of the one before it, ...
    out = input_x
    for k in range(len(padding) // 2):
        out = _pad_axis(out, rank - 1 - k, padding[2 * k], padding[2 * k + 1], mode, value)
    return out
