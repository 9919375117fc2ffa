vals = [1, 0, 2]
total = sum(10 / v for v in vals)
