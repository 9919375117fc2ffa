# The compilation cache with a GRAPH_MODE Cell (the Chinese notebook's version of "Using the
# Compilation Cache"): the same 200-iteration loop as compile_cache_loop.py, in
# Model.construct, compiled once with the cache disabled and once, for a new Model, with it
# enabled. The notebook switches with MS_COMPILER_CACHE_ENABLE/PATH in os.environ;
# set_context(enable_compile_cache=..., compile_cache_path=...) is the same setting and
# takes precedence.
# In irscope: two compiles of Model_construct; after `parse` each has the 600 unrolled
# arithmetic nodes. Times vary; both results are [601.]. The second compile misses the cache
# on the first run (MindSpore's warning on stderr) and is stored; run the script again and
# it is loaded from my_compile_cache/ (only task_emit runs), the first compile is not.
import time
import mindspore
from mindspore import nn

mindspore.set_context(mode=mindspore.GRAPH_MODE)


class Model(nn.Cell):
    def construct(self, input_x, input_y):
        output = input_x
        for _ in range(200):
            output = input_x + input_x * input_y + output
        return output


x = mindspore.tensor([1], mindspore.float32)
y = mindspore.tensor([2], mindspore.float32)

mindspore.set_context(enable_compile_cache=False)
model = Model()
start_time = time.time()
out = model(x, y)
end_time = time.time()
print("Disable compile_cache cost time:", end_time - start_time)
print(out)

mindspore.set_context(enable_compile_cache=True, compile_cache_path="my_compile_cache")
model = Model()
start_time = time.time()
out = model(x, y)
end_time = time.time()
print("Enable compile_cache cost time:", end_time - start_time)
print(out)
