// The graph view's layout, one group at a time (as Model Explorer does): the current
// expansion of a GraphModel becomes a plan with one entry per drawn group (the root holds the
// top-level graphs), each listing its direct items (node boxes, collapsed groups, and the
// frames of expanded subgroups, sized by their own layout) and the edges between them,
// aggregated (an edge into a collapsed group or an expanded frame ends at its border).
// layOutPlan() lays out each entry bottom-up: `dot` for a group's inside, a stack for a
// series' list of blocks, a grid for many top-level graphs. Each dot layout is cached under
// its DOT text, which holds only sizes and edges, so expanding or collapsing a group lays out
// only the groups whose inside changed, and identical blocks share one layout.
#pragma once

#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QSizeF>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph_model.h"

namespace irscope::ui {

// Space around a frame's inside and above it for its title.
inline constexpr double kFramePadding = 10.0;
inline constexpr double kFrameTitle = 20.0;

// Edges crossing the border of a collapsed group: distinct sources outside it feeding it,
// distinct nodes inside it feeding the outside.
struct GroupPorts {
    int inputs = 0;
    int outputs = 0;
};

struct PlanItem {
    VisibleRef ref;
    QSizeF size;       // node boxes and collapsed groups: from their text; frames: their layout
    int inner = -1;    // an expanded group: the index of its PlanGroup
    GroupPorts ports;  // collapsed groups
};

struct PlanEdge {
    int tail = 0;  // indices into PlanGroup::items
    int head = 0;
    bool control = false;  // every aggregated edge is a state edge
    int count = 1;
};

enum class PlanMode { Dot, Stack, Grid };

struct PlanGroup {
    int group = -1;  // the model group; -1 for the root
    PlanMode mode = PlanMode::Dot;
    std::vector<PlanItem> items;
    std::vector<PlanEdge> edges;
};

struct LayoutPlan {
    std::vector<PlanGroup> groups;  // inner groups before the group holding them; root last
    int root() const { return static_cast<int>(groups.size()) - 1; }
};

// The size of a drawn box: a node (rows included) or a collapsed group with its ports.
using BoxSizer = std::function<QSizeF(VisibleRef ref, const GroupPorts& ports)>;

LayoutPlan makePlan(const GraphModel& model, const BoxSizer& sizeOf);

// One group's inside in its own coordinates: y down, the frame's top-left at (0, 0) (the root
// has no frame: no padding or title).
struct GroupGeometry {
    QSizeF size;
    std::vector<QRectF> items;  // parallel to PlanGroup::items
    struct Edge {
        QPainterPath path;
        QPolygonF arrow;
    };
    std::vector<Edge> edges;  // parallel to PlanGroup::edges
};
using GeometryPtr = std::shared_ptr<const GroupGeometry>;

// Dot layouts by DOT text; shared by the view's layout threads.
class LayoutCache {
public:
    GeometryPtr find(const std::string& dot);
    void insert(const std::string& dot, GeometryPtr geometry);
    std::size_t hits() const { return hits_; }
    std::size_t misses() const { return misses_; }
    std::size_t size();

private:
    std::mutex mutex_;
    std::unordered_map<std::string, GeometryPtr> entries_;
    std::atomic<std::size_t> hits_{0};
    std::atomic<std::size_t> misses_{0};
};

// Lays out every group of `plan` bottom-up (filling the sizes of frames), through `cache`.
// `cancelled` is polled between groups; a cancelled layout returns what it has. Throws
// std::runtime_error with Graphviz's message when dot fails.
std::vector<GeometryPtr> layOutPlan(LayoutPlan& plan, LayoutCache& cache,
                                    const std::function<bool()>& cancelled = {});

// The top-left of each plan group's frame in scene coordinates (the root at 0, 0).
std::vector<QPointF> frameOrigins(const LayoutPlan& plan, const std::vector<GeometryPtr>& geometry);

}  // namespace irscope::ui
