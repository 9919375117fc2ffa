// Expressions: names (locals, `self.x`, globals and builtins as resolve/meta nodes),
// operators as meta operations, calls (keywords recorded for symbol_resolve), displays,
// subscripts and slices, lambdas, and/or/ternaries (branch graphs), f-strings of constants.
// Comprehensions are in graph_builder_flow.cpp, with the loops.
#include "compiler/graph_builder_impl.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::Node;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

std::string_view compareMeta(ast::CmpOperator op) {
    switch (op) {
        case ast::CmpOperator::Eq: return meta::kEqual;
        case ast::CmpOperator::NotEq: return meta::kNotEqual;
        case ast::CmpOperator::Lt: return meta::kLess;
        case ast::CmpOperator::LtE: return meta::kLessEqual;
        case ast::CmpOperator::Gt: return meta::kGreater;
        case ast::CmpOperator::GtE: return meta::kGreaterEqual;
        case ast::CmpOperator::Is: return meta::kIs;
        case ast::CmpOperator::IsNot: return meta::kIsNot;
        case ast::CmpOperator::In: return meta::kIn;
        case ast::CmpOperator::NotIn: return meta::kNotIn;
    }
    return meta::kEqual;
}

ValuePtr literal(const ast::Constant& c) {
    switch (c.type) {
        case ast::Constant::Type::None: return Value::none();
        case ast::Constant::Type::Bool: return Value::boolean(c.boolValue);
        case ast::Constant::Type::Int: return Value::integer(c.intValue);
        case ast::Constant::Type::Float: return Value::floating(c.floatValue);
        case ast::Constant::Type::Complex: break;  // refused by GraphBuilder::expr
        case ast::Constant::Type::Str: return Value::string(c.strValue);
        case ast::Constant::Type::Ellipsis: return Value::opaque("Ellipsis");
    }
    return Value::none();
}

}  // namespace

// Builtins that parse turns into meta operations.
std::string_view builtinMeta(std::string_view n) {
    static const std::pair<std::string_view, std::string_view> table[] = {
        {"len", meta::kLen},         {"isinstance", meta::kIsInstance}, {"max", meta::kMax},
        {"min", meta::kMin},         {"abs", meta::kAbs},               {"sum", meta::kSum},
        {"int", meta::kToInt},       {"float", meta::kToFloat},         {"bool", meta::kToBool},
        {"tuple", meta::kToTuple},   {"list", meta::kToList},           {"zip", meta::kZip},
        {"enumerate", meta::kEnumerate}, {"range", meta::kMakeRange},   {"getattr", meta::kGetAttr},
        {"pow", meta::kPow},
    };
    for (const auto& [k, v] : table) {
        if (k == n) {
            return v;
        }
    }
    return {};
}


ValuePtr GraphBuilder::irConstant(const interp::Value& v) const {
    if (v.isNone()) {
        return Value::none();
    }
    if (v.isBool()) {
        return Value::boolean(v.asBool());
    }
    if (v.isInt()) {
        return Value::integer(v.asInt());
    }
    if (v.isFloat()) {
        return Value::floating(v.asFloat());
    }
    if (auto* s = v.as<interp::StrObject>()) {
        return Value::string(s->value);
    }
    const bool tup = v.is<interp::TupleObject>();
    if (tup || v.is<interp::ListObject>()) {
        const auto& items = tup ? v.as<interp::TupleObject>()->items : v.as<interp::ListObject>()->items;
        std::vector<ValuePtr> out;
        for (const interp::Value& e : items) {
            ValuePtr c = irConstant(e);
            if (!c) {
                return nullptr;
            }
            out.push_back(c);
        }
        return tup ? Value::tuple(std::move(out)) : Value::list(std::move(out));
    }
    return nullptr;
}

bool GraphBuilder::isSelf(const ast::Expr& e) const {
    const auto* n = e.as<ast::Name>();
    return n != nullptr && !selfName_.empty() && n->id == selfName_ && cur_.env.get(n->id) == nullptr;
}

