# mindspore.nn.wrap for irscope: WithLossCell and TrainOneStepCell.
from mindspore.nn import Cell
from mindspore.ops import composite as C
from mindspore.ops import functional as F


class WithLossCell(Cell):
    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class TrainOneStepCell(Cell):
    """loss = network(*inputs); grads of the optimizer's parameters (sens = `sens`, default 1.0);
    optimizer(grads); returns the loss."""

    def __init__(self, network, optimizer, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.sens = 1.0 if sens is None else sens

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        loss = F.depend(loss, self.optimizer(grads))
        return loss
