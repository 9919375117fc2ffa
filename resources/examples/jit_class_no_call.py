# Calling a @jit_class instance whose class has no __call__ is a compile error (seed:
# "Calling Instances of Classes"). Expected: ValueError on stderr, exit status 1.
# In irscope: the compile of Net.construct fails; its record shows the pass that raised
# the error and the source line `out = net(x, y)`.
import numpy as np
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class InnerNet:
    def __init__(self, number):
        self.number = number


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
