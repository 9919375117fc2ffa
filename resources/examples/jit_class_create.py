# Creating a @jit_class instance inside construct (seed: "Creating Instances of Classes").
# The constructor's arguments must be constants: InnerNet(2) runs at compile time and
# `net.number` folds to 5.
# In irscope: after `type_inference` Net_construct returns the constant 5. Prints 5.
import numpy as np
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val + 3


class Net(nn.Cell):
    def construct(self):
        net = InnerNet(2)
        return net.number


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
out = net()
print(out)
