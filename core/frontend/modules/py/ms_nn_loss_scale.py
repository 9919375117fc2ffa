# mindspore.nn.wrap.loss_scale for irscope: the loss-scaled training step and its two scale
# managers. The step scales the loss's sensitivity, divides the gradients back, checks them
# for inf/NaN (the CPU's overflow test) and applies the optimizer only when none overflowed;
# the dynamic manager halves the scale on overflow and grows it after scale_window clean steps.
from mindspore import Tensor, Parameter
from mindspore.common import dtype as mstype
from mindspore.nn import Cell
from mindspore.nn.wrap import TrainOneStepCell
from mindspore.ops import composite as C
from mindspore.ops import functional as F
from mindspore.ops import operations as P


def _grad_scale(scale, grad):
    return grad * F.cast(P.Reciprocal()(scale), F.dtype(grad))


def _overflow(grad):
    return F.cast(P.LogicalNot()(P.ReduceAll()(P.IsFinite()(grad))), mstype.float32)


class DynamicLossScaleUpdateCell(Cell):
    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        self.scale_window = Tensor(scale_window, dtype=mstype.int32)
        self.scale_factor = Tensor(scale_factor, dtype=mstype.float32)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(Tensor(1, dtype=mstype.int32), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(0, dtype=mstype.int32), name="last_overflow_iterator_step")
        self.const_one = Tensor(1, dtype=mstype.float32)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        scaled_down = P.Maximum()(loss_scale / self.scale_factor, self.const_one)
        on_overflow = P.Select()(overflow, scaled_down, loss_scale)
        should_inc = P.LessEqual()(self.scale_window, self.cur_iter - self.last_overflow_iter)
        last_iter = P.Select()(P.LogicalOr()(overflow, should_inc), self.cur_iter, self.last_overflow_iter)
        last_iter = F.assign(self.last_overflow_iter, last_iter)
        grow = P.LogicalAnd()(should_inc, P.LogicalNot()(overflow))
        F.assign(loss_scale, P.Select()(grow, on_overflow * self.scale_factor, on_overflow))
        next_iter = F.depend(self.cur_iter + 1, last_iter)
        F.assign(self.cur_iter, next_iter)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, _, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.hyper_map = C.HyperMap()
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape == (1,) or scale_sense.shape == ():
                self.scale_sense = Parameter(scale_sense, name="scale_sense")
            else:
                raise ValueError("For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be "
                                 "(1,) or (), but got " + str(scale_sense.shape) + ".")
        else:
            raise TypeError("For 'TrainOneStepWithLossScaleCell', the type of 'scale_sense' must be Cell "
                            "or Tensor, but got " + type(scale_sense).__name__ + ".")

    def construct(self, *inputs):
        loss = self.network(*inputs)
        scaling_sens = self.scale_sense
        scaling_sens_filled = C.ones_like(loss) * F.cast(scaling_sens, F.dtype(loss))
        grads = self.grad(self.network, self.weights)(*inputs, scaling_sens_filled)
        grads = self.hyper_map(F.partial(_grad_scale, scaling_sens), grads)
        cond = P.Greater()(P.AddN()(self.hyper_map(_overflow, grads)), 0.0)
        overflow = self.process_loss_scale(cond)
        if not overflow:
            loss = F.depend(loss, self.optimizer(grads))
        return loss, cond, scaling_sens

    def set_sense_scale(self, sens):
        F.assign(self.scale_sense, sens)

    def process_loss_scale(self, overflow):
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow
