// auto_monad_reorder (load elimination): which Loads get a TensorMove copy, by the level
// MS_DEV_SIDE_EFFECT_LOAD_ELIM sets (passes/README.md). The pass itself is
// makeAutoMonadReorderPass() in pipeline.h.
#pragma once

#include <cstdint>

#include "passes/settings.h"

namespace irscope::passes {

// MS_DEV_SIDE_EFFECT_LOAD_ELIM as the pass reads it: 0-3; unset, unreadable or out of
// range is the default, 1.
std::int64_t sideEffectLoadElimLevel(const Settings& s);

}  // namespace irscope::passes