interp::Value GraphBuilder::lookupHostName(const std::string& n) const {
    try {
        return spec_.fn->resolveFreeName(I, n);
    } catch (const interp::PyError&) {
        return {};
    }
}

Node* GraphBuilder::resolveNode(const HostEntry& ns, const std::string& nsText, const std::string& sym,
                                const ast::Span& at) {
    ValuePtr* cache = ns.kind == HostEntry::Kind::ClassMember ? &classNs_
                      : ns.kind == HostEntry::Kind::Builtins  ? &builtinsNs_
                                                              : &symbolNs_;
    if (!*cache) {
        *cache = s_.hostValue(ns, nsText);
    }
    return cnode({prim("resolve"), constant(*cache), constant(Value::string(sym))}, at);
}

Node* GraphBuilder::name(const ast::Name& n) {
    if (Node* v = cur_.env.get(n.id)) {
        return v;
    }
    if (!selfName_.empty() && n.id == selfName_) {
        // resolve(NameSpace[ClassObject: 'Net'], "self"): the object itself.
        if (!selfObject_) {
            selfObject_ = s_.hostValue({HostEntry::Kind::Object, spec_.self, spec_.scope},
                                       "NameSpace[ClassObject: '" + I.typeName(spec_.self) + "']");
        }
        return cnode({prim("resolve"), constant(selfObject_), constant(Value::string(n.id))}, n.span);
    }
    const interp::CodeInfo* code = spec_.fn->code;
    if (code != nullptr && code->slotOf(n.id) >= 0) {  // a local not bound on this path
        fail("NameError", "The name '" + n.id + "' is not defined, or not supported in graph mode.", n.span);
    }
    interp::Value host = lookupHostName(n.id);
    interp::Value builtin = I.builtins().getStr(n.id);
    if (!host.isNull() && !builtin.isNull() && host.identical(builtin)) {
        if (std::string_view m = builtinMeta(n.id); !m.empty()) {
            return prim(m);
        }
        return resolveNode({HostEntry::Kind::Builtins, {}, {}}, "NameSpace[CommonOPS: 'Namespace:builtins']", n.id,
                           n.span);
    }
    return resolveNode({HostEntry::Kind::Symbol, interp::Value(const_cast<interp::FunctionObject*>(spec_.fn)), {}},
                       "NameSpace[SymbolStr: 'Namespace:" + spec_.fn->moduleName + "']", n.id, n.span);
}

Node* GraphBuilder::attribute(const ast::Attribute& a) {
    if (isSelf(*a.value)) {
        return resolveNode({HostEntry::Kind::ClassMember, spec_.self, spec_.scope, spec_.constantsFrom},
                           "NameSpace[ClassMember: '" + I.typeName(spec_.self) + "']", a.attr, a.span);
    }
    Node* obj = expr(*a.value);
    return meta(meta::kGetAttr, {obj, constant(Value::string(a.attr))}, a.span);
}

Node* GraphBuilder::subscriptIndex(const ast::Expr& e) {
    if (const auto* sl = e.as<ast::Slice>()) {
        const ast::Expr* parts[3] = {sl->lower.get(), sl->upper.get(), sl->step.get()};
        std::vector<ValuePtr> consts;
        for (const ast::Expr* p : parts) {
            if (p == nullptr) {
                consts.push_back(Value::none());
                continue;
            }
            std::optional<interp::Value> v = constValue(*p, false);
            if (!v || !(v->isInt() || v->isNone())) {
                break;
            }
            consts.push_back(irConstant(*v));
        }
        if (consts.size() == 3) {
            return constant(Value::slice(consts[0], consts[1], consts[2]));
        }
        std::vector<Node*> args;
        for (const ast::Expr* p : parts) {
            args.push_back(p == nullptr ? constant(Value::none()) : expr(*p));
        }
        return meta(meta::kMakeSlice, args, e.span);
    }
    if (const auto* t = e.as<ast::Tuple>()) {
        std::vector<Node*> items{prim(meta::kMakeTuple)};
        std::vector<ValuePtr> consts;
        for (const ast::ExprPtr& x : t->elts) {
            Node* n = subscriptIndex(*x);
            items.push_back(n);
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
                consts.push_back(vn->value());
            }
        }
        if (consts.size() == t->elts.size()) {
            return constant(Value::tuple(std::move(consts)));
        }
        return cnode(items, e.span);
    }
    return expr(e);
}

