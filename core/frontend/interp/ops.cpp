// Arithmetic operators: the builtin behaviour of int/float/str/list/tuple/set/dict, dispatch
// to __op__ / __rop__ (the right operand's reflected method first when its type is a subclass
// that overrides it) and in-place operators.
#include <cmath>
#include <limits>

#include "frontend/interp/complex.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using ast::Operator;

namespace {

struct OpNames {
    const char* op;
    const char* reflected;
    const char* inplace;
};

OpNames opNames(Operator op) {
    switch (op) {
        case Operator::Add:
            return {"__add__", "__radd__", "__iadd__"};
        case Operator::Sub:
            return {"__sub__", "__rsub__", "__isub__"};
        case Operator::Mult:
            return {"__mul__", "__rmul__", "__imul__"};
        case Operator::MatMult:
            return {"__matmul__", "__rmatmul__", "__imatmul__"};
        case Operator::Div:
            return {"__truediv__", "__rtruediv__", "__itruediv__"};
        case Operator::Mod:
            return {"__mod__", "__rmod__", "__imod__"};
        case Operator::Pow:
            return {"__pow__", "__rpow__", "__ipow__"};
        case Operator::LShift:
            return {"__lshift__", "__rlshift__", "__ilshift__"};
        case Operator::RShift:
            return {"__rshift__", "__rrshift__", "__irshift__"};
        case Operator::BitOr:
            return {"__or__", "__ror__", "__ior__"};
        case Operator::BitXor:
            return {"__xor__", "__rxor__", "__ixor__"};
        case Operator::BitAnd:
            return {"__and__", "__rand__", "__iand__"};
        case Operator::FloorDiv:
            return {"__floordiv__", "__rfloordiv__", "__ifloordiv__"};
    }
    return {"", "", ""};
}

bool isSequence(const Value& v) {
    return v.is<StrObject>() || v.is<ListObject>() || v.is<TupleObject>();
}

std::vector<Value> repeat(const std::vector<Value>& items, std::int64_t n) {
    std::vector<Value> out;
    if (n <= 0 || items.empty()) {
        return out;
    }
    if (static_cast<double>(items.size()) * static_cast<double>(n) > kMaxRepeatItems) {
        throw PyError(Exc::MemoryError,
                      "irscope: a list or tuple of more than 2**25 items is not supported");
    }
    out.reserve(items.size() * static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        out.insert(out.end(), items.begin(), items.end());
    }
    return out;
}

Ref<SetObject> setCopy(Interpreter& I, const SetObject& s) {
    Ref<SetObject> r = I.newSet();
    r->mergeFrom(I, s);
    return r;
}

// CPython's set algebra (the iteration order of the result follows its algorithms).
Value setBinary(Interpreter& I, Operator op, SetObject& a, SetObject& b) {
    switch (op) {
        case Operator::BitOr: {
            Ref<SetObject> r = setCopy(I, a);
            r->mergeFrom(I, b);
            return Value(r);
        }
        case Operator::BitAnd: {
            Ref<SetObject> r = I.newSet();
            SetObject* small = &a;
            SetObject* large = &b;
            if (b.size() > a.size()) {
                std::swap(small, large);
            }
            for (const Value& k : small->items()) {
                if (large->contains(I, k)) {
                    r->add(I, k);
                }
            }
            return Value(r);
        }
        case Operator::Sub: {
            Ref<SetObject> r;
            if (static_cast<std::size_t>(a.size() >> 2) > b.size()) {
                r = setCopy(I, a);
                for (const Value& k : b.items()) {
                    r->discard(I, k);
                }
            } else {
                r = I.newSet();
                for (const Value& k : a.items()) {
                    if (!b.contains(I, k)) {
                        r->add(I, k);
                    }
                }
            }
            return Value(r);
        }
        case Operator::BitXor: {
            Ref<SetObject> r = setCopy(I, a);
            for (const Value& k : b.items()) {
                if (!r->discard(I, k)) {
                    r->add(I, k);
                }
            }
            return Value(r);
        }
        default:
            return {};
    }
}

}  // namespace

