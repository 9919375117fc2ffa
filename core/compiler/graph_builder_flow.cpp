// Control flow: if/elif/else (constant conditions folded, otherwise Switch of Partials and a
// `↓` continuation), while (`↵` header, `↻` body, `↓` after), for (unrolled over an
// iterable whose length is known when parsing, else a counter while loop that type inference
// unrolls), break/continue, and the branch graphs of and/or/ternaries.
#include <set>

#include "compiler/graph_builder_impl.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
namespace meta = passes::meta;

Node* GraphBuilder::partialOrGraph(FuncGraph* g, const std::vector<Node*>& args, const ast::Span& at) {
    return args.empty() ? graphValue(g) : partial(g, args, at);
}

void GraphBuilder::ifStmt(const ast::If& st) {
    branches(*st.test, [&] { statements(st.body); }, [&] { statements(st.orelse); }, st.span);
}

void GraphBuilder::branches(const ast::Expr& test, const std::function<void()>& onTrue,
                            const std::function<void()>& onFalse, const ast::Span& at) {
    if (std::optional<bool> c = constCondition(test)) {
        (*c ? onTrue : onFalse)();
        return;
    }
    Node* cond = meta(meta::kBool, {expr(test)}, test.span);
    Block parent = cur_;
    const std::string parentName = parent.g->name();
    std::vector<Node*> targs, fargs;
    Block t = newBlock("✓" + parentName, parent.env, targs, at);
    Block f = newBlock("✗" + parentName, parent.env, fargs, at);
    cur_ = t;
    onTrue();
    Block tEnd = cur_;
    cur_ = f;
    onFalse();
    Block fEnd = cur_;
    cur_ = parent;
    Node* sw = cnode({prim("Switch"), cond, partialOrGraph(t.g, targs, at), partialOrGraph(f.g, fargs, at)}, at);
    finish(cur_, cnode({sw}, at), at);
    std::vector<PendingJump> jumps;
    for (Block* b : {&tEnd, &fEnd}) {
        if (!b->closed) {
            jumps.push_back({*b, nullptr});
        }
    }
    cur_ = joinJumps(std::move(jumps), "↓" + parentName, at);
}

void GraphBuilder::whileStmt(const ast::While& st) {
    if (!st.orelse.empty()) {
        fail("RuntimeError", "The 'while...else...' statement is not supported now.", st.span);
    }
    if (std::optional<bool> c = constCondition(*st.test); c && !*c) {
        return;
    }
    loop(st.span, st.test->span, [&] { return expr(*st.test); }, [&] { statements(st.body); });
}

void GraphBuilder::loop(const ast::Span& at, const ast::Span& condAt, const std::function<Node*()>& condition,
                        const std::function<void()>& bodyStatements) {
    const std::string parentName = cur_.g->name();
    std::vector<std::string> names;
    for (const auto& kv : cur_.env.vars) {
        names.push_back(kv.first);
    }
    std::vector<Node*> hargs;
    Block h = newBlock("↵" + parentName, cur_.env, hargs, at);
    tailCall(cur_, h.g, names, at);

    cur_ = h;
    Node* cond = meta(meta::kBool, {condition()}, condAt);
    std::vector<Node*> bargs;
    Block body = newBlock("↻" + parentName, cur_.env, bargs, at);
    Node* enter = partialOrGraph(body.g, bargs, at);
    Block header = cur_;

    loops_.push_back(LoopCtx{true, h.g, names, {}, {}});
    cur_ = body;
    bodyStatements();
    if (!cur_.closed) {
        tailCall(cur_, h.g, names, at);
    }
    LoopCtx lc = std::move(loops_.back());
    loops_.pop_back();

    std::vector<PendingJump> jumps;
    PendingJump exitPath{header, [this, cond, enter, at](FuncGraph* target, std::vector<Node*> args) {
                             Node* leave = partialOrGraph(target, args, at);
                             Node* sw = cnode({prim("Switch"), cond, enter, leave}, at);
                             finish(cur_, cnode({sw}, at), at);
                         }};
    jumps.push_back(std::move(exitPath));
    for (PendingJump& b : lc.breaks) {
        jumps.push_back(std::move(b));
    }
    cur_ = joinJumps(std::move(jumps), "↓" + parentName, at);
}

