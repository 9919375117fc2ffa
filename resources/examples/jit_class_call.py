# Calling a @jit_class instance runs its __call__ (seed: "Calling Instances of Classes").
# In irscope: after `parse`, `net(x, y)` in Net_construct is a call of the graph
# InnerNet___call__. Prints 2 * (2 + 3) = 10.
import numpy as np
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class InnerNet:
    def __init__(self, number):
        self.number = number

    def __call__(self, x, y):
        return self.number * (x + y)


class Net(nn.Cell):
    def construct(self, x, y):
        net = InnerNet(2)
        out = net(x, y)
        return out


ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(2, dtype=ms.int32)
y = ms.Tensor(3, dtype=ms.int32)
net = Net()
out = net(x, y)
print(out)
