#include "passes/pass.h"

namespace irscope::passes {

bool PassGroup::run(ir::Module& m, PassContext& ctx) {
    bool any = false;
    for (int round = 0; round < maxRounds_; ++round) {
        bool changed = false;
        for (const auto& child : children_) {
            if (ctx.cancelRequested()) {
                return any || changed;
            }
            changed = child->run(m, ctx) || changed;
        }
        any = any || changed;
        if (!changed) {
            break;
        }
    }
    return any;
}

}  // namespace irscope::passes
