class Net:
    def __init__(self):
        self.w = 2

    def construct(self, x):
        return self.fc(x) * self.w


def helper(net, x):
    out = net.construct(x)
    return out


net = Net()
x = 3
print("before")
out = helper(net, x)
print("never")
