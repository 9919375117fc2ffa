// The error a run of a compiled graph throws (runtime/executor.h): a kernel's error, a
// limit, a cancel, a bad input. Kept apart so drivers can catch it without the executor.
#pragma once

#include <string>

#include "ir/source_error.h"

namespace irscope::runtime {

// what() is the message followed by the node (`at Add (CNode_5) in @Net_construct,
// net.py:12: out = x + y`); message() is the message alone and where() the node's source
// line (line 0 when unknown), for a driver that shows MindSpore's own traceback block.
// pyType() is the Python exception MindSpore raises ("RuntimeError" unless a kernel said
// "ValueError", "TypeError"...).
class EvalError : public ir::SourceError {
public:
    explicit EvalError(const std::string& message, std::string pyType = "RuntimeError",
                       ir::SourceLocation where = {}, const std::string& node = {});
};

}  // namespace irscope::runtime
