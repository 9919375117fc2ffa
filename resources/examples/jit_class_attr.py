# @jit_class: reading a class attribute inside construct (seed: "Using the jit_class
# Decorator"). `InnerNet().value` is a constant tensor the compiler folds into the graph.
# In irscope: after `symbol_resolve` the graph of Net.construct returns a Tensor constant
# (no InnerNet object remains). Prints [1 2 3].
import numpy as np
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class InnerNet:
    value = ms.Tensor(np.array([1, 2, 3]))


class Net(nn.Cell):
    def construct(self):
        return InnerNet().value


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
out = net()
print(out)
