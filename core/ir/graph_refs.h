// The graphs a constant names: a graph value, those inside its elements (tuples, lists...),
// and the graphs a MultitypeFuncGraph primitive registers (held in its attributes). Appended
// to `out` in that order, repeats included. The one walk of a value for its graphs: the
// module's reachability, the fingerprint, the passes and the .dot export all use it.
// Defined in module.cpp.
#pragma once

#include <vector>

#include "ir/value.h"

namespace irscope::ir {

class FuncGraph;

void collectGraphRefs(const Value& v, std::vector<FuncGraph*>& out);

}  // namespace irscope::ir
