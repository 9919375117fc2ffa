// What the graph view draws, independent of widgets: one entry per node (CNodes,
// parameters, constants once per use), the edges between them, and a tree of collapsible
// groups (a group per FuncGraph; inside a big graph, groups per scope, or runs of the body
// when it has no scopes; runs of identical sibling scopes, such as the blocks of a CellList,
// under one series group "0-Block … 15-Block ×16": siblings whose structure hashes, computed
// once bottom-up, are equal).
// Building the model is linear in the module: one pass over each graph's nodes, scope paths
// split once, groups hashed bottom-up, edges resolved once per option change. Tooltips and
// search texts are made when asked for (the scene's drawn boxes, the first search).
// Two display options, as Netron and TensorBoard read a graph: weights (parameters with a
// default or a Ref type) and constants drawn inside the box of the op using them as named
// rows (inlineInputs), and state plumbing (monads, UpdateState, Load, Depend's ordering
// input) dimmed or hidden (stateHidden: UpdateState and monads vanish, Load and Depend pass
// their first input through). graph_layout.h turns the current expansion into layouts.
#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace irscope::ui {

// How a node is drawn.
enum class NodeStyle { Primitive, SideEffect, Monad, GraphCall, Parameter, Constant };

// Most nodes and collapsed groups one view lays out: dot stays well under a second below
// this (see ../shared/DESIGN.md), so the first view of any module is quick.
inline constexpr int kDefaultNodeBudget = 1000;
// Graphs (and scopes) with more body nodes than this are split into subgroups.
inline constexpr int kSplitThreshold = 250;
// More collapsed top-level groups than this (and nothing expanded at the top) are laid
// out as a grid of rows, their edges drawn but not ranking them: dot would otherwise
// stack a chain of graphs (if_vs_select's 301) into a strip one box wide.
inline constexpr int kGridThreshold = 24;
// Modules with more CNodes than this open with state plumbing hidden.
inline constexpr int kHideStateAbove = 60;
// Runs of at least this many identical sibling groups become a series group.
inline constexpr int kSeriesMinimum = 3;

// How a node shows under the current options.
enum class Placement : std::uint8_t {
    Own,     // its own box
    Inline,  // a row in the box of `host`
    Alias,   // hidden state: stands for its first input (Load, Depend)
    Hidden,  // hidden state: not drawn (UpdateState, monads)
};

// A weight or constant drawn inside its user's box: the node it stands for and its text.
struct InlineRow {
    int node = -1;
    QString text;  // "conv1.weight  F32 (6, 1, 5, 5)", "(32, -1)"
};

struct ModelNode {
    const ir::Node* node = nullptr;   // the CNode, Parameter or (per use) ValueNode
    const ir::CNode* user = nullptr;  // constants: the CNode using it
    QString name;                     // the printer's local name: "%3", "%para1_x"; "" else
    QString label;                    // "Load\n%2"
    NodeStyle style = NodeStyle::Primitive;
    int group = -1;       // innermost group
    bool weight = false;  // a parameter with a default value or a Ref type
    bool state = false;   // state plumbing: monad values/parameters, UpdateState, Load, Depend
    Placement placement = Placement::Own;  // under the current options
    int host = -1;                         // Inline: the entry whose box lists it
};

enum class GroupKind : std::uint8_t { Graph, Scope, Run, Series };

struct ModelGroup {
    QString title;  // "@graph", a scope component, "%0 … %249", or "0-Block … 15-Block ×16"
    int parent = -1;
    bool isGraph = false;
    GroupKind kind = GroupKind::Scope;
    int depth = 0;              // top-level graphs 0
    std::vector<int> children;  // subgroups
    std::vector<int> nodes;     // nodes directly in this group
    int total = 0;              // nodes in it and in its subgroups
    // A hash of what it holds: the ops of its nodes with how they feed each other inside it,
    // and its subgroups (titles up to numbers, structures). Equal for identical blocks.
    std::uint64_t structure = 0;
    bool expanded = false;
};

struct ModelEdge {
    int from = 0;  // input node
    int to = 0;    // user node
    bool control = false;
};

// One drawn thing of the current expansion: a node (index >= 0) or a collapsed group.
struct VisibleRef {
    bool isGroup = false;
    int index = 0;
    bool operator==(const VisibleRef&) const = default;
};

