# Load elimination and the memory it saves (seed: "Optimizing Redundant Video Memory Copy
# Operations"). ForwardNet assigns 0, 1, 2 to the Parameter `param` and reads it after each
# assignment; the gradient with respect to x is the sum of the three values read: 0+1+2 = 3.
# In graph mode each read is a Load of the same Parameter. With MS_DEV_SIDE_EFFECT_LOAD_ELIM
# 0, 1 or 2 (default 1) a TensorMove copies every Load, and the gradient is right. With 3
# no copy is made: the three Loads alias the Parameter, which holds 2 when AddN runs, so the
# gradient is 6 and the assert fails (see load_elim_level3.py).
# In irscope: compare the final IR of BackwardNet_construct at levels 1 and 3 (3 TensorMove
# nodes vs none), and the memory plan.
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
graph_forword_net = ForwardNet()
graph_backword_net = BackwardNet(graph_forword_net)
graph_mode_grads = graph_backword_net(x)
output_except = (Tensor(np.array(3), ms.int32),)
assert np.all(graph_mode_grads == output_except)
print(graph_mode_grads)
print(graph_forword_net.weight.asnumpy())
