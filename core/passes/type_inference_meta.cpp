// Meta operations on numbers, tuples, strings and tensors' operators: Python semantics for
// constants (folded through the registry's Scalar* kernels), the registry's Operator
// spellings for tensors (the same path PyNative's `+` takes, so promotion and broadcasting
// are the registry's), and the builtins that only make sense on constants.
#include "passes/type_inference_meta.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ops/infer_util.h"
#include "passes/meta_ops.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::CNode;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

ValuePtr valueOf(const Arg& a) {
    if (auto* v = ir::nodeCast<ir::ValueNode>(a.node)) {
        return v->value();
    }
    return a.abs ? a.abs->value : nullptr;
}

bool isTensor(const Arg& a) {
    return ops::isTensorAbs(a.abs);
}

bool isNumber(const Arg& a) {
    return a.abs && a.abs->kind == Abstract::Kind::Scalar && ops::isNumberScalar(a.abs->dtype);
}

bool isSeq(const Arg& a) {
    return a.abs && (a.abs->kind == Abstract::Kind::Tuple || a.abs->kind == Abstract::Kind::List);
}

PyKind pyKindOf(const Arg& a) {
    if (a.fn || !a.abs) {
        return PyKind::Other;
    }
    if (isTensor(a)) {
        return PyKind::Tensor;
    }
    switch (a.abs->kind) {
        case Abstract::Kind::Tuple: return PyKind::Tuple;
        case Abstract::Kind::List: return PyKind::List;
        case Abstract::Kind::None: return PyKind::None;
        case Abstract::Kind::Scalar: break;
        default: return PyKind::Other;
    }
    const ir::DType d = a.abs->dtype;
    return d == ir::DType::Bool     ? PyKind::Bool
           : ir::isInteger(d)       ? PyKind::Int
           : ir::isFloat(d)         ? PyKind::Float
           : d == ir::DType::String ? PyKind::Str
                                    : PyKind::Other;
}

std::string typeName(const Arg& a) {
    if (a.fn) {
        return "Function";
    }
    if (a.abs && a.abs->kind == Abstract::Kind::Tuple) {
        return "Tuple";
    }
    if (a.abs && a.abs->kind == Abstract::Kind::List) {
        return "List";
    }
    return describe(a.abs);
}

namespace {

const std::map<std::string_view, std::pair<const char*, const char*>>& binaryTable() {
    static const std::map<std::string_view, std::pair<const char*, const char*>> t = {
        {meta::kAdd, {"+", "ScalarAdd"}},
        {meta::kSub, {"-", "ScalarSub"}},
        {meta::kMul, {"*", "ScalarMul"}},
        {meta::kDiv, {"/", "ScalarDiv"}},
        {meta::kFloorDiv, {"//", "ScalarFloorDiv"}},
        {meta::kMod, {"%", "ScalarMod"}},
        {meta::kPow, {"**", "ScalarPow"}},
        {meta::kMatMul, {"@", ""}},
        {meta::kBitAnd, {"&", ""}},
        {meta::kBitOr, {"|", ""}},
        {meta::kBitXor, {"^", ""}},
        {meta::kEqual, {"==", "ScalarEq"}},
        {meta::kNotEqual, {"!=", "ScalarNe"}},
        {meta::kLess, {"<", "ScalarLt"}},
        {meta::kLessEqual, {"<=", "ScalarLe"}},
        {meta::kGreater, {">", "ScalarGt"}},
        {meta::kGreaterEqual, {">=", "ScalarGe"}},
    };
    return t;
}

}  // namespace

[[noreturn]] void unsupportedTypes(Engine& e, const CNode* c, std::string_view op,
                                   const std::vector<Arg>& args, std::size_t bad) {
    std::string types;
    for (std::size_t i = 0; i < args.size(); ++i) {
        types += (i ? ", " : "") + typeName(args[i]);
    }
    e.error(c, "TypeError",
            "For operation '" + std::string(op) + "', current input arguments types are <" + types +
                ">. The " + std::to_string(bad + 1) + "-th argument type '" + typeName(args[bad]) +
                "' is not supported now.");
}

Arg foldTo(Engine& e, CNode* c, ValuePtr v) {
    return e.replace(c, e.emitConst(c, std::move(v)));
}

Arg callPrim(Engine& e, CNode* c, const std::string& name, const std::vector<Arg>& args,
             const ir::AttrMap& attrs) {
    std::vector<ir::Node*> ins;
    for (const Arg& a : args) {
        ins.push_back(a.node);
    }
    return e.replace(c, e.emitPrim(c, name, ins, attrs));
}

