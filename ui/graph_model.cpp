#include "graph_model.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include "ir/export_dot.h"
#include "ir/func_graph.h"
#include "ir/local_names.h"
#include "ops/op_registry.h"

namespace irscope::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// DOT string literal.
std::string dotQuote(const QString& text) {
    std::string out = "\"";
    for (char c : text.toStdString()) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out + '"';
}

QString elide(const QString& s, int max = 40) {
    return s.size() <= max ? s : s.left(max - 1) + QChar(0x2026);
}

bool isMonadValue(const ir::Node* n) {
    if (n->abstract() && n->abstract()->kind == ir::Abstract::Kind::Monad) {
        return true;
    }
    const auto* v = ir::nodeCast<ir::ValueNode>(n);
    return v != nullptr && v->value()->kind == ir::Value::Kind::Monad;
}

NodeStyle styleOf(const ir::CNode& c) {
    if (const ir::PrimitiveData* p = c.primitive()) {
        if (p->name == "UpdateState" || p->name == "Load" || p->name == "TensorMove") {
            return NodeStyle::Monad;
        }
        if (const ops::OpDef* def = ops::OpRegistry::instance().find(p->name)) {
            if (def->sideEffectMem || def->sideEffectIo) {
                return NodeStyle::SideEffect;
            }
        }
        return NodeStyle::Primitive;
    }
    return NodeStyle::GraphCall;  // `call @g`, or a call of a node (closure, Partial)
}

QString opName(const ir::CNode& c, const ir::LocalNames& names) {
    if (const ir::PrimitiveData* p = c.primitive()) {
        return q(p->name);
    }
    if (const ir::FuncGraph* g = c.calledGraph()) {
        return QStringLiteral("call @") + q(g->name());
    }
    const ir::Node* callee = c.callee();
    return callee == nullptr ? QStringLiteral("call") : QStringLiteral("call ") + q(names.of(*callee));
}

QString attrText(const ir::AttrMap& attrs) {
    QStringList parts;
    for (const auto& [key, value] : attrs) {
        parts << q(key) + QLatin1Char('=') + (value ? q(ir::valueSummary(*value)) : QString());
    }
    return parts.join(QStringLiteral(", "));
}

// Tooltip and search text of a node: shape and dtype, scope, source line, attributes.
void describe(ModelNode& m, const QString& op) {
    const ir::Node& n = *m.node;
    QStringList tip;
    QStringList search;
    tip << (m.name.isEmpty() ? op : m.name + QStringLiteral(" = ") + op);
    search << m.name << op;
    if (!n.debug().name.empty()) {
        search << q(n.debug().name);
    }
    if (n.abstract()) {
        const QString a = q(ir::abstractSummary(*n.abstract()));
        tip << QStringLiteral("abstract: ") + a;
        search << a;
    }
    if (const auto* c = ir::nodeCast<ir::CNode>(&n)) {
        QString attrs;
        if (const ir::PrimitiveData* p = c->primitive()) {
            attrs = attrText(p->attrs);
        }
        const QString cattrs = attrText(c->attrs());
        if (!cattrs.isEmpty()) {
            attrs += (attrs.isEmpty() ? QString() : QStringLiteral(", ")) + cattrs;
        }
        if (!attrs.isEmpty()) {
            tip << QStringLiteral("attrs: ") + elide(attrs, 120);
            search << attrs;
        }
    }
    if (!n.debug().scope.empty()) {
        tip << QStringLiteral("scope: ") + q(n.debug().scope);
        search << q(n.debug().scope);
    }
    for (const ir::SourceLocation& loc : n.debug().trace) {
        if (loc.line > 0) {
            tip << QStringLiteral("%1:%2  %3").arg(q(loc.file)).arg(loc.line).arg(q(loc.text).trimmed());
        }
    }
    m.tooltip = tip.join(QLatin1Char('\n'));
    m.searchText = search.join(QLatin1Char('\n'));
}

// The scope path of a node without its own last component ("Default/net-Net/Add-op0" ->
// {"Default", "net-Net"}).
QStringList scopeDirs(const ir::Node& n) {
    QStringList parts = q(n.debug().scope).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (!parts.isEmpty()) {
        parts.removeLast();
    }
    return parts;
}

}  // namespace

