// auto_monad_reorder: MindSpore's load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM). A Load
// aliases its Parameter's storage, so a user that runs after a later Assign of the same
// Parameter would read the new value; a `TensorMove` after the Load copies the value at the
// Load's state. The level decides which Loads get one (passes/README.md):
//   0  every Load;
//   1  (default) Loads of a Parameter loaded more than once in the graph, plus the
//      conservative cases (a Load handed to a call or Partial, a Load of a call's result,
//      a Load the graph returns);
//   2  Loads whose user also consumes a value of the same Parameter loaded at another
//      state, plus the conservative cases;
//   3  none.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "ir/module.h"
#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/compile_error.h"
#include "passes/load_elim.h"
#include "passes/pipeline.h"

namespace irscope::passes {

namespace {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

bool isLoad(const Node* n) {
    const auto* c = ir::nodeCast<CNode>(n);
    return c != nullptr && c->isPrimitive(ir::prim::kLoad) && c->size() >= 3;
}

bool isCall(const Node* n) {
    const auto* c = ir::nodeCast<CNode>(n);
    return c != nullptr && c->size() > 0 && c->primitive() == nullptr;
}

// A node that passes its input's value on without reading it: the value stays an alias.
bool forwards(const CNode& user, std::size_t index) {
    return user.isPrimitive(ir::prim::kMakeTuple) ||
           (user.isPrimitive(ir::prim::kDepend) && index == 1) ||
           user.isPrimitive(ir::prim::kTupleGetItem);
}

// Everything that consumes the Load's value: its users (the state chain excluded), and the
// users of the tuples and Depends that carry it on, with the input index each uses it at.
std::vector<ir::Use> consumers(const CNode& load) {
    std::vector<ir::Use> out;
    std::vector<const Node*> work{&load};
    std::unordered_set<const Node*> seen{&load};
    while (!work.empty()) {
        const Node* n = work.back();
        work.pop_back();
        for (const ir::Use& u : n->users()) {
            if (u.user->isPrimitive(ir::prim::kUpdateState)) {
                continue;
            }
            out.push_back(u);
            if (forwards(*u.user, u.index) && seen.insert(u.user).second) {
                work.push_back(u.user);
            }
        }
    }
    return out;
}

// The cases every level below 3 copies: the value leaves the graph's control, so the
// graph cannot tell when it is read.
bool conservative(const CNode& load) {
    if (isCall(load.input(1))) {
        return true;  // a Load of a call's result
    }
    for (const ir::Use& u : consumers(load)) {
        const CNode& user = *u.user;
        if (user.isPrimitive(ir::prim::kReturn) || user.isPrimitive(ir::prim::kPartial) ||
            (isCall(&user) && u.index > 0)) {
            return true;
        }
    }
    return false;
}

// Level 2: a user of `load` that also depends on a value of the same Parameter loaded at
// another state (it runs after the write in between, so it would read the later value).
class MixedStates {
public:
    explicit MixedStates(const FuncGraph& g) {
        const std::vector<CNode*> order = g.topoOrder();
        std::unordered_map<const Node*, std::vector<const CNode*>> byParam;
        for (const CNode* c : order) {
            if (isLoad(c)) {
                byParam[c->input(1)].push_back(c);
            }
        }
        for (const auto& [param, loads] : byParam) {
            std::unordered_set<const Node*> states;
            for (const CNode* l : loads) {
                states.insert(l->input(2));
            }
            if (states.size() < 2) {
                continue;
            }
            for (const CNode* l : loads) {
                index_[l] = loads_.size();
                loads_.push_back(l);
            }
        }
        if (loads_.empty()) {
            return;
        }
        const std::size_t words = (loads_.size() + 63) / 64;
        for (const CNode* c : order) {
            std::vector<std::uint64_t>& bits = deps_[c];
            bits.assign(words, 0);
            const auto it = index_.find(c);
            if (it != index_.end()) {
                bits[it->second / 64] |= std::uint64_t{1} << (it->second % 64);
                continue;  // a Load's value does not depend on the Loads before its state
            }
            for (const Node* in : c->inputs()) {
                const auto d = deps_.find(in);
                if (d == deps_.end()) {
                    continue;
                }
                for (std::size_t w = 0; w < words; ++w) {
                    bits[w] |= d->second[w];
                }
            }
        }
    }

