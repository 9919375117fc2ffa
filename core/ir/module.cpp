#include "ir/module.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "ir/graph_refs.h"

namespace irscope::ir {

// --- Node -------------------------------------------------------------------------------

const DebugInfo& Node::noDebug() {
    static const DebugInfo none;
    return none;
}

DebugInfo& Node::mutableDebug() {
    // A count of one is this node alone: only the module's thread makes new sharers (clone,
    // shareDebug), so it cannot grow meanwhile; a sharer going away on another thread at
    // worst costs a copy that was not needed.
    if (!debug_) {
        debug_ = std::make_shared<DebugInfo>();
    } else if (debug_.use_count() > 1) {
        debug_ = std::make_shared<DebugInfo>(*debug_);
    } else {
        // The last other sharer may have been a copy read on the printer's thread and
        // released there: its reads happen before the writes to come (use_count() is a
        // relaxed load; the release of a shared_ptr is a release operation).
        std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *debug_;
}

// --- FuncGraph --------------------------------------------------------------------------

Node* FuncGraph::output() const {
    if (return_ == nullptr || return_->size() < 2) {
        return nullptr;
    }
    return return_->input(1);
}

bool FuncGraph::flag(std::string_view key) const {
    ValuePtr v = attrs_.get(key);
    if (!v) {
        return false;
    }
    switch (v->kind) {
        case Value::Kind::Bool:
            return v->b;
        case Value::Kind::Int:
            return v->i != 0;
        default:
            return true;
    }
}

const std::vector<CNode*>& FuncGraph::bodyLocked(std::uint64_t epoch) const {
    if (epoch != topoEpoch_) {
        topo_ = computeTopoOrder();
        topoEpoch_ = epoch;
    }
    return topo_;
}

std::vector<CNode*> FuncGraph::topoOrder() const {
    const std::uint64_t epoch = module_->structureEpoch();
    std::lock_guard lock(topoMutex_);
    return bodyLocked(epoch);
}

std::vector<FuncGraph*> FuncGraph::graphRefs() const {
    const std::uint64_t epoch = module_->structureEpoch();
    std::lock_guard lock(topoMutex_);
    if (epoch != refsEpoch_) {
        refs_.clear();
        for (const CNode* c : bodyLocked(epoch)) {
            for (const Node* in : c->inputs()) {
                if (const auto* v = nodeCast<ValueNode>(in)) {
                    collectGraphRefs(*v->value(), refs_);
                }
            }
        }
        refsEpoch_ = epoch;
    }
    return refs_;
}

std::vector<CNode*> FuncGraph::computeTopoOrder() const {
    std::vector<CNode*> order;
    if (return_ == nullptr) {
        return order;
    }
    // Iterative post-order DFS: a node is emitted after all its same-graph CNode inputs,
    // visiting inputs left to right, which is the numbering MindSpore's dumps show.
    // Visited marks indexed by the node's place in owned_: no hashing, and the cost is the
    // graph's own size.
    std::vector<char> seen(owned_.size(), 0);
    auto firstVisit = [&seen](const CNode* c) {
        char& mark = seen[c->ownedSlot_];
        const bool first = mark == 0;
        mark = 1;
        return first;
    };
    struct Frame {
        CNode* node;
        std::size_t next;
    };
    std::vector<Frame> stack;
    stack.push_back({return_, 0});
    firstVisit(return_);
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next < top.node->size()) {
            Node* in = top.node->input(top.next++);
            CNode* c = nodeCast<CNode>(in);
            if (c != nullptr && c->graph() == this && firstVisit(c)) {
                stack.push_back({c, 0});
            }
            continue;
        }
        order.push_back(top.node);
        stack.pop_back();
    }
    return order;
}

// --- Module: graphs -----------------------------------------------------------------------

Module::~Module() {
    // Nodes refer to each other by raw pointer; destroy them before graphs.
    nodes_.clear();
    graphs_.clear();
}

FuncGraph* Module::addGraph(std::string name) {
    auto g = std::unique_ptr<FuncGraph>(new FuncGraph(this, std::move(name)));
    g->slot_ = graphs_.size();
    graphs_.push_back(std::move(g));
    return graphs_.back().get();
}

