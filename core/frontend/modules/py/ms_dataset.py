# mindspore.dataset for irscope: the in-memory sources scripts feed a network with
# (NumpySlicesDataset, GeneratorDataset) and the pipeline steps tests chain on them (shuffle,
# batch, repeat, map, project, take, skip), iterated as MindSpore's iterators give rows: a list
# of Tensors per row (create_tuple_iterator, or the dataset itself) or a dict by column name
# (create_dict_iterator), NumPy arrays with output_numpy=True. Each pass over a dataset is one
# epoch: a shuffled dataset draws a new order from numpy's generator (seeded by
# config.set_seed). Everything runs on the host, row by row; no worker processes.
import numpy as np
from mindspore import Tensor


class _Config:
    def __init__(self):
        self._seed = None

    def set_seed(self, seed):
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError("seed given is not within the required range [0, UINT32_MAX].")
        self._seed = seed
        np.random.seed(seed)
        return True

    def get_seed(self):
        return self._seed


config = _Config()


def _as_array(value):
    return value if isinstance(value, np.ndarray) else np.array(value)


def _row(item):
    if isinstance(item, (tuple, list)):
        return tuple(_as_array(v) for v in item)
    return (_as_array(item),)


def _check_positive(cls_name, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError("For '" + cls_name + "', the '" + name + "' must be a positive int, but got " +
                         str(value) + ".")


class Dataset:
    """A node of the pipeline: _rows() gives one epoch's rows, tuples of NumPy arrays."""

    def __init__(self, column_names):
        self._columns = list(column_names)

    def get_col_names(self):
        return list(self._columns)

    def get_dataset_size(self):
        return len(self._rows())

    def output_shapes(self):
        rows = self._rows()
        return [list(v.shape) for v in rows[0]] if rows else []

    def output_types(self):
        rows = self._rows()
        return [v.dtype for v in rows[0]] if rows else []

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        return _BatchDataset(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size):
        _check_positive("shuffle", "buffer_size", buffer_size)
        return _ShuffleDataset(self)

    def repeat(self, count=None):
        return _RepeatDataset(self, count)

    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None, **kwargs):
        return _MapDataset(self, operations, input_columns, output_columns)

    def project(self, columns):
        return _ProjectDataset(self, [columns] if isinstance(columns, str) else list(columns))

    def take(self, count=-1):
        return _SliceDataset(self, 0, None if count == -1 else count)

    def skip(self, count):
        return _SliceDataset(self, count, None)

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        source = self if columns is None else self.project(columns)
        return _Iterator(source._rows(), None, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        return _Iterator(self._rows(), self._columns, output_numpy)

    def __iter__(self):
        return self.create_tuple_iterator()

    def __len__(self):
        return self.get_dataset_size()


class _Iterator:
    def __init__(self, rows, names, output_numpy):
        self._rows = rows
        self._names = names
        self._numpy = output_numpy
        self._next = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._next >= len(self._rows):
            raise StopIteration
        row = self._rows[self._next]
        self._next += 1
        values = [v if self._numpy else Tensor(v) for v in row]
        if self._names is None:
            return values
        return {name: v for name, v in zip(self._names, values)}

    def __len__(self):
        return len(self._rows)


def _column_names(given, count, cls_name):
    if given is None:
        return ["column_" + str(i) for i in range(count)]
    names = [given] if isinstance(given, str) else list(given)
    if len(names) != count:
        raise ValueError("For '" + cls_name + "', the number of column names " + str(len(names)) +
                         " does not match the number of columns " + str(count) + ".")
    return names


class _SourceDataset(Dataset):
    def __init__(self, rows, column_names, shuffle, num_samples):
        super().__init__(column_names)
        self._all = rows if num_samples is None else rows[:num_samples]
        self._shuffle = shuffle

    def _rows(self):
        if not self._shuffle:
            return list(self._all)
        return [self._all[i] for i in np.random.permutation(len(self._all))]


class NumpySlicesDataset(_SourceDataset):
    """Rows sliced along the first axis: a tuple gives one column per element, a dict one per
    key, a list or an array one column."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        if isinstance(data, dict):
            names = list(data.keys()) if column_names is None else column_names
            columns = [_as_array(v) for v in data.values()]
        elif isinstance(data, tuple):
            names = column_names
            columns = [_as_array(v) for v in data]
        else:
            names = column_names
            columns = [_as_array(data)]
        if not columns:
            raise ValueError("For 'NumpySlicesDataset', the data must not be empty.")
        count = len(columns[0])
        for c in columns:
            if len(c) != count:
                raise ValueError("For 'NumpySlicesDataset', all columns must have the same number of rows, "
                                 "but got " + str(len(c)) + " and " + str(count) + ".")
        rows = [tuple(c[i] for c in columns) for i in range(count)]
        super().__init__(rows, _column_names(names, len(columns), "NumpySlicesDataset"),
                         shuffle is None or shuffle, num_samples)


class GeneratorDataset(_SourceDataset):
    """Rows from a Python source: a random-accessible object (__getitem__ and __len__), an
    iterable, or a callable returning one (a generator function)."""

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=6):
        random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if random_access:
            items = [source[i] for i in range(len(source))]
        elif callable(source):
            items = list(source())
        else:
            try:
                items = list(source)
            except TypeError:
                raise TypeError("For 'GeneratorDataset', the source must be callable, iterable or "
                                "random accessible, but got '" + type(source).__name__ + "'.")
        if shuffle and not random_access:
            raise ValueError("For 'GeneratorDataset', shuffle is not supported for a source that is not "
                             "random accessible.")
        rows = [_row(item) for item in items]
        count = len(rows[0]) if rows else (1 if column_names is None or isinstance(column_names, str)
                                           else len(column_names))
        super().__init__(rows, _column_names(column_names, count, "GeneratorDataset"),
                         random_access and (shuffle is None or shuffle), num_samples)


class _BatchDataset(Dataset):
    def __init__(self, child, batch_size, drop_remainder):
        _check_positive("batch", "batch_size", batch_size)
        super().__init__(child.get_col_names())
        self._child = child
        self._size = batch_size
        self._drop = drop_remainder

    def _rows(self):
        rows = self._child._rows()
        out = []
        for start in range(0, len(rows), self._size):
            part = rows[start:start + self._size]
            if self._drop and len(part) < self._size:
                break
            out.append(tuple(np.stack([r[c] for r in part]) for c in range(len(part[0]))))
        return out


class _ShuffleDataset(Dataset):
    def __init__(self, child):
        super().__init__(child.get_col_names())
        self._child = child

    def _rows(self):
        rows = self._child._rows()
        return [rows[i] for i in np.random.permutation(len(rows))]


class _RepeatDataset(Dataset):
    def __init__(self, child, count):
        super().__init__(child.get_col_names())
        if count is None or count == -1:
            raise ValueError("irscope: repeat() without a count (repeat forever) is not supported yet.")
        _check_positive("repeat", "count", count)
        self._child = child
        self._count = count

    def _rows(self):
        out = []
        for _ in range(self._count):
            out.extend(self._child._rows())
        return out


class _MapDataset(Dataset):
    def __init__(self, child, operations, input_columns, output_columns):
        names = child.get_col_names()
        inputs = names if input_columns is None else ([input_columns] if isinstance(input_columns, str)
                                                      else list(input_columns))
        for name in inputs:
            if name not in names:
                raise ValueError("For 'map', the input column '" + name + "' is not a column of the dataset: " +
                                 str(names) + ".")
        outputs = inputs if output_columns is None else ([output_columns] if isinstance(output_columns, str)
                                                         else list(output_columns))
        if len(outputs) != len(inputs):
            raise ValueError("irscope: map() with output_columns of another count than input_columns is not "
                             "supported yet.")
        super().__init__([outputs[inputs.index(n)] if n in inputs else n for n in names])
        self._child = child
        self._ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        self._where = [names.index(n) for n in inputs]

    def _rows(self):
        out = []
        for row in self._child._rows():
            values = tuple(row[i] for i in self._where)
            for op in self._ops:
                values = _row(op(*values))
            if len(values) != len(self._where):
                raise ValueError("For 'map', the operations returned " + str(len(values)) + " columns for " +
                                 str(len(self._where)) + " input columns.")
            new = list(row)
            for i, v in zip(self._where, values):
                new[i] = v
            out.append(tuple(new))
        return out


class _ProjectDataset(Dataset):
    def __init__(self, child, columns):
        names = child.get_col_names()
        for name in columns:
            if name not in names:
                raise ValueError("For 'project', '" + name + "' is not a column of the dataset: " + str(names) + ".")
        super().__init__(columns)
        self._child = child
        self._where = [names.index(n) for n in columns]

    def _rows(self):
        return [tuple(row[i] for i in self._where) for row in self._child._rows()]


class _SliceDataset(Dataset):
    def __init__(self, child, start, count):
        super().__init__(child.get_col_names())
        self._child = child
        self._start = start
        self._count = count

    def _rows(self):
        rows = self._child._rows()[self._start:]
        return rows if self._count is None else rows[:self._count]
