a = A(x)
b = B(y)
