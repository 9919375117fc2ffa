#include "graph_layout.h"

#include <QLineF>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "layout/graphviz.h"

namespace irscope::ui {

namespace {

// Where a drawn thing sits: its plan group and item index.
struct Slot {
    int group = -1;
    int item = -1;
};

// Sizes go to dot in whole points rounded up to 4, so near-identical boxes (%12 / %123)
// give the same DOT and share a cached layout.
double snap(double v) {
    return std::ceil(v / 4.0) * 4.0;
}

QPolygonF arrowAt(QPointF tip, QPointF from) {
    QLineF line(tip, from);
    if (line.length() < 1e-6) {
        return {};
    }
    line.setLength(7.0);
    const QPointF base = line.p2();
    const QPointF d = tip - base;
    const QPointF n(-d.y() * 0.45, d.x() * 0.45);
    return QPolygonF{} << tip << base + n << base - n;
}

// A straight edge from the bottom of `a` to the top of `b` (or sideways when `b` is not
// below `a`), with its arrowhead.
GroupGeometry::Edge straightEdge(const QRectF& a, const QRectF& b, double sideX) {
    GroupGeometry::Edge e;
    if (b.top() >= a.bottom()) {
        const QPointF from(a.center().x(), a.bottom());
        const QPointF to(b.center().x(), b.top());
        e.path.moveTo(from);
        e.path.lineTo(to);
        e.arrow = arrowAt(to, from);
    } else {
        // Back up the stack: out of the right side, along a lane, into the right side.
        const QPointF from(a.right(), a.center().y());
        const QPointF to(b.right(), b.center().y());
        e.path.moveTo(from);
        e.path.lineTo(sideX, from.y());
        e.path.lineTo(sideX, to.y());
        e.path.lineTo(to);
        e.arrow = arrowAt(to, QPointF(sideX, to.y()));
    }
    return e;
}

double margin(const PlanGroup& g) {
    return g.group < 0 ? 0.0 : kFramePadding;
}
double titleSpace(const PlanGroup& g) {
    return g.group < 0 ? 0.0 : kFrameTitle;
}

std::string dotOf(const PlanGroup& g) {
    std::string dot =
        "digraph g {\n graph [rankdir=TB, nodesep=0.3, ranksep=0.45];\n"
        " node [shape=box, fixedsize=true, label=\"\"];\n";
    char buf[96];
    for (std::size_t k = 0; k < g.items.size(); ++k) {
        std::snprintf(buf, sizeof buf, " v%zu [width=%.4f, height=%.4f];\n", k,
                      g.items[k].size.width() / 72.0, g.items[k].size.height() / 72.0);
        dot += buf;
    }
    for (std::size_t k = 0; k < g.edges.size(); ++k) {
        std::snprintf(buf, sizeof buf, " v%d -> v%d [id=e%zu];\n", g.edges[k].tail, g.edges[k].head,
                      k);
        dot += buf;
    }
    return dot + "}\n";
}

GeometryPtr dotLayout(const PlanGroup& g) {
    const layout::Layout l = layout::layoutDot(dotOf(g));
    auto geo = std::make_shared<GroupGeometry>();
    const double pad = margin(g);
    const double title = titleSpace(g);
    const double left = l.bbox.x0 - pad;
    const double top = l.bbox.y1 + pad + title;  // Graphviz's y grows upward
    auto pt = [&](const layout::Point& p) { return QPointF(p.x - left, top - p.y); };
    geo->size = QSizeF(l.bbox.width() + 2 * pad, l.bbox.height() + 2 * pad + title);
    geo->items.resize(g.items.size());
    for (const layout::LayoutNode& n : l.nodes) {
        const std::size_t k = std::stoul(n.name.substr(1));
        if (k < g.items.size()) {
            const QSizeF s = g.items[k].size;
            geo->items[k] = QRectF(pt({n.x, n.y}) - QPointF(s.width() / 2, s.height() / 2), s);
        }
    }
    geo->edges.resize(g.edges.size());
    for (const layout::LayoutEdge& e : l.edges) {
        if (e.id.size() < 2 || e.points.empty()) {
            continue;
        }
        const std::size_t k = std::stoul(e.id.substr(1));
        if (k >= g.edges.size()) {
            continue;
        }
        GroupGeometry::Edge& out = geo->edges[k];
        out.path = QPainterPath(pt(e.points[0]));
        std::size_t i = 1;
        for (; i + 2 < e.points.size(); i += 3) {
            out.path.cubicTo(pt(e.points[i]), pt(e.points[i + 1]), pt(e.points[i + 2]));
        }
        for (; i < e.points.size(); ++i) {
            out.path.lineTo(pt(e.points[i]));
        }
        if (e.hasArrowHead) {
            out.arrow = arrowAt(pt(e.arrowHead), pt(e.points.back()));
        }
    }
    return geo;
}

// A series' blocks one under the other, centred; edges straight down, back edges on the side.
GeometryPtr stackLayout(const PlanGroup& g) {
    constexpr double kGap = 30.0;
    auto geo = std::make_shared<GroupGeometry>();
    double width = 0;
    for (const PlanItem& it : g.items) {
        width = std::max(width, it.size.width());
    }
    const double pad = margin(g);
    double y = pad + titleSpace(g);
    for (const PlanItem& it : g.items) {
        geo->items.emplace_back(QPointF(pad + (width - it.size.width()) / 2, y), it.size);
        y += it.size.height() + kGap;
    }
    const double lane = pad + width + 12.0;
    geo->size = QSizeF(width + 2 * pad + 24.0, y - kGap + pad);
    for (const PlanEdge& e : g.edges) {
        geo->edges.push_back(straightEdge(geo->items[static_cast<std::size_t>(e.tail)],
                                          geo->items[static_cast<std::size_t>(e.head)], lane));
    }
    return geo;
}

// Many top-level graphs: rows of boxes about 1.5 times as wide as tall, in print order.
GeometryPtr gridLayout(const PlanGroup& g) {
    constexpr double kGap = 30.0;
    auto geo = std::make_shared<GroupGeometry>();
    double area = 0;
    double widest = 0;
    for (const PlanItem& it : g.items) {
        area += (it.size.width() + kGap) * (it.size.height() + kGap);
        widest = std::max(widest, it.size.width());
    }
    const double rowWidth = std::max(widest, std::sqrt(1.5 * area));
    double x = 0;
    double y = 0;
    double rowHeight = 0;
    double width = 0;
    for (const PlanItem& it : g.items) {
        if (x > 0 && x + it.size.width() > rowWidth) {
            x = 0;
            y += rowHeight + kGap;
            rowHeight = 0;
        }
        geo->items.emplace_back(QPointF(x, y), it.size);
        x += it.size.width() + kGap;
        width = std::max(width, x - kGap);
        rowHeight = std::max(rowHeight, it.size.height());
    }
    geo->size = QSizeF(width, y + rowHeight);
    for (const PlanEdge& e : g.edges) {
        const QRectF& a = geo->items[static_cast<std::size_t>(e.tail)];
        const QRectF& b = geo->items[static_cast<std::size_t>(e.head)];
        GroupGeometry::Edge edge;
        edge.path.moveTo(a.center());
        // Clip at b's border along the line between centres.
        const QLineF line(a.center(), b.center());
        QPointF end = b.center();
        const QPointF d = line.p2() - line.p1();
        if (std::abs(d.x()) > 1e-6 || std::abs(d.y()) > 1e-6) {
            const double tx = std::abs(d.x()) > 1e-6 ? (b.width() / 2) / std::abs(d.x()) : 1e9;
            const double ty = std::abs(d.y()) > 1e-6 ? (b.height() / 2) / std::abs(d.y()) : 1e9;
            end = b.center() - d * std::min(1.0, std::min(tx, ty));
        }
        edge.path.lineTo(end);
        edge.arrow = arrowAt(end, a.center());
        geo->edges.push_back(std::move(edge));
    }
    return geo;
}

}  // namespace

LayoutPlan makePlan(const GraphModel& model, const BoxSizer& sizeOf) {
    LayoutPlan plan;
    // Where drawn things sit: node boxes by model node, collapsed groups by model group.
    std::vector<Slot> nodeSlot(model.nodes().size());
    std::vector<Slot> groupSlot(model.groups().size());
    std::vector<Slot> frameOf(model.groups().size());  // expanded groups: their frame item
    std::vector<int> depth;                            // per plan group
    auto build = [&](auto&& self, int g, int d) -> int {
        PlanGroup pg;
        pg.group = g;
        auto addChild = [&](int c) {
            const ModelGroup& child = model.group(c);
            PlanItem it;
            it.ref = {true, c};
            if (child.expanded) {
                it.inner = self(self, c, d + 1);
            }
            pg.items.push_back(it);
        };
        if (g < 0) {
            for (int c : model.topGroups()) {
                addChild(c);
            }
        } else {
            const ModelGroup& grp = model.group(g);
            for (int n : grp.nodes) {
                if (model.nodes()[static_cast<std::size_t>(n)].placement == Placement::Own) {
                    pg.items.push_back(PlanItem{{false, n}, {}, -1, {}});
                }
            }
            for (int c : grp.children) {
                addChild(c);
            }
            if (pg.items.empty()) {
                pg.items.push_back(PlanItem{{true, g}, {}, -1, {}});  // an empty graph still shows
            }
            pg.mode = grp.kind == GroupKind::Series ? PlanMode::Stack : PlanMode::Dot;
        }
        if (g < 0 && static_cast<int>(pg.items.size()) > kGridThreshold) {
            pg.mode = PlanMode::Grid;
        }
        const int index = static_cast<int>(plan.groups.size());
        for (int k = 0; k < static_cast<int>(pg.items.size()); ++k) {
            const PlanItem& it = pg.items[static_cast<std::size_t>(k)];
            const auto at = static_cast<std::size_t>(it.ref.index);
            if (it.inner >= 0) {
                frameOf[at] = {index, k};
            } else {
                (it.ref.isGroup ? groupSlot : nodeSlot)[at] = {index, k};
            }
        }
        plan.groups.push_back(std::move(pg));
        depth.push_back(d);
        return index;
    };
    build(build, -1, 0);

    // Per group: the outermost collapsed group it is in (itself included), or -1 when it is
    // drawn open; one pass from the top instead of a walk up per edge end.
    std::vector<int> collapsedAs(model.groups().size(), -1);
    auto mark = [&](auto&& self, int g, int outer) -> void {
        const ModelGroup& grp = model.group(g);
        const int rep = outer >= 0 ? outer : (grp.expanded ? -1 : g);
        collapsedAs[static_cast<std::size_t>(g)] = rep;
        for (int c : grp.children) {
            self(self, c, rep);
        }
    };
    for (int g : model.topGroups()) {
        mark(mark, g, -1);
    }
    const auto& nodes = model.nodes();
    auto shown = [&](int n) -> VisibleRef {
        const int g = nodes[static_cast<std::size_t>(n)].group;
        const int rep = g < 0 ? -1 : collapsedAs[static_cast<std::size_t>(g)];
        return rep >= 0 ? VisibleRef{true, rep} : VisibleRef{false, n};
    };

    // Edges: each between the two items of their lowest common drawn group, merged per pair.
    // Ports count distinct sources; the drawn edges come ordered by source, so a group has
    // seen a source before exactly when it last saw this one.
    std::unordered_map<std::uint64_t, std::size_t> merged;
    std::vector<int> inputs(model.groups().size(), 0);
    std::vector<int> outputs(model.groups().size(), 0);
    std::vector<int> lastIn(model.groups().size(), -1);
    std::vector<int> lastOut(model.groups().size(), -1);
    for (const ModelEdge& e : model.drawnEdges()) {
        const int src = e.from;
        const VisibleRef a = shown(src);
        const VisibleRef b = shown(e.to);
        if (a == b) {
            continue;
        }
        Slot sa = (a.isGroup ? groupSlot : nodeSlot)[static_cast<std::size_t>(a.index)];
        Slot sb = (b.isGroup ? groupSlot : nodeSlot)[static_cast<std::size_t>(b.index)];
        if (sa.group < 0 || sb.group < 0) {
            continue;
        }
        auto up = [&](Slot& s) {
            const int g = plan.groups[static_cast<std::size_t>(s.group)].group;
            s = frameOf[static_cast<std::size_t>(g)];
        };
        while (sa.group != sb.group) {
            const int da = depth[static_cast<std::size_t>(sa.group)];
            const int db = depth[static_cast<std::size_t>(sb.group)];
            if (da >= db) {
                up(sa);
            }
            if (db >= da) {
                up(sb);
            }
        }
        if (sa.item == sb.item) {
            continue;
        }
        PlanGroup& pg = plan.groups[static_cast<std::size_t>(sa.group)];
        const std::uint64_t key = (std::uint64_t(sa.group) << 42) | (std::uint64_t(sa.item) << 21) |
                                  std::uint64_t(sb.item);
        const auto [it, fresh] = merged.try_emplace(key, pg.edges.size());
        if (fresh) {
            pg.edges.push_back({sa.item, sb.item, e.control, 1});
        } else {
            PlanEdge& pe = pg.edges[it->second];
            ++pe.count;
            pe.control = pe.control && e.control;
        }
        if (a.isGroup && std::exchange(lastOut[static_cast<std::size_t>(a.index)], src) != src) {
            ++outputs[static_cast<std::size_t>(a.index)];
        }
        if (b.isGroup && std::exchange(lastIn[static_cast<std::size_t>(b.index)], src) != src) {
            ++inputs[static_cast<std::size_t>(b.index)];
        }
    }
    for (PlanGroup& pg : plan.groups) {
        for (PlanItem& it : pg.items) {
            if (it.inner < 0) {
                if (it.ref.isGroup) {
                    it.ports.inputs = inputs[static_cast<std::size_t>(it.ref.index)];
                    it.ports.outputs = outputs[static_cast<std::size_t>(it.ref.index)];
                }
                const QSizeF s = sizeOf(it.ref, it.ports);
                it.size = QSizeF(snap(s.width()), snap(s.height()));
            }
        }
    }
    return plan;
}

GeometryPtr LayoutCache::find(const std::string& dot) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(dot);
    if (it == entries_.end()) {
        ++misses_;
        return nullptr;
    }
    ++hits_;
    return it->second;
}

