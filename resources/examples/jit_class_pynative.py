# @jit_class in PyNative mode (seed: "Using jit_class": "In dynamic graph mode, @jit_class is
# ignored"). The five jit_class scenarios of jit_class_attr/_nested/_method/_create/_call.py
# run eagerly: the decorated classes are ordinary Python classes and every construct runs
# in the host interpreter, so the results are the ones the GRAPH_MODE scripts must print.
# In irscope: no compile at all.
import numpy as np
import mindspore.nn as nn
import mindspore as ms

ms.set_context(mode=ms.PYNATIVE_MODE)


@ms.jit_class
class ValueHolder:
    value = ms.Tensor(np.array([1, 2, 3]))


@ms.jit_class
class Inner:
    def __init__(self):
        self.value = ms.Tensor(np.array([1, 2, 3]))


@ms.jit_class
class Outer:
    def __init__(self):
        self.inner = Inner()


@ms.jit_class
class Scaler:
    def __init__(self, number):
        self.number = number

    def act(self, x, y):
        return self.number * (x + y)

    def __call__(self, x, y):
        return self.number * (x + y)


@ms.jit_class
class Offset:
    def __init__(self, val):
        self.number = val + 3


class AttrNet(nn.Cell):
    def construct(self):
        return ValueHolder().value


class NestedNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.outer = Outer()

    def construct(self):
        return self.outer.inner.value


class MethodNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scaler = Scaler(2)

    def construct(self, x, y):
        return self.scaler.number + self.scaler.act(x, y)


class CreateNet(nn.Cell):
    def construct(self):
        return Offset(2).number


class CallNet(nn.Cell):
    def construct(self, x, y):
        return Scaler(2)(x, y)


x = ms.Tensor(2, dtype=ms.int32)
y = ms.Tensor(3, dtype=ms.int32)
print(AttrNet()())
print(NestedNet()())
print(MethodNet()(x, y))
print(CreateNet()())
print(CallNet()(x, y))
