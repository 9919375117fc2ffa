# vmap instead of a for loop over a batch (seed: "Using Vmap for Batch Processing").
# `manually_batched` is @ms.jit: its loop over the 100 rows unrolls into 100 slices, 100
# HSwish and one Stack; `vmap(hswish_func)` runs HSwish once over the batch.
# In irscope: the compile of `manually_batched` — `range(xs.shape[0])` unrolls because the
# shape is part of the signature: 505 CNodes after `parse`, 205 after `type_inference`
# (100 slices, 100 HSwish, the Stack); compare with the one HSwish vmap runs.
# The times vary; the data is np.random.seed(0)'s, so the values printed below do not, and
# both ways give the same tensor.
# With `irscope-cli run vmap_vs_for.py --pass-stats`: one table only, manually_batched's
# (vmap's call is not compiled); its `cnodes` (505 after `parse`, 205 after `type_inference`)
# and `wall ms` are the cost the loop adds, where vmap adds no compile at all.
import numpy as np
import time
from mindspore import ops, vmap
import mindspore as ms


def hswish_func(x):
    return ops.HSwish()(x)


@ms.jit
def manually_batched(xs):
    output = []
    for i in range(xs.shape[0]):
        output.append(hswish_func(xs[i]))
    return ops.stack(output)


np.random.seed(0)
shape = (100, 2)
prop = 100
x_np = (np.random.randn(*shape) * prop).astype(np.float32)
x = ms.Tensor(x_np)
x = ops.sub(x, 0)

start_time = time.time()
output_vmap = vmap(hswish_func, in_axes=(0,))(x)
end_time = time.time()
print("Vmap cost time:", end_time - start_time)

start_time = time.time()
output_manually = manually_batched(x)
end_time = time.time()
print("for loop cost time:", end_time - start_time)

print(output_vmap.shape, output_manually.shape)
print(x[:4])
print(output_vmap[:4])
print(np.array_equal(output_vmap.asnumpy(), output_manually.asnumpy()))
