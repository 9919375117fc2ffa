// Comparing two modules — the IR before and after a pass, or one compile under two settings:
// which nodes correspond, which were added, removed or changed, and a line diff of their
// .ir texts that is blind to renumbering.
//
// Node matching (matchModules). Local names are useless across snapshots (`%12` before a
// pass is `%10` after it once two nodes above it are gone) and node ids do not survive the
// .ir text snapshots are kept in, so nodes are matched by what they are:
//   1. Graphs by printed name, then by name without its `.N` duplicate suffix (unique ones).
//      Nodes are matched only inside matched graphs.
//   2. Parameters of matched graphs by name; Return nodes of matched graphs.
//   3. CNodes by structure: a Merkle hash over the graph's name, the callee (primitive name,
//      called graph's name) and the inputs' hashes (a constant by its printed value, a
//      node of another graph by its graph, callee and name), so equal subexpressions hash
//      alike whatever their numbering. Buckets holding as many nodes on both sides are
//      paired in body order.
//   4. CNodes by debug name (`CNode_12`, `x`), callee and graph, when unique on both sides:
//      a node a pass rewired keeps its debug name.
//   5. Propagation to a fixed point: the inputs at the same position of two matched nodes
//      match when both are unmatched CNodes with the same callee (top-down), and an
//      unmatched node matches the one node on the other side with the same callee whose
//      matched inputs are the counterparts of its own (bottom-up).
//   6. What is left: per graph pair and callee, when both sides have as many unmatched
//      nodes, they are paired in body order.
// A matched pair is Changed when the callee, attributes, abstract or any input differs
// (an input differs unless it is the counterpart of the other side's input, or an equal
// constant); otherwise Same. Unmatched nodes are Removed (before) or Added (after).
// Constants (ValueNodes) are not classified: they are part of their users' inputs.
//
// Text diff (diffIrText): each line of the before text has the local names of matched
// nodes replaced by their counterparts' names (and unmatched ones made unique), so a
// renumbered but otherwise equal line compares equal; the lines are then diffed
// patience-style (lines unique on both sides anchor the alignment) with dtl (Wu's O(NP)
// algorithm) between anchors, and in each run of removed and added lines, the lines
// defining the same node (and lines defining none) are paired up as changed lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace irscope::ir {

enum class DiffKind : std::uint8_t { Same, Changed, Added, Removed };

const char* diffKindName(DiffKind k);  // "same", "changed", "added", "removed"

struct DiffCounts {
    std::size_t same = 0;
    std::size_t changed = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
    bool identical() const { return changed == 0 && added == 0 && removed == 0; }
};

// The correspondence between the nodes of `before` and `after` (see the file comment).
// Parameters and CNodes (Return nodes included) are classified; ValueNodes are not.
class NodeMatching {
public:
    // The counterpart of a node (or graph) on the other side, or nullptr.
    const Node* after(const Node* beforeNode) const;
    const Node* before(const Node* afterNode) const;
    const FuncGraph* afterGraph(const FuncGraph* beforeGraph) const;
    const FuncGraph* beforeGraph(const FuncGraph* afterGraph) const;
    // Same / Changed for matched nodes, Removed for unmatched before nodes, Added for
    // unmatched after nodes. `n` may belong to either module; Same for anything unknown.
    DiffKind kind(const Node* n) const;
    // Over the classified nodes (a matched pair counts once).
    const DiffCounts& counts() const { return counts_; }

private:
    friend NodeMatching matchModules(const Module& before, const Module& after);
    std::unordered_map<const Node*, const Node*> toAfter_, toBefore_;
    std::unordered_map<const FuncGraph*, const FuncGraph*> graphToAfter_, graphToBefore_;
    std::unordered_map<const Node*, DiffKind> kind_;
    DiffCounts counts_;
};

NodeMatching matchModules(const Module& before, const Module& after);

// One row of a side-by-side text diff: a line of the before text, of the after text, or
// of both (0-based line indices; -1 for none).
struct DiffRow {
    int before = -1;
    int after = -1;
    DiffKind kind = DiffKind::Same;  // Same (equal), Changed (both set), Removed, Added
};

struct TextDiff {
    std::vector<DiffRow> rows;
    std::vector<std::size_t> hunks;  // index of the first row of each run of non-Same rows
    DiffCounts lines;                // rows by kind
};

// Splits text into lines (no trailing empty line for a final '\n').
std::vector<std::string_view> splitLines(std::string_view text);

// Diffs the .ir texts `beforeText` and `afterText`, which must be printIr of `before` and
// `after` (so the local names in the text are the modules'), using `matching` to see past
// renumbering.
TextDiff diffIrText(std::string_view beforeText, std::string_view afterText, const Module& before,
                    const Module& after, const NodeMatching& matching);

}  // namespace irscope::ir
