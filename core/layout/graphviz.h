// Graphviz in process (cgraph + gvc, never the `dot` program): render DOT text to SVG/PNG/...
// and compute `dot` layouts for the GUI.
//
// Graphviz is not thread-safe; every call here is serialised by one process-wide mutex and
// runs on a helper thread with a large stack, because dot recurses deeply on big graphs.
// Graphs with more than kLargeGraphNodes nodes, or whose long edges would give dot more
// than kLargeLayoutNodes nodes to place (virtual nodes included, estimated beforehand), get
// nslimit/mclimit/splines=line unless the DOT sets them itself (see ../shared/DESIGN.md:
// network simplex over those nodes dominates dot's time).
// Malformed DOT, layout failures and unknown formats throw std::runtime_error carrying
// Graphviz's own error text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::layout {

inline constexpr std::size_t kLargeGraphNodes = 1500;
inline constexpr std::size_t kLargeLayoutNodes = 4000;

struct Point {
    double x = 0;
    double y = 0;
};

// Coordinates are Graphviz's: points (1/72 inch), origin bottom-left, y growing upward.
// To draw with y down, use bbox.y1 - y.
struct Box {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    double width() const { return x1 - x0; }
    double height() const { return y1 - y0; }
};

struct LayoutNode {
    std::string name;  // the DOT node id, e.g. "n12"
    double x = 0;      // centre
    double y = 0;
    double width = 0;  // points
    double height = 0;
};

struct LayoutEdge {
    std::string tail;
    std::string head;
    std::string id;             // the DOT `id` attribute, when set
    std::vector<Point> points;  // cubic B-spline control points (1 + 3k), or a polyline
                                // when splines=line/polyline
    bool hasArrowHead = false;  // arrowHead: where the arrow tip is (the spline ends short)
    Point arrowHead;
};

struct LayoutCluster {
    std::string name;  // "cluster_0"
    std::string label;
    Box bbox;
};

struct Layout {
    Box bbox;
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    std::vector<LayoutCluster> clusters;  // top-level and nested, in DOT order
};

// Lays out with `dot` and renders. `format`: "svg", "png", "dot" (laid-out DOT with
// positions) or "plain". Throws std::invalid_argument for another format.
std::string renderDot(const std::string& dot, std::string_view format);

// Lays out with `dot` and returns the geometry.
Layout layoutDot(const std::string& dot);

}  // namespace irscope::layout