    bool mixed(const CNode& load) const {
        if (index_.count(&load) == 0) {
            return false;
        }
        for (const ir::Use& u : consumers(load)) {
            const auto d = deps_.find(u.user);
            if (d == deps_.end()) {
                continue;
            }
            for (std::size_t i = 0; i < loads_.size(); ++i) {
                const CNode* other = loads_[i];
                if (other == &load || other->input(1) != load.input(1) ||
                    other->input(2) == load.input(2)) {
                    continue;
                }
                if ((d->second[i / 64] >> (i % 64)) & 1U) {
                    return true;
                }
            }
        }
        return false;
    }

private:
    std::vector<const CNode*> loads_;
    std::unordered_map<const CNode*, std::size_t> index_;
    std::unordered_map<const Node*, std::vector<std::uint64_t>> deps_;
};

std::vector<CNode*> loadsToCopy(const FuncGraph& g, std::int64_t level) {
    std::vector<CNode*> loads;
    std::unordered_map<const Node*, int> perParam;
    for (CNode* c : g.topoOrder()) {
        if (isLoad(c)) {
            loads.push_back(c);
            ++perParam[c->input(1)];
        }
    }
    if (level >= 3 || loads.empty()) {
        return {};
    }
    if (level <= 0) {
        return loads;
    }
    std::vector<CNode*> out;
    if (level == 1) {
        for (CNode* l : loads) {
            if (perParam[l->input(1)] > 1 || conservative(*l)) {
                out.push_back(l);
            }
        }
        return out;
    }
    const MixedStates mixed(g);
    for (CNode* l : loads) {
        if (mixed.mixed(*l) || conservative(*l)) {
            out.push_back(l);
        }
    }
    return out;
}

bool alreadyCopied(const CNode& load) {
    for (const ir::Use& u : load.users()) {
        if (u.user->isPrimitive(ir::prim::kTensorMove)) {
            return true;
        }
    }
    return false;
}

void insertTensorMove(ir::Module& m, CNode* load) {
    const std::vector<ir::Use> uses = load->users();
    // A dump without the Load's type: the Parameter's says what it holds.
    const ir::AbstractPtr& in = load->abstract() ? load->abstract() : load->input(1)->abstract();
    const ops::InferArg args[] = {ops::InferArg::of(in)};
    ir::AbstractPtr abs;
    try {
        abs = ops::OpRegistry::instance().infer("TensorMove", args).abs;
    } catch (const ops::OpError& e) {
        throw CompileError(
            std::string(ops::errorKindName(e.kind())), e.what(),
            load->debug().trace.empty() ? ir::SourceLocation{} : load->debug().trace.back());
    }
    ir::ValueNode* prim = m.addValue(load->graph(), ir::Value::primitive("TensorMove"));
    prim->setAbstract(ir::Abstract::func());
    CNode* move = m.addCNode(load->graph(), {prim, load});
    move->setAbstract(std::move(abs));
    move->copyLocation(*load);
    for (const ir::Use& u : uses) {
        m.setInput(u.user, u.index, move);
    }
}

// MindSpore's order enforcement for tuples of Loads (OrderEnforcer::HandleMakeTupleUsers):
// an op reading Loads through a MakeTuple (AddN(MakeTuple(load1, load2))) is often not
// attached to any UpdateState, so nothing keeps it before the next write of the Parameter.
// It becomes an extra attach of the last UpdateState (in topological order) that attaches
// one of those Loads (directly or inside a MakeTuple), unless it depends on that
// UpdateState already: the seed's final `UpdateState(%11, %13, %15)` attaches the AddN %15.
class OrderEnforcer {
public:
    OrderEnforcer(ir::Module& m, FuncGraph& g) : m_(m), g_(g) { sort(); }

    bool run() {
        bool changed = false;
        for (CNode* c : g_.topoOrder()) {
            if (c->isPrimitive(ir::prim::kMakeTuple)) {
                changed = handleMakeTupleUsers(*c) || changed;
            }
        }
        return changed;
    }

private:
    void sort() {
        index_.clear();
        const std::vector<CNode*> order = g_.topoOrder();
        for (std::size_t i = 0; i < order.size(); ++i) {
            index_[order[i]] = i + 1;  // 0: not in this graph's body
        }
    }
    std::size_t indexOf(const Node* n) const {
        auto it = index_.find(n);
        return it == index_.end() ? 0 : it->second;
    }

