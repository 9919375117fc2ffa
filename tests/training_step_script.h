// A GPT-like training step as a network script, for the scaling benchmark
// (bench/bench_training_step.cpp) and the suites that check lazy inline on training graphs.
//
// `blocks` transformer blocks, each: LayerNorm, Q/K/V Dense, `matmul(q, kᵀ)·scale + mask`,
// softmax, `matmul(probs, v)`, the projection Dense, residual, LayerNorm, Dense 4× + GELU +
// Dense, residual (hidden 8, vocab 16, sequence 6); an embedding table shared with the
// output layer; the loss is the mean square of the logits. `TrainStep` is
// `GradOperation(get_by_list=True)` over every trainable parameter of the net, called once.
// With `lazyInline` the Block's __init__ carries @lazy_inline (MindSpore's idiom; lazy inline
// then needs MS_DEV_CELL_REUSE=1 or 2). The script prints the number of gradients, the sum of
// all of them and the first and last gradients' sums, so two runs can be compared.
#pragma once

#include <string>

namespace irscope::testing {

inline std::string trainingStepScript(int blocks, bool lazyInline) {
    std::string s =
        "import numpy as np\n"
        "import mindspore as ms\n"
        "from mindspore import nn, ops, Tensor, Parameter, ParameterTuple, lazy_inline\n"
        "from mindspore.ops import composite as C\n"
        "ms.set_context(mode=ms.GRAPH_MODE)\n"
        "np.random.seed(0)\n"
        "\n"
        "\n"
        "def dense(in_channels, out_channels):\n"
        "    weight = np.random.normal(0.0, 0.2, (out_channels, in_channels)).astype(np.float32)\n"
        "    bias = np.zeros(out_channels, np.float32)\n"
        "    return nn.Dense(in_channels, out_channels, weight_init=Tensor(weight),\n"
        "                    bias_init=Tensor(bias))\n"
        "\n"
        "\n"
        "class Block(nn.Cell):\n";
    if (lazyInline) {
        s += "    @lazy_inline\n";
    }
    s += "    def __init__(self, hidden):\n"
         "        super().__init__()\n"
         "        self.ln_1 = nn.LayerNorm((hidden,))\n"
         "        self.query = dense(hidden, hidden)\n"
         "        self.key = dense(hidden, hidden)\n"
         "        self.value = dense(hidden, hidden)\n"
         "        self.projection = dense(hidden, hidden)\n"
         "        self.ln_2 = nn.LayerNorm((hidden,))\n"
         "        self.fc_in = dense(hidden, 4 * hidden)\n"
         "        self.gelu = nn.GELU()\n"
         "        self.fc_out = dense(4 * hidden, hidden)\n"
         "        self.scale = 1.0 / np.sqrt(hidden)\n"
         "\n"
         "    def construct(self, x, mask):\n"
         "        h = self.ln_1(x)\n"
         "        q = self.query(h)\n"
         "        k = self.key(h)\n"
         "        v = self.value(h)\n"
         "        scores = ops.matmul(q, ops.transpose(k, (1, 0))) * self.scale + mask\n"
         "        probs = ops.softmax(scores, -1)\n"
         "        x = x + self.projection(ops.matmul(probs, v))\n"
         "        x = x + self.fc_out(self.gelu(self.fc_in(self.ln_2(x))))\n"
         "        return x\n"
         "\n"
         "\n"
         "class GPT(nn.Cell):\n"
         "    def __init__(self, num_layers, vocab_size, hidden):\n"
         "        super().__init__()\n"
         "        table = np.random.normal(0.0, 0.5, (vocab_size, hidden))\n"
         "        self.embedding_table = Parameter(Tensor(table, ms.float32), "
         "name=\"embedding_table\")\n"
         "        self.blocks = nn.CellList([Block(hidden) for _ in range(num_layers)])\n"
         "        self.ln_f = nn.LayerNorm((hidden,))\n"
         "\n"
         "    def construct(self, input_ids, mask):\n"
         "        x = ops.gather(self.embedding_table, input_ids, 0)\n"
         "        for block in self.blocks:\n"
         "            x = block(x, mask)\n"
         "        logits = ops.matmul(self.ln_f(x), ops.transpose(self.embedding_table, (1, 0)))\n"
         "        return ops.reduce_mean(logits * logits)\n"
         "\n"
         "\n"
         "class TrainStep(nn.Cell):\n"
         "    def __init__(self, net):\n"
         "        super().__init__()\n"
         "        self.net = net\n"
         "        self.weights = ParameterTuple(net.trainable_params())\n"
         "        self.grad = C.GradOperation(get_by_list=True)\n"
         "\n"
         "    def construct(self, input_ids, mask):\n"
         "        return self.grad(self.net, self.weights)(input_ids, mask)\n"
         "\n"
         "\n";
    s += "net = GPT(" + std::to_string(blocks) + ", 16, 8)\n";
    s += "step = TrainStep(net)\n"
         "input_ids = Tensor(np.array([3, 1, 4, 1, 5, 9]), ms.int32)\n"
         "mask = Tensor((1.0 - np.tril(np.ones((6, 6)))) * -10000.0, ms.float32)\n"
         "grads = step(input_ids, mask)\n"
         "total = sum(float(g.asnumpy().sum()) for g in grads)\n"
         "print(len(grads), 'gradients; sum', round(total, 5), 'first', "
         "round(float(grads[0].asnumpy().sum()), 5), 'last', "
         "round(float(grads[-1].asnumpy().sum()), 5))\n";
    return s;
}

}  // namespace irscope::testing
