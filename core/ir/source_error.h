// SourceError: an error in the user's program found while compiling or running it, with
// the Python exception type MindSpore raises for it ("TypeError", "ValueError",
// "RuntimeError", ...), the message in MindSpore's words and where in the script it
// happened. CompileError (passes) and EvalError (runtime) are its two kinds; a driver that
// turns either into a Python exception with MindSpore's traceback block needs only this.
#pragma once

#include <stdexcept>
#include <string>

#include "ir/node.h"

namespace irscope::ir {

class SourceError : public std::runtime_error {
public:
    const std::string& pyType() const { return pyType_; }
    // The message alone (what() may add the type or the node).
    const std::string& message() const { return message_; }
    // file/line/col of the construct at fault; line 0 when unknown.
    const SourceLocation& where() const { return where_; }

protected:
    SourceError(const std::string& what, std::string pyType, std::string message,
                SourceLocation where)
        : std::runtime_error(what),
          pyType_(std::move(pyType)),
          message_(std::move(message)),
          where_(std::move(where)) {}

private:
    std::string pyType_;
    std::string message_;
    SourceLocation where_;
};

}  // namespace irscope::ir
