# @lazy_inline on a repeated Block (seed: "Using lazy_inline Decorator", the GPT case).
# GPTModel calls 4 instances of Block in a loop. Every Block is built from the same config,
# so they get the same `cell_init_args` and MindSpore compiles ONE reusable Block graph,
# called 4 times with each instance's weights, instead of inlining 4 copies early.
# In irscope: MS_DEV_CELL_REUSE enables lazy inline (as in MindSpore 2.2; the test suite
# runs this script with MS_DEV_CELL_REUSE=1, see tests/data/examples/lazy_inline_gpt.env).
# Run `MS_DEV_CELL_REUSE=1 irscope-cli run lazy_inline_gpt.py --pass-stats` and read the
# `nodes` column: `graph_reusing` folds the 4 Block graphs into one `CR_Block_construct`
# (Δnodes about -230) and every later pass works on about half the nodes of a run with
# MS_DEV_CELL_REUSE unset or 0; with 2, `task_emit` inlines the CR_ graph back (graphs 1)
# and its peak bytes show buffers reused across layers. The numbers printed do not depend
# on the switch; they match lazy_inline_gpt_pynative.py. Weights: np.random.seed(0).
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.common import lazy_inline

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)


class GPTConfig:
    def __init__(self, vocab_size, seq_length, hidden_size, num_layers):
        self.vocab_size = vocab_size
        self.seq_length = seq_length
        self.hidden_size = hidden_size
        self.num_layers = num_layers


def dense(in_channels, out_channels):
    weight = np.random.normal(0.0, 0.2, (out_channels, in_channels)).astype(np.float32)
    bias = np.zeros(out_channels, np.float32)
    return nn.Dense(in_channels, out_channels, weight_init=Tensor(weight), bias_init=Tensor(bias))


class Block(nn.Cell):
    @lazy_inline
    def __init__(self, config):
        super().__init__()
        hidden = config.hidden_size
        self.ln_1 = nn.LayerNorm((hidden,))
        self.query = dense(hidden, hidden)
        self.key = dense(hidden, hidden)
        self.value = dense(hidden, hidden)
        self.projection = dense(hidden, hidden)
        self.ln_2 = nn.LayerNorm((hidden,))
        self.fc_in = dense(hidden, 4 * hidden)
        self.gelu = nn.GELU()
        self.fc_out = dense(4 * hidden, hidden)
        self.scale = 1.0 / np.sqrt(hidden)

    def construct(self, x, attention_mask, layer_past):
        h = self.ln_1(x)
        q = self.query(h)
        k = self.key(h) + layer_past[0]
        v = self.value(h) + layer_past[1]
        scores = ops.matmul(q, ops.transpose(k, (1, 0))) * self.scale
        scores = scores + (1.0 - attention_mask) * -10000.0
        probs = ops.softmax(scores, -1)
        x = x + self.projection(ops.matmul(probs, v))
        x = x + self.fc_out(self.gelu(self.fc_in(self.ln_2(x))))
        present = ops.stack((k, v))
        return x, present


class GPTModel(nn.Cell):
    def __init__(self, config):
        super().__init__()
        table = np.random.normal(0.0, 0.5, (config.vocab_size, config.hidden_size))
        self.embedding_table = Parameter(Tensor(table, ms.float32), name="embedding_table")
        self.blocks = nn.CellList()
        for i in range(config.num_layers):
            self.blocks.append(Block(config))
        self.ln_f = nn.LayerNorm((config.hidden_size,))
        self.num_layers = config.num_layers

    def construct(self, input_ids, input_mask, layer_past):
        hidden_states = ops.gather(self.embedding_table, input_ids, 0)
        present_layer = ()
        for i in range(self.num_layers):
            hidden_states, present = self.blocks[i](hidden_states, input_mask, layer_past[i])
            present_layer = present_layer + (present,)
        hidden_states = self.ln_f(hidden_states)
        logits = ops.matmul(hidden_states, ops.transpose(self.embedding_table, (1, 0)))
        return logits, present_layer


config = GPTConfig(vocab_size=16, seq_length=6, hidden_size=8, num_layers=4)
model = GPTModel(config)
input_ids = Tensor(np.array([3, 1, 4, 1, 5, 9]), ms.int32)
input_mask = Tensor(np.tril(np.ones((6, 6))), ms.float32)
layer_past = Tensor(np.zeros((4, 2, 6, 8)), ms.float32)
logits, present_layer = model(input_ids, input_mask, layer_past)
print("logits:", logits.shape, "presents:", len(present_layer), present_layer[0].shape)
print("next tokens:", np.argmax(logits.asnumpy(), -1))
print("last position:", [round(float(v), 4) for v in logits[-1].asnumpy()])
