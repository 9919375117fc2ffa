#include "graph_scene.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

#include "theme.h"

namespace irscope::ui {

namespace {

constexpr double kLabelFontSize = 8.0;
constexpr double kBoxPadX = 10.0;
constexpr double kBoxPadY = 6.0;
constexpr double kRowGap = 3.0;  // between the header and the rows

QFont labelFont() {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(kLabelFontSize);
    return f;
}

QFont rowFont() {
    QFont f = labelFont();
    f.setPointSizeF(kLabelFontSize - 0.5);
    return f;
}

double textWidth(const QFontMetricsF& fm, const QString& text) {
    double w = 0;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        w = std::max(w, fm.horizontalAdvance(line));
    }
    return w;
}

// The scene follows the theme through its palette (GraphView sets it): on a dark one, edges
// and group frames are drawn light; node boxes keep their light kind colours.
bool darkScene(const QGraphicsItem& item) {
    return item.scene() != nullptr && isDark(item.scene()->palette());
}

}  // namespace

QColor NodeItem::fillFor(NodeStyle s) {
    switch (s) {
        case NodeStyle::Primitive:
            return QColor(0xe8, 0xf0, 0xfe);
        case NodeStyle::SideEffect:
            return QColor(0xfd, 0xe0, 0xdc);
        case NodeStyle::Monad:
            return QColor(0xee, 0xee, 0xee);
        case NodeStyle::GraphCall:
            return QColor(0xe6, 0xf4, 0xea);
        case NodeStyle::Parameter:
            return QColor(0xff, 0xf4, 0xd6);
        case NodeStyle::Constant:
            return QColor(0xff, 0xff, 0xff);
    }
    return Qt::white;
}

QColor NodeItem::borderFor(NodeStyle s) {
    switch (s) {
        case NodeStyle::Primitive:
            return QColor(0x42, 0x6e, 0xc4);
        case NodeStyle::SideEffect:
            return QColor(0xc5, 0x22, 0x1f);
        case NodeStyle::Monad:
            return QColor(0x75, 0x75, 0x75);
        case NodeStyle::GraphCall:
            return QColor(0x18, 0x80, 0x38);
        case NodeStyle::Parameter:
            return QColor(0xb0, 0x80, 0x00);
        case NodeStyle::Constant:
            return QColor(0x9e, 0x9e, 0x9e);
    }
    return Qt::black;
}

QSizeF NodeItem::boxSize(const QString& label, const QStringList& rows) {
    const QFontMetricsF fm(labelFont());
    const QFontMetricsF rm(rowFont());
    double w = textWidth(fm, label);
    double h = fm.lineSpacing() * static_cast<double>(label.count(QLatin1Char('\n')) + 1);
    if (!rows.isEmpty()) {
        h += kRowGap * 2;
        for (const QString& r : rows) {
            w = std::max(w, rm.horizontalAdvance(r));
            h += rm.lineSpacing();
        }
    }
    return {std::max(54.0, w + 2 * kBoxPadX), std::max(30.0, h + 2 * kBoxPadY)};
}

NodeItem::NodeItem(VisibleRef ref, QString label, NodeStyle style, QRectF rect, QStringList rows)
    : ref_(ref), label_(std::move(label)), style_(style), rect_(rect), rows_(std::move(rows)) {
    setFlags(ItemIsSelectable);
    setAcceptHoverEvents(true);
    setZValue(2);
}

QRectF NodeItem::boundingRect() const {
    return rect_.adjusted(-4, -4, 4, 4);
}

