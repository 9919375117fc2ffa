# A GPT-like training step for the graph view's benchmark and screenshots (issue 18):
# NUM_LAYERS blocks, each LayerNorm, Q/K/V Dense, matmul(q, k^T) * scale + mask, softmax,
# matmul(probs, v), output projection, residual, LayerNorm, Dense 4x + GELU + Dense,
# residual; hidden 8, vocab 16, sequence 6. The step is GradOperation(get_by_list=True)
# over the network's trainable parameters (16 per block, 5 more outside: 261 at 16 blocks,
# 1,029 at 64); it returns the loss and the gradients.
# bench_graph_view and `make screenshots` rewrite the NUM_LAYERS line for 16, 64 and 384.
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter, ParameterTuple
from mindspore.ops import composite as C

ms.set_context(mode=ms.GRAPH_MODE)
np.random.seed(0)

NUM_LAYERS = 16
HIDDEN = 8
VOCAB = 16
SEQ = 6


def dense(in_channels, out_channels):
    weight = np.random.normal(0.0, 0.2, (out_channels, in_channels)).astype(np.float32)
    bias = np.zeros(out_channels, np.float32)
    return nn.Dense(in_channels, out_channels, weight_init=Tensor(weight), bias_init=Tensor(bias))


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm((HIDDEN,))
        self.query = dense(HIDDEN, HIDDEN)
        self.key = dense(HIDDEN, HIDDEN)
        self.value = dense(HIDDEN, HIDDEN)
        self.projection = dense(HIDDEN, HIDDEN)
        self.ln_2 = nn.LayerNorm((HIDDEN,))
        self.fc_in = dense(HIDDEN, 4 * HIDDEN)
        self.gelu = nn.GELU()
        self.fc_out = dense(4 * HIDDEN, HIDDEN)
        self.scale = 1.0 / np.sqrt(HIDDEN)

    def construct(self, x, attention_mask):
        h = self.ln_1(x)
        q = self.query(h)
        k = self.key(h)
        v = self.value(h)
        scores = ops.matmul(q, ops.transpose(k, (1, 0))) * self.scale
        scores = scores + (1.0 - attention_mask) * -10000.0
        probs = ops.softmax(scores, -1)
        x = x + self.projection(ops.matmul(probs, v))
        x = x + self.fc_out(self.gelu(self.fc_in(self.ln_2(x))))
        return x


class GPTModel(nn.Cell):
    def __init__(self):
        super().__init__()
        table = np.random.normal(0.0, 0.5, (VOCAB, HIDDEN))
        self.embedding_table = Parameter(Tensor(table, ms.float32), name="embedding_table")
        self.blocks = nn.CellList()
        for i in range(NUM_LAYERS):
            self.blocks.append(Block())
        self.ln_f = nn.LayerNorm((HIDDEN,))
        self.head = dense(HIDDEN, VOCAB)

    def construct(self, input_ids, input_mask):
        hidden_states = ops.gather(self.embedding_table, input_ids, 0)
        for block in self.blocks:
            hidden_states = block(hidden_states, input_mask)
        return self.head(self.ln_f(hidden_states))


class WithLoss(nn.Cell):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def construct(self, input_ids, input_mask, labels):
        logits = self.backbone(input_ids, input_mask)
        return ops.reduce_mean(ops.square(logits - labels))


class TrainStep(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = C.GradOperation(get_by_list=True)

    def construct(self, input_ids, input_mask, labels):
        loss = self.network(input_ids, input_mask, labels)
        grads = self.grad(self.network, self.weights)(input_ids, input_mask, labels)
        return loss, grads


net = WithLoss(GPTModel())
step = TrainStep(net)
input_ids = Tensor(np.array([3, 1, 4, 1, 5, 9]), ms.int32)
input_mask = Tensor(np.tril(np.ones((SEQ, SEQ))), ms.float32)
labels = Tensor(np.random.normal(0.0, 1.0, (SEQ, VOCAB)), ms.float32)
print("parameters:", len(net.trainable_params()))
loss, grads = step(input_ids, input_mask, labels)
print("loss:", round(float(loss), 4), "gradients:", len(grads))
