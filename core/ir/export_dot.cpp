#include "ir/export_dot.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/graph_refs.h"
#include "ir/ir_format.h"
#include "ir/ir_text.h"
#include "ir/local_names.h"
#include "ir/monad.h"
#include "ir/prim_names.h"

namespace irscope::ir {

namespace {

constexpr std::size_t kMaxLabelBytes = 40;
constexpr std::size_t kMaxTooltipBytes = 400;

// Copies `s`, replacing bytes that are not well-formed UTF-8 with '?', so Graphviz never
// falls back to Latin-1 for the whole file because of one stray byte.
std::string sanitizeUtf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        if (c < 0x80) {
            len = 1;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
        }
        bool ok = len > 0 && i + len <= s.size();
        for (std::size_t k = 1; ok && k < len; ++k) {
            ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
        }
        if (ok && len == 3) {
            const auto c1 = static_cast<unsigned char>(s[i + 1]);
            ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);  // overlong, surrogate
        } else if (ok && len == 4) {
            const auto c1 = static_cast<unsigned char>(s[i + 1]);
            ok = !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
        }
        if (!ok) {
            out += '?';
            ++i;
            continue;
        }
        out.append(s.substr(i, len));
        i += len;
    }
    return out;
}

// Cuts `s` to at most `max` bytes on a code point boundary, marking the cut with "…".
std::string truncate(std::string s, std::size_t max = kMaxLabelBytes) {
    if (s.size() <= max) {
        return s;
    }
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    s.resize(cut);
    s += "\xE2\x80\xA6";  // …
    return s;
}

// A DOT double-quoted string. Text is literal: backslashes and quotes are escaped, a newline
// becomes a centred line break, other control characters become spaces.
std::string quote(std::string_view text) {
    const std::string s = sanitizeUtf8(text);
    std::string out = "\"";
    for (char ch : s) {
        switch (ch) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                out += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) ? ' ' : ch;
        }
    }
    out += '"';
    return out;
}

std::string joinLines(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) {
        if (l.empty()) {
            continue;
        }
        if (!out.empty()) {
            out += '\n';
        }
        out += l;
    }
    return out;
}

std::string formatNumber(double d) {
    return fmt::format("{}", d);
}

std::string sequenceSummary(const std::vector<std::string>& items, char open, char close) {
    std::string out(1, open);
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += ", ";
        }
        out += items[i];
    }
    if (items.size() == 1 && open == '(') {
        out += ',';
    }
    out += close;
    return out;
}

// The writer. Graph and node tables are built first, then clusters, then edges.
class DotWriter {
public:
    DotWriter(const Module& m, const DotOptions& o) : m_(m), opts_(o), names_(localNames(m)) {}

    std::string run() {
        selectGraphs();
        collectNodes();
        out_ += "digraph irscope {\n";
        out_ += fmt::format(
            "  graph [compound=true, rankdir={}, fontname=\"DejaVu Sans\", fontsize=12, "
            "nodesep=0.25, ranksep=0.35];\n",
            rankdir());
        out_ +=
            "  node [fontname=\"DejaVu Sans\", fontsize=10, shape=box, style=\"rounded,filled\", "
            "fillcolor=\"#ffffff\", height=0.3];\n";
        out_ += "  edge [fontname=\"DejaVu Sans\", fontsize=8, arrowsize=0.7];\n";
        for (std::size_t gi = 0; gi < graphs_.size(); ++gi) {
            writeCluster(gi);
        }
        for (const Node* n : loose_) {
            out_ += "  ";
            writeNode(*n, /*foreign=*/true);
        }
        out_ += edges_;
        out_ += "}\n";
        return std::move(out_);
    }

private:
    struct GraphEntry {
        const FuncGraph* graph;
        std::vector<const Node*> nodes;  // parameters, body CNodes, then extra nodes
        std::string anchor;              // a node inside the cluster, for lhead edges
    };

    std::string rankdir() const {
        static const char* const kAllowed[] = {"TB", "LR", "BT", "RL"};
        for (const char* r : kAllowed) {
            if (opts_.rankdir == r) {
                return r;
            }
        }
        return "TB";
    }

    void selectGraphs() {
        std::vector<FuncGraph*> order = names_.order;
        if (!opts_.graphs.empty()) {
            std::erase_if(order, [&](const FuncGraph* g) {
                return std::find(opts_.graphs.begin(), opts_.graphs.end(), g->name()) ==
                       opts_.graphs.end();
            });
        }
        for (FuncGraph* g : order) {
            graphIndex_[g] = graphs_.size();
            graphs_.push_back(GraphEntry{g, {}, {}});
        }
    }

