model = Network()

model.compile(x)
out = model(x)
print('out: ', out)
