// Statements: assignment (names, tuple unpacking, subscripts), augmented assignment,
// return, expression statements (kept as isolated nodes), assert, nested defs, and the
// statements graph mode does not support (a CompileError naming the construct).
#include <algorithm>

#include "compiler/graph_builder_impl.h"
#include "frontend/modules/ms_objects.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::Node;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

std::string_view binaryMeta(ast::Operator op) {
    switch (op) {
        case ast::Operator::Add: return meta::kAdd;
        case ast::Operator::Sub: return meta::kSub;
        case ast::Operator::Mult: return meta::kMul;
        case ast::Operator::MatMult: return meta::kMatMul;
        case ast::Operator::Div: return meta::kDiv;
        case ast::Operator::Mod: return meta::kMod;
        case ast::Operator::Pow: return meta::kPow;
        case ast::Operator::BitOr: return meta::kBitOr;
        case ast::Operator::BitXor: return meta::kBitXor;
        case ast::Operator::BitAnd: return meta::kBitAnd;
        case ast::Operator::FloorDiv: return meta::kFloorDiv;
        case ast::Operator::LShift: return "left_shift";
        case ast::Operator::RShift: return "right_shift";
    }
    return meta::kAdd;
}

}  // namespace

std::string_view binaryMetaName(ast::Operator op) {
    return binaryMeta(op);
}

void GraphBuilder::statements(const ast::StmtList& body) {
    for (const ast::StmtPtr& st : body) {
        if (cur_.closed) {
            return;  // code after return/break/continue is unreachable
        }
        statement(*st);
    }
}

void GraphBuilder::statement(const ast::Stmt& st) {
    using K = ast::StmtKind;
    switch (st.kind) {
        case K::FunctionDef: functionDef(st.cast<ast::FunctionDef>()); return;
        case K::Return: {
            const auto& r = st.cast<ast::Return>();
            Node* out = r.value ? expr(*r.value) : constant(Value::none());
            finish(cur_, out, st.span);
            return;
        }
        case K::Assign: {
            const auto& a = st.cast<ast::Assign>();
            Node* v = expr(*a.value);
            for (const ast::ExprPtr& t : a.targets) {
                assign(*t, v, st.span);
            }
            if (auto* c = ir::nodeCast<ir::CNode>(v); c != nullptr && c->graph() == cur_.g && c->size() > 0 &&
                                                  c->primitive() == nullptr) {
                cur_.assignedCalls.push_back(c);
            }
            return;
        }
        case K::AnnAssign: {
            const auto& a = st.cast<ast::AnnAssign>();
            if (a.value) {
                assign(*a.target, expr(*a.value), st.span);
            }
            return;
        }
        case K::AugAssign: {
            const auto& a = st.cast<ast::AugAssign>();
            const std::string_view op = binaryMeta(a.op);
            if (const auto* n = a.target->as<ast::Name>()) {
                Node* old = name(*n);
                Node* rhs = expr(*a.value);
                assign(*a.target, meta(op, {old, rhs}, st.span), st.span);
                return;
            }
            if (const auto* sub = a.target->as<ast::Subscript>()) {
                Node* obj = expr(*sub->value);
                Node* idx = subscriptIndex(*sub->slice);
                Node* old = meta(meta::kGetItem, {obj, idx}, st.span);
                Node* rhs = expr(*a.value);
                Node* upd = meta(op, {old, rhs}, st.span);
                if (const auto* base = sub->value->as<ast::Name>(); base && cur_.env.get(base->id)) {
                    cur_.env.set(base->id, meta(meta::kSetItem, {obj, idx, upd}, st.span));
                    return;
                }
                fail("RuntimeError", "In graph mode, only a local variable can be updated with a subscript "
                     "assignment ('" + std::string(unit_->module->text(sub->value->span)) + "[...] " +
                     ast::symbol(a.op) + "= ...').", st.span);
            }
            if (const auto* attr = a.target->as<ast::Attribute>(); attr && isParameterAttribute(*attr)) {
                // `self.p += v`: Assign(self.p, self.p + v).
                Node* old = attribute(*attr);
                Node* rhs = expr(*a.value);
                assign(*a.target, meta(op, {old, rhs}, st.span), st.span);
                return;
            }
            assign(*a.target, nullptr, st.span);  // reports the unsupported target
            return;
        }
        case K::If: ifStmt(st.cast<ast::If>()); return;
        case K::While: whileStmt(st.cast<ast::While>()); return;
        case K::For: forStmt(st.cast<ast::For>()); return;
        case K::Break: breakOrContinue(true, st.span); return;
        case K::Continue: breakOrContinue(false, st.span); return;
        case K::Pass: return;
        case K::Expr: {
            const auto& e = st.cast<ast::ExprStmt>();
            if (e.value->kind == ast::ExprKind::Constant) {
                return;  // a docstring or a bare literal
            }
            Node* v = expr(*e.value);
            if (v->isCNode()) {
                cur_.isolated.push_back(v);
            }
            return;
        }
        case K::Assert: {
            const auto& a = st.cast<ast::Assert>();
            std::optional<bool> c = constCondition(*a.test);
            if (c && !*c) {
                std::string msg;
                if (a.msg) {
                    if (auto mv = constValue(*a.msg, false)) {
                        msg = I.str(*mv);
                    }
                }
                fail("AssertionError", msg, st.span);
            }
            // A condition only known at run time is not checked (graph mode has no raise yet).
            return;
        }
        case K::Raise: {
            const auto& r = st.cast<ast::Raise>();
            std::string type = "RuntimeError", msg;
            if (r.exc) {
                const ast::Expr* e = r.exc.get();
                const ast::Call* c = e->as<ast::Call>();
                if (c != nullptr) {
                    e = c->func.get();
                }
                if (auto t = constValue(*e, false); t && t->as<interp::Type>()) {
                    type = t->as<interp::Type>()->name;
                }
                if (c != nullptr && !c->args.empty()) {
                    if (auto mv = constValue(*c->args[0], false)) {
                        msg = I.str(*mv);
                    }
                }
            }
            // Reached unconditionally (constant conditions are folded): the compile fails with
            // it, as MindSpore's constant-condition raise does. Under a condition the parser
            // cannot decide (a parameter's value, known once type_inference specializes the
            // function) the branch ends in a raise node (meta::kRaise).
            if (blocks_.count(cur_.g) != 0) {
                const ast::Call* call = r.exc ? r.exc->as<ast::Call>() : nullptr;
                Node* message = msg.empty() && call != nullptr && !call->args.empty() ? expr(*call->args[0])
                                                                                      : constant(Value::string(msg));
                finish(cur_, meta(meta::kRaise, {constant(Value::string(type)), message}, st.span), st.span);
                return;
            }
            fail(type, msg, st.span);
        }
        case K::With: withStatement(st.cast<ast::With>()); return;
        case K::ClassDef:
        case K::Delete:
        case K::Try:
        case K::Import:
        case K::ImportFrom:
        case K::Global:
        case K::Nonlocal:
            fail("RuntimeError", std::string("Unsupported statement '") + ast::name(st.kind) + "'.", st.span);
    }
}

