#include "graph_model.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include "ir/export_dot.h"
#include "ir/func_graph.h"
#include "ir/local_names.h"
#include "ir/monad.h"
#include "ir/node.h"
#include "ops/op_registry.h"

namespace irscope::ui {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString elide(const QString& s, int max = 40) {
    return s.size() <= max ? s : s.left(max - 1) + QChar(0x2026);
}

NodeStyle styleOf(const ir::CNode& c) {
    if (const ir::PrimitiveData* p = c.primitive()) {
        if (p->name == "UpdateState" || p->name == "Load" || p->name == "TensorMove" ||
            p->name == "Depend") {
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
    return callee == nullptr ? QStringLiteral("call")
                             : QStringLiteral("call ") + q(names.of(*callee));
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
            tip << QStringLiteral("%1:%2  %3")
                       .arg(q(loc.file))
                       .arg(loc.line)
                       .arg(q(loc.text).trimmed());
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

// Weights: a default value, or a Ref type (also as text the reader kept verbatim, as older
// dumps print it: `<Ref[Tensor(F32)], (6, 1, 5, 5)>`).
bool isWeight(const ir::Parameter& p) {
    if (p.hasDefault()) {
        return true;
    }
    const ir::Abstract* a = p.abstract().get();
    if (a == nullptr) {
        return false;
    }
    if (a->kind == ir::Abstract::Kind::Ref) {
        return true;
    }
    const std::string_view t = a->text;
    return a->kind == ir::Abstract::Kind::Opaque &&
           (t.rfind("<Ref[", 0) == 0 || t.rfind("Ref[", 0) == 0);
}

bool isStateOp(const ir::CNode& c) {
    const ir::PrimitiveData* p = c.primitive();
    return p != nullptr && (p->name == "UpdateState" || p->name == "Load" || p->name == "Depend");
}

// What a weight or constant row says: "conv1.weight  Float32 (6, 1, 5, 5)", "(32, -1)".
QString rowText(const ModelNode& m) {
    if (const auto* p = ir::nodeCast<ir::Parameter>(m.node)) {
        QString shape;
        if (p->abstract()) {
            shape = q(ir::abstractSummary(*p->abstract()));
            if (shape.startsWith(QStringLiteral("Ref "))) {
                shape = shape.mid(4);
            } else if (shape.startsWith(QStringLiteral("Ref[")) ||
                       shape.startsWith(QStringLiteral("<Ref["))) {
                // Verbatim `Ref[Tensor(F32)], (6, 1, 5, 5)`: "Tensor(F32) (6, 1, 5, 5)".
                shape = shape.mid(shape.indexOf(QLatin1Char('[')) + 1);
                if (shape.endsWith(QLatin1Char('>'))) {
                    shape.chop(1);
                }
                shape.replace(QStringLiteral("], "), QStringLiteral(" "));
            }
        }
        return elide(q(p->name()), 32) + QStringLiteral("  ") + elide(shape, 36);
    }
    return m.label;
}

// The op of an entry for series signatures: the primitive or "call", "W", "C".
QString signatureOp(const ModelNode& m) {
    if (const auto* c = ir::nodeCast<ir::CNode>(m.node)) {
        const ir::PrimitiveData* p = c->primitive();
        return p != nullptr ? q(p->name) : QStringLiteral("call");
    }
    return m.node->isParameter() ? QStringLiteral("W") : QStringLiteral("C");
}

}  // namespace

GraphModel::GraphModel(const ir::Module& m) {
    const ir::LocalNames names = ir::localNames(m);
    for (const ir::FuncGraph* g : names.order) {
        const int group = addGroup(QStringLiteral("@") + q(g->name()), -1, GroupKind::Graph);
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
            mn.style = ir::isMonad(p) ? NodeStyle::Monad : NodeStyle::Parameter;
            mn.weight = isWeight(*p);
            mn.state = ir::isMonad(p);
            describe(mn, QStringLiteral("parameter"));
            index_.emplace(p, static_cast<int>(nodes_.size()));
            // Weights follow their first user into its subgroup; inputs stay at the graph's top.
            pending.emplace(p, mn.weight);
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
            mn.state = isStateOp(*c);
            describe(mn, op);
            const int self = static_cast<int>(nodes_.size());
            index_.emplace(c, self);
            body.push_back(self);
            nodes_.push_back(std::move(mn));
            inputsOf_.resize(nodes_.size());
            std::vector<int>& ins = inputsOf_[static_cast<std::size_t>(self)];
            ins.assign(c->size() > 0 ? c->size() - 1 : 0, -1);
            for (std::size_t i = 1; i < c->size(); ++i) {
                if (!c->input(i)->isValue()) {
                    if (const auto it = index_.find(c->input(i)); it != index_.end()) {
                        ins[i - 1] = it->second;
                    }
                }
            }
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
                cn.style = ir::isMonad(v) ? NodeStyle::Monad : NodeStyle::Constant;
                cn.state = ir::isMonad(v);
                describe(cn, cn.label);
                index_.emplace(v, static_cast<int>(nodes_.size()));
                inputsOf_[static_cast<std::size_t>(self)][i - 1] = static_cast<int>(nodes_.size());
                edges_.push_back({static_cast<int>(nodes_.size()), index_.at(c),
                                  ir::classifyInput(*c, i) == ir::EdgeKind::Control});
                body.push_back(static_cast<int>(nodes_.size()));
                nodes_.push_back(std::move(cn));
            }
        }
        for (int p : params) {  // inputs, and weights nothing uses
            const ModelNode& pn = nodes_[static_cast<std::size_t>(p)];
            if (!pn.weight || pending.at(pn.node)) {
                nodes_[static_cast<std::size_t>(p)].group = group;
                groups_[static_cast<std::size_t>(group)].nodes.push_back(p);
            }
        }
        splitBody(group, body, 0);
    }
    // Edges between CNodes and parameters (also across graphs: free variables).
    inputsOf_.resize(nodes_.size());
    int cnodes = 0;
    for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
        const auto* c = ir::nodeCast<ir::CNode>(nodes_[static_cast<std::size_t>(k)].node);
        if (c == nullptr) {
            continue;
        }
        ++cnodes;
        for (std::size_t i = 0; i < c->size(); ++i) {
            const ir::Node* in = c->input(i);
            if (in->isValue()) {
                continue;
            }
            const auto it = index_.find(in);
            if (it != index_.end()) {
                edges_.push_back(
                    {it->second, k, ir::classifyInput(*c, i) == ir::EdgeKind::Control});
                if (i > 0) {
                    inputsOf_[static_cast<std::size_t>(k)][i - 1] = it->second;
                }
            }
        }
    }
    findSeries();
    // Totals and depths, parents before children.
    auto fill = [&](auto&& self, int g, int depth) -> int {
        ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        grp.depth = depth;
        int total = static_cast<int>(grp.nodes.size());
        for (int c : grp.children) {
            total += self(self, c, depth + 1);
        }
        groups_[static_cast<std::size_t>(g)].total = total;
        return total;
    };
    for (int g : topGroups_) {
        fill(fill, g, 0);
    }
    stateHidden_ = cnodes > kHideStateAbove;
    place();
    expandWithin(kDefaultNodeBudget);
}