namespace {

// Python's == on constants: numbers by value (1 == 1.0 == True), others structurally.
bool constEquals(const ValuePtr& a, const ValuePtr& b) {
    const auto na = ops::numberOf(a);
    const auto nb = ops::numberOf(b);
    if (na && nb && a->kind != Value::Kind::Tensor && b->kind != Value::Kind::Tensor) {
        return *na == *nb;
    }
    if ((a->kind == Value::Kind::Tuple || a->kind == Value::Kind::List) && a->kind == b->kind) {
        if (a->elements.size() != b->elements.size()) {
            return false;
        }
        for (std::size_t i = 0; i < a->elements.size(); ++i) {
            if (!constEquals(a->elements[i], b->elements[i])) {
                return false;
            }
        }
        return true;
    }
    return a->equals(*b);
}

std::optional<bool> truthOf(const Arg& a) {
    const ValuePtr v = valueOf(a);
    if (a.fn || a.abs->kind == Abstract::Kind::Func || a.abs->kind == Abstract::Kind::Type) {
        return true;  // functions, cells and dtypes are truthy, as in Python
    }
    if (a.abs->kind == Abstract::Kind::None) {
        return false;
    }
    if (isSeq(a)) {
        return !a.abs->elements.empty();
    }
    if (!v || a.abs->kind == Abstract::Kind::Tensor) {
        return std::nullopt;
    }
    if (v->kind == Value::Kind::String) {
        return !v->text.empty();
    }
    if (auto n = ops::numberOf(v)) {
        return *n != 0;
    }
    return std::nullopt;
}

Arg concat(Engine& e, CNode* c, const Arg& a, const Arg& b) {
    const bool list = a.abs->kind == Abstract::Kind::List;
    const ValuePtr va = valueOf(a);
    const ValuePtr vb = valueOf(b);
    if (va && vb) {
        std::vector<ValuePtr> all = va->elements;
        all.insert(all.end(), vb->elements.begin(), vb->elements.end());
        return foldTo(e, c, list ? Value::list(all) : Value::tuple(all));
    }
    std::vector<Arg> elems = e.elementsOf(c, a);
    std::vector<Arg> more = e.elementsOf(c, b);
    elems.insert(elems.end(), more.begin(), more.end());
    return e.replace(c, e.makeTuple(c, elems, list));
}

Arg binary(Engine& e, CNode* c, std::string_view name, const std::vector<Arg>& args) {
    if (args.size() != 2) {
        e.error(c, "TypeError", "'" + std::string(name) + "' takes 2 arguments.");
    }
    const Arg& a = args[0];
    const Arg& b = args[1];
    const auto& [opText, scalarOp] = binaryTable().at(name);
    const bool compare = name == meta::kEqual || name == meta::kNotEqual;
    if ((isTensor(a) && (isTensor(b) || isNumber(b))) || (isTensor(b) && isNumber(a))) {
        const auto sp = ops::OpRegistry::instance().findSpelling(opText);
        if (std::string_view(opText).empty() || !sp) {
            unsupportedTypes(e, c, name, args, 0);
        }
        return callPrim(e, c, sp->op->name, args);
    }
    if (isNumber(a) && isNumber(b)) {
        if (*scalarOp) {
            return callPrim(e, c, scalarOp, args);
        }
        const auto x = ops::intOf(valueOf(a));
        const auto y = ops::intOf(valueOf(b));
        if (x && y && a.abs->dtype != ir::DType::Float32 && b.abs->dtype != ir::DType::Float32) {
            const std::int64_t r = name == meta::kBitAnd  ? (*x & *y)
                                   : name == meta::kBitOr ? (*x | *y)
                                                          : (*x ^ *y);
            const bool bothBool =
                a.abs->dtype == ir::DType::Bool && b.abs->dtype == ir::DType::Bool;
            return foldTo(e, c, bothBool ? Value::boolean(r != 0) : Value::integer(r));
        }
        unsupportedTypes(e, c, name, args, 0);
    }
    const ValuePtr va = valueOf(a);
    const ValuePtr vb = valueOf(b);
    if (compare) {
        bool eq = false;
        if (va && vb && !isTensor(a) && !isTensor(b)) {
            eq = constEquals(va, vb);
        } else if ((a.abs->kind == Abstract::Kind::None) != (b.abs->kind == Abstract::Kind::None)) {
            eq = false;
        } else if (a.abs->kind == Abstract::Kind::None) {
            eq = true;
        } else {
            unsupportedTypes(e, c, name, args, va ? 1 : 0);
        }
        return foldTo(e, c, Value::boolean(name == meta::kEqual ? eq : !eq));
    }
    if (name == meta::kAdd && isSeq(a) && isSeq(b) && a.abs->kind == b.abs->kind) {
        return concat(e, c, a, b);
    }
    if (name == meta::kAdd && va && vb && va->kind == Value::Kind::String &&
        vb->kind == Value::Kind::String) {
        return foldTo(e, c, Value::string(va->text + vb->text));
    }
    if (name == meta::kMul && ((isSeq(a) && isNumber(b)) || (isNumber(a) && isSeq(b)))) {
        const Arg& seq = isSeq(a) ? a : b;
        const auto times = ops::intOf(valueOf(isSeq(a) ? b : a));
        if (!times) {
            unsupportedTypes(e, c, name, args, isSeq(a) ? 1 : 0);
        }
        std::vector<Arg> one = e.elementsOf(c, seq);
        std::vector<Arg> all;
        for (std::int64_t k = 0; k < *times; ++k) {
            all.insert(all.end(), one.begin(), one.end());
        }
        return e.replace(c, e.makeTuple(c, all, seq.abs->kind == Abstract::Kind::List));
    }
    if (name == meta::kMul && va && vb && va->kind == Value::Kind::String && ops::intOf(vb)) {
        std::string s;
        for (std::int64_t k = 0; k < *ops::intOf(vb); ++k) {
            s += va->text;
        }
        return foldTo(e, c, Value::string(s));
    }
    if (va && vb && va->kind == Value::Kind::String && vb->kind == Value::Kind::String) {
        const int cmp = va->text.compare(vb->text);
        const bool r = name == meta::kLess           ? cmp < 0
                       : name == meta::kLessEqual    ? cmp <= 0
                       : name == meta::kGreater      ? cmp > 0
                       : name == meta::kGreaterEqual ? cmp >= 0
                                                     : false;
        if (name == meta::kLess || name == meta::kLessEqual || name == meta::kGreater ||
            name == meta::kGreaterEqual) {
            return foldTo(e, c, Value::boolean(r));
        }
    }
    unsupportedTypes(e, c, name, args, isTensor(a) || isNumber(a) ? 1 : 0);
}

}  // namespace