// `with a as x, b: body` on objects with __enter__ and __exit__ (jit_class instances): x =
// a.__enter__(), b.__enter__(), the body, then b.__exit__(None, None, None) and a's, as
// MindSpore's graph mode runs it (no exception reaches __exit__ in a graph, and a path that
// returns or breaks out of the body skips it). The bound __exit__ methods are taken before
// the body and kept in the environment under names no script can spell: a method is a graph
// value, which a body with control flow (continuing in other block graphs) passes on.
void GraphBuilder::withStatement(const ast::With& w) {
    std::vector<std::string> exits;
    for (const ast::WithItem& item : w.items) {
        Node* mgr = expr(*item.contextExpr);
        Node* enter = meta(meta::kGetAttr, {mgr, constant(Value::string("__enter__"))}, w.span);
        Node* exit = meta(meta::kGetAttr, {mgr, constant(Value::string("__exit__"))}, w.span);
        Node* entered = cnode({enter}, w.span);
        if (item.optionalVars) {
            assign(*item.optionalVars, entered, w.span);
        } else {
            cur_.isolated.push_back(entered);
        }
        exits.push_back("with-exit" + std::to_string(hiddenCount_++));
        cur_.env.set(exits.back(), exit);
    }
    statements(w.body);
    if (cur_.closed) {
        return;  // the body returned (or broke out): a path leaving early skips __exit__
    }
    for (auto it = exits.rbegin(); it != exits.rend(); ++it) {
        Node* none = constant(Value::none());
        cur_.isolated.push_back(cnode({cur_.env.get(*it), none, none, none}, w.span));
        cur_.env.erase(*it);
    }
}

