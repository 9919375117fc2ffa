# Seed 003's PyNative Network with a seeded numpy generator.
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
print([p.name for p in model.trainable_params()])
model.compile(x)
print(model.w)
