# @lazy_inline in the pipeline-parallel pattern (seed: "Large Model Pipeline Parallel
# Scenarios"): PipelineCell calls the same network once per micro batch in a for loop. With
# @lazy_inline on the network's __init__ (PanGUAlphaWithLoss in the seed), the loop body
# stays one call of a reusable graph instead of micro_size inlined copies.
# In irscope (run with MS_DEV_CELL_REUSE=2, see tests/data/examples/lazy_inline_pipeline.env):
# the compile of PipelineCell.construct calls `CR_NetWithLoss_construct` 4 times (one per
# micro batch) until `task_emit` inlines it for the backend; compare the node counts of
# `--pass-stats` with MS_DEV_CELL_REUSE=0. Weights and data come from np.random.seed(0); the
# loss summed over the micro batches is the same either way.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor
from mindspore.common import lazy_inline

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)


class NetWithLoss(nn.Cell):
    @lazy_inline
    def __init__(self, in_features, out_features):
        super().__init__()
        weight = np.random.normal(0.0, 0.3, (out_features, in_features)).astype(np.float32)
        bias = np.zeros(out_features, np.float32)
        self.dense = nn.Dense(in_features, out_features, weight_init=Tensor(weight),
                              bias_init=Tensor(bias))
        self.relu = nn.ReLU()

    def construct(self, x, label):
        logits = self.relu(self.dense(x))
        return ops.reduce_mean(ops.square(logits - label))


class PipelineCell(nn.Cell):
    def __init__(self, network, micro_size):
        super().__init__()
        self.network = network
        self.micro_size = micro_size

    def construct(self, inputs, labels):
        total = 0.0
        for i in range(self.micro_size):
            output = self.network(inputs[i], labels[i])
            total = total + output
        return total / self.micro_size


network = NetWithLoss(6, 3)
pipeline = PipelineCell(network, micro_size=4)
inputs = Tensor(np.random.randn(4, 2, 6), ms.float32)
labels = Tensor(np.random.rand(4, 2, 3), ms.float32)
loss = pipeline(inputs, labels)
print("mean loss over 4 micro batches:", round(float(loss.asnumpy()), 5))
