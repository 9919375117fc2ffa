# Attributes and methods of a @jit_class instance inside construct (seed: "Obtaining the
# Attributes and Methods of Classes"). `self.inner_net.act(x, y)` is compiled into its own
# graph (InnerNet_act) and called from Net_construct.
# In irscope: the graphs after `parse` (Net_construct calls InnerNet_act); `number` is the
# constant 2. Prints 2 + 2 * (2 + 3) = 12.
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val

    def act(self, x, y):
        return self.number * (x + y)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.inner_net = InnerNet(2)

    def construct(self, x, y):
        return self.inner_net.number + self.inner_net.act(x, y)


ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(2, dtype=ms.int32)
y = ms.Tensor(3, dtype=ms.int32)
net = Net()
out = net(x, y)
print(out)
