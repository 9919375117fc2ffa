// What parse knows before any type inference: constant expressions (literals, `is None`
// on known values, constant attributes of self and constant globals, arithmetic on them)
// and the iterables a `for` or a comprehension unrolls over.
#include "compiler/graph_builder_impl.h"
#include "frontend/interp/complex.h"
#include "frontend/modules/ms_objects.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::Node;
using ir::Value;
namespace meta = passes::meta;

namespace {

bool plainScalar(const interp::Value& v) {
    return v.isNone() || v.isBool() || v.isInt() || v.isFloat() || v.is<interp::StrObject>();
}

}  // namespace

std::optional<interp::Value> GraphBuilder::constValue(const ast::Expr& e, bool useKnown) {
    using K = ast::ExprKind;
    try {
        switch (e.kind) {
            case K::Constant: {
                const auto& c = e.cast<ast::Constant>();
                switch (c.type) {
                    case ast::Constant::Type::None: return interp::Value::none();
                    case ast::Constant::Type::Bool: return interp::Value::boolean(c.boolValue);
                    case ast::Constant::Type::Int:
                        if (c.intOverflow) {
                            return std::nullopt;
                        }
                        return interp::Value::integer(c.intValue);
                    case ast::Constant::Type::Float: return interp::Value::real(c.floatValue);
                    case ast::Constant::Type::Complex: return interp::newComplex(I, {0.0, c.floatValue});
                    case ast::Constant::Type::Str: return interp::Value(I.newStr(c.strValue));
                    case ast::Constant::Type::Ellipsis: return I.ellipsis();
                }
                return std::nullopt;
            }
            case K::Name: {
                const auto& n = e.cast<ast::Name>();
                if (Node* v = cur_.env.get(n.id)) {
                    auto it = known_.find(v);
                    if (useKnown && it != known_.end()) {
                        return it->second;
                    }
                    if (const auto* vn = ir::nodeCast<ir::ValueNode>(v)) {
                        const Value& c = *vn->value();
                        switch (c.kind) {
                            case Value::Kind::None: return interp::Value::none();
                            case Value::Kind::Bool: return interp::Value::boolean(c.b);
                            case Value::Kind::Int: return interp::Value::integer(c.i);
                            case Value::Kind::Float: return interp::Value::real(c.f);
                            case Value::Kind::String: return interp::Value(I.newStr(c.text));
                            default: return std::nullopt;
                        }
                    }
                    return std::nullopt;
                }
                if (!selfName_.empty() && n.id == selfName_) {
                    return spec_.self;
                }
                const interp::CodeInfo* code = spec_.fn->code;
                if (code != nullptr && code->slotOf(n.id) >= 0) {
                    return std::nullopt;
                }
                interp::Value v = lookupHostName(n.id);
                return v.isNull() ? std::nullopt : std::optional<interp::Value>(v);
            }
            case K::Attribute: {
                const auto& a = e.cast<ast::Attribute>();
                // A compile is per input shape: the shape and rank of an input are constants.
                const bool shapeLike = a.attr == "shape" || a.attr == "ndim";
                std::optional<interp::Value> obj = constValue(*a.value, useKnown || shapeLike);
                if (!obj || (modules::tensorOf(*obj) != nullptr && !shapeLike)) {
                    return std::nullopt;  // other tensor attributes are type inference's
                }
                interp::Value v = I.getAttrOrNull(*obj, a.attr);
                if (!v.isNull() && isSelf(*a.value) && !spec_.constantsFrom.isNull() && !modules::isCell(v) &&
                    modules::tensorOf(v) == nullptr) {
                    interp::Value shared = I.getAttrOrNull(spec_.constantsFrom, a.attr);
                    v = shared.isNull() ? v : shared;
                }
                return v.isNull() ? std::nullopt : std::optional<interp::Value>(v);
            }
            case K::UnaryOp: {
                const auto& u = e.cast<ast::UnaryOp>();
                std::optional<interp::Value> x = constValue(*u.operand, useKnown);
                if (!x || !plainScalar(*x)) {
                    return std::nullopt;
                }
                return I.unaryOp(u.op, *x);
            }
            case K::BinOp: {
                const auto& b = e.cast<ast::BinOp>();
                std::optional<interp::Value> l = constValue(*b.left, useKnown);
                std::optional<interp::Value> r = constValue(*b.right, useKnown);
                if (!l || !r || !(plainScalar(*l) || l->is<interp::TupleObject>()) ||
                    !(plainScalar(*r) || r->is<interp::TupleObject>())) {
                    return std::nullopt;
                }
                return I.binaryOp(b.op, *l, *r);
            }
            case K::Compare: {
                const auto& c = e.cast<ast::Compare>();
                if (c.ops.size() != 1) {
                    return std::nullopt;
                }
                const bool identity = c.ops[0] == ast::CmpOperator::Is || c.ops[0] == ast::CmpOperator::IsNot;
                std::optional<interp::Value> l = constValue(*c.left, useKnown || identity);
                std::optional<interp::Value> r = constValue(*c.comparators[0], useKnown || identity);
                if (!l || !r) {
                    return std::nullopt;
                }
                if (!identity && !(plainScalar(*l) && plainScalar(*r))) {
                    return std::nullopt;
                }
                return I.compare(c.ops[0], *l, *r);
            }
            case K::Tuple: {
                std::vector<interp::Value> items;
                for (const ast::ExprPtr& x : e.cast<ast::Tuple>().elts) {
                    std::optional<interp::Value> v = constValue(*x, useKnown);
                    if (!v) {
                        return std::nullopt;
                    }
                    items.push_back(*v);
                }
                return interp::Value(I.newTuple(std::move(items)));
            }
            case K::Slice: {
                const auto& sl = e.cast<ast::Slice>();
                interp::CallArgs parts;
                for (const ast::Expr* p : {sl.lower.get(), sl.upper.get(), sl.step.get()}) {
                    std::optional<interp::Value> v = p ? constValue(*p, useKnown) : interp::Value::none();
                    if (!v) {
                        return std::nullopt;
                    }
                    parts.pos.push_back(*v);
                }
                return I.call(interp::Value(I.types().slice.get()), std::move(parts));
            }
            case K::Subscript: {
                const auto& s = e.cast<ast::Subscript>();
                std::optional<interp::Value> obj = constValue(*s.value, useKnown);
                std::optional<interp::Value> idx = constValue(*s.slice, useKnown);
                if (!obj || !idx || modules::tensorOf(*obj) != nullptr) {
                    return std::nullopt;
                }
                return I.getItem(*obj, *idx);
            }
            case K::Call: {
                const auto& c = e.cast<ast::Call>();
                const auto* fn = c.func->as<ast::Name>();
                if (fn == nullptr || !c.keywords.empty() || cur_.env.get(fn->id) != nullptr) {
                    return std::nullopt;
                }
                interp::Value f = lookupHostName(fn->id);
                interp::Value builtin = I.builtins().getStr(fn->id);
                if (f.isNull() || !f.identical(builtin) || (fn->id != "len" && fn->id != "range")) {
                    return std::nullopt;
                }
                interp::CallArgs args;
                for (const ast::ExprPtr& a : c.args) {
                    std::optional<interp::Value> v = constValue(*a, true);
                    if (!v) {
                        return std::nullopt;
                    }
                    args.pos.push_back(*v);
                }
                if (fn->id == "range") {
                    for (const interp::Value& v : args.pos) {
                        if (!v.isIntLike()) {
                            return std::nullopt;
                        }
                    }
                }
                return I.call(f, std::move(args));
            }
            case K::JoinedStr: {
                std::string out;
                for (const ast::ExprPtr& part : e.cast<ast::JoinedStr>().values) {
                    if (const auto* c = part->as<ast::Constant>()) {
                        out += c->strValue;
                        continue;
                    }
                    const auto& fv = part->cast<ast::FormattedValue>();
                    std::optional<interp::Value> v = constValue(*fv.value, false);
                    if (!v || !plainScalar(*v)) {
                        return std::nullopt;
                    }
                    std::string spec;
                    if (fv.formatSpec) {
                        std::optional<interp::Value> sv = constValue(*fv.formatSpec, false);
                        if (!sv) {
                            return std::nullopt;
                        }
                        spec = I.str(*sv);
                    }
                    interp::Value shown = *v;
                    if (fv.conversion == 'r' || fv.conversion == 'a') {
                        shown = interp::Value(I.newStr(I.repr(*v)));
                    } else if (fv.conversion == 's') {
                        shown = interp::Value(I.newStr(I.str(*v)));
                    }
                    out += I.format(shown, spec);
                }
                return interp::Value(I.newStr(out));
            }
            default: return std::nullopt;
        }
    } catch (const interp::PyError&) {
        return std::nullopt;
    }
}

