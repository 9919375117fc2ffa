// More of numpy's everyday functions that real tests use: isnan / isinf / isfinite,
// count_nonzero, the comparison and logical functions, square / negative / power / sign /
// clip, expand_dims / squeeze, full_like, and more elementwise math; flip, cumsum, sort and
// arctan2, and the np.bool alias of np.bool_ (numpy before 1.24) that older tests use.
#include <algorithm>
#include <cmath>

#include "frontend/ast.h"
#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

using interp::Signature;
using runtime::Tensor;

namespace {

Tensor toArray(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (auto* t = asTensor(v)) {
        return t->t;
    }
    return tensorFromData(I, ms, v, std::nullopt, true);
}

// f(x) -> bool per element; a Python number gives a numpy bool (a 0-d array).
Value boolPredicate(Interpreter& I, const MsTypes& ms, const Value& x, bool (*f)(double)) {
    Tensor t = toArray(I, ms, x);
    Tensor out(ir::DType::Bool, t.shape());
    for (std::size_t i = 0; i < t.size(); ++i) {
        out.setInt(i, f(t.getDouble(i)) ? 1 : 0);
    }
    return newArray(I, ms, std::move(out));
}

Value elementwise(Interpreter& I, const MsTypes& ms, const Value& x, double (*f)(double)) {
    if (x.isNumber() && !x.isBool()) {
        return Value::real(f(x.toDouble()));
    }
    Tensor t = toArray(I, ms, x);
    Tensor out = t.cast(ir::isFloat(t.dtype()) ? t.dtype() : ir::DType::Float64);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out.setDouble(i, f(out.getDouble(i)));
    }
    return newArray(I, ms, std::move(out));
}

// Makes sure one operand is an ndarray, so operators follow numpy's rules.
std::pair<Value, Value> arrayOperands(Interpreter& I, const MsTypes& ms, const Value& a,
                                      const Value& b) {
    Value x = asTensor(a) ? a : (a.isNumber() ? a : newArray(I, ms, toArray(I, ms, a)));
    Value y = asTensor(b) ? b : (b.isNumber() ? b : newArray(I, ms, toArray(I, ms, b)));
    if (!asTensor(x) && !asTensor(y)) {
        x = newArray(I, ms, toArray(I, ms, x));
    }
    return {x, y};
}

Value logical(Interpreter& I, const MsTypes& ms, const Value& a, const Value& b, int kind) {
    auto [x, y] = arrayOperands(I, ms, a, b);
    // Broadcast by adding zeros of the other's shape (numpy's broadcasting through Add).
    Tensor xt = toArray(I, ms, x).cast(ir::DType::Int64),
           yt = toArray(I, ms, y).cast(ir::DType::Int64);
    Value xb = I.binaryOp(ast::Operator::Add, newArray(I, ms, xt),
                          newArray(I, ms, Tensor(ir::DType::Int64, yt.shape())));
    Value yb = I.binaryOp(ast::Operator::Add, newArray(I, ms, yt),
                          newArray(I, ms, Tensor(ir::DType::Int64, xt.shape())));
    const Tensor& xs = asTensor(xb)->t;
    const Tensor& ys = asTensor(yb)->t;
    Tensor out(ir::DType::Bool, xs.shape());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const bool p = xs.getDouble(i) != 0, q = ys.getDouble(i) != 0;
        out.setInt(i, (kind == 0 ? (p && q) : kind == 1 ? (p || q) : (p != q)) ? 1 : 0);
    }
    return newArray(I, ms, std::move(out));
}

// An axis argument normalized against `rank`, numpy's AxisError text otherwise.
std::size_t npAxis(Interpreter& I, const Value& v, std::size_t rank) {
    std::int64_t ax = I.toIndex(v);
    const auto r = static_cast<std::int64_t>(rank);
    if (ax < -r || ax >= r) {
        throw PyError(Exc::ValueError, "axis " + std::to_string(ax) +
                                           " is out of bounds for array of dimension " +
                                           std::to_string(r));
    }
    return static_cast<std::size_t>(ax < 0 ? ax + r : ax);
}

