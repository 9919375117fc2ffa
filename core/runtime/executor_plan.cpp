#include "runtime/executor_plan.h"

#include <algorithm>
#include <functional>

namespace irscope::runtime::detail {

namespace {

GraphPlan planGraph(const ir::FuncGraph& g) {
    GraphPlan plan;
    const ir::CNode* ret = g.returnNode();
    if (ret == nullptr) {
        return plan;
    }
    const std::vector<ir::CNode*> order = passes::backend::executionOrder(g);
    plan.order.assign(order.begin(), order.end());
    for (std::size_t i = 0; i < plan.order.size(); ++i) {
        plan.index.emplace(plan.order[i], i);
    }

    const std::vector<const ir::CNode*> path = passes::backend::tailCallChain(g);
    const std::unordered_set<const ir::CNode*> chain(path.begin(), path.end());
    plan.tailCall = path.empty() ? nullptr : path.back();
    std::unordered_map<const ir::Node*, std::size_t> position;
    for (const ir::CNode* c : plan.order) {
        if (c != ret && !chain.count(c)) {
            position[c] = plan.body.size();
            plan.body.push_back(c);
        }
    }
    // Last reads: a value read only by this graph's body is released after its last reader.
    plan.releaseAfter.resize(plan.body.size());
    for (std::size_t t = 0; t < plan.body.size(); ++t) {
        const ir::CNode* c = plan.body[t];
        std::size_t last = t;
        bool keep = false;
        for (const ir::Use& u : c->users()) {
            const auto it = position.find(u.user);
            if (u.user->graph() != &g || it == position.end()) {
                keep = true;  // a free variable, the tail chain or the Return
                break;
            }
            last = std::max(last, it->second);
        }
        if (!keep) {
            plan.releaseAfter[last].push_back(c);
        }
    }
    return plan;
}

}  // namespace

std::unordered_map<const ir::FuncGraph*, GraphPlan> planModule(const ir::Module& m) {
    std::unordered_map<const ir::FuncGraph*, GraphPlan> plans;
    for (const ir::FuncGraph* g : m.graphs()) {
        plans.emplace(g, planGraph(*g));
    }
    return plans;
}

std::uint64_t plannedPeakBytes(const ir::Module& m) {
    const ir::FuncGraph* entry = m.entry();
    if (entry == nullptr) {
        return 0;
    }
    if (const ir::ValuePtr v = entry->attrs().get(passes::backend::kMemoryPeakBytesAttr);
        v != nullptr && v->kind == ir::Value::Kind::Int && v->i >= 0) {
        return static_cast<std::uint64_t>(v->i);
    }
    return passes::backend::PeakPlanner(m).peak(entry);
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
