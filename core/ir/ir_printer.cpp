// The .ir printer: MindSpore-2.x-style dumps (see ir_text.h). Every choice here has a
// matching rule in the reader (ir_parser*.cpp, ir_value_reader.cpp) so that
// printIr(parseIr(printIr(m))) reproduces printIr(m) byte for byte.
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "ir/ir_format.h"
#include "ir/ir_lexer.h"
#include "ir/ir_text.h"

namespace irscope::ir {

namespace {

using text::abstractOrNull;
using text::defaultGraphName;
using text::isPlainName;
using text::nameText;
using text::quoteString;
using text::rawAttrString;
using text::ValueFormatter;

class Printer {
public:
    Printer(const Module& m, const PrintOptions& opts)
        : m_(m), opts_(opts), fmt_([this](const FuncGraph* g) { return graphRef(g); }) {}

    std::string run();

private:
    struct Body {
        std::vector<CNode*> nodes;  // numbered %0, %1, ...
        CNode* ret = nullptr;
    };

    std::string graphRef(const FuncGraph* g) const {
        auto it = names_.find(g);
        return it != names_.end() ? nameText(it->second) : defaultGraphName(g);
    }
    void orderAndName();
    void numberNodes();
    void addExtras(CNode* root, std::deque<CNode*>& queue);
    std::string ref(const Node* in, const FuncGraph* cur) const;
    std::string lineAttrText(const ValuePtr& v) const;
    void attrLines(const AttrMap& attrs);
    std::string paramSuffix(const Parameter* p) const;
    void debugLines(const DebugInfo& d, const char* indent);
    void graph(const FuncGraph* g);
    void cnodeLine(const CNode* c, const FuncGraph* g, const std::string& lead, bool isReturn);

    const Module& m_;
    PrintOptions opts_;
    ValueFormatter fmt_;
    std::string out_;
    std::vector<FuncGraph*> order_;
    std::unordered_map<const FuncGraph*, std::string> names_;
    std::unordered_map<const Parameter*, std::string> params_;  // "para3_x"
    std::unordered_map<const FuncGraph*, Body> bodies_;
    std::unordered_map<const CNode*, std::size_t> number_;
};

void Printer::orderAndName() {
    std::unordered_set<const FuncGraph*> placed;
    for (FuncGraph* g : m_.reachableGraphs()) {
        if (placed.insert(g).second) {
            order_.push_back(g);
        }
    }
    for (FuncGraph* g : m_.graphs()) {
        if (placed.insert(g).second) {
            order_.push_back(g);
        }
    }
    // Graph names must be unique for `@name` to mean one graph: later duplicates get `.N`.
    std::unordered_set<std::string> taken;
    for (const FuncGraph* g : order_) {
        taken.insert(g->name());
    }
    std::unordered_set<std::string> used;
    for (const FuncGraph* g : order_) {
        std::string n = g->name();
        if (!used.insert(n).second) {
            for (std::size_t k = 1;; ++k) {
                std::string cand = g->name() + "." + std::to_string(k);
                if (taken.insert(cand).second) {
                    n = std::move(cand);
                    used.insert(n);
                    break;
                }
            }
        }
        names_[g] = std::move(n);
    }
    std::size_t k = 1;
    for (const FuncGraph* g : order_) {
        for (const Parameter* p : g->parameters()) {
            params_[p] = "para" + std::to_string(k++) + "_" +
                         (isPlainName(p->name()) ? p->name() : quoteString(p->name()));
        }
    }
}

// A CNode of graph h used by another graph (a free variable) but not reachable from h's
// Return is still printed in h's body, after the reachable nodes, so it can be referred to.
void Printer::addExtras(CNode* root, std::deque<CNode*>& queue) {
    Body& body = bodies_.at(root->graph());
    struct Frame {
        CNode* node;
        std::size_t next;
    };
    std::vector<Frame> stack{{root, 0}};
    number_.emplace(root, SIZE_MAX);  // visiting
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next < top.node->size()) {
            auto* c = nodeCast<CNode>(top.node->input(top.next++));
            if (c != nullptr && c->graph() == root->graph() && c != body.ret &&
                number_.emplace(c, SIZE_MAX).second) {
                stack.push_back({c, 0});
            }
            continue;
        }
        number_[top.node] = body.nodes.size();
        body.nodes.push_back(top.node);
        queue.push_back(top.node);
        stack.pop_back();
    }
}

