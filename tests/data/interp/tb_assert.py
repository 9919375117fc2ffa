values = [1, 2, 3]
assert len(values) == 3
assert sum(values) == 7, "sum was %d" % sum(values)
