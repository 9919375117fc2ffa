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
#include "ir/prim_names.h"
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
        if (p->name == ir::prim::kUpdateState || p->name == ir::prim::kLoad ||
            p->name == ir::prim::kTensorMove || p->name == ir::prim::kDepend) {
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

// Tooltip and search text of an entry whose op reads `op`: shape and dtype, scope, source
// line, attributes.
void describeNode(const ModelNode& m, const QString& op, QString* tooltip, QString* search) {
    const ir::Node& n = *m.node;
    QStringList tip;
    QStringList words;
    tip << (m.name.isEmpty() ? op : m.name + QStringLiteral(" = ") + op);
    words << m.name << op;
    if (!n.debug().name.empty()) {
        words << q(n.debug().name);
    }
    if (n.abstract()) {
        const QString a = q(ir::abstractSummary(*n.abstract()));
        tip << QStringLiteral("abstract: ") + a;
        words << a;
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
            words << attrs;
        }
    }
    if (!n.debug().scope.empty()) {
        tip << QStringLiteral("scope: ") + q(n.debug().scope);
        words << q(n.debug().scope);
    }
    if (tooltip != nullptr) {
        for (const ir::SourceLocation& loc : n.debug().trace) {
            if (loc.line > 0) {
                tip << QStringLiteral("%1:%2  %3")
                           .arg(q(loc.file))
                           .arg(loc.line)
                           .arg(q(loc.text).trimmed());
            }
        }
        *tooltip = tip.join(QLatin1Char('\n'));
    }
    if (search != nullptr) {
        *search = words.join(QLatin1Char('\n'));
    }
}

// The splitmix64 finalizer: spreads a value over 64 bits (hashes summed as multisets).
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::uint64_t hashText(std::string_view s) {
    return mix(std::hash<std::string_view>{}(s));
}

// A title with its numbers left out ("12-Block" -> "#-Block"), hashed; and whether it had one.
std::uint64_t titlePattern(const QString& title, bool* hasDigits = nullptr) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    bool inNumber = false;
    bool digits = false;
    for (const QChar ch : title) {
        if (ch.isDigit()) {
            digits = true;
            if (inNumber) {
                continue;
            }
            inNumber = true;
            h = (h ^ '#') * 0x100000001b3ULL;
            continue;
        }
        inNumber = false;
        h = (h ^ ch.unicode()) * 0x100000001b3ULL;
    }
    if (hasDigits != nullptr) {
        *hasDigits = digits;
    }
    return mix(h);
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
    return p != nullptr && (p->name == ir::prim::kUpdateState || p->name == ir::prim::kLoad ||
                            p->name == ir::prim::kDepend);
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

// The op of an entry for structure hashes: the primitive or "call", "W", "C".
std::uint64_t opHash(const ModelNode& m) {
    if (const auto* c = ir::nodeCast<ir::CNode>(m.node)) {
        const ir::PrimitiveData* p = c->primitive();
        return p != nullptr ? hashText(p->name) : hashText("call");
    }
    return hashText(m.node->isParameter() ? "W" : "C");
}

}  // namespace

// The scope path of each CNode entry without its last component, split once: components
// interned as ids ("Default/net-Net/Add-op0" -> {id("Default"), id("net-Net")}).
struct GraphModel::ScopeTable {
    std::unordered_map<std::string_view, int> ids;
    std::vector<std::string_view> names;    // per id
    std::vector<int> slot;                  // per id: splitBody's scratch, -1 when free
    std::vector<std::uint32_t> begin, end;  // per entry: its ids in parts[begin, end)
    std::vector<int> parts;

    void add(int entry, std::string_view scope) {
        const auto first = static_cast<std::uint32_t>(parts.size());
        std::size_t start = 0;
        while (start <= scope.size()) {
            const std::size_t slash = std::min(scope.find('/', start), scope.size());
            if (slash == scope.size()) {
                break;  // the node's own last component
            }
            if (slash > start) {
                const std::string_view part = scope.substr(start, slash - start);
                const auto [it, fresh] = ids.try_emplace(part, static_cast<int>(names.size()));
                if (fresh) {
                    names.push_back(part);
                    slot.push_back(-1);
                }
                parts.push_back(it->second);
            }
            start = slash + 1;
        }
        const auto k = static_cast<std::size_t>(entry);
        if (begin.size() <= k) {
            begin.resize(k + 1, 0);
            end.resize(k + 1, 0);
        }
        begin[k] = first;
        end[k] = static_cast<std::uint32_t>(parts.size());
    }
    // The component at `depth` of `entry`'s scope, or -1.
    int at(int entry, int depth) const {
        const auto k = static_cast<std::size_t>(entry);
        if (k >= begin.size() || begin[k] + static_cast<std::uint32_t>(depth) >= end[k]) {
            return -1;
        }
        return parts[begin[k] + static_cast<std::uint32_t>(depth)];
    }
};

