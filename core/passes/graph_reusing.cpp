// graph_reusing (lazy inline), passes/README.md: with MS_DEV_CELL_REUSE 1 or 2, the
// construct graphs symbol_resolve marked with `cell_init_args` are grouped by that
// attribute; structurally equal ones become one graph `CR_<first>` (no_inline, cell_reuse)
// that takes the weights the instances read as free variables as trailing parameters, and
// every call site passes its own instance's weights. The other instances' graphs go away,
// so type_inference, auto_monad and opt_a see (and count) one copy instead of N.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/graph_refs.h"
#include "passes/opt_util.h"
#include "passes/pipeline.h"

namespace irscope::passes {

namespace {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Parameter;
using ir::ValueNode;

// One marked construct graph with the graphs it owns (its branches and closures: reached
// from it, not from the entry around it) and the entry weights it reads.
struct Instance {
    FuncGraph* g = nullptr;
    std::string args;  // cell_init_args
    std::unordered_set<const FuncGraph*> owned;
    std::vector<CNode*> calls;      // call sites: `call @g(...)`
    std::vector<Parameter*> slots;  // weights, in the representative's slot order
};

std::vector<FuncGraph*> graphRefs(const ir::Value& v) {
    std::vector<FuncGraph*> out;
    ir::collectGraphRefs(v, out);
    return out;
}

// Graphs referenced by value nodes owned by each graph.
std::unordered_map<const FuncGraph*, std::vector<FuncGraph*>> referenceMap(const ir::Module& m) {
    std::unordered_map<const FuncGraph*, std::vector<FuncGraph*>> refs;
    m.forEachNode([&](Node* n) {
        if (const auto* v = ir::nodeCast<ValueNode>(n)) {
            for (FuncGraph* g : graphRefs(*v->value())) {
                refs[n->graph()].push_back(g);
            }
        }
    });
    return refs;
}

// Graphs reached from `from` without entering any graph of `stop`.
std::unordered_set<const FuncGraph*> reach(
    FuncGraph* from, const std::unordered_set<const FuncGraph*>& stop,
    const std::unordered_map<const FuncGraph*, std::vector<FuncGraph*>>& refs) {
    std::unordered_set<const FuncGraph*> seen{from};
    std::vector<const FuncGraph*> todo{from};
    while (!todo.empty()) {
        const FuncGraph* g = todo.back();
        todo.pop_back();
        auto it = refs.find(g);
        if (it == refs.end()) {
            continue;
        }
        for (FuncGraph* r : it->second) {
            if (!stop.count(r) && seen.insert(r).second) {
                todo.push_back(r);
            }
        }
    }
    return seen;
}

bool isWeight(const Node* n, const ir::Module& m) {
    const auto* p = ir::nodeCast<Parameter>(n);
    return p != nullptr && p->hasDefault() && p->graph() == m.entry();
}

// Structural equality of two instances, weights matched by position of first use. On
// success `b.slots` lists b's weights in the order of `a.slots` (which it fills when
// `a.slots` is still empty, i.e. when a is compared first).
class Matcher {
public:
    Matcher(const ir::Module& m, Instance& a, Instance& b) : m_(m), a_(a), b_(b) {}

    bool run() {
        std::vector<Parameter*> slotsA;
        std::vector<Parameter*> slotsB;
        if (!graphs(a_.g, b_.g)) {
            return false;
        }
        while (!todo_.empty()) {
            auto [x, y] = todo_.back();
            todo_.pop_back();
            if (!nodes(x, y, slotsA, slotsB)) {
                return false;
            }
        }
        if (a_.slots.empty()) {
            a_.slots = slotsA;
            const auto& entryParams = m_.entry()->parameters();
            auto pos = [&](const Parameter* p) {
                return std::find(entryParams.begin(), entryParams.end(), p);
            };
            std::sort(a_.slots.begin(), a_.slots.end(),
                      [&](const Parameter* p, const Parameter* q) { return pos(p) < pos(q); });
        } else if (a_.slots.size() != slotsA.size()) {
            return false;
        }
        if (&a_ == &b_) {
            return true;  // a group of one: only a's slots were wanted
        }
        // b's weights in the order of a's slots.
        b_.slots.assign(a_.slots.size(), nullptr);
        for (std::size_t k = 0; k < a_.slots.size(); ++k) {
            auto it = std::find(slotsA.begin(), slotsA.end(), a_.slots[k]);
            if (it == slotsA.end()) {
                return false;
            }
            b_.slots[k] = slotsB[static_cast<std::size_t>(it - slotsA.begin())];
        }
        return true;
    }

private:
    bool graphs(FuncGraph* x, FuncGraph* y) {
        if (x == y && !a_.owned.count(x)) {
            return true;  // a graph both instances share
        }
        if (!a_.owned.count(x) || !b_.owned.count(y)) {
            return false;
        }
        auto [it, fresh] = graphMap_.try_emplace(x, y);
        if (!fresh) {
            return it->second == y;
        }
        if (x->parameters().size() != y->parameters().size() || !(x->attrs() == y->attrs()) ||
            x->returnNode() == nullptr || y->returnNode() == nullptr) {
            return false;
        }
        for (std::size_t i = 0; i < x->parameters().size(); ++i) {
            if (!bind(x->parameters()[i], y->parameters()[i])) {
                return false;
            }
        }
        todo_.emplace_back(x->returnNode(), y->returnNode());
        return true;
    }

