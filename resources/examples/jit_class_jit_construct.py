# @jit_class with a @jit construct instead of GRAPH_MODE (the Chinese notebook's form of the
# jit_class examples): the script stays in PyNative mode, only Net.construct is compiled,
# and the jit_class object it reads is resolved at compile time as in GRAPH_MODE.
# In irscope: two compiles — Net_construct, which calls the graph InnerNet_act and reads
# `self.inner_net.number` as the constant 2, and CreateNet_construct, where Offset(2) runs
# at compile time and leaves the constant 5. Prints 12, then 5.
import mindspore
from mindspore import nn


@mindspore.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val

    def act(self, x, y):
        return self.number * (x + y)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.inner_net = InnerNet(2)

    @mindspore.jit
    def construct(self, x, y):
        return self.inner_net.number + self.inner_net.act(x, y)


x = mindspore.tensor(2, dtype=mindspore.int32)
y = mindspore.tensor(3, dtype=mindspore.int32)
net = Net()
out = net(x, y)
print(out)


@mindspore.jit_class
class Offset:
    def __init__(self, val):
        self.number = val + 3


class CreateNet(nn.Cell):
    @mindspore.jit
    def construct(self):
        net = Offset(2)
        return net.number


print(CreateNet()())
