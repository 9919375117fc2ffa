# mindspore.nn's convolution, pooling and lookup layers for irscope (mindspore/nn/layer/conv.py,
# pooling.py, basic.py, embedding.py): Conv2d, MaxPool2d, AvgPool2d, Flatten and Embedding,
# NCHW, built on the primitives P.Conv2D, P.BiasAdd, P.MaxPool, P.AvgPool, P.Flatten, P.Gather
# and P.OneHot. Defaults are MindSpore
# 2.x's: Conv2d's weight HeUniform(negative_slope=sqrt(5)), its bias Uniform(1/sqrt(fan_in)).
import math
from mindspore import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.nn import Cell
from mindspore.ops import operations as P
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
        if self.pad_mode.upper() != "PAD" and padding != 0:
            raise ValueError("For 'Conv2d', the 'padding' must be zero when 'pad_mode' is not "
                             "'pad', but got " + str(padding) + ".")
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