// s |= o, s -= o, s ^= o change s's table in place; s &= o takes the intersection's table
// (CPython's algorithms, so the element order matches). False for other operators.
bool setInplace(Interpreter& I, Operator op, SetObject& s, SetObject& o) {
    switch (op) {
        case Operator::BitOr:
            s.mergeFrom(I, o);
            return true;
        case Operator::Sub:
            if (&s == &o) {
                s.clear();
            } else {
                for (const Value& k : o.items()) {
                    s.discard(I, k);
                }
            }
            return true;
        case Operator::BitXor:
            if (&s == &o) {
                s.clear();
            } else {
                for (const Value& k : o.items()) {
                    if (!s.discard(I, k)) {
                        s.add(I, k);
                    }
                }
            }
            return true;
        case Operator::BitAnd: {
            Value r = setBinary(I, op, s, o);
            s.swapTable(*r.as<SetObject>());
            return true;
        }
        default:
            return false;
    }
}

// The builtin types' own operator; Null when it does not apply (NotImplemented).
Value builtinBinary(Interpreter& I, Operator op, const Value& a, const Value& b) {
    if (a.isNumber()) {
        if (b.isNumber()) {
            // A negative base to a fractional power is complex (CPython's float.__pow__).
            if (op == Operator::Pow && a.toDouble() < 0.0 && std::isfinite(b.toDouble()) &&
                b.toDouble() != std::floor(b.toDouble())) {
                return newComplex(I, complexPow({a.toDouble(), 0.0}, {b.toDouble(), 0.0}));
            }
            return numberBinary(op, a, b);
        }
        if (op == Operator::Mult && a.isIntLike() && isSequence(b)) {
            return builtinBinary(I, op, b, a);
        }
        return {};
    }
    if (!a.isObj()) {
        return {};
    }
    switch (a.obj()->kind()) {
        case ObjKind::Str: {
            const std::string& s = a.as<StrObject>()->value;
            if (op == Operator::Add) {
                if (const auto* t = b.as<StrObject>()) {
                    return Value(I.newStr(s + t->value));
                }
            } else if (op == Operator::Mult && b.isIntLike()) {
                return Value(I.newStr(repeatString(s, b.intLike())));
            } else if (op == Operator::Mod) {
                return Value(I.newStr(percentFormat(I, s, b)));
            }
            return {};
        }
        case ObjKind::List: {
            const auto& items = a.as<ListObject>()->items;
            if (op == Operator::Add) {
                if (const auto* t = b.as<ListObject>()) {
                    std::vector<Value> r = items;
                    r.insert(r.end(), t->items.begin(), t->items.end());
                    return Value(I.newList(std::move(r)));
                }
            } else if (op == Operator::Mult && b.isIntLike()) {
                return Value(I.newList(repeat(items, b.intLike())));
            }
            return {};
        }
        case ObjKind::Tuple: {
            const auto& items = a.as<TupleObject>()->items;
            if (op == Operator::Add) {
                if (const auto* t = b.as<TupleObject>()) {
                    std::vector<Value> r = items;
                    r.insert(r.end(), t->items.begin(), t->items.end());
                    return Value(I.newTuple(std::move(r)));
                }
            } else if (op == Operator::Mult && b.isIntLike()) {
                return Value(I.newTuple(repeat(items, b.intLike())));
            }
            return {};
        }
        case ObjKind::Set:
            if (auto* t = b.as<SetObject>()) {
                return setBinary(I, op, *a.as<SetObject>(), *t);
            }
            return {};
        case ObjKind::Dict:
            if (op == Operator::BitOr && b.is<DictObject>()) {
                Ref<DictObject> r = I.newDict();
                a.as<DictObject>()->forEach(
                    [&](const Value& k, const Value& v) { r->set(I, k, v); });
                b.as<DictObject>()->forEach(
                    [&](const Value& k, const Value& v) { r->set(I, k, v); });
                return Value(r);
            }
            return {};
        default:
            return {};
    }
}