std::vector<FuncGraph*> Module::graphs() const {
    std::vector<FuncGraph*> out;
    out.reserve(graphs_.size());
    for (const auto& g : graphs_) {
        out.push_back(g.get());
    }
    return out;
}

FuncGraph* Module::findGraph(std::string_view name) const {
    for (const auto& g : graphs_) {
        if (g->name() == name) {
            return g.get();
        }
    }
    return nullptr;
}

namespace {

// Only these kinds can be or hold a graph: the rest (numbers, strings, tensors, types,
// monads...) are skipped without a call, which matters on every input of every CNode.
bool mayHoldGraph(const Value& v) {
    switch (v.kind) {
        case Value::Kind::Graph:
        case Value::Kind::Tuple:
        case Value::Kind::List:
        case Value::Kind::Primitive:
            return true;
        default:
            return !v.elements.empty();
    }
}

}  // namespace

void collectGraphRefs(const Value& v, std::vector<FuncGraph*>& out) {
    if (v.kind == Value::Kind::Graph && v.graph != nullptr) {
        out.push_back(v.graph);
    }
    for (const auto& e : v.elements) {  // tuples, lists, and whatever else holds values
        if (e && mayHoldGraph(*e)) {
            collectGraphRefs(*e, out);
        }
    }
    if (v.kind == Value::Kind::Primitive && v.prim) {
        // A MultitypeFuncGraph primitive holds its registered graphs in its attributes.
        for (const auto& [k, a] : v.prim->attrs) {
            if (a && mayHoldGraph(*a)) {
                collectGraphRefs(*a, out);
            }
        }
    }
}

std::vector<FuncGraph*> Module::reachableGraphs() const {
    std::vector<FuncGraph*> out;
    if (entry_ == nullptr) {
        return out;
    }
    auto refsOf = [](const FuncGraph* g) { return g->graphRefs(); };
    // Depth-first pre-order: a graph, then each graph it refers to, in order of reference.
    struct Frame {
        std::vector<FuncGraph*> refs;
        std::size_t next = 0;
    };
    std::unordered_set<const FuncGraph*> seen{entry_};
    out.push_back(entry_);
    std::vector<Frame> stack;
    stack.push_back({refsOf(entry_)});
    while (!stack.empty()) {
        Frame& top = stack.back();
        if (top.next == top.refs.size()) {
            stack.pop_back();
            continue;
        }
        FuncGraph* g = top.refs[top.next++];
        if (seen.insert(g).second) {
            out.push_back(g);
            stack.push_back({refsOf(g)});  // invalidates `top`
        }
    }
    return out;
}

void Module::eraseGraph(FuncGraph* g) {
    // Check first, mutate after: a refused erase leaves the module untouched. Both checks
    // cost g's own size: its owned nodes, and the reference count kept by own()/disown().
    std::size_t selfRefs = 0;
    for (const Node* n : g->owned_) {
        if (const auto* v = nodeCast<ValueNode>(n)) {
            std::vector<FuncGraph*> refs;
            collectGraphRefs(*v->value(), refs);
            selfRefs += static_cast<std::size_t>(std::count(refs.begin(), refs.end(), g));
        }
    }
    if (g->valueRefs_ != selfRefs) {
        throw std::logic_error("eraseGraph: @" + g->name() + " is still referenced");
    }
    for (const Node* n : g->owned_) {
        for (const Use& u : n->users_) {
            if (u.user->graph() != g) {
                throw std::logic_error("eraseGraph: a node of @" + g->name() +
                                       " is used by another graph");
            }
        }
    }
    // Nodes of other graphs lose every use by g's nodes: one pass over each one's users (a
    // weight many graphs read would be searched once per use otherwise).
    std::vector<Node*> outside;
    std::unordered_set<const Node*> seenOutside;
    std::size_t crossUses = 0;
    for (Node* n : g->owned_) {
        if (auto* c = nodeCast<CNode>(n)) {
            for (Node* in : c->inputs_) {
                if (in->graph() != g) {
                    ++crossUses;
                    if (seenOutside.insert(in).second) {
                        outside.push_back(in);
                    }
                }
            }
        }
    }
    std::size_t removed = 0;
    for (Node* in : outside) {
        removed += std::erase_if(in->users_, [g](const Use& u) { return u.user->graph() == g; });
    }
    ++structureEpoch_;
    if (removed != crossUses) {
        throw std::logic_error("use-def index out of sync");  // as removeUse finds it
    }
    const std::vector<Node*> doomed = std::move(g->owned_);
    g->owned_.clear();
    for (Node* n : doomed) {
        if (const auto* v = nodeCast<ValueNode>(n)) {
            std::vector<FuncGraph*> refs;
            collectGraphRefs(*v->value(), refs);
            for (FuncGraph* r : refs) {
                --r->valueRefs_;
            }
        }
        nodes_[n->slot_].reset();
        --liveNodes_;
    }
    if (entry_ == g) {
        entry_ = nullptr;
    }
    const std::size_t slot = g->slot_;
    graphs_.erase(graphs_.begin() + static_cast<std::ptrdiff_t>(slot));
    for (std::size_t i = slot; i < graphs_.size(); ++i) {
        graphs_[i]->slot_ = i;
    }
}

