import mindspore as ms
from mindspore import nn, ops, Tensor, jit, jit_class, lazy_inline, vmap, grad, value_and_grad
from mindspore.common import lazy_inline as li2
from mindspore.ops import composite as C
import mindspore.ops as ops2

@ms.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val + 3

print(InnerNet(2).number)

class Block(nn.Cell):
    @lazy_inline
    def __init__(self, k, scale=2.0):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k

b = Block(3)
print(b.cell_init_args, li2 is lazy_inline, ops2 is ops)
print(b(Tensor([1.0, 2.0])))

add = C.MultitypeFuncGraph("add")

@add.register("Number", "Number")
def _add_scalar(x, y):
    return x + y

@add.register("Tensor", "Tensor")
def _add_tensor(x, y):
    return ops.add(x, y)

print(add(1, 2), add(Tensor([1]), Tensor([2])))
hm = C.HyperMap(add)
print(hm((1, 2), (3, 4)))
print(C.HyperMap()(add, [Tensor(1), 2], [Tensor(3), 4]))
try:
    add("a", 1)
except TypeError as e:
    print("TypeError:", e)

def f(x, y):
    return x * 2 + y

out = vmap(f, in_axes=(0, None))(Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), Tensor([10.0, 20.0]))
print(out.shape)
print(out)
print(ops.vmap(f, in_axes=1, out_axes=1)(Tensor([[1, 2, 3]]), Tensor([[1, 1, 1]])))

g = C.GradOperation()
try:
    g(f)(Tensor(1.0), Tensor(2.0))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    grad(f)(Tensor(1.0), Tensor(2.0))
except RuntimeError as e:
    print("RuntimeError:", e)

@jit
def jf(x):
    return x + 1

try:
    jf(Tensor(1))
except RuntimeError as e:
    print("RuntimeError:", e)

jf2 = ms.jit(f)
print(jf2.__wrapped__ is f)

ms.set_context(mode=ms.GRAPH_MODE)
print(ms.get_context("mode") == ms.GRAPH_MODE)
try:
    b(Tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    ms.set_context(mode=5)
except ValueError as e:
    print("ValueError:", e)

@jit_class
class Net(nn.Cell):
    def construct(self, x):
        return x
