def construct(self, x)
    reuse_construct(x, self.trainable_parameters())
