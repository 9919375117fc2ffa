# HyperMap instead of a for loop (seed: "Using HyperMap").
# `add_map(list1, list2)` maps one MultitypeFuncGraph over two lists of 200 tensors: the
# graph keeps a single HyperMap node, while the @ms.jit for loop unrolls into 200 additions.
# In irscope: compare the two compiles. After `parse`, hyper_map_net has 5 CNodes and
# for_loop_net 602 (the loop unrolled); `type_inference` expands the HyperMap into the 200
# Adds (204 CNodes), while for_loop_net, whose list holds only constants, folds to one
# constant list. The times vary; the results do not: 200 sums, the last 199 + 199 = 398.
# With `irscope-cli run hypermap_vs_for.py --pass-stats`: `cnodes` after `parse` (5 against
# 602), the `delta` of `type_inference` (HyperMap expanding, the loop folding) and the
# `total` time of each compile.
import time
from mindspore.ops import MultitypeFuncGraph, HyperMap
from mindspore import ops, Tensor
import mindspore as ms

add = MultitypeFuncGraph('add')


@add.register("Tensor", "Tensor")
def add_Tensor(x, y):
    return ops.add(x, y)


add_map = HyperMap(add)
list1 = [Tensor(i) for i in range(200)]
list2 = [Tensor(i) for i in range(200)]


@ms.jit
def hyper_map_net():
    output = add_map(list1, list2)
    return output


start_time = time.time()
output = hyper_map_net()
end_time = time.time()
print("hyper map cost time:", end_time - start_time)
print(len(output), output[0], output[1], output[199])


@ms.jit
def for_loop_net():
    out = []
    for i in range(200):
        out.append(i + i)
    return out


start_time = time.time()
out = for_loop_net()
end_time = time.time()
print("for loop cost time:", end_time - start_time)
print(len(out), out[0], out[1], out[199])