void GraphBuilder::countedLoop(const ast::Span& at, const Iterable& it, const std::function<void(Node*)>& body) {
    const std::string count = "for-n" + std::to_string(hiddenCount_);
    const std::string index = "for-i" + std::to_string(hiddenCount_++);
    cur_.env.set(count, it.length);
    cur_.env.set(index, constant(Value::integer(0)));
    loop(
        at, at, [&] { return meta(meta::kLess, {cur_.env.get(index), cur_.env.get(count)}, at); },
        [&] {
            Node* i = cur_.env.get(index);
            cur_.env.set(index, meta(meta::kAdd, {i, constant(Value::integer(1))}, at));
            body(it.item(i));
        });
    if (!cur_.closed) {
        cur_.env.erase(count);
        cur_.env.erase(index);
    }
}

namespace {

// The names a statement binds in its function (assignment targets, loop targets, `with ...
// as`, walrus), not looking into nested functions, classes, lambdas or comprehensions.
void boundNames(const ast::Stmt& s, std::set<std::string>& out) {
    if (s.kind == ast::StmtKind::FunctionDef || s.kind == ast::StmtKind::ClassDef) {
        return;  // binds its name, which the builder does not carry through loops
    }
    std::function<void(const ast::Expr&)> expr = [&](const ast::Expr& e) {
        switch (e.kind) {
            case ast::ExprKind::Name:
                if (e.cast<ast::Name>().ctx == ast::ExprContext::Store) {
                    out.insert(e.cast<ast::Name>().id);
                }
                return;
            case ast::ExprKind::Lambda:
            case ast::ExprKind::ListComp:
            case ast::ExprKind::SetComp:
            case ast::ExprKind::DictComp:
            case ast::ExprKind::GeneratorExp:
                return;
            default:
                ast::forEachChild(e, expr);
        }
    };
    ast::forEachChild(s, expr, [&](const ast::Stmt& c) { boundNames(c, out); });
}

}  // namespace

void GraphBuilder::forStmt(const ast::For& st) {
    if (!st.orelse.empty()) {
        fail("RuntimeError", "The 'for...else...' statement is not supported now.", st.span);
    }
    Iterable it = iterable(*st.iter, true);
    if (it.counted()) {
        // Python keeps what the loop's body bound (and its target) after the loop, as an
        // unrolled loop does: such a name not bound yet is carried through the counter loop
        // from None (its value after a loop that ran no iteration, as a join gives a name
        // one path did not bind).
        std::set<std::string> bound;
        boundNames(st, bound);
        for (const std::string& n : bound) {
            if (cur_.env.get(n) == nullptr) {
                cur_.env.set(n, constant(Value::none()));
            }
        }
        countedLoop(st.iter->span, it, [&](Node* item) {
            assign(*st.target, item, st.target->span);
            statements(st.body);
        });
    } else {
        unrolled(st, it);
    }
    if (!cur_.closed) {
        for (const std::string& h : it.hidden) {
            cur_.env.erase(h);
        }
    }
}

void GraphBuilder::unrolled(const ast::For& st, const Iterable& it) {
    loops_.push_back(LoopCtx{});
    for (std::size_t i = 0; i < it.size; ++i) {
        s_.countUnroll(loc(st.span));
        assign(*st.target, it.at(i), st.target->span);
        statements(st.body);
        LoopCtx& lc = loops_.back();
        if (!lc.continues.empty()) {
            if (!cur_.closed) {
                lc.continues.push_back({cur_, nullptr});
            }
            const std::string name = "↓" + lc.continues.front().from.g->name();
            std::vector<PendingJump> conts = std::move(lc.continues);
            lc.continues.clear();
            cur_ = joinJumps(std::move(conts), name, st.span);
        }
        if (cur_.closed) {
            break;  // every path left the loop (break/return)
        }
    }
    LoopCtx lc = std::move(loops_.back());
    loops_.pop_back();
    if (!lc.breaks.empty()) {
        if (!cur_.closed) {
            lc.breaks.push_back({cur_, nullptr});
        }
        const std::string name = "↓" + lc.breaks.front().from.g->name();
        cur_ = joinJumps(std::move(lc.breaks), name, st.span);
    }
}

