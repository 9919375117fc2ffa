// task_emit, the backend (passes/README.md): backend inline of reused graphs
// (MS_DEV_CELL_REUSE=2), the execution order of every kernel graph, and the memory plan
// whose peak the snapshot records.
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
    backend::ExecutionOrders orders;
    changed = backend::applyExecutionOrder(m, &orders) || changed;

    backend::PeakPlanner planner(m, std::move(orders));
    for (ir::FuncGraph* g : backend::kernelGraphs(m)) {
        const std::uint64_t peak = planner.peak(g);
        const ir::ValuePtr attr = ir::Value::integer(static_cast<std::int64_t>(peak));
        const ir::ValuePtr old = g->attrs().get(backend::kMemoryPeakBytesAttr);
        if (!old || !old->equals(*attr)) {
            g->attrs().set(std::string(backend::kMemoryPeakBytesAttr), attr);
            changed = true;
        }
    }
    ctx.setPeakBytes(planner.peak(m.entry()));
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