namespace {

bool isBuiltinOperand(const Value& v) {
    if (!v.isObj()) {
        return true;
    }
    switch (v.obj()->kind()) {
        case ObjKind::Str:
        case ObjKind::List:
        case ObjKind::Tuple:
        case ObjKind::Set:
        case ObjKind::Dict:
            return v.obj()->type()->immutable;
        default:
            return false;
    }
}

[[noreturn]] void unsupported(Interpreter& I, Operator op, const Value& a, const Value& b,
                              bool inplace) {
    if (op == Operator::Add && (a.is<StrObject>() || a.is<ListObject>() || a.is<TupleObject>()) &&
        I.typeOf(a)->immutable) {
        throw PyError(Exc::TypeError, "can only concatenate " + I.typeName(a) + " (not \"" +
                                          I.typeName(b) + "\") to " + I.typeName(a));
    }
    if (op == Operator::Mult && (isSequence(a) || isSequence(b))) {
        const Value& other = isSequence(a) ? b : a;
        throw PyError(Exc::TypeError,
                      "can't multiply sequence by non-int of type '" + I.typeName(other) + "'");
    }
    std::string sym = ast::symbol(op);
    if (inplace) {
        sym += "=";
    }
    if (op == Operator::Pow && !inplace) {
        sym = "** or pow()";
    }
    throw PyError(Exc::TypeError, "unsupported operand type(s) for " + sym + ": '" + I.typeName(a) +
                                      "' and '" + I.typeName(b) + "'");
}

bool notImpl(Interpreter& I, const Value& r) {
    return r.identical(I.notImplemented());
}

}  // namespace

Value Interpreter::binaryOp(Operator op, const Value& a, const Value& b) {
    if (isBuiltinOperand(a) && isBuiltinOperand(b)) {
        Value r = builtinBinary(*this, op, a, b);
        if (!r.isNull()) {
            return r;
        }
        unsupported(*this, op, a, b, false);
    }
    const OpNames n = opNames(op);
    Type* ta = typeOf(a);
    Type* tb = typeOf(b);
    Value fa = ta->lookup(n.op);
    Value fb = ta != tb ? tb->lookup(n.reflected) : Value();
    if (!fb.isNull() && tb->isSubtypeOf(ta) && !fb.identical(ta->lookup(n.reflected))) {
        Value r = call(fb, {b, a});
        if (!notImpl(*this, r)) {
            return r;
        }
        fb = Value();
    }
    if (!fa.isNull() && !fa.isNone()) {
        Value r = call(fa, {a, b});
        if (!notImpl(*this, r)) {
            return r;
        }
    }
    if (!fb.isNull() && !fb.isNone()) {
        Value r = call(fb, {b, a});
        if (!notImpl(*this, r)) {
            return r;
        }
    }
    unsupported(*this, op, a, b, false);
}

Value Interpreter::inplaceOp(Operator op, const Value& a, const Value& b) {
    if (auto* l = a.as<ListObject>(); l && l->type()->immutable) {
        if (op == Operator::Add) {
            std::vector<Value> extra = toVector(b);
            l->items.insert(l->items.end(), extra.begin(), extra.end());
            return a;
        }
        if (op == Operator::Mult && b.isIntLike()) {
            l->items = repeat(l->items, b.intLike());
            return a;
        }
    }
    if (auto* s = a.as<SetObject>(); s && s->type()->immutable && b.is<SetObject>()) {
        if (setInplace(*this, op, *s, *b.as<SetObject>())) {
            return a;
        }
    }
    if (auto* d = a.as<DictObject>();
        d && d->type()->immutable && op == Operator::BitOr && b.is<DictObject>()) {
        b.as<DictObject>()->forEach([&](const Value& k, const Value& v) { d->set(*this, k, v); });
        return a;
    }
    if (!isBuiltinOperand(a)) {
        Value f = typeOf(a)->lookup(opNames(op).inplace);
        if (!f.isNull() && !f.isNone()) {
            Value r = call(f, {a, b});
            if (!notImpl(*this, r)) {
                return r;
            }
        }
    }
    try {
        return binaryOp(op, a, b);
    } catch (PyError& e) {
        // Re-word "unsupported operand" for the augmented form (+=).
        Value exc = exceptionOf(e);
        if (isInstance(exc, Exc::TypeError) && str(exc).rfind("unsupported operand", 0) == 0) {
            unsupported(*this, op, a, b, true);
        }
        throw;
    }
}

