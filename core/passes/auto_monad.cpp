// auto_monad: MindSpore's side-effect pass. Every graph's statements are threaded, in node-id
// (source) order, on a U chain (memory: Assign & co., Loads of Parameters, calls of graphs
// that have those) and an IO chain (Print); graphs with effects take the states as trailing
// parameters and return `Depend(out, last state)`. The IR it leaves is the contract in
// passes/README.md ("auto_monad").
#include "passes/auto_monad.h"

#include <algorithm>
#include <utility>

#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"

namespace irscope::passes {

namespace {

using ir::Abstract;
using ir::AbstractPtr;
using ir::CNode;
using ir::FuncGraph;
using ir::MonadKind;
using ir::Node;
using monad::EffectMap;
using monad::Effects;

ir::SourceLocation locationOf(const Node& n) {
    return n.debug().trace.empty() ? ir::SourceLocation{} : n.debug().trace.back();
}

// The monad parameters added to each graph with effects (the entry starts from constants).
struct MonadParams {
    ir::Parameter* u = nullptr;
    ir::Parameter* io = nullptr;
};

// Threads one graph's statements on its chains.
class Threader {
public:
    Threader(ir::Module& m, FuncGraph* g, const EffectMap& effects,
             const std::unordered_map<const FuncGraph*, MonadParams>& params)
        : m_(m), g_(g), effects_(effects), params_(params) {
        unknown_ = effects.at(nullptr);
        const Effects mine = effects.at(g);
        if (g == m.entry()) {
            u_ = mine.u ? constant(MonadKind::U) : nullptr;
            io_ = mine.io ? constant(MonadKind::IO) : nullptr;
        } else {
            const MonadParams& p = params.at(g);
            u_ = p.u;
            io_ = p.io;
        }
        startU_ = u_;
        startIo_ = io_;
    }

    void run(const std::vector<CNode*>& order) {
        for (CNode* c : order) {
            if (c == g_->returnNode()) {
                loadInputs(*c);
                finish(*c);
                break;
            }
            statement(*c);
        }
        for (Node* start : {startU_, startIo_}) {
            if (start != nullptr && start->isValue() && start->users().empty()) {
                m_.erase(start);  // the entry's state constant nothing used
            }
        }
    }

private:
    Node* constant(MonadKind k) {
        ir::ValueNode* v = m_.addValue(g_, ir::Value::monadValue(k));
        v->setAbstract(Abstract::monadAbs(k));
        return v;
    }

    Node* primValue(const char* name) {
        ir::ValueNode* v = m_.addValue(g_, ir::Value::primitive(name));
        v->setAbstract(Abstract::func());
        return v;
    }

    // A new CNode standing for `origin` in the source: its location and scope.
    CNode* make(std::vector<Node*> inputs, AbstractPtr abs, const Node& origin) {
        CNode* c = m_.addCNode(g_, inputs);
        c->setAbstract(std::move(abs));
        c->copyLocation(origin);
        return c;
    }

    Node* monadFor(Node*& state, Node* start, MonadKind k) {
        // The entry's constant is created per use, as constants are.
        if (state == start && start != nullptr && start->isValue() && !start->users().empty()) {
            return constant(k);
        }
        return state;
    }

    CNode* update(Node*& state, Node* start, MonadKind k, CNode& attached) {
        Node* in = monadFor(state, start, k);
        CNode* us =
            make({primValue("UpdateState"), in, &attached}, Abstract::monadAbs(k), attached);
        state = us;
        return us;
    }

    void loadInputs(CNode& c) {
        for (std::size_t i = 1; i < c.size(); ++i) {
            if (monad::needsTupleLoad(c, i)) {
                m_.setInput(&c, i, loadedTuple(c.input(i), c));
                continue;
            }
            if (!monad::needsLoad(c, i)) {
                continue;
            }
            m_.setInput(&c, i, loadOf(c.input(i), c));
        }
    }

    // The Load of `ref` valid at the current memory state (one per state).
    CNode* loadOf(Node* ref, const CNode& user) {
        if (u_ == nullptr) {
            throw CompileError(
                "RuntimeError",
                "auto_monad: graph @" + g_->name() + " reads a Parameter but has no memory state.",
                locationOf(user));
        }
        auto it = loads_.find(ref);
        CNode* load = it == loads_.end() ? nullptr : it->second;
        if (load == nullptr) {
            load = makeLoad(ref, user);
            loads_[ref] = load;
            lastU_ = {load, update(u_, startU_, MonadKind::U, *load)};
        }
        return load;
    }

