// Backend inline of reused CR_ graphs (MS_DEV_CELL_REUSE=2) and the removal of graphs the
// entry no longer reaches (shared with graph_reusing).
#include <unordered_map>
#include <unordered_set>

#include "passes/compile_error.h"
#include "passes/opt_util.h"
#include "passes/task_emit.h"

namespace irscope::passes::backend {

namespace {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::ValueNode;

bool refersToGraph(const ir::Value& v) {
    if (v.kind == ir::Value::Kind::Graph) {
        return true;
    }
    for (const auto& e : v.elements) {
        if (refersToGraph(*e)) {
            return true;
        }
    }
    if (v.kind == ir::Value::Kind::Primitive) {
        for (const auto& [k, a] : v.prim->attrs) {
            if (refersToGraph(*a)) {
                return true;
            }
        }
    }
    return false;
}

// Replaces `call` (`call @g(args)`) by a copy of g's body in the caller.
void inlineCall(ir::Module& m, CNode* call, const FuncGraph* g) {
    FuncGraph* caller = call->graph();
    if (call->size() != g->parameters().size() + 1) {
        const auto& trace = call->debug().trace;
        throw CompileError("TypeError",
                           "irscope: task_emit: @" + g->name() + " takes " +
                               std::to_string(g->parameters().size()) +
                               " arguments but its call passes " + std::to_string(call->size() - 1),
                           trace.empty() ? ir::SourceLocation{} : trace.back());
    }
    std::unordered_map<const Node*, Node*> map;
    for (std::size_t i = 0; i < g->parameters().size(); ++i) {
        map[g->parameters()[i]] = call->input(i + 1);
    }
    auto mapped = [&](Node* in) -> Node* {
        if (auto it = map.find(in); it != map.end()) {
            return it->second;
        }
        if (in->graph() != g) {
            return in;  // a free variable of an enclosing graph
        }
        auto* v = ir::nodeCast<ValueNode>(in);
        if (v == nullptr) {
            throw std::logic_error("task_emit: @" + g->name() + " uses a node before defining it");
        }
        ValueNode* copy = m.addValue(caller, v->value());
        copy->setAbstract(v->abstract());
        copy->shareDebug(*v);
        map[in] = copy;
        return copy;
    };
    for (CNode* c : g->topoOrder()) {
        if (c == g->returnNode()) {
            break;
        }
        std::vector<Node*> ins;
        ins.reserve(c->size());
        for (Node* in : c->inputs()) {
            ins.push_back(mapped(in));
        }
        CNode* k = m.addCNode(caller, ins);
        k->setAbstract(c->abstract());
        k->shareDebug(*c);
        k->attrs() = c->attrs();
        k->primalAttrs() = c->primalAttrs();
        map[c] = k;
    }
    Node* out = mapped(g->output());
    Node* callee = call->input(0);
    m.replaceAllUses(call, out);
    m.erase(call);
    if (callee->users().empty() && callee->graph() == caller) {
        m.erase(callee);
    }
}

}  // namespace

bool isReusedGraph(const FuncGraph& g) {
    return g.flag("cell_reuse");
}

bool inlineReusedGraphs(ir::Module& m) {
    bool changed = false;
    std::unordered_set<const FuncGraph*> kept;  // used as free variables: stay calls
    // Each round inlines every call found; a reused graph calling another one (which
    // graph_reusing never makes, limitation 2) is handled by the next round.
    for (int round = 0;; ++round) {
        std::vector<std::pair<CNode*, FuncGraph*>> calls;
        std::unordered_set<const FuncGraph*> checked;
        for (FuncGraph* g : m.reachableGraphs()) {
            for (CNode* c : g->topoOrder()) {
                FuncGraph* callee = c->calledGraph();
                if (callee == nullptr || callee == g || !isReusedGraph(*callee) ||
                    kept.count(callee)) {
                    continue;
                }
                if (checked.insert(callee).second && opt::usedOutside(callee)) {
                    kept.insert(callee);
                    continue;
                }
                calls.emplace_back(c, callee);
            }
        }
        if (calls.empty()) {
            break;
        }
        if (round >= 64) {
            const auto& trace = calls.front().first->debug().trace;
            throw CompileError("RuntimeError",
                               "irscope: task_emit: reused graph @" + calls.front().second->name() +
                                   " calls itself; it cannot be inlined",
                               trace.empty() ? ir::SourceLocation{} : trace.back());
        }
        for (auto [c, callee] : calls) {
            inlineCall(m, c, callee);
        }
        changed = true;
    }
    if (changed) {
        opt::eraseUnreachableGraphs(m);  // the reused graphs and what only they called
    }
    return changed;
}

std::vector<FuncGraph*> kernelGraphs(const ir::Module& m) {
    return m.reachableGraphs();
}

}  // namespace irscope::passes::backend
