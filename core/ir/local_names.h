// The local names the .ir printer gives nodes: `%N` for CNodes (per graph, in body order,
// free-variable nodes used only by other graphs numbered after the rest) and `%para<k>_name`
// for parameters (k counts over every graph, in print order). Views that show a graph next
// to its text (DOT, JSON, GUI) use these so a node has the same name everywhere.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace irscope::ir {

struct LocalNames {
    std::vector<FuncGraph*> order;  // print order: reachable graphs first, then the rest
    std::unordered_map<const CNode*, std::size_t> number;    // N of `%N`; Return has none
    std::unordered_map<const Parameter*, std::size_t> para;  // k of `%para<k>_name`
    // Each graph's printed body without its Return: the nodes numbered %0, %1, ... in order.
    std::unordered_map<const FuncGraph*, std::vector<const CNode*>> bodies;

    // "%3", "%para2_param", or "" for a Return node or a node of no printed graph.
    std::string of(const Node& n) const;
    const std::vector<const CNode*>& body(const FuncGraph* g) const;
};

LocalNames localNames(const Module& m);

}  // namespace irscope::ir
