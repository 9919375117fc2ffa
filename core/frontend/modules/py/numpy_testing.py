# numpy.testing for irscope's numpy: the assertions real tests use, with numpy's messages.
import numpy as np


def _fmt_array(name, a):
    text = repr(a)
    lines = text.split("\n")
    return " " + name + ": " + "\n    ".join(lines)


def _array2string(v):
    text = repr(np.asarray(v))
    if text.startswith("array(") and text.endswith(")"):
        text = text[6:-1]
        if ", dtype=" in text:
            text = text[:text.index(", dtype=")]
    return text


def _build_err_msg(actual, desired, err_msg, header, names=("ACTUAL", "DESIRED")):
    msg = "\n" + header
    if err_msg:
        if err_msg.find("\n") == -1 and len(err_msg) < 79 - len(header):
            msg = msg + " " + err_msg
        else:
            msg = msg + "\n" + err_msg
    for name, value in ((names[0], actual), (names[1], desired)):
        r = repr(value)
        msg = msg + "\n " + name + ": " + r.replace("\n", "\n" + " " * (len(name) + 3))
    return msg


def _assert_array_compare(compare, x, y, err_msg, header, equal_nan=True, equal_inf=True):
    xa = np.asarray(x)
    ya = np.asarray(y)
    if xa.shape != ya.shape and xa.size != 1 and ya.size != 1 and xa.shape != () and ya.shape != ():
        raise AssertionError("\n" + header + ("\n" + err_msg if err_msg else "") + "\n\n(shapes " +
                             str(xa.shape) + ", " + str(ya.shape) + " mismatch)\n" +
                             _fmt_array("x", xa) + "\n" + _fmt_array("y", ya))
    xb = xa + np.zeros(ya.shape, dtype=xa.dtype)
    yb = ya + np.zeros(xa.shape, dtype=ya.dtype)
    ok = np.asarray(compare(xb, yb))
    if ok.dtype != np.bool_:
        ok = ok != 0
    if _is_complex(xb) or _is_complex(yb):
        # numpy looks at the modulus for NaN/inf and the differences of complex values.
        xf = np.abs(xb) * np.where(np.isnan(np.real(xb)) | np.isnan(np.imag(xb)), np.nan, 1.0)
        yf = np.abs(yb) * np.where(np.isnan(np.real(yb)) | np.isnan(np.imag(yb)), np.nan, 1.0)
    else:
        xf = xb.astype(np.float64)
        yf = yb.astype(np.float64)
    both_nan = np.isnan(xf) & np.isnan(yf)
    if equal_nan:
        ok = ok | both_nan
    if equal_inf:
        ok = ok | ((xf == yf) & np.isinf(xf))
    if ok.size == 0 or bool(np.all(ok)):
        return
    total = ok.size
    bad = total - int(np.count_nonzero(ok))
    pct = 100.0 * bad / total
    remarks = ["Mismatched elements: " + str(bad) + " / " + str(total) + " (" + _pct(pct) + "%)"]
    if xb.dtype != np.bool_ and yb.dtype != np.bool_:
        finite = np.isfinite(xf) & np.isfinite(yf)
        if bool(np.any(finite)):
            floating = _is_float(xb) or _is_float(yb)
            if _is_complex(xb) or _is_complex(yb):
                err = np.abs(xb - yb)
                out_dtype = np.float64
            elif floating:
                err = np.abs(xf - yf)
                out_dtype = xb.dtype if _is_float(xb) else yb.dtype
            else:
                err = np.abs(xb.astype(np.int64) - yb.astype(np.int64))
                out_dtype = np.int64
            err_f = err[finite]
            remarks.append("Max absolute difference: " + _array2string(np.asarray(np.max(err_f)).astype(out_dtype)))
            den = np.abs(yf)[finite]
            nonzero = den != 0
            if bool(np.any(nonzero)):
                rel = err_f.astype(np.float64)[nonzero] / den[nonzero]
                remarks.append("Max relative difference: " + _array2string(np.asarray(np.max(rel)).astype(np.float64)))
            else:
                remarks.append("Max relative difference: inf")
    msg = "\n" + header
    if err_msg:
        msg = msg + "\n" + err_msg
    msg = msg + "\n\n" + "\n".join(remarks) + "\n" + _fmt_array("x", xa) + "\n" + _fmt_array("y", ya)
    raise AssertionError(msg)