GraphModel::GraphModel(const ir::Module& m) {
    const ir::LocalNames names = ir::localNames(m);
    for (const ir::FuncGraph* g : names.order) {
        const int group = addGroup(QStringLiteral("@") + q(g->name()), -1, true);
        topGroups_.push_back(group);
        // The body in print order; parameters and constants follow their first user, so
        // when a big graph is split they land in the same subgroup.
        std::vector<int> body;
        std::vector<int> params;
        std::unordered_map<const ir::Node*, bool> pending;
        for (const ir::Parameter* p : g->parameters()) {
            ModelNode mn;
            mn.node = p;
            mn.name = q(names.of(*p));
            mn.label = mn.name;
            mn.style = NodeStyle::Parameter;
            describe(mn, QStringLiteral("parameter"));
            index_.emplace(p, static_cast<int>(nodes_.size()));
            pending.emplace(p, true);
            params.push_back(static_cast<int>(nodes_.size()));
            nodes_.push_back(std::move(mn));
        }
        for (const ir::CNode* c : g->topoOrder()) {
            ModelNode mn;
            mn.node = c;
            mn.name = q(names.of(*c));
            const QString op = opName(*c, names);
            mn.label = elide(op) + (mn.name.isEmpty() ? QString() : QLatin1Char('\n') + mn.name);
            mn.style = styleOf(*c);
            describe(mn, op);
            index_.emplace(c, static_cast<int>(nodes_.size()));
            body.push_back(static_cast<int>(nodes_.size()));
            nodes_.push_back(std::move(mn));
            for (const ir::Node* in : c->inputs()) {
                if (const auto it = pending.find(in); it != pending.end() && it->second) {
                    it->second = false;
                    body.push_back(index_.at(in));
                }
            }
            // Constants, one entry per use (input 0 is the op in the label when a value).
            for (std::size_t i = 1; i < c->size(); ++i) {
                const auto* v = ir::nodeCast<ir::ValueNode>(c->input(i));
                if (v == nullptr) {
                    continue;
                }
                ModelNode cn;
                cn.node = v;
                cn.user = c;
                cn.label = elide(q(ir::valueSummary(*v->value())), 32);
                cn.style = isMonadValue(v) ? NodeStyle::Monad : NodeStyle::Constant;
                describe(cn, cn.label);
                index_.emplace(v, static_cast<int>(nodes_.size()));
                edges_.push_back({static_cast<int>(nodes_.size()), index_.at(c),
                                  ir::classifyInput(*c, i) == ir::EdgeKind::Control});
                body.push_back(static_cast<int>(nodes_.size()));
                nodes_.push_back(std::move(cn));
            }
        }
        for (int p : params) {
            if (pending.at(nodes_[static_cast<std::size_t>(p)].node)) {
                nodes_[static_cast<std::size_t>(p)].group = group;
                groups_[static_cast<std::size_t>(group)].nodes.push_back(p);
            }
        }
        splitBody(group, body, 0);
    }
    // Edges between CNodes and parameters (also across graphs: free variables).
    for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
        const auto* c = ir::nodeCast<ir::CNode>(nodes_[static_cast<std::size_t>(k)].node);
        if (c == nullptr) {
            continue;
        }
        for (std::size_t i = 0; i < c->size(); ++i) {
            const ir::Node* in = c->input(i);
            if (in->isValue()) {
                continue;
            }
            const auto it = index_.find(in);
            if (it != index_.end()) {
                edges_.push_back({it->second, k, ir::classifyInput(*c, i) == ir::EdgeKind::Control});
            }
        }
    }
    // Totals, innermost groups first (children are created after their parents).
    for (int g = static_cast<int>(groups_.size()) - 1; g >= 0; --g) {
        ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        grp.total += static_cast<int>(grp.nodes.size());
        if (grp.parent >= 0) {
            groups_[static_cast<std::size_t>(grp.parent)].total += grp.total;
        }
    }
    expandWithin(kDefaultNodeBudget);
}

int GraphModel::addGroup(QString title, int parent, bool isGraph) {
    ModelGroup g;
    g.title = std::move(title);
    g.parent = parent;
    g.isGraph = isGraph;
    groups_.push_back(std::move(g));
    const int id = static_cast<int>(groups_.size()) - 1;
    if (parent >= 0) {
        groups_[static_cast<std::size_t>(parent)].children.push_back(id);
    }
    return id;
}

