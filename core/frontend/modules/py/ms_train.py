# mindspore.train for irscope: Model, the high-level wrapper scripts use to run a network
# (predict, eval on in-memory batches, and train steps through TrainOneStepCell).
from mindspore.nn import Cell
from mindspore.nn.wrap import WithLossCell, TrainOneStepCell


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, Cell):
            raise TypeError("For 'Model', the argument 'network' must be a Cell, but got '" +
                            type(network).__name__ + "'.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metrics = metrics
        self._eval_network = eval_network
        self._train_network = None
        if optimizer is not None:
            net = network if loss_fn is None else WithLossCell(network, loss_fn)
            self._train_network = TrainOneStepCell(net, optimizer)
        elif loss_fn is not None and eval_network is None:
            self._eval_network = WithLossCell(network, loss_fn)

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._network

    @property
    def eval_network(self):
        return self._eval_network

    def predict(self, *predict_data):
        self._network.set_train(False)
        return self._network(*predict_data)

    def _batches(self, dataset, what):
        if hasattr(dataset, "create_tuple_iterator"):
            return dataset.create_tuple_iterator()
        if isinstance(dataset, (list, tuple)):
            return dataset
        raise TypeError("irscope: Model." + what + " takes a list of (data, label) batches; "
                        "mindspore.dataset pipelines are not supported yet")

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        if self._train_network is None:
            raise ValueError("For 'Model.train', the 'optimizer' must be set when the Model is created.")
        self._train_network.set_train(True)
        loss = None
        for _ in range(initial_epoch, epoch):
            for batch in self._batches(train_dataset, "train"):
                loss = self._train_network(*batch)
        return loss

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        if self._eval_network is None:
            raise ValueError("For 'Model.eval', the 'loss_fn' or 'eval_network' must be set when the "
                             "Model is created.")
        self._eval_network.set_train(False)
        total = 0.0
        count = 0
        for batch in self._batches(valid_dataset, "eval"):
            total = total + float(self._eval_network(*batch).asnumpy())
            count = count + 1
        return {"loss": total / count if count else 0.0}