void GraphBuilder::breakOrContinue(bool isBreak, const ast::Span& at) {
    if (loops_.empty()) {
        fail("SyntaxError", std::string("'") + (isBreak ? "break" : "continue") + "' outside loop", at);
    }
    LoopCtx& lc = loops_.back();
    if (lc.isWhile && !isBreak) {
        tailCall(cur_, lc.header, lc.headerNames, at);
        return;
    }
    (isBreak ? lc.breaks : lc.continues).push_back({cur_, nullptr});
    cur_.closed = true;
}

namespace {

// The name of an expression graph's k-th temporary: "$0", "$1", ... (built by appending:
// `"$" + std::to_string(k)` trips gcc 12's -O3 -Wrestrict false positive).
std::string temporaryName(std::size_t k) {
    std::string name(1, '$');
    name.append(std::to_string(k));
    return name;
}

}  // namespace

Node* GraphBuilder::exprGraph(const std::string& prefix, const std::vector<Node*>& extras, const BranchBody& body,
                              const ast::Span& at) {
    Block saved = cur_;
    // Temporaries first (named $0, $1...), then the variables; a Partial binds them all.
    Env env;
    for (std::size_t k = 0; k < extras.size(); ++k) {
        env.set(temporaryName(k), extras[k]);
    }
    for (const auto& [n, v] : saved.env.vars) {
        env.set(n, v);
    }
    std::vector<Node*> args;
    Block b = newBlock(prefix + saved.g->name(), env, args, at);
    std::vector<Node*> params(b.g->parameters().begin(), b.g->parameters().begin() + static_cast<std::ptrdiff_t>(extras.size()));
    for (std::size_t k = 0; k < extras.size(); ++k) {
        b.env.erase(temporaryName(k));
    }
    std::vector<LoopCtx> savedLoops;
    std::swap(savedLoops, loops_);
    cur_ = b;
    Node* out = body(params);
    finish(cur_, out, at);
    cur_ = saved;
    std::swap(savedLoops, loops_);
    return partialOrGraph(b.g, args, at);
}

Node* GraphBuilder::branchValue(Node* cond, const std::vector<Node*>& trueExtras, const BranchBody& onTrue,
                                const std::vector<Node*>& falseExtras, const BranchBody& onFalse, const ast::Span& at) {
    Node* t = exprGraph("✓", trueExtras, onTrue, at);
    Node* f = exprGraph("✗", falseExtras, onFalse, at);
    Node* sw = cnode({prim("Switch"), cond, t, f}, at);
    return cnode({sw}, at);
}

Node* GraphBuilder::comprehension(const ast::Expr& e) {
    const std::vector<ast::Comprehension>* gens = nullptr;
    if (const auto* lc = e.as<ast::ListComp>()) {
        gens = &lc->generators;
    } else if (const auto* ge = e.as<ast::GeneratorExp>()) {
        gens = &ge->generators;
    } else {
        gens = &e.cast<ast::DictComp>().generators;
    }
    const bool isDict = e.kind == ast::ExprKind::DictComp;
    const std::string_view makeSeq = e.kind == ast::ExprKind::ListComp ? meta::kMakeList : meta::kMakeTuple;
    std::vector<Node*> items, keys;
    // Pieces of the result, when a generator's length only type inference knows: the items
    // so far, then what a counted loop collects, ... (joined by `add`).
    std::vector<Node*> pieces;
    auto sequence = [&](std::vector<Node*> xs) {
        xs.insert(xs.begin(), prim(makeSeq));
        return cnode(std::move(xs), e.span);
    };
    std::vector<Node*> unknownLengths;  // the errors of generators whose length is not known
    const Env saved = cur_.env;
    std::function<void(std::size_t)> level = [&](std::size_t g) {
        if (g == gens->size()) {
            if (const auto* dc = e.as<ast::DictComp>()) {
                keys.push_back(expr(*dc->key));
                items.push_back(expr(*dc->value));
            } else {
                items.push_back(expr(e.kind == ast::ExprKind::ListComp ? *e.cast<ast::ListComp>().elt
                                                                        : *e.cast<ast::GeneratorExp>().elt));
            }
            return;
        }
        const ast::Comprehension& c = (*gens)[g];
        Iterable it = iterable(*c.iter, !isDict);
        if (it.unknownLength != nullptr) {
            unknownLengths.push_back(it.unknownLength);
        }
        if (it.counted()) {
            pieces.push_back(sequence(std::move(items)));
            items.clear();
            pieces.push_back(countedComprehension(e, *gens, g, std::move(it)));
            return;
        }
        for (std::size_t i = 0; i < it.size; ++i) {
            s_.countUnroll(loc(e.span));
            assign(*c.target, it.at(i), c.target->span);
            bool keep = true;
            for (const ast::ExprPtr& cond : c.ifs) {
                std::optional<bool> v = constCondition(*cond);
                if (!v) {
                    fail("RuntimeError", "In graph mode, the condition of a comprehension must be a constant.",
                         cond->span);
                }
                keep = keep && *v;
            }
            if (keep) {
                level(g + 1);
            }
        }
    };
    level(0);
    cur_.env = saved;
    if (isDict) {
        keys.insert(keys.begin(), prim(meta::kMakeTuple));
        items.insert(items.begin(), prim(meta::kMakeTuple));
        return meta(meta::kMakeDict, {cnode(keys, e.span), cnode(items, e.span)}, e.span);
    }
    Node* result = sequence(std::move(items));
    if (!pieces.empty()) {
        pieces.push_back(result);
        result = pieces.front();
        for (std::size_t k = 1; k < pieces.size(); ++k) {
            result = meta(meta::kAdd, {result, pieces[k]}, e.span);
        }
    }
    // A generator of unknown length gave no items: whatever uses the (empty) result meets
    // that error first, not an error of its own about the missing items.
    for (Node* err : unknownLengths) {
        result = cnode({prim("Depend"), result, err}, e.span);
    }
    return result;
}