// The truth value of an if/while condition: a constant folds; a Bool scalar stays; a tensor
// of one element is kept as the condition (Switch takes it as is).
Arg truthValue(Engine& e, CNode* c, const Arg& a) {
    if (isTensor(a)) {
        const ir::Shape& s = a.abs->shape;
        if (s.isStatic() && s.elementCount() != 1) {
            e.error(c, "ValueError",
                    "Only tensor which shape is () or (1,) can be converted to bool, but got "
                    "tensor shape is " +
                        s.toString() + ".");
        }
        return e.replace(c, a);
    }
    if (auto t = truthOf(a)) {
        return foldTo(e, c, Value::boolean(*t));
    }
    if (isNumber(a)) {
        if (a.abs->dtype == ir::DType::Bool) {
            return e.replace(c, a);
        }
        return callPrim(e, c, "ScalarNe", {a, e.emitConst(c, Value::integer(0))});
    }
    e.error(c, "TypeError", "The truth value of '" + typeName(a) + "' is not supported here.");
}

namespace {

Arg unary(Engine& e, CNode* c, std::string_view name, const Arg& a) {
    if (name == meta::kPositive && (isTensor(a) || isNumber(a))) {
        return e.replace(c, a);
    }
    if (name == meta::kNegative) {
        if (isTensor(a)) {
            return callPrim(e, c, "Neg", {a});
        }
        if (isNumber(a)) {
            return callPrim(e, c, "ScalarUsub", {a});
        }
    }
    if (name == meta::kLogicalNot) {
        if (isTensor(a)) {
            Arg x = a;
            if (a.abs->dtype != ir::DType::Bool) {
                x = e.emitPrim(c, "Cast",
                               {a.node, e.emitConst(c, Value::type(ir::DType::Bool)).node});
            }
            return callPrim(e, c, "LogicalNot", {x});
        }
        if (auto t = truthOf(a)) {
            return foldTo(e, c, Value::boolean(!*t));
        }
        if (isNumber(a)) {
            Arg b =
                a.abs->dtype == ir::DType::Bool
                    ? a
                    : e.emitPrim(c, "ScalarNe", {a.node, e.emitConst(c, Value::integer(0)).node});
            return callPrim(e, c, "BoolNot", {b});
        }
    }
    if (name == meta::kInvert) {
        if (isTensor(a)) {
            return callPrim(e, c, "LogicalNot", {a});
        }
        if (auto i = ops::intOf(valueOf(a));
            i && isNumber(a) && a.abs->dtype != ir::DType::Float32) {
            return foldTo(e, c, Value::integer(~*i));
        }
    }
    unsupportedTypes(e, c, name, {a}, 0);
}

// x is y / x is not y: decided by the abstracts (None is only None; constants by value).
Arg identity(Engine& e, CNode* c, bool negate, const Arg& a, const Arg& b) {
    const bool na = a.abs->kind == Abstract::Kind::None;
    const bool nb = b.abs->kind == Abstract::Kind::None;
    bool same = false;
    if (na || nb) {
        same = na && nb;
    } else if (valueOf(a) && valueOf(b) && !isTensor(a) && !isTensor(b)) {
        same = valueOf(a)->equals(*valueOf(b));
    } else if (a.abs->kind != b.abs->kind) {
        same = false;
    } else {
        e.error(c, "TypeError", "irscope: 'is' needs None, a bool or a constant operand here.");
    }
    return foldTo(e, c, Value::boolean(negate ? !same : same));
}

Arg contains(Engine& e, CNode* c, bool negate, const Arg& x, const Arg& seq) {
    const ValuePtr vx = valueOf(x);
    const ValuePtr vs = valueOf(seq);
    bool found = false;
    if (vs && vs->kind == Value::Kind::String && vx && vx->kind == Value::Kind::String) {
        found = vs->text.find(vx->text) != std::string::npos;
    } else if (isSeq(seq) && vx && !isTensor(x)) {
        bool unknown = false;
        for (const auto& el : seq.abs->elements) {
            if (el && el->value && el->kind != Abstract::Kind::Tensor) {
                found = found || constEquals(vx, el->value);
            } else {
                unknown = true;
            }
        }
        if (!found && unknown) {
            e.error(c, "TypeError",
                    "irscope: 'in' needs a tuple of constants when the element is a constant.");
        }
    } else {
        unsupportedTypes(e, c, negate ? meta::kNotIn : meta::kIn, {x, seq}, vx ? 1 : 0);
    }
    return foldTo(e, c, Value::boolean(negate ? !found : found));
}

}  // namespace

