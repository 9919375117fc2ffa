// Control flow: if/elif/else (constant conditions folded, otherwise Switch of Partials and a
// `↓` continuation), while (`↵` header, `↻` body, `↓` after), for (unrolled over an
// iterable whose length is known when parsing), break/continue, and the branch graphs
// of and/or/ternaries.
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
    if (std::optional<bool> c = constCondition(*st.test)) {
        statements(*c ? st.body : st.orelse);
        return;
    }
    Node* cond = meta(meta::kBool, {expr(*st.test)}, st.test->span);
    Block parent = cur_;
    const std::string parentName = parent.g->name();
    std::vector<Node*> targs, fargs;
    Block t = newBlock("✓" + parentName, parent.env, targs, st.span);
    Block f = newBlock("✗" + parentName, parent.env, fargs, st.span);
    cur_ = t;
    statements(st.body);
    Block tEnd = cur_;
    cur_ = f;
    statements(st.orelse);
    Block fEnd = cur_;
    cur_ = parent;
    Node* sw = cnode({prim("Switch"), cond, partialOrGraph(t.g, targs, st.span), partialOrGraph(f.g, fargs, st.span)},
                     st.span);
    finish(cur_, cnode({sw}, st.span), st.span);
    std::vector<PendingJump> jumps;
    for (Block* b : {&tEnd, &fEnd}) {
        if (!b->closed) {
            jumps.push_back({*b, nullptr});
        }
    }
    cur_ = joinJumps(std::move(jumps), "↓" + parentName, st.span);
}

void GraphBuilder::whileStmt(const ast::While& st) {
    if (!st.orelse.empty()) {
        fail("RuntimeError", "The 'while...else...' statement is not supported now.", st.span);
    }
    if (std::optional<bool> c = constCondition(*st.test); c && !*c) {
        return;
    }
    const std::string parentName = cur_.g->name();
    std::vector<std::string> names;
    for (const auto& kv : cur_.env.vars) {
        names.push_back(kv.first);
    }
    std::vector<Node*> hargs;
    Block h = newBlock("↵" + parentName, cur_.env, hargs, st.span);
    tailCall(cur_, h.g, names, st.span);

    cur_ = h;
    Node* cond = meta(meta::kBool, {expr(*st.test)}, st.test->span);
    std::vector<Node*> bargs;
    Block body = newBlock("↻" + parentName, cur_.env, bargs, st.span);
    Node* enter = partialOrGraph(body.g, bargs, st.span);
    Block header = cur_;

    loops_.push_back(LoopCtx{true, h.g, names, {}, {}});
    cur_ = body;
    statements(st.body);
    if (!cur_.closed) {
        tailCall(cur_, h.g, names, st.span);
    }
    LoopCtx lc = std::move(loops_.back());
    loops_.pop_back();

    std::vector<PendingJump> jumps;
    PendingJump exitPath{header, [this, cond, enter, &st](FuncGraph* target, std::vector<Node*> args) {
                             Node* leave = partialOrGraph(target, args, st.span);
                             Node* sw = cnode({prim("Switch"), cond, enter, leave}, st.span);
                             finish(cur_, cnode({sw}, st.span), st.span);
                         }};
    jumps.push_back(std::move(exitPath));
    for (PendingJump& b : lc.breaks) {
        jumps.push_back(std::move(b));
    }
    cur_ = joinJumps(std::move(jumps), "↓" + parentName, st.span);
}

void GraphBuilder::forStmt(const ast::For& st) {
    if (!st.orelse.empty()) {
        fail("RuntimeError", "The 'for...else...' statement is not supported now.", st.span);
    }
    Iterable it = iterable(*st.iter);
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
    if (!cur_.closed && !it.hidden.empty()) {
        cur_.env.erase(it.hidden);
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

}  // namespace irscope::compiler
