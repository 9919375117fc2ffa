# mindspore.common.initializer for irscope: initializer(init, shape, dtype) and the
# Initializer classes. Values are drawn eagerly from numpy's global generator (np.random,
# seeded by np.random.seed or mindspore.set_seed); MindSpore's own generator differs, so
# random initial values match MindSpore in distribution, not bit for bit.
import math
import numpy as np
from mindspore import Tensor
from mindspore.common import dtype as mstype


def _fans(shape):
    dims = len(shape)
    if dims < 2:
        raise ValueError("'fan_in' and 'fan_out' can not be computed for tensor with fewer than"
                         " 2 dimensions, but got dimensions " + str(dims) + ".")
    receptive = 1
    for d in shape[2:]:
        receptive = receptive * d
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param=None):
    linear = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid"]
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError("For 'HeUniform', the argument 'nonlinearity' " + repr(nonlinearity) + " is not supported.")


class Initializer:
    """Base class: _initialize(shape) returns a float64 numpy array of that shape."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, shape):
        raise NotImplementedError("Must be overridden!")

    def __call__(self, arr):
        return self._initialize(tuple(arr.shape))


class Zero(Initializer):
    def _initialize(self, shape):
        return np.zeros(shape)


class One(Initializer):
    def _initialize(self, shape):
        return np.ones(shape)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, shape):
        return np.full(shape, self.value)


class Normal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma = sigma
        self.mean = mean

    def _initialize(self, shape):
        return np.random.normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, shape):
        return np.random.uniform(-self.scale, self.scale, shape)


class TruncatedNormal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma = sigma
        self.mean = mean
        self.a = a
        self.b = b

    def _initialize(self, shape):
        # Redraws values outside [a, b] standard deviations.
        out = np.random.normal(0.0, 1.0, shape)
        bad = (out < self.a) | (out > self.b)
        while bool(np.any(bad)):
            redraw = np.random.normal(0.0, 1.0, shape)
            out = np.where(bad, redraw, out)
            bad = (out < self.a) | (out > self.b)
        return out * self.sigma + self.mean


class XavierUniform(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, shape):
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return np.random.uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, shape):
        fan_in, fan_out = _fans(shape)
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return np.random.normal(0.0, std, shape)


class _He(Initializer):
    # HeUniform and HeNormal: the nonlinearity's gain and the fan `mode` names.
    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = mode
        self.nonlinearity = nonlinearity

    def _fan(self, shape):
        fan_in, fan_out = _fans(shape)
        return fan_in if self.mode == "fan_in" else fan_out

    def _gain(self):
        return _gain(self.nonlinearity, self.negative_slope)


class HeUniform(_He):
    def _initialize(self, shape):
        bound = self._gain() * math.sqrt(3.0 / self._fan(shape))
        return np.random.uniform(-bound, bound, shape)


class HeNormal(_He):
    def _initialize(self, shape):
        std = self._gain() / math.sqrt(self._fan(shape))
        return np.random.normal(0.0, std, shape)


_ALIASES = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "uniform": Uniform, "truncatednormal": TruncatedNormal,
    "truncated_normal": TruncatedNormal, "xavieruniform": XavierUniform, "xavier_uniform": XavierUniform,
    "xaviernormal": XavierNormal, "xavier_normal": XavierNormal, "heuniform": HeUniform,
    "he_uniform": HeUniform, "henormal": HeNormal, "he_normal": HeNormal,
}


def _shape_tuple(shape):
    if shape is None:
        return None
    if isinstance(shape, int):
        return (shape,)
    return tuple(shape)


def initializer(init, shape=None, dtype=mstype.float32):
    """A Tensor of `shape` and `dtype` filled by `init` (an Initializer, its name, a number or a Tensor)."""
    if isinstance(init, Tensor):
        shape = _shape_tuple(shape)
        if shape is not None and tuple(init.shape) != shape:
            raise ValueError("The shape of the 'init' argument should be same as the argument 'shape', "
                             "but got the 'init' shape " + str(tuple(init.shape)) + " and the 'shape' " +
                             str(shape) + ".")
        return init
    shape = _shape_tuple(shape)
    if shape is None:
        raise ValueError("For 'initializer', the argument 'shape' must be given when 'init' is not a Tensor.")
    for d in shape:
        if not isinstance(d, int) or d <= 0:
            raise ValueError("For 'initializer', the argument 'shape' should be a tuple of positive ints, "
                             "but got " + str(shape) + ".")
    if isinstance(init, bool) or not isinstance(init, (int, float, str, Initializer)):
        if isinstance(init, type) and issubclass(init, Initializer):
            init = init()
        else:
            raise TypeError("For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', "
                            "'string' or 'Initializer', but got " + str(type(init)) + ".")
    if isinstance(init, (int, float)):
        init = Constant(init)
    elif isinstance(init, str):
        key = init.lower()
        if key not in _ALIASES:
            raise ValueError("For 'initializer', the 'init' name '" + init + "' is not supported.")
        init = _ALIASES[key]()
    values = init._initialize(shape)
    return Tensor(np.asarray(values).astype(np.float64), dtype)
