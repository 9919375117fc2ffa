#include "ops/infer_util.h"

#include <algorithm>

namespace irscope::ops {

// ---- signature and spelling builders -------------------------------------------------------

ArgSpec argIn(std::string name, ArgKind kind) {
    return ArgSpec{std::move(name), kind, nullptr};
}

ArgSpec argDefault(std::string name, ArgKind kind, ValuePtr defaultValue) {
    return ArgSpec{std::move(name), kind, std::move(defaultValue)};
}

ArgSpec argMonad(std::string name) {
    ArgSpec a{std::move(name), ArgKind::Monad, nullptr};
    a.optional = true;
    return a;
}

ArgSpec argVariadic(std::string name, ArgKind kind) {
    ArgSpec a{std::move(name), kind, nullptr};
    a.variadic = true;
    return a;
}

void addClassSpellings(OpDef& def) {
    for (std::string_view prefix : {"ops.", "P."}) {
        Spelling s;
        s.kind = SpellingKind::Class;
        s.text = std::string(prefix) + def.name;
        def.spellings.push_back(std::move(s));
    }
}

void addClassAlias(OpDef& def, std::string_view alias) {
    for (std::string_view prefix : {"ops.", "P."}) {
        Spelling s;
        s.kind = SpellingKind::Class;
        s.text = std::string(prefix) + std::string(alias);
        def.spellings.push_back(std::move(s));
    }
}

void addFunction(OpDef& def, std::initializer_list<std::string_view> prefixes,
                 std::string_view name, std::vector<ParamMap> params, int outputIndex) {
    for (std::string_view prefix : prefixes) {
        Spelling s;
        s.kind = SpellingKind::Function;
        s.text = std::string(prefix) + "." + std::string(name);
        s.params = params;
        s.outputIndex = outputIndex;
        def.spellings.push_back(std::move(s));
    }
}

void addMethod(OpDef& def, std::string_view name, std::vector<ParamMap> params) {
    Spelling s;
    s.kind = SpellingKind::Method;
    s.text = "Tensor." + std::string(name);
    s.params = std::move(params);
    def.spellings.push_back(std::move(s));
}

void addOperator(OpDef& def, std::string_view op) {
    Spelling s;
    s.kind = SpellingKind::Operator;
    s.text = std::string(op);
    def.spellings.push_back(std::move(s));
}

ParamMap toInput(std::string name, int index, ValuePtr defaultValue) {
    ParamMap p;
    p.name = std::move(name);
    p.to = ParamMap::To::Input;
    p.input = index;
    p.defaultValue = std::move(defaultValue);
    return p;
}

ParamMap toAttr(std::string name, std::string attr, ValuePtr defaultValue) {
    ParamMap p;
    p.name = std::move(name);
    p.to = ParamMap::To::Attr;
    p.attr = std::move(attr);
    p.defaultValue = std::move(defaultValue);
    return p;
}

ParamMap pythonOnly(std::string name) {
    ParamMap p;
    p.name = std::move(name);
    p.to = ParamMap::To::PythonOnly;
    p.defaultValue = ir::Value::none();
    return p;
}

ParamMap ignored(std::string name, ValuePtr defaultValue) {
    ParamMap p;
    p.name = std::move(name);
    p.to = ParamMap::To::Ignore;
    p.defaultValue = std::move(defaultValue);
    return p;
}

// ---- values -----------------------------------------------------------------------------------

ValuePtr vInt(std::int64_t v) {
    return ir::Value::integer(v);
}
ValuePtr vFloat(double v) {
    return ir::Value::floating(v);
}
ValuePtr vBool(bool v) {
    return ir::Value::boolean(v);
}
ValuePtr vNone() {
    return ir::Value::none();
}

ValuePtr vInts(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> elems;
    elems.reserve(v.size());
    for (auto x : v) {
        elems.push_back(vInt(x));
    }
    return ir::Value::tuple(std::move(elems));
}

ValuePtr vInts(std::initializer_list<std::int64_t> v) {
    return vInts(std::vector<std::int64_t>(v));
}

AbstractPtr abstractOfValue(const ValuePtr& v) {
    using K = ir::Value::Kind;
    if (!v) {
        return nullptr;
    }
    switch (v->kind) {
        case K::None:
            return ir::Abstract::noneAbs();
        case K::Bool:
            return ir::Abstract::scalar(DType::Bool);
        case K::Int:
        case K::Float:
            return ir::Abstract::scalar(v->dtype);
        case K::String:
            return ir::Abstract::scalar(DType::String);
        case K::Tensor:
            return ir::Abstract::tensor(v->tensor->dtype, v->tensor->shape, v->tensor->hasData());
        case K::Tuple:
        case K::List: {
            std::vector<AbstractPtr> elems;
            for (const auto& e : v->elements) {
                elems.push_back(abstractOfValue(e));
            }
            return v->kind == K::Tuple ? ir::Abstract::tuple(std::move(elems))
                                       : ir::Abstract::list(std::move(elems));
        }
        case K::Type:
            return ir::Abstract::typeAbs();
        case K::Primitive:
        case K::Graph:
            return ir::Abstract::func();
        case K::Monad:
            return ir::Abstract::monadAbs(v->monad);
        case K::Opaque:
            return ir::Abstract::opaque(v->text);
        case K::Slice:
            return ir::Abstract::opaque("Slice");
        case K::Host:
            return ir::Abstract::opaque(v->host ? v->host->text() : "NameSpace");
    }
    return nullptr;
}

std::optional<std::int64_t> intOf(const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    switch (v->kind) {
        case ir::Value::Kind::Int:
            return v->i;
        case ir::Value::Kind::Bool:
            return v->b ? 1 : 0;
        case ir::Value::Kind::Tensor:
            if (v->tensor->hasData() && v->tensor->shape.elementCount() == 1 &&
                !ir::isFloat(v->tensor->dtype)) {
                return v->tensor->elementAsInt(0);
            }
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

std::optional<double> numberOf(const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    switch (v->kind) {
        case ir::Value::Kind::Int:
            return static_cast<double>(v->i);
        case ir::Value::Kind::Float:
            return v->f;
        case ir::Value::Kind::Bool:
            return v->b ? 1.0 : 0.0;
        case ir::Value::Kind::Tensor:
            if (v->tensor->hasData() && v->tensor->shape.elementCount() == 1) {
                return v->tensor->elementAsDouble(0);
            }
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

std::optional<bool> boolOf(const ValuePtr& v) {
    if (v && v->kind == ir::Value::Kind::Bool) {
        return v->b;
    }
    if (auto i = intOf(v)) {
        return *i != 0;
    }
    return std::nullopt;
}

std::optional<DType> dtypeOf(const ValuePtr& v) {
    if (v && v->kind == ir::Value::Kind::Type) {
        return v->dtype;
    }
    return std::nullopt;
}

std::optional<std::vector<std::int64_t>> intsOf(const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    if (v->kind == ir::Value::Kind::Tuple || v->kind == ir::Value::Kind::List) {
        std::vector<std::int64_t> out;
        for (const auto& e : v->elements) {
            if (!e || (e->kind != ir::Value::Kind::Int && e->kind != ir::Value::Kind::Bool)) {
                return std::nullopt;
            }
            out.push_back(*intOf(e));
        }
        return out;
    }
    if (v->kind == ir::Value::Kind::Tensor) {
        const auto& t = *v->tensor;
        if (!t.hasData() || ir::isFloat(t.dtype) || t.shape.rank() > 1) {
            return std::nullopt;
        }
        std::vector<std::int64_t> out;
        for (std::int64_t i = 0; i < t.shape.elementCount(); ++i) {
            out.push_back(t.elementAsInt(static_cast<std::size_t>(i)));
        }
        return out;
    }
    if (auto i = intOf(v)) {
        return std::vector<std::int64_t>{*i};
    }
    return std::nullopt;
}

bool isNoneValue(const ValuePtr& v) {
    return v && v->kind == ir::Value::Kind::None;
}

AbstractPtr withValueKnown(const AbstractPtr& a) {
    if (a && a->kind == ir::Abstract::Kind::Tensor && !a->valueKnown) {
        return ir::Abstract::tensor(a->dtype, a->shape, true);
    }
    return a;
}

// ---- abstracts -----------------------------------------------------------------------------

bool isTensorAbs(const AbstractPtr& a) {
    return a && (a->kind == ir::Abstract::Kind::Tensor || a->kind == ir::Abstract::Kind::Ref);
}

AbstractPtr tensorInput(const InferContext& c, std::size_t i, std::string_view argName) {
    const AbstractPtr a = c.abs(i);
    if (!isTensorAbs(a)) {
        typeError(c.name(), "the input '" + std::string(argName) + "' must be a Tensor, but got " +
                                typeStr(a) + ".");
    }
    return a;
}

const std::vector<AbstractPtr>& sequenceInput(const InferContext& c) {
    const AbstractPtr in = c.abs(0);  // the argument keeps the elements alive
    if (!in || (in->kind != ir::Abstract::Kind::Tuple && in->kind != ir::Abstract::Kind::List)) {
        typeError(c.name(),
                  "the input 'x' must be a tuple or list of Tensors, but got " + typeStr(in) + ".");
    }
    if (in->elements.empty()) {
        valueError(c.name(), "the input 'x' must not be empty.");
    }
    return in->elements;
}

bool isNumberScalar(DType t) {
    return t != DType::String;
}

bool isScalarAbs(const AbstractPtr& a) {
    return a && a->kind == ir::Abstract::Kind::Scalar && isNumberScalar(a->dtype);
}

std::string typeStr(DType t) {
    return std::string(ir::dtypeName(t));
}

std::string typeStr(const AbstractPtr& a) {
    return a ? ir::typeName(*a, /*elements=*/false) : "None";
}

// ---- messages -------------------------------------------------------------------------------

std::string listStr(std::span<const std::int64_t> v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(v[i]);
    }
    return s + "]";
}

std::string shapeStr(const Shape& s) {
    if (s.dynamicRank) {
        return "[-2]";
    }
    return listStr(s.dims);
}

void fail(ErrorKind kind, const std::string& message) {
    throw OpError(kind, message);
}

void typeError(std::string_view op, const std::string& rest) {
    fail(ErrorKind::TypeError, "For '" + std::string(op) + "', " + rest);
}

void valueError(std::string_view op, const std::string& rest) {
    fail(ErrorKind::ValueError, "For '" + std::string(op) + "', " + rest);
}

// ---- implicit type conversion ----------------------------------------------------------

namespace {

// The priority order of the conversion rules; types outside it rank next to their kin.
int typeRank(DType t) {
    switch (t) {
        case DType::Bool:
            return 0;
        case DType::UInt8:
            return 1;
        case DType::Int8:
            return 2;
        case DType::Int16:
            return 3;
        case DType::UInt16:
            return 4;
        case DType::Int32:
            return 5;
        case DType::UInt32:
            return 6;
        case DType::Int64:
            return 7;
        case DType::UInt64:
            return 8;
        case DType::BFloat16:
            return 9;
        case DType::Float16:
            return 10;
        case DType::Float32:
            return 11;
        case DType::Float64:
            return 12;
        case DType::Complex64:
            return 13;
        case DType::Complex128:
            return 14;
        case DType::String:
            return -1;
    }
    return -1;
}

}  // namespace

DType promoteTensorTypes(DType a, DType b) {
    if (a == b) {
        return a;
    }
    if (ir::isComplex(a) || ir::isComplex(b)) {  // Complex64 with Float64 is Complex128
        const DType part = promoteTensorTypes(ir::complexPartType(a), ir::complexPartType(b));
        return part == DType::Float64 ? DType::Complex128 : DType::Complex64;
    }
    if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8)) {
        return DType::Int16;
    }
    if ((a == DType::BFloat16 && b == DType::Float16) ||
        (a == DType::Float16 && b == DType::BFloat16)) {
        return DType::Float32;
    }
    return typeRank(a) >= typeRank(b) ? a : b;
}

DType promoteTensorScalar(DType tensor, DType scalar) {
    const bool scalarFloat = ir::isFloat(scalar);
    const bool scalarInt = ir::isInteger(scalar);
    if (tensor == DType::Bool) {
        if (scalarFloat) {
            return DType::Float32;
        }
        if (scalarInt) {
            return DType::Int32;
        }
        return DType::Bool;
    }
    if (ir::isInteger(tensor) && scalarFloat) {
        return DType::Float32;
    }
    return tensor;
}

DType promoteScalars(DType a, DType b) {
    if (ir::isFloat(a) || ir::isFloat(b)) {
        return ir::isFloat(a) && ir::isFloat(b) ? promoteTensorTypes(a, b)
                                                : (ir::isFloat(a) ? a : b);
    }
    if (a == DType::Bool && b == DType::Bool) {
        return DType::Bool;
    }
    if (a == DType::Bool) {
        return b;
    }
    if (b == DType::Bool) {
        return a;
    }
    return promoteTensorTypes(a, b);
}

Operand operandOf(std::string_view op, std::string_view argName, const AbstractPtr& a) {
    if (isTensorAbs(a)) {
        return Operand{true, a->dtype, a->shape};
    }
    if (isScalarAbs(a)) {
        return Operand{false, a->dtype, Shape{}};
    }
    typeError(op, "the input '" + std::string(argName) +
                      "' must be a Tensor, a number or a bool, but got " + typeStr(a) + ".");
}

DType promoteOperands(std::span<const Operand> ops) {
    std::optional<DType> tensorType;
    std::optional<DType> scalarType;
    for (const auto& o : ops) {
        if (o.tensor) {
            tensorType = tensorType ? promoteTensorTypes(*tensorType, o.dtype) : o.dtype;
        } else {
            scalarType = scalarType ? promoteScalars(*scalarType, o.dtype) : o.dtype;
        }
    }
    if (tensorType && scalarType) {
        return promoteTensorScalar(*tensorType, *scalarType);
    }
    return tensorType ? *tensorType : scalarType.value_or(DType::Float32);
}

// ---- shapes -------------------------------------------------------------------------------------

Shape dynamicRankShape() {
    Shape s;
    s.dynamicRank = true;
    return s;
}

Shape unknownShape(std::size_t rank) {
    return Shape(std::vector<std::int64_t>(rank, -1));
}

std::int64_t product(std::span<const std::int64_t> dims) {
    std::int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

Shape broadcastShapes(std::string_view op, const Shape& x, const Shape& y, std::string_view xName,
                      std::string_view yName) {
    if (x.dynamicRank || y.dynamicRank) {
        return dynamicRankShape();
    }
    const std::size_t rank = std::max(x.rank(), y.rank());
    std::vector<std::int64_t> out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t a = i < rank - x.rank() ? 1 : x.dims[i - (rank - x.rank())];
        const std::int64_t b = i < rank - y.rank() ? 1 : y.dims[i - (rank - y.rank())];
        if (a == b) {
            out[i] = a;
        } else if (a == 1) {
            out[i] = b;
        } else if (b == 1) {
            out[i] = a;
        } else if (a == -1 || b == -1) {
            out[i] = a == -1 ? b : a;  // the unknown dim must equal the known one
        } else {
            valueError(op, std::string(xName) + ".shape and " + std::string(yName) +
                               ".shape need to broadcast, but got " + std::string(xName) +
                               ".shape: " + shapeStr(x) + ", " + std::string(yName) +
                               ".shape: " + shapeStr(y) + ".");
        }
    }
    return Shape(std::move(out));
}

bool broadcastsTo(const Shape& from, const Shape& to) {
    if (from.dynamicRank || to.dynamicRank || from.rank() > to.rank()) {
        return false;
    }
    const std::size_t off = to.rank() - from.rank();
    for (std::size_t i = 0; i < from.rank(); ++i) {
        const auto a = from.dims[i];
        const auto b = to.dims[i + off];
        if (a != b && a != 1 && a != -1 && b != -1) {
            return false;
        }
    }
    return true;
}

std::int64_t normalizeAxis(std::string_view op, std::string_view argName, std::int64_t axis,
                           std::int64_t rank, std::int64_t extra) {
    const std::int64_t n = rank + extra;
    if (axis < -n || axis >= n || n == 0) {
        valueError(op, "the '" + std::string(argName) + "' must be in range [" +
                           std::to_string(-n) + ", " + std::to_string(n) + "), but got " +
                           std::to_string(axis) + ".");
    }
    return axis < 0 ? axis + n : axis;
}

std::vector<std::int64_t> normalizeAxes(std::string_view op, std::string_view argName,
                                        std::span<const std::int64_t> axes, std::int64_t rank) {
    std::vector<std::int64_t> out;
    for (auto a : axes) {
        out.push_back(normalizeAxis(op, argName, a, rank));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::int64_t> axisAttr(std::string_view op, const ValuePtr& v, std::size_t rank) {
    std::vector<std::int64_t> axes;
    if (const auto one = v ? intOf(v) : std::nullopt;
        one && v->kind != ir::Value::Kind::Tuple && v->kind != ir::Value::Kind::List) {
        axes = {*one};
    } else if (const auto list = v ? intsOf(v) : std::nullopt) {
        axes = *list;
    } else {
        typeError(op, "the 'axis' must be an int or a tuple/list of ints.");
    }
    return normalizeAxes(op, "axis", axes,
                         static_cast<std::int64_t>(std::max<std::size_t>(rank, 1)));
}

}  // namespace irscope::ops
