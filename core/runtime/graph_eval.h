// A straightforward evaluator for a typed Module (after type_inference): runs the entry
// graph with the CPU kernels. The Runtime issue replaces it with the executor (execution
// order, memory plan, debugger, devices) and keeps the kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>

#include "ir/node.h"
#include "ops/op_registry.h"
#include "runtime/tensor.h"

namespace irscope::ir {
class Module;
}

namespace irscope::runtime {

struct EvalOptions {
    // Where Print writes (one call per line, without the newline). Null: discarded.
    std::function<void(std::string_view)> print;
    std::stop_token cancel;               // checked between nodes
    std::function<bool()> isCancelled;    // also checked between nodes (the interpreter's flag)
    std::size_t maxCallDepth = 1000;      // nested graph calls (while loops recurse)
    std::uint64_t maxSteps = 50'000'000;  // nodes evaluated per run
};

// Thrown for a failure while running (a kernel's error, a limit, a cancel). what() is the
// message followed by the node (`at Add (CNode_5) in @Net_construct, net.py:12: out = x + y`);
// message() is the message alone and where() the node's source line (line 0 when unknown),
// for a driver that shows MindSpore's own traceback block. pyType() is the Python exception
// MindSpore raises ("RuntimeError" unless a kernel said "ValueError", "TypeError"...).
class EvalError : public std::runtime_error {
public:
    explicit EvalError(const std::string& message, std::string pyType = "RuntimeError",
                       ir::SourceLocation where = {}, const std::string& node = {});
    const std::string& pyType() const { return pyType_; }
    const std::string& message() const { return message_; }
    const ir::SourceLocation& where() const { return where_; }

private:
    std::string pyType_;
    std::string message_;
    ir::SourceLocation where_;
};

// Runs m.entry() on `inputs` (one per non-weight entry parameter, in order). Weight
// parameters (has_default) are bound by name from `weights`; a missing one is an error.
// Returns the graph's output (a tuple output as KernelArg::tuple).
ops::KernelArg evaluateGraph(const ir::Module& m, std::span<const ops::KernelArg> inputs,
                             const std::map<std::string, Tensor, std::less<>>& weights,
                             const EvalOptions& opts = {});

}  // namespace irscope::runtime
