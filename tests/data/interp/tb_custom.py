class ConfigError(ValueError):
    pass


def validate(n):
    if n < 0:
        raise ConfigError(f"n must be >= 0, got {n}")
    return n


for v in [1, 0, -1]:
    validate(v)
