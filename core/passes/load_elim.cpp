// PLACEHOLDER until the Compiler pipeline issue's helper replaces this file with the pass.
#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeAutoMonadReorderPass() {
    return makePass("auto_monad_reorder", "Load elimination (MS_DEV_SIDE_EFFECT_LOAD_ELIM 0-3): decides which Loads of a Parameter get a TensorMove copy so that later Assigns cannot change the value they read.", [](ir::Module&, PassContext&) { return false; });
}

}  // namespace irscope::passes
