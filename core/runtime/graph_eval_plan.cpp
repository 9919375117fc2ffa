#include "runtime/graph_eval_plan.h"

#include <functional>
#include <queue>

#include "ops/op_registry.h"

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

using Edges = std::unordered_map<const ir::CNode*, std::vector<const ir::CNode*>>;

bool writesMemory(const ir::CNode* c) {
    if (const ir::PrimitiveData* p = c->primitive()) {
        const ops::OpDef* op = ops::OpRegistry::instance().find(p->name);
        return op != nullptr && op->sideEffectMem;
    }
    // A call on the memory state (`UpdateState(%u, %call)`) may write any Parameter.
    for (const ir::Use& u : c->users()) {
        if (u.user->isPrimitive("UpdateState") && u.index >= 2) {
            const ir::AbstractPtr& a = u.user->abstract();
            if (!a || a->kind != ir::Abstract::Kind::Monad || a->monad == ir::MonadKind::U) {
                return true;
            }
        }
    }
    return false;
}

// The nodes of `within` that depend on `from` (through data, UpdateState and Depend edges).
std::unordered_set<const ir::CNode*> descendants(
    const ir::CNode* from, const std::unordered_set<const ir::CNode*>& within) {
    std::unordered_set<const ir::CNode*> out;
    std::vector<const ir::CNode*> work{from};
    while (!work.empty()) {
        const ir::CNode* n = work.back();
        work.pop_back();
        for (const ir::Use& u : n->users()) {
            if (within.count(u.user) && out.insert(u.user).second) {
                work.push_back(u.user);
            }
        }
    }
    return out;
}

// A Load aliases its Parameter: whoever reads it (directly or through the tuples and
// Depends that carry it) must run before a later write of that Parameter, unless it depends
// on the write. Returns those reader -> write edges.
Edges readWriteEdges(const std::vector<ir::CNode*>& body,
                     const std::unordered_set<const ir::CNode*>& within) {
    Edges extra;
    std::vector<const ir::CNode*> writes;
    for (const ir::CNode* c : body) {
        if (within.count(c) && writesMemory(c)) {
            writes.push_back(c);
        }
    }
    if (writes.empty()) {
        return extra;
    }
    std::unordered_map<const ir::CNode*, std::unordered_set<const ir::CNode*>> after;
    for (const ir::CNode* w : writes) {
        after[w] = descendants(w, within);
    }
    for (const ir::CNode* load : body) {
        if (!within.count(load) || !load->isPrimitive("Load") || load->size() < 2) {
            continue;
        }
        std::vector<const ir::CNode*> readers;
        std::vector<const ir::Node*> work{load};
        std::unordered_set<const ir::Node*> seen{load};
        while (!work.empty()) {
            const ir::Node* n = work.back();
            work.pop_back();
            for (const ir::Use& u : n->users()) {
                const ir::CNode* r = u.user;
                if (!within.count(r) || r->isPrimitive("UpdateState") || !seen.insert(r).second) {
                    continue;
                }
                readers.push_back(r);
                if (r->isPrimitive("MakeTuple") || r->isPrimitive("TupleGetItem") ||
                    (r->isPrimitive("Depend") && u.index == 1)) {
                    work.push_back(r);
                }
            }
        }
        const auto later = descendants(load, within);
        for (const ir::CNode* w : writes) {
            const bool sameParam =
                !w->primitive() || (w->size() > 1 && w->input(1) == load->input(1));
            if (!sameParam || !later.count(w)) {
                continue;
            }
            for (const ir::CNode* r : readers) {
                if (r != w && !after[w].count(r)) {
                    extra[r].push_back(w);
                }
            }
        }
    }
    return extra;
}

std::vector<const ir::CNode*> schedule(const std::vector<ir::CNode*>& body,
                                       const std::unordered_set<const ir::CNode*>& within,
                                       const Edges& extra) {
    std::unordered_map<const ir::CNode*, int> pending;
    Edges next;
    for (const ir::CNode* c : body) {
        if (!within.count(c)) {
            continue;
        }
        pending.emplace(c, 0);
        std::unordered_set<const ir::CNode*> seen;
        for (const ir::Node* in : c->inputs()) {
            const auto* ic = ir::nodeCast<ir::CNode>(in);
            if (ic != nullptr && within.count(ic) && seen.insert(ic).second) {
                ++pending[c];
                next[ic].push_back(c);
            }
        }
    }
    for (const auto& [from, tos] : extra) {
        for (const ir::CNode* to : tos) {
            ++pending[to];
            next[from].push_back(to);
        }
    }
    auto later = [](const ir::CNode* a, const ir::CNode* b) { return a->id() > b->id(); };
    std::priority_queue<const ir::CNode*, std::vector<const ir::CNode*>, decltype(later)> ready(
        later);
    for (const auto& [c, count] : pending) {
        if (count == 0) {
            ready.push(c);
        }
    }
    std::vector<const ir::CNode*> order;
    while (!ready.empty()) {
        const ir::CNode* c = ready.top();
        ready.pop();
        order.push_back(c);
        for (const ir::CNode* u : next[c]) {
            if (--pending[u] == 0) {
                ready.push(u);
            }
        }
    }
    return order;
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

    // Kahn's algorithm over the body, smallest id first among the ready nodes, with the
    // users of each Load before the next write of its Parameter (readWriteEdges); without
    // them if they would make a cycle.
    const std::vector<ir::CNode*> body = g.topoOrder();
    std::unordered_set<const ir::CNode*> scheduled;
    for (const ir::CNode* c : body) {
        if (c != ret && !chain.count(c)) {
            scheduled.insert(c);
        }
    }
    const Edges extra = readWriteEdges(body, scheduled);
    plan.order = schedule(body, scheduled, extra);
    if (plan.order.size() != scheduled.size()) {
        plan.order = schedule(body, scheduled, {});
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
