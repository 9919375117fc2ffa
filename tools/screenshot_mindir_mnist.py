# The script `make screenshots` runs in the Execution dock for docs/screenshot-mindir-run.png:
# the MNIST MindIR file of ../shared/mindir (copied next to it as mnist.mindir, since scripts
# may only load .mindir files in their own folder or below) classifies a drawn "1".
import numpy as np
import mindspore as ms
from mindspore import nn

net = nn.GraphCell(ms.load("mnist.mindir"))
x = np.zeros((1, 1, 32, 32), np.float32)
x[0, 0, 4:28, 14:18] = 1.0
out = net(ms.Tensor(x))
print(out)
print("class", int(out.asnumpy().argmax()))
