// updatestate_eliminate: removes ordering nodes that order nothing. UpdateState(u, x)
// attaches x to the state so x runs before the state moves on; that matters only when x
// (or what it computes from) has a side effect or reads a Load. Depend on a constant orders
// nothing; a Load nothing reads is dropped; two Loads of one parameter at one state are one;
// UpdateState(u, Depend(x, s)) with s continuing from u is s (then x).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "ir/monad.h"
#include "ir/prim_names.h"
#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

namespace {

class Eliminator {
public:
    // What one simplification did: nothing; changed c, which stays; erased c (and maybe
    // inputs, which come earlier in the walk); erased a later node (the walk starts over).
    enum class Step { None, Kept, Erased, Restart };

    explicit Eliminator(ir::Module& m) : m_(m) {}

    bool run() {
        bool changed = false;
        for (FuncGraph* g : m_.reachableGraphs()) {
            for (bool again = true; again;) {
                again = false;
                for (CNode* c : g->topoOrder()) {
                    Step step = Step::None;
                    do {
                        step = simplify(c);
                        changed = changed || step != Step::None;
                    } while (step == Step::Kept);
                    if (step == Step::Restart) {
                        again = true;
                        break;
                    }
                }
            }
        }
        return changed;
    }

private:
    // Whether attaching n to a state orders anything: n has a side effect, reads a Load
    // (directly or through what it computes from), or is itself a state.
    bool ordersSomething(Node* n) {
        if (ir::isMonad(n)) {
            return true;
        }
        auto* c = ir::nodeCast<CNode>(n);
        if (c == nullptr) {
            return false;  // a constant or a parameter is there from the start
        }
        if (auto it = memo_.find(c); it != memo_.end()) {
            return it->second;
        }
        // Iterative: inputs are decided before their user.
        std::vector<CNode*> stack{c};
        while (!stack.empty()) {
            CNode* top = stack.back();
            if (memo_.count(top)) {
                stack.pop_back();
                continue;
            }
            if (opt::isImpure(top) || ir::isMonad(top)) {
                memo_[top] = true;
                stack.pop_back();
                continue;
            }
            bool pending = false;
            bool result = false;
            for (Node* in : top->inputs()) {
                auto* ic = ir::nodeCast<CNode>(in);
                if (ic == nullptr) {
                    result = result || ir::isMonad(in);
                    continue;
                }
                auto it = memo_.find(ic);
                if (it == memo_.end()) {
                    stack.push_back(ic);
                    pending = true;
                } else {
                    result = result || it->second;
                }
            }
            if (!pending) {
                memo_[top] = result;
                stack.pop_back();
            }
        }
        return memo_.at(c);
    }

    void replace(CNode* c, Node* by) {
        m_.replaceAllUses(c, by);
        opt::eraseIfDead(m_, c);
    }

    Step simplify(CNode* c) {
        if (c->isPrimitive(ir::prim::kDepend) && c->size() == 3 && c->input(2)->isValue()) {
            replace(c, c->input(1));  // Depend(x, constant) orders nothing
            return Step::Erased;
        }
        if (c->isPrimitive(ir::prim::kLoad) && c->size() == 3) {
            return simplifyLoad(c);
        }
        if (!c->isPrimitive(ir::prim::kUpdateState) || c->size() < 3) {
            return Step::None;
        }
        Node* state = c->input(1);
        if (c->size() == 3) {
            // UpdateState(u, Depend(x, s)) with s continuing from u (what inlining a call
            // with side effects leaves): the state after it is s, then x if x orders
            // anything.
            const auto* d = ir::nodeCast<CNode>(c->input(2));
            if (d != nullptr && d->isPrimitive(ir::prim::kDepend) && d->size() == 3 &&
                ir::isMonad(d->input(2)) && opt::stateFollows(d->input(2), state)) {
                Node* s = d->input(2);
                Node* x = d->input(1);
                if (ordersSomething(x)) {
                    replace(c, opt::addCNodeLike(m_, c->graph(), {c->input(0), s, x}, c));
                } else {
                    replace(c, s);
                }
                return Step::Erased;
            }
        }
        // Attached inputs that order nothing, or that the state already has attached.
        auto* prev = ir::nodeCast<CNode>(state);
        for (std::size_t i = 2; i < c->size(); ++i) {
            Node* x = c->input(i);
            const bool repeated =
                std::find(c->inputs().begin() + 2, c->inputs().begin() + static_cast<long>(i), x) !=
                c->inputs().begin() + static_cast<long>(i);
            const bool alreadyAttached =
                prev != nullptr && prev->isPrimitive(ir::prim::kUpdateState) &&
                std::find(prev->inputs().begin() + 2, prev->inputs().end(), x) !=
                    prev->inputs().end();
            if (repeated || alreadyAttached || !ordersSomething(x)) {
                if (c->size() == 3) {
                    replace(c, state);
                    return Step::Erased;
                }
                m_.removeInput(c, i);
                opt::eraseIfDead(m_, x);
                return Step::Kept;
            }
        }
        return Step::None;
    }

    // A Load only UpdateStates use reads for nobody; a Load equal to an earlier one (same
    // parameter, same state) is that one.
    Step simplifyLoad(CNode* load) {
        bool onlyStates = !load->users().empty();
        for (const ir::Use& u : load->users()) {
            onlyStates = onlyStates && u.user->isPrimitive(ir::prim::kUpdateState) && u.index >= 2;
        }
        if (onlyStates) {
            const ir::Use u = load->users().front();
            if (u.user->size() == 3) {
                replace(u.user, u.user->input(1));  // a later node: walk again
                return Step::Restart;
            }
            m_.removeInput(u.user, u.index);
            if (!load->users().empty()) {
                return Step::Kept;  // attached to other states too
            }
            opt::eraseIfDead(m_, load);
            return Step::Erased;
        }
        for (const ir::Use& u : load->input(1)->users()) {
            CNode* other = u.user;
            if (other != load && u.index == 1 && other->isPrimitive(ir::prim::kLoad) &&
                other->graph() == load->graph() && other->size() == 3 &&
                opt::sameState(other->input(2), load->input(2)) && other->id() < load->id()) {
                replace(load, other);
                return Step::Erased;
            }
        }
        return Step::None;
    }

    ir::Module& m_;
    std::unordered_map<const CNode*, bool> memo_;
};

}  // namespace

std::unique_ptr<Pass> makeUpdateStateEliminatePass() {
    return makePass("updatestate_eliminate",
                    "Removes ordering nodes (UpdateState, Depend, Load) that no longer order "
                    "anything, such as a state update for a pure computation.",
                    [](ir::Module& m, PassContext&) { return Eliminator(m).run(); });
}

}  // namespace irscope::passes
