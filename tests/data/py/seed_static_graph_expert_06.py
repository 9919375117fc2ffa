from mindspore import nn
from mindspore.common import lazy_inline

class InnerBlock(nn.Cell):
    @lazy_inline             # InnerBlock does not get delayed inline
    def __init__(self, ...):
        ...

    def construct(self, ...):
        ...

class OuterBlock(nn.Cell):
    @lazy_inline             # OuterBlock will be delayed inline.
    def __init__(self, ...):
        ...
        self.num_layers = 10
        for i in range(self.num_layers):
            self.blocks.append(InnerBlock(...))

    def construct(self, ...):
        ...
        for i in range(self.num_layers):
            res = self.blocks[i](...)
        ...

class Model(nn.Cell):
    def __init__(self, ...):
        ...
        self.num_layers = 10
        for i in range(self.num_layers):
            self.blocks.append(OuterBlock(...))

    def construct(self, ...):
        ...
        for i in range(self.num_layers):
            res = self.blocks[i](...)
        ...