// --- Module: nodes ------------------------------------------------------------------------

void Module::NodeDelete::operator()(Node* n) const noexcept {
    if (n->pooled_) {
        n->~Node();  // the pool's memory goes with the module
    } else {
        delete n;
    }
}

template <typename T>
T* Module::adopt(std::unique_ptr<T> n) {
    T* raw = n.get();
    raw->slot_ = nodes_.size();
    nodes_.push_back(NodeOwner(n.release()));
    ++liveNodes_;
    own(raw);
    return raw;
}

void Module::enterInGraph(Node* n) {
    if (FuncGraph* g = n->graph_) {
        n->ownedSlot_ = g->owned_.size();
        g->owned_.push_back(n);
    }
}

void Module::own(Node* n) {
    enterInGraph(n);
    if (const auto* v = nodeCast<ValueNode>(n)) {
        std::vector<FuncGraph*> refs;
        collectGraphRefs(*v->value(), refs);
        for (FuncGraph* r : refs) {
            ++r->valueRefs_;
        }
    }
}

void Module::disown(Node* n) {
    if (FuncGraph* g = n->graph_) {
        Node* last = g->owned_.back();
        g->owned_[n->ownedSlot_] = last;
        last->ownedSlot_ = n->ownedSlot_;
        g->owned_.pop_back();
    }
    if (const auto* v = nodeCast<ValueNode>(n)) {
        std::vector<FuncGraph*> refs;
        collectGraphRefs(*v->value(), refs);
        for (FuncGraph* r : refs) {
            --r->valueRefs_;
        }
    }
}

Parameter* Module::addParameter(FuncGraph* g, std::string name) {
    auto* p = adopt(std::unique_ptr<Parameter>(new Parameter(nextId_++, g, std::move(name))));
    if (g != nullptr) {
        g->params_.push_back(p);
    }
    return p;
}

Parameter* Module::addParameterLike(FuncGraph* g, const Parameter& like) {
    Parameter* p = addParameter(g, like.name());
    if (like.hasDefault()) {
        p->setDefault(like.defaultValue());
    }
    p->setAbstract(like.abstract());
    p->shareDebug(like);
    return p;
}

ValueNode* Module::addValue(FuncGraph* g, ValuePtr v) {
    if (!v) {
        throw std::logic_error("addValue: null value");
    }
    return adopt(std::unique_ptr<ValueNode>(new ValueNode(nextId_++, g, std::move(v))));
}

CNode* Module::addCNode(FuncGraph* g, const std::vector<Node*>& inputs) {
    auto* c = adopt(std::unique_ptr<CNode>(new CNode(nextId_++, g)));
    c->inputs_.reserve(inputs.size());
    for (Node* in : inputs) {
        appendInput(c, in);
    }
    return c;
}

CNode* Module::setOutput(FuncGraph* g, Node* out) {
    CNode* ret = addCNode(g, {addValue(g, Value::primitive("Return")), out});
    setReturnNode(g, ret);
    return ret;
}

