import mindspore
import numpy as np
from mindspore import context, Tensor, Parameter, ops, nn
from mindspore.ops import functional as F
from mindspore.ops import operations as P

context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU", save_graphs=False)
print(context.get_context("mode"), mindspore.get_context("device_target"), context.get_context("save_graphs"))
x = mindspore.Tensor(2, dtype=mindspore.int32)
print(x, x.dtype, x.shape, repr(x))
ops.Print()("value:", Tensor([1, 2], mindspore.int32))
for row in Tensor([[1, 2], [3, 4]]):
    print(row)
t = Tensor(np.arange(6).reshape(2, 3).astype(np.float32))
t[0, 1] = 10
print(t)
print(t + np.ones((2, 3), np.float32))

class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, mindspore.int32), name="step")
        self.add = P.AssignAdd()

    def construct(self, x):
        self.add(self.step, Tensor(1, mindspore.int32))
        F.assign(self.step, self.step * 2)
        return x + self.step

c = Counter()
print(c(Tensor(1, mindspore.int32)), c(Tensor(1, mindspore.int32)), c.step.asnumpy())
print(P.Add is ops.Add, type(ops.Add()).__name__, ops.Add().name)
print(ops.Cast()(Tensor([1.7, -1.7]), mindspore.int32))
print(Tensor([1, 2, 3]).sum(), Tensor([[1.0, 2.0], [3.0, 4.0]]).mean(axis=0))
try:
    ops.matmul(Tensor(np.ones((2, 3)), mindspore.float32), Tensor(np.ones((2, 3)), mindspore.float32))
except ValueError as e:
    print("ValueError:", e)
try:
    len(Tensor(1))
except TypeError as e:
    print("TypeError:", e)
try:
    bool(Tensor([1, 2]))
except ValueError as e:
    print("ValueError:", e)
try:
    Tensor("abc")
except TypeError as e:
    print("TypeError:", e)
print(Tensor(np.array([1.5, 2.5])).dtype, Tensor([[1, 2], [3, 4]], mindspore.float16))
a = np.array([[1, 5], [7, 2]])
print(a[a > 2], a[[1, 0]], a[np.array([1, 1])])
m = Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
print(m[Tensor([2, 0])], m[m > 3.5])
print(ops.dropout(Tensor([1.0, 2.0]), p=0.9, training=False), nn.Dropout(p=0.5)(Tensor([3.0])))