void Printer::numberNodes() {
    std::deque<CNode*> queue;
    for (const FuncGraph* g : order_) {
        Body& b = bodies_[g];
        b.ret = g->returnNode();
        for (CNode* c : g->topoOrder()) {
            if (c != b.ret) {
                number_[c] = b.nodes.size();
                b.nodes.push_back(c);
            }
            queue.push_back(c);
        }
    }
    while (!queue.empty()) {
        const CNode* n = queue.front();
        queue.pop_front();
        for (Node* in : n->inputs()) {
            auto* c = nodeCast<CNode>(in);
            if (c != nullptr && c->graph() != n->graph() && bodies_.count(c->graph()) != 0 &&
                number_.count(c) == 0 && c != bodies_.at(c->graph()).ret) {
                addExtras(c, queue);
            }
        }
    }
}

std::string Printer::ref(const Node* in, const FuncGraph* cur) const {
    if (const auto* v = nodeCast<ValueNode>(in)) {
        return fmt_.value(*v->value());
    }
    std::string local;
    if (const auto* p = nodeCast<Parameter>(in)) {
        auto it = params_.find(p);
        if (it == params_.end()) {  // a parameter of no graph, as MindSpore prints it
            return "%para_" + (isPlainName(p->name()) ? p->name() : quoteString(p->name()));
        }
        local = "%" + it->second;
    } else {
        auto it = number_.find(static_cast<const CNode*>(in));
        if (it == number_.end() || it->second == SIZE_MAX) {
            return "%?";  // a Return node or a node of no graph: not expressible
        }
        local = "%" + std::to_string(it->second);
    }
    if (in->graph() == cur || in->graph() == nullptr) {
        return local;
    }
    return "$(@" + graphRef(in->graph()) + ":" + local + ")";
}

std::string Printer::lineAttrText(const ValuePtr& v) const {
    if (!v) {
        return "null";
    }
    switch (v->kind) {
        case Value::Kind::Bool:
            return v->b ? "1" : "0";
        case Value::Kind::Int:
            return std::to_string(v->i);
        case Value::Kind::String:
        case Value::Kind::Opaque:  // unstructured text reads back as a String either way
            return rawAttrString(v->text) ? v->text : quoteString(v->text);
        default:
            return fmt_.value(*v);
    }
}

void Printer::attrLines(const AttrMap& attrs) {
    for (const auto& [k, v] : attrs) {
        const std::string t = lineAttrText(v);
        out_ += nameText(k) + (t.empty() ? ":\n" : ": " + t + "\n");
    }
}

std::string Printer::paramSuffix(const Parameter* p) const {
    std::string s = abstractOrNull(p->abstract());
    if (p->hasDefault()) {
        s += " : has_default";
        if (p->defaultValue()) {
            s += " = " + fmt_.value(*p->defaultValue());
        }
    }
    return s;
}

void Printer::debugLines(const DebugInfo& d, const char* indent) {
    if (!opts_.debugInfo) {
        return;
    }
    if (!d.scope.empty()) {
        out_ += std::string(indent) + "# Fullname with scope: (" + d.scope + ")\n";
    }
    for (const SourceLocation& loc : d.trace) {
        out_ += std::string(indent) + "# In file " + loc.file + ":" + std::to_string(loc.line);
        if (loc.lineEnd != loc.line) {
            out_ += "~" + std::to_string(loc.lineEnd);
        }
        if (loc.col >= 0) {
            out_ += ", " + std::to_string(loc.col) + "~" + std::to_string(loc.colEnd);
        }
        out_ += "/" + loc.text + "/" + loc.note + "\n";
    }
}

