#include "passes/opt_util.h"
#include "ir/graph_refs.h"
#include "ir/monad.h"
#include "ir/prim_names.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <unordered_set>

namespace irscope::passes::opt {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;
using ir::ValuePtr;

ir::SourceLocation locationOf(const Node* n) {
    if (n != nullptr && !n->debug().trace.empty()) {
        return n->debug().trace.back();
    }
    if (n != nullptr && n->graph() != nullptr && !n->graph()->debug().trace.empty()) {
        return n->graph()->debug().trace.back();
    }
    return {};
}

const ops::OpDef* opDefOf(const CNode* c) {
    const ir::PrimitiveData* p = c->primitive();
    return p == nullptr ? nullptr : ops::OpRegistry::instance().find(p->name);
}

bool sameState(const Node* a, const Node* b) {
    if (a == b) {
        return true;
    }
    const auto* va = ir::nodeCast<ValueNode>(a);
    const auto* vb = ir::nodeCast<ValueNode>(b);
    return va != nullptr && vb != nullptr && va->value()->kind == Value::Kind::Monad &&
           vb->value()->kind == Value::Kind::Monad && va->value()->monad == vb->value()->monad;
}

bool stateFollows(const Node* later, const Node* earlier) {
    const Node* cur = later;
    while (!sameState(cur, earlier)) {
        const auto* c = ir::nodeCast<CNode>(cur);
        if (c == nullptr || !c->isPrimitive(ir::prim::kUpdateState) || c->size() < 2) {
            return false;
        }
        cur = c->input(1);
    }
    return true;
}

bool mayHaveSideEffect(const CNode* c) {
    if (c->primitive() == nullptr) {
        return true;
    }
    const ops::OpDef* def = opDefOf(c);
    return def == nullptr || def->sideEffectMem || def->sideEffectIo;
}

bool isImpure(const CNode* c) {
    if (mayHaveSideEffect(c)) {
        return true;
    }
    const ops::OpDef* def = opDefOf(c);
    // Not foldable and not handled by the executor: random ops, Load, TensorMove. The
    // structural family's kernels (StopGradient, the identity) are pure.
    return !def->foldable && !def->structural && def->family != "structural";
}

ValuePtr remapGraphRefs(const ValuePtr& v, const std::unordered_map<FuncGraph*, FuncGraph*>& gmap) {
    if (!v || gmap.empty()) {
        return v;
    }
    switch (v->kind) {
        case Value::Kind::Graph: {
            auto it = gmap.find(v->graph);
            return it == gmap.end() ? v : Value::graphRef(it->second);
        }
        case Value::Kind::Tuple:
        case Value::Kind::List:
        case Value::Kind::Slice: {
            std::vector<ValuePtr> elems;
            bool changed = false;
            for (const auto& e : v->elements) {
                elems.push_back(remapGraphRefs(e, gmap));
                changed = changed || elems.back() != e;
            }
            if (!changed) {
                return v;
            }
            auto copy = std::make_shared<Value>(*v);
            copy->elements = std::move(elems);
            return copy;
        }
        case Value::Kind::Primitive: {
            ir::PrimitiveData p = *v->prim;
            bool changed = false;
            for (const auto& [k, a] : v->prim->attrs) {
                ValuePtr b = remapGraphRefs(a, gmap);
                if (b != a) {
                    p.attrs.set(k, b);
                    changed = true;
                }
            }
            return changed ? Value::primitive(std::move(p)) : v;
        }
        default:
            return v;
    }
}

namespace {

bool refersTo(const Value& v, const std::unordered_set<const FuncGraph*>& gs) {
    std::vector<FuncGraph*> refs;
    ir::collectGraphRefs(v, refs);
    return std::any_of(refs.begin(), refs.end(), [&](FuncGraph* g) { return gs.count(g) > 0; });
}

}  // namespace

std::vector<FuncGraph*> referencedGraphs(const FuncGraph* g) {
    std::vector<FuncGraph*> refs = g->graphRefs();
    // Each graph once, in order of first reference.
    std::unordered_set<const FuncGraph*> seen;
    std::erase_if(refs, [&](const FuncGraph* r) { return !seen.insert(r).second; });
    return refs;
}

std::unordered_set<const FuncGraph*> recursiveGraphs(const ir::Module& m) {
    // Tarjan's strongly connected components, iteratively; a component with more than one
    // graph, or a graph referring to itself, is recursive.
    const std::vector<FuncGraph*> graphs = m.reachableGraphs();
    std::unordered_map<const FuncGraph*, std::vector<FuncGraph*>> edges;
    for (FuncGraph* g : graphs) {
        edges[g] = referencedGraphs(g);
    }
    std::unordered_map<const FuncGraph*, int> index;
    std::unordered_map<const FuncGraph*, int> low;
    std::unordered_set<const FuncGraph*> onStack;
    std::vector<const FuncGraph*> stack;
    std::unordered_set<const FuncGraph*> result;
    int counter = 0;
    struct Frame {
        const FuncGraph* g;
        std::size_t next;
    };
    for (FuncGraph* root : graphs) {
        if (index.count(root)) {
            continue;
        }
        std::vector<Frame> work{{root, 0}};
        index[root] = low[root] = counter++;
        stack.push_back(root);
        onStack.insert(root);
        while (!work.empty()) {
            Frame& f = work.back();
            const auto& out = edges[f.g];
            if (f.next < out.size()) {
                const FuncGraph* w = out[f.next++];
                if (w == f.g) {
                    result.insert(w);
                } else if (!index.count(w)) {
                    index[w] = low[w] = counter++;
                    stack.push_back(w);
                    onStack.insert(w);
                    work.push_back({w, 0});
                } else if (onStack.count(w)) {
                    low[f.g] = std::min(low[f.g], index[w]);
                }
                continue;
            }
            const FuncGraph* g = f.g;
            work.pop_back();
            if (!work.empty()) {
                low[work.back().g] = std::min(low[work.back().g], low[g]);
            }
            if (low[g] == index[g]) {
                std::vector<const FuncGraph*> comp;
                const FuncGraph* w = nullptr;
                do {
                    w = stack.back();
                    stack.pop_back();
                    onStack.erase(w);
                    comp.push_back(w);
                } while (w != g);
                if (comp.size() > 1) {
                    result.insert(comp.begin(), comp.end());
                }
            }
        }
    }
    return result;
}

std::size_t eraseIfDead(ir::Module& m, Node* n) {
    std::size_t erased = 0;
    std::vector<Node*> work{n};
    // What is on `work` now: a node is never there twice (its first visit may erase it),
    // but may come back once popped (when its last user goes later).
    std::unordered_set<const Node*> queued{n};
    while (!work.empty()) {
        Node* x = work.back();
        work.pop_back();
        queued.erase(x);
        if (!x->users().empty() || x->isParameter()) {
            continue;
        }
        auto* c = ir::nodeCast<CNode>(x);
        if (c != nullptr && c->graph() != nullptr && c->graph()->returnNode() == c) {
            continue;
        }
        std::vector<Node*> inputs;
        if (c != nullptr) {
            inputs = c->inputs();
        }
        m.erase(x);
        ++erased;
        for (Node* in : inputs) {
            if (queued.insert(in).second) {
                work.push_back(in);
            }
        }
    }
    return erased;
}

bool usedOutside(const FuncGraph* g) {
    for (const Node* n : g->ownedNodes()) {
        for (const ir::Use& u : n->users()) {
            if (u.user->graph() != g) {
                return true;
            }
        }
    }
    return false;
}

std::size_t eraseUnreachableGraphs(ir::Module& m,
                                   const std::unordered_set<const FuncGraph*>* among) {
    if (m.entry() == nullptr) {
        return 0;
    }
    const std::vector<FuncGraph*> live = m.reachableGraphs();
    const std::unordered_set<const FuncGraph*> liveSet(live.begin(), live.end());
    std::unordered_set<const FuncGraph*> dead;
    for (FuncGraph* g : m.graphs()) {
        if (!liveSet.count(g) && (among == nullptr || among->count(g))) {
            dead.insert(g);
        }
    }
    if (dead.empty()) {
        return 0;
    }
    // Constants referring to a dead graph that nothing uses (left by passes that erased
    // their user) would block eraseGraph; so would a dead graph's nodes used by another dead
    // graph. Dismantle the dead graphs' bodies first, users before inputs.
    for (FuncGraph* g : m.graphs()) {
        if (dead.count(g)) {
            m.setReturnNode(g, nullptr);  // its Return becomes an unused node like any other
        }
    }
    std::vector<Node*> garbage;
    m.forEachNode([&](Node* n) {
        if (n->users().empty() && !n->isParameter()) {
            const auto* v = ir::nodeCast<ValueNode>(n);
            if (dead.count(n->graph()) || (v != nullptr && refersTo(*v->value(), dead))) {
                garbage.push_back(n);
            }
        }
    });
    for (Node* n : garbage) {
        // Roots have no users, so no other root's erasure reaches (and frees) them.
        eraseIfDead(m, n);
    }
    std::size_t erased = 0;
    for (FuncGraph* g : m.graphs()) {
        if (!dead.count(g)) {
            continue;
        }
        if (usedOutside(g)) {
            continue;
        }
        try {
            m.eraseGraph(g);  // checks first: a refused erase leaves the module untouched
            ++erased;
        } catch (const std::logic_error&) {
            // Still named by a constant of dead code in a live graph; dce erases that code
            // and the graph with it.
        }
    }
    return erased;
}

std::string uniqueGraphName(const ir::Module& m, const std::string& base) {
    if (m.findGraph(base) == nullptr) {
        return base;
    }
    for (int i = 1;; ++i) {
        std::string name = base + "_" + std::to_string(i);
        if (m.findGraph(name) == nullptr) {
            return name;
        }
    }
}

CNode* addCNodeLike(ir::Module& m, FuncGraph* g, const std::vector<Node*>& inputs,
                    const Node* like) {
    CNode* c = m.addCNode(g, inputs);
    c->setAbstract(like->abstract());
    c->shareDebug(*like);
    return c;
}

void renumberAfter(ir::Module& m, FuncGraph* g, std::uint64_t after, std::uint64_t upTo,
                   Node** track) {
    std::vector<CNode*> later;
    for (CNode* c : g->topoOrder()) {
        if (c->id() > after && c->id() <= upTo) {
            later.push_back(c);
        }
    }
    std::sort(later.begin(), later.end(),
              [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
    for (CNode* old : later) {
        recreate(m, g, old, track);
    }
}

CNode* recreate(ir::Module& m, FuncGraph* g, CNode* old, Node** track) {
    CNode* c = addCNodeLike(m, g, old->inputs(), old);
    c->attrs() = old->attrs();
    c->primalAttrs() = old->primalAttrs();
    m.replaceAllUses(old, c);
    if (g->returnNode() == old) {
        m.setReturnNode(g, c);
    }
    if (track != nullptr && *track == old) {
        *track = c;
    }
    m.erase(old);
    return c;
}

std::uint64_t maxNodeId(const ir::Module& m) {
    std::uint64_t id = 0;
    m.forEachNode([&](const Node* n) { id = std::max(id, n->id()); });
    return id;
}

}  // namespace irscope::passes::opt
