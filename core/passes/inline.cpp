// inline: MindSpore's inliner. Every direct call of a graph is replaced by a copy of the
// callee's body, repeatedly, so straight-line code ends up in one graph; calls of graphs
// marked no_inline (lazy inline's CR_ graphs), of recursive graphs (a while loop on a
// tensor condition: its header and body call each other) and calls through Switch or
// Partial stay. Graphs nothing refers to any more are erased.
#include "passes/inline.h"

#include <algorithm>
#include <deque>
#include <unordered_map>

#include "passes/compile_error.h"
#include "passes/opt_util.h"
#include "passes/pipeline.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Parameter;
using ir::ValueNode;

namespace {

// Copies nodes of some graphs ("owners") into target graphs: a node of owner o goes to
// target(o); inputs owned by another owner are copied first, constants are re-created in
// the target with their graph references remapped, everything else (free variables of the
// copied code) is used as is.
class Copier {
public:
    explicit Copier(ir::Module& m) : m_(m) {}

    void setTarget(FuncGraph* owner, FuncGraph* target) { target_[owner] = target; }
    void setGraphMap(FuncGraph* from, FuncGraph* to) { gmap_[from] = to; }
    void map(const Node* from, Node* to) { map_[from] = to; }
    const std::unordered_map<FuncGraph*, FuncGraph*>& graphMap() const { return gmap_; }
    // The id of the first CNode copied (later copies have larger ids), 0 before any.
    std::uint64_t firstCopyId() const { return firstId_; }

    // The node standing for `n` in the copied code used from `target`.
    Node* use(Node* n, FuncGraph* target) {
        if (auto* v = ir::nodeCast<ValueNode>(n)) {
            ValueNode* c = m_.addValue(target, opt::remapGraphRefs(v->value(), gmap_));
            c->setAbstract(v->abstract());
            c->shareDebug(*v);
            return c;
        }
        if (auto it = map_.find(n); it != map_.end()) {
            return it->second;
        }
        if (auto* c = ir::nodeCast<CNode>(n); c != nullptr && target_.count(c->graph())) {
            return copy(c);
        }
        return n;
    }

