#include "runtime/graph_eval_plan.h"

#include <functional>
#include <queue>

namespace irscope::runtime::detail {

namespace {

bool isCallOfValue(const ir::CNode* n) {
    // A graph call (`@g(...)`) or a call of a computed function (`%3()`), not a primitive.
    return n->callee() != nullptr && n->primitive() == nullptr;
}

bool onlyUsedBy(const ir::Node* n, const ir::CNode* user) {
    for (const ir::Use& u : n->users()) {
        if (u.user != user) {
            return false;
        }
    }
    return !n->users().empty();
}

}  // namespace

GraphPlan planGraph(const ir::FuncGraph& g) {
    GraphPlan plan;
    const ir::CNode* ret = g.returnNode();
    if (ret == nullptr) {
        return plan;
    }
    std::unordered_set<const ir::CNode*> chain;
    // Follow Return -> Depend(value, ...) -> ... -> the call, each used only by the next.
    const ir::CNode* user = ret;
    const ir::Node* n = ret->size() > 1 ? ret->input(1) : nullptr;
    std::vector<const ir::CNode*> path;
    while (const auto* c = ir::nodeCast<ir::CNode>(n)) {
        if (c->graph() != &g || !onlyUsedBy(c, user)) {
            break;
        }
        if (c->isPrimitive("Depend") && c->size() > 1) {
            path.push_back(c);
            user = c;
            n = c->input(1);
            continue;
        }
        if (isCallOfValue(c)) {
            path.push_back(c);
            plan.tailCall = c;
        }
        break;
    }
    if (plan.tailCall != nullptr) {
        chain.insert(path.begin(), path.end());
    }

    // Kahn's algorithm over the body, smallest id first among the ready nodes.
    const std::vector<ir::CNode*> body = g.topoOrder();
    std::unordered_map<const ir::CNode*, int> pending;
    std::unordered_map<const ir::CNode*, std::vector<const ir::CNode*>> usersInBody;
    for (const ir::CNode* c : body) {
        if (c == ret || chain.count(c)) {
            continue;
        }
        int count = 0;
        std::unordered_set<const ir::CNode*> seen;
        for (const ir::Node* in : c->inputs()) {
            const auto* ic = ir::nodeCast<ir::CNode>(in);
            if (ic != nullptr && ic->graph() == &g && ic != ret && !chain.count(ic) &&
                seen.insert(ic).second) {
                ++count;
                usersInBody[ic].push_back(c);
            }
        }
        pending[c] = count;
    }
    auto later = [](const ir::CNode* a, const ir::CNode* b) { return a->id() > b->id(); };
    std::priority_queue<const ir::CNode*, std::vector<const ir::CNode*>, decltype(later)> ready(
        later);
    for (const auto& [c, count] : pending) {
        if (count == 0) {
            ready.push(c);
        }
    }
    while (!ready.empty()) {
        const ir::CNode* c = ready.top();
        ready.pop();
        plan.order.push_back(c);
        for (const ir::CNode* u : usersInBody[c]) {
            if (--pending[u] == 0) {
                ready.push(u);
            }
        }
    }
    return plan;
}

std::unordered_map<const ir::FuncGraph*, std::unordered_set<const ir::FuncGraph*>>
freeVariableOwners(const ir::Module& m) {
    using Set = std::unordered_set<const ir::FuncGraph*>;
    std::unordered_map<const ir::FuncGraph*, Set> owners;
    std::unordered_map<const ir::FuncGraph*, Set> refs;  // graphs named by value nodes
    const ir::FuncGraph* entry = m.entry();
    for (const ir::FuncGraph* g : m.graphs()) {
        Set& own = owners[g];
        Set& ref = refs[g];
        for (const ir::CNode* c : g->topoOrder()) {
            for (const ir::Node* in : c->inputs()) {
                if (const auto* v = ir::nodeCast<ir::ValueNode>(in)) {
                    std::function<void(const ir::Value&)> collect = [&](const ir::Value& val) {
                        if (val.kind == ir::Value::Kind::Graph && val.graph != nullptr) {
                            ref.insert(val.graph);
                        }
                        for (const auto& e : val.elements) {
                            if (e) {
                                collect(*e);
                            }
                        }
                    };
                    collect(*v->value());
                    continue;
                }
                if (in->graph() == nullptr || in->graph() == g) {
                    continue;
                }
                if (in->isParameter() && in->graph() == entry) {
                    continue;  // weights and inputs of the entry: bound globally
                }
                own.insert(in->graph());
            }
        }
    }
    // Fixed point: a graph also needs what the graphs it refers to need (minus itself).
    for (bool changed = true; changed;) {
        changed = false;
        for (auto& [g, own] : owners) {
            for (const ir::FuncGraph* r : refs[g]) {
                const auto it = owners.find(r);
                if (r == g || it == owners.end()) {
                    continue;
                }
                for (const ir::FuncGraph* o : it->second) {
                    if (o != g && own.insert(o).second) {
                        changed = true;
                    }
                }
            }
        }
    }
    return owners;
}

}  // namespace irscope::runtime::detail
