// constant_folding: a primitive whose inputs are all constants is computed at compile time
// (the registry's infer folds through the CPU kernel) and replaced by its value. Side
// effects, random ops, monad-ordered nodes (Load, UpdateState, Depend) and control flow
// (Switch, Partial) are never folded; MakeTuple stays a node (AddN and Print take it).
#include <string_view>
#include <unordered_set>

#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;

namespace {

bool neverFolded(std::string_view op) {
    for (std::string_view name : {"Load", "UpdateState", "Depend", "Switch", "Partial", "Return",
                                  "MakeTuple", "TensorMove", "StopGradient"}) {
        if (op == name) {
            return true;
        }
    }
    return false;
}

bool foldableValue(const ir::ValuePtr& v) {
    return v && v->kind != Value::Kind::Monad && v->kind != Value::Kind::Graph &&
           v->kind != Value::Kind::Opaque;
}

// c folded with the given input values (result.constant set), or an empty result.
ops::InferResult fold(const CNode* c, const std::vector<ir::ValuePtr>& inputs) {
    const ops::OpDef* def = opt::opDefOf(c);
    if (def == nullptr || def->sideEffectMem || def->sideEffectIo || neverFolded(def->name) ||
        (!def->foldable && !def->structural) || inputs.size() + 1 != c->size()) {
        return {};
    }
    std::vector<ops::InferArg> args;
    args.reserve(inputs.size());
    for (const ir::ValuePtr& v : inputs) {
        if (!foldableValue(v)) {
            return {};
        }
        args.push_back(ops::InferArg::constant(v));
    }
    try {
        return ops::OpRegistry::instance().infer(*def, c->primitive()->attrs, args);
    } catch (const ops::OpError&) {
        return {};  // left for the kernel to report when it runs
    }
}

std::vector<ir::ValuePtr> constantInputs(const CNode* c) {
    std::vector<ir::ValuePtr> inputs;
    for (std::size_t i = 1; i < c->size(); ++i) {
        const auto* v = ir::nodeCast<ValueNode>(c->input(i));
        inputs.push_back(v != nullptr ? v->value() : nullptr);
    }
    return inputs;
}

// Replaces c by its folded value when it folds; returns the constant or nullptr.
ValueNode* foldNode(ir::Module& m, CNode* c) {
    const ops::InferResult r = fold(c, constantInputs(c));
    if (!r.constant) {
        return nullptr;
    }
    ValueNode* k = m.addValue(c->graph(), r.constant);
    k->setAbstract(c->abstract() != nullptr ? c->abstract() : r.abs);
    k->shareDebug(*c);
    m.replaceAllUses(c, k);
    opt::eraseIfDead(m, c);
    return k;
}

}  // namespace

namespace opt {

ir::ValuePtr foldedValue(const CNode* c, const std::vector<ir::ValuePtr>& inputs) {
    return fold(c, inputs).constant;
}

bool foldConstants(ir::Module& m) {
    bool changed = false;
    for (FuncGraph* g : m.reachableGraphs()) {
        // Folding c erases c and maybe its inputs, which come earlier in the order.
        for (CNode* c : g->topoOrder()) {
            changed = foldNode(m, c) != nullptr || changed;
        }
    }
    return changed;
}

Node* foldCone(ir::Module& m, Node* root) {
    auto* r = ir::nodeCast<CNode>(root);
    if (r == nullptr) {
        return root;
    }
    // The cone in post order (inputs first), without recursion.
    std::vector<CNode*> order;
    std::unordered_set<const CNode*> seen{r};
    std::vector<std::pair<CNode*, std::size_t>> stack{{r, 0}};
    while (!stack.empty()) {
        auto& [c, next] = stack.back();
        if (next < c->size()) {
            auto* in = ir::nodeCast<CNode>(c->input(next++));
            if (in != nullptr && in->graph() == r->graph() && seen.insert(in).second) {
                stack.emplace_back(in, 0);
            }
            continue;
        }
        order.push_back(c);
        stack.pop_back();
    }
    // A node folds only once its inputs did; erasing c frees only inputs already passed.
    for (std::size_t i = 0; i + 1 < order.size(); ++i) {
        foldNode(m, order[i]);
    }
    ValueNode* k = foldNode(m, r);
    return k != nullptr ? static_cast<Node*>(k) : r;
}

}  // namespace opt

std::unique_ptr<Pass> makeConstantFoldingPass() {
    return makePass("constant_folding",
                    "Computes operations whose inputs are all known at compile time and puts "
                    "the result in the graph as a constant.",
                    [](ir::Module& m, PassContext&) { return opt::foldConstants(m); });
}

}  // namespace irscope::passes
