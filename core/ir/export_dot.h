// DOT export of a Module for Graphviz: one cluster per FuncGraph, data edges solid,
// monad/control edges dashed, references to graphs dotted into the referenced cluster,
// free variables as blue edges across clusters, constants as small nodes per use.
#pragma once

#include <string>
#include <vector>

#include "ir/module.h"

namespace irscope::ir {

struct DotOptions {
    // Names of the graphs to draw. Empty: every graph, in the .ir printer's order (those
    // reachable from the entry first). Nodes keep the printer's names (%N, %para<k>_name).
    std::vector<std::string> graphs;
    // Draw constants (tensors, scalars, U/IO monads, primitives passed as values) as small
    // nodes, one per use. Off: constants and their edges are left out.
    bool includeConstants = true;
    // Graphviz rankdir: "TB", "LR", "BT" or "RL".
    std::string rankdir = "TB";
    // SVG tooltips with the node's full abstract, debug name and scope.
    bool tooltips = true;
};

// Edge classes the export distinguishes (also used by the JSON export).
enum class EdgeKind { Data, Control };

// Whether input `index` of `user` carries state rather than data: the input is a monad
// (by abstract, by value U/IO, or an UpdateState result), any input of UpdateState, the
// second input of Depend, or the state input of Load.
EdgeKind classifyInput(const CNode& user, std::size_t index);

// Node ids in the output are stable: `n<node id>` for parameters and CNodes,
// `c<user id>_<input index>` for per-use constant nodes, `cluster_<N>` for the N-th drawn
// graph. Edges carry `id="e<user id>_<input index>"`.
std::string exportDot(const Module& m, const DotOptions& opts = {});

// Compact one-line summaries used in labels: "Float32 (2, 3)", "Ref Int32 ()",
// "(Int32 (), Int32 ())", "Tuple(5)", "UMonad"; and for values "I64(3)",
// "Tensor[Int32] = 0", "Tensor[Float32] (2) = [1, 2]", "U", "@g".
std::string abstractSummary(const Abstract& a);
std::string valueSummary(const Value& v);

}  // namespace irscope::ir
