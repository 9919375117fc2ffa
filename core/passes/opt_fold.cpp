// constant_folding: a primitive whose inputs are all constants is computed at compile time
// (the registry's infer folds through the CPU kernel) and replaced by its value. Side
// effects, random ops, monad-ordered nodes (Load, UpdateState, Depend) and control flow
// (Switch, Partial) are never folded; MakeTuple stays a node (AddN and Print take it).
#include <string_view>

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

// The folded value of c (result.constant), or an empty result.
ops::InferResult folded(const CNode* c) {
    const ops::OpDef* def = opt::opDefOf(c);
    if (def == nullptr || def->sideEffectMem || def->sideEffectIo || neverFolded(def->name) ||
        (!def->foldable && !def->structural)) {
        return {};
    }
    std::vector<ops::InferArg> args;
    args.reserve(c->size() - 1);
    for (std::size_t i = 1; i < c->size(); ++i) {
        const auto* v = ir::nodeCast<ValueNode>(c->input(i));
        if (v == nullptr || v->value()->kind == Value::Kind::Monad ||
            v->value()->kind == Value::Kind::Graph || v->value()->kind == Value::Kind::Opaque) {
            return {};
        }
        args.push_back(ops::InferArg::constant(v->value()));
    }
    try {
        return ops::OpRegistry::instance().infer(*def, c->primitive()->attrs, args);
    } catch (const ops::OpError&) {
        return {};  // left for the kernel to report when it runs
    }
}

}  // namespace

namespace opt {

bool foldConstants(ir::Module& m) {
    bool changed = false;
    for (FuncGraph* g : m.reachableGraphs()) {
        // Replacing c erases c and maybe its inputs, which come earlier in the order.
        for (CNode* c : g->topoOrder()) {
            const ops::InferResult r = folded(c);
            if (!r.constant) {
                continue;
            }
            ValueNode* k = m.addValue(g, r.constant);
            k->setAbstract(c->abstract() != nullptr ? c->abstract() : r.abs);
            k->debug() = c->debug();
            m.replaceAllUses(c, k);
            eraseIfDead(m, c);
            changed = true;
        }
    }
    return changed;
}

}  // namespace opt

std::unique_ptr<Pass> makeConstantFoldingPass() {
    return makePass("constant_folding",
                    "Computes operations whose inputs are all known at compile time and puts "
                    "the result in the graph as a constant.",
                    [](ir::Module& m, PassContext&) { return opt::foldConstants(m); });
}

}  // namespace irscope::passes