void Module::setReturnNode(FuncGraph* g, CNode* ret) {
    if (ret != nullptr && ret->graph() != g) {
        throw std::logic_error("setReturnNode: the Return node belongs to another graph");
    }
    g->return_ = ret;
    ++structureEpoch_;
}

void Module::addUse(Node* input, CNode* user, std::size_t index) {
    ++structureEpoch_;  // every change of an input adds or removes a use
    input->users_.push_back(Use{user, index});
}

void Module::removeUse(Node* input, CNode* user, std::size_t index) {
    ++structureEpoch_;
    auto& us = input->users_;
    auto it = std::find(us.begin(), us.end(), Use{user, index});
    if (it == us.end()) {
        throw std::logic_error("use-def index out of sync");
    }
    us.erase(it);
}

void Module::setInput(CNode* n, std::size_t index, Node* input) {
    if (input == nullptr) {
        throw std::logic_error("setInput: null input");
    }
    if (index >= n->inputs_.size()) {
        throw std::out_of_range("setInput: input index out of range");
    }
    removeUse(n->inputs_[index], n, index);
    n->inputs_[index] = input;
    addUse(input, n, index);
}

void Module::appendInput(CNode* n, Node* input) {
    if (input == nullptr) {
        throw std::logic_error("appendInput: null input");
    }
    n->inputs_.push_back(input);
    addUse(input, n, n->inputs_.size() - 1);
}

void Module::removeInput(CNode* n, std::size_t index) {
    if (index >= n->inputs_.size()) {
        throw std::out_of_range("removeInput: input index out of range");
    }
    for (std::size_t i = index; i < n->inputs_.size(); ++i) {
        removeUse(n->inputs_[i], n, i);
    }
    n->inputs_.erase(n->inputs_.begin() + static_cast<std::ptrdiff_t>(index));
    for (std::size_t i = index; i < n->inputs_.size(); ++i) {
        addUse(n->inputs_[i], n, i);
    }
}

void Module::renumber(const std::vector<CNode*>& nodes) {
    for (CNode* c : nodes) {
        if (c == nullptr || c->slot_ >= nodes_.size() || nodes_[c->slot_].get() != c) {
            throw std::logic_error("renumber: a node that is not in the module");
        }
        c->id_ = nextId_++;
    }
    ++structureEpoch_;  // whatever is kept per state sees a new one
}

void Module::replaceAllUses(Node* from, Node* to) {
    if (from == to) {
        return;
    }
    // Every use moves as a whole: O(uses), where setInput per use would search and shift
    // from's users list each time.
    ++structureEpoch_;
    std::vector<Use> uses = std::move(from->users_);
    from->users_.clear();
    to->users_.reserve(to->users_.size() + uses.size());
    for (const Use& u : uses) {
        u.user->inputs_[u.index] = to;
        to->users_.push_back(u);
    }
}

void Module::erase(Node* n) {
    if (!n->users_.empty()) {
        throw std::logic_error("erase: node still has users");
    }
    if (auto* c = nodeCast<CNode>(n)) {
        if (c->graph() != nullptr && c->graph()->return_ == c) {
            throw std::logic_error("erase: node is its graph's Return");
        }
        for (std::size_t i = 0; i < c->inputs_.size(); ++i) {
            removeUse(c->inputs_[i], c, i);
        }
        c->inputs_.clear();
    }
    if (auto* p = nodeCast<Parameter>(n); p != nullptr && p->graph() != nullptr) {
        auto& ps = p->graph()->params_;
        ps.erase(std::remove(ps.begin(), ps.end(), p), ps.end());
    }
    disown(n);
    nodes_[n->slot_].reset();
    --liveNodes_;
}

void Module::eraseParameter(Parameter* p) {
    erase(p);
}

std::size_t Module::liveNodeCount() const {
    return liveNodes_;
}

