// How the evaluator runs each graph, worked out once per graph (internal to graph_eval):
// the order of its CNodes, the tail call that lets loops run in constant stack, and which
// outer graphs its free variables come from (what a closure of it must keep alive).
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"

namespace irscope::runtime::detail {

struct GraphPlan {
    // Every CNode of the body except the Return and the tail chain, topologically sorted
    // with ties broken by node id: statements with no data dependence between them (an
    // isolated `F.assign`, a `print`) run in the order the source wrote them. The readers of
    // a Load (a Parameter's storage, not a copy) run before the next write of that
    // Parameter whenever they do not depend on the write, as task_emit orders kernels.
    std::vector<const ir::CNode*> order;
    // The call whose result the graph returns (possibly through Depend nodes), when nothing
    // else in the graph uses it: the evaluator jumps to the callee instead of nesting, so a
    // `while` loop (header and body graphs calling each other) needs no stack.
    const ir::CNode* tailCall = nullptr;
};

GraphPlan planGraph(const ir::FuncGraph& g);

// For every graph of `m`: the other graphs whose nodes it uses, directly or through the
// graphs it refers to (a nested branch's use of its grandparent's node counts). The entry
// graph's parameters are not counted: the evaluator binds them globally.
std::unordered_map<const ir::FuncGraph*, std::unordered_set<const ir::FuncGraph*>>
freeVariableOwners(const ir::Module& m);

}  // namespace irscope::runtime::detail
