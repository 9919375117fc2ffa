a = A(x)
y = Depend(y, a)
b = B(y)