void Printer::cnodeLine(const CNode* c, const FuncGraph* g, const std::string& lead,
                        bool isReturn) {
    out_ += lead;
    const Node* callee = c->callee();
    const PrimitiveData* prim = c->primitive();
    if (callee == nullptr) {
        out_ += "None";  // a CNode without inputs has no printable form
    } else if (const auto* v = nodeCast<ValueNode>(callee)) {
        out_ += fmt_.callee(*v->value());
    } else {
        out_ += ref(callee, g);
    }
    out_ += '(';
    for (std::size_t k = 1; k < c->size(); ++k) {
        out_ += (k != 1 ? ", " : "") + ref(c->input(k), g);
    }
    out_ += ')';
    if (prim != nullptr && !prim->instanceName.empty()) {
        out_ += " {instance name: ";
        out_ += text::isPlainDelimitedText(prim->instanceName, '{', '}')
                    ? prim->instanceName
                    : quoteString(prim->instanceName);
        out_ += '}';
    }
    if (prim != nullptr && !prim->attrs.empty()) {
        out_ += " primitive_attrs: ";
        fmt_.attrs(prim->attrs, out_);
    }
    if (!c->attrs().empty()) {
        out_ += " cnode_attrs: ";
        fmt_.attrs(c->attrs(), out_);
    }
    if (!c->primalAttrs().empty()) {
        out_ += " cnode_primal_attrs: ";
        fmt_.attrs(c->primalAttrs(), out_);
    }
    out_ += '\n';
    if (c->abstract()) {
        out_ += "      : (";
        for (std::size_t k = 1; k < c->size(); ++k) {
            out_ += (k != 1 ? ", " : "") + abstractOrNull(c->input(k)->abstract());
        }
        out_ += isReturn ? ")\n" : ") -> (" + formatAbstract(*c->abstract()) + ")\n";
    }
    debugLines(c->debug(), "      ");
}

void Printer::graph(const FuncGraph* g) {
    const bool isEntry = g == m_.entry();
    if (!g->attrs().empty()) {
        out_ += "subgraph attr:\n";
        attrLines(g->attrs());
    }
    if (!isEntry && !g->parameters().empty()) {
        out_ += "# Parameters: " + std::to_string(g->parameters().size()) + ", (";
        for (std::size_t k = 0; k < g->parameters().size(); ++k) {
            out_ += (k != 0 ? ", " : "") + paramSuffix(g->parameters()[k]);
        }
        out_ += ")\n";
    }
    debugLines(g->debug(), "");
    out_ += "subgraph @" + graphRef(g) + "(";
    if (!isEntry) {
        for (std::size_t k = 0; k < g->parameters().size(); ++k) {
            out_ += (k != 0 ? ", %" : "%") + params_.at(g->parameters()[k]);
        }
    }
    out_ += ") {\n";
    const Body& body = bodies_.at(g);
    for (std::size_t k = 0; k < body.nodes.size(); ++k) {
        const CNode* c = body.nodes[k];
        std::string lead = "  %" + std::to_string(k);
        const std::string& dbg = c->debug().name;
        if (!dbg.empty()) {
            lead +=
                "(" + (text::isPlainDelimitedText(dbg, '(', ')') ? dbg : quoteString(dbg)) + ")";
        }
        cnodeLine(c, g, lead + " = ", false);
    }
    if (body.ret != nullptr) {
        cnodeLine(body.ret, g, "  ", true);
    }
    out_ += "}\n";
}

std::string Printer::run() {
    orderAndName();
    numberNodes();
    const FuncGraph* entry = m_.entry();
    if (entry != nullptr) {
        out_ += "# IR entry: @" + graphRef(entry) + "\n";
    }
    out_ += "# Total subgraphs: " + std::to_string(order_.size()) + "\n\n";
    if (!m_.attrs().empty()) {
        out_ += "# Attrs:\n";
        attrLines(m_.attrs());
        out_ += "\n";
    }
    if (entry != nullptr) {
        out_ += "# Total params: " + std::to_string(entry->parameters().size()) + "\n";
        out_ += "# Params:\n";
        for (const Parameter* p : entry->parameters()) {
            out_ += "%" + params_.at(p) + ": " + paramSuffix(p) + "\n";
        }
        out_ += "\n";
    }
    const NodeCounts counts = m_.counts();
    out_ += "Node counting information:\n";
    out_ += "Total number of nodes: " + std::to_string(counts.nodes) + "\n";
    out_ += "Total number of cnodes: " + std::to_string(counts.cnodes) + "\n";
    for (const FuncGraph* g : order_) {
        out_ += "\n";
        graph(g);
    }
    return std::move(out_);
}

}  // namespace

std::string printIr(const Module& m, const PrintOptions& opts) {
    return Printer(m, opts).run();
}

}  // namespace irscope::ir
