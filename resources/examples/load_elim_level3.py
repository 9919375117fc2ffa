# The same ForwardNet/BackwardNet as load_elim_fwd_bwd.py, to be run with
#     MS_DEV_SIDE_EFFECT_LOAD_ELIM=3 irscope-cli run load_elim_level3.py
# (the test sets the variable from load_elim_level3.env). Level 3 inserts no TensorMove:
# the three Loads of `param` alias its storage, so when AddN runs they all read 2 and the
# gradient is 6 instead of 0 + 1 + 2 = 3, as the seed warns ("the accuracy of the network
# is not ensured"). Without the variable (level 1) it prints 3.
# In irscope: the final IR has Load nodes but no TensorMove; step through the execution and
# watch the three Loads read the Parameter after the last Assign.
import numpy as np
from mindspore.nn import Cell
from mindspore import context, Tensor, Parameter
from mindspore.ops import functional as F
from mindspore.ops import composite as C
import mindspore as ms

context.set_context(mode=context.GRAPH_MODE)


class ForwardNet(Cell):
    def __init__(self):
        super(ForwardNet, self).__init__()
        self.weight = Parameter(Tensor(np.array(0), ms.int32), name="param")

    def construct(self, x):
        out = 0
        i = 0
        while i < 3:
            F.assign(self.weight, i)
            out = x * self.weight + out
            i = i + 1
        return out


class BackwardNet(Cell):
    def __init__(self, net):
        super(BackwardNet, self).__init__(auto_prefix=False)
        self.forward_net = net
        self.grad = C.GradOperation(get_all=True)

    def construct(self, *inputs):
        grads = self.grad(self.forward_net)(*inputs)
        return grads


x = Tensor(np.array(1), ms.int32)
net = BackwardNet(ForwardNet())
grads = net(x)
print(grads)
print("expected 0 + 1 + 2 = 3:", bool(np.all(grads == (Tensor(np.array(3), ms.int32),))))
