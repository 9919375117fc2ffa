// Execution order of a kernel graph and the renumbering of node ids into it.
#include <algorithm>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/compile_error.h"
#include "passes/task_emit.h"

namespace irscope::passes::backend {

namespace {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

// The nodes a primitive writes in place (Assign's variable; Adam's var, m and v).
std::vector<const Node*> writtenBy(const CNode* c) {
    std::vector<const Node*> out;
    const ir::PrimitiveData* p = c->primitive();
    const ops::OpDef* op = p != nullptr ? ops::OpRegistry::instance().find(p->name) : nullptr;
    if (op == nullptr || !op->sideEffectMem) {
        return out;
    }
    for (std::size_t k : op->writes) {
        if (k + 1 < c->size()) {
            out.push_back(c->input(k + 1));
        }
    }
    return out;
}

// Nodes of `body` reachable from `from` through users inside the body (from included).
std::vector<bool> descendants(const CNode* from,
                              const std::unordered_map<const Node*, std::size_t>& index) {
    std::vector<bool> seen(index.size(), false);
    std::vector<const Node*> todo{from};
    seen[index.at(from)] = true;
    while (!todo.empty()) {
        const Node* n = todo.back();
        todo.pop_back();
        for (const ir::Use& u : n->users()) {
            auto it = index.find(u.user);
            if (it != index.end() && !seen[it->second]) {
                seen[it->second] = true;
                todo.push_back(u.user);
            }
        }
    }
    return seen;
}

std::string kernelName(const CNode* c) {
    return c->debug().name.empty() ? "CNode_" + std::to_string(c->id()) : c->debug().name;
}

}  // namespace

std::vector<CNode*> executionOrder(const FuncGraph& g) {
    const std::vector<CNode*> body = g.topoOrder();
    std::unordered_map<const Node*, std::size_t> index;
    index.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        index[body[i]] = i;
    }
    // i runs after these (repeats allowed until they are made distinct below).
    std::vector<std::vector<std::size_t>> before(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        for (const Node* in : body[i]->inputs()) {
            if (in->graph() != &g || !in->isCNode()) {
                continue;  // only the body's CNodes are in the index
            }
            if (auto it = index.find(in); it != index.end()) {
                before[i].push_back(it->second);
            }
        }
    }
    // The Load rule: a reader of a Load runs before a later write of the loaded parameter
    // unless it depends on that write.
    std::unordered_map<const Node*, std::vector<std::size_t>> writes;  // parameter -> writes
    for (std::size_t i = 0; i < body.size(); ++i) {
        for (const Node* written : writtenBy(body[i])) {
            writes[written].push_back(i);
        }
    }
    std::unordered_map<std::size_t, std::vector<bool>> after;  // write -> its descendants
    for (std::size_t i = 0; i < body.size(); ++i) {
        const CNode* load = body[i];
        if (!load->isPrimitive(ir::prim::kLoad) || load->size() < 2) {
            continue;
        }
        auto w = writes.find(load->input(1));
        if (w == writes.end()) {
            continue;
        }
        const std::vector<bool> fromLoad = descendants(load, index);
        for (std::size_t wi : w->second) {
            if (!fromLoad[wi]) {
                continue;  // this write is not after the Load
            }
            auto [it, fresh] = after.try_emplace(wi);
            if (fresh) {
                it->second = descendants(body[wi], index);
            }
            for (const ir::Use& u : load->users()) {
                auto ui = index.find(u.user);
                if (ui != index.end() && !it->second[ui->second]) {
                    before[wi].push_back(ui->second);
                }
            }
        }
    }
    std::vector<std::size_t> pending(body.size());
    std::vector<std::vector<std::size_t>> next(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        std::sort(before[i].begin(), before[i].end());
        before[i].erase(std::unique(before[i].begin(), before[i].end()), before[i].end());
        pending[i] = before[i].size();
        for (std::size_t d : before[i]) {
            next[d].push_back(i);
        }
    }
    using Item = std::pair<std::uint64_t, std::size_t>;  // (node id, body index)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (pending[i] == 0) {
            ready.emplace(body[i]->id(), i);
        }
    }
    std::vector<CNode*> order;
    order.reserve(body.size());
    while (!ready.empty()) {
        const std::size_t i = ready.top().second;
        ready.pop();
        order.push_back(body[i]);
        for (std::size_t u : next[i]) {
            if (--pending[u] == 0) {
                ready.emplace(body[u]->id(), u);
            }
        }
    }
    if (order.size() != body.size()) {
        const CNode* stuck = nullptr;
        for (std::size_t i = 0; i < body.size(); ++i) {
            if (pending[i] != 0 && (stuck == nullptr || body[i]->id() < stuck->id())) {
                stuck = body[i];
            }
        }
        const auto& trace = stuck->debug().trace;
        throw CompileError(
            "RuntimeError",
            "irscope: task_emit: the execution order of @" + g.name() + " has a cycle through " +
                kernelName(stuck) +
                " (a Load's reader and a later write of the same parameter depend on each other)",
            trace.empty() ? ir::SourceLocation{} : trace.back());
    }
    return order;
}

bool applyExecutionOrder(ir::Module& m, ExecutionOrders* ordersOut) {
    bool changed = false;
    const std::vector<FuncGraph*> graphs = kernelGraphs(m);
    ExecutionOrders orders;
    for (FuncGraph* g : graphs) {
        if (g->returnNode() == nullptr) {
            continue;
        }
        std::vector<CNode*> order = executionOrder(*g);
        const bool sorted =
            std::is_sorted(order.begin(), order.end(),
                           [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
        if (!sorted) {
            // The graph's CNodes numbered in the order (ids are creation order elsewhere):
            // names and a second run follow it.
            m.renumber(order);
            changed = true;
        }
        orders[g] = std::move(order);
    }
    // execution_order: the kernels (every CNode but Return); a call of a reused graph lists
    // the callee's kernels in its order (the order is flat even where the IR keeps a call).
    std::function<void(const FuncGraph*, std::vector<ir::ValuePtr>&, int)> list =
        [&](const FuncGraph* g, std::vector<ir::ValuePtr>& out, int depth) {
            for (const CNode* c : orders[g]) {
                if (c == g->returnNode()) {
                    continue;
                }
                const FuncGraph* callee = c->calledGraph();
                if (callee != nullptr && isReusedGraph(*callee) && orders.count(callee) &&
                    depth < 16) {
                    list(callee, out, depth + 1);
                    continue;
                }
                out.push_back(ir::Value::string(kernelName(c)));
            }
        };
    for (FuncGraph* g : graphs) {
        if (!orders.count(g)) {
            continue;
        }
        std::vector<ir::ValuePtr> names;
        list(g, names, 0);
        ir::ValuePtr attr = ir::Value::tuple(std::move(names));
        const ir::ValuePtr old = g->attrs().get("execution_order");
        if (!old || !old->equals(*attr)) {
            g->attrs().set("execution_order", attr);
            changed = true;
        }
    }
    if (ordersOut != nullptr) {
        *ordersOut = std::move(orders);
    }
    return changed;
}

}  // namespace irscope::passes::backend