Node* GraphBuilder::expr(const ast::Expr& e) {
    using K = ast::ExprKind;
    switch (e.kind) {
        case K::Constant:
            if (e.cast<ast::Constant>().type == ast::Constant::Type::Complex) {
                fail("TypeError", "irscope: complex literals in graph mode are not supported yet.", e.span);
            }
            return constant(literal(e.cast<ast::Constant>()));
        case K::Name: return name(e.cast<ast::Name>());
        case K::Attribute: return attribute(e.cast<ast::Attribute>());
        case K::Call: return call(e.cast<ast::Call>());
        case K::BinOp: {
            const auto& b = e.cast<ast::BinOp>();
            Node* l = expr(*b.left);
            Node* r = expr(*b.right);
            if (b.op == ast::Operator::LShift || b.op == ast::Operator::RShift) {
                fail("RuntimeError", std::string("Unsupported syntax '") + ast::name(b.op) + "' in graph mode.", e.span);
            }
            return meta(binaryMetaName(b.op), {l, r}, e.span);
        }
        case K::UnaryOp: {
            const auto& u = e.cast<ast::UnaryOp>();
            if (const auto* c = u.operand->as<ast::Constant>(); c && u.op == ast::UnaryOperator::USub) {
                if (c->type == ast::Constant::Type::Int && !c->intOverflow) {
                    return constant(Value::integer(-c->intValue));
                }
                if (c->type == ast::Constant::Type::Float) {
                    return constant(Value::floating(-c->floatValue));
                }
            }
            Node* x = expr(*u.operand);
            switch (u.op) {
                case ast::UnaryOperator::Not: return meta(meta::kLogicalNot, {x}, e.span);
                case ast::UnaryOperator::USub: return meta(meta::kNegative, {x}, e.span);
                case ast::UnaryOperator::UAdd: return meta(meta::kPositive, {x}, e.span);
                case ast::UnaryOperator::Invert: return meta(meta::kInvert, {x}, e.span);
            }
            return x;
        }
        case K::BoolOp: return boolOp(e.cast<ast::BoolOp>());
        case K::Compare: return compare(e.cast<ast::Compare>());
        case K::IfExp: {
            const auto& x = e.cast<ast::IfExp>();
            if (std::optional<bool> c = constCondition(*x.test)) {
                return expr(*c ? *x.body : *x.orelse);
            }
            Node* cond = meta(meta::kBool, {expr(*x.test)}, x.test->span);
            return branchValue(
                cond, {}, [&](const std::vector<Node*>&) { return expr(*x.body); }, {},
                [&](const std::vector<Node*>&) { return expr(*x.orelse); }, e.span);
        }
        case K::Tuple:
        case K::List: {
            const bool tup = e.kind == K::Tuple;
            const ast::ExprList& elts = tup ? e.cast<ast::Tuple>().elts : e.cast<ast::List>().elts;
            std::vector<Node*> items{prim(tup ? meta::kMakeTuple : meta::kMakeList)};
            std::vector<ValuePtr> consts;
            for (const ast::ExprPtr& x : elts) {
                if (x->kind == K::Starred) {
                    fail("RuntimeError", "Unsupported syntax 'Starred' in a display in graph mode.", x->span);
                }
                if (const auto* c = x->as<ast::Constant>()) {
                    consts.push_back(literal(*c));
                }
                items.push_back(expr(*x));
            }
            if (tup && consts.size() == elts.size()) {
                return constant(Value::tuple(std::move(consts)));
            }
            return cnode(items, e.span);
        }
        case K::Dict: {
            const auto& d = e.cast<ast::Dict>();
            std::vector<Node*> keys{prim(meta::kMakeTuple)}, values{prim(meta::kMakeTuple)};
            for (std::size_t k = 0; k < d.keys.size(); ++k) {
                if (!d.keys[k]) {
                    fail("RuntimeError", "Unsupported syntax '**' in a dict display in graph mode.", d.values[k]->span);
                }
                keys.push_back(expr(*d.keys[k]));
                values.push_back(expr(*d.values[k]));
            }
            return meta(meta::kMakeDict, {cnode(keys, e.span), cnode(values, e.span)}, e.span);
        }
        case K::Subscript: {
            const auto& s = e.cast<ast::Subscript>();
            Node* obj = expr(*s.value);
            return meta(meta::kGetItem, {obj, subscriptIndex(*s.slice)}, e.span);
        }
        case K::Lambda: return lambda(e.cast<ast::Lambda>());
        case K::ListComp:
        case K::GeneratorExp:
        case K::DictComp: return comprehension(e);
        case K::JoinedStr: {
            if (std::optional<interp::Value> v = constValue(e, false)) {
                return constant(irConstant(*v));
            }
            // Parts only type inference knows (a shape, a length): str() of each, joined
            // there, so an f-string in a branch it never takes (a check's message) costs
            // nothing; a value it cannot make a constant fails where it is formatted.
            Node* text = nullptr;
            for (const ast::ExprPtr& part : e.cast<ast::JoinedStr>().values) {
                Node* piece = nullptr;
                if (part->kind == K::FormattedValue) {
                    const auto& f = part->cast<ast::FormattedValue>();
                    if (f.formatSpec || (f.conversion != -1 && f.conversion != 's')) {
                        fail("RuntimeError",
                             "In graph mode, an f-string may use a format spec or a !r / !a conversion only on "
                             "constants.",
                             part->span);
                    }
                    piece = meta(meta::kToStr, {expr(*f.value)}, part->span);
                } else {
                    piece = expr(*part);
                }
                text = text == nullptr ? piece : meta(meta::kAdd, {text, piece}, e.span);
            }
            return text != nullptr ? text : constant(Value::string(""));
        }
        case K::NamedExpr: {
            const auto& n = e.cast<ast::NamedExpr>();
            Node* v = expr(*n.value);
            assign(*n.target, v, e.span);
            return v;
        }
        default:
            fail("RuntimeError", std::string("Unsupported syntax '") + ast::name(e.kind) + "' in graph mode.", e.span);
    }
}

