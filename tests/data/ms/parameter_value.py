# Parameter.value(): the current value as a Tensor (load_elim examples print it after Assign).
import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter, ops

p = Parameter(Tensor(np.array([1, 2]), ms.int32), name="p")
v = p.value()
print(type(v).__name__, v, repr(v))
ops.assign(p, Tensor(np.array([5, 6]), ms.int32))
print(p.value(), p.value().dtype, p.value().shape)
