try:
    1 / 0
except ZeroDivisionError:
    data = [1, 2]
    print(data[5])