Node* GraphBuilder::call(const ast::Call& c) {
    if (Node* r = listMethod(c)) {
        return r;
    }
    std::vector<Node*> in;
    if (const auto* attr = c.func->as<ast::Attribute>()) {
        if (const auto* inner = attr->value->as<ast::Call>()) {
            if (const auto* sup = inner->func->as<ast::Name>();
                sup && sup->id == "super" && cur_.env.get("super") == nullptr) {
                in.push_back(superMethod(*inner, attr->attr, c.span));
            }
        }
    }
    if (in.empty()) {
        in.push_back(expr(*c.func));
    }
    // `f(a, *args)` where args is a local whose length only type inference knows (a varargs
    // parameter of a method): unpack_call(f, (a,), args).
    const bool unpackLater = std::any_of(c.args.begin(), c.args.end(), [&](const ast::ExprPtr& a) {
        const auto* st = a->as<ast::Starred>();
        const auto* name = st ? st->value->as<ast::Name>() : nullptr;
        Node* local = name != nullptr ? cur_.env.get(name->id) : nullptr;
        return local != nullptr && !lengthKnown(local);
    });
    if (unpackLater) {
        if (!c.keywords.empty()) {
            fail("RuntimeError", "irscope: keyword arguments with a starred argument of unknown length are not "
                 "supported yet in graph mode.", c.span);
        }
        std::vector<Node*> items{prim(meta::kUnpackCall), in[0]};
        std::vector<Node*> group{prim(meta::kMakeTuple)};
        auto flush = [&] {
            if (group.size() > 1) {
                items.push_back(cnode(group, c.span));
            }
            group.resize(1);
        };
        for (const ast::ExprPtr& a : c.args) {
            if (const auto* st = a->as<ast::Starred>()) {
                flush();
                items.push_back(expr(*st->value));
            } else {
                group.push_back(expr(*a));
            }
        }
        flush();
        return cnode(items, c.span);
    }
    for (const ast::ExprPtr& a : c.args) {
        if (const auto* st = a->as<ast::Starred>()) {
            Iterable it = iterable(*st->value);
            for (std::size_t i = 0; i < it.size; ++i) {
                in.push_back(it.at(i));
            }
            for (const std::string& h : it.hidden) {
                cur_.env.erase(h);
            }
            continue;
        }
        in.push_back(expr(*a));
    }
    std::vector<ValuePtr> kwNames;
    for (const ast::Keyword& k : c.keywords) {
        if (k.arg.empty()) {
            fail("RuntimeError", "Unsupported syntax '**' in a call in graph mode.", k.span);
        }
        in.push_back(expr(*k.value));
        kwNames.push_back(Value::string(k.arg));
    }
    if (auto it = inner_.find(in[0]); it != inner_.end()) {
        // An inner def or lambda: bind keywords and defaults now.
        std::vector<std::string> kws;
        for (const ValuePtr& k : kwNames) {
            kws.push_back(k->text);
        }
        std::vector<Node*> args(in.begin() + 1, in.end());
        std::vector<Node*> bound = bindInner(it->second, std::move(args), kws, c.span);
        bound.insert(bound.begin(), in[0]);
        return cnode(bound, c.span);
    }
    CNode* n = cnode(in, c.span);
    if (!kwNames.empty()) {
        n->attrs().set("keywords", Value::tuple(std::move(kwNames)));
    }
    return n;
}

