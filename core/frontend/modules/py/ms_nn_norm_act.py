# mindspore.nn's normalization, activation and padding layers for irscope
# (mindspore/nn/layer/normalization.py, activation.py, padding.py): BatchNorm1d, BatchNorm2d,
# LeakyReLU, SeLU, CELU, HShrink, SoftShrink, ELU, LogSoftmax, SiLU, Softplus, PReLU, Identity,
# Pad and OneHot (basic.py), built on the primitives P.BatchNorm, P.Maximum/P.Minimum, P.SeLU,
# P.CeLU, P.HShrink, P.SoftShrink, P.Elu, P.LogSoftmax, P.SiLU, P.Softplus, P.Pad, P.MirrorPad
# and P.OneHot.
# BatchNorm's training form updates moving_mean and moving_variance in place (P.BatchNorm's
# momentum is 1 - the layer's momentum, as MindSpore passes it).
import numpy as np
from mindspore import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.nn import Cell
from mindspore.ops import operations as P
from mindspore.common.initializer import initializer


class _BatchNorm(Cell):
    def __init__(self, cls, rank, num_features, eps, momentum, affine, gamma_init, beta_init,
                 moving_mean_init, moving_var_init, use_batch_statistics, data_format):
        super().__init__()
        if not isinstance(num_features, int) or isinstance(num_features, bool) or num_features < 1:
            raise ValueError("For '" + cls + "', the 'num_features' must be a positive int, "
                             "but got " + str(num_features) + ".")
        if momentum < 0 or momentum > 1:
            raise ValueError("For '" + cls + "', the 'momentum' must be in range [0, 1], but "
                             "got " + str(momentum) + ".")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError("For '" + cls + "', the 'data_format' must be 'NCHW' or 'NHWC', "
                             "but got '" + str(data_format) + "'.")
        self.cls = cls
        self.rank = rank
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.use_batch_statistics = use_batch_statistics
        self.moving_mean = Parameter(initializer(moving_mean_init, (num_features,)),
                                     name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, (num_features,)),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, (num_features,)), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, (num_features,)), name="beta",
                              requires_grad=affine)
        self.bn_train = P.BatchNorm(is_training=True, epsilon=eps, momentum=1.0 - momentum,
                                    data_format=data_format)
        self.bn_infer = P.BatchNorm(is_training=False, epsilon=eps, data_format=data_format)

    def construct(self, x):
        if self.use_batch_statistics is None:
            if self.training:
                return self.bn_train(x, self.gamma, self.beta, self.moving_mean,
                                     self.moving_variance)[0]
            return self.bn_infer(x, self.gamma, self.beta, self.moving_mean,
                                 self.moving_variance)[0]
        if self.use_batch_statistics:
            return self.bn_train(x, self.gamma, self.beta, self.moving_mean,
                                 self.moving_variance)[0]
        return self.bn_infer(x, self.gamma, self.beta, self.moving_mean,
                             self.moving_variance)[0]

    def extend_repr(self):
        return ("num_features=" + str(self.num_features) + ", eps=" + str(self.eps) +
                ", momentum=" + str(self.momentum))


class BatchNorm1d(_BatchNorm):
    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=None):
        super().__init__("BatchNorm1d", 2, num_features, eps, momentum, affine, gamma_init,
                         beta_init, moving_mean_init, moving_var_init, use_batch_statistics,
                         data_format)


class BatchNorm2d(_BatchNorm):
    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=None):
        super().__init__("BatchNorm2d", 4, num_features, eps, momentum, affine, gamma_init,
                         beta_init, moving_mean_init, moving_var_init, use_batch_statistics,
                         data_format)


class LeakyReLU(Cell):
    """max(alpha * x, x) (min when alpha > 1), as MindSpore's layer computes it."""

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError("For 'LeakyReLU', the 'alpha' must be a number, but got " +
                            type(alpha).__name__ + ".")
        self.alpha = alpha
        self.select_op = P.Maximum() if alpha <= 1 else P.Minimum()

    def construct(self, x):
        return self.select_op(self.alpha * x, x)


class SeLU(Cell):
    def __init__(self):
        super().__init__()
        self.selu = P.SeLU()

    def construct(self, input_x):
        return self.selu(input_x)


class CELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.celu = P.CeLU(alpha=alpha)

    def construct(self, x):
        return self.celu(x)


class HShrink(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.hshrink = P.HShrink(lambd)

    def construct(self, input_x):
        return self.hshrink(input_x)


class SoftShrink(Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.softshrink = P.SoftShrink(lambd)

    def construct(self, input_x):
        return self.softshrink(input_x)


class ELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.elu = P.Elu(alpha)

    def construct(self, x):
        return self.elu(x)


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.log_softmax = P.LogSoftmax(axis)

    def construct(self, x):
        return self.log_softmax(x)


class SiLU(Cell):
    def __init__(self):
        super().__init__()
        self.silu = P.SiLU()

    def construct(self, x):
        return self.silu(x)


class Softplus(Cell):
    """log(1 + exp(beta * x)) / beta, and x itself where beta * x exceeds the threshold."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold
        self.softplus = P.Softplus()
        self.select = P.Select()

    def construct(self, input):
        scaled = input * self.beta
        return self.select(scaled > self.threshold, input, self.softplus(scaled) / self.beta)


class PReLU(Cell):
    """max(0, x) + w * min(0, x), one learnable w per channel (axis 1), named 'a'."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        if not isinstance(channel, int) or isinstance(channel, bool) or channel < 1:
            raise ValueError("For 'PReLU', the 'channel' must be a positive int, but got " + str(channel) + ".")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            w = Tensor(np.full([channel], w, np.float32))
        self.w = Parameter(w, name='a')
        self.maximum = P.Maximum()
        self.minimum = P.Minimum()
        self.reshape = P.Reshape()

    def construct(self, x):
        w = self.w
        if len(x.shape) >= 2:
            w = self.reshape(w, (1, -1) + (1,) * (len(x.shape) - 2))
        return self.maximum(x, 0.0) + w * self.minimum(x, 0.0)


class Identity(Cell):
    def __init__(self):
        super().__init__()

    def construct(self, x):
        return x


class OneHot(Cell):
    """on_value at each index along a new axis (depth long), off_value elsewhere, of dtype."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        self.onehot = P.OneHot(axis)
        self.depth = depth
        self.on_value = Tensor(on_value, dtype)
        self.off_value = Tensor(off_value, dtype)

    def construct(self, indices):
        return self.onehot(indices, self.depth, self.on_value, self.off_value)


class Pad(Cell):
    """Pads with zeros ('CONSTANT') or the input's reflection ('REFLECT', 'SYMMETRIC')."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError("For 'Pad', the 'mode' must be in ['CONSTANT', 'REFLECT', "
                             "'SYMMETRIC'], but got " + str(mode) + ".")
        if not isinstance(paddings, tuple):
            raise TypeError("For 'Pad', the type of 'paddings' must be tuple, but got " +
                            type(paddings).__name__ + ".")
        for item in paddings:
            if not isinstance(item, tuple) or len(item) != 2:
                raise ValueError("For 'Pad', the dimension of 'paddings' must be (n, 2), but "
                                 "got " + str(paddings) + ".")
        self.mode = mode
        self.paddings = paddings
        if mode == "CONSTANT":
            self.pad = P.Pad(paddings)
        else:
            self.paddings = Tensor(np.array(paddings))
            self.pad = P.MirrorPad(mode=mode)

    def construct(self, x):
        if self.mode == "CONSTANT":
            return self.pad(x)
        return self.pad(x, self.paddings)
