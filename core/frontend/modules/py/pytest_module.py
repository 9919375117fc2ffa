# pytest for irscope: what test files use when they run as scripts: the pytest.mark.<name>
# decorators (with or without arguments), pytest.fixture, pytest.raises (with match=),
# pytest.skip and pytest.approx.


class _MarkDecorator:
    def __init__(self, name, args=(), kwargs=None):
        self.name = name
        self.args = args
        self.kwargs = kwargs

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]
        return _MarkDecorator(self.name, args, kwargs)


class _MarkGenerator:
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _MarkDecorator(name)


mark = _MarkGenerator()


def fixture(*args, **kwargs):
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]

    def wrap(fn):
        return fn
    return wrap


class Skipped(Exception):
    pass


class Failed(AssertionError):
    pass


def skip(reason=""):
    raise Skipped(reason)


def fail(reason=""):
    raise Failed(reason)


class _RaisesContext:
    def __init__(self, expected, match):
        self.expected = expected
        self.match = match
        self.value = None
        self.type = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            name = self.expected.__name__ if isinstance(self.expected, type) else str(self.expected)
            raise Failed("DID NOT RAISE " + name)
        if not issubclass(exc_type, self.expected):
            return False
        self.value = exc
        self.type = exc_type
        if self.match is not None:
            import re
            if re.search(self.match, str(exc)) is None:
                raise AssertionError("Regex pattern did not match.\n Regex: " + repr(self.match) +
                                     "\n Input: " + repr(str(exc)))
        return True


def raises(expected_exception, *args, match=None, **kwargs):
    if args:
        fn = args[0]
        try:
            fn(*args[1:], **kwargs)
        except expected_exception as e:
            return e
        raise Failed("DID NOT RAISE " + expected_exception.__name__)
    return _RaisesContext(expected_exception, match)


class _Approx:
    def __init__(self, expected, rel, abs_):
        self.expected = expected
        self.rel = 1e-6 if rel is None else rel
        self.abs = 1e-12 if abs_ is None else abs_

    def _close(self, a, b):
        return a == b or abs(a - b) <= max(self.rel * abs(b), self.abs)

    def __eq__(self, other):
        if isinstance(self.expected, (list, tuple)):
            return len(other) == len(self.expected) and all(
                self._close(a, b) for a, b in zip(other, self.expected))
        return self._close(other, self.expected)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return repr(self.expected) + " +- " + repr(self.rel)


def approx(expected, rel=None, abs=None):
    return _Approx(expected, rel, abs)
