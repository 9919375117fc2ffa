// The graphs a constant names: a graph value, those inside its elements (tuples, lists...),
// and the graphs a MultitypeFuncGraph primitive registers (held in its attributes). Appended
// to `out` in that order, repeats included. The one walk of a value for its graphs: the
// module's reachability, the fingerprint, the passes and the .dot export all use it.
// Defined in module.cpp.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/value.h"

namespace irscope::ir {

class FuncGraph;

void collectGraphRefs(const Value& v, std::vector<FuncGraph*>& out);

// `v` with every graph it names (as collectGraphRefs finds them) replaced by its image in
// `map` (graphs not in it stay); `v` itself when nothing changes. Module::clone's and any
// graph copy's way of pointing a copied constant at the copied graphs.
ValuePtr remapGraphRefs(const ValuePtr& v, const std::unordered_map<const FuncGraph*, FuncGraph*>& map);

}  // namespace irscope::ir
