// opt_a: MindSpore's main optimization group. Its sub-passes run in rounds until a round
// changes nothing (at most 8 rounds), each instrumented as opt_a/<name>.
#include "passes/opt_a.h"

#include "passes/pipeline.h"

namespace irscope::passes {

std::unique_ptr<Pass> makeOptAPass() {
    auto group = std::make_unique<PassGroup>(
        "opt_a",
        "The main optimizer: runs its sub-passes in rounds until none of them changes the graph.",
        8);
    group->add(makeSwitchSimplifyPass());
    group->add(makeLoopUnrollPass());
    group->add(makeUpdateStateEliminatePass());
    group->add(makeArithmeticSimplifyPass());
    group->add(makeConstantFoldingPass());
    group->add(makeCsePass());
    group->add(makeDcePass());
    return group;
}

}  // namespace irscope::passes