std::optional<bool> GraphBuilder::constCondition(const ast::Expr& e) {
    if (const auto* u = e.as<ast::UnaryOp>(); u && u->op == ast::UnaryOperator::Not) {
        std::optional<bool> c = constCondition(*u->operand);
        return c ? std::optional<bool>(!*c) : std::nullopt;
    }
    if (const auto* b = e.as<ast::BoolOp>()) {
        const bool isAnd = b->op == ast::BoolOperator::And;
        for (const ast::ExprPtr& v : b->values) {
            std::optional<bool> c = constCondition(*v);
            if (!c) {
                return std::nullopt;
            }
            if (*c != isAnd) {
                return !isAnd;
            }
        }
        return isAnd;
    }
    if (const auto* c = e.as<ast::Compare>(); c && c->ops.size() == 1 &&
                                             (c->ops[0] == ast::CmpOperator::Is || c->ops[0] == ast::CmpOperator::IsNot)) {
        std::optional<interp::Value> v = constValue(e, true);
        if (v && v->isBool()) {
            return v->asBool();
        }
        return std::nullopt;
    }
    // Other conditions fold only on host constants (self.flag, a global), never on inputs.
    std::optional<interp::Value> v = constValue(e, false);
    if (!v) {
        return std::nullopt;
    }
    if (v->isNone() || v->isBool() || v->isInt() || v->isFloat() || v->is<interp::StrObject>() ||
        v->is<interp::TupleObject>() || v->is<interp::ListObject>()) {
        try {
            return I.truthy(*v);
        } catch (const interp::PyError&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::int64_t GraphBuilder::knownLength(Node* seq) const {
    if (const std::int64_t n = s_.sequenceLength(seq); n >= 0) {
        return n;
    }
    if (auto k = known_.find(seq); k != known_.end()) {
        const interp::Value& hv = k->second;
        if (hv.is<interp::TupleObject>() || hv.is<interp::ListObject>()) {
            return I.len(hv);
        }
        if (const ir::Tensor* t = modules::tensorOf(hv); t && t->rank() > 0) {
            return t->shape().dims[0];  // iterating an input tensor: its rows (the shape is fixed per compile)
        }
    }
    return -1;
}

std::string GraphBuilder::unknownLengthMessage(const ast::Expr& iter) const {
    return "In graph mode, a for loop or comprehension must iterate over a tuple, list, range or CellList whose "
           "length is known at compile time: '" + std::string(unit_->module->text(iter.span)) + "'.";
}

GraphBuilder::Iterable GraphBuilder::unknownLength(const ast::Expr& iter) {
    // An error only if this code is reached once the function is specialized (the branch of an
    // `isinstance` on the argument that passed a tuple may hold the loop): a raise node
    // type_inference reports wherever it meets it; the loop runs no iteration.
    Iterable it;
    it.unknownLength = meta(meta::kRaise,
                            {constant(Value::string("RuntimeError")), constant(Value::string(unknownLengthMessage(iter))),
                             constant(Value::boolean(true))},
                            iter.span);
    cur_.isolated.push_back(it.unknownLength);
    it.at = [](std::size_t) -> Node* { return nullptr; };
    return it;
}

GraphBuilder::Iterable GraphBuilder::countedIterable(const ast::Expr& iter, Node* seq) {
    Iterable it;
    Node* message = constant(Value::string(unknownLengthMessage(iter)));
    // A value the items need in the loop's blocks: a constant is emitted again where needed,
    // anything else travels as a hidden variable.
    auto carry = [this, &it](Node* n) -> std::function<Node*()> {
        if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
            return [this, v = vn->value()] { return constant(v); };
        }
        it.hidden.push_back("for-iter" + std::to_string(hiddenCount_++));
        cur_.env.set(it.hidden.back(), n);
        return [this, h = it.hidden.back()] { return cur_.env.get(h); };
    };
    if (seq != nullptr) {
        it.length = meta(meta::kLoopLength, {message, seq}, iter.span);
        it.item = [this, seq = carry(seq), sp = iter.span](Node* i) -> Node* {
            return meta(meta::kGetItem, {seq(), i}, sp);
        };
        return it;
    }
    const auto& c = iter.cast<ast::Call>();
    // range(start, stop, step): index arithmetic, no range object.
    std::vector<Node*> bounds;
    for (const ast::ExprPtr& a : c.args) {
        bounds.push_back(expr(*a));
    }
    if (bounds.size() == 1) {
        bounds.insert(bounds.begin(), constant(Value::integer(0)));
    }
    if (bounds.size() == 2) {
        bounds.push_back(constant(Value::integer(1)));
    }
    it.length = meta(meta::kLoopLength, {message, bounds[0], bounds[1], bounds[2]}, iter.span);
    auto isInt = [](Node* n, std::int64_t k) {
        const auto* vn = ir::nodeCast<ir::ValueNode>(n);
        return vn != nullptr && vn->value()->kind == Value::Kind::Int && vn->value()->i == k;
    };
    const bool fromZero = isInt(bounds[0], 0);
    const bool unitStep = isInt(bounds[2], 1);
    it.item = [this, start = carry(bounds[0]), step = carry(bounds[2]), fromZero, unitStep,
               sp = iter.span](Node* i) -> Node* {
        Node* k = unitStep ? i : meta(meta::kMul, {i, step()}, sp);
        return fromZero ? k : meta(meta::kAdd, {start(), k}, sp);
    };
    return it;
}

GraphBuilder::Iterable GraphBuilder::countedZip(const ast::Expr& iter, std::vector<Iterable> parts) {
    Iterable it;
    std::vector<Node*> lengths;
    for (Iterable& p : parts) {
        it.hidden.insert(it.hidden.end(), p.hidden.begin(), p.hidden.end());
        if (!p.item && !p.host.isNull() && !modules::isCell(p.host)) {
            // A host sequence beside a counted one: indexed at run time as a constant tuple.
            if (ir::ValuePtr whole = irConstant(interp::Value(I.newTuple(I.toVector(p.host))))) {
                p.item = [this, whole, sp = iter.span](Node* i) -> Node* {
                    return meta(meta::kGetItem, {constant(whole), i}, sp);
                };
            }
        }
        if (!p.item) {
            Iterable unknown = unknownLength(iter);
            unknown.hidden = it.hidden;
            return unknown;
        }
        lengths.push_back(p.counted() ? p.length : constant(Value::integer(static_cast<std::int64_t>(p.size))));
    }
    it.length = lengths.size() == 1 ? lengths[0] : meta(meta::kMin, lengths, iter.span);
    it.item = [this, parts = std::make_shared<std::vector<Iterable>>(std::move(parts)),
               sp = iter.span](Node* i) -> Node* {
        std::vector<Node*> items{prim(meta::kMakeTuple)};
        for (Iterable& p : *parts) {
            items.push_back(p.item(i));
        }
        return cnode(items, sp);
    };
    return it;
}

GraphBuilder::Iterable GraphBuilder::iterable(const ast::Expr& iter, bool counted) {
    Iterable it;
    // enumerate(x) / zip(a, b): built from the iterables of their arguments.
    if (const auto* c = iter.as<ast::Call>(); c && c->keywords.empty()) {
        if (const auto* fn = c->func->as<ast::Name>(); fn && cur_.env.get(fn->id) == nullptr) {
            interp::Value f = lookupHostName(fn->id);
            interp::Value builtin = I.builtins().getStr(fn->id);
            const bool isBuiltin = !f.isNull() && f.identical(builtin);
            if (isBuiltin && fn->id == "enumerate" && c->args.size() == 1) {
                auto inner = std::make_shared<Iterable>(iterable(*c->args[0], counted));
                it.size = inner->size;
                it.hidden = inner->hidden;
                it.unknownLength = inner->unknownLength;
                it.length = inner->length;
                it.at = [this, inner, sp = iter.span](std::size_t i) -> Node* {
                    Node* idx = constant(Value::integer(static_cast<std::int64_t>(i)));
                    return cnode({prim(meta::kMakeTuple), idx, inner->at(i)}, sp);
                };
                if (inner->item) {
                    it.item = [this, inner, sp = iter.span](Node* i) -> Node* {
                        return cnode({prim(meta::kMakeTuple), i, inner->item(i)}, sp);
                    };
                }
                return it;
            }
            if (isBuiltin && fn->id == "zip" && !c->args.empty()) {
                auto parts = std::make_shared<std::vector<Iterable>>();
                std::size_t n = SIZE_MAX;
                bool anyCounted = false;
                for (const ast::ExprPtr& a : c->args) {
                    parts->push_back(iterable(*a, counted));
                    n = std::min(n, parts->back().size);
                    it.hidden.insert(it.hidden.end(), parts->back().hidden.begin(), parts->back().hidden.end());
                    anyCounted = anyCounted || parts->back().counted();
                    if (parts->back().unknownLength != nullptr) {
                        it.unknownLength = parts->back().unknownLength;
                    }
                }
                if (anyCounted && it.unknownLength == nullptr) {
                    return countedZip(iter, std::move(*parts));
                }
                it.size = n;
                it.at = [this, parts, sp = iter.span](std::size_t i) -> Node* {
                    std::vector<Node*> items{prim(meta::kMakeTuple)};
                    for (Iterable& p : *parts) {
                        items.push_back(p.at(i));
                    }
                    return cnode(items, sp);
                };
                return it;
            }
        }
    }
    // A host sequence known now (range(3), self.blocks, a constant tuple): re-evaluated per
    // iteration in the current block (it reads no local variable).
    const auto* nm = iter.as<ast::Name>();
    const bool local = nm != nullptr && cur_.env.get(nm->id) != nullptr;
    if (!local) {
        if (std::optional<interp::Value> v = constValue(iter, false)) {
            interp::Value seq = *v;
            std::int64_t n = -1;
            try {
                if (seq.is<interp::DictObject>()) {
                    seq = interp::Value(I.newTuple(I.toVector(seq)));  // iterating a dict: its keys
                }
                if (seq.is<interp::RangeObject>() || seq.is<interp::TupleObject>() || seq.is<interp::ListObject>() ||
                    modules::isCell(seq)) {
                    n = I.len(seq);
                }
            } catch (const interp::PyError&) {
                n = -1;
            }
            if (n >= 0) {
                it.size = static_cast<std::size_t>(n);
                it.host = seq;
                const ast::Expr* e = &iter;
                it.at = [this, seq, e](std::size_t i) -> Node* {
                    interp::Value item = I.getItem(seq, interp::Value::integer(static_cast<std::int64_t>(i)));
                    if (ir::ValuePtr c = irConstant(item)) {
                        return constant(c);
                    }
                    Node* s = expr(*e);
                    return meta(meta::kGetItem, {s, constant(Value::integer(static_cast<std::int64_t>(i)))}, e->span);
                };
                return it;
            }
        }
    }
    // range(...) whose bounds only type inference knows.
    if (const auto* c = iter.as<ast::Call>(); counted && c != nullptr) {
        const auto* fn = c->func->as<ast::Name>();
        if (fn != nullptr && fn->id == "range" && cur_.env.get(fn->id) == nullptr && c->keywords.empty() &&
            !c->args.empty() && c->args.size() <= 3 &&
            lookupHostName("range").identical(I.builtins().getStr("range")) &&
            std::none_of(c->args.begin(), c->args.end(),
                         [](const ast::ExprPtr& a) { return a->kind == ast::ExprKind::Starred; })) {
            return countedIterable(iter, nullptr);
        }
    }
    // A run-time value whose length is known: a tuple/list argument or display.
    Node* seq = expr(iter);
    const std::int64_t n = knownLength(seq);
    if (n < 0) {
        return counted ? countedIterable(iter, seq) : unknownLength(iter);
    }
    if (s_.paramLengths.count(seq) != 0) {
        lengthsUsed_.try_emplace(seq, iter.span);
    }
    it.size = static_cast<std::size_t>(n);
    it.hidden.push_back("for-iter" + std::to_string(hiddenCount_++));
    cur_.env.set(it.hidden.back(), seq);
    it.at = [this, hidden = it.hidden.back(), sp = iter.span](std::size_t i) -> Node* {
        Node* s = cur_.env.get(hidden);
        return meta(meta::kGetItem, {s, constant(Value::integer(static_cast<std::int64_t>(i)))}, sp);
    };
    it.item = [this, hidden = it.hidden.back(), sp = iter.span](Node* i) -> Node* {
        return meta(meta::kGetItem, {cur_.env.get(hidden), i}, sp);
    };
    return it;
}

}  // namespace irscope::compiler
