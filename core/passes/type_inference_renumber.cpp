// The last step of type_inference: every live graph is rebuilt with its CNodes created in
// source order. Expansion replaces nodes by new ones (new ids), but the evaluator orders
// statements without a data dependence (an isolated `F.assign`, a `print`) by node id, as
// the front end created them in source order; `y = x + w; F.assign(w, 1)` must still read
// w before the write after `x + w` became a new Add node. Each CNode carries the position of
// the template node it comes from (Engine::order_); the rebuild takes the topological order
// that prefers the earliest.
#include <queue>
#include <tuple>
#include <unordered_set>

#include "passes/type_inference_engine.h"

namespace irscope::passes::infer {

ir::ValuePtr substitute(const ir::ValuePtr& v,
                        const std::unordered_map<ir::FuncGraph*, ir::FuncGraph*>& gmap) {
    if (!v) {
        return v;
    }
    switch (v->kind) {
        case ir::Value::Kind::Graph: {
            auto it = gmap.find(v->graph);
            if (it == gmap.end()) {
                return v;
            }
            return it->second ? ir::Value::graphRef(it->second) : ir::Value::none();
        }
        case ir::Value::Kind::Tuple:
        case ir::Value::Kind::List:
        case ir::Value::Kind::Slice: {
            std::vector<ir::ValuePtr> elems;
            bool changed = false;
            for (const auto& e : v->elements) {
                elems.push_back(substitute(e, gmap));
                changed = changed || elems.back() != e;
            }
            if (!changed) {
                return v;
            }
            auto copy = std::make_shared<ir::Value>(*v);
            copy->elements = std::move(elems);
            return copy;
        }
        case ir::Value::Kind::Primitive: {
            ir::PrimitiveData p = *v->prim;
            bool changed = false;
            for (const auto& [k, a] : v->prim->attrs) {
                ir::ValuePtr b = substitute(a, gmap);
                if (b != a) {
                    p.attrs.set(k, b);
                    changed = true;
                }
            }
            return changed ? ir::Value::primitive(std::move(p)) : v;
        }
        default:
            return v;
    }
}

void Engine::renumber() {
    const std::vector<ir::FuncGraph*> old = m_.reachableGraphs();
    std::unordered_map<ir::FuncGraph*, ir::FuncGraph*> gmap;
    std::unordered_map<const ir::Node*, ir::Node*> nmap;
    for (ir::FuncGraph* g : old) {
        ir::FuncGraph* n = m_.addGraph(g->name());
        n->attrs() = g->attrs();
        n->debug() = g->debug();
        gmap[g] = n;
        for (ir::Parameter* p : g->parameters()) {
            nmap[p] = m_.addParameterLike(n, *p);
        }
    }
    auto keyOf = [&](const ir::CNode* c) {
        auto it = order_.find(c);
        return it != order_.end() ? it->second : OrderKey{c->id(), 0};
    };
    for (ir::FuncGraph* g : old) {
        ir::FuncGraph* n = gmap[g];
        const std::vector<ir::CNode*> body = g->topoOrder();
        const std::unordered_set<const ir::CNode*> inBody(body.begin(), body.end());
        std::unordered_map<const ir::CNode*, std::size_t> pending;
        std::unordered_map<const ir::CNode*, std::vector<ir::CNode*>> users;
        for (ir::CNode* c : body) {
            std::unordered_set<const ir::CNode*> deps;
            for (ir::Node* in : c->inputs()) {
                auto* d = ir::nodeCast<ir::CNode>(in);
                if (d && inBody.count(d) && deps.insert(d).second) {
                    users[d].push_back(c);
                }
            }
            pending[c] = deps.size();
        }
        // A node made for a later one (the varargs tuple symbol_resolve builds for a call)
        // takes its user's place: no later than its earliest user, so that the user keeps
        // its own place among the statements.
        std::unordered_map<const ir::CNode*, OrderKey> place;
        for (auto it = body.rbegin(); it != body.rend(); ++it) {
            OrderKey k = keyOf(*it);
            for (const ir::CNode* u : users[*it]) {
                k = std::min(k, place.at(u));
            }
            place[*it] = k;
        }
        std::unordered_map<const ir::Node*, ir::ValueNode*> values;  // one copy per constant
        // By place, then by the node's own key (inputs pulled to one user's place keep
        // their order), never by address.
        using Item = std::tuple<OrderKey, OrderKey, ir::CNode*>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
        for (ir::CNode* c : body) {
            if (pending[c] == 0) {
                ready.push({place.at(c), keyOf(c), c});
            }
        }
        while (!ready.empty()) {
            ir::CNode* c = std::get<2>(ready.top());
            ready.pop();
            std::vector<ir::Node*> ins;
            for (ir::Node* in : c->inputs()) {
                if (auto it = nmap.find(in); it != nmap.end()) {
                    ins.push_back(it->second);
                    continue;
                }
                auto* v = ir::nodeCast<ir::ValueNode>(in);
                if (!v) {
                    error(c, "RuntimeError",
                          "irscope: graph @" + g->name() + " uses a node of another graph");
                }
                ir::ValueNode*& w = values[v];
                if (!w) {
                    w = m_.addValue(n, substitute(v->value(), gmap));
                    w->setAbstract(v->abstract());
                    w->shareDebug(*v);
                }
                ins.push_back(w);
            }
            ir::CNode* k = m_.addCNode(n, ins);
            k->attrs() = c->attrs();
            k->primalAttrs() = c->primalAttrs();
            k->shareDebug(*c);
            k->setAbstract(c->abstract());
            nmap[c] = k;
            if (c == g->returnNode()) {
                m_.setReturnNode(n, k);
            }
            for (ir::CNode* u : users[c]) {
                if (--pending[u] == 0) {
                    ready.push({place.at(u), keyOf(u), u});
                }
            }
        }
    }
    m_.setEntry(gmap.at(m_.entry()));
    eraseGraphs(old);
}

}  // namespace irscope::passes::infer