bool isMetaOp(std::string_view name) {
    static const std::vector<std::string_view> names = {
        meta::kAdd,          meta::kSub,       meta::kMul,        meta::kDiv,
        meta::kFloorDiv,     meta::kMod,       meta::kPow,        meta::kMatMul,
        meta::kBitAnd,       meta::kBitOr,     meta::kBitXor,     meta::kEqual,
        meta::kNotEqual,     meta::kLess,      meta::kLessEqual,  meta::kGreater,
        meta::kGreaterEqual, meta::kIn,        meta::kNotIn,      meta::kIs,
        meta::kIsNot,        meta::kNegative,  meta::kPositive,   meta::kLogicalNot,
        meta::kInvert,       meta::kBool,      meta::kMakeList,   meta::kMakeDict,
        meta::kMakeSlice,    meta::kGetItem,   meta::kSetItem,    meta::kLen,
        meta::kGetAttr,      meta::kMakeRange, meta::kIsInstance, meta::kMax,
        meta::kMin,          meta::kAbs,       meta::kSum,        meta::kToInt,
        meta::kToFloat,      meta::kToBool,    meta::kToTuple,    meta::kToList,
        meta::kToStr,        meta::kLoopLength,   meta::kTensorOf,
        meta::kZip,          meta::kEnumerate, meta::kMultitype,  meta::kHyperMap,
        meta::kMap,          meta::kVmap,      meta::kUnpackCall};
    return std::find(names.begin(), names.end(), name) != names.end();
}

Arg expandMeta(Engine& e, CNode* c, const ValuePtr& primValue, const std::vector<Arg>& args) {
    const std::string& name = primValue->prim->name;
    Arg out;
    if (expandFnMeta(e, c, primValue, args, out)) {
        return out;
    }
    if (expandTensorMeta(e, c, name, args, out)) {
        return out;
    }
    auto need = [&](std::size_t n) {
        if (args.size() != n) {
            e.error(c, "TypeError",
                    "'" + name + "' takes " + std::to_string(n) + " arguments but " +
                        std::to_string(args.size()) + " were given.");
        }
    };
    if (binaryTable().count(name)) {
        return binary(e, c, name, args);
    }
    if (name == meta::kNegative || name == meta::kPositive || name == meta::kLogicalNot ||
        name == meta::kInvert) {
        need(1);
        return unary(e, c, name, args[0]);
    }
    if (name == meta::kBool) {
        need(1);
        return truthValue(e, c, args[0]);
    }
    if (name == meta::kIs || name == meta::kIsNot) {
        need(2);
        return identity(e, c, name == meta::kIsNot, args[0], args[1]);
    }
    if (name == meta::kIn || name == meta::kNotIn) {
        need(2);
        return contains(e, c, name == meta::kNotIn, args[0], args[1]);
    }
    if (expandBuiltinMeta(e, c, name, args, out)) {
        return out;
    }
    if (name == meta::kMakeDict) {
        e.error(c, "TypeError", "irscope: dict values are not supported in graphs yet.");
    }
    e.error(c, "RuntimeError", "irscope: the meta operation '" + name + "' is not supported.");
}

}  // namespace irscope::passes::infer
