// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeTaskEmitPass() {
    return makePass("task_emit", "Backend: inlines reused CR_ graphs (MS_DEV_CELL_REUSE), fixes the execution order of every kernel graph and plans device memory, reporting the peak bytes.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
