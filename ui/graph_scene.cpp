#include "graph_scene.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "theme.h"

namespace irscope::ui {

namespace {

constexpr double kLabelFontSize = 8.0;

QFont labelFont() {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(kLabelFontSize);
    return f;
}

// The scene follows the theme through its palette (GraphView sets it): on a dark one, edges
// and group frames are drawn light; node boxes keep their light kind colours.
bool darkScene(const QGraphicsItem& item) {
    return item.scene() != nullptr && isDark(item.scene()->palette());
}

}  // namespace

QColor NodeItem::fillFor(NodeStyle s) {
    switch (s) {
        case NodeStyle::Primitive: return QColor(0xe8, 0xf0, 0xfe);
        case NodeStyle::SideEffect: return QColor(0xfd, 0xe0, 0xdc);
        case NodeStyle::Monad: return QColor(0xee, 0xee, 0xee);
        case NodeStyle::GraphCall: return QColor(0xe6, 0xf4, 0xea);
        case NodeStyle::Parameter: return QColor(0xff, 0xf4, 0xd6);
        case NodeStyle::Constant: return QColor(0xff, 0xff, 0xff);
    }
    return Qt::white;
}

QColor NodeItem::borderFor(NodeStyle s) {
    switch (s) {
        case NodeStyle::Primitive: return QColor(0x42, 0x6e, 0xc4);
        case NodeStyle::SideEffect: return QColor(0xc5, 0x22, 0x1f);
        case NodeStyle::Monad: return QColor(0x75, 0x75, 0x75);
        case NodeStyle::GraphCall: return QColor(0x18, 0x80, 0x38);
        case NodeStyle::Parameter: return QColor(0xb0, 0x80, 0x00);
        case NodeStyle::Constant: return QColor(0x9e, 0x9e, 0x9e);
    }
    return Qt::black;
}

NodeItem::NodeItem(VisibleRef ref, QString label, NodeStyle style, QRectF rect)
    : ref_(ref), label_(std::move(label)), style_(style), rect_(rect) {
    setFlags(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setZValue(2);
}

QRectF NodeItem::boundingRect() const { return rect_.adjusted(-4, -4, 4, 4); }

QColor NodeItem::markColor(NodeMark m) {
    switch (m) {
        case NodeMark::None: return Qt::transparent;
        case NodeMark::Matched: return QColor(0x15, 0x65, 0xc0);
        case NodeMark::Changed: return QColor(0xef, 0x6c, 0x00);
        case NodeMark::Removed: return QColor(0xc6, 0x28, 0x28);
        case NodeMark::Added: return QColor(0x2e, 0x7d, 0x32);
    }
    return Qt::transparent;
}

QColor NodeItem::markFill(NodeMark m) {
    // Removed is a stronger red than the side-effect style's pale fill.
    return markColor(m).lighter(m == NodeMark::Removed ? 165 : m == NodeMark::Added ? 175 : 185);
}

void NodeItem::setMark(NodeMark m) {
    if (mark_ != m) {
        mark_ = m;
        update();
    }
}

void NodeItem::setHighlighted(bool on) {
    if (highlighted_ != on) {
        highlighted_ = on;
        update();
    }
}

void NodeItem::setDebugMarks(bool breakpoint, bool current) {
    if (breakpoint_ != breakpoint || current_ != current) {
        breakpoint_ = breakpoint;
        current_ = current;
        update();
    }
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) {
    const bool selected = (opt->state & QStyle::State_Selected) != 0;
    QColor fill = ref_.isGroup ? QColor(0xf3, 0xec, 0xfa) : fillFor(style_);
    if (highlighted_) {
        fill = QColor(0xff, 0xeb, 0x3b);
    }
    if (current_) {
        fill = QColor(0xb9, 0xf6, 0xca);
    }
    QPen pen(ref_.isGroup ? QColor(0x6a, 0x1b, 0x9a) : borderFor(style_),
             selected || current_ ? 2.5 : 1.0);
    if (!ref_.isGroup && style_ == NodeStyle::Monad) {
        pen.setStyle(Qt::DashLine);
    }
    if (current_) {
        pen.setColor(QColor(0x1b, 0x8a, 0x3c));
        pen.setStyle(Qt::SolidLine);
    } else if (selected) {
        pen.setColor(QColor(0xff, 0x6d, 0x00));
    }
    if (mark_ != NodeMark::None) {
        // A halo in the mark's colour around the box.
        p->setPen(QPen(markColor(mark_), 3.0));
        p->setBrush(Qt::NoBrush);
        p->drawRoundedRect(rect_.adjusted(-2.5, -2.5, 2.5, 2.5), 6, 6);
        if (mark_ != NodeMark::Matched) {
            fill = highlighted_ ? fill : markFill(mark_);
        }
    }
    p->setPen(pen);
    p->setBrush(fill);
    if (ref_.isGroup) {
        // A stacked box: a collapsed group.
        p->drawRect(rect_.translated(3, -3));
        p->drawRect(rect_);
    } else if (style_ == NodeStyle::Parameter || style_ == NodeStyle::Constant) {
        p->drawEllipse(rect_);
    } else {
        p->drawRoundedRect(rect_, 5, 5);
    }
    if (breakpoint_) {
        const double r = std::min(5.0, rect_.height() / 4);
        p->setPen(QPen(Qt::white, 1.0));
        p->setBrush(QColor(0xd3, 0x2f, 0x2f));
        p->drawEllipse(QPointF(rect_.left() + r + 1, rect_.top() + r + 1), r, r);
    }
    // Text is skipped when it would be unreadably small (big views zoomed out).
    if (opt->levelOfDetailFromTransform(p->worldTransform()) < 0.35) {
        return;
    }
    p->setPen(Qt::black);
    p->setFont(labelFont());
    p->drawText(rect_, Qt::AlignCenter, label_);
}

EdgeItem::EdgeItem(const QPainterPath& path, bool control, const QPolygonF& arrow)
    : QGraphicsPathItem(path), control_(control), arrow_(arrow) {
    QPen pen(control ? QColor(0x80, 0x80, 0x80) : QColor(0x30, 0x30, 0x30), 1.0);
    pen.setStyle(control ? Qt::DashLine : Qt::SolidLine);
    pen.setCosmetic(true);
    setPen(pen);
    setZValue(1);
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    const QColor colour = darkScene(*this) ? (control_ ? QColor(0x90, 0x90, 0x90) : QColor(0xc8, 0xc8, 0xc8))
                                           : pen().color();
    QPen line = pen();
    line.setColor(colour);
    p->setPen(line);
    p->setBrush(Qt::NoBrush);
    p->drawPath(path());
    if (!arrow_.isEmpty()) {
        p->setPen(Qt::NoPen);
        p->setBrush(colour);
        p->drawPolygon(arrow_);
    }
}

ClusterItem::ClusterItem(int group, const QString& title, const QRectF& rect)
    : QGraphicsRectItem(rect), group_(group), title_(title) {
    setZValue(0);
    setPen(QPen(QColor(0x99, 0x99, 0x99), 1.0));
    setBrush(QColor(0xfa, 0xfa, 0xfa, 160));
    setToolTip(QObject::tr("%1 — double-click to collapse").arg(title));
}

void ClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    const bool dark = darkScene(*this);
    p->setPen(dark ? QPen(QColor(0x70, 0x70, 0x70), 1.0) : pen());
    p->setBrush(dark ? QBrush(QColor(0x2a, 0x2a, 0x2a, 160)) : brush());
    p->drawRoundedRect(rect(), 6, 6);
    QFont f = labelFont();
    f.setBold(true);
    p->setFont(f);
    p->setPen(dark ? QColor(0xdd, 0xdd, 0xdd) : QColor(0x33, 0x33, 0x33));
    p->drawText(rect().adjusted(6, 3, -6, 0), Qt::AlignLeft | Qt::AlignTop, title_);
}

std::vector<NodeItem*> populateScene(QGraphicsScene& scene, const GraphModel& model,
                                     const DotScene& dot, const layout::Layout& layout) {
    scene.clear();
    const double top = layout.bbox.y1;  // Graphviz's y grows upward
    auto pt = [top](const layout::Point& p) { return QPointF(p.x, top - p.y); };

    std::vector<NodeItem*> items(dot.items.size(), nullptr);
    for (const layout::LayoutNode& n : layout.nodes) {
        if (n.name.size() < 2 || n.name[0] != 'v') {
            continue;
        }
        const std::size_t k = std::stoul(n.name.substr(1));
        if (k >= dot.items.size()) {
            continue;
        }
        const VisibleRef ref = dot.items[k];
        const QRectF rect(n.x - n.width / 2, top - n.y - n.height / 2, n.width, n.height);
        NodeItem* item = nullptr;
        if (ref.isGroup) {
            const ModelGroup& g = model.group(ref.index);
            item = new NodeItem(ref, g.title + QStringLiteral("\n%1 nodes").arg(g.total),
                                NodeStyle::Primitive, rect);
            item->setToolTip(QObject::tr("%1: %2 nodes (collapsed) — double-click to expand")
                                 .arg(g.title)
                                 .arg(g.total));
        } else {
            const ModelNode& mn = model.nodes()[static_cast<std::size_t>(ref.index)];
            item = new NodeItem(ref, mn.label, mn.style, rect);
            item->setToolTip(mn.tooltip);
        }
        scene.addItem(item);
        items[k] = item;
    }
    for (const layout::LayoutCluster& c : layout.clusters) {
        constexpr std::string_view prefix = "cluster_";
        if (c.name.rfind(prefix, 0) != 0) {
            continue;
        }
        const std::size_t k = std::stoul(c.name.substr(prefix.size()));
        if (k >= dot.clusterGroups.size()) {
            continue;
        }
        const int g = dot.clusterGroups[k];
        const QRectF rect(QPointF(c.bbox.x0, top - c.bbox.y1), QPointF(c.bbox.x1, top - c.bbox.y0));
        scene.addItem(new ClusterItem(g, model.group(g).title, rect));
    }
    for (const layout::LayoutEdge& e : layout.edges) {
        if (e.points.empty() || e.id.rfind("grid", 0) == 0) {
            continue;  // grid_*: invisible edges stacking the rows of an overview grid
        }
        QPainterPath path(pt(e.points[0]));
        std::size_t i = 1;
        for (; i + 2 < e.points.size(); i += 3) {
            path.cubicTo(pt(e.points[i]), pt(e.points[i + 1]), pt(e.points[i + 2]));
        }
        for (; i < e.points.size(); ++i) {
            path.lineTo(pt(e.points[i]));
        }
        bool control = false;
        if (e.id.size() > 1 && e.id[0] == 'e') {
            const std::size_t k = std::stoul(e.id.substr(1));
            control = k < dot.edges.size() && dot.edges[k].control;
        }
        QPolygonF arrow;
        if (e.hasArrowHead) {
            const QPointF tip = pt(e.arrowHead);
            const QPointF base = pt(e.points.back());
            const QPointF d = tip - base;
            const QPointF n(-d.y() * 0.4, d.x() * 0.4);
            arrow << tip << base + n << base - n;
        }
        scene.addItem(new EdgeItem(path, control, arrow));
    }
    scene.setSceneRect(QRectF(0, 0, layout.bbox.width(), layout.bbox.height()).adjusted(-20, -20, 20, 20));
    return items;
}

}  // namespace irscope::ui
