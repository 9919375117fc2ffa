# @lazy_inline, limitation 1 (seed: "Usage Limitations"): an attribute that construct
# depends on must not change after __init__. All four Blocks are built with the same
# arguments, so they share one `cell_init_args`, and MindSpore compiles their graph from the
# first Block called: blocks[0], whose `x` the Model sets to 1 after building it. In
# GRAPH_MODE every Block therefore takes the `else` branch (Tanh); run eagerly, only
# blocks[0] does and the others take ReLU — the two results differ.
# In irscope (run with MS_DEV_CELL_REUSE=1, see tests/data/examples/lazy_inline_attr_changed.env):
# after `graph_reusing`, blocks[0], whose attribute changed, falls out of reuse and keeps
# its own `Block_construct` graph, while blocks[1..3] share `CR_Block_construct_1` (with
# Tanh, no ReLU: the constants still come from the first Block called); compare with the
# eager result printed below. Weights: np.random.seed(0).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.common import lazy_inline

np.random.seed(0)


def dense(in_channels, out_channels):
    weight = np.random.normal(0.0, 0.5, (out_channels, in_channels)).astype(np.float32)
    bias = np.zeros(out_channels, np.float32)
    return nn.Dense(in_channels, out_channels, weight_init=Tensor(weight), bias_init=Tensor(bias))


class Block(nn.Cell):
    @lazy_inline
    def __init__(self, hidden):
        super().__init__()
        self.x = 0
        self.dense = dense(hidden, hidden)
        self.relu = nn.ReLU()
        self.tanh = nn.Tanh()

    def construct(self, h):
        if self.x == 0:
            out = self.relu(self.dense(h))
        else:
            out = self.tanh(self.dense(h))
        return h + out


class Model(nn.Cell):
    def __init__(self, hidden):
        super().__init__()
        self.num_layers = 4
        self.blocks = nn.CellList()
        for i in range(self.num_layers):
            self.blocks.append(Block(hidden))
        self.blocks[0].x = 1

    def construct(self, h):
        for i in range(self.num_layers):
            h = self.blocks[i](h)
        return h


model = Model(4)
print("same cell_init_args:", model.blocks[0].cell_init_args == model.blocks[3].cell_init_args)
print("x per block:", [block.x for block in model.blocks])
h = Tensor(np.array([[1.0, -2.0, 0.5, 3.0]]), ms.float32)

ms.set_context(mode=ms.GRAPH_MODE)
out_graph = model(h)
ms.set_context(mode=ms.PYNATIVE_MODE)
out_eager = model(h)
print("GRAPH_MODE:   ", [round(float(v), 4) for v in out_graph.asnumpy()[0]])
print("PYNATIVE_MODE:", [round(float(v), 4) for v in out_eager.asnumpy()[0]])
print("same result:", np.allclose(out_graph.asnumpy(), out_eager.asnumpy()))
