#include "ir/export_json.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "ir/export_dot.h"
#include "ir/ir_text.h"
#include "ir/local_names.h"

namespace irscope::ir {

namespace {

using nlohmann::json;

json attrsJson(const AttrMap& attrs) {
    json out = json::object();
    for (const auto& [k, v] : attrs) {
        out[k] = v ? json(formatValue(*v)) : json(nullptr);
    }
    return out;
}

json locationsJson(const LocationTrace& trace) {
    json out = json::array();
    for (const auto& loc : trace) {
        out.push_back({{"file", loc.file},
                       {"line", loc.line},
                       {"line_end", loc.lineEnd},
                       {"col", loc.col},
                       {"col_end", loc.colEnd},
                       {"text", loc.text}});
    }
    return out;
}

const char* kindName(const Node& n) {
    switch (n.kind()) {
        case Node::Kind::Parameter:
            return "parameter";
        case Node::Kind::Value:
            return "value";
        case Node::Kind::CNode:
            return "cnode";
    }
    return "";
}

}  // namespace

std::string exportJson(const Module& m, int indent) {
    const LocalNames names = localNames(m);
    const std::vector<FuncGraph*> order = names.order;
    std::unordered_set<const FuncGraph*> reachable;
    for (const FuncGraph* g : m.reachableGraphs()) {
        reachable.insert(g);
    }

    std::unordered_set<const Node*> used;
    std::vector<const Node*> nodes;
    auto use = [&](const Node* n) {
        if (used.insert(n).second) {
            nodes.push_back(n);
        }
    };

    json graphs = json::array();
    std::vector<const CNode*> work;
    for (const FuncGraph* g : order) {
        json params = json::array();
        for (const Parameter* p : g->parameters()) {
            params.push_back(p->id());
            use(p);
        }
        json body = json::array();
        std::vector<const CNode*> printed = names.body(g);
        if (g->returnNode() != nullptr) {
            printed.push_back(g->returnNode());
        }
        for (const CNode* c : printed) {
            body.push_back(c->id());
            use(c);
            work.push_back(c);
        }
        graphs.push_back({{"name", g->name()},
                          {"reachable", reachable.count(g) != 0},
                          {"attrs", attrsJson(g->attrs())},
                          {"parameters", std::move(params)},
                          {"return", g->returnNode() ? json(g->returnNode()->id()) : json(nullptr)},
                          {"body", std::move(body)},
                          {"source", locationsJson(g->debug().trace)}});
    }
    // Inputs outside every body (constants, free variables used only by other graphs).
    while (!work.empty()) {
        const CNode* c = work.back();
        work.pop_back();
        for (const Node* in : c->inputs()) {
            if (!used.count(in)) {
                use(in);
                if (const auto* ic = nodeCast<CNode>(in)) {
                    work.push_back(ic);
                }
            }
        }
    }
    std::sort(nodes.begin(), nodes.end(),
              [](const Node* a, const Node* b) { return a->id() < b->id(); });

    json jnodes = json::array();
    json edges = json::array();
    for (const Node* n : nodes) {
        json j = {{"id", n->id()},
                  {"kind", kindName(*n)},
                  {"graph", n->graph() ? json(n->graph()->name()) : json(nullptr)}};
        const auto* p = nodeCast<Parameter>(n);
        j["name"] = p ? p->name() : n->debug().name;
        j["debug_name"] = n->debug().name;
        const std::string local = names.of(*n);
        j["local"] = local.empty() ? json(nullptr) : json(local);
        j["abstract"] = n->abstract() ? json(formatAbstract(*n->abstract())) : json(nullptr);
        if (p != nullptr) {
            j["has_default"] = p->hasDefault();
            j["value"] = p->defaultValue() ? json(formatValue(*p->defaultValue())) : json(nullptr);
        } else if (const auto* v = nodeCast<ValueNode>(n)) {
            j["value"] = formatValue(*v->value());
        } else if (const auto* c = nodeCast<CNode>(n)) {
            const PrimitiveData* prim = c->primitive();
            j["op"] = prim ? json(prim->name) : json(nullptr);
            const FuncGraph* callee = c->calledGraph();
            j["call"] = callee ? json(callee->name()) : json(nullptr);
            json inputs = json::array();
            for (std::size_t i = 0; i < c->size(); ++i) {
                inputs.push_back(c->input(i)->id());
                edges.push_back(
                    {{"from", c->input(i)->id()},
                     {"to", c->id()},
                     {"index", i},
                     {"kind", classifyInput(*c, i) == EdgeKind::Control ? "control" : "data"}});
            }
            j["inputs"] = std::move(inputs);
            if (!c->attrs().empty()) {
                j["attrs"] = attrsJson(c->attrs());
            }
            if (!c->primalAttrs().empty()) {
                j["primal_attrs"] = attrsJson(c->primalAttrs());
            }
        }
        j["scope"] = n->debug().scope;
        j["source"] = locationsJson(n->debug().trace);
        jnodes.push_back(std::move(j));
    }

    json doc = {{"format", "irscope-ir"},
                {"version", 1},
                {"entry", m.entry() ? json(m.entry()->name()) : json(nullptr)},
                {"attrs", attrsJson(m.attrs())},
                {"graphs", std::move(graphs)},
                {"nodes", std::move(jnodes)},
                {"edges", std::move(edges)}};
    // Names and texts come from user files: replace invalid UTF-8 instead of throwing.
    return doc.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace irscope::ir