GraphModel::GraphModel(const ir::Module& m) {
    const ir::LocalNames names = ir::localNames(m);
    ScopeTable scopes;
    auto reserve = [&](std::size_t more) {
        if (nodes_.size() + more > nodes_.capacity()) {
            const std::size_t want = std::max(nodes_.size() + more, 2 * nodes_.capacity());
            nodes_.reserve(want);
            inputsOf_.reserve(want);
        }
    };
    std::vector<char> pending;  // per entry: a weight of the current graph not yet placed
    for (const ir::FuncGraph* g : names.order) {
        const int group = addGroup(QStringLiteral("@") + q(g->name()), -1, GroupKind::Graph);
        topGroups_.push_back(group);
        const std::vector<ir::CNode*> order = g->topoOrder();
        reserve(g->parameters().size() + 2 * order.size());
        // The body in print order; parameters and constants follow their first user, so
        // when a big graph is split they land in the same subgroup.
        std::vector<int> body;
        body.reserve(2 * order.size());
        std::vector<int> params;
        for (const ir::Parameter* p : g->parameters()) {
            ModelNode mn;
            mn.node = p;
            mn.name = q(names.of(*p));
            mn.label = mn.name;
            mn.style = ir::isMonad(p) ? NodeStyle::Monad : NodeStyle::Parameter;
            mn.weight = isWeight(*p);
            mn.state = ir::isMonad(p);
            setEntry(p, static_cast<int>(nodes_.size()));
            // Weights follow their first user into its subgroup; inputs stay at the graph's top.
            pending.resize(nodes_.size() + 1, 0);
            pending.back() = mn.weight ? 1 : 0;
            params.push_back(static_cast<int>(nodes_.size()));
            nodes_.push_back(std::move(mn));
        }
        for (const ir::CNode* c : order) {
            ModelNode mn;
            mn.node = c;
            mn.name = q(names.of(*c));
            const QString op = opName(*c, names);
            mn.label = elide(op) + (mn.name.isEmpty() ? QString() : QLatin1Char('\n') + mn.name);
            mn.style = styleOf(*c);
            mn.state = isStateOp(*c);
            const int self = static_cast<int>(nodes_.size());
            if (c->primitive() == nullptr && c->calledGraph() == nullptr) {
                callOps_.emplace(self, op);
            }
            setEntry(c, self);
            body.push_back(self);
            scopes.add(self, c->debug().scope);
            nodes_.push_back(std::move(mn));
            inputsOf_.resize(nodes_.size());
            inputsOf_[static_cast<std::size_t>(self)].assign(c->size() > 0 ? c->size() - 1 : 0, -1);
            for (const ir::Node* in : c->inputs()) {
                const int e = entryOf(in);
                if (e >= 0 && static_cast<std::size_t>(e) < pending.size() &&
                    pending[static_cast<std::size_t>(e)] != 0) {
                    pending[static_cast<std::size_t>(e)] = 0;
                    body.push_back(e);
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
                const int entry = static_cast<int>(nodes_.size());
                setEntry(v, entry);
                inputsOf_[static_cast<std::size_t>(self)][i - 1] = entry;
                edges_.push_back({entry, self, ir::classifyInput(*c, i) == ir::EdgeKind::Control});
                body.push_back(entry);
                nodes_.push_back(std::move(cn));
            }
        }
        for (int p : params) {  // inputs, and weights nothing uses
            const ModelNode& pn = nodes_[static_cast<std::size_t>(p)];
            if (!pn.weight || pending[static_cast<std::size_t>(p)] != 0) {
                nodes_[static_cast<std::size_t>(p)].group = group;
                groups_[static_cast<std::size_t>(group)].nodes.push_back(p);
            }
            pending[static_cast<std::size_t>(p)] = 0;
        }
        splitBody(group, body, 0, scopes);
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
            const int e = entryOf(in);
            if (e >= 0) {
                edges_.push_back({e, k, ir::classifyInput(*c, i) == ir::EdgeKind::Control});
                if (i > 0) {
                    inputsOf_[static_cast<std::size_t>(k)][i - 1] = e;
                }
            }
        }
    }
    hashStructure();
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

int GraphModel::entryOf(const ir::Node* n) const {
    const std::uint64_t id = n->id();
    int e = id < byId_.size() ? byId_[static_cast<std::size_t>(id)] : -1;
    if (e < 0 && !sparseIds_.empty()) {
        const auto it = sparseIds_.find(id);
        e = it != sparseIds_.end() ? it->second : -1;
    }
    // A node of another module may share the id: it must be the entry's own node.
    return e >= 0 && nodes_[static_cast<std::size_t>(e)].node == n ? e : -1;
}

void GraphModel::setEntry(const ir::Node* n, int entry) {
    const std::uint64_t id = n->id();
    if (!sparseIds_.empty() && sparseIds_.count(id) != 0) {
        return;  // a constant's first use stays
    }
    if (id >= byId_.size()) {
        // Ids far past the nodes seen (a module that made and dropped many) go to a map.
        const std::size_t bound = 16 * (nodes_.size() + 4096);
        if (id >= bound) {
            sparseIds_.try_emplace(id, entry);  // a constant's first use stays
            return;
        }
        byId_.resize(std::min(bound, std::max<std::size_t>(static_cast<std::size_t>(id) + 1,
                                                           2 * byId_.size())),
                     -1);
    }
    int& slot = byId_[static_cast<std::size_t>(id)];
    if (slot < 0) {
        slot = entry;  // a constant's first use
    }
}

QString GraphModel::opText(int node) const {
    const ModelNode& m = nodes_.at(static_cast<std::size_t>(node));
    if (const auto* c = ir::nodeCast<ir::CNode>(m.node)) {
        if (const ir::PrimitiveData* p = c->primitive()) {
            return q(p->name);
        }
        if (const ir::FuncGraph* g = c->calledGraph()) {
            return QStringLiteral("call @") + q(g->name());
        }
        const auto it = callOps_.find(node);
        return it != callOps_.end() ? it->second : QStringLiteral("call");
    }
    return m.node->isParameter() ? QStringLiteral("parameter") : m.label;
}

QString GraphModel::tooltip(int node) const {
    QString tip;
    describeNode(nodes_.at(static_cast<std::size_t>(node)), opText(node), &tip, nullptr);
    return tip;
}

QString GraphModel::searchText(int node) const {
    QString text;
    describeNode(nodes_.at(static_cast<std::size_t>(node)), opText(node), nullptr, &text);
    return text;
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
            m.placement =
                p != nullptr && (p->name == ir::prim::kLoad || p->name == ir::prim::kDepend)
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
    // The drawn edges, bucketed by source (a counting sort keeps each source's in model order).
    std::vector<ModelEdge> drawn;
    drawn.reserve(edges_.size());
    std::vector<int> perSource(count + 1, 0);
    for (const ModelEdge& e : edges_) {
        if (e.control && stateHidden_) {
            continue;
        }
        if (drawnAs(e.to) != e.to) {
            continue;  // its user is not drawn, or stands for something else
        }
        const int src = resolve(e.from);
        if (src < 0 || nodes_[static_cast<std::size_t>(src)].placement != Placement::Own ||
            src == e.to) {
            continue;  // hidden state, or a weight/constant listed as a row of the user's box
        }
        drawn.push_back({src, e.to, e.control});
        ++perSource[static_cast<std::size_t>(src) + 1];
    }
    for (std::size_t k = 1; k <= count; ++k) {
        perSource[k] += perSource[k - 1];
    }
    drawnEdges_.assign(drawn.size(), {});
    for (const ModelEdge& e : drawn) {
        drawnEdges_[static_cast<std::size_t>(perSource[static_cast<std::size_t>(e.from)]++)] = e;
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

// Each group's structure, bottom-up (children before parents: a group's subgroups are
// added after it). A node counts as its op and the ops feeding it from inside its group (an
// input from outside is just "outside"), so blocks wired alike hash alike wherever they sit.
void GraphModel::hashStructure() {
    static const std::uint64_t kOutside = hashText("<outside>");
    static const std::uint64_t kSub = hashText("<group>");
    std::vector<std::uint64_t> ops(nodes_.size());
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
        ops[k] = opHash(nodes_[k]);
    }
    for (int g = static_cast<int>(groups_.size()) - 1; g >= 0; --g) {
        ModelGroup& grp = groups_[static_cast<std::size_t>(g)];
        std::uint64_t h = mix(static_cast<std::uint64_t>(grp.kind));
        for (int n : grp.nodes) {
            std::uint64_t node = ops[static_cast<std::size_t>(n)];
            if (static_cast<std::size_t>(n) < inputsOf_.size()) {
                for (int in : inputsOf_[static_cast<std::size_t>(n)]) {
                    const bool inside = in >= 0 && nodes_[static_cast<std::size_t>(in)].group == g;
                    node = mix(node ^ (inside ? ops[static_cast<std::size_t>(in)] : kOutside));
                }
            }
            h += mix(node);
        }
        for (int c : grp.children) {
            const ModelGroup& child = groups_[static_cast<std::size_t>(c)];
            h += mix(kSub ^ titlePattern(child.title) ^ mix(child.structure));
        }
        grp.structure = h;
    }
}

// Sibling scopes with the same title up to numbers ("0-Block", "15-Block") and the same
// structure are repetitions of one block: at least kSeriesMinimum of them go under one series
// group, placed where the first of them was. One pass over each group's children.
void GraphModel::findSeries() {
    const std::size_t before = groups_.size();
    std::vector<int> seriesOf(before, -1);  // members: their series
    for (std::size_t g = 0; g < before; ++g) {
        if (groups_[g].children.size() < static_cast<std::size_t>(kSeriesMinimum)) {
            continue;
        }
        std::unordered_map<std::uint64_t, int> runOf;
        std::vector<std::vector<int>> runs;  // in order of first appearance
        for (int c : groups_[g].children) {
            const ModelGroup& child = groups_[static_cast<std::size_t>(c)];
            bool numbered = false;
            const std::uint64_t pattern = titlePattern(child.title, &numbered);
            if (child.kind != GroupKind::Scope || !numbered) {
                continue;
            }
            const auto [it, fresh] =
                runOf.try_emplace(mix(pattern) ^ child.structure, static_cast<int>(runs.size()));
            if (fresh) {
                runs.emplace_back();
            }
            runs[static_cast<std::size_t>(it->second)].push_back(c);
        }
        bool any = false;
        for (const std::vector<int>& members : runs) {
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
            series.structure = mix(groups_[static_cast<std::size_t>(members.front())].structure);
            const int id = static_cast<int>(groups_.size());
            groups_.push_back(std::move(series));
            for (int m : members) {
                groups_[static_cast<std::size_t>(m)].parent = id;
                seriesOf[static_cast<std::size_t>(m)] = id;
            }
            any = true;
        }
        if (!any) {
            continue;
        }
        // The series stands where its first member was; the other members leave.
        std::vector<int> kept;
        for (int c : groups_[g].children) {
            const int series = seriesOf[static_cast<std::size_t>(c)];
            if (series < 0) {
                kept.push_back(c);
            } else if (groups_[static_cast<std::size_t>(series)].children.front() == c) {
                kept.push_back(series);
            }
        }
        groups_[g].children = std::move(kept);
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
void GraphModel::splitBody(int group, const std::vector<int>& body, int depth, ScopeTable& scopes) {
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
    // Scope component at `depth` of each CNode (constants follow their user), bucketed in
    // order of first appearance, as the program builds them.
    std::vector<std::vector<int>> byScope;
    std::vector<int> scopeOrder;  // component ids, parallel to byScope
    std::vector<int> unscoped;
    int current = -1;
    for (int n : body) {
        if (nodes_[static_cast<std::size_t>(n)].node->isCNode()) {
            current = scopes.at(n, depth);
            if (current >= 0 && scopes.slot[static_cast<std::size_t>(current)] < 0) {
                scopes.slot[static_cast<std::size_t>(current)] = static_cast<int>(byScope.size());
                byScope.emplace_back();
                scopeOrder.push_back(current);
            }
        }
        (current >= 0
             ? byScope[static_cast<std::size_t>(scopes.slot[static_cast<std::size_t>(current)])]
             : unscoped)
            .push_back(n);
    }
    for (int id : scopeOrder) {
        scopes.slot[static_cast<std::size_t>(id)] = -1;  // free for the levels below
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
        splitBody(group, byScope.front(), depth + 1, scopes);
        return;
    }
    if (byScope.size() >= 2) {
        placeUnscoped();
        for (std::size_t k = 0; k < byScope.size(); ++k) {
            const std::string_view name = scopes.names[static_cast<std::size_t>(scopeOrder[k])];
            const int sub =
                addGroup(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())), group,
                         GroupKind::Scope);
            splitBody(sub, byScope[k], depth + 1, scopes);
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
    std::lock_guard<std::mutex> lock(searchTexts_->mutex);
    std::vector<QString>& texts = searchTexts_->texts;
    if (texts.size() != nodes_.size()) {
        texts.resize(nodes_.size());
        for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
            describeNode(nodes_[static_cast<std::size_t>(k)], opText(k), nullptr,
                         &texts[static_cast<std::size_t>(k)]);
        }
    }
    for (int k = 0; k < static_cast<int>(nodes_.size()); ++k) {
        if (re.match(texts[static_cast<std::size_t>(k)]).hasMatch()) {
            hits.push_back(k);
        }
    }
    return hits;
}

int GraphModel::indexOf(const ir::Node* n) const {
    return n == nullptr ? -1 : entryOf(n);
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
