// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeMetaFgExpandPass() {
    return makePass("meta_fg_expand", "Automatic differentiation: expands GradOperation, grad and value_and_grad into the forward computation followed by its reverse-mode gradient, built from each primitive's bprop rule.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
