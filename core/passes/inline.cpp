// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeInlinePass() {
    return makePass("inline", "Replaces calls of graphs by a copy of the callee's body, except graphs marked no_inline (such as lazy-inline CR_ graphs) and graphs reached through Switch.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