    void collectNodes() {
        std::vector<const CNode*> work;
        for (auto& ge : graphs_) {
            for (const Parameter* p : ge.graph->parameters()) {
                declare(p, ge);
            }
            // The printed body: topological order, then nodes only other graphs use.
            for (const CNode* c : names_.body(ge.graph)) {
                declare(c, ge);
                work.push_back(c);
            }
            if (const CNode* ret = ge.graph->returnNode()) {
                declare(ret, ge);
                work.push_back(ret);
            }
        }
        // Inputs of no drawn body: nodes of graphs not drawn become stubs outside the
        // clusters; anything else (a parameter missing from its graph's list) joins its graph.
        while (!work.empty()) {
            const CNode* c = work.back();
            work.pop_back();
            for (const Node* in : c->inputs()) {
                if (in->isValue() || declared_.count(in)) {
                    continue;
                }
                auto it = graphIndex_.find(in->graph());
                if (it == graphIndex_.end()) {
                    declared_.insert(in);
                    loose_.push_back(in);
                    continue;  // a stub: its own inputs are not drawn
                }
                declare(in, graphs_[it->second]);
                if (const auto* ic = nodeCast<CNode>(in)) {
                    work.push_back(ic);
                }
            }
        }
        for (std::size_t gi = 0; gi < graphs_.size(); ++gi) {
            auto& ge = graphs_[gi];
            ge.anchor = ge.nodes.empty() ? fmt::format("g{}_empty", gi) : nodeId(*ge.nodes.front());
        }
    }

    void declare(const Node* n, GraphEntry& ge) {
        if (declared_.insert(n).second) {
            ge.nodes.push_back(n);
        }
    }

    static std::string nodeId(const Node& n) { return fmt::format("n{}", n.id()); }

    std::string localName(const Node& n) const { return names_.of(n); }

    std::string tooltip(const Node& n) const {
        std::vector<std::string> lines;
        if (n.abstract()) {
            lines.push_back(formatAbstract(*n.abstract()));
        }
        lines.push_back(n.debug().name);
        lines.push_back(n.debug().scope);
        for (const auto& loc : n.debug().trace) {
            if (loc.line > 0) {
                lines.push_back(fmt::format("{}:{}", loc.file, loc.line));
            }
        }
        return truncate(joinLines(lines), kMaxTooltipBytes);
    }

    std::string opLabel(const CNode& c) const {
        if (const PrimitiveData* p = c.primitive()) {
            return p->name;
        }
        if (const FuncGraph* g = c.calledGraph()) {
            return "call @" + g->name();
        }
        const Node* callee = c.callee();
        if (callee == nullptr) {
            return "(no callee)";
        }
        if (const auto* v = nodeCast<ValueNode>(callee)) {
            return "call " + valueSummary(*v->value());
        }
        const std::string name = localName(*callee);
        if (name.empty()) {
            return "call";
        }
        if (callee->graph() == c.graph() || callee->graph() == nullptr) {
            return "call " + name;
        }
        return "call $(@" + callee->graph()->name() + ":" + name + ")";  // as the printer does
    }

    void writeNode(const Node& n, bool foreign) {
        std::vector<std::string> lines;
        std::string attrs;
        if (const auto* p = nodeCast<Parameter>(&n)) {
            lines.push_back(localName(n));
            attrs = p->hasDefault()
                        ? "shape=cylinder, style=filled, fillcolor=\"#fff2cc\", color=\"#b7950b\""
                        : "shape=ellipse, style=filled, fillcolor=\"#e8f0fe\", color=\"#3c78d8\"";
        } else if (const auto* c = nodeCast<CNode>(&n)) {
            const std::string num = localName(n);
            const std::string op = opLabel(*c);
            lines.push_back(num.empty() ? op : num + " " + op);
            if (c->graph() != nullptr && c->graph()->returnNode() == c) {
                attrs = "style=\"rounded,filled,bold\", fillcolor=\"#d9ead3\"";
            } else if (isMonad(c)) {  // UpdateState and other state-only results
                attrs = "fillcolor=\"#eeeeee\", fontcolor=\"#555555\", color=\"#888888\"";
            } else if (c->primitive() == nullptr) {
                attrs = "fillcolor=\"#fce5cd\"";
            }
        }
        if (n.abstract()) {
            lines.push_back(abstractSummary(*n.abstract()));
        }
        if (foreign && n.graph() != nullptr) {
            lines.push_back("(of @" + n.graph()->name() + ")");
            attrs += std::string(attrs.empty() ? "" : ", ") + "style=\"dashed,rounded\"";
        }
        out_ += nodeId(n) + " [label=" + quote(truncateLines(lines));
        if (!attrs.empty()) {
            out_ += ", " + attrs;
        }
        if (const std::string tip = opts_.tooltips ? tooltip(n) : ""; !tip.empty()) {
            out_ += ", tooltip=" + quote(tip);
        }
        out_ += "];\n";
    }

