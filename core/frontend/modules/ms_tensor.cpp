// mindspore.Tensor / Parameter / dtypes and the conversions between Python values, IR
// constants and runtime tensors shared by the mindspore and numpy modules.
#include <cmath>
#include <functional>

#include "frontend/interp/complex.h"
#include "frontend/modules/ms_internal.h"
#include "runtime/tensor_format.h"

namespace irscope::modules {

using interp::ClassBuilder;
using interp::Signature;
using ir::Tensor;

TensorObject* asTensor(const Value& v) {
    return v.as<TensorObject>();
}

bool isNumpy(const MsTypes& ms, const Value& v) {
    return v.isObj() && v.obj()->type()->isSubtypeOf(ms.ndarray);
}

Value newTensor(Interpreter& I, const MsTypes& ms, Tensor t) {
    Ref<TensorObject> o = I.make<TensorObject>(ms.tensor);
    o->t = std::move(t);
    return Value(o);
}

Value newArray(Interpreter& I, const MsTypes& ms, Tensor t) {
    Ref<TensorObject> o = I.make<TensorObject>(ms.ndarray);
    o->t = std::move(t);
    return Value(o);
}

void raiseOpError(const ops::OpError& e) {
    switch (e.kind()) {
        case ops::ErrorKind::TypeError: throw PyError(Exc::TypeError, e.what());
        case ops::ErrorKind::ValueError: throw PyError(Exc::ValueError, e.what());
        case ops::ErrorKind::IndexError: throw PyError(Exc::IndexError, e.what());
        case ops::ErrorKind::ZeroDivisionError: throw PyError(Exc::ZeroDivisionError, e.what());
        case ops::ErrorKind::RuntimeError: break;
    }
    throw PyError(Exc::RuntimeError, e.what());
}

std::optional<ir::DType> dtypeArg(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (v.isNull() || v.isNone()) {
        return std::nullopt;
    }
    if (auto* d = v.as<DTypeObject>()) {
        return d->dtype;
    }
    if (v.obj() == I.types().floatType.get()) {
        return ir::DType::Float64;
    }
    if (v.obj() == I.types().intType.get()) {
        return ir::DType::Int64;
    }
    if (v.obj() == I.types().boolType.get()) {
        return ir::DType::Bool;
    }
    if (v.obj() == I.types().complexType.get()) {
        return ir::DType::Complex128;
    }
    if (auto* s = v.as<interp::StrObject>()) {
        static const std::pair<const char*, ir::DType> names[] = {
            {"float16", ir::DType::Float16}, {"float32", ir::DType::Float32}, {"float64", ir::DType::Float64},
            {"int8", ir::DType::Int8},       {"int16", ir::DType::Int16},     {"int32", ir::DType::Int32},
            {"int64", ir::DType::Int64},     {"uint8", ir::DType::UInt8},     {"bool", ir::DType::Bool},
            {"float", ir::DType::Float64},   {"int", ir::DType::Int64},       {"complex64", ir::DType::Complex64},
            {"complex128", ir::DType::Complex128}, {"complex", ir::DType::Complex128}};
        for (auto& [n, d] : names) {
            if (s->value == n) {
                return d;
            }
        }
        if (auto d = ir::dtypeFromName(s->value)) {
            return d;
        }
    }
    (void)ms;
    throw PyError(Exc::TypeError, "data type '" + I.str(v) + "' not understood");
}

namespace {

// Shape, kind and flat values of nested Python data.
struct Flat {
    std::vector<std::int64_t> dims;
    std::vector<double> values;
    std::vector<std::int64_t> ints;
    std::vector<double> imag;  // parallel to values once anyComplex
    bool anyFloat = false, allBool = true, hasTensorDtype = false, anyComplex = false;
    ir::DType tensorDtype = ir::DType::Float32;
};

void flatten(Interpreter& I, const Value& v, Flat& f, std::size_t depth) {
    auto setDim = [&](std::int64_t n) {
        if (f.dims.size() == depth) {
            f.dims.push_back(n);
        } else if (f.dims.size() < depth || f.dims[depth] != n) {
            throw PyError(Exc::ValueError, "setting an array element with a sequence. The requested array has an "
                                           "inhomogeneous shape after " + std::to_string(depth) + " dimensions.");
        }
    };
    if (auto* t = asTensor(v)) {
        const Tensor& x = t->t;
        for (std::size_t d = 0; d < x.rank(); ++d) {
            if (f.dims.size() > depth + d && f.dims[depth + d] != x.shape().dims[d]) {
                throw PyError(Exc::ValueError, "setting an array element with a sequence.");
            }
            if (f.dims.size() == depth + d) {
                f.dims.push_back(x.shape().dims[d]);
            }
        }
        const bool fl = ir::isFloat(x.dtype()) || ir::isComplex(x.dtype());
        f.anyFloat |= fl;
        f.allBool &= x.dtype() == ir::DType::Bool;
        f.hasTensorDtype = true;
        f.tensorDtype = x.dtype();
        if (ir::isComplex(x.dtype()) && !f.anyComplex) {
            f.anyComplex = true;
            f.imag.resize(f.values.size(), 0.0);
        }
        for (std::size_t i = 0; i < x.size(); ++i) {
            f.values.push_back(x.getDouble(i));
            f.ints.push_back(fl ? 0 : x.getInt(i));
            if (f.anyComplex) {
                f.imag.push_back(x.getComplex(i).imag());
            }
        }
        return;
    }
    if (auto* l = v.as<interp::ListObject>()) {
        setDim(static_cast<std::int64_t>(l->items.size()));
        for (const Value& e : std::vector<Value>(l->items)) {
            flatten(I, e, f, depth + 1);
        }
        return;
    }
    if (auto* tu = v.as<interp::TupleObject>()) {
        setDim(static_cast<std::int64_t>(tu->items.size()));
        for (const Value& e : tu->items) {
            flatten(I, e, f, depth + 1);
        }
        return;
    }
    if (f.dims.size() > depth) {
        throw PyError(Exc::ValueError, "setting an array element with a sequence. The requested array has an "
                                       "inhomogeneous shape after " + std::to_string(depth) + " dimensions.");
    }
    if (const auto* c = v.as<interp::ComplexObject>()) {
        if (!f.anyComplex) {
            f.anyComplex = true;
            f.imag.resize(f.values.size(), 0.0);
        }
        f.allBool = false;
        f.anyFloat = true;
        f.values.push_back(c->value.real());
        f.ints.push_back(0);
        f.imag.push_back(c->value.imag());
        return;
    }
    if (f.anyComplex) {
        f.imag.push_back(0.0);
    }
    if (v.isBool()) {
        f.values.push_back(v.asBool() ? 1 : 0);
        f.ints.push_back(v.asBool() ? 1 : 0);
    } else if (v.isInt()) {
        f.allBool = false;
        f.values.push_back(static_cast<double>(v.asInt()));
        f.ints.push_back(v.asInt());
    } else if (v.isFloat()) {
        f.allBool = false;
        f.anyFloat = true;
        f.values.push_back(v.asFloat());
        f.ints.push_back(0);
    } else {
        throw PyError(Exc::TypeError, "For 'Tensor', the type of 'input_data' should be one of '[Tensor, ndarray, "
                                      "str_, list, tuple, float, int, bool, complex, bool_]', but got '" +
                                          I.typeName(v) + "'.");
    }
}

}  // namespace

Tensor toArray(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (auto* t = asTensor(v)) {
        return t->t;
    }
    return tensorFromData(I, ms, v, std::nullopt, true);
}

std::pair<Value, Value> arrayOperands(Interpreter& I, const MsTypes& ms, const Value& a, const Value& b) {
    Value x = asTensor(a) ? a : (a.isNumber() ? a : newArray(I, ms, toArray(I, ms, a)));
    Value y = asTensor(b) ? b : (b.isNumber() ? b : newArray(I, ms, toArray(I, ms, b)));
    if (!asTensor(x) && !asTensor(y)) {
        x = newArray(I, ms, toArray(I, ms, x));
    }
    return {x, y};
}

Tensor tensorFromData(Interpreter& I, const MsTypes& ms, const Value& data, std::optional<ir::DType> dtype,
                      bool numpyRules) {
    (void)ms;
    if (auto* t = asTensor(data)) {
        Tensor c = t->t.clone();
        return dtype && *dtype != c.dtype() ? c.cast(*dtype) : c;
    }
    Flat f;
    flatten(I, data, f, 0);
    ir::DType natural = f.hasTensorDtype && !f.anyFloat ? f.tensorDtype
                        : f.anyFloat                    ? (f.hasTensorDtype ? f.tensorDtype
                                                           : numpyRules     ? ir::DType::Float64
                                                                            : ir::DType::Float32)
                        : f.allBool && !f.values.empty() ? ir::DType::Bool
                                                          : ir::DType::Int64;
    if (f.values.empty() && !f.hasTensorDtype) {
        natural = numpyRules ? ir::DType::Float64 : ir::DType::Float32;
    }
    if (f.anyComplex) {  // Python complex numbers make complex128, as numpy does
        natural = f.hasTensorDtype && ir::isComplex(f.tensorDtype) ? f.tensorDtype : ir::DType::Complex128;
    }
    const ir::DType to = dtype.value_or(natural);
    ir::Shape shape{std::vector<std::int64_t>(f.dims)};
    if (f.anyComplex) {
        if (!ir::isComplex(to)) {
            throw PyError(Exc::TypeError, "can't convert complex to " + runtime::numpyDTypeName(to));
        }
        Tensor t(to, shape);
        for (std::size_t i = 0; i < f.values.size(); ++i) {
            t.setComplex(i, {f.values[i], f.imag[i]});
        }
        return t;
    }
    if (!ir::isFloat(to) && !f.anyFloat) {
        return Tensor::fromInts(to, shape, f.ints);
    }
    return Tensor::fromDoubles(to, shape, f.values);
}

ir::ValuePtr toIrValue(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (v.isNull() || v.isNone()) {
        return ir::Value::none();
    }
    if (v.isBool()) {
        return ir::Value::boolean(v.asBool());
    }
    if (v.isInt()) {
        return ir::Value::integer(v.asInt());
    }
    if (v.isFloat()) {
        return ir::Value::floating(v.asFloat());
    }
    if (auto* s = v.as<interp::StrObject>()) {
        return ir::Value::string(s->value);
    }
    if (auto* t = asTensor(v)) {
        return ir::Value::tensorValue(t->t.toValueData());
    }
    if (auto* d = v.as<DTypeObject>()) {
        return ir::Value::type(d->dtype);
    }
    if (v.is<interp::TupleObject>() || v.is<interp::ListObject>() || v.is<interp::RangeObject>()) {
        // A range is its tuple of ints, as graph mode makes it (F.make_range as an axis).
        std::vector<ir::ValuePtr> elems;
        for (const Value& e : I.toVector(v)) {
            elems.push_back(toIrValue(I, ms, e));
        }
        return v.is<interp::ListObject>() ? ir::Value::list(std::move(elems)) : ir::Value::tuple(std::move(elems));
    }
    if (v.obj() == I.types().floatType.get() || v.obj() == I.types().intType.get() ||
        v.obj() == I.types().boolType.get()) {
        return ir::Value::type(*dtypeArg(I, ms, v));
    }
    throw PyError(Exc::TypeError, "irscope: cannot pass a '" + I.typeName(v) + "' object to a primitive");
}

ops::KernelArg toKernelArg(Interpreter& I, const MsTypes& ms, const Value& v) {
    if (auto* t = asTensor(v)) {
        return ops::KernelArg(t->t);
    }
    if (v.is<interp::TupleObject>() || v.is<interp::ListObject>()) {
        std::vector<Value> items = I.toVector(v);
        bool anyTensor = false;
        for (const Value& e : items) {
            anyTensor |= asTensor(e) != nullptr;
        }
        if (anyTensor) {
            std::vector<ops::KernelArg> elems;
            for (const Value& e : items) {
                elems.push_back(toKernelArg(I, ms, e));
            }
            return ops::KernelArg::tuple(std::move(elems));
        }
    }
    return ops::KernelArg(toIrValue(I, ms, v));
}

Value fromIrValue(Interpreter& I, const MsTypes& ms, const ir::ValuePtr& v) {
    if (!v) {
        return Value::none();
    }
    switch (v->kind) {
        case ir::Value::Kind::None: return Value::none();
        case ir::Value::Kind::Bool: return Value::boolean(v->b);
        case ir::Value::Kind::Int: return Value::integer(v->i);
        case ir::Value::Kind::Float: return Value::real(v->f);
        case ir::Value::Kind::String: return Value(I.newStr(v->text));
        case ir::Value::Kind::Tensor: return newTensor(I, ms, Tensor::fromValueData(*v->tensor));
        case ir::Value::Kind::Type: return ms.msDtypes[static_cast<int>(v->dtype)];
        case ir::Value::Kind::Tuple:
        case ir::Value::Kind::List: {
            std::vector<Value> items;
            for (const auto& e : v->elements) {
                items.push_back(fromIrValue(I, ms, e));
            }
            if (v->kind == ir::Value::Kind::List) {
                return Value(I.newList(std::move(items)));
            }
            return Value(I.newTuple(std::move(items)));
        }
        default: return Value(I.newStr(v->text));
    }
}

Value fromKernelArg(Interpreter& I, const MsTypes& ms, const ops::KernelArg& a) {
    if (a.isTensor()) {
        return newTensor(I, ms, a.tensor());
    }
    if (a.isTuple()) {
        std::vector<Value> items;
        for (const auto& e : a.elements()) {
            items.push_back(fromKernelArg(I, ms, e));
        }
        return Value(I.newTuple(std::move(items)));
    }
    if (a.isValue()) {
        return fromIrValue(I, ms, a.value());
    }
    return Value::none();
}

// --- indexing ---------------------------------------------------------------------------------

namespace {

struct IndexItem {
    enum Kind { Int, Slice, NewAxis, Ellipsis } kind;
    std::int64_t i = 0;
    Value slice;
};

std::int64_t sliceBound(Interpreter& I, const Value& v, std::int64_t dflt) {
    if (v.isNone() || v.isNull()) {
        return dflt;
    }
    if (auto* t = asTensor(v)) {
        return t->t.getInt(0);
    }
    return I.toIndex(v);
}

}  // namespace

void TensorObject::clearRefs() {
    viewParent = Value();
    viewKey = Value();
    Object::clearRefs();
}

Tensor indexTensor(Interpreter& I, const Tensor& t, const Value& key) {
    std::vector<Value> keys;
    if (auto* tu = key.as<interp::TupleObject>()) {
        keys = tu->items;
    } else {
        keys.push_back(key);
    }
    std::vector<IndexItem> items;
    int consumed = 0;
    bool haveEllipsis = false;
    for (const Value& k : keys) {
        if (k.isNone()) {
            items.push_back({IndexItem::NewAxis});
        } else if (k.identical(I.ellipsis())) {
            if (haveEllipsis) {
                throw PyError(Exc::IndexError, "an index can only have a single ellipsis ('...')");
            }
            haveEllipsis = true;
            items.push_back({IndexItem::Ellipsis});
        } else if (k.is<interp::SliceObject>()) {
            items.push_back({IndexItem::Slice, 0, k});
            ++consumed;
        } else if (auto* kt = asTensor(k); kt && kt->t.size() == 1 && !ir::isFloat(kt->t.dtype())) {
            items.push_back({IndexItem::Int, kt->t.getInt(0)});
            ++consumed;
        } else if (k.isIntLike() || (k.isObj() && !I.typeOf(k)->lookup("__index__").isNull())) {
            items.push_back({IndexItem::Int, I.toIndex(k)});
            ++consumed;
        } else {
            throw PyError(Exc::IndexError, "only integers, slices (`:`), ellipsis (`...`) and None (`None`) are "
                                           "supported as indices here, got '" + I.typeName(k) + "'");
        }
    }
    const auto rank = static_cast<int>(t.rank());
    if (consumed > rank) {
        throw PyError(Exc::IndexError, "too many indices for tensor: tensor is " + std::to_string(rank) +
                                           "-dimensional, but " + std::to_string(consumed) + " were indexed");
    }
    // Expand: every input dim gets (start, step, len, keep).
    struct DimPlan {
        std::int64_t start, step, len;
        bool keep;
    };
    std::vector<DimPlan> plan;
    std::vector<std::int64_t> outDims;
    std::vector<int> outFromDim;  // -1: new axis
    int dim = 0;
    auto addFull = [&](int d) {
        plan.push_back({0, 1, t.shape().dims[d], true});
        outDims.push_back(t.shape().dims[d]);
        outFromDim.push_back(d);
    };
    for (const IndexItem& it : items) {
        switch (it.kind) {
            case IndexItem::NewAxis:
                outDims.push_back(1);
                outFromDim.push_back(-1);
                break;
            case IndexItem::Ellipsis:
                for (int n = rank - consumed; n > 0; --n) {
                    addFull(dim++);
                }
                break;
            case IndexItem::Int: {
                const std::int64_t n = t.shape().dims[dim];
                std::int64_t i = it.i < 0 ? it.i + n : it.i;
                if (i < 0 || i >= n) {
                    throw PyError(Exc::IndexError, "index " + std::to_string(it.i) + " is out of bounds for axis " +
                                                       std::to_string(dim) + " with size " + std::to_string(n));
                }
                plan.push_back({i, 1, 1, false});
                ++dim;
                break;
            }
            case IndexItem::Slice: {
                auto* s = it.slice.as<interp::SliceObject>();
                const std::int64_t n = t.shape().dims[dim];
                const std::int64_t step = sliceBound(I, s->step, 1);
                if (step == 0) {
                    throw PyError(Exc::ValueError, "slice step cannot be zero");
                }
                auto clampBound = [&](const Value& b, std::int64_t dflt) {
                    if (b.isNone() || b.isNull()) {
                        return dflt;
                    }
                    std::int64_t v = sliceBound(I, b, 0);
                    if (v < 0) {
                        v += n;
                        if (v < 0) {
                            v = step < 0 ? -1 : 0;
                        }
                    } else if (v >= n) {
                        v = step < 0 ? n - 1 : n;
                    }
                    return v;
                };
                const std::int64_t start = clampBound(s->start, step < 0 ? n - 1 : 0);
                const std::int64_t stop = clampBound(s->stop, step < 0 ? -1 : n);
                std::int64_t len = 0;
                if (step > 0 && stop > start) {
                    len = (stop - start + step - 1) / step;
                } else if (step < 0 && start > stop) {
                    len = (start - stop - step - 1) / -step;
                }
                plan.push_back({start, step, len, true});
                outDims.push_back(len);
                outFromDim.push_back(dim);
                ++dim;
                break;
            }
        }
    }
    while (dim < rank) {
        addFull(dim++);
    }
    // Strides of the input.
    std::vector<std::int64_t> strides(static_cast<std::size_t>(rank), 1);
    for (int d = rank - 2; d >= 0; --d) {
        strides[d] = strides[d + 1] * t.shape().dims[d + 1];
    }
    Tensor out(t.dtype(), ir::Shape{std::vector<std::int64_t>(outDims)});
    const std::size_t es = ir::dtypeSize(t.dtype());
    std::int64_t base = 0;
    std::vector<int> keptDims;  // input dims that vary, in output order
    for (int d = 0; d < rank; ++d) {
        base += plan[d].start * strides[d];
        if (plan[d].keep) {
            keptDims.push_back(d);
        }
    }
    std::vector<std::int64_t> counter(keptDims.size(), 0);
    for (std::size_t o = 0; o < out.size(); ++o) {
        std::int64_t off = base;
        for (std::size_t k = 0; k < keptDims.size(); ++k) {
            off += counter[k] * plan[keptDims[k]].step * strides[keptDims[k]];
        }
        std::memcpy(out.bytes() + o * es, t.bytes() + static_cast<std::size_t>(off) * es, es);
        for (std::size_t k = keptDims.size(); k-- > 0;) {
            if (++counter[k] < plan[keptDims[k]].len) {
                break;
            }
            counter[k] = 0;
        }
    }
    return out;
}

// --- the Tensor class -----------------------------------------------------------------------

namespace {

const ops::OpDef* operatorOp(std::string_view text) {
    auto r = ops::OpRegistry::instance().findSpelling(text);
    return r ? r->op : nullptr;
}

bool isOperand(const Value& v) {
    return v.is<TensorObject>() || v.isNumber() || v.is<interp::ComplexObject>();
}

// x op y for tensors and Python scalars; numpy arrays follow numpy's result dtypes for the
// common cases (int array with a Python float, int / int give float64).
Value tensorBinary(Interpreter& I, const MsTypes& ms, std::string_view opText, Value a, Value b) {
    const bool np = (isNumpy(ms, a) || isNumpy(ms, b)) && !((asTensor(a) && !isNumpy(ms, a)) || (asTensor(b) && !isNumpy(ms, b)));
    const ops::OpDef* op = operatorOp(opText);
    if (!op) {
        throw PyError(Exc::TypeError, "irscope: operator " + std::string(opText) + " is not supported on tensors");
    }
    std::vector<ops::KernelArg> in;
    if (np) {
        // Python scalars become 0-d arrays of the array's kind (numpy's value-based casting).
        Tensor* arr = asTensor(a) ? &asTensor(a)->t : &asTensor(b)->t;
        Tensor ta = asTensor(a) ? asTensor(a)->t : Tensor(), tb = asTensor(b) ? asTensor(b)->t : Tensor();
        auto scalarFor = [&](const Value& s, Tensor& other) -> Tensor {
            const ir::DType od = other.dtype();
            if (const auto* c = s.as<interp::ComplexObject>()) {
                // A float16/32 array stays single precision (complex64), the rest complex128.
                const ir::DType cd = ir::isComplex(od) ? od
                                     : (od == ir::DType::Float16 || od == ir::DType::Float32) ? ir::DType::Complex64
                                                                                              : ir::DType::Complex128;
                other = other.cast(cd);
                Tensor r(cd, ir::Shape{});
                r.setComplex(0, c->value);
                return r;
            }
            if (ir::isComplex(od)) {  // a real Python scalar with a complex array
                return Tensor::scalar(od, s.toDouble());
            }
            if (s.isFloat()) {
                if (!ir::isFloat(od)) {
                    other = other.cast(ir::DType::Float64);
                    return Tensor::scalar(ir::DType::Float64, s.asFloat());
                }
                return Tensor::scalar(od, s.asFloat());
            }
            if (s.isBool()) {
                return Tensor::scalar(od, s.asBool() ? 1 : 0);
            }
            if (od == ir::DType::Bool) {
                other = other.cast(ir::DType::Int64);
                return Tensor::scalar(ir::DType::Int64, static_cast<double>(s.asInt()));
            }
            Tensor r(od, ir::Shape{});
            r.setInt(0, s.asInt());
            if (ir::isFloat(od)) {
                r.setDouble(0, static_cast<double>(s.asInt()));
            }
            return r;
        };
        if (!asTensor(a)) {
            ta = scalarFor(a, tb);
        } else if (!asTensor(b)) {
            tb = scalarFor(b, ta);
        }
        (void)arr;
        if (opText == "/" && !ir::isFloat(ta.dtype()) && !ir::isFloat(tb.dtype()) && !ir::isComplex(ta.dtype()) &&
            !ir::isComplex(tb.dtype())) {
            ta = ta.cast(ir::DType::Float64);
            tb = tb.cast(ir::DType::Float64);
        }
        in = {ops::KernelArg(ta), ops::KernelArg(tb)};
        try {
            ops::KernelArg r = ops::OpRegistry::instance().run(*op, {}, in);
            return newArray(I, ms, r.tensor());
        } catch (const ops::OpError& e) {
            raiseOpError(e);
        }
    }
    in = {toKernelArg(I, ms, a), toKernelArg(I, ms, b)};
    return runOp(I, ms, *op, {}, std::move(in));
}

interp::NativeFn binaryMethod(const MsPtr& ms, std::string opText, bool reflected) {
    return [ms, opText, reflected](Interpreter& I, CallArgs& a) -> Value {
        Value self = a.pos.at(0), other = a.pos.at(1);
        if (!isOperand(other)) {
            if (isNumpy(*ms, self) && (other.is<interp::ListObject>() || other.is<interp::TupleObject>())) {
                other = newArray(I, *ms, tensorFromData(I, *ms, other, std::nullopt, true));
            } else {
                return I.notImplemented();
            }
        }
        return reflected ? tensorBinary(I, *ms, opText, other, self) : tensorBinary(I, *ms, opText, self, other);
    };
}

Value wrapLike(Interpreter& I, const MsTypes& ms, const Value& like, Tensor t) {
    return isNumpy(ms, like) ? newArray(I, ms, std::move(t)) : newTensor(I, ms, std::move(t));
}

Value tupleOfDims(Interpreter& I, const ir::Shape& s) {
    std::vector<Value> d;
    for (auto n : s.dims) {
        d.push_back(Value::integer(n));
    }
    return Value(I.newTuple(std::move(d)));
}

Value scalarOf(Interpreter& I, const Tensor& t, std::size_t i) {
    if (t.dtype() == ir::DType::Bool) {
        return Value::boolean(t.getInt(i) != 0);
    }
    if (ir::isComplex(t.dtype())) {
        return interp::newComplex(I, t.getComplex(i));
    }
    if (ir::isFloat(t.dtype())) {
        return Value::real(t.getDouble(i));
    }
    return Value::integer(t.getInt(i));
}

Value toList(Interpreter& I, const Tensor& t, std::size_t dim, std::size_t& pos) {
    if (dim == t.rank()) {
        return scalarOf(I, t, pos++);
    }
    std::vector<Value> items;
    for (std::int64_t i = 0; i < t.shape().dims[dim]; ++i) {
        items.push_back(toList(I, t, dim + 1, pos));
    }
    return Value(I.newList(std::move(items)));
}

const Tensor& selfTensor(const CallArgs& a) {
    return a.pos.at(0).as<TensorObject>()->t;
}

}  // namespace

// Methods shared by Tensor and ndarray.
void addCommonTensorMethods(Interpreter& I, const MsPtr& ms, ClassBuilder& b, bool numpy) {
    (void)I;
    static const std::pair<const char*, const char*> binOps[] = {
        {"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"floordiv", "//"}, {"mod", "%"},
        {"pow", "**"}, {"matmul", "@"}, {"and", "&"}, {"or", "|"}, {"xor", "^"}};
    for (auto& [name, text] : binOps) {
        b.method(std::string("__") + name + "__", binaryMethod(ms, text, false));
        b.method(std::string("__r") + name + "__", binaryMethod(ms, text, true));
    }
    static const std::pair<const char*, const char*> cmpOps[] = {
        {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}, {"eq", "=="}, {"ne", "!="}};
    for (auto& [name, text] : cmpOps) {
        b.method(std::string("__") + name + "__", binaryMethod(ms, text, false));
    }
    b.method("__neg__", [ms](Interpreter& J, CallArgs& a) {
        Value self = a.pos.at(0);
        Value r = runOp(J, *ms, *operatorOp("u-"), {}, {ops::KernelArg(selfTensor(a))});
        return wrapLike(J, *ms, self, asTensor(r)->t);
    });
    b.method("__pos__", [](Interpreter&, CallArgs& a) { return a.pos.at(0); });
    b.method("__invert__", [ms](Interpreter& J, CallArgs& a) {
        Value self = a.pos.at(0);
        Value r = runOp(J, *ms, *operatorOp("~"), {}, {ops::KernelArg(selfTensor(a))});
        return wrapLike(J, *ms, self, asTensor(r)->t);
    });
    b.method("__abs__", [ms](Interpreter& J, CallArgs& a) {
        Value r = runOpByName(J, *ms, "Abs", {a.pos.at(0)});
        return wrapLike(J, *ms, a.pos.at(0), asTensor(r)->t);
    });
    b.method("__len__", [](Interpreter&, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        if (t.rank() == 0) {
            throw PyError(Exc::TypeError, "len() of unsized object");
        }
        return Value::integer(t.shape().dims[0]);
    });
    b.method("__bool__", [](Interpreter&, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        if (t.size() != 1) {
            throw PyError(Exc::ValueError, "The truth value of an array with more than one element is ambiguous. "
                                           "Use a.any() or a.all()");
        }
        return Value::boolean(t.getDouble(0) != 0);
    });
    auto scalarCheck = [](const Tensor& t, const char* what) {
        if (t.size() != 1) {
            throw PyError(Exc::TypeError, std::string("only size-1 arrays can be converted to Python ") + what);
        }
    };
    b.method("__int__", [scalarCheck](Interpreter&, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        scalarCheck(t, "scalars");
        return Value::integer(ir::isFloat(t.dtype()) ? static_cast<std::int64_t>(std::trunc(t.getDouble(0))) : t.getInt(0));
    });
    b.method("__float__", [scalarCheck](Interpreter&, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        scalarCheck(t, "scalars");
        return Value::real(t.getDouble(0));
    });
    b.method("__complex__", [scalarCheck](Interpreter& J, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        scalarCheck(t, "scalars");
        return interp::newComplex(J, t.getComplex(0));
    });
    b.method("__index__", [](Interpreter&, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        if (t.size() != 1 || ir::isFloat(t.dtype())) {
            throw PyError(Exc::TypeError, "only integer scalar arrays can be converted to a scalar index");
        }
        return Value::integer(t.getInt(0));
    });
    b.method("__getitem__", [ms](Interpreter& J, CallArgs& a) {
        const Tensor& t = selfTensor(a);
        const Value& key = a.pos.at(1);
        // Advanced indexing: a boolean mask of t's shape, or integer indices along axis 0.
        Tensor idx;
        bool advanced = false;
        if (auto* kt = asTensor(key); kt && (kt->t.rank() > 0 || kt->t.dtype() == ir::DType::Bool)) {
            idx = kt->t;
            advanced = true;
        } else if (key.is<interp::ListObject>()) {
            idx = tensorFromData(J, *ms, key, std::nullopt, true);
            advanced = true;
        }
        if (!advanced) {
            Value r = wrapLike(J, *ms, a.pos[0], indexTensor(J, t, key));
            if (auto* view = asTensor(r); view && view->t.rank() > 0 && isNumpy(*ms, a.pos[0])) {
                view->viewParent = a.pos[0];
                view->viewKey = key;
            }
            return r;
        }
        if (ir::isFloat(idx.dtype())) {
            throw PyError(Exc::IndexError, "arrays used as indices must be of integer (or boolean) type");
        }
        const std::size_t es = ir::dtypeSize(t.dtype());
        if (idx.dtype() == ir::DType::Bool) {
            if (idx.shape() != t.shape()) {
                throw PyError(Exc::IndexError, "boolean index did not match indexed array: array shape " +
                                                   t.shape().toString() + ", index shape " + idx.shape().toString());
            }
            std::vector<std::size_t> sel;
            for (std::size_t i = 0; i < idx.size(); ++i) {
                if (idx.getInt(i) != 0) {
                    sel.push_back(i);
                }
            }
            Tensor out(t.dtype(), ir::Shape{static_cast<std::int64_t>(sel.size())});
            for (std::size_t i = 0; i < sel.size(); ++i) {
                std::memcpy(out.bytes() + i * es, t.bytes() + sel[i] * es, es);
            }
            return wrapLike(J, *ms, a.pos[0], std::move(out));
        }
        if (t.rank() == 0) {
            throw PyError(Exc::IndexError, "too many indices for tensor: tensor is 0-dimensional");
        }
        const std::int64_t n = t.shape().dims[0];
        const std::size_t row = t.size() / static_cast<std::size_t>(std::max<std::int64_t>(n, 1));
        std::vector<std::int64_t> dims = idx.shape().dims;
        dims.insert(dims.end(), t.shape().dims.begin() + 1, t.shape().dims.end());
        Tensor out(t.dtype(), ir::Shape{std::move(dims)});
        for (std::size_t i = 0; i < idx.size(); ++i) {
            std::int64_t k = idx.getInt(i);
            if (k < -n || k >= n) {
                throw PyError(Exc::IndexError, "index " + std::to_string(k) + " is out of bounds for axis 0 with size " +
                                                   std::to_string(n));
            }
            k = k < 0 ? k + n : k;
            std::memcpy(out.bytes() + i * row * es, t.bytes() + static_cast<std::size_t>(k) * row * es, row * es);
        }
        return wrapLike(J, *ms, a.pos[0], std::move(out));
    });
    b.method("__setitem__", [ms](Interpreter& J, CallArgs& a) {
        // Writes through a view: index positions are found by indexing an iota tensor.
        Tensor& t = a.pos.at(0).as<TensorObject>()->t;
        Tensor iota(ir::DType::Int64, t.shape());
        for (std::size_t i = 0; i < iota.size(); ++i) {
            iota.setInt(i, static_cast<std::int64_t>(i));
        }
        Tensor pos = indexTensor(J, iota, a.pos.at(1));
        Tensor src = tensorFromData(J, *ms, a.pos.at(2), t.dtype(), true);
        if (src.size() != 1 && src.size() != pos.size()) {
            // numpy broadcasting of the value to the indexed shape.
            std::vector<ir::ValuePtr> dims;
            for (auto d : pos.shape().dims) {
                dims.push_back(ir::Value::integer(d));
            }
            try {
                ops::KernelArg r = ops::OpRegistry::instance().run(
                    "BroadcastTo", std::vector<ops::KernelArg>{ops::KernelArg(src)}, [&] {
                        ir::AttrMap m;
                        m.set("shape", ir::Value::tuple(dims));
                        return m;
                    }());
                if (r.isTensor()) {
                    src = r.tensor();
                }
            } catch (const ops::OpError&) {
            }
        }
        if (src.size() != 1 && src.size() != pos.size()) {
            throw PyError(Exc::ValueError, "could not broadcast input array from shape " + src.shape().toString() +
                                               " into shape " + pos.shape().toString());
        }
        for (std::size_t i = 0; i < pos.size(); ++i) {
            const auto dst = static_cast<std::size_t>(pos.getInt(i));
            const std::size_t s = src.size() == 1 ? 0 : i;
            if (ir::isFloat(t.dtype())) {
                t.setDouble(dst, src.getDouble(s));
            } else {
                t.setInt(dst, src.getInt(s));
            }
        }
        // A numpy view shares its array's memory: the array sees the write (a[0][1] = v).
        if (auto* self = asTensor(a.pos[0]); self && !self->viewParent.isNull()) {
            J.callMethod(self->viewParent, "__setitem__", CallArgs{self->viewKey, a.pos[0]});
        }
        return Value::none();
    });
    b.method("__iter__", [ms](Interpreter& J, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        if (t.rank() == 0) {
            throw PyError(Exc::TypeError, "iteration over a 0-d tensor");
        }
        std::vector<Value> items;
        const bool rowViews = isNumpy(*ms, a.pos[0]) && t.rank() > 1;
        for (std::int64_t i = 0; i < t.shape().dims[0]; ++i) {
            items.push_back(wrapLike(J, *ms, a.pos[0], indexTensor(J, t, Value::integer(i))));
            if (rowViews) {
                // numpy's rows are views of the array (`for row in a: row[0] = v`).
                asTensor(items.back())->viewParent = a.pos[0];
                asTensor(items.back())->viewKey = Value::integer(i);
            }
        }
        return J.iter(Value(J.newList(std::move(items))));
    });
    b.method("__str__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(runtime::formatNumpy(selfTensor(a)))); });
    b.method("__format__", [](Interpreter& J, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        const std::string& spec = interp::toStr(J, a.pos.at(1));
        if (!spec.empty() && t.size() == 1) {
            return Value(J.newStr(J.format(scalarOf(J, t, 0), spec)));
        }
        return Value(J.newStr(runtime::formatNumpy(t)));
    });
    b.property("shape", [](Interpreter& J, const Value& s) {
        const TensorObject* t = asTensor(s);
        return tupleOfDims(J, t->dynamicDims.empty() ? t->t.shape() : ir::Shape(t->dynamicDims));
    });
    if (numpy) {  // ndarray.real / .imag (attributes in numpy; methods on a MindSpore Tensor)
        for (const char* part : {"Real", "Imag"}) {
            b.property(part == std::string("Real") ? "real" : "imag", [ms, part](Interpreter& J, const Value& s) {
                return newArray(J, *ms, asTensor(runOpByName(J, *ms, part, {s}))->t);
            });
        }
        b.method("conj", [ms](Interpreter& J, CallArgs& a) { return newArray(J, *ms, asTensor(runOpByName(J, *ms, "Conj", {a.pos.at(0)}))->t); });
        b.method("conjugate", [ms](Interpreter& J, CallArgs& a) { return newArray(J, *ms, asTensor(runOpByName(J, *ms, "Conj", {a.pos.at(0)}))->t); });
    }
    b.property("ndim", [](Interpreter&, const Value& s) { return Value::integer(static_cast<std::int64_t>(asTensor(s)->t.rank())); });
    b.property("size", [](Interpreter&, const Value& s) { return Value::integer(static_cast<std::int64_t>(asTensor(s)->t.size())); });
    b.property("dtype", [ms, numpy](Interpreter&, const Value& s) {
        const int d = static_cast<int>(asTensor(s)->t.dtype());
        return numpy ? ms->npDtypes[d] : ms->msDtypes[d];
    });
    b.property("T", [ms](Interpreter& J, const Value& s) {
        const Tensor& t = asTensor(s)->t;
        std::vector<ir::ValuePtr> perm;
        for (std::size_t i = t.rank(); i-- > 0;) {
            perm.push_back(ir::Value::integer(static_cast<std::int64_t>(i)));
        }
        Value r = runOp(J, *ms, *ops::OpRegistry::instance().find("Transpose"), {},
                        {ops::KernelArg(t), ops::KernelArg(ir::Value::tuple(perm))});
        return wrapLike(J, *ms, s, asTensor(r)->t);
    });
    b.method("tolist", [](Interpreter& J, CallArgs& a) {
        std::size_t pos = 0;
        return toList(J, selfTensor(a), 0, pos);
    });
    b.method("item", [](Interpreter& J, CallArgs& a) -> Value {
        const Tensor& t = selfTensor(a);
        if (a.pos.size() > 1) {
            return scalarOf(J, t, static_cast<std::size_t>(a.pos[1].asInt()));
        }
        if (t.size() != 1) {
            throw PyError(Exc::ValueError, "can only convert an array of size 1 to a Python scalar");
        }
        return scalarOf(J, t, 0);
    });
    b.method("copy", [ms](Interpreter& J, CallArgs& a) { return wrapLike(J, *ms, a.pos.at(0), selfTensor(a).clone()); });
    b.method("asnumpy", [ms](Interpreter& J, CallArgs& a) { return newArray(J, *ms, selfTensor(a).clone()); });
}

void initTensorTypes(Interpreter& I, const MsPtr& ms) {
    // dtypes
    Ref<Type> msDtype = ClassBuilder(I, "Type", "mindspore.common.dtype")
                            .layout<DTypeObject>()
                            .subclassable(false)
                            .method("__repr__", [](Interpreter& J, CallArgs& a) {
                                return Value(J.newStr(std::string(ir::dtypeName(a.pos.at(0).as<DTypeObject>()->dtype))));
                            })
                            .method("__call__", [ms](Interpreter& J, CallArgs& a) {
                                // mstype.float32(3): a scalar of that type, as MindSpore's dtype call.
                                Tensor t = tensorFromData(J, *ms, a.pos.at(1), a.pos[0].as<DTypeObject>()->dtype, false);
                                return scalarOf(J, t, 0);
                            })
                            .build();
    ms->msDtype = msDtype.get();
    Ref<Type> npDtype = ClassBuilder(I, "dtype", "numpy")
                            .layout<DTypeObject>()
                            .construct([ms](Interpreter& J, Type*, CallArgs& a) {
                                // np.dtype("float32") / np.dtype(np.float32): the dtype object.
                                static const Signature sig = Signature("dtype").arg("dtype").varKw();
                                auto v = sig.bind(J, a);
                                return ms->npDtypes[static_cast<int>(*dtypeArg(J, *ms, v[0]))];
                            })
                            .method("__repr__", [](Interpreter& J, CallArgs& a) {
                                return Value(J.newStr("dtype('" + runtime::numpyDTypeName(a.pos.at(0).as<DTypeObject>()->dtype) + "')"));
                            })
                            .method("__str__", [](Interpreter& J, CallArgs& a) {
                                return Value(J.newStr(runtime::numpyDTypeName(a.pos.at(0).as<DTypeObject>()->dtype)));
                            })
                            .method("__eq__", [ms](Interpreter& J, CallArgs& a) -> Value {
                                auto* self = a.pos.at(0).as<DTypeObject>();
                                const Value& o = a.pos.at(1);
                                if (o.is<DTypeObject>() || o.is<interp::StrObject>() || o.is<Type>()) {
                                    try {
                                        return Value::boolean(dtypeArg(J, *ms, o) == self->dtype);
                                    } catch (const PyError&) {
                                        return Value::boolean(false);
                                    }
                                }
                                return J.notImplemented();
                            })
                            .method("__hash__", [](Interpreter&, CallArgs& a) {
                                return Value::integer(static_cast<std::int64_t>(a.pos.at(0).as<DTypeObject>()->dtype) + 1000);
                            })
                            .method("__call__", [ms](Interpreter& J, CallArgs& a) {
                                // np.float32(1.5): a 0-d array standing in for the numpy scalar.
                                return newArray(J, *ms, tensorFromData(J, *ms, a.pos.at(1), a.pos[0].as<DTypeObject>()->dtype, true));
                            })
                            .property("name", [](Interpreter& J, const Value& s) {
                                return Value(J.newStr(runtime::numpyDTypeName(s.as<DTypeObject>()->dtype)));
                            })
                            .property("itemsize", [](Interpreter&, const Value& s) {
                                return Value::integer(static_cast<std::int64_t>(ir::dtypeSize(s.as<DTypeObject>()->dtype)));
                            })
                            .build();
    ms->npDtype = npDtype.get();
    // np.float32, np.int64...: dtypes that print as numpy's scalar classes.
    Ref<Type> scalarType = ClassBuilder(I, "_ScalarType", "numpy", {npDtype})
                               .method("__repr__", [](Interpreter& J, CallArgs& a) {
                                   const ir::DType d = a.pos.at(0).as<DTypeObject>()->dtype;
                                   const std::string n = d == ir::DType::Bool ? "bool_" : runtime::numpyDTypeName(d);
                                   return Value(J.newStr("<class 'numpy." + n + "'>"));
                               })
                               .method("__str__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(J.repr(a.pos.at(0)))); })
                               .property("__name__", [](Interpreter& J, const Value& s) {
                                   const ir::DType d = s.as<DTypeObject>()->dtype;
                                   return Value(J.newStr(d == ir::DType::Bool ? "bool_" : runtime::numpyDTypeName(d)));
                               })
                               .build();
    for (int d = 0; d <= static_cast<int>(ir::DType::Complex128); ++d) {
        Ref<DTypeObject> m = I.make<DTypeObject>(ms->msDtype);
        m->dtype = static_cast<ir::DType>(d);
        ms->msDtypes[d] = Value(m);
        Ref<DTypeObject> n = I.make<DTypeObject>(ms->npDtype);
        n->dtype = static_cast<ir::DType>(d);
        ms->npDtypes[d] = Value(n);
        Ref<DTypeObject> sc = I.make<DTypeObject>(scalarType.get());
        sc->dtype = static_cast<ir::DType>(d);
        ms->npScalarTypes[d] = Value(sc);
    }

    // Tensor
    ClassBuilder tb(I, "Tensor", "mindspore.common.tensor");
    tb.layout<TensorObject>();
    tb.method("__init__", [ms](Interpreter& J, CallArgs& a) {
        static const Signature sig = Signature("Tensor")
                                         .arg("self")
                                         .arg("input_data", Value::none())
                                         .arg("dtype", Value::none())
                                         .arg("shape", Value::none())
                                         .arg("init", Value::none())
                                         .varKw("kwargs");
        auto v = sig.bind(J, a);
        auto* self = asTensor(v[0]);
        auto dt = dtypeArg(J, *ms, v[2]);
        if (v[1].isNone()) {
            if (v[3].isNone()) {
                throw PyError(Exc::TypeError, "For 'Tensor', 'input_data' and 'shape' can not be None at the same time.");
            }
            std::vector<std::int64_t> dims;
            bool dynamic = false;
            if (v[3].isIntLike()) {
                dims.push_back(v[3].intLike());
            } else {
                for (const Value& d : J.toVector(v[3])) {
                    // None (or -1): a dimension known only when the network is called.
                    dims.push_back(d.isNone() ? -1 : J.toIndex(d));
                    dynamic = dynamic || dims.back() == -1;
                }
            }
            if (dynamic) {
                // A placeholder holds no data: its unknown dimensions are 0 in storage.
                self->dynamicDims = dims;
                for (auto& d : dims) {
                    d = std::max<std::int64_t>(d, 0);
                }
            }
            self->t = Tensor(dt.value_or(ir::DType::Float32), ir::Shape{std::move(dims)});
            return Value::none();
        }
        self->t = tensorFromData(J, *ms, v[1], dt, false);
        return Value::none();
    });
    addCommonTensorMethods(I, ms, tb, false);
    tb.method("__repr__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(runtime::formatTensorRepr(selfTensor(a)))); });
    tb.method("__hash__", [](Interpreter&, CallArgs& a) {
        return Value::integer(static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(a.pos.at(0).obj()) >> 4));
    });
    tb.method("numpy", [ms](Interpreter& J, CallArgs& a) { return newArray(J, *ms, selfTensor(a).clone()); });
    tb.method("dim", [](Interpreter&, CallArgs& a) { return Value::integer(static_cast<std::int64_t>(selfTensor(a).rank())); });
    tb.method("numel", [](Interpreter&, CallArgs& a) { return Value::integer(static_cast<std::int64_t>(selfTensor(a).size())); });
    tb.method("set_dtype", [ms](Interpreter& J, CallArgs& a) {
        auto* t = asTensor(a.pos.at(0));
        t->t = t->t.cast(*dtypeArg(J, *ms, a.pos.at(1)));
        return a.pos[0];
    });
    tb.method("assign_value", [](Interpreter&, CallArgs& a) {
        auto* t = asTensor(a.pos.at(0));
        auto* s = asTensor(a.pos.at(1));
        if (!s) {
            throw PyError(Exc::TypeError, "assign_value expects a Tensor");
        }
        t->t = s->t.clone();
        return a.pos[0];
    });
    // Every Method spelling of the registry ("Tensor.sum", "Tensor.astype", ...).
    for (const auto& op : ops::OpRegistry::instance().ops()) {
        for (const ops::Spelling& sp : op->spellings) {
            if (sp.kind != ops::SpellingKind::Method || sp.text.rfind("Tensor.", 0) != 0) {
                continue;
            }
            const ops::OpDef* opp = op.get();
            const ops::Spelling* spp = &sp;
            tb.method(sp.text.substr(7), [ms, opp, spp](Interpreter& J, CallArgs& a) {
                return callSpelling(J, *ms, *opp, *spp, a);
            });
        }
    }
    // x.transpose() with no axes reverses them (MindSpore and numpy).
    tb.method("transpose", [ms](Interpreter& J, CallArgs& a) -> Value {
        if (a.pos.size() == 1 && a.kw.empty()) {
            return J.getAttr(a.pos[0], "T");
        }
        auto sp = ops::OpRegistry::instance().findSpelling("Tensor.transpose");
        return callSpelling(J, *ms, *sp->op, *sp->spelling, a);
    });
    Ref<Type> tensor = tb.build();
    ms->tensor = tensor.get();

    // Parameter
    Ref<Type> param =
        ClassBuilder(I, "Parameter", "mindspore.common.parameter", {tensor})
            .method("__init__",
                    [ms](Interpreter& J, CallArgs& a) {
                        static const Signature sig = Signature("Parameter")
                                                         .arg("self")
                                                         .arg("default_input")
                                                         .arg("name", Value::none())
                                                         .arg("requires_grad", Value::boolean(true))
                                                         .arg("layerwise_parallel", Value::boolean(false))
                                                         .arg("parallel_optimizer", Value::boolean(true))
                                                         .varKw("kwargs");
                        auto v = sig.bind(J, a);
                        auto* self = asTensor(v[0]);
                        if (v[1].isNumber()) {
                            self->t = tensorFromData(J, *ms, v[1], std::nullopt, false);
                        } else if (auto* src = asTensor(v[1])) {
                            self->t = src->t.clone();
                        } else {
                            self->t = tensorFromData(J, *ms, v[1], std::nullopt, false);
                        }
                        self->name = v[2].isNone() ? std::string() : interp::toStr(J, v[2], "name");
                        self->requiresGrad = J.truthy(v[3]);
                        return Value::none();
                    })
            .method("__repr__",
                    [](Interpreter& J, CallArgs& a) {
                        auto* t = asTensor(a.pos.at(0));
                        return Value(J.newStr("Parameter (name=" + (t->name.empty() ? std::string("Parameter") : t->name) +
                                              ", shape=" + J.repr(tupleOfDims(J, t->t.shape())) + ", dtype=" +
                                              std::string(ir::dtypeName(t->t.dtype())) +
                                              ", requires_grad=" + (t->requiresGrad ? "True" : "False") + ")"));
                    })
            .method("__str__", [](Interpreter& J, CallArgs& a) { return Value(J.newStr(J.repr(a.pos.at(0)))); })
            .method("set_data",
                    [](Interpreter&, CallArgs& a) {
                        auto* t = asTensor(a.pos.at(0));
                        auto* s = asTensor(a.pos.at(1));
                        if (!s) {
                            throw PyError(Exc::TypeError, "For 'Parameter.set_data', the 'data' must be a Tensor.");
                        }
                        t->t = s->t.clone();
                        return a.pos[0];
                    })
            .property(
                "name",
                [](Interpreter& J, const Value& s) {
                    auto* t = asTensor(s);
                    return Value(J.newStr(t->name.empty() ? std::string("Parameter") : t->name));
                },
                [](Interpreter& J, const Value& s, const Value& v) { asTensor(s)->name = interp::toStr(J, v, "name"); })
            .property(
                "requires_grad", [](Interpreter&, const Value& s) { return Value::boolean(asTensor(s)->requiresGrad); },
                [](Interpreter& J, const Value& s, const Value& v) { asTensor(s)->requiresGrad = J.truthy(v); })
            .property("data", [](Interpreter&, const Value& s) { return s; })
            // value(): the Parameter's current value as a plain Tensor (a copy, like a Load).
            .method("value", [ms](Interpreter& J, CallArgs& a) { return newTensor(J, *ms, selfTensor(a).clone()); })
            .build();
    ms->parameter = param.get();
    ms->keep = {Value(msDtype), Value(npDtype), Value(scalarType), Value(tensor), Value(param)};
    I.typesChanged();
}

}  // namespace irscope::modules
