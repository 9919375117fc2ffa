// The backend steps of task_emit (passes/README.md, "task_emit"), split by idea:
//   task_emit_inline.cpp   backend inline of reused CR_ graphs, unreachable-graph removal
//   task_emit_order.cpp    execution order of a kernel graph, node ids renumbered into it
//   task_emit_memory.cpp   the memory plan: buffers, lifetimes, first-fit offsets, peak
//   task_emit.cpp          the pass that runs them
// They are exposed for the unit tests (tests/test_task_emit.cpp) and for graph_reusing,
// which shares the graph removal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"

namespace irscope::passes::backend {

// Whether `g` is a reused graph made by graph_reusing (attr cell_reuse).
bool isReusedGraph(const ir::FuncGraph& g);

// MS_DEV_CELL_REUSE=2: every direct call of a reused graph is replaced by a copy of its
// body (copies keep the callee nodes' abstracts, debug info and scope; constants are copied
// into the caller), repeatedly, then the reused graphs are erased. A reused graph whose
// nodes other graphs use as free variables stays a call. Returns whether anything changed.
bool inlineReusedGraphs(ir::Module& m);

// The kernel graphs of a module: the entry and every graph still called, in dump order.
std::vector<ir::FuncGraph*> kernelGraphs(const ir::Module& m);

// The execution order of `g`'s body (Return last): a topological order over data inputs
// (UpdateState and Depend edges are data inputs), ties broken by the smaller node id
// (source order), plus the Load rule: each user of a Load runs before the next write of
// the loaded parameter (Assign/AssignAdd/AssignSub whose state follows the Load) whenever
// it does not depend on that write.
std::vector<ir::CNode*> executionOrder(const ir::FuncGraph& g);

// Rebuilds every reachable graph with its CNodes created in `executionOrder`, so node ids
// follow it (ids are creation order), and sets each kernel graph's attr `execution_order`
// (a Tuple of the kernels' debug names; at a call of a reused graph, the callee's kernels).
// Returns whether any id or attr changed. With `orders`, also hands back each kernel graph's
// order (what executionOrder gives the renumbered graph), for the memory plan.
using ExecutionOrders = std::unordered_map<const ir::FuncGraph*, std::vector<ir::CNode*>>;
bool applyExecutionOrder(ir::Module& m, ExecutionOrders* orders = nullptr);

// One buffer of a memory plan.
struct Buffer {
    const ir::CNode* node = nullptr;  // the kernel producing it
    std::uint64_t size = 0;           // bytes, aligned
    std::uint64_t offset = 0;
    std::size_t def = 0;      // position of the kernel in the order
    std::size_t lastUse = 0;  // position of the last kernel reading it (or the end)
};

struct MemoryPlan {
    std::vector<Buffer> buffers;
    // The most a frame of the graph holds: its tensor parameters, its own buffers and what
    // the graphs it calls hold on top (a tail call: the callee's frame instead of this one).
    std::uint64_t peakBytes = 0;
    std::uint64_t paramBytes = 0;  // the tensor parameters' part of it
};

// The tail chain of `g`: Return's input, then through Depend (input 1) each node used only
// by the previous one, ending at a call of a graph or of a computed function (`%3()`),
// whose frame replaces this graph's when it runs; empty when the output is not such a call.
std::vector<const ir::CNode*> tailCallChain(const ir::FuncGraph& g);

// The graphs a call may run: the called graph, or the graphs a computed callee may be, seen
// through Switch (either branch) and Partial; empty for a primitive or an unknown function.
std::vector<const ir::FuncGraph*> graphsCalledBy(const ir::CNode& call);

// The parameters that only ever hold the run's inputs or constants: the entry's, and those
// every call binds to such values (a loop's unchanged operand). They own no device buffer.
std::unordered_set<const ir::Node*> inputParameters(const ir::Module& m);

// The bytes of `g`'s tensor parameters but `inputs`, each aligned as a buffer (none for
// the entry: its parameters are the run's inputs).
std::uint64_t paramBytes(const ir::FuncGraph& g, const std::unordered_set<const ir::Node*>& inputs);

// Device memory alignment of every buffer (MindSpore aligns device memory to 512 bytes).
inline constexpr std::uint64_t kMemAlign = 512;

// The plan of `g` for `order` (executionOrder(g)): a buffer for every tensor-producing
// kernel except views (Load, Depend, UpdateState, MakeTuple, TupleGetItem, Reshape-like
// ops; TensorMove is a copy and gets one), live from its definition to its last use through
// views (the graph's output to the end), placed first-fit by offset among the buffers live
// at its definition. A call of another graph (graphsCalledBy, the larger of a Switch's
// branches) adds the callee's peak less its parameters (buffers of this frame, live at
// the call) above the buffers live at the call; the tail call (tailCallChain) instead
// counts the callee's whole peak, as its frame replaces this one. `calleePeaks` holds the
// callees' peakBytes; a callee missing there (a recursive one) counts nothing, so a loop
// (a cycle of tail calls) is counted once, by the first of its graphs planned. Partial and
// Switch keep the buffers they bind live until the call. Module weights and inputs are
// not counted; the graph's own parameters but `inputs` are (paramBytes).
MemoryPlan planMemory(
    const ir::FuncGraph& g, const std::vector<ir::CNode*>& order,
    const std::unordered_map<const ir::FuncGraph*, std::uint64_t>& calleePeaks = {},
    const std::unordered_set<const ir::Node*>& inputs = {});

// The graph attr task_emit records each kernel graph's planned peak in (bytes, an Int).
inline constexpr std::string_view kMemoryPeakBytesAttr = "memory_peak_bytes";

// The peak bytes of graphs of one module, each planned once (planMemory in executionOrder)
// after the graphs it calls; a call back into a graph being planned (recursion, a loop's
// graphs) counts nothing there, so a cycle is counted once, by the first of its graphs
// asked for. task_emit records each kernel graph's peak as its kMemoryPeakBytesAttr.
// `orders` are graphs' execution orders already computed (applyExecutionOrder's); the others
// are computed when planned.
class PeakPlanner {
public:
    explicit PeakPlanner(const ir::Module& m, ExecutionOrders orders = {});
    std::uint64_t peak(const ir::FuncGraph* g);

private:
    ExecutionOrders orders_;
    std::unordered_map<const ir::FuncGraph*, std::uint64_t> peaks_;
    std::unordered_set<const ir::FuncGraph*> inProgress_;
    std::unordered_set<const ir::Node*> inputs_;
};

}  // namespace irscope::passes::backend
