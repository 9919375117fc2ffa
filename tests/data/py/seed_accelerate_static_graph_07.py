train_step = ms.jit(train_step)