Value Interpreter::unaryOp(ast::UnaryOperator op, const Value& a) {
    using ast::UnaryOperator;
    if (op == UnaryOperator::Not) {
        return Value::boolean(!truthy(a));
    }
    if (a.isIntLike()) {
        std::int64_t v = a.intLike();
        switch (op) {
            case UnaryOperator::USub:
                if (v == std::numeric_limits<std::int64_t>::min()) {
                    intOverflow();
                }
                return Value::integer(-v);
            case UnaryOperator::UAdd:
                return Value::integer(v);
            case UnaryOperator::Invert:
                return Value::integer(~v);
            default:
                break;
        }
    }
    if (a.isFloat()) {
        if (op == UnaryOperator::USub) {
            return Value::real(-a.asFloat());
        }
        if (op == UnaryOperator::UAdd) {
            return a;
        }
    }
    const char* name = op == UnaryOperator::USub   ? "__neg__"
                       : op == UnaryOperator::UAdd ? "__pos__"
                                                   : "__invert__";
    if (a.isObj()) {
        Value f = typeOf(a)->lookup(name);
        if (!f.isNull() && !f.isNone()) {
            return call(f, {a});
        }
    }
    throw PyError(Exc::TypeError, std::string("bad operand type for unary ") + ast::symbol(op) +
                                      ": '" + typeName(a) + "'");
}

// Registers __add__/__radd__/... on the builtin types so that subclasses, super() and
// explicit calls (int.__add__(1, 2)) see them.
void defineBuiltinOperators(Interpreter& I) {
    const Operator ops[] = {Operator::Add,    Operator::Sub,    Operator::Mult,
                            Operator::Div,    Operator::Mod,    Operator::Pow,
                            Operator::LShift, Operator::RShift, Operator::BitOr,
                            Operator::BitXor, Operator::BitAnd, Operator::FloorDiv};
    const auto& T = I.types();
    for (Type* t : {T.intType.get(), T.floatType.get(), T.str.get(), T.list.get(), T.tuple.get(),
                    T.set.get(), T.dict.get()}) {
        const bool intOnly = t == T.intType.get();  // int.__add__(1.5) is NotImplemented
        for (Operator op : ops) {
            OpNames n = opNames(op);
            defMethod(I, t, n.op, [op, intOnly](Interpreter& J, CallArgs& a) {
                expectArgs(a, 2, 2, opNames(op).op);
                if (intOnly && a.pos[1].isFloat()) {
                    return J.notImplemented();
                }
                Value r = builtinBinary(J, op, a.pos[0], a.pos[1]);
                return r.isNull() ? J.notImplemented() : r;
            });
            defMethod(I, t, n.reflected, [op, intOnly](Interpreter& J, CallArgs& a) {
                expectArgs(a, 2, 2, opNames(op).reflected);
                if ((op == Operator::Mod && a.pos[1].is<StrObject>()) ||
                    (intOnly && a.pos[1].isFloat())) {
                    return J.notImplemented();
                }
                Value r = builtinBinary(J, op, a.pos[1], a.pos[0]);
                return r.isNull() ? J.notImplemented() : r;
            });
        }
    }
}

}  // namespace irscope::interp
