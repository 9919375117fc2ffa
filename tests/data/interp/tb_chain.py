def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("bad config value " + repr(s)) from e


def load():
    try:
        {}["missing"]
    except KeyError:
        parse("x1")


load()
