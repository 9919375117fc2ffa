// Helpers shared by inline, the opt_a sub-passes and validate: what a primitive call is
// (pure, side-effecting, a monad-ordering node), where a node comes from in the source,
// which graphs are recursive, and garbage collection of dead nodes and unreachable graphs.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"
#include "ops/op_registry.h"

namespace irscope::passes::opt {

// The source line a node stands for (its innermost trace entry), else its graph's.
ir::SourceLocation locationOf(const ir::Node* n);

// The registry entry of a primitive call, or nullptr (graph calls, unknown primitives).
const ops::OpDef* opDefOf(const ir::CNode* c);

// The same node, or two constants of the same monad (each use of `U` is its own ValueNode).
bool sameState(const ir::Node* a, const ir::Node* b);

// True when the state `later` is `earlier` (sameState) or continues from it through UpdateState's
// first inputs (`UpdateState(UpdateState(earlier, a), b)`).
bool stateFollows(const ir::Node* later, const ir::Node* earlier);

// True when the node writes memory or does IO (Assign, Print ...), or is not a primitive
// call at all (a call of a graph or of a computed function may do either).
bool mayHaveSideEffect(const ir::CNode* c);

// True when evaluating the node twice, or not at all, or in another order, can change the
// program's behaviour: side effects, non-foldable ops (random), calls of graphs/values.
bool isImpure(const ir::CNode* c);

// The value with every graph reference found in `gmap` replaced (tuples, lists and
// primitive attributes are rebuilt only when something inside changed).
ir::ValuePtr remapGraphRefs(const ir::ValuePtr& v,
                            const std::unordered_map<ir::FuncGraph*, ir::FuncGraph*>& gmap);

// Graphs named by value nodes in g's body (each once, in order of first reference).
std::vector<ir::FuncGraph*> referencedGraphs(const ir::FuncGraph* g);

// Graphs that can reach themselves through graph references (a while loop's header and
// body, recursive functions): inlining their calls would not terminate.
std::unordered_set<const ir::FuncGraph*> recursiveGraphs(const ir::Module& m);

// Erases `n` when nothing uses it, then each of its inputs that became unused, and so on
// (parameters and Return nodes are never erased). Returns how many nodes were erased.
std::size_t eraseIfDead(ir::Module& m, ir::Node* n);

// Whether a node of another graph uses a node of g (a free variable of a closure).
bool usedOutside(const ir::FuncGraph* g);

// Erases every graph the entry cannot reach (only those in `among` when it is given), with
// the constants that referred to it. A graph whose nodes a reachable graph still uses, or
// that dead code of a reachable graph still names, is kept (dce removes that code, and the
// next sweep the graph). Returns how many graphs were erased. The one sweep every pass uses.
std::size_t eraseUnreachableGraphs(ir::Module& m,
                                   const std::unordered_set<const ir::FuncGraph*>* among = nullptr);

// A graph name not used by any graph of the module: `base`, else `base_1`, `base_2`...
std::string uniqueGraphName(const ir::Module& m, const std::string& base);

// A new CNode in g standing for `like`: same abstract and debug info (source, scope).
ir::CNode* addCNodeLike(ir::Module& m, ir::FuncGraph* g, const std::vector<ir::Node*>& inputs,
                        const ir::Node* like);

// Re-creates `old` (a CNode of g, not erased) as a new node with a fresh, larger id: same
// inputs, abstract, debug info and attributes; its users and g's Return follow it.
ir::CNode* recreate(ir::Module& m, ir::FuncGraph* g, ir::CNode* old, ir::Node** track = nullptr);

// Re-creates g's body nodes whose id is in (after, upTo], in id order, so they follow every
// node created since (the evaluator breaks ties between independent statements by id).
// `track`, when given, is updated if the node it points to is re-created.
void renumberAfter(ir::Module& m, ir::FuncGraph* g, std::uint64_t after, std::uint64_t upTo,
                   ir::Node** track = nullptr);

// The largest id of a live node.
std::uint64_t maxNodeId(const ir::Module& m);

}  // namespace irscope::passes::opt
