// The graph compiler's boundary with the host program (internal to graph_compiler*.cpp):
// host values to abstracts, signatures and kernel arguments and back, the compile settings
// read from set_context and the environment, and errors raised as Python exceptions.
#pragma once

#include <string>
#include <vector>

#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/abstract.h"
#include "ops/op_registry.h"
#include "passes/compile_error.h"
#include "passes/settings.h"
#include "runtime/eval_error.h"
#include "store/compile_cache.h"

namespace irscope::compiler::detail {

// How an argument enters the signature: tensors by dtype and shape, Python scalars WITH
// their value (MindSpore specializes on constant scalars), tuples/lists element-wise,
// anything else by type and identity. "Tensor[Float32](2, 3)", "Int64=3", "(Bool=True, None)".
std::string signatureOf(interp::Interpreter& I, const interp::Value& v);

// The objects signatureOf names by identity (Cells, jit_class instances...), inside
// tuples and lists too: a cached graph keeps them alive so their addresses stay theirs.
void identityObjects(interp::Interpreter& I, const interp::Value& v,
                     std::vector<interp::Value>& out);

// The abstract type inference starts from for an entry input. Throws CompileError
// (TypeError) for a value a graph cannot take.
ir::AbstractPtr abstractOf(interp::Interpreter& I, const interp::Value& v);

// The storage of a Tensor / Parameter object, or null.
const ir::Tensor* tensorStorage(const interp::Value& v);

// A Tensor, or a tuple/list holding one.
bool holdsTensor(interp::Interpreter& I, const interp::Value& v);

// An entry input as the evaluator takes it: tensors share the host's storage.
ops::KernelArg kernelArgOf(interp::Interpreter& I, const interp::Value& v);

// A graph output as the host sees it: Tensor objects, tuples, Python scalars; a sequence
// the graph's output abstract calls a List comes back as a list.
interp::Value hostValueOf(interp::Interpreter& I, const ops::KernelArg& a,
                          const ir::AbstractPtr& abs);

// The settings a compile sees: the process environment (MS_DEV_SAVE_GRAPHS,
// MS_DEV_SAVE_GRAPHS_PATH, MS_DEV_SIDE_EFFECT_LOAD_ELIM, MS_DEV_CELL_REUSE,
// MS_DEV_DUMP_IR_PASSES) when `readEnvironment`, then set_context's settings (which win, as
// in MindSpore), then `overrides` (the CLI's --save-graphs).
passes::Settings compileSettings(const modules::MsContext* ctx, const passes::Settings& overrides,
                                 bool readEnvironment);

// Whether the compile cache is on, and its folder: MS_COMPILER_CACHE_ENABLE=1 and
// MS_COMPILER_CACHE_PATH when `readEnvironment`, then set_context(enable_compile_cache=...,
// compile_cache_path=...), which wins, as in MindSpore.
store::CompileCacheConfig compileCacheConfig(const modules::MsContext* ctx, bool readEnvironment);

// "out = net(x) at net.py:12": the host line that made the current call (empty if unknown).
std::string triggerText(interp::Interpreter& I);

// Raises `e` (a CompileError, or a run-time EvalError of the compiled graph) in the
// interpreter as the Python exception MindSpore raises, its message followed by MindSpore's
// "The Traceback of Net Construct Code" block, with the construct's (or failing node's) line
// as the innermost traceback entry (function name `function`).
[[noreturn]] void raiseSourceError(interp::Interpreter& I, const ir::SourceError& e,
                                   const std::string& function);

}  // namespace irscope::compiler::detail
