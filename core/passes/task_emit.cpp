// task_emit, the backend (passes/README.md): backend inline of reused graphs
// (MS_DEV_CELL_REUSE=2), the execution order of every kernel graph, and the memory plan
// whose peak the snapshot records.
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "passes/pipeline.h"
#include "passes/task_emit.h"

namespace irscope::passes {

namespace {

bool runTaskEmit(ir::Module& m, PassContext& ctx) {
    if (m.entry() == nullptr) {
        ctx.setPeakBytes(std::nullopt);
        return false;
    }
    bool changed = false;
    if (ctx.settings().getInt(kCellReuse, 0) == 2) {
        changed = backend::inlineReusedGraphs(m) || changed;
    }
    changed = backend::applyExecutionOrder(m) || changed;

    // Plans callees first: a call's peak includes its graph's.
    std::unordered_map<const ir::FuncGraph*, std::uint64_t> peaks;
    std::unordered_set<const ir::FuncGraph*> inProgress;
    const std::unordered_set<const ir::Node*> inputs = backend::inputParameters(m);
    std::function<std::uint64_t(const ir::FuncGraph*)> plan =
        [&](const ir::FuncGraph* g) -> std::uint64_t {
        if (auto it = peaks.find(g); it != peaks.end()) {
            return it->second;
        }
        if (g->returnNode() == nullptr || !inProgress.insert(g).second) {
            return 0;  // a recursive call: counted once, by the outermost plan
        }
        const std::vector<ir::CNode*> order = backend::executionOrder(*g);
        for (ir::CNode* c : order) {
            for (const ir::FuncGraph* callee : backend::graphsCalledBy(*c)) {
                plan(callee);
            }
        }
        const backend::MemoryPlan mp = backend::planMemory(*g, order, peaks, inputs);
        inProgress.erase(g);
        peaks[g] = mp.peakBytes;
        return mp.peakBytes;
    };
    for (ir::FuncGraph* g : backend::kernelGraphs(m)) {
        const std::uint64_t peak = plan(g);
        const ir::ValuePtr attr = ir::Value::integer(static_cast<std::int64_t>(peak));
        const ir::ValuePtr old = g->attrs().get("memory_peak_bytes");
        if (!old || !old->equals(*attr)) {
            g->attrs().set("memory_peak_bytes", attr);
            changed = true;
        }
    }
    ctx.setPeakBytes(plan(m.entry()));
    return changed;
}

}  // namespace

std::unique_ptr<Pass> makeTaskEmitPass() {
    return makePass("task_emit",
                    "Backend: inlines reused CR_ graphs (MS_DEV_CELL_REUSE), fixes the execution "
                    "order of every kernel graph and plans device memory, reporting the peak "
                    "bytes.",
                    runTaskEmit);
}

}  // namespace irscope::passes