// `out.append(v)`, `extend`, `insert`, `pop`, `reverse` and `clear` on a local list: the list
// is a value in graph mode, so the call rebinds the name to the new list (`out = out + [v]`,
// as MindSpore does) and gives what the method returns (pop's element, else None). nullptr
// when `c` is no such call.
Node* GraphBuilder::listMethod(const ast::Call& c) {
    const auto* method = c.func->as<ast::Attribute>();
    const auto* base = method != nullptr ? method->value->as<ast::Name>() : nullptr;
    Node* list = base != nullptr ? cur_.env.get(base->id) : nullptr;
    if (list == nullptr || !c.keywords.empty()) {
        return nullptr;
    }
    const std::string& name = method->attr;
    const std::size_t n = c.args.size();
    const bool known = ((name == "append" || name == "extend") && n == 1) ||
                       (name == "insert" && n == 2) || (name == "pop" && n <= 1) ||
                       ((name == "reverse" || name == "clear") && n == 0);
    if (!known) {
        return nullptr;
    }
    const ast::Span& at = c.span;
    Node* none = constant(Value::none());
    auto slice = [&](Node* start, Node* stop, Node* step) {
        return meta(meta::kGetItem, {list, meta(meta::kMakeSlice, {start, stop, step}, at)}, at);
    };
    // A position as a non-negative index (pop(-1) is the last element's).
    auto position = [&](Node* i) {
        Node* len = meta(meta::kLen, {list}, at);
        Node* negative = meta(meta::kLess, {i, constant(Value::integer(0))}, at);
        return meta(meta::kAdd, {i, meta(meta::kMul, {negative, len}, at)}, at);
    };
    Node* result = none;
    Node* updated = nullptr;
    if (name == "append" || name == "extend") {
        Node* arg = expr(*c.args[0]);
        updated = meta(meta::kAdd, {list, meta(name == "append" ? meta::kMakeList : meta::kToList, {arg}, at)}, at);
    } else if (name == "insert") {
        Node* i = expr(*c.args[0]);
        Node* v = expr(*c.args[1]);
        updated = meta(meta::kAdd,
                       {meta(meta::kAdd, {slice(none, i, none), meta(meta::kMakeList, {v}, at)}, at),
                        slice(i, none, none)},
                       at);
    } else if (name == "pop") {
        Node* k = position(n == 1 ? expr(*c.args[0]) : constant(Value::integer(-1)));
        result = meta(meta::kGetItem, {list, k}, at);
        updated = meta(meta::kAdd,
                       {slice(none, k, none),
                        slice(meta(meta::kAdd, {k, constant(Value::integer(1))}, at), none, none)},
                       at);
    } else if (name == "reverse") {
        updated = slice(none, none, constant(Value::integer(-1)));
    } else {
        updated = meta(meta::kMakeList, {}, at);
    }
    cur_.env.set(base->id, updated);
    return result;
}

void GraphBuilder::assign(const ast::Expr& target, Node* value, const ast::Span& at) {
    switch (target.kind) {
        case ast::ExprKind::Name: {
            const std::string& id = target.cast<ast::Name>().id;
            // MindSpore's debug name for the node bound to a variable: CNode_<id>$<name>.
            if (auto* c = ir::nodeCast<ir::CNode>(value); c && c->graph() == cur_.g && c->debug().name.empty()) {
                c->mutableDebug().name = "CNode_" + std::to_string(c->id()) + "$" + id;
            }
            cur_.env.set(id, value);
            return;
        }
        case ast::ExprKind::Tuple:
        case ast::ExprKind::List: {
            const ast::ExprList& elts = target.kind == ast::ExprKind::Tuple ? target.cast<ast::Tuple>().elts
                                                                             : target.cast<ast::List>().elts;
            for (std::size_t i = 0; i < elts.size(); ++i) {
                if (elts[i]->kind == ast::ExprKind::Starred) {
                    fail("RuntimeError", "Unsupported syntax 'Starred' in an assignment target.", elts[i]->span);
                }
                Node* item = meta(meta::kGetItem, {value, constant(Value::integer(static_cast<std::int64_t>(i)))}, at);
                assign(*elts[i], item, at);
            }
            return;
        }
        case ast::ExprKind::Subscript: {
            const auto& sub = target.cast<ast::Subscript>();
            const auto* base = sub.value->as<ast::Name>();
            const auto* attr = sub.value->as<ast::Attribute>();
            if (sub.value->kind == ast::ExprKind::Subscript || (attr != nullptr && isParameterAttribute(*attr))) {
                // `x[i][j] = v` is `x[i] = setitem(x[i], j, v)`, and `self.p[i] = v` on a
                // Parameter assigns `setitem(self.p, i, v)` to it: the value is rebuilt
                // outwards to a local variable or a Parameter.
                Node* current = expr(*sub.value);
                Node* idx = subscriptIndex(*sub.slice);
                assign(*sub.value, meta(meta::kSetItem, {current, idx, value}, at), at);
                return;
            }
            if (base == nullptr || cur_.env.get(base->id) == nullptr) {
                fail("RuntimeError", "In graph mode, only a local variable supports subscript assignment, not '" +
                     std::string(unit_->module->text(sub.value->span)) + "'.", target.span);
            }
            Node* obj = cur_.env.get(base->id);
            Node* idx = subscriptIndex(*sub.slice);
            cur_.env.set(base->id, meta(meta::kSetItem, {obj, idx, value}, at));
            return;
        }
        case ast::ExprKind::Attribute: {
            const auto& a = target.cast<ast::Attribute>();
            if (value != nullptr && isParameterAttribute(a)) {
                // `self.p = v` on a Parameter: MindSpore's parser makes it Assign(self.p, v), a
                // statement with a side effect that auto_monad orders with the others.
                cur_.isolated.push_back(cnode({prim("Assign"), attribute(a), value}, at));
                return;
            }
            fail("RuntimeError", "In graph mode, the attribute '" + a.attr + "' of '" +
                 std::string(unit_->module->text(a.value->span)) +
                 "' cannot be assigned: only a Parameter attribute of 'self' can (it becomes an Assign); "
                 "assigning other attributes in construct is not supported yet.", target.span);
        }
        default:
            fail("RuntimeError", std::string("Unsupported syntax '") + ast::name(target.kind) +
                 "' as an assignment target.", target.span);
    }
}

