# Compilation cache (seed: "Using the Compilation Cache").
# A @ms.jit function whose Python loop runs 200 times: parse unrolls it into 600 arithmetic
# nodes, so most of the call's time is compilation. enable_compile_cache=True asks MindSpore
# to keep the compiled graph between runs (compile_cache_path names the folder).
# In irscope: the compile of `func` — after `parse` it is one graph of 601 CNodes (600
# Add/Mul and the Return); read the time per pass. The second call has the same signature
# and reuses the compiled graph (no second compile record). The times printed vary from
# run to run; the result is 1 + 200 * (1 + 1 * 2) = [601.].
# Run the script twice: the first run finds no cache (MindSpore's warning "Check the
# consistency of dependency files hash failed...") and stores the compiled IR in
# my_compile_cache/rank_0/graph_cache/; the second loads it ("Use the compilation cache and
# execute the backend actions only...") and runs only task_emit: --pass-stats says "from the
# compile cache", and the cost time drops (bench_compile_cache measures it).
import time
from mindspore import set_context
from mindspore import dtype
import mindspore as ms


@ms.jit
def func(input_x, input_y):
    output = input_x
    for _ in range(200):
        output = input_x + input_x * input_y + output
    return output


set_context(enable_compile_cache=True, compile_cache_path="my_compile_cache")
x = ms.Tensor([1], dtype.float32)
y = ms.Tensor([2], dtype.float32)
start_time = time.time()
out = func(x, y)
end_time = time.time()
print("Enable comile_cache cost time:", end_time - start_time)
print(out)

start_time = time.time()
out = func(x, y)
end_time = time.time()
print("Second call (graph already compiled) cost time:", end_time - start_time)
print(out)