Node* GraphBuilder::countedComprehension(const ast::Expr& e, const std::vector<ast::Comprehension>& gens,
                                         std::size_t first, Iterable it) {
    const bool list = e.kind == ast::ExprKind::ListComp;
    const ast::Expr& elt = list ? *e.cast<ast::ListComp>().elt : *e.cast<ast::GeneratorExp>().elt;
    auto sequence = [&](std::vector<Node*> xs) {
        xs.insert(xs.begin(), prim(list ? meta::kMakeList : meta::kMakeTuple));
        return cnode(std::move(xs), e.span);
    };
    const std::string acc = "comp-acc" + std::to_string(hiddenCount_);
    const std::string count = "comp-n" + std::to_string(hiddenCount_++);
    cur_.env.set(count, it.length);
    // The iterable's hidden variables and its length reach the graph as its parameters.
    Node* out = exprGraph(
        "comp_", {},
        [&](const std::vector<Node*>&) -> Node* {
            it.length = cur_.env.get(count);
            cur_.env.erase(count);
            cur_.env.set(acc, sequence({}));
            std::function<void(std::size_t, const Iterable&)> level = [&](std::size_t g, const Iterable& gi) {
                const ast::Comprehension& c = gens[g];
                auto body = [&](Node* item) {
                    assign(*c.target, item, c.target->span);
                    std::function<void(std::size_t)> conditions = [&](std::size_t k) {
                        if (k < c.ifs.size()) {
                            branches(*c.ifs[k], [&] { conditions(k + 1); }, [] {}, c.ifs[k]->span);
                        } else if (g + 1 == gens.size()) {
                            cur_.env.set(acc, meta(meta::kAdd, {cur_.env.get(acc), sequence({expr(elt)})}, e.span));
                        } else {
                            Iterable next = iterable(*gens[g + 1].iter, true);
                            level(g + 1, next);
                            for (const std::string& h : next.hidden) {
                                cur_.env.erase(h);
                            }
                        }
                    };
                    conditions(0);
                };
                if (gi.counted()) {
                    countedLoop(c.iter->span, gi, body);
                    return;
                }
                for (std::size_t i = 0; i < gi.size; ++i) {
                    s_.countUnroll(loc(e.span));
                    body(gi.at(i));
                }
            };
            level(first, it);
            return cur_.env.get(acc);
        },
        e.span);
    cur_.env.erase(count);
    for (const std::string& h : it.hidden) {
        cur_.env.erase(h);
    }
    return cnode({out}, e.span);
}

}  // namespace irscope::compiler
