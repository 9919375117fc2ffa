// A numpy subset: ndarray (a ir::Tensor with numpy's printing and dtype rules for the
// common cases), creation functions, reductions, elementwise math, and np.random with
// numpy's legacy generator bit for bit (runtime/random.h).
#include <cmath>
#include <complex>

#include "frontend/modules/ms_internal.h"
#include "runtime/tensor_format.h"

namespace irscope::modules {

using interp::ClassBuilder;
using interp::Signature;
using ir::Tensor;

namespace {

Tensor arrayArg(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (auto* t = asTensor(v)) {
        return t->t;
    }
    return tensorFromData(I, ms, v, std::nullopt, true);
}

std::vector<std::int64_t> shapeArg(Interpreter& I, const Value& v) {
    std::vector<std::int64_t> dims;
    if (v.isIntLike()) {
        dims.push_back(v.intLike());
    } else if (!v.isNone() && !v.isNull()) {
        for (const Value& d : I.toVector(v)) {
            dims.push_back(I.toIndex(d));
        }
    }
    for (auto d : dims) {
        if (d < 0) {
            throw PyError(Exc::ValueError, "negative dimensions are not allowed");
        }
    }
    return dims;
}

// Axes to reduce (sorted, normalized); all when `axis` is None.
std::vector<bool> reduceAxes(Interpreter& I, const Tensor& t, const Value& axis) {
    const auto rank = static_cast<std::int64_t>(t.rank());
    std::vector<bool> r(t.rank(), axis.isNone() || axis.isNull());
    if (axis.isNone() || axis.isNull()) {
        return r;
    }
    std::vector<Value> axes = axis.isIntLike() ? std::vector<Value>{axis} : I.toVector(axis);
    for (const Value& a : axes) {
        std::int64_t ax = I.toIndex(a);
        if (ax < -rank || ax >= rank) {
            throw PyError(Exc::ValueError, "axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                                               std::to_string(rank));
        }
        r[static_cast<std::size_t>(ax < 0 ? ax + rank : ax)] = true;
    }
    return r;
}

enum class Red { Sum, Mean, Max, Min, All, Any, Prod, ArgMax, ArgMin };

Tensor reduce(Interpreter& I, const Tensor& t, const Value& axis, bool keepdims, Red kind) {
    if (ir::isComplex(t.dtype())) {  // the loop below reads real values only
        throw PyError(Exc::TypeError, "irscope: numpy reductions of " + runtime::numpyDTypeName(t.dtype()) +
                                          " arrays are not supported yet");
    }
    std::vector<bool> red = reduceAxes(I, t, axis);
    std::vector<std::int64_t> outDims, keepDims;
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if (red[d]) {
            keepDims.push_back(1);
        } else {
            outDims.push_back(t.shape().dims[d]);
            keepDims.push_back(t.shape().dims[d]);
        }
    }
    ir::DType dt = t.dtype();
    const bool isF = ir::isFloat(dt);
    switch (kind) {
        case Red::Sum:
        case Red::Prod:
            if (!isF) {
                dt = ir::DType::Int64;
            }
            break;
        case Red::Mean:
            if (!isF) {
                dt = ir::DType::Float64;
            }
            break;
        case Red::All:
        case Red::Any: dt = ir::DType::Bool; break;
        case Red::ArgMax:
        case Red::ArgMin: dt = ir::DType::Int64; break;
        default: break;
    }
    if (t.size() == 0 && (kind == Red::Max || kind == Red::Min || kind == Red::ArgMax || kind == Red::ArgMin)) {
        throw PyError(Exc::ValueError, "zero-size array to reduction operation which has no identity");
    }
    Tensor out(dt, ir::Shape{keepdims ? keepDims : outDims});
    const std::size_t n = out.size();
    std::vector<double> acc(n, 0.0), count(n, 0.0), best(n, 0.0);
    std::vector<std::int64_t> iacc(n, kind == Red::Prod ? 1 : 0);
    std::vector<bool> seen(n, false);
    if (kind == Red::Prod) {
        std::fill(acc.begin(), acc.end(), 1.0);
    }
    if (kind == Red::All) {
        std::fill(acc.begin(), acc.end(), 1.0);
    }
    // Strides of the output index in terms of the input dims.
    std::vector<std::int64_t> ostride(t.rank(), 0);
    std::int64_t s = 1;
    for (std::size_t d = t.rank(); d-- > 0;) {
        if (!red[d]) {
            ostride[d] = s;
            s *= t.shape().dims[d];
        }
    }
    std::vector<std::int64_t> idx(t.rank(), 0), redIdx(n, 0);
    std::vector<std::int64_t> redCounter(n, 0);
    for (std::size_t i = 0; i < t.size(); ++i) {
        std::int64_t o = 0;
        for (std::size_t d = 0; d < t.rank(); ++d) {
            o += idx[d] * ostride[d];
        }
        const auto oi = static_cast<std::size_t>(o);
        const double v = t.getDouble(i);
        switch (kind) {
            case Red::Sum:
            case Red::Mean:
                if (isF) {
                    acc[oi] += v;
                } else {
                    iacc[oi] += t.getInt(i);
                }
                count[oi] += 1;
                break;
            case Red::Prod:
                if (isF) {
                    acc[oi] *= v;
                } else {
                    iacc[oi] *= t.getInt(i);
                }
                break;
            case Red::Max:
            case Red::ArgMax:
                if (!seen[oi] || v > best[oi] || std::isnan(v)) {
                    if (!seen[oi] || !std::isnan(best[oi])) {
                        best[oi] = v;
                        acc[oi] = static_cast<double>(redCounter[oi]);
                    }
                }
                seen[oi] = true;
                break;
            case Red::Min:
            case Red::ArgMin:
                if (!seen[oi] || v < best[oi] || std::isnan(v)) {
                    if (!seen[oi] || !std::isnan(best[oi])) {
                        best[oi] = v;
                        acc[oi] = static_cast<double>(redCounter[oi]);
                    }
                }
                seen[oi] = true;
                break;
            case Red::All:
                if (v == 0) {
                    acc[oi] = 0;
                }
                break;
            case Red::Any:
                if (v != 0) {
                    acc[oi] = 1;
                }
                break;
        }
        ++redCounter[oi];
        for (std::size_t d = t.rank(); d-- > 0;) {
            if (++idx[d] < t.shape().dims[d]) {
                break;
            }
            idx[d] = 0;
        }
    }
    for (std::size_t o = 0; o < n; ++o) {
        switch (kind) {
            case Red::Sum:
            case Red::Prod:
                if (isF) {
                    out.setDouble(o, acc[o]);
                } else {
                    out.setInt(o, iacc[o]);
                }
                break;
            case Red::Mean: {
                const double c = count[o] == 0 ? std::nan("") : count[o];
                out.setDouble(o, (isF ? acc[o] : static_cast<double>(iacc[o])) / c);
                break;
            }
            case Red::Max:
            case Red::Min:
                if (isF) {
                    out.setDouble(o, best[o]);
                } else {
                    out.setInt(o, static_cast<std::int64_t>(best[o]));
                }
                break;
            case Red::ArgMax:
            case Red::ArgMin: out.setInt(o, static_cast<std::int64_t>(acc[o])); break;
            case Red::All:
            case Red::Any: out.setInt(o, acc[o] != 0 ? 1 : 0); break;
        }
    }
    return out;
}

// A 0-d result of a full reduction becomes a Python scalar (numpy returns a numpy scalar;
// their str() agree for float64/int64/bool).
Value reduceResult(Interpreter& I, const MsTypes& ms, Tensor r, bool fullScalar) {
    if (fullScalar && r.rank() == 0 && (r.dtype() == ir::DType::Float64 || r.dtype() == ir::DType::Int64 ||
                                        r.dtype() == ir::DType::Bool)) {
        if (r.dtype() == ir::DType::Bool) {
            return Value::boolean(r.getInt(0) != 0);
        }
        if (r.dtype() == ir::DType::Int64) {
            return Value::integer(r.getInt(0));
        }
        return Value::real(r.getDouble(0));
    }
    return newArray(I, ms, std::move(r));
}

Value reduction(Interpreter& I, const MsTypes& ms, Red kind, const std::string& name, CallArgs& a, bool method) {
    static const std::string names[] = {"a", "axis", "dtype", "out", "keepdims"};
    Signature sig(name);
    sig.arg(method ? "self" : "a").arg("axis", Value::none());
    if (kind == Red::Sum || kind == Red::Mean || kind == Red::Prod) {
        sig.arg("dtype", Value::none());
    }
    sig.arg("out", Value::none()).arg("keepdims", Value::boolean(false)).varKw("kwargs");
    auto v = sig.bind(I, a);
    const Tensor t = arrayArg(I, ms, v[0]);
    const bool hasDtype = kind == Red::Sum || kind == Red::Mean || kind == Red::Prod;
    const bool keep = I.truthy(v[hasDtype ? 4 : 3]);
    Tensor r = reduce(I, t, v[1], keep, kind);
    if (hasDtype && !v[2].isNone()) {
        r = r.cast(*dtypeArg(I, ms, v[2]));
    }
    (void)names;
    return reduceResult(I, ms, std::move(r), true);
}

Value unaryMath(Interpreter& I, const MsTypes& ms, const Value& x, double (*f)(double), const char* op) {
    if (x.isNumber()) {
        return Value::real(f(x.toDouble()));
    }
    Tensor t = arrayArg(I, ms, x);
    if (ir::isComplex(t.dtype())) {  // the complex kernels of Sqrt, Exp, Log, Tanh
        return newArray(I, ms, asTensor(runOpByName(I, ms, op, {newArray(I, ms, t)}))->t);
    }
    Tensor out = t.cast(ir::isFloat(t.dtype()) ? t.dtype() : ir::DType::Float64);
    for (std::size_t i = 0; i < out.size(); ++i) {
        out.setDouble(i, f(out.getDouble(i)));
    }
    return newArray(I, ms, std::move(out));
}

Value reshapeImpl(Interpreter& I, const MsTypes& ms, const Tensor& t, std::vector<Value> dimsV) {
    if (dimsV.size() == 1 && !dimsV[0].isIntLike()) {
        dimsV = I.toVector(dimsV[0]);
    }
    std::vector<std::int64_t> dims;
    std::int64_t known = 1, unknown = -1;
    for (std::size_t i = 0; i < dimsV.size(); ++i) {
        const std::int64_t d = I.toIndex(dimsV[i]);
        if (d == -1) {
            if (unknown >= 0) {
                throw PyError(Exc::ValueError, "can only specify one unknown dimension");
            }
            unknown = static_cast<std::int64_t>(i);
        } else {
            known *= d;
        }
        dims.push_back(d);
    }
    if (unknown >= 0 && known != 0) {
        dims[static_cast<std::size_t>(unknown)] = static_cast<std::int64_t>(t.size()) / known;
    }
    std::int64_t total = 1;
    for (auto d : dims) {
        total *= d;
    }
    if (total != static_cast<std::int64_t>(t.size())) {
        std::string s = "(";
        for (std::size_t i = 0; i < dims.size(); ++i) {
            s += (i ? ", " : "") + std::to_string(i == static_cast<std::size_t>(unknown) ? -1 : dims[i]);
        }
        s += dims.size() == 1 ? ",)" : ")";
        throw PyError(Exc::ValueError, "cannot reshape array of size " + std::to_string(t.size()) + " into shape " + s);
    }
    return newArray(I, ms, t.reshaped(ir::Shape{std::move(dims)}));
}

Value transposeImpl(Interpreter& I, const MsTypes& ms, const Tensor& t, std::vector<Value> axes) {
    std::vector<ir::ValuePtr> perm;
    if (axes.size() == 1 && !axes[0].isIntLike() && !axes[0].isNone()) {
        axes = I.toVector(axes[0]);
    }
    if (axes.empty() || (axes.size() == 1 && axes[0].isNone())) {
        for (std::size_t i = t.rank(); i-- > 0;) {
            perm.push_back(ir::Value::integer(static_cast<std::int64_t>(i)));
        }
    } else {
        for (const Value& a : axes) {
            perm.push_back(ir::Value::integer(I.toIndex(a)));
        }
    }
    Value r = runOp(I, ms, *ops::OpRegistry::instance().find("Transpose"), {},
                    {ops::KernelArg(t), ops::KernelArg(ir::Value::tuple(perm))});
    return newArray(I, ms, asTensor(r)->t);
}

Value allclose(Interpreter& I, const MsTypes& ms, CallArgs& a, bool retArray) {
    static const Signature sig = Signature("allclose").arg("a").arg("b").arg("rtol", Value::real(1e-5)).arg("atol", Value::real(1e-8)).arg("equal_nan", Value::boolean(false));
    auto v = sig.bind(I, a);
    Tensor x = arrayArg(I, ms, v[0]), y = arrayArg(I, ms, v[1]);
    // Complex inputs compare by the modulus of the difference, NaN and inf by either part.
    const ir::DType common = ir::isComplex(x.dtype()) || ir::isComplex(y.dtype()) ? ir::DType::Complex128 : ir::DType::Float64;
    x = x.cast(common);
    y = y.cast(common);
    Value diff = runOpByName(I, ms, "Sub", {newArray(I, ms, x), newArray(I, ms, y)});
    const Tensor& d = asTensor(diff)->t;
    Value yb = runOpByName(I, ms, "Add", {newArray(I, ms, y), newArray(I, ms, Tensor(ir::DType::Float64, d.shape()))});
    const Tensor& yt = asTensor(yb)->t;
    const double rtol = toDouble(I, v[2]), atol = toDouble(I, v[3]);
    const bool eqNan = I.truthy(v[4]);
    Tensor out(ir::DType::Bool, d.shape());
    bool all = true;
    Value xb = runOpByName(I, ms, "Add", {newArray(I, ms, x), newArray(I, ms, Tensor(ir::DType::Float64, d.shape()))});
    const Tensor& xt = asTensor(xb)->t;
    auto isNan = [](std::complex<double> z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
    auto isInf = [](std::complex<double> z) { return std::isinf(z.real()) || std::isinf(z.imag()); };
    for (std::size_t i = 0; i < d.size(); ++i) {
        const std::complex<double> xv = xt.getComplex(i), yv = yt.getComplex(i);
        bool ok;
        if (isNan(xv) || isNan(yv)) {
            ok = eqNan && isNan(xv) && isNan(yv);
        } else if (isInf(xv) || isInf(yv)) {
            ok = xv == yv;
        } else {
            ok = std::abs(xv - yv) <= atol + rtol * std::abs(yv);
        }
        out.setInt(i, ok ? 1 : 0);
        all &= ok;
    }
    return retArray ? newArray(I, ms, std::move(out)) : Value::boolean(all);
}

// A numpy-style binary function through the registry (np.add, np.maximum...).
Value npBinary(Interpreter& I, const MsTypes& ms, std::string_view opText, const Value& a, const Value& b) {
    Value x = asTensor(a) || a.isNumber() ? a : newArray(I, ms, arrayArg(I, ms, a));
    Value y = asTensor(b) || b.isNumber() ? b : newArray(I, ms, arrayArg(I, ms, b));
    if (!asTensor(x) && !asTensor(y)) {
        x = newArray(I, ms, arrayArg(I, ms, x));
    }
    static const std::pair<const char*, ast::Operator> map[] = {
        {"+", ast::Operator::Add}, {"-", ast::Operator::Sub}, {"*", ast::Operator::Mult}, {"/", ast::Operator::Div}};
    for (auto& [t, o] : map) {
        if (opText == t) {
            return I.binaryOp(o, x, y);
        }
    }
    Value r = runOpByName(I, ms, opText, {x, y});
    return newArray(I, ms, asTensor(r)->t);
}

}  // namespace

void initNumpyTypes(Interpreter& I, const MsPtr& ms) {
    ClassBuilder b(I, "ndarray", "numpy");
    b.layout<TensorObject>();
    b.construct([ms](Interpreter& J, Type*, CallArgs& a) {
        static const Signature sig = Signature("ndarray").arg("shape").arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        return newArray(J, *ms, Tensor(dtypeArg(J, *ms, v[1]).value_or(ir::DType::Float64), ir::Shape{shapeArg(J, v[0])}));
    });
    addCommonTensorMethods(I, ms, b, true);
    b.method("__repr__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(runtime::formatNumpyRepr(asTensor(a.pos.at(0))->t))); });
    b.attr("__hash__", Value::none());
    b.method("astype", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("astype").arg("self").arg("dtype").varKw();
        auto v = sig.bind(J, a);
        return newArray(J, *ms, asTensor(v[0])->t.cast(*dtypeArg(J, *ms, v[1])));
    });
    b.method("reshape", [ms](Interpreter& J, CallArgs& a) {
        return reshapeImpl(J, *ms, asTensor(a.pos.at(0))->t, std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
    });
    b.method("transpose", [ms](Interpreter& J, CallArgs& a) {
        return transposeImpl(J, *ms, asTensor(a.pos.at(0))->t, std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
    });
    b.method("flatten", [ms](Interpreter& J, CallArgs& a) {
        const Tensor& t = asTensor(a.pos.at(0))->t;
        return newArray(J, *ms, t.clone().reshaped(ir::Shape{static_cast<std::int64_t>(t.size())}));
    });
    b.method("ravel", [ms](Interpreter& J, CallArgs& a) {
        const Tensor& t = asTensor(a.pos.at(0))->t;
        return newArray(J, *ms, t.reshaped(ir::Shape{static_cast<std::int64_t>(t.size())}));
    });
    b.method("fill", [](Interpreter& J, CallArgs& a) {
        Tensor& t = asTensor(a.pos.at(0))->t;
        const double v = toDouble(J, a.pos.at(1));
        for (std::size_t i = 0; i < t.size(); ++i) {
            t.setDouble(i, v);
        }
        return Value::none();
    });
    static const std::pair<const char*, Red> reds[] = {{"sum", Red::Sum}, {"mean", Red::Mean}, {"max", Red::Max},
                                                       {"min", Red::Min}, {"all", Red::All},   {"any", Red::Any},
                                                       {"prod", Red::Prod}, {"argmax", Red::ArgMax}, {"argmin", Red::ArgMin}};
    for (auto& [n, k] : reds) {
        const Red kind = k;
        const std::string name = n;
        b.method(name, [ms, kind, name](Interpreter& J, CallArgs& a) { return reduction(J, *ms, kind, name, a, true); });
    }
    b.method("dot", [ms](Interpreter& J, CallArgs& a) { return J.binaryOp(ast::Operator::MatMult, a.pos.at(0), a.pos.at(1)); });
    // Methods that are numpy's function of the same name with the array first (a.round(4) is
    // np.round(a, 4)).
    for (const char* name : {"round", "clip", "cumsum", "cumprod", "std", "var", "squeeze", "swapaxes", "repeat",
                             "nonzero", "argsort", "take", "trace", "diagonal"}) {
        b.method(name, [name](Interpreter& J, CallArgs& a) {
            return J.call(J.getAttr(Value(J.importModule("numpy")), name), std::move(a));
        });
    }
    Ref<Type> t = b.build();
    ms->ndarray = t.get();
    ms->keep.push_back(Value(t));
}

void initNumpy(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    interp::addToModule(I, m, "ndarray", Value(ms->ndarray));
    interp::addToModule(I, m, "dtype", Value(ms->npDtype));
    static const std::pair<const char*, ir::DType> names[] = {
        {"float16", ir::DType::Float16}, {"float32", ir::DType::Float32}, {"float64", ir::DType::Float64},
        {"half", ir::DType::Float16},    {"single", ir::DType::Float32},  {"double", ir::DType::Float64},
        {"int8", ir::DType::Int8},       {"int16", ir::DType::Int16},     {"int32", ir::DType::Int32},
        {"int64", ir::DType::Int64},     {"uint8", ir::DType::UInt8},     {"uint16", ir::DType::UInt16},
        {"uint32", ir::DType::UInt32},   {"uint64", ir::DType::UInt64},   {"bool_", ir::DType::Bool},
        {"float_", ir::DType::Float64},  {"int_", ir::DType::Int64},     {"complex64", ir::DType::Complex64},
        {"complex128", ir::DType::Complex128}, {"csingle", ir::DType::Complex64}, {"cdouble", ir::DType::Complex128},
        {"complex_", ir::DType::Complex128}, {"cfloat", ir::DType::Complex128}};
    for (auto& [n, d] : names) {
        interp::addToModule(I, m, n, ms->npScalarTypes[static_cast<int>(d)]);
    }
    interp::addToModule(I, m, "pi", Value::real(M_PI));
    interp::addToModule(I, m, "e", Value::real(M_E));
    interp::addToModule(I, m, "inf", Value::real(INFINITY));
    interp::addToModule(I, m, "nan", Value::real(NAN));
    interp::addToModule(I, m, "newaxis", Value::none());
    interp::addToModule(I, m, "__version__", Value(I.newStr("1.26.4")));

    auto arrayFn = [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("array").arg("object").arg("dtype", Value::none()).kwOnly("copy", Value::boolean(true)).varKw();
        auto v = sig.bind(J, a);
        return newArray(J, *ms, tensorFromData(J, *ms, v[0], dtypeArg(J, *ms, v[1]), true));
    };
    interp::addFunction(I, m, "array", arrayFn);
    interp::addFunction(I, m, "asarray", arrayFn);
    auto filled = [ms](const char* name, double fill) {
        return [ms, name, fill](Interpreter& J, CallArgs& a) {
            const Signature sig = Signature(name).arg("shape").arg("dtype", Value::none()).varKw();
            auto v = sig.bind(J, a);
            Tensor t(dtypeArg(J, *ms, v[1]).value_or(ir::DType::Float64), ir::Shape{shapeArg(J, v[0])});
            for (std::size_t i = 0; fill != 0 && i < t.size(); ++i) {
                t.setDouble(i, fill);
            }
            return newArray(J, *ms, std::move(t));
        };
    };
    interp::addFunction(I, m, "zeros", filled("zeros", 0));
    interp::addFunction(I, m, "ones", filled("ones", 1));
    interp::addFunction(I, m, "empty", filled("empty", 0));
    auto likeFn = [ms](double fill) {
        return [ms, fill](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("zeros_like").arg("a").arg("dtype", Value::none()).varKw();
            auto v = sig.bind(J, a);
            Tensor src = arrayArg(J, *ms, v[0]);
            Tensor t(dtypeArg(J, *ms, v[1]).value_or(src.dtype()), src.shape());
            for (std::size_t i = 0; fill != 0 && i < t.size(); ++i) {
                t.setDouble(i, fill);
            }
            return newArray(J, *ms, std::move(t));
        };
    };
    interp::addFunction(I, m, "zeros_like", likeFn(0));
    interp::addFunction(I, m, "ones_like", likeFn(1));
    interp::addFunction(I, m, "full", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("full").arg("shape").arg("fill_value").arg("dtype", Value::none()).varKw();
        auto v = sig.bind(J, a);
        Tensor fill = tensorFromData(J, *ms, v[1], dtypeArg(J, *ms, v[2]), true);
        Tensor t(fill.dtype(), ir::Shape{shapeArg(J, v[0])});
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (ir::isComplex(t.dtype())) {
                t.setComplex(i, fill.getComplex(0));
            } else if (ir::isFloat(t.dtype())) {
                t.setDouble(i, fill.getDouble(0));
            } else {
                t.setInt(i, fill.getInt(0));
            }
        }
        return newArray(J, *ms, std::move(t));
    });
    interp::addFunction(I, m, "arange", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("arange").arg("start").arg("stop", Value::none()).arg("step", Value::none()).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        Value start = v[0], stop = v[1], step = v[2].isNone() ? Value::integer(1) : v[2];
        if (stop.isNone()) {
            stop = start;
            start = Value::integer(0);
        }
        const bool isF = start.isFloat() || stop.isFloat() || step.isFloat();
        const double s0 = toDouble(J, start), s1 = toDouble(J, stop), st = toDouble(J, step);
        if (st == 0) {
            throw PyError(Exc::ZeroDivisionError, "division by zero");
        }
        const auto n = static_cast<std::int64_t>(std::max(0.0, std::ceil((s1 - s0) / st)));
        const ir::DType dt = dtypeArg(J, *ms, v[3]).value_or(isF ? ir::DType::Float64 : ir::DType::Int64);
        Tensor t(dt, ir::Shape{n});
        for (std::int64_t i = 0; i < n; ++i) {
            if (ir::isFloat(dt)) {
                t.setDouble(static_cast<std::size_t>(i), s0 + static_cast<double>(i) * st);
            } else {
                t.setInt(static_cast<std::size_t>(i), static_cast<std::int64_t>(s0) + i * static_cast<std::int64_t>(st));
            }
        }
        return newArray(J, *ms, std::move(t));
    });
    interp::addFunction(I, m, "linspace", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("linspace").arg("start").arg("stop").arg("num", Value::integer(50)).arg("endpoint", Value::boolean(true)).arg("retstep", Value::boolean(false)).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        const double s0 = toDouble(J, v[0]), s1 = toDouble(J, v[1]);
        const std::int64_t num = J.toIndex(v[2]);
        if (num < 0) {
            throw PyError(Exc::ValueError, "Number of samples, " + std::to_string(num) + ", must be non-negative.");
        }
        const bool endpoint = J.truthy(v[3]);
        const double div = static_cast<double>(endpoint ? num - 1 : num);
        const double step = div > 0 ? (s1 - s0) / div : NAN;
        Tensor t(ir::DType::Float64, ir::Shape{num});
        for (std::int64_t i = 0; i < num; ++i) {
            t.setDouble(static_cast<std::size_t>(i), div > 0 ? static_cast<double>(i) * step + s0 : s0);
        }
        if (endpoint && num > 1) {
            t.setDouble(static_cast<std::size_t>(num - 1), s1);
        }
        if (auto dt = dtypeArg(J, *ms, v[5])) {
            t = t.cast(*dt);
        }
        return newArray(J, *ms, std::move(t));
    });
    interp::addFunction(I, m, "eye", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("eye").arg("N").arg("M", Value::none()).arg("k", Value::integer(0)).arg("dtype", Value::none());
        auto v = sig.bind(J, a);
        const std::int64_t n = J.toIndex(v[0]), mm = v[1].isNone() ? n : J.toIndex(v[1]), k = J.toIndex(v[2]);
        Tensor t(dtypeArg(J, *ms, v[3]).value_or(ir::DType::Float64), ir::Shape{n, mm});
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t j = i + k;
            if (j >= 0 && j < mm) {
                t.setDouble(static_cast<std::size_t>(i * mm + j), 1.0);
            }
        }
        return newArray(J, *ms, std::move(t));
    });
    // tril/triu: zero the elements above (tril) or below (triu) the k-th diagonal of the last
    // two axes; a 1-D array is first repeated into a square matrix, as numpy does.
    for (const bool lower : {true, false}) {
        const std::string name = lower ? "tril" : "triu";
        interp::addFunction(I, m, name, [ms, lower, name](Interpreter& J, CallArgs& a) {
            const Signature sig = Signature(name).arg("m").arg("k", Value::integer(0));
            auto v = sig.bind(J, a);
            Tensor src = arrayArg(J, *ms, v[0]);
            const std::int64_t k = J.toIndex(v[1]);
            if (src.rank() == 0) {
                throw PyError(Exc::ValueError, "input array must be at least 1-d");
            }
            Tensor t;
            if (src.rank() == 1) {
                const std::int64_t n = src.shape().dims[0];
                t = Tensor(src.dtype(), ir::Shape{n, n});
                for (std::int64_t i = 0; i < n * n; ++i) {
                    t.setComplex(static_cast<std::size_t>(i), src.getComplex(static_cast<std::size_t>(i % n)));
                }
            } else {
                t = src.clone();
            }
            const auto& d = t.shape().dims;
            const std::int64_t rows = d[d.size() - 2], cols = d[d.size() - 1];
            for (std::size_t e = 0; e < t.size(); ++e) {
                const std::int64_t i = static_cast<std::int64_t>(e) / cols % rows, j = static_cast<std::int64_t>(e) % cols;
                if (lower ? j - i > k : j - i < k) {
                    t.setInt(e, 0);
                }
            }
            return newArray(J, *ms, std::move(t));
        });
    }
    static const std::pair<const char*, Red> reds[] = {{"sum", Red::Sum}, {"mean", Red::Mean}, {"max", Red::Max},
                                                       {"min", Red::Min}, {"all", Red::All},   {"any", Red::Any},
                                                       {"prod", Red::Prod}, {"amax", Red::Max}, {"amin", Red::Min},
                                                       {"argmax", Red::ArgMax}, {"argmin", Red::ArgMin}};
    for (auto& [n, k] : reds) {
        const Red kind = k;
        const std::string name = n;
        interp::addFunction(I, m, name, [ms, kind, name](Interpreter& J, CallArgs& a) { return reduction(J, *ms, kind, name, a, false); });
    }
    interp::addFunction(I, m, "allclose", [ms](Interpreter& J, CallArgs& a) { return allclose(J, *ms, a, false); });
    interp::addFunction(I, m, "isclose", [ms](Interpreter& J, CallArgs& a) { return allclose(J, *ms, a, true); });
    interp::addFunction(I, m, "array_equal", [ms](Interpreter& J, CallArgs& a) {
        Tensor x = arrayArg(J, *ms, a.pos.at(0)), y = arrayArg(J, *ms, a.pos.at(1));
        if (x.shape() != y.shape()) {
            return Value::boolean(false);
        }
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (x.getComplex(i) != y.getComplex(i)) {
                return Value::boolean(false);
            }
        }
        return Value::boolean(true);
    });
    struct UnaryMath {
        const char* name;
        double (*fn)(double);
        const char* op;  // the primitive with a complex kernel; "" when there is none
    };
    static const UnaryMath unary[] = {
        {"sqrt", [](double x) { return std::sqrt(x); }, "Sqrt"}, {"exp", [](double x) { return std::exp(x); }, "Exp"},
        {"log", [](double x) { return std::log(x); }, "Log"},    {"tanh", [](double x) { return std::tanh(x); }, "Tanh"},
        {"sin", [](double x) { return std::sin(x); }, "Sin"},    {"cos", [](double x) { return std::cos(x); }, "Cos"},
        {"floor", [](double x) { return std::floor(x); }, "Floor"}, {"ceil", [](double x) { return std::ceil(x); }, "Ceil"}};
    for (const UnaryMath& u : unary) {
        interp::addFunction(I, m, u.name, [ms, u](Interpreter& J, CallArgs& a) { return unaryMath(J, *ms, a.pos.at(0), u.fn, u.op); });
    }
    // Complex parts: np.real / np.imag / np.conj / np.angle (real inputs as numpy treats them).
    for (const char* part : {"real", "imag", "conj", "conjugate", "angle"}) {
        const std::string op = part == std::string("conjugate") ? "Conj" : std::string(1, static_cast<char>(part[0] - 32)) + (part + 1);
        interp::addFunction(I, m, part, [ms, op](Interpreter& J, CallArgs& a) -> Value {
            Tensor t = arrayArg(J, *ms, a.pos.at(0));
            if (op == "Angle" && !ir::isComplex(t.dtype())) {
                t = t.cast(ir::isFloat(t.dtype()) ? t.dtype() : ir::DType::Float64).cast(ir::DType::Complex128);
            }
            Tensor r = asTensor(runOpByName(J, *ms, op, {newArray(J, *ms, t)}))->t;
            return reduceResult(J, *ms, std::move(r), !asTensor(a.pos[0]));
        });
    }
    interp::addFunction(I, m, "abs", [ms](Interpreter& J, CallArgs& a) -> Value {
        if (a.pos.at(0).isNumber()) {
            return J.call(J.builtins().getStr("abs"), {a.pos[0]});
        }
        Value x = newArray(J, *ms, arrayArg(J, *ms, a.pos[0]));
        return J.call(J.builtins().getStr("abs"), {x});
    });
    interp::addFunction(I, m, "reshape", [ms](Interpreter& J, CallArgs& a) {
        return reshapeImpl(J, *ms, arrayArg(J, *ms, a.pos.at(0)), std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
    });
    interp::addFunction(I, m, "transpose", [ms](Interpreter& J, CallArgs& a) {
        return transposeImpl(J, *ms, arrayArg(J, *ms, a.pos.at(0)), std::vector<Value>(a.pos.begin() + 1, a.pos.end()));
    });
    static const std::pair<const char*, const char*> bins[] = {{"add", "+"}, {"subtract", "-"}, {"multiply", "*"}, {"divide", "/"},
                                                              {"maximum", "Maximum"}, {"minimum", "Minimum"}};
    // ufunc.reduce(array, axis=0, ...): the ufunc's reduction (np.maximum.reduce is np.amax)
    // along axis 0 unless an axis is given.
    static const std::pair<const char*, Red> ufuncReduce[] = {
        {"add", Red::Sum}, {"multiply", Red::Prod}, {"maximum", Red::Max}, {"minimum", Red::Min}};
    for (auto& [n, op] : bins) {
        const std::string opText = op;
        Ref<interp::NativeFunctionObject> f = interp::addFunction(
            I, m, n, [ms, opText](Interpreter& J, CallArgs& a) { return npBinary(J, *ms, opText, a.pos.at(0), a.pos.at(1)); });
        for (const auto& [u, kind] : ufuncReduce) {
            if (std::string_view(u) != n) {
                continue;
            }
            const Red k = kind;
            const std::string name = std::string(n) + ".reduce";
            f->setDict(I.newDict().get());
            f->dict()->setStr(I.intern("reduce"), Value(I.newNative("reduce", [ms, k, name](Interpreter& J, CallArgs& a) {
                CallArgs b = a;
                if (b.pos.size() < 2 && b.kwarg("axis").isNull()) {
                    b.kw.push_back({"axis", Value::integer(0)});
                }
                return reduction(J, *ms, k, name, b, false);
            })));
        }
    }
    interp::addFunction(I, m, "dot", [ms](Interpreter& J, CallArgs& a) {
        return J.binaryOp(ast::Operator::MatMult, newArray(J, *ms, arrayArg(J, *ms, a.pos.at(0))), newArray(J, *ms, arrayArg(J, *ms, a.pos.at(1))));
    });
    interp::addFunction(I, m, "matmul", [ms](Interpreter& J, CallArgs& a) {
        return J.binaryOp(ast::Operator::MatMult, newArray(J, *ms, arrayArg(J, *ms, a.pos.at(0))), newArray(J, *ms, arrayArg(J, *ms, a.pos.at(1))));
    });
    auto joinFn = [ms](const char* prim) {
        return [ms, prim](Interpreter& J, CallArgs& a) {
            static const Signature sig = Signature("concatenate").arg("arrays").arg("axis", Value::integer(0));
            auto v = sig.bind(J, a);
            std::vector<Value> arrs;
            for (const Value& x : J.toVector(v[0])) {
                arrs.push_back(newArray(J, *ms, arrayArg(J, *ms, x)));
            }
            ir::AttrMap attrs;
            attrs.set("axis", ir::Value::integer(J.toIndex(v[1])));
            Value r = runOpByName(J, *ms, prim, {Value(J.newTuple(arrs))}, attrs);
            return newArray(J, *ms, asTensor(r)->t);
        };
    };
    interp::addFunction(I, m, "concatenate", joinFn("Concat"));
    interp::addFunction(I, m, "stack", joinFn("Stack"));
    interp::addFunction(I, m, "where", [ms](Interpreter& J, CallArgs& a) {
        if (a.pos.size() == 1 && a.kw.empty()) {  // where(condition) is nonzero(condition)
            return J.call(J.getAttr(Value(J.importModule("numpy")), "nonzero"), {a.pos[0]});
        }
        if (a.pos.size() != 3) {
            throw PyError(Exc::ValueError, "either both or neither of x and y should be given");
        }
        Value c = newArray(J, *ms, arrayArg(J, *ms, a.pos.at(0)).cast(ir::DType::Bool));
        Value r = runOpByName(J, *ms, "Select", {c, a.pos.at(1), a.pos.at(2)});
        return newArray(J, *ms, asTensor(r)->t);
    });
}

