// The front half of the graph compiler: `parse` (AST → FuncGraphs) and `symbol_resolve`
// (host objects → graphs, primitives, constants and weights). Both work for one graph-mode
// call and share a FrontendState that knows the host interpreter, the call's target and
// arguments, and the host objects the IR refers to. See README.md for the IR they produce.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "frontend/interp/interpreter.h"
#include "passes/pass.h"
#include "ir/tensor.h"

namespace irscope::compiler {

struct CompileLimits {
    std::size_t maxUnroll = 10000;  // iterations of one unrolled `for`, and in total per compile
    std::size_t maxGraphs = 20000;  // graphs parse may create for one compile
};

// One graph-mode call as the host made it.
struct GraphCall {
    interp::Interpreter* interp = nullptr;
    interp::Value target;     // the Cell instance, or the undecorated @jit function
    interp::CallArgs args;    // as given (a @jit method's args start with self)
    CompileLimits limits;
};

// A weight of the compiled program: the entry graph's `has_default` parameter `name` and the
// host Parameter's storage (shared: the evaluator's Assign writes are seen by the host).
struct WeightBinding {
    std::string name;
    ir::Tensor storage;
};

class FrontendState;

// Creates the state for one call. Throws passes::CompileError for a target that cannot be
// compiled (e.g. a jit_class instance without __call__).
std::shared_ptr<FrontendState> makeFrontendState(GraphCall call);

// The entry graph's inputs, after binding keywords/defaults and expanding *args: one host
// value per non-weight entry parameter, in order (the driver turns them into abstracts and
// kernel arguments). Valid after `parse`.
const std::vector<interp::Value>& entryInputs(const FrontendState& s);
// The weights symbol_resolve added to the entry graph, in parameter order. Valid after
// `symbol_resolve`.
const std::vector<WeightBinding>& entryWeights(const FrontendState& s);

// "parse": fills an empty Module with the target's graphs; the entry graph is m.entry().
std::unique_ptr<passes::Pass> makeParsePass(std::shared_ptr<FrontendState> s);
// "symbol_resolve": binds every resolve/getattr of a host object.
std::unique_ptr<passes::Pass> makeSymbolResolvePass(std::shared_ptr<FrontendState> s);

}  // namespace irscope::compiler