    // A tuple of Parameter references read by `user`: the same tuple with every reference
    // loaded at this point (MakeTuple(Load(p1), x, Load(p2))).
    Node* loadedTuple(Node* tuple, const CNode& user) {
        const AbstractPtr& a = tuple->abstract();
        auto* mk = ir::nodeCast<CNode>(tuple);
        const bool direct = mk != nullptr && mk->isPrimitive(ir::prim::kMakeTuple) &&
                            mk->size() == a->elements.size() + 1;
        std::vector<Node*> items{primValue("MakeTuple")};
        std::vector<AbstractPtr> abs;
        for (std::size_t k = 0; k < a->elements.size(); ++k) {
            Node* item = nullptr;
            if (direct) {
                item = mk->input(k + 1);
            } else {
                ir::ValueNode* idx =
                    m_.addValue(g_, ir::Value::integer(static_cast<std::int64_t>(k)));
                idx->setAbstract(
                    Abstract::withValue(Abstract::scalar(ir::DType::Int64),
                                        ir::Value::integer(static_cast<std::int64_t>(k))));
                item = make({primValue("TupleGetItem"), tuple, idx}, a->elements[k], user);
            }
            if (a->elements[k] && a->elements[k]->kind == Abstract::Kind::Ref) {
                item = loadOf(item, user);
            }
            items.push_back(item);
            abs.push_back(item->abstract());
        }
        return make(std::move(items), Abstract::tuple(std::move(abs)), user);
    }

    CNode* makeLoad(Node* ref, const CNode& user) {
        const ops::InferArg args[] = {ops::InferArg::of(ref->abstract()),
                                      ops::InferArg::of(Abstract::monadAbs(MonadKind::U))};
        AbstractPtr abs;
        try {
            abs = ops::OpRegistry::instance().infer("Load", args).abs;
        } catch (const ops::OpError& e) {
            throw CompileError(std::string(ops::errorKindName(e.kind())), e.what(),
                               locationOf(user));
        }
        Node* u = monadFor(u_, startU_, MonadKind::U);
        return make({primValue("Load"), ref, u}, std::move(abs), user);
    }

    static bool hasMonadInput(const CNode& c) {
        const Node* last = c.size() > 1 ? c.inputs().back() : nullptr;
        if (last == nullptr) {
            return false;
        }
        const auto* v = ir::nodeCast<ir::ValueNode>(last);
        return (v != nullptr && v->value()->kind == ir::Value::Kind::Monad) ||
               (last->abstract() && last->abstract()->kind == Abstract::Kind::Monad);
    }

    // The state as the trailing input of a side effect; a monad written in a dump
    // (`Assign(%p, %v, U)` without its chain) is replaced rather than doubled.
    void giveState(CNode& c, Node* state) {
        if (hasMonadInput(c)) {
            Node* old = c.inputs().back();
            m_.setInput(&c, c.size() - 1, state);
            if (old->isValue() && old->users().empty()) {
                m_.erase(old);
            }
        } else {
            m_.appendInput(&c, state);
        }
    }

    void statement(CNode& c) {
        if (c.isPrimitive(ir::prim::kUpdateState) || c.isPrimitive(ir::prim::kLoad)) {
            throw CompileError(
                "RuntimeError",
                "auto_monad: graph @" + g_->name() + " already carries monads (UpdateState/Load).",
                locationOf(c));
        }
        loadInputs(c);
        if (monad::isMemWrite(c)) {
            if (u_ == nullptr) {
                throw CompileError("RuntimeError",
                                   "auto_monad: graph @" + g_->name() +
                                       " writes a Parameter but has no memory state.",
                                   locationOf(c));
            }
            giveState(c, monadFor(u_, startU_, MonadKind::U));
            event(c, true, false);
            return;
        }
        if (monad::isIo(c)) {
            giveState(c, monadFor(io_, startIo_, MonadKind::IO));
            event(c, false, true);
            return;
        }
        if (monad::isCall(c)) {
            const Effects e = monad::callEffects(c, effects_, unknown_);
            if (e.any()) {
                passStates(c, e);
                event(c, e.u, e.io);
            }
        }
    }

    // The states before `c` go to the callee: as trailing arguments of the call, or bound
    // by the branch Partials when the call passes nothing (`Switch(c, Partial(@✓g, %x, %u),
    // ...)()`, as the branch graphs are written).
    void passStates(CNode& call, const Effects& e) {
        std::vector<Node*> states;
        auto add = [&](bool want, Node*& state, Node* start, MonadKind k) {
            if (want && state != nullptr) {
                states.push_back(monadFor(state, start, k));
            }
        };
        if (call.size() == 1 && bindToBranches(call)) {
            return;
        }
        add(e.u, u_, startU_, MonadKind::U);
        add(e.io, io_, startIo_, MonadKind::IO);
        for (Node* s : states) {
            m_.appendInput(&call, s);
        }
    }