NodeCounts Module::counts() const {
    // Constants are printed inline at every use, so they are counted once per use: the
    // counts then depend only on what the .ir text shows, not on whether a pass shared one
    // ValueNode between several users (and a printed module re-read counts the same).
    NodeCounts c;
    std::unordered_set<const Node*> nodes;
    std::size_t valueUses = 0;
    for (FuncGraph* g : reachableGraphs()) {
        ++c.graphs;
        for (Parameter* p : g->parameters()) {
            nodes.insert(p);
        }
        for (CNode* n : g->topoOrder()) {
            ++c.cnodes;
            nodes.insert(n);
            for (Node* in : n->inputs()) {
                if (in->isValue()) {
                    ++valueUses;
                } else {
                    nodes.insert(in);
                }
            }
        }
    }
    c.nodes = nodes.size() + valueUses;
    return c;
}

// --- clone and verify -----------------------------------------------------------------------

ValuePtr remapGraphRefs(const ValuePtr& v, const std::unordered_map<const FuncGraph*, FuncGraph*>& gm) {
    if (v->kind == Value::Kind::Graph) {
        auto it = gm.find(v->graph);
        return Value::graphRef(it == gm.end() ? v->graph : it->second);
    }
    if (v->kind == Value::Kind::Tuple || v->kind == Value::Kind::List) {
        std::vector<ValuePtr> elems;
        elems.reserve(v->elements.size());
        bool changed = false;
        for (const auto& e : v->elements) {
            elems.push_back(remapGraphRefs(e, gm));
            changed = changed || elems.back() != e;
        }
        if (!changed) {
            return v;
        }
        return v->kind == Value::Kind::Tuple ? Value::tuple(std::move(elems))
                                             : Value::list(std::move(elems));
    }
    if (v->kind == Value::Kind::Primitive && v->prim && !v->prim->attrs.empty()) {
        // Copied only when an attribute names a graph (a MultitypeFuncGraph's): most
        // primitives are shared as they are.
        std::optional<ir::PrimitiveData> p;
        for (const auto& [k, a] : v->prim->attrs) {
            ValuePtr r = remapGraphRefs(a, gm);
            if (r != a) {
                if (!p) {
                    p = *v->prim;
                }
                p->attrs.set(k, r);
            }
        }
        return p ? Value::primitive(std::move(*p)) : v;
    }
    return v;
}

std::unique_ptr<Module> Module::clone() const {
    return copy(true);
}

std::unique_ptr<const Module> Module::printCopy() const {
    return copy(false);
}