// --- np.random ----------------------------------------------------------------------------------

namespace {

class RandomStateObject : public Object {
public:
    explicit RandomStateObject(Type* t) : Object(t, interp::ObjKind::Native) {}
    runtime::RandomState rs{0u};
};

std::optional<std::vector<std::int64_t>> sizeArg(Interpreter& I, const Value& v) {
    if (v.isNone() || v.isNull()) {
        return std::nullopt;
    }
    return shapeArg(I, v);
}

std::size_t countOf(const std::vector<std::int64_t>& dims) {
    std::size_t n = 1;
    for (auto d : dims) {
        n *= static_cast<std::size_t>(d);
    }
    return n;
}

using RsGetter = std::function<runtime::RandomState&(CallArgs&)>;

void seedFrom(Interpreter& I, runtime::RandomState& rs, const Value& v) {
    if (v.isNone() || v.isNull()) {
        rs = runtime::RandomState();
        return;
    }
    if (v.is<interp::ListObject>() || v.is<interp::TupleObject>()) {
        std::vector<std::uint32_t> key;
        for (const Value& k : I.toVector(v)) {
            key.push_back(static_cast<std::uint32_t>(I.toIndex(k)));
        }
        rs.seedArray(key);
        return;
    }
    try {
        rs.seed(I.toIndex(v));
    } catch (const std::invalid_argument& e) {
        throw PyError(Exc::ValueError, e.what());
    }
}

void addRandomFunctions(Interpreter&, const MsPtr& ms, const std::function<void(std::string, interp::NativeFn)>& def,
                        RsGetter rsOf, std::size_t skip) {
    auto vec = [ms](Interpreter& J, std::vector<double> vals, const std::vector<std::int64_t>& dims) {
        return newArray(J, *ms, Tensor::fromDoubles(ir::DType::Float64, ir::Shape{std::vector<std::int64_t>(dims)}, vals));
    };
    auto dimsOf = [skip](Interpreter& J, CallArgs& a) {
        std::vector<std::int64_t> dims;
        for (std::size_t i = skip; i < a.pos.size(); ++i) {
            dims.push_back(J.toIndex(a.pos[i]));
        }
        return dims;
    };
    def("seed", [rsOf, skip](Interpreter& J, CallArgs& a) {
        seedFrom(J, rsOf(a), a.pos.size() > skip ? a.pos[skip] : interp::argAt(a, 99, "seed"));
        return Value::none();
    });
    def("rand", [rsOf, vec, dimsOf](Interpreter& J, CallArgs& a) -> Value {
        auto dims = dimsOf(J, a);
        auto& rs = rsOf(a);
        if (dims.empty()) {
            return Value::real(rs.randomSample());
        }
        return vec(J, rs.randomSamples(countOf(dims)), dims);
    });
    def("randn", [rsOf, vec, dimsOf](Interpreter& J, CallArgs& a) -> Value {
        auto dims = dimsOf(J, a);
        auto& rs = rsOf(a);
        if (dims.empty()) {
            return Value::real(rs.standardNormal());
        }
        return vec(J, rs.standardNormals(countOf(dims)), dims);
    });
    auto sized = [rsOf, vec, skip](const char* name, int kind) {
        return [rsOf, vec, skip, name, kind](Interpreter& J, CallArgs& a) -> Value {
            CallArgs b(std::vector<Value>(a.pos.begin() + static_cast<std::ptrdiff_t>(skip), a.pos.end()), a.kw);
            auto& rs = rsOf(a);
            if (kind == 0) {  // random_sample / random(size)
                const Signature sig = Signature(name).arg("size", Value::none());
                auto v = sig.bind(J, b);
                auto size = sizeArg(J, v[0]);
                return size ? vec(J, rs.randomSamples(countOf(*size)), *size) : Value::real(rs.randomSample());
            }
            if (kind == 3) {  // standard_normal(size)
                const Signature sig = Signature(name).arg("size", Value::none());
                auto v = sig.bind(J, b);
                auto size = sizeArg(J, v[0]);
                return size ? vec(J, rs.standardNormals(countOf(*size)), *size) : Value::real(rs.standardNormal());
            }
            const bool uni = kind == 1;
            const Signature sig = Signature(name)
                                      .arg(uni ? "low" : "loc", uni ? Value::real(0.0) : Value::real(0.0))
                                      .arg(uni ? "high" : "scale", Value::real(1.0))
                                      .arg("size", Value::none());
            auto v = sig.bind(J, b);
            const double p0 = toDouble(J, v[0]), p1 = toDouble(J, v[1]);
            auto size = sizeArg(J, v[2]);
            if (!size) {
                return Value::real(uni ? rs.uniform(p0, p1) : rs.normal(p0, p1));
            }
            return vec(J, uni ? rs.uniforms(p0, p1, countOf(*size)) : rs.normals(p0, p1, countOf(*size)), *size);
        };
    };
    def("random_sample", sized("random_sample", 0));
    def("random", sized("random", 0));
    def("uniform", sized("uniform", 1));
    def("normal", sized("normal", 2));
    def("standard_normal", sized("standard_normal", 3));
    def("randint", [rsOf, ms, skip](Interpreter& J, CallArgs& a) -> Value {
        CallArgs b(std::vector<Value>(a.pos.begin() + static_cast<std::ptrdiff_t>(skip), a.pos.end()), a.kw);
        static const Signature sig = Signature("randint").arg("low").arg("high", Value::none()).arg("size", Value::none()).arg("dtype", Value::none());
        auto v = sig.bind(J, b);
        std::int64_t low = J.toIndex(v[0]), high;
        if (v[1].isNone()) {
            high = low;
            low = 0;
        } else {
            high = J.toIndex(v[1]);
        }
        auto& rs = rsOf(a);
        const ir::DType dt = dtypeArg(J, *ms, v[3]).value_or(ir::DType::Int64);
        try {
            auto size = sizeArg(J, v[2]);
            if (!size) {
                return Value::integer(rs.randint(low, high));
            }
            auto vals = rs.randintArray(low, high, countOf(*size), dt);
            return newArray(J, *ms, Tensor::fromInts(dt, ir::Shape{*size}, vals));
        } catch (const std::invalid_argument& e) {
            throw PyError(Exc::ValueError, e.what());
        }
    });
    def("permutation", [rsOf, ms, skip](Interpreter& J, CallArgs& a) -> Value {
        auto& rs = rsOf(a);
        const Value& x = a.pos.at(skip);
        if (x.isIntLike()) {
            auto p = rs.permutation(static_cast<std::size_t>(x.intLike()));
            return newArray(J, *ms, Tensor::fromInts(ir::DType::Int64, ir::Shape{static_cast<std::int64_t>(p.size())}, p));
        }
        Tensor t = arrayArg(J, *ms, x);
        auto order = rs.shuffledOrder(static_cast<std::size_t>(t.rank() ? t.shape().dims[0] : 0));
        std::vector<Value> rows;
        for (auto i : order) {
            rows.push_back(newArray(J, *ms, indexTensor(J, t, Value::integer(i))));
        }
        return newArray(J, *ms, tensorFromData(J, *ms, Value(J.newList(rows)), t.dtype(), true));
    });
    def("shuffle", [rsOf, skip](Interpreter& J, CallArgs& a) -> Value {
        auto& rs = rsOf(a);
        Value x = a.pos.at(skip);
        const auto n = static_cast<std::size_t>(J.len(x));
        auto order = rs.shuffledOrder(n);
        std::vector<Value> items;
        for (auto i : order) {
            items.push_back(J.getItem(x, Value::integer(i)));
        }
        if (auto* l = x.as<interp::ListObject>()) {
            l->items = items;
        } else {
            for (std::size_t i = 0; i < n; ++i) {
                J.setItem(x, Value::integer(static_cast<std::int64_t>(i)), items[i]);
            }
        }
        return Value::none();
    });
}

}  // namespace

void initNumpyRandom(Interpreter& I, const MsPtr& ms, interp::ModuleObject& m) {
    addRandomFunctions(
        I, ms, [&](std::string n, interp::NativeFn f) { interp::addFunction(I, m, std::move(n), std::move(f)); },
        [ms](CallArgs&) -> runtime::RandomState& { return ms->ctx->npRandom; }, 0);
    ClassBuilder b(I, "RandomState", "numpy.random.mtrand");
    b.layout<RandomStateObject>();
    b.method("__init__", [](Interpreter& J, CallArgs& a) {
        seedFrom(J, a.pos.at(0).as<RandomStateObject>()->rs, a.pos.size() > 1 ? a.pos[1] : Value::none());
        return Value::none();
    });
    addRandomFunctions(
        I, ms, [&](std::string n, interp::NativeFn f) { b.method(std::move(n), std::move(f)); },
        [](CallArgs& a) -> runtime::RandomState& { return a.pos.at(0).as<RandomStateObject>()->rs; }, 1);
    interp::addToModule(I, m, "RandomState", Value(b.build()));
}

}  // namespace irscope::modules
