// The .ir printer: MindSpore-2.x-style dumps (see ir_text.h). Every choice here has a
// matching rule in the reader (ir_parser*.cpp, ir_value_reader.cpp) so that
// printIr(parseIr(printIr(m))) reproduces printIr(m) byte for byte.
#include <array>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ir/dump_notes.h"
#include "ir/ir_format.h"
#include "ir/ir_lexer.h"
#include "ir/ir_text.h"
#include "ir/local_names.h"
#include "ir/value_text_cache.h"

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
    Printer(const Module& m, const PrintOptions& opts, ValueTextCache* valueTexts = nullptr)
        : m_(m),
          opts_(opts),
          fmt_([this](const FuncGraph* g) { return graphRef(g); }),
          valueTexts_(valueTexts) {}

    std::string run();
    std::string graphName(const FuncGraph* g) const { return graphRef(g); }
    // For NodeLines: numbers the module once, then prints single node lines.
    void prepare() { orderAndName(); }
    std::string nodeLine(const CNode& c) {
        out_.clear();
        const FuncGraph* g = c.graph();
        const bool isReturn = g != nullptr && g->returnNode() == &c;
        std::string lead;
        if (!isReturn) {
            lead = local_.of(c);
            const std::string& dbg = c.debug().name;
            if (!dbg.empty()) {
                lead += "(" + (text::isPlainDelimitedText(dbg, '(', ')') ? dbg : quoteString(dbg)) +
                        ")";
            }
            lead += " = ";
        }
        const bool saved = opts_.debugInfo;
        opts_.debugInfo = false;
        cnodeLine(&c, g, lead, isReturn);
        opts_.debugInfo = saved;
        const auto nl = out_.find('\n');
        return nl == std::string::npos ? out_ : out_.substr(0, nl);
    }

private:
    std::string graphRef(const FuncGraph* g) const {
        auto it = names_.find(g);
        return it != names_.end() ? nameText(it->second) : defaultGraphName(g);
    }
    void orderAndName();
    std::string ref(const Node* in, const FuncGraph* cur) const;
    std::string lineAttrText(const ValuePtr& v) const;
    void attrLines(const AttrMap& attrs);
    std::string paramSuffix(const Parameter* p, bool header = false) const;
    void debugLines(const DebugInfo& d, const char* indent);
    void graph(const FuncGraph* g);
    void marker(const CNode* c);
    void cnodeLine(const CNode* c, const FuncGraph* g, const std::string& lead, bool isReturn);
    // abstractOrNull(a), formatted once per abstract object: a node's abstract is printed on
    // its own line and again on the line of every user.
    const std::string& abstractText(const AbstractPtr& a) const;

    const Module& m_;
    PrintOptions opts_;
    ValueFormatter fmt_;
    std::string out_;
    LocalNames local_;  // graph order, %N and %para<k> numbering shared with the exports
    std::unordered_map<const FuncGraph*, std::string> names_;
    std::unordered_map<const Parameter*, std::string> params_;  // "para3_x"
    // Abstracts are immutable and held by the module while run() prints it (NodeLines prints
    // lines of a module that may change in between: no cache there).
    bool cacheAbstracts_ = false;
    ValueTextCache* valueTexts_;  // tensor defaults printed by an earlier state, if given
    mutable std::string abstractScratch_;
    mutable std::unordered_map<const Abstract*, std::string> abstractTexts_;
};

const std::string& Printer::abstractText(const AbstractPtr& a) const {
    if (!cacheAbstracts_) {
        abstractScratch_ = abstractOrNull(a);
        return abstractScratch_;
    }
    auto [it, fresh] = abstractTexts_.try_emplace(a.get());
    if (fresh) {
        it->second = abstractOrNull(a);
    }
    return it->second;
}

