# mindspore.nn's convolution, pooling and lookup layers for irscope (mindspore/nn/layer/conv.py,
# pooling.py, basic.py, embedding.py): Conv2d, MaxPool1d/2d/3d, AvgPool1d/2d/3d, Flatten and
# Embedding, NCHW (NCDHW for the 3-D pools), built on the primitives P.Conv2D, P.BiasAdd,
# P.MaxPool, P.AvgPool, P.MaxPool3D, P.AvgPool3D, P.Flatten, P.Gather and P.OneHot. Defaults
# are MindSpore 2.x's: Conv2d's weight HeUniform(negative_slope=sqrt(5)), its bias
# Uniform(1/sqrt(fan_in)).
import math
from mindspore import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.nn import Cell
from mindspore.ops import operations as P
import mindspore.ops._function as _fn
from mindspore.common.initializer import initializer, HeUniform, Uniform


def _pair(name, cls, value):
    if isinstance(value, bool) or not isinstance(value, (int, tuple)):
        raise TypeError("For '" + cls + "', the type of '" + name + "' must be int or tuple, "
                        "but got " + type(value).__name__ + ".")
    if isinstance(value, int):
        value = (value, value)
    if len(value) != 2 or any(v < 1 for v in value):
        raise ValueError("For '" + cls + "', the '" + name + "' must be a positive int or a "
                         "tuple of two positive ints, but got " + str(value) + ".")
    return value


def _check_pad_mode(cls, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID", "PAD"):
        raise ValueError("For '" + cls + "', the 'pad_mode' must be one of ['same', 'valid', "
                         "'pad'], but got '" + str(pad_mode) + "'.")
    return pad_mode


def _check_padding(cls, pad_mode, padding):
    if pad_mode.upper() != "PAD" and padding != 0:
        raise ValueError("For '" + cls + "', the 'padding' must be zero when 'pad_mode' is not "
                         "'pad', but got " + str(padding) + ".")


class Conv2d(Cell):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=None):
        super().__init__()
        if in_channels <= 0 or out_channels <= 0:
            raise ValueError("For 'Conv2d', 'in_channels' and 'out_channels' must be positive "
                             "int.")
        if in_channels % group != 0 or out_channels % group != 0:
            raise ValueError("For 'Conv2d', the attr 'in_channels' and 'out_channels' must be "
                             "divisible by 'group', but got " + str(in_channels) + ", " +
                             str(out_channels) + " and " + str(group) + ".")
        if data_format != "NCHW":
            raise ValueError("For 'Conv2d', irscope supports only the 'NCHW' data_format, "
                             "but got '" + str(data_format) + "'.")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair("kernel_size", "Conv2d", kernel_size)
        self.stride = _pair("stride", "Conv2d", stride)
        self.dilation = _pair("dilation", "Conv2d", dilation)
        self.pad_mode = _check_pad_mode("Conv2d", pad_mode)
        self.padding = padding
        _check_padding("Conv2d", self.pad_mode, padding)
        self.group = group
        self.has_bias = has_bias
        self.data_format = data_format
        shape = (out_channels, in_channels // group) + self.kernel_size
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, shape), name="weight")
        if has_bias:
            if bias_init is None:
                fan_in = (in_channels // group) * self.kernel_size[0] * self.kernel_size[1]
                bias_init = Uniform(1 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, (out_channels,)), name="bias")
        else:
            self.bias = None
        self.conv2d = P.Conv2D(out_channel=out_channels, kernel_size=self.kernel_size, mode=1,
                               pad_mode=self.pad_mode, pad=padding, stride=self.stride,
                               dilation=self.dilation, group=group, data_format=data_format)
        self.bias_add = P.BiasAdd(data_format=data_format)

    def construct(self, x):
        output = self.conv2d(x, self.weight)
        if self.has_bias:
            output = self.bias_add(output, self.bias)
        return output


class _Pool2d(Cell):
    def __init__(self, cls, kernel_size, stride, pad_mode, data_format):
        super().__init__()
        if data_format != "NCHW":
            raise ValueError("For '" + cls + "', irscope supports only the 'NCHW' data_format, "
                             "but got '" + str(data_format) + "'.")
        self.kernel_size = _pair("kernel_size", cls, kernel_size)
        self.stride = _pair("stride", cls, stride)
        self.pad_mode = _check_pad_mode(cls, pad_mode).upper()
        if self.pad_mode == "PAD":
            raise ValueError("For '" + cls + "', irscope supports the 'pad_mode' 'same' and "
                             "'valid', but got 'pad'.")
        self.data_format = data_format


class MaxPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", data_format="NCHW"):
        super().__init__("MaxPool2d", kernel_size, stride, pad_mode, data_format)
        self.max_pool = P.MaxPool(kernel_size=self.kernel_size, strides=self.stride,
                                  pad_mode=self.pad_mode, data_format=data_format)

    def construct(self, x):
        return self.max_pool(x)


class AvgPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", data_format="NCHW"):
        super().__init__("AvgPool2d", kernel_size, stride, pad_mode, data_format)
        self.avg_pool = P.AvgPool(kernel_size=self.kernel_size, strides=self.stride,
                                  pad_mode=self.pad_mode, data_format=data_format)

    def construct(self, x):
        return self.avg_pool(x)


class _PoolNd(Cell):
    # nn.AvgPool1d/3d and nn.MaxPool1d/3d: pad_mode 'same' and 'valid' pool as P.AvgPool and
    # P.MaxPool do (an average over the elements inside the input), 'pad' as the functional
    # pools with explicit padding (ceil_mode, count_include_pad).
    def __init__(self, cls, n, find_max, kernel_size, stride, pad_mode, padding, ceil_mode,
                 count_include_pad=True, divisor_override=None, dilation=1, return_indices=False):
        super().__init__()
        self.pad_mode = _check_pad_mode(cls, pad_mode).upper()
        _check_padding(cls, self.pad_mode, padding)
        self.cls = cls
        self.n = n
        self.find_max = find_max
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override
        self.dilation = dilation
        self.return_indices = return_indices
        if self.pad_mode != "PAD":
            kernel = _fn._ntuple("kernel_size", cls, kernel_size, n)
            strides = _fn._ntuple("stride", cls, stride, n)
            if n == 1:
                kernel = (1,) + kernel
                strides = (1,) + strides
            prim = (P.MaxPool3D if find_max else P.AvgPool3D) if n == 3 else (
                P.MaxPool if find_max else P.AvgPool)
            if n == 3 and not find_max:
                self.pool = prim(kernel_size=kernel, strides=strides, pad_mode=self.pad_mode,
                                 count_include_pad=False)
            else:
                self.pool = prim(kernel_size=kernel, strides=strides, pad_mode=self.pad_mode)
            self.expand_dims = P.ExpandDims()
            self.squeeze = P.Squeeze(2)

    def construct(self, x):
        if self.pad_mode == "PAD":
            return _fn._pool_nd(self.cls, x, self.n, self.kernel_size, self.stride, self.padding,
                              self.ceil_mode, self.count_include_pad, self.divisor_override,
                              self.find_max, self.dilation, self.return_indices)
        if self.n == 1:
            return self.squeeze(self.pool(self.expand_dims(x, 2)))
        return self.pool(x)


class AvgPool1d(_PoolNd):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__("AvgPool1d", 1, False, kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad)


class MaxPool1d(_PoolNd):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__("MaxPool1d", 1, True, kernel_size, stride, pad_mode, padding, ceil_mode,
                         dilation=dilation, return_indices=return_indices)


class AvgPool3d(_PoolNd):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__("AvgPool3d", 3, False, kernel_size, stride, pad_mode, padding, ceil_mode,
                         count_include_pad, divisor_override)


class MaxPool3d(_PoolNd):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__("MaxPool3d", 3, True, kernel_size, stride, pad_mode, padding, ceil_mode,
                         dilation=dilation, return_indices=return_indices)


class Flatten(Cell):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        if start_dim != 1 or end_dim != -1:
            raise ValueError("For 'Flatten', irscope supports only start_dim=1 and end_dim=-1, "
                             "but got " + str(start_dim) + " and " + str(end_dim) + ".")
        self.flatten = P.Flatten()

    def construct(self, x):
        return self.flatten(x)


class Embedding(Cell):
    """Rows of `embedding_table` ([vocab_size, embedding_size]) picked by integer ids: a Gather,
    or a one-hot MatMul with use_one_hot; the output's shape is ids.shape + (embedding_size,).
    padding_idx's row starts at zero."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=mstype.int32, padding_idx=None):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError("For 'Embedding', the '" + name + "' must be a positive int, but got " +
                                 str(value) + ".")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        table = initializer(embedding_table, (vocab_size, embedding_size))
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or padding_idx < -vocab_size or padding_idx >= vocab_size:
                raise ValueError("For 'Embedding', the 'padding_idx' must be an int in [" + str(-vocab_size) + ", " +
                                 str(vocab_size) + "), but got " + str(padding_idx) + ".")
            rows = table.asnumpy()
            rows[padding_idx] = 0
            table = Tensor(rows)
        self.padding_idx = padding_idx
        self.embedding_table = Parameter(table, name="embedding_table")
        self.gather = P.Gather()
        self.one_hot = P.OneHot()
        self.matmul = P.MatMul()
        self.reshape = P.Reshape()
        self.on_value = Tensor(1.0, mstype.float32)
        self.off_value = Tensor(0.0, mstype.float32)

    def construct(self, ids):
        flat = self.reshape(ids, (-1,))
        if self.use_one_hot:
            rows = self.matmul(self.one_hot(flat, self.vocab_size, self.on_value, self.off_value),
                               self.embedding_table)
        else:
            rows = self.gather(self.embedding_table, flat, 0)
        return self.reshape(rows, ids.shape + (self.embedding_size,))
