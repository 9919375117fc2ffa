# @jit_class is for user-defined classes only: decorating an nn.Cell subclass is an error,
# raised by the decorator itself, before any graph is compiled (seed: "Using the jit_class
# Decorator"). Expected: TypeError on stderr, exit status 1.
# In irscope: the run ends at the decorator line with no compile record: the error comes
# from the host interpreter, not from a pass.
import mindspore.nn as nn
import mindspore as ms


@ms.jit_class
class Net(nn.Cell):
    def construct(self, x):
        return x


ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(1)
net = Net()
net(x)
