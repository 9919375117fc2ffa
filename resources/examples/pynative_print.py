# PyNative (dynamic graph) mode: construct runs line by line in the host interpreter, so
# print() inside it shows intermediate values as they are computed (seed: "Accelerating
# with Static Graphs", Dynamic Graph Mode). The weights come from np.random.seed(0).
# In irscope: no compile happens (the Compiles list stays empty); compare with
# graph_mode_print.py, the same network compiled in GRAPH_MODE.
import numpy as np
import mindspore as ms
from mindspore import nn
from mindspore import ops
from mindspore import Tensor, Parameter

ms.set_context(mode=ms.PYNATIVE_MODE)
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
out = model(x)
print("out: ", out)
