# tempfile for irscope: importable, so the scripts and tests that import it at the top run.
# irscope runs scripts without file operations (see os), so making a temporary file or
# directory raises "not supported yet" naming the function.


def _unsupported(name):
    raise NotImplementedError("irscope: tempfile." + name +
                              " is not supported yet (scripts run without file operations).")


def gettempdir():
    return "/tmp"


def mkdtemp(suffix=None, prefix=None, dir=None):
    _unsupported("mkdtemp")


def mkstemp(suffix=None, prefix=None, dir=None, text=False):
    _unsupported("mkstemp")


def NamedTemporaryFile(*args, **kwargs):
    _unsupported("NamedTemporaryFile")


def TemporaryFile(*args, **kwargs):
    _unsupported("TemporaryFile")


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        _unsupported("TemporaryDirectory")
