# Depend fixes the execution order of operators that exchange no data (seed: "Dependency
# Control Guarantees Execution Order"). The seed uses the Ascend-only NPU*FloatStatus
# operators; here CPU operators play their parts: a status buffer is created (ZerosLike
# stands in for NPUAllocFloatStatus/NPUClearFloatStatus), the computation must start after
# it is cleared, and the status is read (ReduceSum, for NPUGetFloatStatus) only after the
# computation. No data flows between them: only the Depend nodes order them.
# In irscope: the execution order of the compiled graph — ZerosLike before Neg and Sub,
# ReduceSum after Sub; delete a Depend and watch the order change. Prints the seed's result.
import numpy as np
import mindspore as ms
import mindspore.nn as nn
from mindspore import ops, set_context, Tensor
from mindspore import dtype as mstype

set_context(mode=ms.GRAPH_MODE, device_target="CPU")


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.clear_status = ops.ZerosLike()
        self.get_status = ops.ReduceSum()

    def construct(self, x, status):
        init = self.clear_status(status)
        x = ops.Depend()(x, init)
        res = ops.sub(x, ops.neg(x))
        init = ops.Depend()(init, res)
        get_status = self.get_status(init)
        res = ops.Depend()(res, get_status)
        return res


value = 5
data = np.full((2, 3), value, dtype=np.float16)
x = Tensor(data, dtype=mstype.float16)
status = Tensor(np.ones(8), dtype=mstype.float32)
net = Net()
res = net(x, status)
print(res)
