// Comparison: the builtin types' orderings and equality, rich comparison dispatch
// (__eq__/__lt__... with the reflected method of a subclass first), `is` and `in`.
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using ast::CmpOperator;

namespace {

bool fromOrder(CmpOperator op, int c) {
    switch (op) {
        case CmpOperator::Eq:
            return c == 0;
        case CmpOperator::NotEq:
            return c != 0;
        case CmpOperator::Lt:
            return c == -1;
        case CmpOperator::LtE:
            return c == -1 || c == 0;
        case CmpOperator::Gt:
            return c == 1;
        case CmpOperator::GtE:
            return c == 1 || c == 0;
        default:
            return false;
    }
}

struct CmpNames {
    const char* op;
    const char* reflected;
};

CmpNames cmpNames(CmpOperator op) {
    switch (op) {
        case CmpOperator::Eq:
            return {"__eq__", "__eq__"};
        case CmpOperator::NotEq:
            return {"__ne__", "__ne__"};
        case CmpOperator::Lt:
            return {"__lt__", "__gt__"};
        case CmpOperator::LtE:
            return {"__le__", "__ge__"};
        case CmpOperator::Gt:
            return {"__gt__", "__lt__"};
        case CmpOperator::GtE:
            return {"__ge__", "__le__"};
        default:
            return {"", ""};
    }
}

bool setSubset(Interpreter& I, SetObject& a, SetObject& b) {  // a <= b
    if (a.size() > b.size()) {
        return false;
    }
    for (const Value& k : a.items()) {
        if (!b.contains(I, k)) {
            return false;
        }
    }
    return true;
}

// The builtin types' comparison; false when it does not apply (NotImplemented).
bool builtinCompare(Interpreter& I, CmpOperator op, const Value& a, const Value& b, bool* result) {
    const bool equality = op == CmpOperator::Eq || op == CmpOperator::NotEq;
    if (a.isNumber() && b.isNumber()) {
        int c = compareNumbers(a, b);
        *result = c == 2 ? op == CmpOperator::NotEq : fromOrder(op, c);
        return true;
    }
    if (a.isNone() && b.isNone()) {
        if (!equality) {
            return false;
        }
        *result = op == CmpOperator::Eq;
        return true;
    }
    if (!a.isObj() || !b.isObj() || a.obj()->kind() != b.obj()->kind()) {
        return false;
    }
    switch (a.obj()->kind()) {
        case ObjKind::Str: {
            int c = a.as<StrObject>()->value.compare(b.as<StrObject>()->value);
            *result = fromOrder(op, c < 0 ? -1 : (c > 0 ? 1 : 0));
            return true;
        }
        case ObjKind::Tuple:
            compareSequences(I, a.as<TupleObject>()->items, b.as<TupleObject>()->items, op, result);
            return true;
        case ObjKind::List: {
            std::vector<Value> x = a.as<ListObject>()->items, y = b.as<ListObject>()->items;
            compareSequences(I, x, y, op, result);
            return true;
        }
        case ObjKind::Dict: {
            if (!equality) {
                return false;
            }
            auto* x = a.as<DictObject>();
            auto* y = b.as<DictObject>();
            bool same = x->size() == y->size();
            if (same) {
                std::vector<std::pair<Value, Value>> entries;
                x->forEach([&](const Value& k, const Value& v) { entries.emplace_back(k, v); });
                for (const auto& [k, v] : entries) {
                    Value w = y->get(I, k);
                    if (w.isNull() || !I.eq(v, w)) {
                        same = false;
                        break;
                    }
                }
            }
            *result = (op == CmpOperator::Eq) == same;
            return true;
        }
        case ObjKind::Set: {
            auto* x = a.as<SetObject>();
            auto* y = b.as<SetObject>();
            switch (op) {
                case CmpOperator::Eq:
                    *result = x->size() == y->size() && setSubset(I, *x, *y);
                    break;
                case CmpOperator::NotEq:
                    *result = !(x->size() == y->size() && setSubset(I, *x, *y));
                    break;
                case CmpOperator::LtE:
                    *result = setSubset(I, *x, *y);
                    break;
                case CmpOperator::Lt:
                    *result = x->size() < y->size() && setSubset(I, *x, *y);
                    break;
                case CmpOperator::GtE:
                    *result = setSubset(I, *y, *x);
                    break;
                case CmpOperator::Gt:
                    *result = y->size() < x->size() && setSubset(I, *y, *x);
                    break;
                default:
                    return false;
            }
            return true;
        }
        case ObjKind::Range: {
            if (!equality) {
                return false;
            }
            auto* x = a.as<RangeObject>();
            auto* y = b.as<RangeObject>();
            std::int64_t n = x->length();
            bool same = n == y->length() &&
                        (n == 0 || (x->start == y->start && (n == 1 || x->step == y->step)));
            *result = (op == CmpOperator::Eq) == same;
            return true;
        }
        default:
            return false;
    }
}

bool isBuiltinComparable(const Value& v) {
    if (!v.isObj()) {
        return true;
    }
    switch (v.obj()->kind()) {
        case ObjKind::Str:
        case ObjKind::Tuple:
        case ObjKind::List:
        case ObjKind::Dict:
        case ObjKind::Set:
        case ObjKind::Range:
            return v.obj()->type()->immutable;
        default:
            return false;
    }
}

}  // namespace

