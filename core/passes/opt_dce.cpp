// dce: dead code elimination. A node the Return of a live graph does not reach (through
// inputs, free variables of other graphs included) computes nothing anybody sees and is
// erased, as are graphs the entry no longer refers to. Side effects are never dead: after
// auto_monad they are on the state chain that reaches Return through Depend, and before
// it the isolated statements hang on Return through Depend(out, StopGradient(...)).
#include <unordered_set>

#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

namespace opt {

bool eliminateDeadCode(ir::Module& m) {
    bool changed = false;
    const std::vector<FuncGraph*> graphs = m.reachableGraphs();
    const std::unordered_set<const FuncGraph*> liveGraphs(graphs.begin(), graphs.end());
    std::unordered_set<const Node*> live;
    std::vector<const Node*> work;
    for (FuncGraph* g : graphs) {
        if (g->returnNode() != nullptr && live.insert(g->returnNode()).second) {
            work.push_back(g->returnNode());
        }
    }
    while (!work.empty()) {
        const auto* c = ir::nodeCast<CNode>(work.back());
        work.pop_back();
        if (c == nullptr) {
            continue;
        }
        for (Node* in : c->inputs()) {
            if (live.insert(in).second) {
                work.push_back(in);
            }
        }
    }
    // Roots: dead nodes nobody uses. Erasing them frees the dead nodes below them; a root is
    // never an input of another node, so no root is freed before its turn.
    std::vector<Node*> roots;
    m.forEachNode([&](Node* n) {
        if (!n->isParameter() && !live.count(n) && n->users().empty() &&
            (n->graph() == nullptr || liveGraphs.count(n->graph()))) {
            roots.push_back(n);
        }
    });
    for (Node* n : roots) {
        changed = eraseIfDead(m, n) > 0 || changed;
    }
    return eraseUnreachableGraphs(m) > 0 || changed;
}

}  // namespace opt

std::unique_ptr<Pass> makeDcePass() {
    return makePass("dce",
                    "Deletes operations whose results are never used by the graph's output "
                    "(operations with side effects always stay, through the state chain).",
                    [](ir::Module& m, PassContext&) { return opt::eliminateDeadCode(m); });
}

}  // namespace irscope::passes