// Puts `body` (CNodes, each followed by its constants and first-used parameters) into `group`, split into subgroups when large:
// by the next scope component when the nodes have at least two, else in runs of the body.
void GraphModel::splitBody(int group, const std::vector<int>& body, int depth) {
    auto place = [&](int g, int n) {
        nodes_[static_cast<std::size_t>(n)].group = g;
        groups_[static_cast<std::size_t>(g)].nodes.push_back(n);
    };
    if (static_cast<int>(body.size()) <= kSplitThreshold) {
        for (int n : body) {
            place(group, n);
        }
        return;
    }
    // Scope component at `depth` of each CNode (constants follow their user).
    std::map<QString, std::vector<int>> byScope;
    std::vector<QString> scopeOrder;  // first appearance, as the program builds them
    std::vector<int> unscoped;
    QString current;
    bool currentScoped = false;
    for (int n : body) {
        const ModelNode& mn = nodes_[static_cast<std::size_t>(n)];
        if (mn.node->isCNode()) {
            const QStringList dirs = scopeDirs(*mn.node);
            currentScoped = dirs.size() > depth;
            current = currentScoped ? dirs[depth] : QString();
            if (currentScoped && !byScope.contains(current)) {
                scopeOrder.push_back(current);
            }
        }
        (currentScoped ? byScope[current] : unscoped).push_back(n);
    }
    // Nodes outside the scopes stay in the group itself, in runs when there are many.
    auto placeUnscoped = [&] {
        if (static_cast<int>(unscoped.size()) <= kSplitThreshold) {
            for (int n : unscoped) {
                place(group, n);
            }
        } else {
            splitRuns(group, unscoped);
        }
    };
    if (byScope.size() == 1 && depth < 8) {
        placeUnscoped();  // a prefix they all share ("Default"): look one level deeper
        splitBody(group, byScope.begin()->second, depth + 1);
        return;
    }
    if (byScope.size() >= 2) {
        placeUnscoped();
        for (const QString& scope : scopeOrder) {
            const int sub = addGroup(scope, group, false);
            splitBody(sub, byScope[scope], depth + 1);
        }
        return;
    }
    splitRuns(group, body);
}

// No scopes to split by: runs of the body in print order, each node with its followers.
void GraphModel::splitRuns(int group, const std::vector<int>& body) {
    std::size_t start = 0;
    while (start < body.size()) {
        std::size_t end = std::min(body.size(), start + static_cast<std::size_t>(kSplitThreshold));
        while (end < body.size() && !nodes_[static_cast<std::size_t>(body[end])].node->isCNode()) {
            ++end;
        }
        QString first;
        QString last;
        for (std::size_t k = start; k < end; ++k) {
            const QString& name = nodes_[static_cast<std::size_t>(body[k])].name;
            if (!name.isEmpty()) {
                (first.isEmpty() ? first : last) = name;
            }
        }
        const int sub = addGroup(first + QStringLiteral(" … ") + last, group, false);
        for (std::size_t k = start; k < end; ++k) {
            nodes_[static_cast<std::size_t>(body[k])].group = sub;
            groups_[static_cast<std::size_t>(sub)].nodes.push_back(body[k]);
        }
        start = end;
    }
}

void GraphModel::expandWithin(int budget) {
    for (ModelGroup& g : groups_) {
        g.expanded = false;
    }
    int drawn = static_cast<int>(topGroups_.size());
    std::deque<int> queue(topGroups_.begin(), topGroups_.end());
    while (!queue.empty()) {
        const int g = queue.front();
        queue.pop_front();
        ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        const int delta = static_cast<int>(grp.nodes.size() + grp.children.size()) - 1;
        if (drawn + delta > budget) {
            continue;
        }
        grp.expanded = true;
        drawn += delta;
        queue.insert(queue.end(), grp.children.begin(), grp.children.end());
    }
}

void GraphModel::setExpanded(int group, bool expanded) {
    groups_.at(static_cast<std::size_t>(group)).expanded = expanded;
}

bool GraphModel::reveal(int node) {
    bool changed = false;
    for (int g = nodes_.at(static_cast<std::size_t>(node)).group; g >= 0;
         g = groups_[static_cast<std::size_t>(g)].parent) {
        changed |= !groups_[static_cast<std::size_t>(g)].expanded;
        groups_[static_cast<std::size_t>(g)].expanded = true;
    }
    return changed;
}

bool GraphModel::groupVisible(int g) const {
    for (int p = groups_[static_cast<std::size_t>(g)].parent; p >= 0;
         p = groups_[static_cast<std::size_t>(p)].parent) {
        if (!groups_[static_cast<std::size_t>(p)].expanded) {
            return false;
        }
    }
    return true;
}

