// The items of the graph view, placed from the per-group layouts of graph_layout.h: a box per
// node styled by its kind (weights and constants listed inside as rows), a stacked box per
// collapsed group or series (with its node count, inputs and outputs), edges (data solid,
// control/monad dashed) with arrowheads, and a frame per expanded group. Level of detail:
// text is drawn only when it would be readable, rows and frames simplified further out.
#pragma once

#include <QGraphicsItem>
#include <QGraphicsScene>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "graph_layout.h"
#include "graph_model.h"

namespace irscope::ui {

// A node's colour in a compare view (ir::DiffKind, plus the counterpart of the node
// selected in the other pane). Later values win when a collapsed group holds several.
enum class NodeMark { None, Matched, Changed, Removed, Added };

// Item kinds, in QGraphicsItem::type() order.
enum GraphItemType {
    kNodeItemType = QGraphicsItem::UserType + 1,
    kEdgeItemType,
    kClusterItemType,
};

class NodeItem : public QGraphicsItem {
public:
    NodeItem(VisibleRef ref, QString label, NodeStyle style, QRectF rect, QStringList rows = {});

    // The box size for a label and its rows (what the layout reserves).
    static QSizeF boxSize(const QString& label, const QStringList& rows);

    int type() const override { return kNodeItemType; }
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

    VisibleRef ref() const { return ref_; }
    bool isGroup() const { return ref_.isGroup; }
    NodeStyle style() const { return style_; }
    const QString& label() const { return label_; }
    const QStringList& rows() const { return rows_; }
    // State plumbing drawn faint.
    void setDimmed(bool on) { dimmed_ = on; }
    bool isDimmed() const { return dimmed_; }
    // Search matches are drawn with a yellow fill.
    void setHighlighted(bool on);
    bool isHighlighted() const { return highlighted_; }
    // Debugger marks: a red dot for a breakpoint, a green fill and border for the node a run
    // is paused at.
    void setDebugMarks(bool breakpoint, bool current);
    bool hasBreakpointMark() const { return breakpoint_; }
    bool isCurrentMark() const { return current_; }
    // Compare views: a thick border in the mark's colour.
    void setMark(NodeMark m);
    NodeMark mark() const { return mark_; }
    static QColor markColor(NodeMark m);
    static QColor markFill(NodeMark m);  // the fill of a marked box, diff rows, delta cells

    // Fill and border of a style (also used by the legend and tests).
    static QColor fillFor(NodeStyle s);
    static QColor borderFor(NodeStyle s);

private:
    VisibleRef ref_;
    QString label_;
    NodeStyle style_;
    QRectF rect_;
    QStringList rows_;
    bool dimmed_ = false;
    bool highlighted_ = false;
    bool breakpoint_ = false;
    bool current_ = false;
    NodeMark mark_ = NodeMark::None;
};

class EdgeItem : public QGraphicsPathItem {
public:
    EdgeItem(const QPainterPath& path, bool control, const QPolygonF& arrow, int count = 1);
    int type() const override { return kEdgeItemType; }
    bool isControl() const { return control_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

private:
    bool control_;
    QPolygonF arrow_;
    int count_;
};

class ClusterItem : public QGraphicsRectItem {
public:
    ClusterItem(int group, const QString& title, const QRectF& rect);
    int type() const override { return kClusterItemType; }
    int group() const { return group_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

private:
    int group_;
    QString title_;
};

// The box of a drawn thing: a node with its rows, or a collapsed group with its ports.
QSizeF boxSizeFor(const GraphModel& model, VisibleRef ref, const GroupPorts& ports);
// boxSizeFor, measured once per drawn thing: text shaping is most of a plan's cost, and an
// expand re-plans boxes measured before. Nodes by index, collapsed groups by index and ports;
// forgotten when the model's options change (rows change node boxes); clear() for a new model.
class BoxSizes {
public:
    QSizeF operator()(const GraphModel& model, VisibleRef ref, const GroupPorts& ports);
    void clear();
    std::size_t measured() const { return measured_; }

private:
    std::vector<QSizeF> nodes_;  // empty: not measured yet
    std::unordered_map<std::uint64_t, QSizeF> groups_;
    int options_ = -1;  // the options measured under
    std::size_t measured_ = 0;
};
// The text of a collapsed group's box: title, node count, inputs and outputs.
QString groupLabel(const GraphModel& model, int group, const GroupPorts& ports);

// Fills `scene` (cleared first) with the items of a laid-out plan. Returns the node and
// collapsed-group boxes.
std::vector<NodeItem*> populateScene(QGraphicsScene& scene, const GraphModel& model,
                                     const LayoutPlan& plan,
                                     const std::vector<GeometryPtr>& geometry);

}  // namespace irscope::ui