std::unique_ptr<Module> Module::copy(bool withUsers) const {
    auto m = std::make_unique<Module>();
    std::unordered_map<const FuncGraph*, FuncGraph*> gm;
    for (const auto& g : graphs_) {
        FuncGraph* ng = m->addGraph(g->name_);
        ng->debug_ = g->debug_;
        ng->owned_.reserve(g->owned_.size());
        gm[g.get()] = ng;
    }
    auto mapGraph = [&](FuncGraph* g) { return g == nullptr ? nullptr : gm.at(g); };
    for (const auto& g : graphs_) {
        FuncGraph* ng = gm.at(g.get());
        for (const auto& [k, v] : g->attrs_) {
            ng->attrs_.set(k, remapGraphRefs(v, gm));
        }
    }
    for (const auto& [k, v] : attrs_) {
        m->attrs_.set(k, remapGraphRefs(v, gm));
    }
    m->preamble_ = preamble_;
    m->trailer_ = trailer_;

    // Copies by arena slot (slots are kept): no hashing of the nodes.
    auto nm = [this, &m](const Node* n) {
        if (n->slot_ >= nodes_.size() || nodes_[n->slot_].get() != n) {
            throw std::logic_error("clone: a node refers to a node outside the module");
        }
        return m->nodes_[n->slot_].get();
    };
    // Every node of the copy in one block: a place per live node, by kind.
    constexpr std::size_t kAlign = alignof(std::max_align_t);
    const auto placeFor = [](Node::Kind k) {
        const std::size_t size = k == Node::Kind::CNode       ? sizeof(CNode)
                                 : k == Node::Kind::Value     ? sizeof(ValueNode)
                                                              : sizeof(Parameter);
        return (size + kAlign - 1) / kAlign * kAlign;
    };
    static_assert(alignof(CNode) <= kAlign && alignof(ValueNode) <= kAlign &&
                  alignof(Parameter) <= kAlign);
    std::size_t poolBytes = 0;
    for (const auto& n : nodes_) {
        if (n) {
            poolBytes += placeFor(n->kind());
        }
    }
    m->pool_ = std::make_unique_for_overwrite<std::byte[]>(std::max<std::size_t>(poolBytes, 1));
    std::byte* at = m->pool_.get();
    m->nodes_.reserve(nodes_.size());
    for (const auto& n : nodes_) {
        if (!n) {
            m->nodes_.emplace_back();  // keep slots aligned, so ids map 1:1 and cheaply
            continue;
        }
        Node* copy = nullptr;
        switch (n->kind()) {
            case Node::Kind::Parameter: {
                const auto* p = static_cast<const Parameter*>(n.get());
                copy = new (at) Parameter(p->id(), mapGraph(p->graph()), p->name_);
                break;
            }
            case Node::Kind::Value: {
                const auto* v = static_cast<const ValueNode*>(n.get());
                copy = new (at) ValueNode(v->id(), mapGraph(v->graph()), remapGraphRefs(v->value_, gm));
                break;
            }
            case Node::Kind::CNode:
                copy = new (at) CNode(n->id(), mapGraph(n->graph()));
                break;
        }
        copy->pooled_ = true;
        // Owned (and destroyed on a throw) as soon as it is made; nodes_ has its room.
        m->nodes_.push_back(NodeOwner(copy));
        at += placeFor(n->kind());
        if (const auto* p = nodeCast<Parameter>(n.get())) {
            auto* np = static_cast<Parameter*>(copy);
            np->hasDefault_ = p->hasDefault_;
            np->default_ = p->default_ ? remapGraphRefs(p->default_, gm) : nullptr;
        } else if (const auto* c = nodeCast<CNode>(n.get())) {
            auto* nc = static_cast<CNode*>(copy);
            if (!c->attrs_.empty()) {
                nc->attrs_ = c->attrs_;
            }
            if (!c->primalAttrs_.empty()) {
                nc->primalAttrs_ = c->primalAttrs_;
            }
        }
        copy->abstract_ = n->abstract_;
        copy->debug_ = n->debug_;
        copy->slot_ = n->slot_;
        ++m->liveNodes_;
        // The copy's graphs are named by exactly the constants that name the originals:
        // their counts are copied below instead of walking every constant.
        m->enterInGraph(copy);
    }
    for (const auto& g : graphs_) {
        gm.at(g.get())->valueRefs_ = g->valueRefs_;
    }
    // Inputs and users in the same order as the original, so iteration is identical.
    for (const auto& n : nodes_) {
        if (!n) {
            continue;
        }
        Node* nn = nm(n.get());
        if (const auto* c = nodeCast<CNode>(n.get())) {
            auto* nc = static_cast<CNode*>(nn);
            nc->inputs_.reserve(c->inputs_.size());
            for (Node* in : c->inputs_) {
                nc->inputs_.push_back(nm(in));
            }
        }
        if (withUsers) {
            nn->users_.reserve(n->users_.size());
            for (const Use& u : n->users_) {
                nn->users_.push_back(Use{static_cast<CNode*>(nm(u.user)), u.index});
            }
        }
    }
    for (const auto& g : graphs_) {
        FuncGraph* ng = gm.at(g.get());
        for (Parameter* p : g->params_) {
            ng->params_.push_back(static_cast<Parameter*>(nm(p)));
        }
        ng->return_ = g->return_ ? static_cast<CNode*>(nm(g->return_)) : nullptr;
    }
    m->entry_ = mapGraph(entry_);
    m->nextId_ = nextId_;
    return m;
}