// The element offsets of each 1-D line of `s` along `axis`: calls f(offsets) per line.
template <typename F>
void forEachLine(const ir::Shape& s, std::size_t axis, F f) {
    std::size_t inner = 1;
    for (std::size_t d = axis + 1; d < s.rank(); ++d) {
        inner *= static_cast<std::size_t>(s.dims[d]);
    }
    const auto n = static_cast<std::size_t>(s.dims[axis]);
    const std::size_t total = static_cast<std::size_t>(s.elementCount());
    const std::size_t outer = n == 0 || inner == 0 ? 0 : total / (n * inner);
    std::vector<std::size_t> offs(n);
    for (std::size_t o = 0; o < outer; ++o) {
        for (std::size_t i = 0; i < inner; ++i) {
            for (std::size_t k = 0; k < n; ++k) {
                offs[k] = (o * n + k) * inner + i;
            }
            f(offs);
        }
    }
}

// Copies element `from` of src into element `to` of dst (same dtype).
void copyAt(const Tensor& src, std::size_t from, Tensor& dst, std::size_t to) {
    const std::size_t w = ir::dtypeSize(src.dtype());
    std::copy_n(src.bytes() + from * w, w, dst.bytes() + to * w);
}

}  // namespace

void initNumpyExtra(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    static const std::pair<const char*, bool (*)(double)> preds[] = {
        {"isnan", [](double v) { return std::isnan(v); }},
        {"isinf", [](double v) { return std::isinf(v); }},
        {"isfinite", [](double v) { return std::isfinite(v); }},
        {"isposinf", [](double v) { return std::isinf(v) && v > 0; }},
        {"isneginf", [](double v) { return std::isinf(v) && v < 0; }},
        {"signbit", [](double v) { return std::signbit(v); }}};
    for (auto& [n, f] : preds) {
        auto fn = f;
        interp::addFunction(I, m, n, [ms, fn](Interpreter& J, CallArgs& a) {
            return boolPredicate(J, *ms, interp::argAt(a, 0, "x"), fn);
        });
    }
    static const std::pair<const char*, double (*)(double)> unary[] = {
        {"tan", [](double x) { return std::tan(x); }},
        {"arcsin", [](double x) { return std::asin(x); }},
        {"arccos", [](double x) { return std::acos(x); }},
        {"arctan", [](double x) { return std::atan(x); }},
        {"sinh", [](double x) { return std::sinh(x); }},
        {"cosh", [](double x) { return std::cosh(x); }},
        {"arcsinh", [](double x) { return std::asinh(x); }},
        {"arccosh", [](double x) { return std::acosh(x); }},
        {"arctanh", [](double x) { return std::atanh(x); }},
        {"log2", [](double x) { return std::log2(x); }},
        {"log10", [](double x) { return std::log10(x); }},
        {"log1p", [](double x) { return std::log1p(x); }},
        {"expm1", [](double x) { return std::expm1(x); }},
        {"exp2", [](double x) { return std::exp2(x); }},
        {"rint", [](double x) { return std::nearbyint(x); }},
        {"trunc", [](double x) { return std::trunc(x); }},
        {"reciprocal", [](double x) { return 1.0 / x; }},
        {"cbrt", [](double x) { return std::cbrt(x); }}};
    for (auto& [n, f] : unary) {
        auto fn = f;
        interp::addFunction(I, m, n, [ms, fn](Interpreter& J, CallArgs& a) {
            return elementwise(J, *ms, interp::argAt(a, 0, "x"), fn);
        });
    }
    // round/around(a, decimals=0): half to even at 10^-decimals, in a's dtype (integers stay).
    for (const char* name : {"round", "around"}) {
        interp::addFunction(I, m, name, [ms](Interpreter& J, CallArgs& a) -> Value {
            static const Signature sig =
                Signature("round").arg("a").arg("decimals", Value::integer(0));
            auto v = sig.bind(J, a);
            const double scale = std::pow(10.0, static_cast<double>(J.toIndex(v[1])));
            auto r = [scale](double x) { return std::nearbyint(x * scale) / scale; };
            if (v[0].isNumber() && !v[0].isBool()) {
                return v[0].isInt() ? v[0] : Value::real(r(v[0].toDouble()));
            }
            Tensor out = toArray(J, *ms, v[0]).clone();
            if (ir::isFloat(out.dtype())) {
                for (std::size_t i = 0; i < out.size(); ++i) {
                    out.setDouble(i, r(out.getDouble(i)));
                }
            }
            return newArray(J, *ms, std::move(out));
        });
    }
    // invert/bitwise_not: ~x on integers (the dtype's width), not on booleans.
    for (const char* name : {"invert", "bitwise_not"}) {
        interp::addFunction(I, m, name, [ms](Interpreter& J, CallArgs& a) -> Value {
            const Value x = interp::argAt(a, 0, "x");
            if (x.isInt()) {
                return Value::integer(~x.asInt());
            }
            Tensor out = toArray(J, *ms, x).clone();
            if (out.dtype() == ir::DType::Bool) {
                for (std::size_t i = 0; i < out.size(); ++i) {
                    out.setInt(i, out.getInt(i) == 0 ? 1 : 0);
                }
            } else if (ir::isInteger(out.dtype())) {
                Value r = runOpByName(J, *ms, "Invert", {newArray(J, *ms, out)});
                return newArray(J, *ms, asTensor(r)->t);
            } else {
                throw PyError(
                    Exc::TypeError,
                    "ufunc 'invert' not supported for the input types, and the inputs could not be "
                    "safely coerced to any supported types according to the casting rule ''safe''");
            }
            return newArray(J, *ms, std::move(out));
        });
    }
    interp::addFunction(I, m, "count_nonzero", [ms](Interpreter& J, CallArgs& a) -> Value {
        static const Signature sig = Signature("count_nonzero").arg("a").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        if (!v[1].isNone()) {
            Value ne = J.compare(ast::CmpOperator::NotEq, newArray(J, *ms, toArray(J, *ms, v[0])),
                                 Value::integer(0));
            return J.callMethod(
                J.callMethod(ne, "astype", {J.getAttr(Value(J.importModule("numpy")), "int64")}),
                "sum", CallArgs({v[1]}));
        }
        Tensor t = toArray(J, *ms, v[0]);
        std::int64_t n = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            n += t.getDouble(i) != 0 ? 1 : 0;
        }
        return Value::integer(n);
    });
    static const std::pair<const char*, ast::CmpOperator> cmps[] = {
        {"greater", ast::CmpOperator::Gt},        {"less", ast::CmpOperator::Lt},
        {"equal", ast::CmpOperator::Eq},          {"not_equal", ast::CmpOperator::NotEq},
        {"greater_equal", ast::CmpOperator::GtE}, {"less_equal", ast::CmpOperator::LtE}};
    for (auto& [n, op] : cmps) {
        const ast::CmpOperator o = op;
        interp::addFunction(I, m, n, [ms, o](Interpreter& J, CallArgs& a) {
            auto [x, y] =
                arrayOperands(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"));
            return J.compare(o, x, y);
        });
    }
    static const std::pair<const char*, ast::Operator> bins[] = {
        {"power", ast::Operator::Pow},
        {"mod", ast::Operator::Mod},
        {"remainder", ast::Operator::Mod},
        {"floor_divide", ast::Operator::FloorDiv},
        {"true_divide", ast::Operator::Div}};
    for (auto& [n, op] : bins) {
        const ast::Operator o = op;
        interp::addFunction(I, m, n, [ms, o](Interpreter& J, CallArgs& a) {
            auto [x, y] =
                arrayOperands(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"));
            return J.binaryOp(o, x, y);
        });
    }
    interp::addFunction(I, m, "logical_and", [ms](Interpreter& J, CallArgs& a) {
        return logical(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"), 0);
    });
    interp::addFunction(I, m, "logical_or", [ms](Interpreter& J, CallArgs& a) {
        return logical(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"), 1);
    });
    interp::addFunction(I, m, "logical_xor", [ms](Interpreter& J, CallArgs& a) {
        return logical(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"), 2);
    });
    interp::addFunction(I, m, "logical_not", [ms](Interpreter& J, CallArgs& a) {
        return boolPredicate(J, *ms, interp::argAt(a, 0, "x"), [](double v) { return v == 0; });
    });
    interp::addFunction(I, m, "square", [ms](Interpreter& J, CallArgs& a) {
        Value x = newArray(J, *ms, toArray(J, *ms, interp::argAt(a, 0, "x")));
        return J.binaryOp(ast::Operator::Mult, x, x);
    });
    interp::addFunction(I, m, "negative", [ms](Interpreter& J, CallArgs& a) {
        return J.unaryOp(ast::UnaryOperator::USub,
                         newArray(J, *ms, toArray(J, *ms, interp::argAt(a, 0, "x"))));
    });
    interp::addFunction(I, m, "sign", [ms](Interpreter& J, CallArgs& a) {
        Tensor t = toArray(J, *ms, interp::argAt(a, 0, "x"));
        Tensor out = t;
        for (std::size_t i = 0; i < t.size(); ++i) {
            const double v = t.getDouble(i);
            out.setDouble(i, std::isnan(v) ? v : static_cast<double>((v > 0) - (v < 0)));
        }
        return newArray(J, *ms, std::move(out));
    });
    interp::addFunction(I, m, "clip", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("clip").arg("a").arg("a_min").arg("a_max");
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        const bool hasLo = !v[1].isNone(), hasHi = !v[2].isNone();
        if (!hasLo && !hasHi) {
            throw PyError(Exc::ValueError, "One of max or min must be given");
        }
        const double lo = hasLo ? interp::toDouble(J, v[1]) : 0,
                     hi = hasHi ? interp::toDouble(J, v[2]) : 0;
        const bool toFloat =
            !ir::isFloat(t.dtype()) && ((hasLo && v[1].isFloat()) || (hasHi && v[2].isFloat()));
        Tensor out = toFloat ? t.cast(ir::DType::Float64) : t;
        for (std::size_t i = 0; i < out.size(); ++i) {
            double x = out.getDouble(i);
            if (hasLo && x < lo) {
                x = lo;
            }
            if (hasHi && x > hi) {
                x = hi;
            }
            out.setDouble(i, x);
        }
        return newArray(J, *ms, std::move(out));
    });
    interp::addFunction(I, m, "expand_dims", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("expand_dims").arg("a").arg("axis");
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        std::vector<std::int64_t> dims = t.shape().dims;
        const auto rank = static_cast<std::int64_t>(dims.size()) + 1;
        std::int64_t ax = J.toIndex(v[1]);
        if (ax < -rank || ax >= rank) {
            throw PyError(Exc::ValueError, "axis " + std::to_string(ax) +
                                               " is out of bounds for array of dimension " +
                                               std::to_string(rank));
        }
        if (ax < 0) {
            ax += rank;
        }
        dims.insert(dims.begin() + ax, 1);
        return newArray(J, *ms, t.reshaped(ir::Shape{std::move(dims)}));
    });
    interp::addFunction(I, m, "squeeze", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("squeeze").arg("a").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        const auto& in = t.shape().dims;
        std::vector<bool> drop(in.size(), false);
        if (v[1].isNone()) {
            for (std::size_t i = 0; i < in.size(); ++i) {
                drop[i] = in[i] == 1;
            }
        } else {
            std::vector<Value> axes =
                v[1].isIntLike() ? std::vector<Value>{v[1]} : J.toVector(v[1]);
            for (const Value& axv : axes) {
                std::int64_t ax = J.toIndex(axv);
                const auto rank = static_cast<std::int64_t>(in.size());
                if (ax < -rank || ax >= rank) {
                    throw PyError(Exc::ValueError, "axis " + std::to_string(ax) +
                                                       " is out of bounds for array of dimension " +
                                                       std::to_string(rank));
                }
                ax = ax < 0 ? ax + rank : ax;
                if (in[static_cast<std::size_t>(ax)] != 1) {
                    throw PyError(
                        Exc::ValueError,
                        "cannot select an axis to squeeze out which has size not equal to one");
                }
                drop[static_cast<std::size_t>(ax)] = true;
            }
        }
        std::vector<std::int64_t> dims;
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (!drop[i]) {
                dims.push_back(in[i]);
            }
        }
        return newArray(J, *ms, t.reshaped(ir::Shape{std::move(dims)}));
    });
    interp::addFunction(I, m, "full_like", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("full_like").arg("a").arg("fill_value").arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        const ir::DType dt = dtypeArg(J, *ms, v[2]).value_or(t.dtype());
        Tensor out(dt, t.shape());
        const double fill = interp::toDouble(J, v[1]);
        for (std::size_t i = 0; i < out.size(); ++i) {
            out.setDouble(i, fill);
        }
        return newArray(J, *ms, std::move(out));
    });
    interp::addToModule(I, m, "bool", ms->npScalarTypes[static_cast<int>(ir::DType::Bool)]);
    interp::addFunction(I, m, "flip", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("flip").arg("m").arg("axis", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        std::vector<bool> rev(t.rank(), v[1].isNone());
        if (!v[1].isNone()) {
            for (const Value& ax : v[1].isIntLike() ? std::vector<Value>{v[1]} : J.toVector(v[1])) {
                rev[npAxis(J, ax, t.rank())] = true;
            }
        }
        // Reverse one axis at a time.
        Tensor cur = t.clone();
        for (std::size_t d = 0; d < t.rank(); ++d) {
            if (!rev[d]) {
                continue;
            }
            Tensor next(cur.dtype(), cur.shape());
            forEachLine(cur.shape(), d, [&](const std::vector<std::size_t>& offs) {
                for (std::size_t k = 0; k < offs.size(); ++k) {
                    copyAt(cur, offs[k], next, offs[offs.size() - 1 - k]);
                }
            });
            cur = next;
        }
        return newArray(J, *ms, std::move(cur));
    });
    interp::addFunction(I, m, "cumsum", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("cumsum").arg("a").arg("axis", Value::none()).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        if (v[1].isNone()) {
            t = t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())}));
        }
        const std::size_t axis = v[1].isNone() ? 0 : npAxis(J, v[1], t.rank());
        // numpy accumulates integers and bools in the platform integer (int64).
        const ir::DType out =
            dtypeArg(J, *ms, v[2]).value_or(ir::isFloat(t.dtype()) ? t.dtype() : ir::DType::Int64);
        Tensor r = t.cast(out);
        forEachLine(r.shape(), axis, [&](const std::vector<std::size_t>& offs) {
            for (std::size_t k = 1; k < offs.size(); ++k) {
                if (ir::isFloat(out)) {
                    r.setDouble(offs[k], r.getDouble(offs[k]) + r.getDouble(offs[k - 1]));
                } else {
                    r.setInt(offs[k], r.getInt(offs[k]) + r.getInt(offs[k - 1]));
                }
            }
        });
        return newArray(J, *ms, std::move(r));
    });
    interp::addFunction(I, m, "sort", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("sort").arg("a").arg("axis", Value::integer(-1)).varKw();
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        if (v[1].isNone()) {
            t = t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())}));
        }
        if (t.rank() == 0) {
            throw PyError(Exc::ValueError, "axis -1 is out of bounds for array of dimension 0");
        }
        const std::size_t axis = v[1].isNone() ? 0 : npAxis(J, v[1], t.rank());
        Tensor r(t.dtype(), t.shape());
        std::vector<std::size_t> order;
        forEachLine(t.shape(), axis, [&](const std::vector<std::size_t>& offs) {
            order.resize(offs.size());
            for (std::size_t k = 0; k < offs.size(); ++k) {
                order[k] = offs[k];
            }
            // NaN sorts last, as numpy does.
            std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
                const double p = t.getDouble(x), q = t.getDouble(y);
                return std::isnan(q) ? !std::isnan(p) : p < q;
            });
            for (std::size_t k = 0; k < offs.size(); ++k) {
                copyAt(t, order[k], r, offs[k]);
            }
        });
        return newArray(J, *ms, std::move(r));
    });
    interp::addFunction(I, m, "arctan2", [ms](Interpreter& J, CallArgs& a) {
        auto [x, y] = arrayOperands(J, *ms, interp::argAt(a, 0, "x1"), interp::argAt(a, 1, "x2"));
        // Broadcast both by adding zeros of the other's shape, in float.
        const Tensor x0 = toArray(J, *ms, x), y0 = toArray(J, *ms, y);
        const bool single = (x0.dtype() == ir::DType::Float32 || x0.dtype() == ir::DType::Float16 ||
                             !asTensor(x)) &&
                            (y0.dtype() == ir::DType::Float32 || y0.dtype() == ir::DType::Float16 ||
                             !asTensor(y)) &&
                            (asTensor(x) || asTensor(y));
        const ir::DType ft = single ? ir::DType::Float32 : ir::DType::Float64;
        Value xb = J.binaryOp(ast::Operator::Add, newArray(J, *ms, x0.cast(ir::DType::Float64)),
                              newArray(J, *ms, Tensor(ir::DType::Float64, y0.shape())));
        Value yb = J.binaryOp(ast::Operator::Add, newArray(J, *ms, y0.cast(ir::DType::Float64)),
                              newArray(J, *ms, Tensor(ir::DType::Float64, x0.shape())));
        const Tensor& xs = asTensor(xb)->t;
        const Tensor& ys = asTensor(yb)->t;
        Tensor out(ft, xs.shape());
        for (std::size_t i = 0; i < out.size(); ++i) {
            out.setDouble(i, std::atan2(xs.getDouble(i), ys.getDouble(i)));
        }
        return newArray(J, *ms, std::move(out));
    });
    interp::addFunction(I, m, "pad", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("pad")
                                         .arg("array")
                                         .arg("pad_width")
                                         .arg("mode", Value(J.newStr("constant")))
                                         .kwOnly("constant_values", Value::integer(0));
        auto v = sig.bind(J, a);
        Tensor t = toArray(J, *ms, v[0]);
        const std::size_t rank = t.rank();
        // pad_width: n, (before, after), or one (before, after) per axis.
        std::vector<std::pair<std::int64_t, std::int64_t>> pads(rank);
        if (v[1].isIntLike()) {
            const std::int64_t n = J.toIndex(v[1]);
            pads.assign(rank, {n, n});
        } else {
            std::vector<Value> outer = J.toVector(v[1]);
            auto pairOf = [&](const Value& e) -> std::pair<std::int64_t, std::int64_t> {
                if (e.isIntLike()) {
                    return {J.toIndex(e), J.toIndex(e)};
                }
                std::vector<Value> p = J.toVector(e);
                if (p.size() == 1) {
                    return {J.toIndex(p[0]), J.toIndex(p[0])};
                }
                if (p.size() != 2) {
                    throw PyError(Exc::ValueError,
                                  "operands could not be broadcast together "
                                  "with remapped shapes");
                }
                return {J.toIndex(p[0]), J.toIndex(p[1])};
            };
            if (outer.size() == 1 || (outer.size() == 2 && outer[0].isIntLike())) {
                pads.assign(rank, pairOf(outer.size() == 1 ? outer[0] : v[1]));
            } else if (outer.size() == rank) {
                for (std::size_t d = 0; d < rank; ++d) {
                    pads[d] = pairOf(outer[d]);
                }
            } else {
                throw PyError(Exc::ValueError,
                              "operands could not be broadcast together with remapped shapes");
            }
        }
        const std::string mode = J.str(v[2]);
        if (mode != "constant" && mode != "reflect" && mode != "symmetric" && mode != "edge") {
            throw PyError(Exc::ValueError, "mode '" + mode + "' is not supported");
        }
        std::vector<std::int64_t> dims = t.shape().dims;
        for (std::size_t d = 0; d < rank; ++d) {
            if (pads[d].first < 0 || pads[d].second < 0) {
                throw PyError(Exc::ValueError, "index can't contain negative values");
            }
            dims[d] += pads[d].first + pads[d].second;
        }
        Tensor out(t.dtype(), ir::Shape(dims));
        const double fill = interp::toDouble(J, v[3]);
        std::vector<std::size_t> st(rank, 1);
        for (std::size_t d = rank; d-- > 1;) {
            st[d - 1] = st[d] * static_cast<std::size_t>(t.shape().dims[d]);
        }
        std::vector<std::int64_t> coord(rank, 0);
        for (std::size_t flat = 0; flat < out.size(); ++flat) {
            std::size_t src = 0;
            bool inside = true;
            for (std::size_t d = 0; d < rank; ++d) {
                const std::int64_t n = t.shape().dims[d];
                std::int64_t i = coord[d] - pads[d].first;
                if (i < 0 || i >= n) {
                    if (mode == "constant") {
                        inside = false;
                        break;
                    }
                    // Reflections repeat for pads wider than the axis (numpy's rule).
                    const std::int64_t period = mode == "reflect" ? 2 * (n - 1) : 2 * n;
                    if (mode == "edge" || period == 0) {
                        i = i < 0 ? 0 : n - 1;
                    } else {
                        i = ((i % period) + period) % period;
                        if (i >= n) {
                            i = mode == "reflect" ? period - i : period - 1 - i;
                        }
                    }
                }
                src += static_cast<std::size_t>(i) * st[d];
            }
            if (inside) {
                copyAt(t, src, out, flat);
            } else {
                out.setDouble(flat, fill);
            }
            for (std::size_t d = rank; d-- > 0;) {
                if (++coord[d] < dims[d]) {
                    break;
                }
                coord[d] = 0;
            }
        }
        return newArray(J, *ms, std::move(out));
    });
    // ndenumerate: the (index tuple, element) pairs in row-major order.
    interp::addFunction(I, m, "ndenumerate", [ms](Interpreter& J, CallArgs& a) {
        const Tensor t = toArray(J, *ms, interp::argAt(a, 0, "arr"));
        std::vector<Value> items;
        std::vector<std::int64_t> coord(t.rank(), 0);
        for (std::size_t flat = 0; flat < t.size(); ++flat) {
            std::vector<Value> idx;
            for (std::int64_t c : coord) {
                idx.push_back(Value::integer(c));
            }
            const Value elem = ir::isFloat(t.dtype())         ? Value::real(t.getDouble(flat))
                               : t.dtype() == ir::DType::Bool ? Value::boolean(t.getInt(flat) != 0)
                                                              : Value::integer(t.getInt(flat));
            items.push_back(J.newTuple({J.newTuple(std::move(idx)), elem}));
            for (std::size_t d = t.rank(); d-- > 0;) {
                if (++coord[d] < t.shape().dims[d]) {
                    break;
                }
                coord[d] = 0;
            }
        }
        return J.newList(std::move(items));
    });
    // meshgrid(*xi, indexing='xy'): a list of N-d grids ('xy' swaps the first two axes).
    interp::addFunction(I, m, "meshgrid", [ms](Interpreter& J, CallArgs& a) {
        std::string indexing = "xy";
        for (const auto& kw : a.kw) {
            if (kw.name == "indexing") {
                indexing = J.str(kw.value);
            } else if (kw.name != "copy" && kw.name != "sparse") {
                throw PyError(Exc::TypeError,
                              "meshgrid() got an unexpected keyword argument '" + kw.name + "'");
            }
        }
        if (indexing != "xy" && indexing != "ij") {
            throw PyError(Exc::ValueError, "Valid values for `indexing` are 'xy' and 'ij'.");
        }
        std::vector<Tensor> in;
        std::vector<std::int64_t> dims;
        for (const Value& v : a.pos) {
            Tensor t = toArray(J, *ms, v);
            in.push_back(t.reshaped(ir::Shape({static_cast<std::int64_t>(t.size())})));
            dims.push_back(static_cast<std::int64_t>(t.size()));
        }
        const bool xy = indexing == "xy" && dims.size() >= 2;
        if (xy) {
            std::swap(dims[0], dims[1]);
        }
        const ir::Shape shape(dims);
        std::vector<Value> out;
        for (std::size_t k = 0; k < in.size(); ++k) {
            const std::size_t axis = xy && k < 2 ? 1 - k : k;
            Tensor r(in[k].dtype(), shape);
            std::vector<std::int64_t> coord(dims.size(), 0);
            for (std::size_t flat = 0; flat < r.size(); ++flat) {
                copyAt(in[k], static_cast<std::size_t>(coord[axis]), r, flat);
                for (std::size_t d = dims.size(); d-- > 0;) {
                    if (++coord[d] < dims[d]) {
                        break;
                    }
                    coord[d] = 0;
                }
            }
            out.push_back(newArray(J, *ms, std::move(r)));
        }
        return Value(J.newList(std::move(out)));
    });
}

}  // namespace irscope::modules
