// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeOptAPass() {
    return makePass("opt_a", "The main optimizer: runs its sub-passes in rounds until none of them changes the graph.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
