# Where MS_DEV_SIDE_EFFECT_LOAD_ELIM levels 0 and 1 differ. The weight `w` is only read: one
# Load at the entry state, used by one MatMul, and nothing writes it. Level 0 copies every
# Load with a TensorMove anyway (one more buffer and one copy per read of a weight); level 1
# (the default) copies only a Parameter loaded more than once or a Load that leaves the
# graph, so this Load keeps reading w's storage directly. Levels 2 and 3 make no copy
# either. The printed result is the same at every level.
# In irscope: the auto_monad_reorder snapshot has a TensorMove after the Load only at level
# 0 (MS_DEV_SIDE_EFFECT_LOAD_ELIM=0 irscope-cli run load_elim_levels_0_1.py).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)


class Project(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(3, 2), ms.float32), name="w")

    def construct(self, x):
        return ops.matmul(x, self.w) * 2


net = Project()
x = Tensor(np.ones((2, 3)), ms.float32)
print(net(x))