    // Copies `root` (and the inputs it needs that are not copied yet) without recursion.
    Node* copy(CNode* root) {
        std::vector<CNode*> stack{root};
        while (!stack.empty()) {
            CNode* top = stack.back();
            if (map_.count(top)) {
                stack.pop_back();
                continue;
            }
            CNode* pending = nullptr;
            for (Node* in : top->inputs()) {
                auto* c = ir::nodeCast<CNode>(in);
                if (c != nullptr && target_.count(c->graph()) && !map_.count(c)) {
                    pending = c;
                    break;
                }
            }
            if (pending != nullptr) {
                stack.push_back(pending);
                continue;
            }
            FuncGraph* target = target_.at(top->graph());
            std::vector<Node*> inputs;
            inputs.reserve(top->size());
            for (Node* in : top->inputs()) {
                inputs.push_back(use(in, target));
            }
            CNode* c = opt::addCNodeLike(m_, target, inputs, top);
            c->attrs() = top->attrs();
            c->primalAttrs() = top->primalAttrs();
            map_[top] = c;
            if (firstId_ == 0) {
                firstId_ = c->id();
            }
            stack.pop_back();
        }
        return map_.at(root);
    }

private:
    ir::Module& m_;
    std::unordered_map<const FuncGraph*, FuncGraph*> target_;
    std::unordered_map<FuncGraph*, FuncGraph*> gmap_;
    std::unordered_map<const Node*, Node*> map_;
    std::uint64_t firstId_ = 0;
};

// Graphs that use nodes of g, or of such graphs, as free variables (closures defined in
// g), and graphs that refer to those: inlining g must copy them too, or they would keep
// referring to g's nodes.
std::vector<FuncGraph*> closuresOf(FuncGraph* g) {
    std::vector<FuncGraph*> candidates;
    std::unordered_set<const FuncGraph*> seen{g};
    std::vector<FuncGraph*> work{g};
    while (!work.empty()) {
        FuncGraph* x = work.back();
        work.pop_back();
        for (FuncGraph* r : opt::referencedGraphs(x)) {
            if (seen.insert(r).second) {
                candidates.push_back(r);
                work.push_back(r);
            }
        }
    }
    std::unordered_set<const FuncGraph*> owners{g};
    std::vector<FuncGraph*> result;
    for (bool grew = true; grew;) {
        grew = false;
        for (FuncGraph* k : candidates) {
            if (owners.count(k)) {
                continue;
            }
            // A graph referring to a closure needs the closure's free variables too.
            bool usesOwner = false;
            for (FuncGraph* r : opt::referencedGraphs(k)) {
                usesOwner = usesOwner || (r != g && owners.count(r) > 0);
            }
            for (CNode* c : k->topoOrder()) {
                for (Node* in : c->inputs()) {
                    usesOwner = usesOwner || (!in->isValue() && owners.count(in->graph()) > 0);
                }
                if (usesOwner) {
                    break;
                }
            }
            if (usesOwner) {
                owners.insert(k);
                result.push_back(k);
                grew = true;
            }
        }
    }
    return result;
}

std::vector<CNode*> byId(std::vector<CNode*> nodes) {
    std::sort(nodes.begin(), nodes.end(),
              [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
    return nodes;
}

}  // namespace

bool isInlinableCall(const CNode* call, const std::unordered_set<const FuncGraph*>& recursive) {
    const FuncGraph* g = call->calledGraph();
    return g != nullptr && g != call->graph() && !g->flag("no_inline") && !recursive.count(g);
}

namespace {

// Graphs some node of which another graph uses (a free variable). Only their callees can
// have closures to copy; knowing this avoids searching the callee's whole reference tree
// at every call. Kept conservative: it may list graphs that no longer qualify.
using FreeVariableOwners = std::unordered_set<const FuncGraph*>;

FreeVariableOwners freeVariableOwners(const ir::Module& m) {
    FreeVariableOwners owners;
    m.forEachNode([&](const Node* n) {
        if (const auto* c = ir::nodeCast<CNode>(n)) {
            for (const Node* in : c->inputs()) {
                if (!in->isValue() && in->graph() != c->graph() && in->graph() != nullptr) {
                    owners.insert(in->graph());
                }
            }
        }
    });
    return owners;
}

Node* inlineCallImpl(ir::Module& m, CNode* call, std::uint64_t orderId, bool reorder,
                     FreeVariableOwners* owners) {
    FuncGraph* g = call->calledGraph();
    FuncGraph* caller = call->graph();
    if (g == nullptr || g->output() == nullptr) {
        throw CompileError("RuntimeError", "inline: the call does not name a complete graph",
                           opt::locationOf(call));
    }
    const std::size_t given = call->size() - 1;
    const std::size_t wanted = g->parameters().size();
    if (given != wanted) {
        throw CompileError("TypeError",
                           "The function '" + g->name() + "' takes " + std::to_string(wanted) +
                               " positional arguments but " + std::to_string(given) +
                               " were given.",
                           opt::locationOf(call));
    }

    Copier cp(m);
    cp.setTarget(g, caller);
    for (std::size_t i = 0; i < wanted; ++i) {
        cp.map(g->parameters()[i], call->input(i + 1));
    }
    const std::vector<FuncGraph*> closures =
        owners == nullptr || owners->count(g) ? closuresOf(g) : std::vector<FuncGraph*>{};
    if (owners != nullptr && !closures.empty()) {
        owners->insert(caller);  // the closures' copies use the caller's nodes
    }
    for (FuncGraph* k : closures) {
        FuncGraph* copy = m.addGraph(opt::uniqueGraphName(m, k->name()));
        copy->debug() = k->debug();
        cp.setTarget(k, copy);
        cp.setGraphMap(k, copy);
        for (Parameter* p : k->parameters()) {
            cp.map(p, m.addParameterLike(copy, *p));
        }
    }

    bool impure = false;
    std::vector<CNode*> body = g->topoOrder();
    body.pop_back();  // the Return node
    for (CNode* n : byId(body)) {
        impure = impure || opt::isImpure(n);
        cp.copy(n);
    }
    Node* out = cp.use(g->output(), caller);
    for (FuncGraph* k : closures) {
        FuncGraph* copy = cp.graphMap().at(k);
        for (const auto& [key, v] : k->attrs()) {
            copy->attrs().set(key, opt::remapGraphRefs(v, cp.graphMap()));
        }
        for (CNode* n : byId(k->topoOrder())) {
            cp.copy(n);
        }
        m.setReturnNode(copy, static_cast<CNode*>(cp.use(k->returnNode(), copy)));
    }

    const std::uint64_t callId = orderId != 0 ? orderId : call->id();
    Node* callee = call->input(0);
    m.replaceAllUses(call, out);
    m.erase(call);
    opt::eraseIfDead(m, callee);
    if (impure && reorder && cp.firstCopyId() != 0) {
        opt::renumberAfter(m, caller, callId, cp.firstCopyId() - 1, &out);
    }
    return out;
}

}  // namespace

Node* inlineCall(ir::Module& m, CNode* call, std::uint64_t orderId, bool reorder) {
    return inlineCallImpl(m, call, orderId, reorder, nullptr);
}

namespace {

// Whether g's body has a node whose order matters (a side effect, Load, a random op).
bool hasImpureNode(const FuncGraph* g) {
    for (const CNode* n : g->topoOrder()) {
        if (n != g->returnNode() && opt::isImpure(n)) {
            return true;
        }
    }
    return false;
}

// Inlines `calls` (direct calls in `caller`, in id order) in one sweep of the caller.
//
// The result is the node order that inlining them one at a time from the last to the first
// gives when each inline of a callee with side effects re-creates the caller's later nodes
// after the copy (so ids keep the source order the evaluator and the execution order break
// ties by): with B_j the caller's nodes between call j and call j+1 (after the last call for
// the last j) and S_j the order from call j on,
//     S_j = copy_j, B_j, S_j+1    (callee j with side effects)
//     S_j = B_j, S_j+1, copy_j    (pure callee: the copy just goes last).
// Here that order is computed first and then materialized once, so every node of the caller
// is re-created at most once per sweep instead of once per call after it.
void inlineSweep(ir::Module& m, FuncGraph* caller, const std::vector<CNode*>& calls,
                 std::size_t maxNodes, FreeVariableOwners& owners) {
    // Bucket the caller's other nodes by the call they follow (0: before the first call).
    std::vector<std::vector<CNode*>> between(calls.size() + 1);
    {
        std::vector<CNode*> body = byId(caller->topoOrder());
        std::size_t k = 0;
        for (CNode* n : body) {
            while (k < calls.size() && calls[k]->id() < n->id()) {
                ++k;
            }
            if (k < calls.size() && calls[k] == n) {
                continue;
            }
            between[k].push_back(n);
        }
    }
    std::vector<bool> impure(calls.size());
    std::size_t firstImpure = calls.size();
    for (std::size_t j = 0; j < calls.size(); ++j) {
        impure[j] = hasImpureNode(calls[j]->calledGraph());
        if (impure[j] && firstImpure == calls.size()) {
            firstImpure = j;
        }
    }
    // The order, as pieces: a call's copy (+j+1) or the nodes after call j (-(j+1)).
    std::deque<std::ptrdiff_t> order;
    for (std::size_t j = calls.size(); j-- > 0;) {
        const auto call = static_cast<std::ptrdiff_t>(j) + 1;
        order.push_front(-call);
        if (impure[j]) {
            order.push_front(call);
        } else {
            order.push_back(call);
        }
    }
    for (std::ptrdiff_t piece : order) {
        const auto j = static_cast<std::size_t>(piece > 0 ? piece : -piece) - 1;
        if (piece < 0) {
            // Nodes before every call with side effects keep their ids.
            if (j >= firstImpure) {
                for (CNode* n : between[j + 1]) {
                    opt::recreate(m, caller, n);
                }
            }
            continue;
        }
        CNode* call = calls[j];
        if (m.liveNodeCount() > maxNodes) {
            throw CompileError("RuntimeError",
                               "inline: the graph grows beyond " + std::to_string(maxNodes) +
                                   " nodes while inlining '" + call->calledGraph()->name() +
                                   "'; too many nested calls to flatten.",
                               opt::locationOf(call));
        }
        inlineCallImpl(m, call, 0, false, &owners);
    }
}

}  // namespace

std::size_t inlineAll(ir::Module& m, std::size_t maxNodes) {
    std::size_t inlined = 0;
    for (;;) {
        const auto recursive = opt::recursiveGraphs(m);
        FreeVariableOwners owners = freeVariableOwners(m);
        std::size_t round = 0;
        for (FuncGraph* caller : m.reachableGraphs()) {
            std::vector<CNode*> calls;
            for (CNode* c : caller->topoOrder()) {
                if (isInlinableCall(c, recursive)) {
                    calls.push_back(c);
                }
            }
            if (calls.empty()) {
                continue;
            }
            round += calls.size();
            inlineSweep(m, caller, byId(std::move(calls)), maxNodes, owners);
        }
        if (round == 0) {
            break;
        }
        inlined += round;
    }
    opt::eraseUnreachableGraphs(m);
    return inlined;
}

std::unique_ptr<Pass> makeInlinePass() {
    return makePass(
        "inline",
        "Replaces calls of graphs by a copy of the callee's body, except graphs marked no_inline "
        "(such as lazy-inline CR_ graphs) and graphs reached through Switch.",
        [](ir::Module& m, PassContext&) {
            const std::size_t graphs = m.graphs().size();
            const bool inlined = inlineAll(m) > 0;
            return inlined || m.graphs().size() != graphs;
        });
}

}  // namespace irscope::passes
