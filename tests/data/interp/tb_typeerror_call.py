class Dense:
    def __init__(self, in_channels, out_channels):
        self.shape = (in_channels, out_channels)


layer = Dense(3)
