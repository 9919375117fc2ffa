// More of numpy's everyday functions that real tests use: isnan / isinf / isfinite,
// count_nonzero, the comparison and logical functions, square / negative / power / sign /
// clip, expand_dims / squeeze, full_like, and more elementwise math (numpy_arrays.cpp adds the
// array reshuffling functions).
#include <cmath>

#include "frontend/ast.h"
#include "frontend/modules/ms_internal.h"

namespace irscope::modules {

using interp::Signature;
using ir::Tensor;

namespace {

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
        {"true_divide", ast::Operator::Div},
        {"bitwise_and", ast::Operator::BitAnd},
        {"bitwise_or", ast::Operator::BitOr},
        {"bitwise_xor", ast::Operator::BitXor}};
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
        Tensor out = toFloat ? t.cast(ir::DType::Float64) : t.clone();
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
    initNumpyArrays(I, ms, m);
}

}  // namespace irscope::modules
