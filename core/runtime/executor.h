// The executor: runs a compiled Module (after task_emit) kernel by kernel in each kernel
// graph's execution order, with control flow (Switch, Partial, graph calls, tail calls and
// recursion for while loops), on the CPU kernels of the op registry or on a Device
// (runtime/device.h) where the device supports the kernel, inserting host<->device copies.
//
// Memory model (MindSpore's): a Parameter owns its storage; Load is virtual and aliases
// it; TensorMove copies; Assign writes in place. Each kernel output is a buffer of the
// memory plan (passes/task_emit.h, planMemory): allocated when its kernel runs and released
// after its last use, so RunStats::peakBytes is what the run really held.
//
// Observation: an ExecObserver sees every kernel before and after it runs, with the call
// stack; the debugger (runtime/debugger.h) is one. Observers run on the executing thread
// and may block it (a paused debugger does); they may throw ExecCancelled to stop the run.
//
//   Executor ex(module, opts);            // prepares the plans once; run() many times
//   RunStats stats;
//   KernelArg out = ex.run(inputs, weights, &stats);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "ir/node.h"
#include "ops/op_registry.h"
#include "runtime/device.h"
#include "runtime/eval_error.h"
#include "ir/tensor.h"

namespace irscope::ir {
class Module;
class FuncGraph;
}  // namespace irscope::ir

namespace irscope::runtime {

// The runtime computes on the IR's tensors (ir/tensor.h).
using ir::DType;
using ir::Shape;
using ir::Tensor;

// Thrown (by the executor when ExecOptions::cancel says so, or by an observer)
// to stop a run; it is an EvalError (a RuntimeError for the host), so every driver that
// catches EvalError sees it. The executor adds the node it stopped before.
class ExecCancelled : public EvalError {
public:
    ExecCancelled() : EvalError("The run was stopped.") {}
    ExecCancelled(ir::SourceLocation where, const std::string& node)
        : EvalError("The run was stopped.", "RuntimeError", std::move(where), node) {}
};

// One active graph call, outermost first.
struct StackFrame {
    const ir::FuncGraph* graph = nullptr;
    const ir::CNode* callSite = nullptr;  // the caller's kernel (null for the entry)
};

// One kernel about to run or just run. A graph call's afterKernel comes when the callee
// returned; a tail call (the graph's last action, how while loops iterate) has no
// afterKernel: the callee's frame replaces the caller's on the stack, whose callSite is
// then the tail call.
struct KernelEvent {
    const ir::CNode* node = nullptr;      // the kernel
    std::span<const StackFrame> stack;    // stack.back().graph == node->graph()
    std::size_t index = 0;                // its position in its graph's execution order
    std::uint64_t step = 0;               // kernels started so far in this run (1-based)
    bool callsGraph = false;              // a graph call (Switch/Partial included)
    std::string_view placement;           // "cpu" or the device's name (after a failed
                                          // launch, afterKernel says "cpu")
};

// What an observer may ask of the paused executor.
class ExecInspector {
public:
    virtual ~ExecInspector() = default;
    // The value `n` has in the innermost active frame that computed it (host copy; a
    // device-resident tensor is copied back), or nullopt if it has none yet.
    virtual std::optional<ops::KernelArg> valueOf(const ir::Node* n) const = 0;
    // The execution order of `g` (kernels, Return last).
    virtual std::span<const ir::CNode* const> order(const ir::FuncGraph* g) const = 0;
};

class ExecObserver {
public:
    virtual ~ExecObserver() = default;
    // A run of the entry graph starts / ended (normally or by an exception).
    virtual void runStarted(const ir::Module& m, const ExecInspector& ex) { (void)m; (void)ex; }
    virtual void runFinished() {}
    virtual void beforeKernel(const KernelEvent& e, const ExecInspector& ex) { (void)e; (void)ex; }
    // `output` is the kernel's result (for a graph call: the callee's result).
    virtual void afterKernel(const KernelEvent& e, const ops::KernelArg& output,
                             const ExecInspector& ex) {
        (void)e;
        (void)output;
        (void)ex;
    }
};

struct ExecOptions {
    std::function<void(std::string_view)> print;  // Print's lines (without newline)
    // Device warnings (a failed launch, once per op), without newline. Null: stderr.
    std::function<void(std::string_view)> warn;
    // Checked before every kernel: request_stop() on its source stops the run (ExecCancelled).
    // A script's graph runs get the interpreter's token (the one the UI's job owns).
    std::stop_token cancel;
    std::size_t maxCallDepth = 1000;
    std::uint64_t maxSteps = 50'000'000;          // CNodes evaluated per run
    // Keep every computed value until the run ends (ExecInspector::valueOf sees them all,
    // what a debugger needs); otherwise a value is released after its last use.
    bool keepValues = false;
    DevicePtr device;                  // null: everything on the CPU
    ExecObserver* observer = nullptr;  // not owned
};

struct RunStats {
    std::string device = "cpu";         // the device asked for
    double millis = 0.0;                // wall time of the run
    std::uint64_t kernels = 0;          // kernels run (graph calls not counted)
    std::uint64_t kernelsOnDevice = 0;  // of which on the device
    std::uint64_t fallbacks = 0;        // device launches that failed and ran on the CPU
    std::uint64_t copiesToDevice = 0, copiesToHost = 0, bytesCopied = 0;
    // Most bytes of kernel outputs alive at once (each aligned to 512 bytes as the memory
    // plan does; weights and inputs not counted), and the entry graph's plan (task_emit;
    // graphs reached through Switch/Partial, such as loop bodies, are not in the plan).
    std::uint64_t peakBytes = 0;
    std::uint64_t plannedPeakBytes = 0;
    std::vector<std::string> messages;  // the first failed launch of each op, one line each
    // With a device: kernels run per op on each side ("Add" -> 3), fallbacks on the CPU side.
    std::map<std::string, std::uint64_t, std::less<>> opsOnDevice, opsOnCpu;
};

// How the executor runs each graph of a module (runtime/executor_plan.h): worked out once
// by planExecution and shared by every Executor of that module, or by each Executor that
// is given none.
struct ModulePlan;
std::shared_ptr<const ModulePlan> planExecution(const ir::Module& m);

class Executor {
public:
    // `plan`: planExecution(m), when the caller keeps it across runs of the same module.
    Executor(const ir::Module& m, ExecOptions opts, std::shared_ptr<const ModulePlan> plan = {});
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    // Runs m.entry() on `inputs` (one per non-weight entry parameter, in order); weight
    // parameters (has_default) are bound by name from `weights` (their storage is used in
    // place: Assign updates the caller's tensors). Throws EvalError (or ExecCancelled).
    ops::KernelArg run(std::span<const ops::KernelArg> inputs,
                       const std::map<std::string, Tensor, std::less<>>& weights,
                       RunStats* stats = nullptr);

    // Where `n` runs with this executor's device: "cpu" or the device's name.
    std::string placementOf(const ir::CNode& n) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace irscope::runtime
