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
    // Every sub-pass simplifies what the executor could run as it is: each may be skipped
    // (--opt-bisect-limit, passes/opt_bisect.h).
    auto add = [&](std::unique_ptr<Pass> p) {
        p->setSkippable();
        group->add(std::move(p));
    };
    add(makeSwitchSimplifyPass());
    add(makeLoopUnrollPass());
    add(makeUpdateStateEliminatePass());
    add(makeArithmeticSimplifyPass());
    add(makeConstantFoldingPass());
    add(makeCsePass());
    add(makeDcePass());
    return group;
}

}  // namespace irscope::passes