QColor NodeItem::markColor(NodeMark m) {
    switch (m) {
        case NodeMark::None:
            return Qt::transparent;
        case NodeMark::Matched:
            return QColor(0x15, 0x65, 0xc0);
        case NodeMark::Changed:
            return QColor(0xef, 0x6c, 0x00);
        case NodeMark::Removed:
            return QColor(0xc6, 0x28, 0x28);
        case NodeMark::Added:
            return QColor(0x2e, 0x7d, 0x32);
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
    const double lod = opt->levelOfDetailFromTransform(p->worldTransform());
    if (dimmed_ && !highlighted_ && !current_ && !selected && mark_ == NodeMark::None) {
        p->setOpacity(0.45);
    }
    const bool series = ref_.isGroup && ref_.index >= 0 && label_.contains(QChar(0x00d7));
    if (ref_.isGroup) {
        // A stacked box: a collapsed group; a series shows two more layers.
        if (series) {
            p->drawRect(rect_.translated(6, -6));
        }
        p->drawRect(rect_.translated(3, -3));
        p->drawRect(rect_);
    } else if (lod < 0.2) {
        p->drawRect(rect_);  // far out: plain boxes are enough and quicker
    } else if ((style_ == NodeStyle::Parameter || style_ == NodeStyle::Constant) &&
               rows_.isEmpty()) {
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
    if (lod < 0.35) {
        return;
    }
    p->setPen(Qt::black);
    p->setFont(labelFont());
    if (rows_.isEmpty()) {
        p->drawText(rect_, Qt::AlignCenter, label_);
        return;
    }
    // Header (op and name) on top, then the inlined weights and constants, one per row.
    const QFontMetricsF fm(labelFont());
    const double headerH =
        fm.lineSpacing() * static_cast<double>(label_.count(QLatin1Char('\n')) + 1);
    const QRectF header(rect_.left(), rect_.top() + kBoxPadY, rect_.width(), headerH);
    p->drawText(header, Qt::AlignHCenter | Qt::AlignTop, label_);
    const double lineY = header.bottom() + kRowGap;
    p->setPen(QPen(borderFor(style_).lighter(140), 0.8));
    p->drawLine(QPointF(rect_.left() + 4, lineY), QPointF(rect_.right() - 4, lineY));
    if (lod < 0.5) {
        return;
    }
    p->setFont(rowFont());
    p->setPen(QColor(0x37, 0x47, 0x4f));
    const QFontMetricsF rm(rowFont());
    double y = lineY + kRowGap;
    for (const QString& r : rows_) {
        p->drawText(
            QRectF(rect_.left() + kBoxPadX, y, rect_.width() - 2 * kBoxPadX + 4, rm.lineSpacing()),
            Qt::AlignLeft | Qt::AlignVCenter, r);
        y += rm.lineSpacing();
    }
}

EdgeItem::EdgeItem(const QPainterPath& path, bool control, const QPolygonF& arrow, int count)
    : QGraphicsPathItem(path), control_(control), arrow_(arrow), count_(count) {
    QPen pen(control ? QColor(0x80, 0x80, 0x80) : QColor(0x30, 0x30, 0x30), count > 1 ? 2.0 : 1.0);
    pen.setStyle(control ? Qt::DashLine : Qt::SolidLine);
    pen.setCosmetic(true);
    setPen(pen);
    setZValue(1);
    if (count > 1) {
        setToolTip(QObject::tr("%1 edges").arg(count));
    }
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    const QColor colour = darkScene(*this)
                              ? (control_ ? QColor(0x90, 0x90, 0x90) : QColor(0xc8, 0xc8, 0xc8))
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

void ClusterItem::paint(QPainter* p, const QStyleOptionGraphicsItem* opt, QWidget*) {
    const bool dark = darkScene(*this);
    p->setPen(dark ? QPen(QColor(0x70, 0x70, 0x70), 1.0) : pen());
    p->setBrush(dark ? QBrush(QColor(0x2a, 0x2a, 0x2a, 160)) : brush());
    p->drawRoundedRect(rect(), 6, 6);
    if (opt->levelOfDetailFromTransform(p->worldTransform()) < 0.35) {
        return;
    }
    QFont f = labelFont();
    f.setBold(true);
    p->setFont(f);
    p->setPen(dark ? QColor(0xdd, 0xdd, 0xdd) : QColor(0x33, 0x33, 0x33));
    p->drawText(rect().adjusted(6, 3, -6, 0), Qt::AlignLeft | Qt::AlignTop, title_);
}

QString groupLabel(const GraphModel& model, int group, const GroupPorts& ports) {
    const ModelGroup& g = model.group(group);
    QString text = g.title + QStringLiteral("\n%1 nodes").arg(g.total);
    if (ports.inputs > 0 || ports.outputs > 0) {
        text += QStringLiteral(" · %1 in · %2 out").arg(ports.inputs).arg(ports.outputs);
    }
    return text;
}

namespace {

QStringList rowTexts(const GraphModel& model, int node) {
    QStringList rows;
    for (const InlineRow& r : model.rowsOf(node)) {
        rows << r.text;
    }
    return rows;
}

}  // namespace

QSizeF boxSizeFor(const GraphModel& model, VisibleRef ref, const GroupPorts& ports) {
    if (ref.isGroup) {
        return NodeItem::boxSize(groupLabel(model, ref.index, ports), {});
    }
    const ModelNode& mn = model.nodes()[static_cast<std::size_t>(ref.index)];
    return NodeItem::boxSize(mn.label, rowTexts(model, ref.index));
}

QSizeF BoxSizes::operator()(const GraphModel& model, VisibleRef ref, const GroupPorts& ports) {
    const int options = (model.inlineInputs() ? 2 : 0) + (model.stateHidden() ? 1 : 0);
    if (options != options_) {
        clear();
        options_ = options;
    }
    if (ref.isGroup) {
        const std::uint64_t key = (std::uint64_t(ref.index) << 42) |
                                  (std::uint64_t(ports.inputs) << 21) |
                                  std::uint64_t(ports.outputs);
        const auto it = groups_.find(key);
        if (it != groups_.end()) {
            return it->second;
        }
        ++measured_;
        return groups_[key] = boxSizeFor(model, ref, ports);
    }
    const auto k = static_cast<std::size_t>(ref.index);
    if (nodes_.size() != model.nodes().size()) {
        nodes_.assign(model.nodes().size(), QSizeF());
    }
    QSizeF& size = nodes_[k];
    if (size.isEmpty()) {
        ++measured_;
        size = boxSizeFor(model, ref, ports);
    }
    return size;
}

void BoxSizes::clear() {
    nodes_.clear();
    groups_.clear();
}

std::vector<NodeItem*> populateScene(QGraphicsScene& scene, const GraphModel& model,
                                     const LayoutPlan& plan,
                                     const std::vector<GeometryPtr>& geometry) {
    scene.clear();
    std::vector<NodeItem*> items;
    const std::vector<QPointF> origin = frameOrigins(plan, geometry);
    // Frames nest: an inner one is drawn over the one holding it (fills are translucent).
    std::vector<int> depth(plan.groups.size(), 0);
    for (int k = plan.root(); k >= 0; --k) {
        for (const PlanItem& it : plan.groups[static_cast<std::size_t>(k)].items) {
            if (it.inner >= 0) {
                depth[static_cast<std::size_t>(it.inner)] = depth[static_cast<std::size_t>(k)] + 1;
            }
        }
    }
    for (std::size_t k = 0; k < plan.groups.size(); ++k) {
        const PlanGroup& g = plan.groups[k];
        const GeometryPtr& geo = geometry[k];
        if (!geo) {
            continue;
        }
        const QPointF at = origin[k];
        if (g.group >= 0) {
            const ModelGroup& grp = model.group(g.group);
            QString title = grp.title;
            if (grp.kind == GroupKind::Series) {
                title += QObject::tr("  (double-click to collapse)");
            }
            auto* frame = new ClusterItem(g.group, title, QRectF(at, geo->size));
            frame->setZValue(0.01 * depth[k]);  // under edges (1) and boxes (2)
            scene.addItem(frame);
        }
        for (std::size_t i = 0; i < g.items.size(); ++i) {
            const PlanItem& it = g.items[i];
            if (it.inner >= 0) {
                continue;  // its frame comes with its own group
            }
            const QRectF rect = geo->items[i].translated(at);
            NodeItem* item = nullptr;
            if (it.ref.isGroup) {
                const ModelGroup& grp = model.group(it.ref.index);
                item = new NodeItem(it.ref, groupLabel(model, it.ref.index, it.ports),
                                    NodeStyle::Primitive, rect);
                item->setToolTip(QObject::tr("%1: %2 nodes (collapsed) — double-click to expand")
                                     .arg(grp.title)
                                     .arg(grp.total));
            } else {
                const ModelNode& mn = model.nodes()[static_cast<std::size_t>(it.ref.index)];
                item =
                    new NodeItem(it.ref, mn.label, mn.style, rect, rowTexts(model, it.ref.index));
                item->setToolTip(model.tooltip(it.ref.index));
                item->setDimmed(mn.state);
            }
            scene.addItem(item);
            items.push_back(item);
        }
        for (std::size_t e = 0; e < g.edges.size() && e < geo->edges.size(); ++e) {
            const GroupGeometry::Edge& ge = geo->edges[e];
            if (ge.path.isEmpty()) {
                continue;
            }
            scene.addItem(new EdgeItem(ge.path.translated(at), g.edges[e].control,
                                       ge.arrow.translated(at), g.edges[e].count));
        }
    }
    const GeometryPtr& root = geometry.empty() ? nullptr : geometry.back();
    const QSizeF size = root ? root->size : QSizeF();
    scene.setSceneRect(QRectF(QPointF(0, 0), size).adjusted(-20, -20, 20, 20));
    return items;
}

}  // namespace irscope::ui
