items = [{"k": 1}, {"k": 2}, {"j": 3}]
print(sorted(items, key=lambda d: d["k"]))
