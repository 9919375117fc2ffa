// The error a run of a compiled graph throws (runtime/executor.h): a kernel's error, a
// limit, a cancel, a bad input. Kept apart so drivers can catch it without the executor.
#pragma once

#include <stdexcept>
#include <string>

#include "ir/node.h"

namespace irscope::runtime {

// what() is the message followed by the node (`at Add (CNode_5) in @Net_construct,
// net.py:12: out = x + y`); message() is the message alone and where() the node's source
// line (line 0 when unknown), for a driver that shows MindSpore's own traceback block.
// pyType() is the Python exception MindSpore raises ("RuntimeError" unless a kernel said
// "ValueError", "TypeError"...).
class EvalError : public std::runtime_error {
public:
    explicit EvalError(const std::string& message, std::string pyType = "RuntimeError",
                       ir::SourceLocation where = {}, const std::string& node = {});
    const std::string& pyType() const { return pyType_; }
    const std::string& message() const { return message_; }
    const ir::SourceLocation& where() const { return where_; }

private:
    std::string pyType_;
    std::string message_;
    ir::SourceLocation where_;
};

}  // namespace irscope::runtime
