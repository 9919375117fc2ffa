// Expressions: operators, calls (with a fast path for obj.method(...)), displays,
// comparisons, subscripts and f-strings.
#include "frontend/interp/complex.h"
#include "frontend/interp/evaluator.h"
#include "frontend/interp/interp_internal.h"

namespace irscope::interp {

using namespace irscope::ast;

// --- evaluation ---------------------------------------------------------------------------------

Value Evaluator::evalConstant(const Constant& c, Frame& f) {
    auto& constants = cacheOf(*f.unit).constants;
    auto it = constants.find(&c);
    if (it != constants.end()) {
        return it->second;
    }
    Value v;
    switch (c.type) {
        case Constant::Type::None:
            v = Value::none();
            break;
        case Constant::Type::Bool:
            v = Value::boolean(c.boolValue);
            break;
        case Constant::Type::Int:
            if (c.intOverflow) {
                throw PyError(Exc::OverflowError, "int literal " + c.intText +
                                                      " does not fit: irscope integers are 64-bit");
            }
            v = Value::integer(c.intValue);
            break;
        case Constant::Type::Float:
            v = Value::real(c.floatValue);
            break;
        case Constant::Type::Complex:
            v = newComplex(I, {0.0, c.floatValue});
            break;
        case Constant::Type::Str:
            v = Value(I.newStr(c.strValue));
            break;
        case Constant::Type::Ellipsis:
            v = I.ellipsis();
            break;
    }
    constants.emplace(&c, v);
    return v;
}

void Evaluator::evalElements(const ExprList& elts, Frame& f, std::vector<Value>& out) {
    out.reserve(elts.size());
    for (const ExprPtr& e : elts) {
        if (e->kind == ExprKind::Starred) {
            std::vector<Value> more = I.toVector(eval(*e->cast<Starred>().value, f));
            out.insert(out.end(), more.begin(), more.end());
        } else {
            out.push_back(eval(*e, f));
        }
    }
}

Value Evaluator::eval(const Expr& e, Frame& f) {
    checkStack();
    switch (e.kind) {
        case ExprKind::Constant:
            return evalConstant(e.cast<Constant>(), f);
        case ExprKind::Name:
            return loadName(e.cast<Name>(), f);
        case ExprKind::BinOp: {
            const auto& b = e.cast<BinOp>();
            Value l = eval(*b.left, f);
            Value r = eval(*b.right, f);
            if (l.isInt() && r.isInt()) {
                std::int64_t x;
                if (b.op == Operator::Add && !__builtin_add_overflow(l.asInt(), r.asInt(), &x)) {
                    return Value::integer(x);
                }
                if (b.op == Operator::Sub && !__builtin_sub_overflow(l.asInt(), r.asInt(), &x)) {
                    return Value::integer(x);
                }
            }
            f.line = e.span.line;
            return I.binaryOp(b.op, l, r);
        }
        case ExprKind::UnaryOp: {
            const auto& u = e.cast<UnaryOp>();
            Value v = eval(*u.operand, f);
            f.line = e.span.line;
            return I.unaryOp(u.op, v);
        }
        case ExprKind::BoolOp: {
            const auto& b = e.cast<BoolOp>();
            Value v = eval(*b.values[0], f);
            for (std::size_t i = 1; i < b.values.size(); ++i) {
                bool t = I.truthy(v);
                if ((b.op == BoolOperator::And) ? !t : t) {
                    return v;
                }
                v = eval(*b.values[i], f);
            }
            return v;
        }
        case ExprKind::Compare:
            return evalCompare(e.cast<Compare>(), f);
        case ExprKind::Call:
            return evalCall(e.cast<Call>(), f);
        case ExprKind::Attribute: {
            const auto& a = e.cast<Attribute>();
            Value obj = eval(*a.value, f);
            f.line = e.span.line;
            return I.getAttr(obj, attrName(f, &a, a.attr));
        }
        case ExprKind::Subscript:
            return evalSubscript(e.cast<Subscript>(), f);
        case ExprKind::List: {
            std::vector<Value> items;
            evalElements(e.cast<List>().elts, f, items);
            return Value(I.newList(std::move(items)));
        }
        case ExprKind::Tuple: {
            std::vector<Value> items;
            evalElements(e.cast<Tuple>().elts, f, items);
            return Value(I.newTuple(std::move(items)));
        }
        case ExprKind::Set: {
            std::vector<Value> items;
            evalElements(e.cast<Set>().elts, f, items);
            Ref<SetObject> s = I.newSet();
            for (const Value& v : items) {
                s->add(I, v);
            }
            return Value(s);
        }
        case ExprKind::Dict: {
            const auto& d = e.cast<Dict>();
            Ref<DictObject> out = I.newDict();
            for (std::size_t i = 0; i < d.values.size(); ++i) {
                if (!d.keys[i]) {  // **mapping
                    Value m = eval(*d.values[i], f);
                    if (auto* md = m.as<DictObject>()) {
                        md->forEach([&](const Value& k, const Value& v) { out->set(I, k, v); });
                    } else {
                        Value keys = I.getAttrOrNull(m, "keys");
                        if (keys.isNull()) {
                            throw PyError(Exc::TypeError,
                                          "'" + I.typeName(m) + "' object is not a mapping");
                        }
                        for (const Value& k : I.toVector(I.call(keys, {}))) {
                            out->set(I, k, I.getItem(m, k));
                        }
                    }
                    continue;
                }
                Value k = eval(*d.keys[i], f);
                Value v = eval(*d.values[i], f);
                out->set(I, k, v);
            }
            return Value(out);
        }
        case ExprKind::ListComp:
        case ExprKind::SetComp:
        case ExprKind::DictComp:
            return comprehension(e, f);
        case ExprKind::GeneratorExp:
            return generator(e.cast<GeneratorExp>(), f);
        case ExprKind::Lambda:
            return makeFunction(nullptr, &e.cast<Lambda>(), f);
        case ExprKind::IfExp: {
            const auto& x = e.cast<IfExp>();
            return I.truthy(eval(*x.test, f)) ? eval(*x.body, f) : eval(*x.orelse, f);
        }
        case ExprKind::JoinedStr:
            return evalJoinedStr(e.cast<JoinedStr>(), f);
        case ExprKind::FormattedValue: {
            const auto& fv = e.cast<FormattedValue>();  // a lone field (inside a format spec)
            Value v = eval(*fv.value, f);
            std::string spec;
            if (fv.formatSpec) {
                spec = toStr(I, eval(*fv.formatSpec, f));
            }
            return Value(I.newStr(I.format(v, spec)));
        }
        case ExprKind::NamedExpr: {
            const auto& n = e.cast<NamedExpr>();
            Value v = eval(*n.value, f);
            const auto& target = n.target->cast<Name>();
            storeSite(&target, target.id, v, f);
            return v;
        }
        case ExprKind::Slice:
            return evalSlice(e.cast<Slice>(), f);
        case ExprKind::Starred:
            throw PyError(Exc::TypeError, "can't use starred expression here");
    }
    return Value::none();
}

void Evaluator::evalCallArgs(const Call& c, Frame& f, CallArgs& out) {
    for (const ExprPtr& a : c.args) {
        if (a->kind == ExprKind::Starred) {
            std::vector<Value> more = I.toVector(eval(*a->cast<Starred>().value, f));
            out.pos.insert(out.pos.end(), more.begin(), more.end());
        } else {
            out.pos.push_back(eval(*a, f));
        }
    }
    for (const Keyword& k : c.keywords) {
        if (!k.arg.empty()) {
            out.kw.push_back({k.arg, eval(*k.value, f)});
            continue;
        }
        Value m = eval(*k.value, f);
        auto add = [&](const Value& key, const Value& v) {
            const auto* ks = key.as<StrObject>();
            if (!ks) {
                throw PyError(Exc::TypeError, "keywords must be strings");
            }
            for (const KwArg& prev : out.kw) {
                if (prev.name == ks->value) {
                    throw PyError(Exc::TypeError,
                                  "got multiple values for keyword argument '" + ks->value + "'");
                }
            }
            out.kw.push_back({ks->value, v});
        };
        if (auto* d = m.as<DictObject>()) {
            d->forEach(add);
        } else {
            Value keys = I.getAttrOrNull(m, "keys");
            if (keys.isNull()) {
                throw PyError(Exc::TypeError,
                              "argument after ** must be a mapping, not " + I.typeName(m));
            }
            for (const Value& key : I.toVector(I.call(keys, {}))) {
                add(key, I.getItem(m, key));
            }
        }
    }
}

Value Evaluator::evalCall(const Call& c, Frame& f) {
    CallArgs args;
    Value func;
    if (c.func->kind == ExprKind::Attribute) {
        // obj.method(...): call the function with obj first instead of making a bound method.
        const auto& a = c.func->cast<Attribute>();
        Value obj = eval(*a.value, f);
        const Ref<StrObject>& name = attrName(f, &a, a.attr);
        f.line = a.span.line;
        if (obj.isObj() && !obj.is<Type>() && !obj.is<ModuleObject>() && !obj.is<SuperObject>()) {
            Type* tp = obj.obj()->type();
            const Type::HookCache& h = I.hooksOf(tp);
            if (h.getattribute.isNull() || h.getattribute.identical(I.objectGetattribute_)) {
                Value descr = tp->lookup(name->value);
                const auto* nf = descr.as<NativeFunctionObject>();
                if (descr.is<FunctionObject>() ||
                    (nf && nf->binding == NativeFunctionObject::Binding::Function)) {
                    DictObject* d = obj.obj()->dict();
                    if (!d || d->getStr(name->value, name->hash()).isNull()) {
                        args.pos.push_back(obj);
                        func = descr;
                    }
                }
            }
        }
        if (func.isNull()) {
            func = I.getAttr(obj, name);
        }
    } else {
        func = eval(*c.func, f);
    }
    evalCallArgs(c, f, args);
    f.line = c.span.line;
    return I.call(func, std::move(args));
}

Value Evaluator::evalCompare(const Compare& c, Frame& f) {
    Value left = eval(*c.left, f);
    Value r;
    for (std::size_t i = 0; i < c.ops.size(); ++i) {
        Value right = eval(*c.comparators[i], f);
        if (left.isInt() && right.isInt()) {
            std::int64_t x = left.asInt(), y = right.asInt();
            bool b;
            switch (c.ops[i]) {
                case CmpOperator::Lt:
                    b = x < y;
                    break;
                case CmpOperator::LtE:
                    b = x <= y;
                    break;
                case CmpOperator::Gt:
                    b = x > y;
                    break;
                case CmpOperator::GtE:
                    b = x >= y;
                    break;
                case CmpOperator::Eq:
                case CmpOperator::Is:
                    b = x == y;
                    break;
                case CmpOperator::NotEq:
                case CmpOperator::IsNot:
                    b = x != y;
                    break;
                default:
                    goto general;
            }
            r = Value::boolean(b);
        } else {
        general:
            f.line = c.span.line;
            r = I.compare(c.ops[i], left, right);
        }
        if (i + 1 < c.ops.size()) {
            if (!I.truthy(r)) {
                return r;
            }
            left = std::move(right);
        }
    }
    return r;
}

Value Evaluator::evalSlice(const Slice& s, Frame& f) {
    Value a = s.lower ? eval(*s.lower, f) : Value::none();
    Value b = s.upper ? eval(*s.upper, f) : Value::none();
    Value c = s.step ? eval(*s.step, f) : Value::none();
    return Value(I.make<SliceObject>(I.types().slice.get(), a, b, c));
}

Value Evaluator::evalSubscript(const Subscript& s, Frame& f) {
    Value obj = eval(*s.value, f);
    Value key = eval(*s.slice, f);
    f.line = s.span.line;
    return I.getItem(obj, key);
}

Value Evaluator::evalJoinedStr(const JoinedStr& s, Frame& f) {
    std::string out;
    for (const ExprPtr& part : s.values) {
        if (part->kind == ExprKind::Constant) {
            out += part->cast<Constant>().strValue;
            continue;
        }
        if (part->kind != ExprKind::FormattedValue) {
            out += I.str(eval(*part, f));
            continue;
        }
        const auto& fv = part->cast<FormattedValue>();
        Value v = eval(*fv.value, f);
        std::string spec;
        if (fv.formatSpec) {
            spec = toStr(I, eval(*fv.formatSpec, f));
        }
        f.line = part->span.line;
        switch (fv.conversion) {
            case 's':
                out += formatStrSpec(I.str(v), spec);
                break;
            case 'r':
                out += formatStrSpec(I.repr(v), spec);
                break;
            case 'a':
                out += formatStrSpec(util::pyAsciiEscape(I.repr(v)), spec);
                break;
            default:
                out += I.format(v, spec);
        }
    }
    return Value(I.newStr(std::move(out)));
}

}  // namespace irscope::interp