void GraphModel::setOptions(bool inlineInputs, bool stateHidden) {
    if (inlineInputs == inlineInputs_ && stateHidden == stateHidden_) {
        return;
    }
    inlineInputs_ = inlineInputs;
    stateHidden_ = stateHidden;
    place();
}

// Placements and rows under the current options: state first (aliases and hidden), then
// weights and constants into the rows of every drawn user; a weight no drawn op uses keeps
// its own box.
void GraphModel::place() {
    const std::size_t count = nodes_.size();
    rows_.assign(count, {});
    for (ModelNode& m : nodes_) {
        m.host = -1;
        m.placement = Placement::Own;
        if (stateHidden_ && m.state) {
            const auto* c = ir::nodeCast<ir::CNode>(m.node);
            const ir::PrimitiveData* p = c != nullptr ? c->primitive() : nullptr;
            m.placement = p != nullptr && (p->name == "Load" || p->name == "Depend")
                              ? Placement::Alias
                              : Placement::Hidden;
        } else if (inlineInputs_ && ((m.user != nullptr && !m.state) || m.weight)) {
            m.placement = Placement::Inline;
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        ModelNode& m = nodes_[k];
        if (m.placement != Placement::Own || !m.node->isCNode()) {
            continue;
        }
        for (int in : inputsOf_[k]) {
            const int e = in < 0 ? -1 : resolve(in);
            if (e >= 0 && nodes_[static_cast<std::size_t>(e)].placement == Placement::Inline) {
                ModelNode& w = nodes_[static_cast<std::size_t>(e)];
                rows_[k].push_back({e, rowText(w)});
                if (w.host < 0) {
                    w.host = static_cast<int>(k);
                }
            }
        }
    }
    for (ModelNode& m : nodes_) {
        if (m.placement == Placement::Inline && m.host < 0) {
            m.placement = Placement::Own;  // no drawn op lists it
        }
    }
}

const std::vector<InlineRow>& GraphModel::rowsOf(int node) const {
    static const std::vector<InlineRow> none;
    return node >= 0 && static_cast<std::size_t>(node) < rows_.size()
               ? rows_[static_cast<std::size_t>(node)]
               : none;
}

int GraphModel::resolve(int node) const {
    int e = node;
    for (std::size_t guard = 0; e >= 0 && guard <= nodes_.size(); ++guard) {
        if (nodes_[static_cast<std::size_t>(e)].placement != Placement::Alias) {
            return e;
        }
        const std::vector<int>& ins = inputsOf_[static_cast<std::size_t>(e)];
        e = ins.empty() ? -1 : ins.front();
    }
    return -1;
}

int GraphModel::drawnAs(int node) const {
    const int e = resolve(node);
    if (e < 0) {
        return -1;
    }
    const ModelNode& m = nodes_[static_cast<std::size_t>(e)];
    switch (m.placement) {
        case Placement::Own:
            return e;
        case Placement::Inline:
            return m.host;
        case Placement::Hidden:
        case Placement::Alias:
            return -1;
    }
    return -1;
}

// Sibling groups with the same title up to numbers ("0-Block", "15-Block") and the same ops
// (as multisets, subgroups included) are repetitions of one block: at least kSeriesMinimum
// of them go under one series group, placed where the first of them was.
void GraphModel::findSeries() {
    std::vector<QString> signature(groups_.size());
    auto sign = [&](auto&& self, int g) -> const QString& {
        QString& out = signature[static_cast<std::size_t>(g)];
        if (!out.isEmpty()) {
            return out;
        }
        const ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        std::map<QString, int> ops;
        for (int n : grp.nodes) {
            ++ops[signatureOp(nodes_[static_cast<std::size_t>(n)])];
        }
        QStringList parts;
        for (const auto& [op, k] : ops) {
            parts << op + QLatin1Char('*') + QString::number(k);
        }
        QStringList subs;
        for (int c : grp.children) {
            subs << QLatin1Char('{') + self(self, c) + QLatin1Char('}');
        }
        subs.sort();
        out = parts.join(QLatin1Char(',')) + subs.join(QString());
        if (out.isEmpty()) {
            out = QStringLiteral("-");
        }
        return out;
    };
    static const QRegularExpression digits(QStringLiteral("[0-9]+"));
    const std::size_t before = groups_.size();
    for (std::size_t g = 0; g < before; ++g) {
        if (groups_[g].children.size() < static_cast<std::size_t>(kSeriesMinimum)) {
            continue;
        }
        std::map<QString, std::vector<int>> runs;
        std::vector<QString> order;
        for (int c : groups_[g].children) {
            const ModelGroup& child = groups_[static_cast<std::size_t>(c)];
            if (child.kind != GroupKind::Scope || !child.title.contains(digits)) {
                continue;
            }
            QString key = QString(child.title).replace(digits, QStringLiteral("#")) +
                          QLatin1Char('|') + sign(sign, c);
            if (!runs.contains(key)) {
                order.push_back(key);
            }
            runs[key].push_back(c);
        }
        for (const QString& key : order) {
            const std::vector<int>& members = runs[key];
            if (static_cast<int>(members.size()) < kSeriesMinimum) {
                continue;
            }
            const QString title = groups_[static_cast<std::size_t>(members.front())].title +
                                  QStringLiteral(" … ") +
                                  groups_[static_cast<std::size_t>(members.back())].title +
                                  QStringLiteral(" ×%1").arg(members.size());
            ModelGroup series;
            series.title = title;
            series.parent = static_cast<int>(g);
            series.kind = GroupKind::Series;
            series.children = members;
            const int id = static_cast<int>(groups_.size());
            groups_.push_back(std::move(series));
            std::vector<int>& siblings = groups_[g].children;
            const auto first = std::find(siblings.begin(), siblings.end(), members.front());
            *first = id;
            for (std::size_t k = 1; k < members.size(); ++k) {
                siblings.erase(std::find(siblings.begin(), siblings.end(), members[k]));
            }
            for (int m : members) {
                groups_[static_cast<std::size_t>(m)].parent = id;
            }
        }
    }
}

int GraphModel::addGroup(QString title, int parent, GroupKind kind) {
    ModelGroup g;
    g.title = std::move(title);
    g.parent = parent;
    g.isGraph = kind == GroupKind::Graph;
    g.kind = kind;
    groups_.push_back(std::move(g));
    const int id = static_cast<int>(groups_.size()) - 1;
    if (parent >= 0) {
        groups_[static_cast<std::size_t>(parent)].children.push_back(id);
    }
    return id;
}

// Puts `body` (CNodes, each followed by its constants and first-used parameters) into `group`,
// split into subgroups when large: by the next scope component when the nodes have at least two,
// else in runs of the body.
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
            const int sub = addGroup(scope, group, GroupKind::Scope);
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
        const int sub = addGroup(first + QStringLiteral(" … ") + last, group, GroupKind::Run);
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
        if (grp.kind == GroupKind::Series) {
            continue;  // a series opens on request only: the point is to stand for its blocks
        }
        int own = 0;
        for (int n : grp.nodes) {
            own += nodes_[static_cast<std::size_t>(n)].placement == Placement::Own ? 1 : 0;
        }
        const int delta = own + static_cast<int>(grp.children.size()) - 1;
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
    if (drawnAs(node) < 0 && stateHidden_) {
        setOptions(inlineInputs_, false);
        changed = true;
    }
    const int shown = drawnAs(node);
    for (int g = nodes_.at(static_cast<std::size_t>(shown < 0 ? node : shown)).group; g >= 0;
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
    const int shown = drawnAs(node);
    if (shown < 0) {
        return {false, -1};
    }
    VisibleRef ref{false, shown};
    for (int g = nodes_[static_cast<std::size_t>(shown)].group; g >= 0;
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
        if (!grp.expanded) {
            ++count;
            continue;
        }
        for (int n : grp.nodes) {
            count += nodes_[static_cast<std::size_t>(n)].placement == Placement::Own ? 1 : 0;
        }
        if (grp.nodes.empty() && grp.children.empty()) {
            ++count;  // an empty graph still shows as its box
        }
    }
    return count;
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
