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


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy of sigmoid(logits) and labels, in the stable form
    (1 - y) * x + (1 + (pos_weight - 1) * y) * (log(1 + exp(-|x|)) + max(-x, 0)), times weight."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight
        self.abs = P.Abs()
        self.exp = P.Exp()
        self.log1p = P.Log1p()
        self.maximum = P.Maximum()

    def construct(self, logits, labels):
        log_weight = 1.0
        if self.pos_weight is not None:
            log_weight = (self.pos_weight - 1.0) * labels + 1.0
        x = (1.0 - labels) * logits + log_weight * (self.log1p(self.exp(-self.abs(logits))) +
                                                    self.maximum(-logits, 0.0))
        if self.weight is not None:
            x = x * self.weight
        return self.get_loss(x)


class NLLLoss(LossBase):
    """-weight[t] * logits[n, t] for each row's target t (ignore_index rows count nothing);
    'mean' divides by the sum of the weights of the rows that count."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight
        self.ignore_index = ignore_index
        self.gather_d = P.GatherD()
        self.gather = P.Gather()
        self.select = P.Select()
        self.cast = P.Cast()
        self.reshape = P.Reshape()

    def construct(self, logits, labels):
        keep = labels != self.ignore_index
        target = self.select(keep, labels, labels * 0)
        picked = self.reshape(self.gather_d(logits, 1, self.reshape(target, (-1, 1))), (-1,))
        w = self.cast(keep, logits.dtype)
        if self.weight is not None:
            w = w * self.gather(self.weight, target, 0)
        x = -picked * w
        if self.reduction == "mean":
            return self.reduce_sum(x) / self.reduce_sum(w)
        if self.reduction == "sum":
            return self.reduce_sum(x)
        return x


class CrossEntropyLoss(LossBase):
    """NLLLoss of log_softmax(logits) for class indices; for class probabilities (labels of
    the logits' shape and dtype) -sum(labels * log_softmax(logits)) per row, times weight."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if label_smoothing != 0.0:
            raise ValueError("irscope: CrossEntropyLoss with label_smoothing is not supported yet.")
        self.weight = weight
        self.log_softmax = P.LogSoftmax(1)
        self.nll = NLLLoss(weight, ignore_index, reduction)

    def construct(self, logits, labels):
        log_probs = self.log_softmax(logits)
        if labels.dtype == logits.dtype:
            x = log_probs * labels
            if self.weight is not None:
                x = x * self.weight
            x = -self.reduce_sum(x, 1)
            if self.reduction == "mean":
                return self.reduce_mean(x)
            if self.reduction == "sum":
                return self.reduce_sum(x)
            return x
        return self.nll(log_probs, labels)