VisibleRef GraphModel::visibleFor(int node) const {
    VisibleRef ref{false, node};
    for (int g = nodes_.at(static_cast<std::size_t>(node)).group; g >= 0;
         g = groups_[static_cast<std::size_t>(g)].parent) {
        if (!groups_[static_cast<std::size_t>(g)].expanded) {
            ref = {true, g};  // keep going: the outermost collapsed group wins
        }
    }
    return ref;
}

int GraphModel::visibleCount() const {
    int count = 0;
    for (int g = 0; g < static_cast<int>(groups_.size()); ++g) {
        if (!groupVisible(g)) {
            continue;
        }
        const ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        count += grp.expanded ? static_cast<int>(grp.nodes.size()) : 1;
    }
    return count;
}

DotScene GraphModel::makeDot() const {
    DotScene out;
    std::string& dot = out.dot;
    dot += "digraph irscope {\n"
           "  graph [rankdir=TB, compound=true, fontname=\"DejaVu Sans\", fontsize=12, "
           "nodesep=0.25, ranksep=0.35];\n"
           "  node [fontname=\"DejaVu Sans\", fontsize=10, shape=box];\n";
    std::map<std::pair<bool, int>, int> itemOf;
    auto addItem = [&](VisibleRef ref, const std::string& indent) {
        const int k = static_cast<int>(out.items.size());
        out.items.push_back(ref);
        itemOf[{ref.isGroup, ref.index}] = k;
        const QString label =
            ref.isGroup ? group(ref.index).title + QStringLiteral("\n%1 nodes").arg(group(ref.index).total)
                        : nodes_[static_cast<std::size_t>(ref.index)].label;
        dot += indent + "v" + std::to_string(k) + " [label=" + dotQuote(label) + "];\n";
    };
    // Expanded groups become clusters, collapsed ones boxes, recursively.
    auto emitGroup = [&](auto&& self, int g, const std::string& indent) -> void {
        const ModelGroup& grp = group(g);
        if (!grp.expanded) {
            addItem({true, g}, indent);
            return;
        }
        const int cluster = static_cast<int>(out.clusterGroups.size());
        out.clusterGroups.push_back(g);
        dot += indent + "subgraph cluster_" + std::to_string(cluster) + " {\n";
        dot += indent + "  label=" + dotQuote(grp.title) + ";\n";
        for (int n : grp.nodes) {
            addItem({false, n}, indent + "  ");
        }
        for (int c : grp.children) {
            self(self, c, indent + "  ");
        }
        if (grp.nodes.empty() && grp.children.empty()) {
            addItem({true, g}, indent + "  ");  // an empty graph still shows
        }
        dot += indent + "}\n";
    };
    // The items of each top-level graph: [first, end) in out.items.
    std::vector<std::pair<int, int>> topItems;
    std::vector<int> topOf;  // per item: its top-level graph
    for (int g : topGroups_) {
        const int first = static_cast<int>(out.items.size());
        emitGroup(emitGroup, g, "  ");
        topItems.emplace_back(first, static_cast<int>(out.items.size()));
        topOf.resize(out.items.size(), static_cast<int>(topItems.size()) - 1);
    }
    const int top = static_cast<int>(topGroups_.size());
    const bool grid = top > kGridThreshold;
    int gridColumns = 0;
    if (grid) {
        // Many graphs side by side make a strip one rank tall (or, chained by calls, one box
        // wide). Instead: columns of graphs, each graph under the one `columns` before it
        // (an invisible edge from its last item to the next one's first), the whole about
        // 1.5 times as wide as tall, as screens are. Sizes are estimated from the labels as
        // dot sizes them (10 pt text, boxes 0.75 x 0.5 in at least, nodesep and ranksep).
        auto labelWidth = [&](VisibleRef r) {
            const QString label = r.isGroup ? group(r.index).title : nodes_[static_cast<std::size_t>(r.index)].label;
            qsizetype chars = 0;
            for (const QString& line : label.split(QLatin1Char('\n'))) {
                chars = std::max(chars, line.size());
            }
            return std::max(54.0, 6.0 * static_cast<double>(chars) + 16.0) + 18.0;
        };
        constexpr double kRowHeight = 36.0 + 25.0;
        double width = 0.0;
        double height = 0.0;
        for (const auto& [first, end] : topItems) {
            double w = 0.0;
            for (int k = first; k < end; ++k) {
                w = std::max(w, labelWidth(out.items[static_cast<std::size_t>(k)]));
            }
            const bool box = end - first == 1 && out.items[static_cast<std::size_t>(first)].isGroup;
            width += box ? w : w + 30.0;
            height += box ? kRowHeight : kRowHeight * (0.7 * (end - first) + 1.0);
        }
        // c columns: c * width/top wide, top/c * height/top tall.
        const int columns =
            std::clamp(static_cast<int>(std::lround(std::sqrt(1.5 * top * height / width))), 1, top);
        // When every graph is one box, each row shares a rank: a clean grid.
        const bool boxes = static_cast<int>(out.items.size()) == top;
        for (int row = 0; boxes && row < top; row += columns) {
            dot += "  { rank=same;";
            for (int t = row; t < std::min(top, row + columns); ++t) {
                dot += " v" + std::to_string(topItems[static_cast<std::size_t>(t)].first) + ";";
            }
            dot += " }\n";
        }
        gridColumns = columns;
    }
    // Edges between what is drawn; those inside one collapsed group vanish, parallel ones
    // merge (data wins over control for the style).
    std::map<std::pair<int, int>, std::size_t> merged;
    for (const ModelEdge& e : edges_) {
        const VisibleRef a = visibleFor(e.from);
        const VisibleRef b = visibleFor(e.to);
        if (a == b) {
            continue;
        }
        const int tail = itemOf.at({a.isGroup, a.index});
        const int head = itemOf.at({b.isGroup, b.index});
        const auto [it, fresh] = merged.try_emplace({tail, head}, out.edges.size());
        if (fresh) {
            out.edges.push_back({tail, head, e.control, 1});
        } else {
            DotScene::Edge& m = out.edges[it->second];
            ++m.count;
            m.control = m.control && e.control;
        }
    }
    for (std::size_t k = 0; k < out.edges.size(); ++k) {
        const DotScene::Edge& e = out.edges[k];
        dot += "  v" + std::to_string(e.tail) + " -> v" + std::to_string(e.head) + " [id=e" +
               std::to_string(k) + (e.control ? ", style=dashed" : "") +
               (grid && topOf[static_cast<std::size_t>(e.tail)] != topOf[static_cast<std::size_t>(e.head)]
                    ? ", constraint=false"
                    : "") +
               (e.count > 1 ? ", penwidth=2" : "") + "];\n";
    }
    if (grid) {
        // Graph t + columns goes under graph t: an invisible edge from t's last item (its
        // Return) to every source of t + columns (items no edge inside that graph enters),
        // so none of it floats up beside graph t.
        std::vector<bool> entered(out.items.size(), false);
        for (const DotScene::Edge& e : out.edges) {
            if (topOf[static_cast<std::size_t>(e.tail)] == topOf[static_cast<std::size_t>(e.head)]) {
                entered[static_cast<std::size_t>(e.head)] = true;
            }
        }
        for (int t = 0; t + gridColumns < top; ++t) {
            const auto [first, end] = topItems[static_cast<std::size_t>(t + gridColumns)];
            for (int k = first; k < end; ++k) {
                if (!entered[static_cast<std::size_t>(k)]) {
                    dot += "  v" + std::to_string(topItems[static_cast<std::size_t>(t)].second - 1) + " -> v" +
                           std::to_string(k) + " [id=grid_" + std::to_string(t) + "_" + std::to_string(k) +
                           ", style=invis];\n";
                }
            }
        }
    }
    dot += "}\n";
    return out;
}

std::vector<int> GraphModel::search(const QRegularExpression& re) const {
    std::vector<int> hits;
    if (!re.isValid() || re.pattern().isEmpty()) {
        return hits;
    }
    for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
        if (re.match(nodes_[static_cast<std::size_t>(k)].searchText).hasMatch()) {
            hits.push_back(k);
        }
    }
    return hits;
}

int GraphModel::indexOf(const ir::Node* n) const {
    const auto it = index_.find(n);
    return it == index_.end() ? -1 : it->second;
}

int findNodeLine(const QStringList& lines, int fromLine, const QString& localName) {
    if (localName.isEmpty()) {
        return -1;
    }
    const bool param = localName.startsWith(QStringLiteral("%para"));
    const QString lead = param ? localName : QStringLiteral("  ") + localName;
    for (int i = param ? 0 : std::max(0, fromLine); i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (!param && i > fromLine && l.startsWith(QStringLiteral("subgraph "))) {
            break;
        }
        if (l.startsWith(lead) && l.size() > lead.size()) {
            const QChar next = l[lead.size()];
            if (next == QLatin1Char(' ') || next == QLatin1Char('(') || next == QLatin1Char(':')) {
                return i;
            }
        }
    }
    return -1;
}

}  // namespace irscope::ui
