# mindspore.nn.loss for irscope: losses as Cells whose construct is compiled like user code.
from mindspore.nn import Cell
from mindspore import Tensor
from mindspore.common import dtype as mstype
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
    """Cross entropy of softmax(logits) and labels per row (P.SoftmaxCrossEntropyWithLogits),
    then the reduction (default 'none'). sparse=True takes class indices: with the 'mean'
    reduction P.SparseSoftmaxCrossEntropyWithLogits, otherwise one-hot labels first."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        self.sparse = sparse
        self.softmax_cross_entropy = P.SoftmaxCrossEntropyWithLogits()
        self.one_hot = P.OneHot()
        self.on_value = Tensor(1.0, mstype.float32)
        self.off_value = Tensor(0.0, mstype.float32)
        self.sparse_softmax_cross_entropy = P.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, logits, labels):
        if self.sparse:
            if self.reduction == "mean":
                return self.sparse_softmax_cross_entropy(logits, labels)
            labels = self.one_hot(labels, logits.shape[-1], self.on_value, self.off_value)
        x = self.softmax_cross_entropy(logits, labels)[0]
        return self.get_loss(x)
