# irscope-cli debug's test script: 0/0 gives NaN and 1/0 Inf; y * 3 is all zeros.
import numpy as np
from mindspore import Tensor, jit


@jit
def ratios(x, y):
    q = x / y
    z = y * 3
    return q, z


print(ratios(Tensor(np.array([0.0, 1.0], np.float32)), Tensor(np.array([0.0, 0.0], np.float32))))
