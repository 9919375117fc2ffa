from mindspore import nn
from mindspore.common import lazy_inline

class Block(nn.Cell):
    @lazy_inline
    def __init__(self, ...):
        self.x = 0
        ...

    def construct(self, ...):
        if self.x == 0:
            ...
        else:
            ...
        ...

class Model(nn.Cell):
    def __init__(self, ...):
        ...
        self.num_layers = 10
        for i in range(self.num_layers):
            self.blocks.append(Block(...)) # Here Block is initialized
            ...
        self.blocks[0].x = 1               # Here, modifying Block attributes after Block has been initialized will result in the Block not being able to reuse the same copy of the subgraph

    def construct(self, ...):
        ...
        for i in range(self.num_layers):
            res = self.blocks[i](...)
        ...