void Printer::orderAndName() {
    local_ = localNames(m_);
    // Graph names must be unique for `@name` to mean one graph: later duplicates get `.N`.
    std::unordered_set<std::string> taken;
    for (const FuncGraph* g : local_.order) {
        taken.insert(g->name());
    }
    std::unordered_set<std::string> used;
    for (const FuncGraph* g : local_.order) {
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
    for (const auto& [p, k] : local_.para) {
        params_[p] = "para" + std::to_string(k) + "_" +
                     (isPlainName(p->name()) ? p->name() : quoteString(p->name()));
    }
}

const DumpNotes* notesOf(const Node* n) {
    return n->debug().dump.get();
}

void verbatim(std::string& out, const std::vector<std::string>& lines, const char* indent) {
    for (const std::string& l : lines) {
        out += indent;
        out += l;
        out += '\n';
    }
}

std::string Printer::ref(const Node* in, const FuncGraph* cur) const {
    if (const auto* v = nodeCast<ValueNode>(in)) {
        return fmt_.value(*v->value());
    }
    if (const DumpNotes* n = notesOf(in); n != nullptr && !n->unresolved.empty()) {
        // A reference the file did not define, as it was written, inside `$(?:...)`: the
        // printer numbers nodes anew, so a bare `%7` could name a node of this text.
        return "$(?:" + n->unresolved + ")";
    }
    std::string local;
    if (const auto* p = nodeCast<Parameter>(in)) {
        auto it = params_.find(p);
        if (it == params_.end()) {  // a parameter of no graph, as MindSpore prints it
            return "%para_" + (isPlainName(p->name()) ? p->name() : quoteString(p->name()));
        }
        local = "%" + it->second;
    } else {
        local = local_.of(*in);
        if (local.empty()) {
            return "%?";  // a Return node or a node of no graph: not expressible
        }
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

std::string Printer::paramSuffix(const Parameter* p, bool header) const {
    std::string s = abstractText(p->abstract());
    if (p->hasDefault()) {
        s += " : has_default";
        if (const ValuePtr& v = p->defaultValue();
            v && valueTexts_ != nullptr && v->kind == Value::Kind::Tensor) {
            s += " = " + valueTexts_->text(v, [this](const Value& x) { return fmt_.value(x); });
        } else if (v) {
            s += " = " + fmt_.value(*v);
        }
    }
    const DumpNotes* n = notesOf(p);
    if (header && n != nullptr) {
        for (const DeviceTensor& t : n->kernelOutputs) {
            s += "  :  " + formatDeviceTensor(t);
        }
        if (n->isWeight) {
            s += std::string("  :  IsWeight:") + (*n->isWeight ? "true" : "false");
        }
        if (!n->suffix.empty()) {
            s += " : " + n->suffix;
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
            out_ += '~';
            out_ += std::to_string(loc.lineEnd);
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
    const DumpNotes* notes = notesOf(c);
    if (callee == nullptr) {
        out_ += "None";  // a CNode without inputs has no printable form
    } else if (const auto* v = nodeCast<ValueNode>(callee)) {
        if (const DumpNotes* vn = notesOf(v); vn != nullptr && !vn->owner.empty()) {
            out_ += "$(" + vn->owner + "):";
        }
        out_ += fmt_.callee(*v->value());
    } else {
        out_ += ref(callee, g);
    }
    if (notes != nullptr) {
        out_ += notes->calleeSuffix;
    }
    out_ += '(';
    for (std::size_t k = 1; k < c->size(); ++k) {
        if (k != 1) {
            out_ += ", ";
        }
        out_ += ref(c->input(k), g);
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
    if (notes != nullptr) {
        out_ += notes->lineSuffix;
    }
    out_ += '\n';
    const bool kernel = notes != nullptr && notes->hasKernel;
    if (c->abstract() || kernel) {
        out_ += "      : (";
        for (std::size_t k = 1; k < c->size(); ++k) {
            if (k != 1) {
                out_ += ", ";
            }
            out_ += abstractText(c->input(k)->abstract());
        }
        if (isReturn) {
            out_ += ")\n";
        } else {
            out_ += ") -> (";
            out_ += abstractText(c->abstract());
            out_ += ")\n";
        }
    }
    if (kernel) {  // the device types kernel selection chose
        out_ += "      : (";
        for (std::size_t k = 0; k < notes->kernelInputs.size(); ++k) {
            out_ += (k != 0 ? ", " : "") + formatDeviceTensor(notes->kernelInputs[k]);
        }
        out_ += ") -> (";
        for (std::size_t k = 0; k < notes->kernelOutputs.size(); ++k) {
            out_ += (k != 0 ? ", " : "") + formatDeviceTensor(notes->kernelOutputs[k]);
        }
        out_ += ")\n";
    }
    debugLines(c->debug(), "      ");
    if (notes != nullptr && opts_.debugInfo) {
        verbatim(out_, notes->lines, "      ");
    }
}

void Printer::graph(const FuncGraph* g) {
    const bool isEntry = g == m_.entry();
    const DumpNotes* notes = g->debug().dump.get();
    if (notes != nullptr) {
        verbatim(out_, notes->lines, "");
    }
    if (!g->attrs().empty()) {
        out_ += "subgraph attr:\n";
        attrLines(g->attrs());
    }
    if (notes != nullptr) {
        if (!g->attrs().empty() && !notes->linesAfterAttrs.empty() &&
            text::mayContinueAttrBlock(notes->linesAfterAttrs.front())) {
            out_ += '\n';  // a blank line ends the block: a kept line is not read as an attr
        }
        verbatim(out_, notes->linesAfterAttrs, "");
    }
    if (!isEntry && !g->parameters().empty()) {
        out_ += "# Parameters: " + std::to_string(g->parameters().size()) + ", (";
        for (std::size_t k = 0; k < g->parameters().size(); ++k) {
            out_ += (k != 0 ? ", " : "") + paramSuffix(g->parameters()[k]);
        }
        out_ += ")\n";
    }
    debugLines(g->debug(), "");
    out_ += "subgraph @" + graphRef(g);
    if (notes != nullptr && !notes->parent.empty()) {
        out_ += " parent: [" + notes->parent + "]";
    }
    out_ += "(";
    if (!isEntry) {
        for (std::size_t k = 0; k < g->parameters().size(); ++k) {
            out_ += (k != 0 ? ", %" : "%") + params_.at(g->parameters()[k]);
        }
    }
    out_ += ") {\n";
    const std::vector<const CNode*>& body = local_.body(g);
    for (std::size_t k = 0; k < body.size(); ++k) {
        const CNode* c = body[k];
        std::string lead = "  %" + std::to_string(k);
        const std::string& dbg = c->debug().name;
        if (!dbg.empty()) {
            lead +=
                "(" + (text::isPlainDelimitedText(dbg, '(', ')') ? dbg : quoteString(dbg)) + ")";
        }
        marker(c);
        cnodeLine(c, g, lead + " = ", false);
    }
    if (g->returnNode() != nullptr) {
        marker(g->returnNode());
        cnodeLine(g->returnNode(), g, "  ", true);
    }
    out_ += "}\n";
    if (notes != nullptr) {
        verbatim(out_, notes->linesAfter, "");
    }
}

// analyze_fail.ir's `#------------------------> N` in front of a node of the traced stack.
void Printer::marker(const CNode* c) {
    if (const DumpNotes* n = notesOf(c); n != nullptr && n->stackFrame >= 0) {
        out_ += "#------------------------> " + std::to_string(n->stackFrame) + "\n";
    }
}

std::string Printer::run() {
    cacheAbstracts_ = true;
    orderAndName();
    const FuncGraph* entry = m_.entry();
    const NodeCounts counts = m_.counts();
    // Growing the text by doubling copies it again and again (tens of megabytes for a
    // training step): reserve what the last module this thread printed took per parameter
    // of the entry (the header, where weights print their values) and per CNode.
    thread_local std::array<double, 2> bytesPerParam{};
    thread_local std::array<double, 2> bytesPerCNode{};
    double& perParam = bytesPerParam[opts_.debugInfo ? 1 : 0];
    double& perCNode = bytesPerCNode[opts_.debugInfo ? 1 : 0];
    const std::size_t params = entry != nullptr ? entry->parameters().size() : 0;
    auto estimate = [](std::size_t n, double per) {
        return static_cast<std::size_t>(static_cast<double>(n) * per * 1.05);
    };
    out_.reserve(estimate(params, perParam) + estimate(counts.cnodes, perCNode));
    if (!m_.preamble().empty()) {
        verbatim(out_, m_.preamble(), "");
        out_ += "\n";
    }
    if (entry != nullptr) {
        out_ += "# IR entry: @" + graphRef(entry) + "\n";
    }
    out_ += "# Total subgraphs: " + std::to_string(local_.order.size()) + "\n\n";
    if (!m_.attrs().empty()) {
        out_ += "# Attrs:\n";
        attrLines(m_.attrs());
        out_ += "\n";
    }
    if (entry != nullptr) {
        out_ += "# Total params: " + std::to_string(entry->parameters().size()) + "\n";
        out_ += "# Params:\n";
        for (const Parameter* p : entry->parameters()) {
            out_ += "%" + params_.at(p) + ": " + paramSuffix(p, true) + "\n";
        }
        out_ += "\n";
    }
    const std::size_t headerEnd = out_.size();
    if (params > 0) {
        perParam = static_cast<double>(headerEnd) / static_cast<double>(params);
    }
    out_.reserve(headerEnd + estimate(counts.cnodes, perCNode));
    out_ += "Node counting information:\n";
    out_ += "Total number of nodes: " + std::to_string(counts.nodes) + "\n";
    out_ += "Total number of cnodes: " + std::to_string(counts.cnodes) + "\n";
    for (const FuncGraph* g : local_.order) {
        out_ += "\n";
        graph(g);
    }
    if (!m_.trailer().empty()) {
        out_ += "\n";
        verbatim(out_, m_.trailer(), "");
    }
    if (counts.cnodes > 0) {
        perCNode =
            static_cast<double>(out_.size() - headerEnd) / static_cast<double>(counts.cnodes);
    }
    return std::move(out_);
}

}  // namespace

std::string printIr(const Module& m, const PrintOptions& opts) {
    return Printer(m, opts).run();
}

std::string printIr(const Module& m, const PrintOptions& opts, ValueTextCache& cache) {
    return Printer(m, opts, &cache).run();
}

std::string ValueTextCache::text(const ValuePtr& v,
                                 const std::function<std::string(const Value&)>& format) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = texts_.find(v.get()); it != texts_.end()) {
            return it->second.second;
        }
    }
    std::string t = format(*v);  // off the lock: two printers format different values
    std::lock_guard lock(mutex_);
    texts_.try_emplace(v.get(), v, t);
    return t;
}

struct NodeLines::Impl {
    explicit Impl(const Module& m) : printer(m, PrintOptions{}) { printer.prepare(); }
    Printer printer;
};

NodeLines::NodeLines(const Module& m) : impl_(std::make_unique<Impl>(m)) {}
NodeLines::~NodeLines() = default;

std::string NodeLines::line(const CNode& c) const {
    return impl_->printer.nodeLine(c);
}

std::string NodeLines::graphName(const FuncGraph& g) const {
    return impl_->printer.graphName(&g);
}

}  // namespace irscope::ir
