# The shapes of MindSpore network scripts, with a pure-Python stand-in for nn.Cell.
class Cell:
    def __init__(self, auto_prefix=True):
        object.__setattr__(self, "_cells", {})
        object.__setattr__(self, "_params", {})
        self.auto_prefix = auto_prefix
        self.training = False

    def __setattr__(self, name, value):
        if isinstance(value, Cell):
            self._cells[name] = value
        elif isinstance(value, Parameter):
            self._params[name] = value
        object.__setattr__(self, name, value)

    def __call__(self, *inputs, **kwargs):
        return self.construct(*inputs, **kwargs)

    def cells_and_names(self, prefix=""):
        yield_list = [(prefix, self)]
        for name, cell in self._cells.items():
            child = prefix + "." + name if prefix else name
            yield_list.extend(cell.cells_and_names(child))
        return yield_list

    def trainable_params(self):
        params = list(self._params.values())
        for cell in self._cells.values():
            params.extend(cell.trainable_params())
        return params


class Parameter:
    def __init__(self, data, name):
        self.data = data
        self.name = name

    def __repr__(self):
        return f"Parameter (name={self.name}, shape={len(self.data)})"


class CellList(Cell):
    def __init__(self, cells=()):
        super().__init__()
        self._list = []
        for c in cells:
            self.append(c)

    def append(self, cell):
        setattr(self, str(len(self._list)), cell)
        self._list.append(cell)

    def __getitem__(self, i):
        return self._list[i]

    def __len__(self):
        return len(self._list)


class Config:
    def __init__(self, num_layers=3, hidden=4):
        self.num_layers = num_layers
        self.hidden = hidden


class Block(Cell):
    def __init__(self, config, index):
        super(Block, self).__init__(auto_prefix=False)
        self.weight = Parameter([0.5] * config.hidden, name="w%d" % index)
        self.index = index

    def construct(self, x, layer_past=None):
        out = [v * w + self.index for v, w in zip(x, self.weight.data)]
        return out, (self.index, layer_past)


class GPTModel(Cell):
    def __init__(self, config):
        super().__init__()
        self.blocks = CellList()
        for i in range(config.num_layers):
            self.blocks.append(Block(config, i))
        self.num_layers = config.num_layers

    def construct(self, input_ids):
        hidden = input_ids
        present_layer = ()
        for i in range(self.num_layers):
            hidden, present = self.blocks[i](hidden, layer_past=i - 1)
            present_layer = present_layer + (present,)
        return hidden, present_layer


config = Config()
net = GPTModel(config)
out, presents = net([1.0, 2.0, 3.0, 4.0])
print(out)
print(presents)
print([name for name, _ in net.cells_and_names()])
print(net.trainable_params())
print(len(net.blocks), net.blocks[1].weight.name, net.auto_prefix, net.blocks[0].auto_prefix)


def train_step(data, label, lr=0.1):
    loss = sum((d - l) ** 2 for d, l in zip(data, label)) / len(data)
    grads = [2 * (d - l) / len(data) for d, l in zip(data, label)]
    return loss, [g * lr for g in grads]


loss, updates = train_step([1.0, 2.0], [0.5, 2.5])
print("loss: %.4f" % loss, updates)
results = {}
for level in range(4):
    results["MS_DEV_SIDE_EFFECT_LOAD_ELIM=%d" % level] = "TensorMove" if level < 3 else "none"
for k, v in sorted(results.items()):
    print(f"{k:<32}{v:>12}")
shape = (100, 2)
prop = 100
print(*shape, prop, shape[0] * prop)