int compareSequences(Interpreter& I, const std::vector<Value>& a, const std::vector<Value>& b,
                     CmpOperator op, bool* result) {
    std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    for (; i < n; ++i) {
        if (!I.eq(a[i], b[i])) {
            break;
        }
    }
    if (i == n) {
        int c = a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
        *result = fromOrder(op, c);
        return c;
    }
    if (op == CmpOperator::Eq) {
        *result = false;
    } else if (op == CmpOperator::NotEq) {
        *result = true;
    } else {
        *result = I.truthy(I.compare(op, a[i], b[i]));
    }
    return 0;
}

Value Interpreter::compare(CmpOperator op, const Value& a, const Value& b) {
    switch (op) {
        case CmpOperator::Is:
            return Value::boolean(a.identical(b));
        case CmpOperator::IsNot:
            return Value::boolean(!a.identical(b));
        case CmpOperator::In:
            return Value::boolean(contains(b, a));
        case CmpOperator::NotIn:
            return Value::boolean(!contains(b, a));
        default:
            break;
    }
    if (isBuiltinComparable(a) && isBuiltinComparable(b)) {
        bool r;
        if (builtinCompare(*this, op, a, b, &r)) {
            return Value::boolean(r);
        }
    } else {
        const CmpNames n = cmpNames(op);
        Type* ta = typeOf(a);
        Type* tb = typeOf(b);
        bool reflectedTried = false;
        if (ta != tb && tb->isSubtypeOf(ta)) {
            Value fb = tb->lookup(n.reflected);
            if (!fb.isNull() && !fb.isNone() && !fb.identical(ta->lookup(n.reflected))) {
                reflectedTried = true;
                Value r = call(fb, {b, a});
                if (!r.identical(notImplemented_)) {
                    return r;
                }
            }
        }
        Value fa = ta->lookup(n.op);
        if (!fa.isNull() && !fa.isNone()) {
            Value r = call(fa, {a, b});
            if (!r.identical(notImplemented_)) {
                return r;
            }
        }
        if (!reflectedTried) {
            Value fb = tb->lookup(n.reflected);
            if (!fb.isNull() && !fb.isNone()) {
                Value r = call(fb, {b, a});
                if (!r.identical(notImplemented_)) {
                    return r;
                }
            }
        }
    }
    if (op == CmpOperator::Eq) {
        return Value::boolean(a.identical(b));
    }
    if (op == CmpOperator::NotEq) {
        return Value::boolean(!a.identical(b));
    }
    throw PyError(Exc::TypeError, std::string("'") + ast::symbol(op) +
                                      "' not supported between instances of '" + typeName(a) +
                                      "' and '" + typeName(b) + "'");
}

bool Interpreter::eq(const Value& a, const Value& b) {
    int q = quickEquals(a, b);
    if (q >= 0) {
        return q == 1;
    }
    return truthy(compare(CmpOperator::Eq, a, b));
}

bool Interpreter::lessThan(const Value& a, const Value& b) {
    if (a.isNumber() && b.isNumber()) {
        return compareNumbers(a, b) == -1;
    }
    return truthy(compare(CmpOperator::Lt, a, b));
}

void defineBuiltinComparisons(Interpreter& I) {
    const CmpOperator ops[] = {CmpOperator::Eq,  CmpOperator::NotEq, CmpOperator::Lt,
                               CmpOperator::LtE, CmpOperator::Gt,    CmpOperator::GtE};
    const auto& T = I.types();
    for (Type* t : {T.intType.get(), T.floatType.get(), T.str.get(), T.list.get(), T.tuple.get(),
                    T.set.get(), T.dict.get(), T.range.get()}) {
        for (CmpOperator op : ops) {
            defMethod(I, t, cmpNames(op).op, [op](Interpreter& J, CallArgs& a) {
                expectArgs(a, 2, 2, cmpNames(op).op);
                bool r;
                if (builtinCompare(J, op, a.pos[0], a.pos[1], &r)) {
                    return Value::boolean(r);
                }
                return J.notImplemented();
            });
        }
    }
}

}  // namespace irscope::interp