    static std::string truncateLines(std::vector<std::string> lines) {
        for (auto& l : lines) {
            l = truncate(std::move(l));
        }
        return joinLines(lines);
    }

    void writeCluster(std::size_t gi) {
        const GraphEntry& ge = graphs_[gi];
        const FuncGraph* g = ge.graph;
        out_ += fmt::format("  subgraph cluster_{} {{\n", gi);
        out_ += "    label=" + quote(g->name()) + ";\n";
        out_ += "    labeljust=l; style=rounded; color=\"#999999\";";
        if (g == m_.entry()) {
            out_ += " penwidth=2;";
        }
        if (!g->attrs().empty() && opts_.tooltips) {
            std::vector<std::string> attrs;
            for (const auto& [k, v] : g->attrs()) {
                attrs.push_back(k + ": " + valueSummary(*v));
            }
            out_ += " tooltip=" + quote(joinLines(attrs)) + ";";
        }
        out_ += "\n";
        if (ge.nodes.empty()) {
            out_ += fmt::format("    g{}_empty [label=\"(empty)\", shape=plaintext, style=\"\"];\n",
                                gi);
        }
        for (const Node* n : ge.nodes) {
            out_ += "    ";
            writeNode(*n, /*foreign=*/false);
        }
        for (const Node* n : ge.nodes) {
            if (const auto* c = nodeCast<CNode>(n)) {
                writeInputs(*c, gi);
            }
        }
        out_ += "  }\n";
    }

    // Per-use constant nodes go into the user's cluster (written into out_); edges are
    // collected in edges_ and written after all clusters.
    void writeInputs(const CNode& c, std::size_t gi) {
        const std::string user = nodeId(c);
        for (std::size_t i = 0; i < c.size(); ++i) {
            const Node* in = c.input(i);
            const std::string eid = fmt::format("e{}_{}", c.id(), i);
            const EdgeKind kind = classifyInput(c, i);
            if (const auto* v = nodeCast<ValueNode>(in)) {
                const Value& val = *v->value();
                if (i == 0 && val.kind == Value::Kind::Primitive) {
                    continue;  // the op label says it
                }
                if (val.kind == Value::Kind::Graph && graphIndex_.count(val.graph)) {
                    graphEdge(user, eid, gi, graphIndex_.at(val.graph));
                    continue;
                }
                if (i == 0 && val.kind == Value::Kind::Graph) {
                    continue;  // `call @g` of a graph not drawn: the label names it
                }
                if (!opts_.includeConstants) {
                    continue;
                }
                const std::string cid = fmt::format("c{}_{}", c.id(), i);
                writeConstant(cid, val);
                edges_ += fmt::format("  {} -> {} [id={}{}];\n", cid, user, quote(eid),
                                      kind == EdgeKind::Control ? ", " + controlStyle() : "");
                std::vector<FuncGraph*> refs;
                collectGraphRefs(val, refs);
                for (std::size_t k = 0; k < refs.size(); ++k) {
                    if (graphIndex_.count(refs[k])) {
                        graphEdge(cid, fmt::format("{}_g{}", eid, k), gi, graphIndex_.at(refs[k]));
                    }
                }
                continue;
            }
            std::string style;
            if (kind == EdgeKind::Control) {
                style = ", " + controlStyle();
            }
            if (in->graph() != nullptr && c.graph() != nullptr && in->graph() != c.graph()) {
                style += ", color=\"#1f77b4\", penwidth=1.4";  // free variable
            }
            edges_ += fmt::format("  {} -> {} [id={}{}];\n", nodeId(*in), user, quote(eid), style);
        }
    }

    static std::string controlStyle() { return "style=dashed, color=\"#888888\""; }

    void writeConstant(const std::string& cid, const Value& val) {
        std::string attrs;
        if (val.kind == Value::Kind::Monad) {
            attrs =
                "shape=circle, style=filled, fillcolor=\"#eeeeee\", color=\"#888888\", "
                "fontsize=8, width=0.25, height=0.25, fixedsize=true";
        } else {
            attrs =
                "shape=box, style=filled, fillcolor=\"#f3f3f3\", color=\"#bbbbbb\", "
                "fontsize=8, height=0.2, margin=\"0.05,0.02\"";
        }
        out_ += "    " + cid + " [label=" + quote(truncate(valueSummary(val))) + ", " + attrs;
        if (opts_.tooltips) {
            out_ += ", tooltip=" + quote(truncate(formatValue(val), kMaxTooltipBytes));
        }
        out_ += "];\n";
    }