    // Monads a graph takes, in parameter order.
    std::vector<Node*> statesFor(const FuncGraph* target) {
        std::vector<Node*> out;
        const auto it = params_.find(target);
        if (it == params_.end()) {
            return out;
        }
        if (it->second.u != nullptr && u_ != nullptr) {
            out.push_back(monadFor(u_, startU_, MonadKind::U));
        }
        if (it->second.io != nullptr && io_ != nullptr) {
            out.push_back(monadFor(io_, startIo_, MonadKind::IO));
        }
        return out;
    }

    // Binds the states into the Partial (or Switch of Partials) the call invokes, when they
    // belong to this graph and serve only this call. False leaves the call to take them.
    bool bindToBranches(CNode& call) {
        auto* callee = ir::nodeCast<CNode>(call.input(0));
        if (callee == nullptr || callee->graph() != g_ || callee->users().size() != 1) {
            return false;
        }
        std::vector<std::size_t> slots;  // inputs of `holder` that are branch functions
        CNode* holder = nullptr;
        if (callee->isPrimitive(ir::prim::kSwitch) && callee->size() == 4) {
            holder = callee;
            slots = {2, 3};
        } else if (callee->isPrimitive(ir::prim::kPartial)) {
            return bindPartial(*callee);
        } else {
            return false;
        }
        for (std::size_t s : slots) {
            Node* b = holder->input(s);
            auto* p = ir::nodeCast<CNode>(b);
            if (p != nullptr) {
                if (!p->isPrimitive(ir::prim::kPartial) || p->graph() != g_ ||
                    p->users().size() != 1 || p->size() < 2 || !isGraphValue(p->input(1))) {
                    return false;
                }
            } else if (!isGraphValue(b)) {
                return false;
            }
        }
        for (std::size_t s : slots) {
            Node* b = holder->input(s);
            if (auto* p = ir::nodeCast<CNode>(b)) {
                bindPartial(*p);
                continue;
            }
            FuncGraph* target = static_cast<ir::ValueNode*>(b)->value()->graph;
            std::vector<Node*> states = statesFor(target);
            if (states.empty()) {
                continue;
            }
            std::vector<Node*> in{primValue("Partial"), b};
            in.insert(in.end(), states.begin(), states.end());
            m_.setInput(holder, s, make(std::move(in), Abstract::func(), *holder));
        }
        return true;
    }

    static bool isGraphValue(const Node* n) {
        const auto* v = ir::nodeCast<ir::ValueNode>(n);
        return v != nullptr && v->value()->kind == ir::Value::Kind::Graph;
    }

    bool bindPartial(CNode& p) {
        if (p.size() < 2 || !isGraphValue(p.input(1))) {
            return false;
        }
        const FuncGraph* target = static_cast<ir::ValueNode*>(p.input(1))->value()->graph;
        for (Node* s : statesFor(target)) {
            m_.appendInput(&p, s);
        }
        return true;
    }

    void event(CNode& c, bool u, bool io) {
        if (u && u_ != nullptr) {
            lastU_ = {&c, update(u_, startU_, MonadKind::U, c)};
            loads_.clear();  // later reads see the write
        }
        if (io && io_ != nullptr) {
            lastIo_ = {&c, update(io_, startIo_, MonadKind::IO, c)};
        }
    }

    // A chain the output must carry: one that moved, or a monad parameter (the caller's
    // state flows out of the graph even when nothing here used it, so inlining the graph
    // keeps the caller's chain whole).
    static bool carried(const Node* state, const Node* start) {
        return state != nullptr && (state != start || start->isParameter());
    }

    // The output is a call that took every chain the output would carry, as its last effect.
    bool isTailEffect(const Node* out) const {
        const bool uDone = !carried(u_, startU_) || lastU_.first == out;
        const bool ioDone = !carried(io_, startIo_) || lastIo_.first == out;
        return out->isCNode() && monad::isCall(*static_cast<const CNode*>(out)) && uDone && ioDone;
    }

