#include "passes/pipeline.h"

namespace irscope::passes {

void addOptimizerPipeline(PassManager& pm) {
    pm.add(makeAutoMonadPass());
    pm.add(makeInlinePass());
    pm.add(makeMetaFgExpandPass());
    pm.add(makeOptAPass());
    pm.add(makeAutoMonadReorderPass());
    pm.add(makeValidatePass());
    pm.add(makeTaskEmitPass());
}

}  // namespace irscope::passes