Node* GraphBuilder::superMethod(const ast::Call& superCall, const std::string& method, const ast::Span& at) {
    // super() or super(Class, self): the class after Class (by default the method's defining
    // class) in the MRO of self's class.
    std::string owner = spec_.fn->qualname.substr(0, spec_.fn->qualname.rfind('.'));
    owner = owner.substr(owner.rfind('.') == std::string::npos ? 0 : owner.rfind('.') + 1);
    bool ok = !spec_.self.isNull() && (superCall.args.empty() || superCall.args.size() == 2);
    if (ok && superCall.args.size() == 2) {
        std::optional<interp::Value> cls = constValue(*superCall.args[0], false);
        ok = cls && cls->as<interp::Type>() != nullptr && isSelf(*superCall.args[1]);
        if (ok) {
            owner = cls->as<interp::Type>()->name;
        }
    }
    if (!ok) {
        fail("RuntimeError", "In graph mode, only super().method(...) or super(Class, self).method(...) inside a "
             "method is supported.", at);
    }
    const std::vector<interp::Type*>& mro = I.typeOf(spec_.self)->mro;
    std::size_t k = 0;
    while (k < mro.size() && mro[k]->name != owner) {
        ++k;
    }
    for (++k; k < mro.size(); ++k) {
        if (interp::DictObject* d = mro[k]->dict()) {
            interp::Value f = d->getStr(method);
            if (f.is<interp::FunctionObject>()) {
                auto bound = I.make<interp::BoundMethodObject>(I.types().boundMethod.get(), f, spec_.self);
                ValuePtr ns = s_.hostValue({HostEntry::Kind::Object, interp::Value(bound), spec_.scope},
                                           "NameSpace[SuperClass: '" + mro[k]->name + "']");
                return cnode({prim("resolve"), constant(ns), constant(Value::string(method))}, at);
            }
            if (!f.isNull()) {
                break;
            }
        }
    }
    fail("AttributeError", "'super' object has no attribute '" + method + "' with Python code to compile.", at);
}

