# ops.select instead of `if` on a tensor (seed: "Using select Operator").
# In `if_net` the condition `x < y` is a tensor, so each of the 100 unrolled iterations
# becomes a Switch between a true and a false branch graph (✓if_net / ✗if_net) and a
# continuation (↓if_net); `select_net` computes both sides and keeps one graph.
# In irscope: after `parse`, if_net is 301 graphs (a ✓, ✗ and ↓ graph per iteration, and
# the entry) with 100 Switch nodes; select_net is a single graph with 100 Select nodes.
# Step through both executions. The times vary; both results are [-5050]
# (x goes 0, -1, -2, ... -100 and `out` sums it).
# With `irscope-cli run if_vs_select.py --pass-stats`, compare the two tables: the `graphs`
# column (301 for if_net, 1 for select_net from `parse` on) and the `wall ms` of
# `type_inference`, which specializes every branch graph of if_net: its slowest pass.
import time
from mindspore import ops
import mindspore as ms


@ms.jit
def if_net(x, y):
    out = 0
    for _ in range(100):
        if x < y:
            x = x - y
        else:
            x = x + y
        out = out + x
    return out


start_time = time.time()
out = if_net(ms.Tensor([0]), ms.Tensor([1]))
end_time = time.time()
print("if net cost time:", end_time - start_time)
print(out)


@ms.jit
def select_net(x, y):
    out = x
    for _ in range(100):
        cond = x < y
        x = ops.select(cond, x - y, x + y)
        out = out + x
    return out


start_time = time.time()
out = select_net(ms.Tensor([0]), ms.Tensor([1]))
end_time = time.time()
print("select net cost time:", end_time - start_time)
print(out)
