# mindspore.nn.optim for irscope: Momentum, SGD, Adam and RMSProp as update rules written with
# F.assign, so every update is an Assign side effect (ordered by auto_monad in graph mode,
# applied in place in PyNative mode).
import numpy as np
from mindspore import Tensor, Parameter, ParameterTuple
from mindspore.common import dtype as mstype
from mindspore.nn import Cell
from mindspore.ops import functional as F
from mindspore.ops import operations as P


def _check_float(cls_name, arg_name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("For '" + cls_name + "', the type of '" + arg_name + "' must be 'float', but got '" +
                        type(value).__name__ + "'.")
    return float(value)


class Optimizer(Cell):
    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        cls_name = type(self).__name__
        params = list(parameters)
        if not params:
            raise ValueError("For '" + cls_name + "', the argument 'parameters' must not be empty.")
        for p in params:
            if isinstance(p, dict):
                raise TypeError("irscope: grouped parameters (a list of dicts) for '" + cls_name +
                                "' are not supported yet")
            if not isinstance(p, Parameter):
                raise TypeError("For '" + cls_name + "', all elements of the argument 'parameters' must be "
                                "'Parameter', but got '" + type(p).__name__ + "'.")
        lr = _check_float(cls_name, "learning_rate", learning_rate)
        if lr < 0.0:
            raise ValueError("For '" + cls_name + "', the 'learning_rate' must be greater than or equal to 0, "
                             "but got " + str(lr) + ".")
        self.weight_decay = _check_float(cls_name, "weight_decay", weight_decay)
        if self.weight_decay < 0.0:
            raise ValueError("For '" + cls_name + "', the 'weight_decay' must be greater than or equal to 0, "
                             "but got " + str(weight_decay) + ".")
        self.loss_scale = _check_float(cls_name, "loss_scale", loss_scale)
        if self.loss_scale <= 0.0:
            raise ValueError("For '" + cls_name + "', the 'loss_scale' must be greater than 0, "
                             "but got " + str(loss_scale) + ".")
        self.parameters = ParameterTuple(params)
        self.decay_flags = tuple(("beta" not in p.name and "gamma" not in p.name) for p in params)
        self.learning_rate = Parameter(Tensor(lr, mstype.float32), name="learning_rate")
        self.global_step = Parameter(Tensor([0], mstype.int32), name="global_step")
        self.one_step = Tensor([1], mstype.int32)

    def _clone(self, prefix, init_value):
        out = []
        for p in self.parameters:
            data = np.full(tuple(p.shape), init_value).astype(np.float32)
            out.append(Parameter(Tensor(data, p.dtype), name=prefix + "." + p.name))
        return ParameterTuple(out)

    def get_lr(self):
        return self.learning_rate

    def _grad(self, i, gradients):
        g = gradients[i]
        if self.loss_scale != 1.0:
            g = g / self.loss_scale
        if self.weight_decay > 0.0:
            if self.decay_flags[i]:
                g = g + self.weight_decay * self.parameters[i]
        return g

    def _step_lr(self):
        """The learning rate of this step (Adam also advances its beta powers here)."""
        return self.get_lr()

    def construct(self, gradients):
        # A subclass's _update(i, g, param, lr) assigns parameter i's own state and returns
        # its new value; the loop over the parameters unrolls in graph mode.
        lr = self._step_lr()
        out = ()
        for i in range(len(self.parameters)):
            param = self.parameters[i]
            out = out + (F.assign(param, self._update(i, self._grad(i, gradients), param, lr)),)
        F.assign_add(self.global_step, self.one_step)
        return out


class Momentum(Optimizer):
    """accum = momentum * accum + grad; param -= lr * accum (nesterov: lr * (grad + momentum * accum))."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum_value = _check_float("Momentum", "momentum", momentum)
        if self.momentum_value < 0.0:
            raise ValueError("For 'Momentum', the argument 'momentum' must be at least 0.0, but got " +
                             str(momentum) + ".")
        self.use_nesterov = use_nesterov
        self.moments = self._clone("moments", 0.0)

    def _update(self, i, g, param, lr):
        accum = self.moments[i]
        F.assign(accum, accum * self.momentum_value + g)
        if self.use_nesterov:
            return param - lr * (g + accum * self.momentum_value)
        return param - lr * accum


class SGD(Optimizer):
    """MindSpore's SGD: the first step takes accum = grad, later ones
    accum = momentum * accum + (1 - dampening) * grad; nesterov adds momentum * accum to grad."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum_value = _check_float("SGD", "momentum", momentum)
        if self.momentum_value < 0.0:
            raise ValueError("For 'SGD', the argument 'momentum' must be at least 0.0, but got " +
                             str(momentum) + ".")
        self.dampening = _check_float("SGD", "dampening", dampening)
        if nesterov and (self.momentum_value <= 0.0 or self.dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                             "equal to 0.0, but got 'momentum' " + str(momentum) + ", 'dampening' " +
                             str(dampening) + ".")
        self.nesterov = nesterov
        self.accum = self._clone("accum", 0.0)
        self.stat = self._clone("stat", 1.0)

    def _update(self, i, g, param, lr):
        if self.momentum_value > 0.0:
            accum = self.accum[i]
            stat = self.stat[i]
            later = accum * self.momentum_value + g * (1.0 - self.dampening)
            F.assign(accum, stat * g + (1.0 - stat) * later)
            F.assign(stat, stat * 0.0)
            if self.nesterov:
                g = g + accum * self.momentum_value
            else:
                g = accum
        return param - lr * g


class Adam(Optimizer):
    """m = m + (1 - beta1) * (g - m); v = v + (1 - beta2) * (g * g - v);
    param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1 = _check_float("Adam", "beta1", beta1)
        self.beta2 = _check_float("Adam", "beta2", beta2)
        self.eps = _check_float("Adam", "eps", eps)
        if not 0.0 < self.beta1 < 1.0:
            raise ValueError("For 'Adam', the range of 'beta1' must be (0.0, 1.0), but got " + str(beta1) + ".")
        if not 0.0 < self.beta2 < 1.0:
            raise ValueError("For 'Adam', the range of 'beta2' must be (0.0, 1.0), but got " + str(beta2) + ".")
        if self.eps <= 0.0:
            raise ValueError("For 'Adam', the 'eps' must be greater than 0, but got " + str(eps) + ".")
        if use_amsgrad:
            raise ValueError("irscope: Adam(use_amsgrad=True) is not supported yet")
        self.use_nesterov = use_nesterov
        self.beta1_power = Parameter(Tensor(1.0, mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, mstype.float32), name="beta2_power")
        self.moment1 = self._clone("moment1", 0.0)
        self.moment2 = self._clone("moment2", 0.0)
        self.sqrt = P.Sqrt()

    def _step_lr(self):
        F.assign(self.beta1_power, self.beta1_power * self.beta1)
        F.assign(self.beta2_power, self.beta2_power * self.beta2)
        return self.get_lr() * self.sqrt(1.0 - self.beta2_power) / (1.0 - self.beta1_power)

    def _update(self, i, g, param, lr):
        m = self.moment1[i]
        v = self.moment2[i]
        F.assign(m, m + (g - m) * (1.0 - self.beta1))
        F.assign(v, v + (g * g - v) * (1.0 - self.beta2))
        if self.use_nesterov:
            step = (m * self.beta1 + g * (1.0 - self.beta1)) / (self.sqrt(v) + self.eps)
        else:
            step = m / (self.sqrt(v) + self.eps)
        return param - lr * step


class RMSProp(Optimizer):
    """ms = decay * ms + (1 - decay) * g * g (from ones); centered also keeps the mean gradient
    mg = decay * mg + (1 - decay) * g and divides by sqrt(ms - mg * mg + eps) instead of
    sqrt(ms + eps); mom = momentum * mom + lr * g / that; param -= mom."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.decay = _check_float("RMSProp", "decay", decay)
        self.momentum_value = _check_float("RMSProp", "momentum", momentum)
        self.epsilon = _check_float("RMSProp", "epsilon", epsilon)
        if self.decay < 0.0:
            raise ValueError("For 'RMSProp', the 'decay' must be at least 0.0, but got " + str(decay) + ".")
        if self.momentum_value < 0.0:
            raise ValueError("For 'RMSProp', the 'momentum' must be at least 0.0, but got " + str(momentum) + ".")
        if self.epsilon <= 0.0:
            raise ValueError("For 'RMSProp', the 'epsilon' must be greater than 0.0, but got " + str(epsilon) + ".")
        self.centered = centered
        self.mean_square = self._clone("mean_square", 1.0)
        self.moment = self._clone("moment", 0.0)
        if centered:
            self.mean_grad = self._clone("mean_grad", 0.0)
        self.sqrt = P.Sqrt()

    def _update(self, i, g, param, lr):
        ms = self.mean_square[i]
        mom = self.moment[i]
        F.assign(ms, ms * self.decay + g * g * (1.0 - self.decay))
        if self.centered:
            mg = self.mean_grad[i]
            F.assign(mg, mg * self.decay + g * (1.0 - self.decay))
            denom = self.sqrt(ms - mg * mg + self.epsilon)
        else:
            denom = self.sqrt(ms + self.epsilon)
        F.assign(mom, mom * self.momentum_value + lr * g / denom)
        return param - mom
