# GRAPH_MODE: `model.compile(x)` builds and optimizes the graph, `model(x)` runs it (seed:
# "Accelerating with Static Graphs", Static Graph Mode). print() inside construct becomes a
# Print operator in the graph: it runs when the graph runs and writes each argument on its
# own line, tensors in the Print operator's format. Same network and weights as
# pynative_print.py, so the numbers are the same.
# In irscope: the compile of Network.construct — the two Print nodes, ordered by the IO
# monad (UpdateState chain) after auto_monad — and the execution order.
import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore import ops
from mindspore import Tensor, Parameter

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(5, 3), ms.float32), name='w') # weight
        self.b = Parameter(Tensor(np.random.randn(3,), ms.float32), name='b') # bias

    def construct(self, x):
        out = ops.matmul(x, self.w)
        print('matmul: ', out)
        out = out + self.b
        print('add bias: ', out)
        return out


model = Network()
x = ops.ones(5, ms.float32)
model.compile(x)
out = model(x)
print('out: ', out)