Node* GraphBuilder::boolOp(const ast::BoolOp& b) {
    const bool isAnd = b.op == ast::BoolOperator::And;
    std::function<Node*(std::size_t)> from = [&](std::size_t k) -> Node* {
        if (k + 1 == b.values.size()) {
            return expr(*b.values[k]);
        }
        if (std::optional<bool> c = constCondition(*b.values[k])) {
            if (*c == isAnd) {
                return from(k + 1);
            }
            return expr(*b.values[k]);
        }
        Node* v = expr(*b.values[k]);
        Node* cond = meta(meta::kBool, {v}, b.values[k]->span);
        auto rest = [&, k](const std::vector<Node*>&) { return from(k + 1); };
        auto keep = [](const std::vector<Node*>& x) { return x[0]; };
        return isAnd ? branchValue(cond, {}, rest, {v}, keep, b.span) : branchValue(cond, {v}, keep, {}, rest, b.span);
    };
    return from(0);
}

Node* GraphBuilder::compare(const ast::Compare& c) {
    if (c.ops.size() == 1 && (c.ops[0] == ast::CmpOperator::Is || c.ops[0] == ast::CmpOperator::IsNot)) {
        if (std::optional<bool> folded = constCondition(c)) {
            return constant(Value::boolean(*folded));
        }
    }
    Node* left = expr(*c.left);
    std::function<Node*(std::size_t, Node*)> from = [&](std::size_t k, Node* l) -> Node* {
        Node* r = expr(*c.comparators[k]);
        Node* res = meta(compareMeta(c.ops[k]), {l, r}, c.span);
        if (k + 1 == c.ops.size()) {
            return res;
        }
        // a < b < c: the next comparison runs only when this one holds (b evaluated once).
        Node* cond = meta(meta::kBool, {res}, c.span);
        return branchValue(
            cond, {r}, [&, k](const std::vector<Node*>& x) { return from(k + 1, x[0]); }, {res},
            [](const std::vector<Node*>& x) { return x[0]; }, c.span);
    };
    return from(0, left);
}

Node* GraphBuilder::lambda(const ast::Lambda& l) {
    const interp::CodeInfo* code = unit_->codeOf(&l);
    if (code == nullptr || code->hasVarArgs || code->hasVarKw || !l.args.kwonlyargs.empty()) {
        fail("RuntimeError", "A lambda in graph mode may only have plain positional parameters.", l.span);
    }
    Env captured;
    for (const std::string& n : code->freeNames) {
        if (Node* v = cur_.env.get(n)) {
            captured.set(n, v);
        }
    }
    Block saved = cur_;
    std::vector<LoopCtx> savedLoops;
    std::swap(savedLoops, loops_);
    std::vector<Node*> args;
    Block inner = newBlock("lambda", captured, args, l.span);
    for (int k = 0; k < code->posCount; ++k) {
        const std::string& pn = code->varNames[static_cast<std::size_t>(k)];
        inner.env.set(pn, m_.addParameter(inner.g, pn));
    }
    cur_ = inner;
    Node* out = expr(*l.body);
    finish(cur_, out, l.body->span);
    cur_ = saved;
    std::swap(savedLoops, loops_);
    InnerSignature sig = innerSignature(*code, l.args);
    Node* fnValue = partialOrGraph(inner.g, args, l.span);
    inner_[fnValue] = std::move(sig);
    return fnValue;
}

}  // namespace irscope::compiler
