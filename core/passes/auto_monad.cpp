// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeAutoMonadPass() {
    return makePass("auto_monad", "Makes side effects explicit: Assign and Print take a U or IO monad, UpdateState chains order them as written, and every read of a Parameter becomes a Load at the current state.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