    bool bind(Node* x, Node* y) {
        auto [it, fresh] = nodeMap_.try_emplace(x, y);
        if (!fresh) {
            return it->second == y;
        }
        return reverse_.try_emplace(y, x).second;
    }

    bool values(const ir::Value& x, const ir::Value& y) {
        if (x.kind == ir::Value::Kind::Graph && y.kind == ir::Value::Kind::Graph) {
            return graphs(x.graph, y.graph);
        }
        return x.equals(y);
    }

    bool nodes(Node* x, Node* y, std::vector<Parameter*>& slotsA, std::vector<Parameter*>& slotsB) {
        if (auto it = nodeMap_.find(x); it != nodeMap_.end()) {
            return it->second == y;
        }
        if (x->kind() != y->kind()) {
            return false;
        }
        if (isWeight(x, m_) && isWeight(y, m_)) {
            slotsA.push_back(static_cast<Parameter*>(x));
            slotsB.push_back(static_cast<Parameter*>(y));
            return bind(x, y);
        }
        const bool ownX = a_.owned.count(x->graph()) != 0;
        const bool ownY = b_.owned.count(y->graph()) != 0;
        if (!ownX || !ownY) {
            // A node of a shared graph (a free variable from outside both instances).
            return !ownX && !ownY && x == y;
        }
        if (auto it = graphMap_.find(x->graph());
            it == graphMap_.end() || it->second != y->graph()) {
            return false;
        }
        if (x->isParameter()) {
            return false;  // parameters are bound with their graph
        }
        if (x->isValue()) {
            return values(*static_cast<ValueNode*>(x)->value(),
                          *static_cast<ValueNode*>(y)->value()) &&
                   bind(x, y);
        }
        auto* cx = static_cast<CNode*>(x);
        auto* cy = static_cast<CNode*>(y);
        if (cx->size() != cy->size() || !(cx->attrs() == cy->attrs()) ||
            !(cx->primalAttrs() == cy->primalAttrs()) || !bind(x, y)) {
            return false;
        }
        for (std::size_t i = cx->size(); i-- > 0;) {
            todo_.emplace_back(cx->input(i), cy->input(i));
        }
        return true;
    }