    // The UpdateStates attaching n, directly or through MakeTuples.
    static void updateStateUsers(const Node& n, std::vector<CNode*>& out) {
        for (const ir::Use& u : n.users()) {
            if (u.user->isPrimitive(ir::prim::kUpdateState)) {
                out.push_back(u.user);
            } else if (u.user->isPrimitive(ir::prim::kMakeTuple)) {
                updateStateUsers(*u.user, out);
            }
        }
    }

    bool handleMakeTupleUsers(const CNode& tuple) {
        std::vector<CNode*> states;
        for (std::size_t i = 1; i < tuple.size(); ++i) {
            if (isLoad(tuple.input(i))) {
                updateStateUsers(*tuple.input(i), states);
            }
        }
        CNode* last = nullptr;
        for (CNode* u : states) {
            if (last == nullptr || indexOf(u) > indexOf(last)) {
                last = u;
            }
        }
        if (last == nullptr) {
            return false;
        }
        std::vector<CNode*> users;
        for (const ir::Use& u : tuple.users()) {
            if (std::find(users.begin(), users.end(), u.user) == users.end()) {
                users.push_back(u.user);
            }
        }
        std::sort(users.begin(), users.end(),
                  [this](const CNode* a, const CNode* b) { return indexOf(a) < indexOf(b); });
        bool changed = false;
        for (CNode* user : users) {
            if (user->isPrimitive(ir::prim::kMakeTuple) ||
                user->isPrimitive(ir::prim::kUpdateState) || user->graph() != &g_ ||
                dependsOn(*user, *last) || attaches(*last, *user)) {
                continue;
            }
            m_.appendInput(last, user);
            sort();  // the new edge changes the order the next checks rely on
            changed = true;
        }
        return changed;
    }

    // Whether `state` (an UpdateState) already attaches n, directly or in a MakeTuple.
    static bool attaches(const CNode& state, const Node& n) {
        for (std::size_t i = 2; i < state.size(); ++i) {
            const Node* a = state.input(i);
            if (a == &n) {
                return true;
            }
            const auto* t = ir::nodeCast<CNode>(a);
            if (t != nullptr && t->isPrimitive(ir::prim::kMakeTuple)) {
                const auto& ins = t->inputs();
                if (std::find(ins.begin() + 1, ins.end(), &n) != ins.end()) {
                    return true;
                }
            }
        }
        return false;
    }

    // Whether n reaches `state` through its inputs (nodes ordered before `state` cannot).
    bool dependsOn(const CNode& n, const CNode& state) const {
        const std::size_t bound = indexOf(&state);
        if (indexOf(&n) < bound) {
            return false;
        }
        std::vector<const CNode*> work{&n};
        std::unordered_set<const CNode*> seen{&n};
        while (!work.empty()) {
            const CNode* c = work.back();
            work.pop_back();
            for (const Node* in : c->inputs()) {
                if (in == &state) {
                    return true;
                }
                const auto* ic = ir::nodeCast<CNode>(in);
                if (ic != nullptr && indexOf(ic) > bound && seen.insert(ic).second) {
                    work.push_back(ic);
                }
            }
        }
        return false;
    }

    ir::Module& m_;
    FuncGraph& g_;
    std::unordered_map<const Node*, std::size_t> index_;
};

}  // namespace

std::int64_t sideEffectLoadElimLevel(const Settings& s) {
    const std::int64_t level = s.getInt(kSideEffectLoadElim, 1);
    return level >= 0 && level <= 3 ? level : 1;
}

std::unique_ptr<Pass> makeAutoMonadReorderPass() {
    return makePass(
        "auto_monad_reorder",
        "Load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM 0-3): decides which Loads of a "
        "Parameter get a TensorMove copy so that later Assigns cannot change the value they "
        "read.",
        [](ir::Module& m, PassContext& ctx) {
            const std::int64_t level = sideEffectLoadElimLevel(ctx.settings());
            bool changed = false;
            for (FuncGraph* g : m.reachableGraphs()) {
                // Order first, then the copies (as MindSpore's OrderEnforcer); at level 3,
                // which inserts no copy, the seed's IR shows no added attach either.
                if (level < 3) {
                    changed = OrderEnforcer(m, *g).run() || changed;
                }
                for (CNode* load : loadsToCopy(*g, level)) {
                    if (!alreadyCopied(*load)) {
                        insertTensorMove(m, load);
                        changed = true;
                    }
                }
            }
            return changed;
        });
}

}  // namespace irscope::passes