    // A dotted edge from `tail` (in cluster `from`) to the cluster of graph `to`. Edges to
    // graphs earlier in the order (loops, recursion) do not constrain the ranking.
    void graphEdge(const std::string& tail, const std::string& eid, std::size_t from,
                   std::size_t to) {
        std::string attrs = "style=dotted, color=\"#a64d79\", arrowhead=empty";
        if (to != from) {
            attrs += fmt::format(", lhead=cluster_{}", to);
        }
        if (to <= from) {
            attrs += ", constraint=false";
        }
        edges_ +=
            fmt::format("  {} -> {} [id={}, {}];\n", tail, graphs_[to].anchor, quote(eid), attrs);
    }

    const Module& m_;
    const DotOptions& opts_;
    const LocalNames names_;
    std::vector<GraphEntry> graphs_;
    std::unordered_map<const FuncGraph*, std::size_t> graphIndex_;
    std::unordered_set<const Node*> declared_;
    std::vector<const Node*> loose_;  // nodes of graphs that are not drawn
    std::string out_;
    std::string edges_;
};

}  // namespace

EdgeKind classifyInput(const CNode& user, std::size_t index) {
    if (index == 0 || index >= user.size()) {
        return EdgeKind::Data;
    }
    if (isMonad(user.input(index)) || user.isPrimitive(ir::prim::kUpdateState)) {
        return EdgeKind::Control;
    }
    if ((user.isPrimitive(ir::prim::kDepend) || user.isPrimitive(ir::prim::kLoad)) && index == 2) {
        return EdgeKind::Control;
    }
    return EdgeKind::Data;
}

std::string abstractSummary(const Abstract& a) {
    switch (a.kind) {
        case Abstract::Kind::Tensor:
            return std::string(dtypeName(a.dtype)) + " " + a.shape.toString();
        case Abstract::Kind::Ref:
            return "Ref " + std::string(dtypeName(a.dtype)) + " " + a.shape.toString();
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List: {
            const bool tuple = a.kind == Abstract::Kind::Tuple;
            std::vector<std::string> items;
            std::size_t len = 0;
            for (const auto& e : a.elements) {
                items.push_back(e ? abstractSummary(*e) : "?");
                len += items.back().size() + 2;
            }
            if (items.size() <= 3 && len <= kMaxLabelBytes) {
                return sequenceSummary(items, tuple ? '(' : '[', tuple ? ')' : ']');
            }
            return fmt::format("{}({})", tuple ? "Tuple" : "List", a.elements.size());
        }
        default:
            return truncate(typeName(a));
    }
}

std::string valueSummary(const Value& v) {
    switch (v.kind) {
        case Value::Kind::None:
            return "None";
        case Value::Kind::Bool:
            return v.b ? "True" : "False";
        case Value::Kind::Int:
            return fmt::format("{}({})", dtypeScalarPrefix(v.dtype), v.i);
        case Value::Kind::Float:
            return fmt::format("{}({})", dtypeScalarPrefix(v.dtype), formatNumber(v.f));
        case Value::Kind::String:
            return truncate("\"" + v.text + "\"");
        case Value::Kind::Tensor: {
            if (!v.tensor) {
                return "Tensor";
            }
            const TensorData& t = *v.tensor;
            std::string head = "Tensor[" + std::string(dtypeName(t.dtype)) + "]";
            const std::int64_t count = t.shape.elementCount();
            if (!t.hasData() || count < 0 || count > 4 || t.dtype == DType::String) {
                return head + " " + t.shape.toString();
            }
            if (t.shape.rank() == 0) {
                return head + " = " + text::elementText(t, 0);
            }
            std::vector<std::string> items;
            for (std::int64_t i = 0; i < count; ++i) {
                items.push_back(text::elementText(t, static_cast<std::size_t>(i)));
            }
            return head + " " + t.shape.toString() + " = " + sequenceSummary(items, '[', ']');
        }
        case Value::Kind::Tuple:
        case Value::Kind::List: {
            const bool tuple = v.kind == Value::Kind::Tuple;
            std::vector<std::string> items;
            for (const auto& e : v.elements) {
                items.push_back(e ? valueSummary(*e) : "?");
            }
            return truncate(sequenceSummary(items, tuple ? '(' : '[', tuple ? ')' : ']'));
        }
        case Value::Kind::Type:
            return std::string(dtypeName(v.dtype));
        case Value::Kind::Primitive:
            return v.prim ? v.prim->name : "Primitive";
        case Value::Kind::Graph:
            return v.graph ? "@" + v.graph->name() : "@?";
        case Value::Kind::Monad:
            return v.monad == MonadKind::U ? "U" : "IO";
        case Value::Kind::Opaque:
            return truncate(v.text);
        case Value::Kind::Slice:
        case Value::Kind::Host:
            return truncate(text::ValueFormatter(text::defaultGraphName).value(v));
    }
    return {};
}

std::string exportDot(const Module& m, const DotOptions& opts) {
    return DotWriter(m, opts).run();
}

}  // namespace irscope::ir
