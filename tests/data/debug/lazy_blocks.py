# irscope-cli debug's test script: with MS_DEV_CELL_REUSE=1 the two Blocks compile to one
# reusable graph that the entry graph calls twice, then Log of a negative value gives NaN.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, context
from mindspore.common import lazy_inline

context.set_context(mode=context.GRAPH_MODE)


class Block(nn.Cell):
    @lazy_inline
    def __init__(self):
        super().__init__()

    def construct(self, h):
        h = h * 2
        return h + 1


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Block(), Block()])

    def construct(self, x):
        for i in range(2):
            x = self.blocks[i](x)
        y = ops.log(x - 10)
        return ops.addn((y, y))


net = Net()
print("before the graph")
out = net(Tensor(np.array([1.0, 4.0], np.float32)))
print(out)