void LayoutCache::insert(const std::string& dot, GeometryPtr geometry) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() > 4096) {
        entries_.clear();  // a bound, not a policy: views rarely hold this many groups
    }
    entries_[dot] = std::move(geometry);
}

std::size_t LayoutCache::size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_.size();
}

std::vector<GeometryPtr> layOutPlan(LayoutPlan& plan, LayoutCache& cache,
                                    const std::function<bool()>& cancelled) {
    std::vector<GeometryPtr> out(plan.groups.size());
    for (std::size_t k = 0; k < plan.groups.size(); ++k) {
        if (cancelled && cancelled()) {
            break;
        }
        PlanGroup& g = plan.groups[k];
        for (PlanItem& it : g.items) {
            if (it.inner >= 0 && out[static_cast<std::size_t>(it.inner)]) {
                const QSizeF s = out[static_cast<std::size_t>(it.inner)]->size;
                it.size = QSizeF(snap(s.width()), snap(s.height()));
            }
        }
        switch (g.mode) {
            case PlanMode::Stack:
                out[k] = stackLayout(g);
                break;
            case PlanMode::Grid:
                out[k] = gridLayout(g);
                break;
            case PlanMode::Dot: {
                // The frame's padding and title are part of the geometry, not of the DOT:
                // a root and a frame with the same inside differ by them.
                std::string key = dotOf(g) + (g.group < 0 ? "root" : "frame");
                GeometryPtr geo = cache.find(key);
                if (!geo) {
                    geo = dotLayout(g);
                    cache.insert(key, geo);
                }
                out[k] = std::move(geo);
                break;
            }
        }
    }
    return out;
}

std::vector<QPointF> frameOrigins(const LayoutPlan& plan,
                                  const std::vector<GeometryPtr>& geometry) {
    std::vector<QPointF> origin(plan.groups.size());
    for (int k = plan.root(); k >= 0; --k) {  // parents after their inner groups: walk back
        const PlanGroup& g = plan.groups[static_cast<std::size_t>(k)];
        const GeometryPtr& geo = geometry[static_cast<std::size_t>(k)];
        if (!geo) {
            continue;
        }
        for (std::size_t i = 0; i < g.items.size(); ++i) {
            if (g.items[i].inner >= 0) {
                origin[static_cast<std::size_t>(g.items[i].inner)] =
                    origin[static_cast<std::size_t>(k)] + geo->items[i].topLeft();
            }
        }
    }
    return origin;
}

}  // namespace irscope::ui
