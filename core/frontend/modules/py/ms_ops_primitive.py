"""mindspore.ops.primitive as irscope runs it: constexpr and _primexpr.

A constexpr function runs while the graph is compiled, on the values its arguments have
then (shapes, dtypes, Python scalars). A call whose arguments are constants when names are
resolved runs on the host there and its result becomes a constant; otherwise (an argument
known only once types are inferred, such as x.shape) its body is compiled with the graph,
where type_inference folds it to the same constants. In PyNative mode it is an ordinary
call.
"""


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    def mark(f):
        if not callable(f):
            raise TypeError("For 'constexpr', the decorated object must be a function, but got "
                            + type(f).__name__ + ".")
        f.__irscope_constexpr__ = True
        return f
    if fn is None:
        return mark
    return mark(fn)


def _primexpr(fn=None, get_instance=True, name=None, reuse_result=True):
    return constexpr(fn, get_instance, name, reuse_result)