    // The output waits for the last states: `Depend(out, %u_last)`, then the IO state. A
    // tail call that was the graph's last effect is returned as it is (its own effects are
    // done when it returns, and its callee carries the states on), so a while loop's header
    // and body still call each other in tail position.
    void finish(CNode& ret) {
        Node* out = ret.input(1);
        if (isTailEffect(out)) {
            for (CNode* us : {lastU_.second, lastIo_.second}) {
                if (us != nullptr && us->users().empty()) {
                    monad::eraseDead(m_, us);
                }
            }
            return;
        }
        const AbstractPtr abs = out->abstract();
        if (carried(u_, startU_)) {
            out = make({primValue("Depend"), out, u_}, abs, ret);
        }
        if (carried(io_, startIo_)) {
            out = make({primValue("Depend"), out, io_}, abs, ret);
        }
        if (out != ret.input(1)) {
            m_.setInput(&ret, 1, out);
        }
    }

    ir::Module& m_;
    FuncGraph* g_;
    const EffectMap& effects_;
    const std::unordered_map<const FuncGraph*, MonadParams>& params_;
    Effects unknown_;
    Node* u_ = nullptr;
    Node* io_ = nullptr;
    Node* startU_ = nullptr;
    Node* startIo_ = nullptr;
    std::unordered_map<Node*, CNode*> loads_;  // Loads valid at the current U state
    // The node each chain last attached, and the UpdateState that attached it.
    std::pair<const CNode*, CNode*> lastU_{nullptr, nullptr};
    std::pair<const CNode*, CNode*> lastIo_{nullptr, nullptr};
};

bool alreadyThreaded(const std::vector<FuncGraph*>& graphs) {
    for (const FuncGraph* g : graphs) {
        for (const CNode* c : g->topoOrder()) {
            if (c->isPrimitive(ir::prim::kUpdateState)) {
                return true;
            }
        }
    }
    return false;
}

bool runAutoMonad(ir::Module& m) {
    if (m.entry() == nullptr) {
        return false;
    }
    const std::vector<FuncGraph*> graphs = m.reachableGraphs();
    if (alreadyThreaded(graphs)) {
        return false;  // a dump that already has its monads
    }
    // 1. The parser's isolated statements become roots of their graphs' statements.
    std::unordered_map<const FuncGraph*, std::vector<CNode*>> isolated;
    std::unordered_map<const FuncGraph*, std::vector<CNode*>> bodies;
    bool changed = false;
    for (FuncGraph* g : graphs) {
        isolated[g] = monad::dissolveIsolatedWrapper(m, g);
        changed = changed || !isolated[g].empty();
        bodies[g] = monad::statementOrder(g, isolated[g]);
    }
    // 2. Pure isolated statements are dropped; the effects are found without them.
    EffectMap effects = monad::analyzeEffects(graphs, bodies);
    const Effects unknown = effects.at(nullptr);
    for (FuncGraph* g : graphs) {
        std::vector<CNode*> kept;
        for (CNode* c : isolated[g]) {
            const bool effectful =
                monad::isMemWrite(*c) || monad::isIo(*c) ||
                (monad::isCall(*c) && monad::callEffects(*c, effects, unknown).any());
            if (effectful) {
                kept.push_back(c);
            } else if (c->users().empty()) {
                monad::eraseDead(m, c);
            }
        }
        isolated[g] = kept;
        bodies[g] = monad::statementOrder(g, kept);
    }
    effects = monad::analyzeEffects(graphs, bodies);
    // 3. Monad parameters, then the chains.
    std::unordered_map<const FuncGraph*, MonadParams> params;
    for (FuncGraph* g : graphs) {
        const Effects e = effects.at(g);
        MonadParams& p = params[g];
        if (g == m.entry() || !e.any()) {
            continue;
        }
        if (e.u) {
            p.u = m.addParameter(g, "u");
            p.u->setAbstract(Abstract::monadAbs(MonadKind::U));
        }
        if (e.io) {
            p.io = m.addParameter(g, "io");
            p.io->setAbstract(Abstract::monadAbs(MonadKind::IO));
        }
        changed = true;
    }
    for (FuncGraph* g : graphs) {
        if (!effects.at(g).any()) {
            continue;
        }
        Threader(m, g, effects, params).run(bodies[g]);
        changed = true;
    }
    return changed;
}

}  // namespace

std::unique_ptr<Pass> makeAutoMonadPass() {
    return makePass("auto_monad",
                    "Makes side effects explicit: Assign and Print take a U or IO monad, "
                    "UpdateState chains order them as written, and every read of a Parameter "
                    "becomes a Load at the current state.",
                    [](ir::Module& m, PassContext&) { return runAutoMonad(m); });
}

}  // namespace irscope::passes
