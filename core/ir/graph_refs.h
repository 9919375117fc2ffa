// The graphs a constant names: a graph value, those inside tuples and lists, and the graphs a
// MultitypeFuncGraph primitive registers (held in its attributes). Appended to `out` in that
// order. Defined in module.cpp.
#pragma once

#include <vector>

#include "ir/value.h"

namespace irscope::ir {

class FuncGraph;

void collectGraphRefs(const Value& v, std::vector<FuncGraph*>& out);

}  // namespace irscope::ir
