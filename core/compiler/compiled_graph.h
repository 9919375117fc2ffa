// GraphCompilerImpl::Compiled: one compiled graph and how a call feeds it (internal to
// graph_compiler*.cpp: the in-process cache holds these; the compile cache on disk stores
// and restores them, graph_compiler_cache.cpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/graph_compiler.h"
#include "ir/module.h"
#include "ops/op_registry.h"
#include "ir/tensor.h"
#include "runtime/executor.h"
#include "store/compile_cache.h"

namespace irscope::compiler {

// One compiled graph and how to feed it.
struct GraphCompilerImpl::Compiled {
    std::unique_ptr<ir::Module> module;
    std::map<std::string, ir::Tensor, std::less<>> weights;
    // The host Parameter behind each weight: a run binds its tensor as it is then
    // (Parameter.set_data replaces the storage the compile saw).
    std::map<std::string, interp::Value, std::less<>> weightObjects;
    // For each entry input: the index in the call's flattened arguments it comes from, or
    // -1 for a value parse bound itself (a default), kept in `fixed` already converted
    // (the cache must hold no interpreter values: it may outlive the interpreter).
    std::vector<int> source;
    std::vector<ops::KernelArg> fixed;
    std::vector<bool> used;  // per flattened argument: some entry input comes from it
    std::string function;    // the Python function compiled ("construct", "func")
    // The compiled Cell or function and the arguments keyed by identity (`self` of a @jit
    // method), kept alive so that their addresses (part of the cache key) cannot be reused
    // by other objects while this graph is cached.
    std::vector<interp::Value> pinned;
    std::size_t record = 0;  // its CompileRecord in the session
    // How the executor runs the module, worked out at the first call and kept for the
    // next ones (a training loop calls the same graph every step).
    mutable std::shared_ptr<const runtime::ModulePlan> plan;
};

// The compile cache a compiler uses (the file of the folder set_context or the environment
// names; reopened when the folder changes) and the key of a miss waiting for its result.
struct GraphCompilerImpl::DiskCache {
    std::filesystem::path file;
    std::unique_ptr<store::CompileCache> cache;  // null when `file` could not be opened
    std::optional<store::CompileCacheKey> pending;
};

}  // namespace irscope::compiler
