def risky():
    try:
        raise KeyError("first")
    finally:
        raise ValueError("in finally")


risky()
