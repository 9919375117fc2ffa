# Where MS_DEV_SIDE_EFFECT_LOAD_ELIM levels 1 and 2 differ. `construct` reads the Parameter
# `w` twice: once before `ops.assign` rewrites it and once after. Each read is a Load of w at
# its own state (the U monad after the previous side effect), so w is loaded at two states.
# Level 1 (the default) copies both Loads with a TensorMove because w is loaded more than
# once. Level 2 looks closer: the Mul reads only the first Load (and runs before the write,
# which consumes its result), the Add reads only the second one; no single user mixes values
# of w from two states, so no copy is needed, and none is made. The printed results are the
# same at every level (run it with MS_DEV_SIDE_EFFECT_LOAD_ELIM=0, 1, 2 or 3).
# In irscope: compare the auto_monad_reorder snapshot at levels 1 and 2 (2 TensorMoves, then
# none), and the execution order: both Loads' readers run before the next write of w.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter

ms.set_context(mode=ms.GRAPH_MODE)


class Rescale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0]), ms.float32), name="w")

    def construct(self, x):
        before = x * self.w
        ops.assign(self.w, before)
        after = self.w + x
        return before.sum() + after


net = Rescale()
x = Tensor(np.array([2.0, 3.0, 4.0]), ms.float32)
print(net(x))
print(net.w.asnumpy())