    const ir::Module& m_;
    Instance& a_;
    Instance& b_;
    std::unordered_map<const FuncGraph*, FuncGraph*> graphMap_;
    std::unordered_map<const Node*, Node*> nodeMap_;
    std::unordered_map<const Node*, Node*> reverse_;
    std::vector<std::pair<Node*, Node*>> todo_;
};

// How each graph is used: its direct calls with one argument per parameter, and whether it
// is also used another way (as a value, or called with another arity). One walk of the
// module answers for every graph (asking per graph walked the module once per graph).
struct Uses {
    std::vector<CNode*> calls;
    bool other = false;
};
using UseIndex = std::unordered_map<const FuncGraph*, Uses>;

UseIndex graphUses(const ir::Module& m) {
    UseIndex index;
    m.forEachNode([&](Node* n) {
        const auto* v = ir::nodeCast<ValueNode>(n);
        if (v == nullptr) {
            return;
        }
        std::vector<FuncGraph*> refs = graphRefs(*v->value());
        std::sort(refs.begin(), refs.end());
        refs.erase(std::unique(refs.begin(), refs.end()), refs.end());
        for (FuncGraph* g : refs) {
            Uses& u = index[g];
            if (v->value()->kind != ir::Value::Kind::Graph) {
                u.other = true;
                continue;
            }
            for (const ir::Use& use : n->users()) {
                if (use.index == 0 && use.user->size() == g->parameters().size() + 1) {
                    u.calls.push_back(use.user);
                } else {
                    u.other = true;
                }
            }
        }
    });
    for (auto& [g, u] : index) {
        std::sort(u.calls.begin(), u.calls.end(),
                  [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
    }
    return index;
}

// Direct calls of `g` with one argument per parameter, or nullopt when g is also used
// another way.
std::optional<std::vector<CNode*>> callSites(const UseIndex& index, const FuncGraph* g) {
    auto it = index.find(g);
    if (it == index.end()) {
        return std::vector<CNode*>{};
    }
    if (it->second.other) {
        return std::nullopt;
    }
    return it->second.calls;
}

// Which entry weights (slot indices of `slots`) each graph owned by `inst` reads, directly
// or through direct calls of other owned graphs: those graphs take them as parameters
// too, since type_inference only lets a graph read the entry's weights as free variables.
std::unordered_map<const FuncGraph*, std::set<std::size_t>> weightNeeds(
    const Instance& inst, const std::vector<Parameter*>& slots) {
    std::unordered_map<const FuncGraph*, std::set<std::size_t>> need;
    for (std::size_t k = 0; k < slots.size(); ++k) {
        for (const ir::Use& u : slots[k]->users()) {
            if (inst.owned.count(u.user->graph())) {
                need[u.user->graph()].insert(k);
            }
        }
    }
    std::vector<std::pair<const FuncGraph*, const FuncGraph*>> calls;  // caller, callee
    for (const FuncGraph* g : inst.owned) {
        for (const CNode* c : g->topoOrder()) {
            if (const FuncGraph* callee = c->calledGraph(); callee && inst.owned.count(callee)) {
                calls.emplace_back(g, callee);
            }
        }
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (auto [caller, callee] : calls) {
            auto it = need.find(callee);
            if (it == need.end()) {
                continue;
            }
            const std::set<std::size_t> add = it->second;  // need[] may rehash below
            std::set<std::size_t>& mine = need[caller];
            const std::size_t before = mine.size();
            mine.insert(add.begin(), add.end());
            grew = grew || mine.size() != before;
        }
    }
    return need;
}

// Whether the weights `inst` reads can be threaded through parameters: every owned graph
// other than the instance's own that needs one is only ever called directly.
bool threadable(const ir::Module& m, const UseIndex& uses, const Instance& inst) {
    // Only the weights the instance's own nodes read can give its graphs a need: found from
    // those nodes, not by walking every weight's users once per instance (quadratic).
    std::vector<Parameter*> weights;
    std::unordered_set<const Parameter*> seen;
    for (const FuncGraph* g : inst.owned) {
        for (const Node* n : g->ownedNodes()) {
            const auto* c = ir::nodeCast<CNode>(n);
            if (c == nullptr) {
                continue;
            }
            for (Node* in : c->inputs()) {
                if (isWeight(in, m) && seen.insert(static_cast<Parameter*>(in)).second) {
                    weights.push_back(static_cast<Parameter*>(in));
                }
            }
        }
    }
    for (const auto& [g, ks] : weightNeeds(inst, weights)) {
        if (g != inst.g && !callSites(uses, g)) {
            return false;
        }
    }
    return true;
}

// Makes `rep` the reused graph of `members` (rep included).
void reuse(ir::Module& m, const Instance& rep, const std::vector<Instance*>& members) {
    FuncGraph* cr = rep.g;
    std::unordered_map<const FuncGraph*, std::set<std::size_t>> need = weightNeeds(rep, rep.slots);
    need[cr].clear();
    for (std::size_t k = 0; k < rep.slots.size(); ++k) {
        need[cr].insert(k);
    }
    // One parameter per weight a graph needs, in slot order; the graph reads it instead.
    // Graphs in creation order, so node ids do not depend on hashing.
    std::map<std::pair<const FuncGraph*, std::size_t>, Parameter*> param;
    for (FuncGraph* g : m.graphs()) {
        auto it = need.find(g);
        if (it == need.end()) {
            continue;
        }
        for (std::size_t k : it->second) {
            Parameter* w = rep.slots[k];
            Parameter* p = m.addParameter(g, w->name());
            p->setAbstract(w->abstract());
            p->shareDebug(*w);
            param[{g, k}] = p;
        }
    }
    for (std::size_t k = 0; k < rep.slots.size(); ++k) {
        const std::vector<ir::Use> uses = rep.slots[k]->users();
        for (const ir::Use& u : uses) {
            if (rep.owned.count(u.user->graph())) {
                m.setInput(u.user, u.index, param.at({u.user->graph(), k}));
            }
        }
    }
    // Calls between owned graphs pass the caller's parameters on.
    for (const FuncGraph* g : rep.owned) {
        for (CNode* c : g->topoOrder()) {
            const FuncGraph* callee = c->calledGraph();
            if (callee == nullptr || callee == cr || !rep.owned.count(callee) ||
                !need.count(callee)) {
                continue;
            }
            for (std::size_t k : need.at(callee)) {
                m.appendInput(c, param.at({g, k}));
            }
        }
    }
    for (Instance* inst : members) {
        for (CNode* call : inst->calls) {
            if (inst->g != cr) {
                ValueNode* old = static_cast<ValueNode*>(call->input(0));
                ValueNode* callee = m.addValue(call->graph(), ir::Value::graphRef(cr));
                callee->setAbstract(old->abstract());
                callee->shareDebug(*old);
                m.setInput(call, 0, callee);
                if (old->users().empty()) {
                    m.erase(old);
                }
            }
            for (Parameter* w : inst->slots) {
                m.appendInput(call, w);
            }
            call->graph()->attrs().set("lazy_inline", ir::Value::boolean(true));
        }
    }
    cr->setName("CR_" + cr->name());
    cr->attrs().set("no_inline", ir::Value::boolean(true));
    cr->attrs().set("cell_reuse", ir::Value::boolean(true));
}

bool runGraphReusing(ir::Module& m, PassContext& ctx) {
    const std::int64_t level = ctx.settings().getInt(kCellReuse, 0);
    if (level != 1 && level != 2) {
        return false;
    }
    if (m.entry() == nullptr) {
        return false;
    }
    std::vector<Instance> instances;
    std::unordered_set<const FuncGraph*> marked;
    const UseIndex uses = graphUses(m);
    for (FuncGraph* g : m.reachableGraphs()) {
        const ir::ValuePtr args = g->attrs().get("cell_init_args");
        // A String, or the Opaque text a dump read back keeps.
        const bool text = args && (args->kind == ir::Value::Kind::String ||
                                   args->kind == ir::Value::Kind::Opaque);
        if (g == m.entry() || !text || g->flag("cell_reuse")) {
            continue;
        }
        std::optional<std::vector<CNode*>> calls = callSites(uses, g);
        if (!calls || calls->empty()) {
            continue;  // used as a value (a Partial, a grad target): stays as it is
        }
        instances.push_back({g, args->text, {}, std::move(*calls), {}});
        marked.insert(g);
    }
    if (instances.empty()) {
        return false;
    }
    const auto refs = referenceMap(m);
    const std::unordered_set<const FuncGraph*> outside = reach(m.entry(), marked, refs);
    for (Instance& inst : instances) {
        for (const FuncGraph* g : reach(inst.g, marked, refs)) {
            if (g == inst.g || !outside.count(g)) {
                inst.owned.insert(g);
            }
        }
    }
    std::erase_if(instances, [&](const Instance& inst) { return !threadable(m, uses, inst); });
    // Group by cell_init_args in dump order; within a group, by structural equality with
    // the group's first unassigned instance.
    std::vector<bool> done(instances.size(), false);
    std::unordered_set<const FuncGraph*> replaced;  // the graphs of the instances folded in
    for (std::size_t i = 0; i < instances.size(); ++i) {
        if (done[i]) {
            continue;
        }
        Instance& rep = instances[i];
        done[i] = true;
        std::vector<Instance*> members{&rep};
        for (std::size_t j = i + 1; j < instances.size(); ++j) {
            if (!done[j] && instances[j].args == rep.args && Matcher(m, rep, instances[j]).run()) {
                done[j] = true;
                members.push_back(&instances[j]);
            }
        }
        if (members.size() == 1 && !Matcher(m, rep, rep).run()) {  // fills rep.slots
            continue;  // a graph without a Return: nothing to reuse
        }
        reuse(m, rep, members);
        for (std::size_t k = 1; k < members.size(); ++k) {
            replaced.insert(members[k]->owned.begin(), members[k]->owned.end());
        }
    }
    opt::eraseUnreachableGraphs(m, &replaced);
    return true;
}

}  // namespace

std::unique_ptr<Pass> makeGraphReusingPass() {
    return makePass("graph_reusing",
                    "Lazy inline: instances of a @lazy_inline cell with equal cell_init_args "
                    "share one reusable CR_ graph that takes their weights as parameters, so it "
                    "is analysed and optimized once.",
                    runGraphReusing);
}

}  // namespace irscope::passes
