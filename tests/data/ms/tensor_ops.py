import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import functional as F
from mindspore.ops import operations as P

print((Tensor(3, ms.int32),))
a = Tensor([[1, 2, 3], [4, 5, 6]], ms.float32)
b = Tensor(2)
print(b, b.dtype, Tensor(1.5).dtype, Tensor(True).dtype, Tensor([1, 2]).dtype)
print(a.shape, a.dtype, a.ndim, a.size, len(a))
print(a + 1)
print(1 - a)
print(a * 2.5)
print(a / 2)
print(a // 2, a % 4)
print(a ** 2)
print(-a)
print(a > 2)
print((a > 2) & (a < 6))
print(a @ a.T)
print(a.sum(), a.sum(axis=1), a.mean(1, keep_dims=True))
print(a.max(), a.reshape(3, 2), a.transpose())
print(a[1], a[0, 2], a[:, 1:], a[-1, ::-1])
print(a.astype(ms.int32))
print(repr(a.astype(ms.int32)))
print(ops.add(a, b), F.tensor_add(a, a))
print(ops.select(a > 3, a, ops.zeros_like(a)))
print(ops.stack([a, a]).shape, ops.ones(5, ms.float32))
print(ops.ReduceSum(keep_dims=True)(a, 1))
print(P.Add()(a, 1), ops.Depend()(a, b) is not None)
print(ops.HSwish()(Tensor([-4.0, -1.0, 0.0, 1.0, 4.0])))
print(int(b), float(b), bool(Tensor(0)), Tensor(7) == 7)
if Tensor([1.0]):
    print("truthy")
print(np.all(a.asnumpy() == a.asnumpy()), np.all(a == a))
print(type(a.asnumpy()).__name__, a.asnumpy().dtype)
x = Tensor(np.array([1, 2, 3], dtype=np.int32))
print(x.dtype, x + 1, (x + 1).dtype, (x + 1.5).dtype)
print(str(Tensor([[10.0, 10.0, 10.0], [10.0, 10.0, 10.0]])))
for e in [ms.float16, ms.float32, ms.float64, ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8, ms.bool_]:
    print(e, end=" ")
print()
print(ms.common.dtype.float32 is ms.float32)
try:
    ops.add(Tensor([1, 2, 3]), Tensor([1, 2]))
except ValueError as e:
    print("ValueError:", e)
try:
    ops.reshape(a, (4, 4))
except ValueError as e:
    print("ValueError:", e)
try:
    ops.add(a)
except TypeError as e:
    print("TypeError:", e)
try:
    a[5]
except IndexError as e:
    print("IndexError:", e)
