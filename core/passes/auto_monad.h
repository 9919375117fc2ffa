// auto_monad's internals (auto_monad.cpp threads the chains; auto_monad_effects.cpp finds
// which graphs have side effects and which inputs read a Parameter). See passes/README.md,
// "auto_monad", for the IR this pass produces.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"

namespace irscope::passes::monad {

// What a graph does to the two states: writes or reads memory (U: Assign & co., Loads of
// Parameters) and does IO (Print). Propagated through calls, Partials, Switch branches,
// closures and GradOperation targets.
struct Effects {
    bool u = false;
    bool io = false;
    bool any() const { return u || io; }
    Effects& operator|=(const Effects& o) {
        u = u || o.u;
        io = io || o.io;
        return *this;
    }
    bool operator==(const Effects&) const = default;
};

using EffectMap = std::unordered_map<const ir::FuncGraph*, Effects>;

// A primitive that writes memory (OpDef::sideEffectMem) or does IO (sideEffectIo).
bool isMemWrite(const ir::CNode& c);
bool isIo(const ir::CNode& c);
// GradOperation, grad, value_and_grad or J applied to a target graph: calling the result
// runs the target.
bool isGradTransform(const ir::CNode& c);
// A call of something other than a primitive: `call @g(...)`, `%s()`, `%grad(%x)`.
bool isCall(const ir::CNode& c);

// Input `index` of `user` reads a Parameter's value (a Ref) and must become a Load: every
// primitive input with a Ref abstract except the written input of Assign & co., the
// ordering input of Depend, and what is handed on as a reference (Partial arguments, graph
// call arguments, a GradOperation's weights, Switch branches).
bool needsLoad(const ir::CNode& user, std::size_t index);
// `c` is the Return of a graph other than the entry: the Parameters it returns stay
// references (as a call's arguments do), and the caller loads them where it reads them, so a
// Parameter returned through both branches of an `if` can still be assigned. Only the
// entry's outputs, which go to the host, are loaded at its Return.
bool returnsReferences(const ir::CNode& c);
// Input `index` of `user` is a tuple holding Parameter references that `user` reads: each
// reference is loaded at `user` (its value at that point of the program), as MindSpore does
// for AddN over a ParameterTuple.
bool needsTupleLoad(const ir::CNode& user, std::size_t index);

// The graphs a call may run (empty when it cannot be known: a closure received as a
// parameter or returned by a call) and whether that list is complete.
struct CallTargets {
    std::vector<ir::FuncGraph*> graphs;
    bool known = true;
};
CallTargets callTargets(const ir::CNode& call);

// The front end's isolated-statement wrapper of a graph's output,
// `Depend(out, StopGradient(MakeTuple(statements...)))`, removed: the output becomes `out`
// and the statements are returned (they are no longer reachable from Return).
std::vector<ir::CNode*> dissolveIsolatedWrapper(ir::Module& m, ir::FuncGraph* g);
// Makes `statement` (an effectful call whose value was used up at compile time) an isolated
// statement of g: added to g's wrapper, or a wrapper built for it.
void keepIsolated(ir::Module& m, ir::FuncGraph* g, ir::CNode* statement);

// The CNodes of g reachable from its Return node or from one of `roots`, in id order
// (the user's source order), the Return node last.
std::vector<ir::CNode*> statementOrder(const ir::FuncGraph* g,
                                       const std::vector<ir::CNode*>& roots);

// Fixed point of the effects of `graphs`, each with its own statements `bodies[g]`; both
// branches of a Switch get the same effects.
EffectMap analyzeEffects(
    const std::vector<ir::FuncGraph*>& graphs,
    const std::unordered_map<const ir::FuncGraph*, std::vector<ir::CNode*>>& bodies);

// Effects of one call given the effects of the graphs (for an unknown target: `unknown`).
Effects callEffects(const ir::CNode& call, const EffectMap& effects, const Effects& unknown);

// Erases `n` and then every input of it that became unused, staying inside n's graph.
void eraseDead(ir::Module& m, ir::CNode* n);

}  // namespace irscope::passes::monad
