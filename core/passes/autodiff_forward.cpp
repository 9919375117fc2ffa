// meta_fg_expand, step 1: the forward computation copied into the caller (autodiff_impl.h).
#include <algorithm>
#include <optional>
#include <queue>

#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/autodiff_impl.h"

namespace irscope::passes::autodiff {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

namespace {

// `n` through TupleGetItem(MakeTuple(...), k) (nested): the element it takes, or `n`.
const ir::Node* elementOfTuples(const ir::Node* n) {
    const auto* get = ir::nodeCast<ir::CNode>(n);
    if (get == nullptr || !get->isPrimitive(ir::prim::kTupleGetItem) || get->size() != 3) {
        return n;
    }
    const auto* tuple = ir::nodeCast<ir::CNode>(elementOfTuples(get->input(1)));
    const auto* index = ir::nodeCast<ir::ValueNode>(get->input(2));
    if (tuple == nullptr || !tuple->isPrimitive(ir::prim::kMakeTuple) || index == nullptr ||
        index->value()->kind != ir::Value::Kind::Int || index->value()->i < 0 ||
        static_cast<std::size_t>(index->value()->i) + 1 >= tuple->size()) {
        return n;
    }
    return elementOfTuples(tuple->input(static_cast<std::size_t>(index->value()->i) + 1));
}

std::string lineOf(const Node* n) {
    const auto& t = n->debug().trace;
    return t.empty() || t.back().line == 0 ? std::string("?") : std::to_string(t.back().line);
}

// g's body in a topological order that follows node ids among the nodes that are ready
// (ids follow the source order), so the reverse sweep meets statements last-written first
// and accumulates contributions in MindSpore's order.
std::vector<CNode*> sourceOrder(const FuncGraph* g) {
    const std::vector<CNode*> body = g->topoOrder();
    std::unordered_map<const CNode*, std::size_t> pending;
    std::unordered_map<const CNode*, std::vector<CNode*>> users;
    for (CNode* c : body) {
        pending[c] = 0;
    }
    for (CNode* c : body) {
        for (Node* in : c->inputs()) {
            auto* ic = ir::nodeCast<CNode>(in);
            if (ic != nullptr && pending.count(ic) != 0) {
                ++pending[c];
                users[ic].push_back(c);
            }
        }
    }
    auto later = [](const CNode* a, const CNode* b) { return a->id() > b->id(); };
    std::priority_queue<CNode*, std::vector<CNode*>, decltype(later)> ready(later);
    for (CNode* c : body) {
        if (pending[c] == 0) {
            ready.push(c);
        }
    }
    std::vector<CNode*> out;
    while (!ready.empty()) {
        CNode* c = ready.top();
        ready.pop();
        out.push_back(c);
        for (CNode* u : users[c]) {
            if (--pending[u] == 0) {
                ready.push(u);
            }
        }
    }
    return out;
}

}  // namespace

// Whether `from` reaches `to` through the graphs its nodes name (calls, Partials, Switches).
bool reachesGraph(FuncGraph* from, const FuncGraph* to) {
    std::vector<FuncGraph*> work{from};
    std::unordered_set<FuncGraph*> seen{from};
    while (!work.empty()) {
        FuncGraph* g = work.back();
        work.pop_back();
        for (const CNode* c : g->topoOrder()) {
            for (const Node* in : c->inputs()) {
                const auto* v = ir::nodeCast<ir::ValueNode>(in);
                if (v == nullptr || v->value()->kind != ir::Value::Kind::Graph) {
                    continue;
                }
                if (v->value()->graph == to) {
                    return true;
                }
                if (seen.insert(v->value()->graph).second) {
                    work.push_back(v->value()->graph);
                }
            }
        }
    }
    return false;
}

Mapped Expander::copyGraph(FuncGraph* g, const std::vector<Mapped>& args,
                           std::vector<FuncGraph*>& stack) {
    if (std::find(stack.begin(), stack.end(), g) != stack.end()) {
        throw errorAt(site_, "RuntimeError",
                      "irscope: automatic differentiation of the recursive graph '" + g->name() +
                          "' is not supported yet.");
    }
    if (g->parameters().size() != args.size()) {
        throw errorAt(site_, "TypeError",
                      "The function '" + g->name() + "' takes " +
                          std::to_string(g->parameters().size()) + " arguments but " +
                          std::to_string(args.size()) + " were given.");
    }
    stack.push_back(g);
    std::unordered_map<const Node*, Mapped> map;
    for (std::size_t i = 0; i < args.size(); ++i) {
        map[g->parameters()[i]] = args[i];
    }
    auto mapped = [&](Node* n) -> Mapped {
        if (auto it = map.find(n); it != map.end()) {
            return it->second;
        }
        if (const auto* v = ir::nodeCast<ir::ValueNode>(n)) {
            Node* k = constantIn(fwd_, v->value());
            if (v->abstract()) {
                k->setAbstract(v->abstract());
            }
            return {k, nullptr};
        }
        return {n, n};  // a free variable: a weight of the entry graph
    };
    // `@g` or `Partial(@g, bound...)`: g and its bound arguments; nullopt for any other value.
    auto knownCallee = [&](const Node* fn) -> std::optional<Callee> {
        const auto* p = ir::nodeCast<CNode>(fn);
        if (p != nullptr && (!p->isPrimitive(ir::prim::kPartial) || p->size() < 2)) {
            return std::nullopt;
        }
        const auto* v = ir::nodeCast<ir::ValueNode>(p != nullptr ? p->input(1) : fn);
        if (v == nullptr || v->value()->kind != ir::Value::Kind::Graph) {
            return std::nullopt;
        }
        Callee k;
        k.graph = v->value()->graph;
        for (std::size_t a = 2; p != nullptr && a < p->size(); ++a) {
            k.bound.push_back(mapped(p->input(a)));
        }
        return k;
    };
    for (CNode* c : sourceOrder(g)) {
        if (c == g->returnNode()) {
            break;
        }
        // A function taken out of a tuple built in this graph (a closure a called graph
        // returned with other values, once inlined): the call of the function it is.
        FuncGraph* direct = c->calledGraph();
        std::vector<Mapped> bound;
        if (direct == nullptr) {
            if (const Node* fn = elementOfTuples(c->input(0)); fn != c->input(0)) {
                if (std::optional<Callee> k = knownCallee(fn)) {
                    direct = k->graph;
                    bound = std::move(k->bound);
                }
            }
        }
        if (const auto* callee = ir::nodeCast<CNode>(c->input(0)); callee != nullptr && direct == nullptr) {
            if (!callee->isPrimitive(ir::prim::kSwitch) || callee->size() != 4) {
                // A function out of a tuple this graph builds was resolved above; a first
                // derivative that is differentiated again calls only known graphs
                // (closure-free, autodiff_impl.h).
                throw errorAt(c, "RuntimeError",
                              "irscope: automatic differentiation through a call of a function "
                              "value computed at run time (line " +
                                  lineOf(c) + ") is not supported yet.");
            }
            // if/else on a tensor: Switch(cond, Partial(@✓g, ...), Partial(@✗g, ...))(args);
            // a Cell chosen from a tuple by a tensor index (switch_layer): Switch(i == 0, @a,
            // Switch(i == 1, @b, @c))(args), a chain whose last false branch is the last cell.
            std::vector<Node*> fns;
            std::vector<Mapped> conds;
            for (const CNode* sw = callee;;) {
                conds.push_back(mapped(sw->input(1)));
                fns.push_back(sw->input(2));
                const auto* next = ir::nodeCast<CNode>(sw->input(3));
                if (next == nullptr || !next->isPrimitive(ir::prim::kSwitch) || next->size() != 4) {
                    fns.push_back(sw->input(3));
                    break;
                }
                sw = next;
            }
            std::vector<Callee> branches;
            for (const Node* fn : fns) {
                std::optional<Callee> k = knownCallee(fn);
                if (!k) {
                    throw errorAt(callee, "RuntimeError",
                                  "irscope: automatic differentiation of a Switch between values "
                                  "that are not known graphs is not supported yet.");
                }
                for (std::size_t a = 1; a < c->size(); ++a) {
                    k->bound.push_back(mapped(c->input(a)));
                }
                branches.push_back(std::move(*k));
            }
            map[c] = callThroughFprop(c, branches, conds);
            continue;
        }
        if (c->isPrimitive(ir::prim::kCustomBprop)) {
            map[c] = customBprop(c, mapped);
            continue;
        }
        std::vector<Mapped> in = std::move(bound);
        for (std::size_t i = 1; i < c->size(); ++i) {
            in.push_back(mapped(c->input(i)));
        }
        if (FuncGraph* callee = direct) {
            // A recursive graph (a while loop's header) and a no_inline graph (lazy inline's
            // CR_ graphs) stay calls, of their shared fprop graph.
            map[c] = isRecursive(callee) || callee->flag("no_inline")
                         ? callShared(c, callee, in)
                         : copyGraph(callee, in, stack);
            continue;
        }
        std::vector<Node*> nodes{mapped(c->input(0)).node};
        for (const Mapped& x : in) {
            nodes.push_back(x.node);
        }
        CNode* copy = m_.addCNode(fwd_, nodes);
        copy->setAbstract(c->abstract());
        copy->shareDebug(*c);
        copy->attrs() = c->attrs();
        copy->primalAttrs() = c->primalAttrs();
        if (const ir::PrimitiveData* p = c->primitive()) {
            const ops::OpDef* op = ops::OpRegistry::instance().find(p->name);
            sideEffects_ =
                sideEffects_ || (op != nullptr && (op->sideEffectMem || op->sideEffectIo));
        }
        copies_.push_back(copy);
        created_.push_back(copy);
        copyInputs_[copy] = std::move(in);
        map[c] = {copy, copy};
    }
    const Mapped out = mapped(g->output());
    stack.pop_back();
    return out;
}

void Expander::markActive(const GradLayout& layout) {
    for (std::size_t i : layout.inputs) {
        if (i < targetParams_.size() && targetParams_[i].key != nullptr) {
            active_.insert(targetParams_[i].key);
        }
    }
    for (Node* w : weights_) {
        active_.insert(w);
    }
    for (const CNode* c : copies_) {
        if (c->isPrimitive(ir::prim::kStopGradient)) {
            continue;
        }
        const auto& in = copyInputs_.at(c);
        if (std::any_of(in.begin(), in.end(), [&](const Mapped& x) { return active(x.key); })) {
            active_.insert(c);
        }
    }
}

}  // namespace irscope::passes::autodiff
