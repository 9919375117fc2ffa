// Type-aware binding of a Python call to a primitive: ops::bindCall that also knows which
// call arguments are tuples or lists.
#pragma once

#include <functional>

#include "ops/op_registry.h"

namespace irscope::ops {

// True when call argument `i` (positional index) is a tuple or list.
using IsSequenceArg = std::function<bool(std::size_t)>;

// As bindCall, for a call whose argument kinds are known. A `*args` parameter that packs into
// one tuple input (ops.meshgrid(*inputs, indexing), x.reshape(*shape)) also takes the older
// spelling that passes the whole sequence as one argument: when its first argument is a tuple
// or list, that argument is the packed input and the following positionals bind to the
// parameters after it (ops.meshgrid((x, y), 'ij') as ops.meshgrid(x, y, indexing='ij')).
CallBinding bindCall(const OpDef& op, const Spelling& spelling, std::size_t positional,
                     std::span<const std::string> keywords, const IsSequenceArg& isSequence);

}  // namespace irscope::ops
