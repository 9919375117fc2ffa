// What the graph view draws, independent of widgets: one entry per drawable node (CNodes,
// parameters, constants once per use), the edges between them, and a tree of collapsible
// groups (a group per FuncGraph; inside a big graph, groups per scope, or runs of the body
// when it has no scopes). makeDot() writes the DOT of the current expansion: collapsed
// groups are one box with their node count, edges to their members aggregated.
#pragma once

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <cstddef>
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

struct ModelNode {
    const ir::Node* node = nullptr;  // the CNode, Parameter or (per use) ValueNode
    const ir::CNode* user = nullptr;  // constants: the CNode using it
    QString name;                     // the printer's local name: "%3", "%para1_x"; "" else
    QString label;                    // "Load\n%2"
    QString tooltip;
    QString searchText;  // name, op type, attributes, shape and dtype, one per line
    NodeStyle style = NodeStyle::Primitive;
    int group = -1;  // innermost group
};

struct ModelGroup {
    QString title;  // "@graph", a scope component, or "%0 … %249"
    int parent = -1;
    bool isGraph = false;
    std::vector<int> children;  // subgroups
    std::vector<int> nodes;     // nodes directly in this group
    int total = 0;              // nodes in it and in its subgroups
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

struct DotScene {
    std::string dot;
    std::vector<VisibleRef> items;  // DOT node "v<k>" is items[k]
    struct Edge {
        int tail = 0;  // indices into items
        int head = 0;
        bool control = false;
        int count = 1;  // model edges aggregated into this one
    };
    std::vector<Edge> edges;           // DOT edge id "e<k>" is edges[k]
    std::vector<int> clusterGroups;    // DOT cluster "cluster_<k>" is the expanded group k-th
};

class GraphModel {
public:
    GraphModel() = default;
    explicit GraphModel(const ir::Module& m);

    const std::vector<ModelNode>& nodes() const { return nodes_; }
    const std::vector<ModelGroup>& groups() const { return groups_; }
    const std::vector<ModelEdge>& edges() const { return edges_; }
    const ModelGroup& group(int g) const { return groups_.at(static_cast<std::size_t>(g)); }

    // Collapses everything, then expands groups breadth-first (graphs in print order) while
    // the drawn count stays within `budget`.
    void expandWithin(int budget);
    void setExpanded(int group, bool expanded);
    // Expands every group containing `node`; returns whether anything changed.
    bool reveal(int node);
    // The drawn thing standing for `node`: itself, or its outermost collapsed group.
    VisibleRef visibleFor(int node) const;
    int visibleCount() const;

    DotScene makeDot() const;

    // Model indices of the nodes whose searchText matches, in model order.
    std::vector<int> search(const QRegularExpression& re) const;
    // Index of the entry for `n` (its own entry; a ValueNode's first use), or -1.
    int indexOf(const ir::Node* n) const;

private:
    int addGroup(QString title, int parent, bool isGraph);
    void splitBody(int group, const std::vector<int>& body, int depth);
    void splitRuns(int group, const std::vector<int>& body);
    bool groupVisible(int g) const;

    std::vector<ModelNode> nodes_;
    std::vector<ModelGroup> groups_;
    std::vector<ModelEdge> edges_;
    std::vector<int> topGroups_;
    std::unordered_map<const ir::Node*, int> index_;
};

// The 0-based line where the .ir printer wrote the node named `localName` ("%3" from
// `fromLine`, the graph's header; "%para1_x" in the header block), or -1.
int findNodeLine(const QStringList& lines, int fromLine, const QString& localName);

}  // namespace irscope::ui
