# @lazy_inline, limitation 2 (seed: "Usage Limitations"): with @lazy_inline on both an outer
# Block and the inner Blocks it contains, only the outermost one (OuterBlock) becomes a
# reusable graph; the InnerBlock graphs are inlined into it as usual. The result is the
# same as without @lazy_inline, and the same as running eagerly.
# In irscope (run with MS_DEV_CELL_REUSE=1, see tests/data/examples/lazy_inline_nested.env):
# after `symbol_resolve` only the OuterBlock graphs carry `cell_init_args`; after
# `graph_reusing` one `CR_OuterBlock_construct` is called 3 times, each call passing its
# instance's 4 weights, which the InnerBlock graphs inside it receive as parameters until
# `inline` folds them in; no CR_InnerBlock exists. Compare `--pass-stats` with
# MS_DEV_CELL_REUSE=0. Weights: np.random.seed(0).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.common import lazy_inline

np.random.seed(0)


def dense(in_channels, out_channels):
    weight = np.random.normal(0.0, 0.5, (out_channels, in_channels)).astype(np.float32)
    bias = np.zeros(out_channels, np.float32)
    return nn.Dense(in_channels, out_channels, weight_init=Tensor(weight), bias_init=Tensor(bias))


class InnerBlock(nn.Cell):
    @lazy_inline             # not delayed: InnerBlock is nested in a lazy-inline OuterBlock
    def __init__(self, hidden):
        super().__init__()
        self.dense = dense(hidden, hidden)
        self.tanh = nn.Tanh()

    def construct(self, h):
        return h + self.tanh(self.dense(h))


class OuterBlock(nn.Cell):
    @lazy_inline             # delayed: OuterBlock compiles to one reusable graph
    def __init__(self, hidden):
        super().__init__()
        self.num_layers = 2
        self.blocks = nn.CellList()
        for i in range(self.num_layers):
            self.blocks.append(InnerBlock(hidden))

    def construct(self, h):
        for i in range(self.num_layers):
            h = self.blocks[i](h)
        return h


class Model(nn.Cell):
    def __init__(self, hidden):
        super().__init__()
        self.num_layers = 3
        self.blocks = nn.CellList()
        for i in range(self.num_layers):
            self.blocks.append(OuterBlock(hidden))

    def construct(self, h):
        for i in range(self.num_layers):
            h = self.blocks[i](h)
        return h


model = Model(4)
print("trainable parameters:", len(model.trainable_params()))
h = Tensor(np.array([[1.0, -2.0, 0.5, 3.0]]), ms.float32)

ms.set_context(mode=ms.GRAPH_MODE)
out_graph = model(h)
ms.set_context(mode=ms.PYNATIVE_MODE)
out_eager = model(h)
print("GRAPH_MODE:   ", [round(float(v), 4) for v in out_graph.asnumpy()[0]])
print("PYNATIVE_MODE:", [round(float(v), 4) for v in out_eager.asnumpy()[0]])
print("same result:", np.allclose(out_graph.asnumpy(), out_eager.asnumpy()))