bool GraphBuilder::isParameterAttribute(const ast::Attribute& a) {
    if (!isSelf(*a.value) || spec_.self.isNull()) {
        return false;
    }
    interp::Value v;
    try {
        v = I.getAttrOrNull(spec_.self, a.attr);
    } catch (const interp::PyError&) {
        return false;
    }
    return !v.isNull() && modules::isParameter(v);
}

void GraphBuilder::functionDef(const ast::FunctionDef& d) {
    if (!d.decorators.empty()) {
        fail("RuntimeError", "Decorated functions defined inside a graph are not supported ('" + d.name + "').", d.span);
    }
    const interp::CodeInfo* code = unit_->codeOf(&d);
    if (code == nullptr || code->hasVarArgs || code->hasVarKw || !d.args.kwonlyargs.empty()) {
        fail("RuntimeError", "The inner function '" + d.name + "' may only have plain positional parameters in graph mode.",
             d.span);
    }
    // Captured variables become the graph's leading parameters, bound by a Partial.
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
    Block inner = newBlock(d.name, captured, args, d.span);
    for (int k = 0; k < code->posCount; ++k) {
        const std::string& pn = code->varNames[static_cast<std::size_t>(k)];
        inner.env.set(pn, m_.addParameter(inner.g, pn));
    }
    cur_ = inner;
    statements(d.body);
    if (!cur_.closed) {
        finish(cur_, constant(Value::none()), d.body.back()->span);
    }
    cur_ = saved;
    std::swap(savedLoops, loops_);
    InnerSignature sig = innerSignature(*code, d.args);
    Node* fnValue = args.empty() ? graphValue(inner.g) : partial(inner.g, args, d.span);
    inner_[fnValue] = std::move(sig);
    cur_.env.set(d.name, fnValue);
}

GraphBuilder::InnerSignature GraphBuilder::innerSignature(const interp::CodeInfo& code, const ast::Arguments& a) {
    InnerSignature sig;
    for (int k = 0; k < code.posCount; ++k) {
        sig.names.push_back(code.varNames[static_cast<std::size_t>(k)]);
    }
    sig.defaults.assign(sig.names.size(), nullptr);
    for (std::size_t k = 0; k < a.defaults.size() && k < sig.names.size(); ++k) {
        const ast::Expr& e = *a.defaults[a.defaults.size() - 1 - k];
        std::optional<interp::Value> v = constValue(e, false);
        ValuePtr c = v ? irConstant(*v) : nullptr;
        if (!c) {
            fail("RuntimeError", "In graph mode, a default argument of an inner function must be a constant.", e.span);
        }
        sig.defaults[sig.names.size() - 1 - k] = c;
    }
    return sig;
}

std::vector<Node*> GraphBuilder::bindInner(const InnerSignature& sig, std::vector<Node*> args,
                                           const std::vector<std::string>& kws, const ast::Span& at) {
    const std::size_t npos = args.size() - kws.size();
    if (npos > sig.names.size()) {
        fail("TypeError", "The inner function takes " + std::to_string(sig.names.size()) +
             " positional arguments but " + std::to_string(npos) + " were given", at);
    }
    std::vector<Node*> bound(sig.names.size(), nullptr);
    for (std::size_t i = 0; i < npos; ++i) {
        bound[i] = args[i];
    }
    for (std::size_t k = 0; k < kws.size(); ++k) {
        auto it = std::find(sig.names.begin(), sig.names.end(), kws[k]);
        if (it == sig.names.end()) {
            fail("TypeError", "The inner function got an unexpected keyword argument '" + kws[k] + "'", at);
        }
        bound[static_cast<std::size_t>(it - sig.names.begin())] = args[npos + k];
    }
    for (std::size_t i = 0; i < bound.size(); ++i) {
        if (bound[i] == nullptr) {
            if (!sig.defaults[i]) {
                fail("TypeError", "The inner function is missing the argument '" + sig.names[i] + "'", at);
            }
            bound[i] = constant(sig.defaults[i]);
        }
    }
    return bound;
}

}  // namespace irscope::compiler
