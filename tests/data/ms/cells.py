import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, ParameterTuple
from mindspore.nn import Cell
from mindspore.ops import functional as F

np.random.seed(1)

class Block(Cell):
    def __init__(self, n):
        super(Block, self).__init__(auto_prefix=False)
        self.scale = Parameter(Tensor(np.ones((n,)), ms.float32), name="scale")
        self.count = 0

    def construct(self, x):
        self.count += 1
        return x * self.scale

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.block = Block(3)
        self.extra = Parameter(Tensor([1.0, 2.0]), name="extra", requires_grad=False)
        self.seq = nn.SequentialCell([nn.Dense(3, 2, activation='relu'), nn.Softmax()])
        self.layers = nn.CellList([nn.ReLU(), nn.ReLU()])
        self.layers.append(nn.Dropout(p=0.5))
        self.norm = nn.LayerNorm((2,))

    def construct(self, x):
        x = self.relu(self.dense(x))
        x = self.block(x)
        for layer in self.layers:
            x = layer(x)
        return self.norm(self.seq(x))

net = Net()
x = Tensor(np.ones((2, 4)), ms.float32)
out = net(x)
print(out.shape, out.dtype, net.block.count, net.training)
print([n for n, _ in net.parameters_and_names()])
print([p.name for p in net.trainable_params()])
print([type(c).__name__ for c in net.cells()])
print(len(net.layers), type(net.layers[2]).__name__, net.dense.weight.shape, net.dense.bias.shape)
print(net.dense.weight)
print(net.dense.weight.asnumpy())
print(net.extra.requires_grad, isinstance(net.extra, Tensor), net.extra)
net.set_train()
print(net.training, net.layers[2].training)
p = Parameter(Tensor([1.0, 2.0, 3.0]), name="p")
F.assign(p, Tensor([4.0, 5.0, 6.0]))
print(p.asnumpy(), p.name)
ops.assign(p, p + 1)
print(p, p.asnumpy())
pt = ParameterTuple(net.trainable_params())
print(len(pt), pt[0].name)
print(nn.Dense(3, 4)(Tensor(np.zeros((5, 3)), ms.float32)).shape)
print(net.seq)
print(nn.ReLU())
ms.set_seed(1)
print(nn.Dense(4, 3).weight.asnumpy()[0], ms.get_seed())
print(net.missing)
