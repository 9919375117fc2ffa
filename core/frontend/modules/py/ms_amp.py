# mindspore.amp for irscope: the loss-scale managers, which hand TrainOneStepWithLossScaleCell
# its scale and its update cell.
from mindspore.nn.wrap.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell


class LossScaleManager:
    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if loss_scale < 1:
            raise ValueError("For 'FixedLossScaleManager', the argument 'loss_scale' must be >= 1, "
                             "but got " + str(loss_scale) + ".")
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        pass

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1.0:
            raise ValueError("For 'DynamicLossScaleManager', the argument 'init_loss_scale' must be >= 1, "
                             "but got " + str(init_loss_scale) + ".")
        if scale_factor <= 1:
            raise ValueError("For 'DynamicLossScaleManager', the argument 'scale_factor' must be > 1, "
                             "but got " + str(scale_factor) + ".")
        self.loss_scale = init_loss_scale
        self.scale_window = scale_window
        self.scale_factor = scale_factor
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow):
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        self.cur_iter += 1

    def get_drop_overflow_update(self):
        return True

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
