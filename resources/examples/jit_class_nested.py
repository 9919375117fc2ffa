# @jit_class objects nested in each other and held by a Cell (seed: "Using the jit_class
# Decorator"). `self.inner_net.inner.value` is two attribute reads on jit_class instances
# that the compiler resolves to the tensor they hold.
# In irscope: compare the graph after `parse` (getattr chain) and after `symbol_resolve`
# (a constant). Prints [1 2 3].
import numpy as np
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class Inner:
    def __init__(self):
        self.value = ms.Tensor(np.array([1, 2, 3]))


@ms.jit_class
class InnerNet:
    def __init__(self):
        self.inner = Inner()


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.inner_net = InnerNet()

    def construct(self):
        out = self.inner_net.inner.value
        return out


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
out = net()
print(out)