def _is_float(a):
    return str(a.dtype).startswith("float")


def _is_complex(a):
    return str(a.dtype).startswith("complex")


def _pct(p):
    text = "%.3g" % p
    return text


def assert_array_equal(x, y, err_msg="", verbose=True, strict=False):
    if strict:
        xa = np.asarray(x)
        ya = np.asarray(y)
        if xa.shape != ya.shape or xa.dtype != ya.dtype:
            raise AssertionError("\nArrays are not equal\n\n(shapes " + str(xa.shape) + ", " + str(ya.shape) +
                                 " mismatch)\n" + _fmt_array("x", xa) + "\n" + _fmt_array("y", ya))
    _assert_array_compare(lambda a, b: a == b, x, y, err_msg, "Arrays are not equal")


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    tol = 1.5 * 10.0 ** (-decimal)

    def close(a, b):
        if _is_complex(a) or _is_complex(b):
            return np.abs(b - a) < tol
        return np.abs(b.astype(np.float64) - a.astype(np.float64)) < tol

    _assert_array_compare(close, x, y, err_msg, "Arrays are not almost equal to " + str(decimal) + " decimals")


def _is_array(v):
    return isinstance(v, np.ndarray) or isinstance(v, (list, tuple))


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    if _is_array(actual) or _is_array(desired):
        return assert_array_almost_equal(actual, desired, decimal, err_msg)
    a = float(actual)
    d = float(desired)
    if np.isnan(a) and np.isnan(d):
        return
    if not (abs(d - a) < 1.5 * 10.0 ** (-decimal)):
        raise AssertionError(_build_err_msg(actual, desired, err_msg,
                                            "Arrays are not almost equal to " + str(decimal) + " decimals"))


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="", verbose=True):
    def close(a, b):
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)

    header = "Not equal to tolerance rtol=" + ("%g" % rtol) + ", atol=" + ("%g" % atol)
    _assert_array_compare(close, actual, desired, err_msg, header, equal_nan=equal_nan)


def assert_equal(actual, desired, err_msg="", verbose=True):
    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        assert_equal(len(actual), len(desired), err_msg)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            assert_equal(actual[k], desired[k], "\nkey=" + repr(k) + "\n" + err_msg)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        assert_equal(len(actual), len(desired), err_msg)
        for k in range(len(desired)):
            assert_equal(actual[k], desired[k], "\nitem=" + repr(k) + "\n" + err_msg)
        return
    if isinstance(actual, np.ndarray) or isinstance(desired, np.ndarray):
        return assert_array_equal(actual, desired, err_msg)
    if actual == desired:
        return
    if isinstance(actual, float) and isinstance(desired, float) and actual != actual and desired != desired:
        return
    raise AssertionError(_build_err_msg(actual, desired, err_msg, "Items are not equal:"))


def assert_array_less(x, y, err_msg="", verbose=True):
    _assert_array_compare(lambda a, b: a < b, x, y, err_msg, "Arrays are not less-ordered",
                          equal_nan=False, equal_inf=False)


def assert_(val, msg=""):
    if not val:
        raise AssertionError(msg)


def assert_raises(exception_class, *args, **kwargs):
    if not args:
        raise TypeError("assert_raises() needs a callable in irscope (the context-manager form is not supported yet)")
    func = args[0]
    try:
        func(*args[1:], **kwargs)
    except exception_class:
        return
    raise AssertionError(exception_class.__name__ + " not raised by " + getattr(func, "__name__", "function"))
