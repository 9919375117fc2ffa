# sys for irscope: what network scripts and test files touch: stdout/stderr (write, flush:
# the script's own output), argv, exit, version_info, platform, maxsize, path.


class _Stream:
    def __init__(self, error):
        self._error = error

    def write(self, text):
        if self._error:
            _write_error(text)
        else:
            print(text, end="")
        return len(text)

    def flush(self):
        return None

    def isatty(self):
        return False


stdout = _Stream(False)
stderr = _Stream(True)
argv = [""]
path = []
modules = {}
platform = "linux"
byteorder = "little"
maxsize = 9223372036854775807
version_info = (3, 9, 0, "final", 0)
version = "3.9.0 (irscope)"


def exit(status=None):
    raise SystemExit(status)


def getrecursionlimit():
    return 1000
