// opt_a's sub-passes, in the order the group runs them (passes/README.md has the contract).
// Each is a Pass of its own so it can be run and tested alone; makeOptAPass() (pipeline.h)
// groups them.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ir/module.h"
#include "passes/pass.h"

namespace irscope::passes {

// How many iterations loop_unroll unrolls a loop at most before it gives up with an error.
inline constexpr int kMaxLoopUnroll = 10000;  // as the front end's `for` unrolling

std::unique_ptr<Pass> makeSwitchSimplifyPass();  // opt_switch.cpp
std::unique_ptr<Pass> makeLoopUnrollPass(
    int maxIterations = kMaxLoopUnroll);               // opt_loop_unroll.cpp
std::unique_ptr<Pass> makeUpdateStateEliminatePass();  // opt_monad.cpp
std::unique_ptr<Pass> makeArithmeticSimplifyPass();    // opt_arith.cpp
std::unique_ptr<Pass> makeConstantFoldingPass();       // opt_fold.cpp
std::unique_ptr<Pass> makeCsePass();                   // opt_cse.cpp
std::unique_ptr<Pass> makeDcePass();                   // opt_dce.cpp

namespace opt {

// The work of switch_simplify: a Switch on a constant condition (or with two equal
// branches) becomes the chosen branch; a call of it becomes a direct call of the branch
// graph (Partial arguments first), which is inlined unless no_inline or recursive.
bool simplifySwitches(ir::Module& m);

// For a call of a Switch (`%s(args)`, %s = Switch(cond, a, b)) whose condition is a
// constant: the call becomes a direct call of the selected branch graph with the Partial's
// bound arguments first (`call @g(bound..., args...)`), the Switch is dropped if unused.
// Returns the direct call, or nullptr when the call is not of that form.
ir::CNode* callSelectedBranch(ir::Module& m, ir::CNode* switchCall);

// The work of constant_folding, over every reachable graph.
bool foldConstants(ir::Module& m);

// The value c computes when its inputs have the given constant values (nullptr: unknown),
// if c is a primitive constant_folding may fold; nullptr otherwise.
ir::ValuePtr foldedValue(const ir::CNode* c, const std::vector<ir::ValuePtr>& inputs);

// Folds the nodes of root's graph that root depends on, inputs first. Returns the node now
// standing for root (a constant when it folded).
ir::Node* foldCone(ir::Module& m, ir::Node* root);

// The work of dce.
bool eliminateDeadCode(ir::Module& m);

// The truth of a condition value (Bool, Int, a one-element tensor), if it has one.
std::optional<bool> truthOf(const ir::ValuePtr& v);

// The truth of a condition node that is a constant (or a scalar whose value is known).
std::optional<bool> constantCondition(const ir::Node* n);

}  // namespace opt

}  // namespace irscope::passes