class GraphModel {
public:
    GraphModel() = default;
    explicit GraphModel(const ir::Module& m);

    // Display options (see the top of this file); setting one recomputes placements.
    bool inlineInputs() const { return inlineInputs_; }
    bool stateHidden() const { return stateHidden_; }
    void setOptions(bool inlineInputs, bool stateHidden);
    // Rows drawn inside the box of entry `node` (empty for most).
    const std::vector<InlineRow>& rowsOf(int node) const;
    // The entry whose box shows `node`: itself (Own), its host (Inline), what it passes
    // through (Alias, resolved), or -1 (Hidden).
    int drawnAs(int node) const;
    // `node` with Load/Depend aliases followed to what they pass on (-1: nothing).
    int resolve(int node) const;
    const std::vector<int>& topGroups() const { return topGroups_; }

    const std::vector<ModelNode>& nodes() const { return nodes_; }
    const std::vector<ModelGroup>& groups() const { return groups_; }
    const std::vector<ModelEdge>& edges() const { return edges_; }
    // The edges drawn under the current options, ordered by source: sources resolved through
    // aliases, those of hidden state and of weights/constants drawn as rows left out.
    const std::vector<ModelEdge>& drawnEdges() const { return drawnEdges_; }
    // A node's tooltip (name = op, abstract, attributes, scope, source lines) and search
    // text (name, op type, debug name, abstract, attributes, scope; one per line).
    QString tooltip(int node) const;
    QString searchText(int node) const;
    const ModelGroup& group(int g) const { return groups_.at(static_cast<std::size_t>(g)); }

    // Collapses everything, then expands groups breadth-first (graphs in print order) while
    // the drawn count stays within `budget`.
    void expandWithin(int budget);
    void setExpanded(int group, bool expanded);
    // Expands every group containing `node` (showing hidden state plumbing when `node` is
    // part of it); returns whether anything changed.
    bool reveal(int node);
    // The drawn thing standing for `node`: itself, or its outermost collapsed group.
    VisibleRef visibleFor(int node) const;
    int visibleCount() const;
    bool groupVisible(int g) const;

    // Model indices of the nodes whose searchText matches, in model order.
    std::vector<int> search(const QRegularExpression& re) const;
    // Index of the entry for `n` (its own entry; a ValueNode's first use), or -1.
    int indexOf(const ir::Node* n) const;

private:
    struct ScopeTable;
    struct SearchTexts {
        std::mutex mutex;
        std::vector<QString> texts;  // per entry, filled whole by the first search
    };
    int addGroup(QString title, int parent, GroupKind kind);
    void splitBody(int group, const std::vector<int>& body, int depth, ScopeTable& scopes);
    void splitRuns(int group, const std::vector<int>& body);
    void hashStructure();
    void findSeries();
    void place();
    int entryOf(const ir::Node* n) const;
    void setEntry(const ir::Node* n, int entry);
    QString opText(int node) const;

    bool inlineInputs_ = true;
    bool stateHidden_ = false;
    std::vector<std::vector<InlineRow>> rows_;  // per entry, under the current options

    std::vector<ModelNode> nodes_;
    std::vector<ModelGroup> groups_;
    std::vector<ModelEdge> edges_;
    std::vector<ModelEdge> drawnEdges_;  // under the current options
    std::vector<int> topGroups_;
    // Entries by node id (a module numbers its nodes densely from 1): a vector, not a hash
    // map, since every input of every node is looked up.
    std::vector<int> byId_;
    std::unordered_map<std::uint64_t, int> sparseIds_;  // ids far past the node count
    std::vector<std::vector<int>> inputsOf_;  // per CNode entry: entries of inputs 1..n (-1: none)
    std::unordered_map<int, QString> callOps_;  // calls of a node: "call %3" (named at build)
    std::shared_ptr<SearchTexts> searchTexts_ = std::make_shared<SearchTexts>();  // copies share it
};

// The 0-based line where the .ir printer wrote the node named `localName` ("%3" from
// `fromLine`, the graph's header; "%para1_x" in the header block), or -1.
int findNodeLine(const QStringList& lines, int fromLine, const QString& localName);

}  // namespace irscope::ui
