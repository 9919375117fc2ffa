// switch_simplify: a Switch whose condition is a compile-time constant (or whose branches
// are the same) is replaced by the branch it selects; the call of the selected branch
// becomes a direct graph call, which is inlined as inline would.
#include <algorithm>
#include <optional>

#include "ir/prim_names.h"
#include "passes/compile_error.h"
#include "passes/inline.h"
#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;

namespace opt {

std::optional<bool> truthOf(const ir::ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    switch (v->kind) {
        case Value::Kind::Bool:
            return v->b;
        case Value::Kind::Int:
            return v->i != 0;
        case Value::Kind::Tensor:
            if (v->tensor && v->tensor->hasData() && v->tensor->shape.elementCount() == 1) {
                return v->tensor->elementAsDouble(0) != 0.0;
            }
            return std::nullopt;
        default:
            return std::nullopt;
    }
}

std::optional<bool> constantCondition(const Node* n) {
    if (const auto* vn = ir::nodeCast<ValueNode>(n)) {
        return truthOf(vn->value());
    }
    if (n->abstract() != nullptr && n->abstract()->kind == ir::Abstract::Kind::Scalar) {
        return truthOf(n->abstract()->value);
    }
    return std::nullopt;
}

namespace {

bool sameBranch(const Node* a, const Node* b) {
    if (a == b) {
        return true;
    }
    const auto* va = ir::nodeCast<ValueNode>(a);
    const auto* vb = ir::nodeCast<ValueNode>(b);
    return va != nullptr && vb != nullptr && va->value()->kind == Value::Kind::Graph &&
           va->value()->equals(*vb->value());
}

// The branch a Switch selects at compile time, or nullptr.
Node* selectedBranch(const CNode* sw) {
    if (sw->size() != 4) {
        return nullptr;
    }
    if (auto cond = constantCondition(sw->input(1))) {
        return sw->input(*cond ? 2 : 3);
    }
    return sameBranch(sw->input(2), sw->input(3)) ? sw->input(2) : nullptr;
}

CNode* findConstantSwitch(const ir::Module& m) {
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            if (c->isPrimitive(ir::prim::kSwitch) && selectedBranch(c) != nullptr) {
                return c;
            }
        }
    }
    return nullptr;
}

// `%p(args)` with %p = Partial(@g, bound...) becomes `call @g(bound..., args)`; a call of
// a graph constant is already direct. Returns the direct call, or nullptr.
CNode* directCall(ir::Module& m, CNode* call) {
    if (call->calledGraph() != nullptr) {
        return call;
    }
    auto* partial = ir::nodeCast<CNode>(call->callee());
    if (partial == nullptr || !partial->isPrimitive(ir::prim::kPartial) || partial->size() < 2) {
        return nullptr;
    }
    const auto* fn = ir::nodeCast<ValueNode>(partial->input(1));
    if (fn == nullptr || fn->value()->kind != Value::Kind::Graph) {
        return nullptr;
    }
    FuncGraph* g = call->graph();
    std::vector<Node*> inputs{m.addValue(g, fn->value())};
    inputs.back()->setAbstract(fn->abstract());
    inputs.back()->shareDebug(*fn);
    for (std::size_t i = 2; i < partial->size(); ++i) {
        inputs.push_back(partial->input(i));
    }
    for (std::size_t i = 1; i < call->size(); ++i) {
        inputs.push_back(call->input(i));
    }
    CNode* direct = addCNodeLike(m, g, inputs, call);
    direct->attrs() = call->attrs();
    m.replaceAllUses(call, direct);
    eraseIfDead(m, call);
    return direct;
}

}  // namespace

CNode* callSelectedBranch(ir::Module& m, CNode* switchCall) {
    auto* sw = ir::nodeCast<CNode>(switchCall->callee());
    if (sw == nullptr || !sw->isPrimitive(ir::prim::kSwitch)) {
        return nullptr;
    }
    Node* chosen = selectedBranch(sw);
    if (chosen == nullptr) {
        return nullptr;
    }
    m.setInput(switchCall, 0, chosen);  // other users keep the Switch
    eraseIfDead(m, sw);
    return directCall(m, switchCall);
}

bool simplifySwitches(ir::Module& m) {
    bool changed = false;
    // Each step removes one Switch; branches inlined bring their own (nested ifs), so the
    // count is bounded by the program, and this guard only catches a bug.
    constexpr int kMaxSteps = 1'000'000;
    for (int step = 0;; ++step) {
        CNode* sw = findConstantSwitch(m);
        if (sw == nullptr) {
            break;
        }
        if (step == kMaxSteps) {
            throw CompileError("RuntimeError", "switch_simplify does not converge", locationOf(sw));
        }
        Node* chosen = selectedBranch(sw);
        std::vector<CNode*> calls;
        for (const ir::Use& u : sw->users()) {
            if (u.index == 0) {
                calls.push_back(u.user);
            }
        }
        m.replaceAllUses(sw, chosen);
        eraseIfDead(m, sw);
        changed = true;
        // Last call first: inlining one re-creates the nodes after it (see inlineCall).
        std::sort(calls.begin(), calls.end(),
                  [](const CNode* a, const CNode* b) { return a->id() > b->id(); });
        for (CNode* call : calls) {
            const std::uint64_t place = call->id();
            CNode* direct = directCall(m, call);
            if (direct != nullptr && isInlinableCall(direct, recursiveGraphs(m))) {
                inlineCall(m, direct, place);
            }
        }
    }
    if (changed) {
        eraseUnreachableGraphs(m);
    }
    return changed;
}

}  // namespace opt

std::unique_ptr<Pass> makeSwitchSimplifyPass() {
    return makePass("switch_simplify",
                    "Replaces an if/else whose condition is known at compile time by the branch "
                    "it takes, and inlines that branch.",
                    [](ir::Module& m, PassContext&) { return opt::simplifySwitches(m); });
}

}  // namespace irscope::passes
