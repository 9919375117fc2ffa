# The jit decorator (seed: "Accelerating with Static Graphs", Decorator-based Startup): the
# script stays in PyNative mode and only what is decorated is compiled.
#   - `mul` is compiled once per input signature: int64 vectors, then float32 vectors;
#   - `Network.construct` is a @ms.jit method: calling the Cell compiles it, Dense included;
#   - `ms.jit(fn)` is the same decorator used as a function transformation.
# In irscope: four compiles — `mul` twice (one per signature, compare their abstracts after
# `type_inference`), `Network_construct` (the Dense layer's MatMul and BiasAdd inlined) and
# `scale_and_shift`. Weights come from np.random.seed(0).
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


@ms.jit
def mul(x, y):
    return x * y


print(mul(Tensor([1, 2, 3]), Tensor([4, 5, 6])))
print(mul(Tensor([1.5, 2.5]), Tensor([2.0, 4.0])))

np.random.seed(0)
weight = Tensor(np.random.uniform(-0.5, 0.5, (1, 10)).astype(np.float32))
bias = Tensor(np.array([0.1], np.float32))


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(10, 1, weight_init=weight, bias_init=bias)

    @ms.jit
    def construct(self, x):
        return self.fc(x)


model = Network()
x = Tensor(np.arange(20).reshape(2, 10).astype(np.float32) / 10)
out = model(x)
print('out: ', out)


def scale_and_shift(x, scale, shift):
    return x * scale + shift


scale_and_shift_jit = ms.jit(scale_and_shift)
print(scale_and_shift_jit(out, Tensor(2.0), Tensor(1.0)))
