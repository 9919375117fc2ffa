# mindspore.nn.loss for irscope: losses as Cells whose construct is compiled like user code.
from mindspore.nn import Cell
from mindspore.ops import operations as P


class LossBase(Cell):
    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in ("mean", "sum", "none"):
            raise ValueError("For '" + type(self).__name__ + "', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             "but got " + str(reduction) + ".")
        self.reduction = reduction
        self.reduce_mean = P.ReduceMean()
        self.reduce_sum = P.ReduceSum()

    def get_loss(self, x):
        if self.reduction == "mean":
            return self.reduce_mean(x)
        if self.reduction == "sum":
            return self.reduce_sum(x)
        return x

    def construct(self, logits, labels):
        raise NotImplementedError


class MSELoss(LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.square = P.Square()

    def construct(self, logits, labels):
        x = self.square(logits - labels)
        return self.get_loss(x)


class L1Loss(LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)
        self.abs = P.Abs()

    def construct(self, logits, labels):
        x = self.abs(logits - labels)
        return self.get_loss(x)


class SmoothL1Loss(LossBase):
    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if beta <= 0:
            raise ValueError("For 'SmoothL1Loss', the 'beta' must be greater than 0, but got " + str(beta) + ".")
        self.beta = beta
        self.abs = P.Abs()
        self.select = P.Select()
        self.less = P.Less()

    def construct(self, logits, labels):
        diff = self.abs(logits - labels)
        small = 0.5 * diff * diff / self.beta
        large = diff - 0.5 * self.beta
        x = self.select(self.less(diff, self.beta), small, large)
        return self.get_loss(x)


class SoftmaxCrossEntropyWithLogits(LossBase):
    """-sum(labels * log_softmax(logits), axis=-1), then the reduction (default 'none')."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if sparse:
            raise ValueError("irscope: SoftmaxCrossEntropyWithLogits(sparse=True) is not supported yet "
                             "(one-hot labels only)")
        self.sparse = sparse
        self.reduce_max = P.ReduceMax(keep_dims=True)
        self.reduce_sum_keep = P.ReduceSum(keep_dims=True)
        self.exp = P.Exp()
        self.log = P.Log()

    def construct(self, logits, labels):
        shifted = logits - self.reduce_max(logits, -1)
        log_sum = self.log(self.reduce_sum_keep(self.exp(shifted), -1))
        log_softmax = shifted - log_sum
        x = -self.reduce_sum(labels * log_softmax, -1)
        return self.get_loss(x)