std::string Module::verify() const {
    std::unordered_set<const FuncGraph*> graphs;
    for (const auto& g : graphs_) {
        graphs.insert(g.get());
    }
    // The live nodes, sorted by address: membership without dereferencing a pointer that
    // may dangle, and without a hash node per element (this runs on 100k-node modules).
    std::vector<const Node*> live;
    live.reserve(liveNodes_);
    for (const auto& n : nodes_) {
        if (n) {
            live.push_back(n.get());
        }
    }
    if (live.size() != liveNodes_) {
        return "live node count is out of sync";
    }
    std::sort(live.begin(), live.end(), std::less<>());  // std::less: a total order
    const auto isLive = [&live](const Node* n) {
        return n != nullptr && std::binary_search(live.begin(), live.end(), n, std::less<>());
    };
    const auto who = [](const Node* n) { return "node " + std::to_string(n->id()); };
    std::size_t inputEdges = 0;
    std::size_t useEdges = 0;
    std::vector<Use> uses;
    for (const auto& n : nodes_) {
        if (!n) {
            continue;
        }
        if (n->graph() != nullptr && !graphs.count(n->graph())) {
            return who(n.get()) + " belongs to a graph that is not in the module";
        }
        if (const auto* c = nodeCast<CNode>(n.get())) {
            for (std::size_t i = 0; i < c->inputs_.size(); ++i) {
                ++inputEdges;
                if (!isLive(c->inputs_[i])) {
                    return who(c) + " input " + std::to_string(i) + " is not a live node";
                }
            }
        }
        for (const Use& u : n->users_) {
            ++useEdges;
            if (!isLive(u.user)) {
                return who(n.get()) + " is used by a node that is not live";
            }
            if (u.index >= u.user->inputs_.size() || u.user->inputs_[u.index] != n.get()) {
                return who(n.get()) + " has a use that its user does not have";
            }
        }
        // Each use once (a sorted copy: a hub node's list is not searched once per input).
        if (n->users_.size() > 1) {
            uses.assign(n->users_.begin(), n->users_.end());
            std::sort(uses.begin(), uses.end(), [](const Use& a, const Use& b) {
                return a.user != b.user ? a.user->id() < b.user->id() : a.index < b.index;
            });
            if (std::adjacent_find(uses.begin(), uses.end()) != uses.end()) {
                return who(n.get()) + " has duplicate entries in its users list";
            }
        }
    }
    if (inputEdges != useEdges) {
        // Every use is a real input and none repeats, so some input is missing from its
        // users: name it (this search only runs on a broken module).
        for (const auto& n : nodes_) {
            const auto* c = nodeCast<CNode>(n.get());
            for (std::size_t i = 0; c != nullptr && i < c->inputs_.size(); ++i) {
                const auto& us = c->inputs_[i]->users_;
                if (std::find(us.begin(), us.end(), Use{const_cast<CNode*>(c), i}) == us.end()) {
                    return "node " + std::to_string(c->id()) + " input " + std::to_string(i) +
                           " is missing from its users";
                }
            }
        }
        return "the use-def index is out of sync";
    }
    for (const auto& g : graphs_) {
        for (const Parameter* p : g->params_) {
            if (!isLive(p) || p->graph() != g.get()) {
                return "graph @" + g->name() + " lists a parameter it does not own";
            }
        }
        if (g->return_ != nullptr && (!isLive(g->return_) || g->return_->graph() != g.get())) {
            return "graph @" + g->name() + " has a Return node it does not own";
        }
    }
    if (entry_ != nullptr && !graphs.count(entry_)) {
        return "entry graph is not in the module";
    }
    // The per-graph owned lists and graph-reference counts.
    std::unordered_map<const FuncGraph*, std::size_t> owned;
    std::unordered_map<const FuncGraph*, std::size_t> refCounts;
    std::vector<FuncGraph*> refs;
    for (const auto& n : nodes_) {
        if (!n) {
            continue;
        }
        if (const FuncGraph* g = n->graph()) {
            ++owned[g];
            if (n->ownedSlot_ >= g->owned_.size() || g->owned_[n->ownedSlot_] != n.get()) {
                return "node " + std::to_string(n->id()) + " is missing from its graph's nodes";
            }
        }
        if (const auto* v = nodeCast<ValueNode>(n.get())) {
            refs.clear();
            collectGraphRefs(*v->value(), refs);
            for (const FuncGraph* r : refs) {
                ++refCounts[r];
            }
        }
    }
    for (const auto& g : graphs_) {
        if (g->owned_.size() != owned[g.get()]) {
            return "graph @" + g->name() + " lists nodes it does not own";
        }
        if (g->valueRefs_ != refCounts[g.get()]) {
            return "graph @" + g->name() + " has a stale reference count";
        }
    }
    return {};
}

}  // namespace irscope::ir
