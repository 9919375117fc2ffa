# np.tril / np.triu (causal attention masks): k shifts the diagonal, 1-D input becomes a
# square matrix, batches keep their leading axes, the dtype is kept.
import numpy as np

print(np.tril(np.ones((4, 4))))
print(np.triu(np.arange(12).reshape(3, 4), 1))
print(np.tril(np.arange(1, 10).reshape(3, 3), -1))
print(np.tril(np.array([1, 2, 3])))
b = np.tril(np.ones((2, 2, 3), dtype=np.float32), k=1)
print(b, b.dtype, b.shape)
print(np.triu(np.array([[True, True], [True, True]])))
