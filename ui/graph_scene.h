// The items of the graph view, placed from a dot layout: a box per node styled by its kind,
// a box per collapsed group, edges (data solid, control/monad dashed) with arrowheads, and
// a frame per expanded group.
#pragma once

#include <QGraphicsItem>
#include <QGraphicsScene>

#include <vector>

#include "graph_model.h"
#include "layout/graphviz.h"

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
    NodeItem(VisibleRef ref, QString label, NodeStyle style, QRectF rect);

    int type() const override { return kNodeItemType; }
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

    VisibleRef ref() const { return ref_; }
    bool isGroup() const { return ref_.isGroup; }
    NodeStyle style() const { return style_; }
    const QString& label() const { return label_; }
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
    bool highlighted_ = false;
    bool breakpoint_ = false;
    bool current_ = false;
    NodeMark mark_ = NodeMark::None;
};

class EdgeItem : public QGraphicsPathItem {
public:
    EdgeItem(const QPainterPath& path, bool control, const QPolygonF& arrow);
    int type() const override { return kEdgeItemType; }
    bool isControl() const { return control_; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget* w) override;

private:
    bool control_;
    QPolygonF arrow_;
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

// Fills `scene` (cleared first) with the items of `layout`, which dot computed for
// `dot.dot`. Returns the node items in DotScene::items order.
std::vector<NodeItem*> populateScene(QGraphicsScene& scene, const GraphModel& model,
                                     const DotScene& dot, const layout::Layout& layout);

}  // namespace irscope::ui
