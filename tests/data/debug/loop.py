# irscope-cli debug's test script: a while loop on a tensor condition (its body is a graph
# called once per iteration), compiled once and run twice, then a @jit function.
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, context, jit

context.set_context(mode=context.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x, n):
        i = Tensor(0, ms.int32)
        while i < n:
            x = x * 2
            i = i + 1
        return x - 1


@jit
def halve(x):
    return x / 2


net = Net()
x = Tensor(np.array([1.0, -2.0], np.float32))
print(net(x, Tensor(3, ms.int32)))
print(net(x, Tensor(1, ms.int32)))
print(halve(x))
