// inline: direct calls of graphs are replaced by copies of the callees' bodies.
//
// `inlineCall` is also used by opt_a's switch_simplify, which inlines the branch a constant
// Switch chose when it was called directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_set>

#include "ir/module.h"

namespace irscope::passes {

// Whether `call` is a direct call (`call @g(...)`) that inline replaces: g is not marked
// no_inline (lazy inline's CR_ graphs) and is not in `recursive` (opt::recursiveGraphs).
bool isInlinableCall(const ir::CNode* call,
                     const std::unordered_set<const ir::FuncGraph*>& recursive);

// Replaces the direct graph call `call` by a copy of its callee's body in the caller's
// graph: parameters become the call's arguments, free variables of the callee stay free
// variables, and graphs that use the callee's nodes as free variables (closures defined in
// it) are copied along and refer to the copies. Every copy keeps its original's abstract
// and debug info. `call` is erased; returns the node now standing for its result.
//
// When the callee has side effects and `reorder` is set, the caller's nodes after the call
// are re-created after the copies (opt::renumberAfter), so an evaluator that breaks ties by
// node id still runs them in source order; `orderId` (when not 0) is the id whose place in
// that order the call takes (a call re-created by another pass passes its original's).
// Throws CompileError when the argument count does not match the callee's parameters.
ir::Node* inlineCall(ir::Module& m, ir::CNode* call, std::uint64_t orderId = 0,
                     bool reorder = true);

// Inlines every inlinable call in the module, repeatedly, until none is left; then erases
// unreachable graphs. Returns the number of calls inlined. Throws CompileError when the
// module would grow beyond `maxNodes` live nodes (a call tree too large to flatten).
std::size_t inlineAll(ir::Module& m, std::size_t maxNodes = 4'000'000);

}  // namespace irscope::passes
