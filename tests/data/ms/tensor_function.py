# mindspore.tensor(...), the function spelling the newer tutorials use: the same Tensor as
# Tensor(...), dtype inferred or given.
import numpy as np
import mindspore

x = mindspore.tensor([1], mindspore.float32)
print(type(x).__name__, x, x.dtype, x.shape)
print(mindspore.tensor(np.array([1, 2, 3])).dtype, mindspore.tensor(2, dtype=mindspore.int32))
print(repr(mindspore.tensor([[1.5, 2.0]])))
print(mindspore.tensor(input_data=[True, False]))
