// How the executor runs each graph, worked out once per graph (internal to the executor):
// the kernels in task_emit's execution order, the tail call that lets loops run in
// constant stack, when each value is released, the memory plan, and which outer graphs a
// graph's free variables come from (what a closure of it must keep alive).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"
#include "passes/task_emit.h"

namespace irscope::runtime::detail {

struct GraphPlan {
    // passes::backend::executionOrder(g), Return last: the order task_emit gave the kernel
    // graph (after task_emit node ids follow it, so it is recomputed identically; a graph
    // that never went through task_emit, such as a real dump, gets the same rules).
    std::vector<const ir::CNode*> order;
    std::unordered_map<const ir::CNode*, std::size_t> index;  // position in `order`
    // What the executor runs, in that order: every kernel but the Return and the tail chain.
    std::vector<const ir::CNode*> body;
    // The call whose result the graph returns (possibly through Depend nodes), when nothing
    // else in the graph uses it: the executor jumps to the callee instead of nesting, so a
    // `while` loop (header and body graphs calling each other) needs no stack.
    const ir::CNode* tailCall = nullptr;
    // releaseAfter[t]: the nodes whose values body[t] read for the last time. A node read
    // by another graph (a free variable), by the tail chain or by the Return is never listed.
    std::vector<std::vector<const ir::Node*>> releaseAfter;
};

// Plans every graph the module holds.
std::unordered_map<const ir::FuncGraph*, GraphPlan> planModule(const ir::Module& m);

// The entry graph's planned peak: what task_emit recorded (`memory_peak_bytes`), else its
// memory plan worked out the same way (a graph that never went through task_emit).
std::uint64_t plannedPeakBytes(const ir::Module& m);

// For every graph of `m`: the other graphs whose nodes it uses, directly or through the
// graphs it refers to (a nested branch's use of its grandparent's node counts). The entry
// graph's parameters are not counted: the executor binds them globally.
std::unordered_map<const ir::FuncGraph*, std::unordered_set<const ir::FuncGraph*>>
freeVariableOwners(const ir::Module& m);

}  // namespace irscope::runtime::detail

namespace irscope::runtime {

// Everything the executor works out about a module before running it: a compiled graph
// keeps one and every call of it reuses it (the module does not change between runs).
struct ModulePlan {
    std::unordered_map<const ir::FuncGraph*, detail::GraphPlan> graphs;
    std::unordered_map<const ir::FuncGraph*, std::unordered_set<const ir::FuncGraph*>> owners;
    std::uint64_t plannedPeakBytes = 0;
};

}  // namespace irscope::runtime
