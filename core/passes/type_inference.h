// type_inference: gives every node an abstract (dtype, shape, known constant value),
// specializes graphs per distinct argument abstracts, folds constants and scalar
// expressions, and replaces meta operations (meta_ops.h) by registry primitives.
// See core/compiler/README.md for the IR before and after.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "ir/abstract.h"
#include "passes/pass.h"

namespace irscope::passes {

struct InferenceLimits {
    std::size_t maxSpecializations = 20000;  // graph specializations per compile
    std::size_t maxCallDepth = 1000;         // nested graph evaluations while inferring
};

// `inputs` are the abstracts of the entry graph's non-weight parameters, in order; weight
// parameters (has_default) get Ref abstracts from their default tensors. Errors are
// reported as passes::PassError with the node's source location.
std::unique_ptr<Pass> makeTypeInferencePass(std::vector<ir::AbstractPtr> inputs,
                                            InferenceLimits limits = {});

}  // namespace irscope::passes
