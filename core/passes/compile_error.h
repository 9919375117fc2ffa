// CompileError: what a compile stage (parse, symbol_resolve, type_inference, later passes)
// throws for a problem in the user's program. It carries the Python exception type
// MindSpore raises for it ("TypeError", "ValueError", "RuntimeError", ...), the message in
// MindSpore's words, and where in the script it happened; the graph compiler turns it into
// that Python exception in the host interpreter, with the location in the traceback.
#pragma once

#include <stdexcept>
#include <string>

#include "ir/node.h"

namespace irscope::passes {

class CompileError : public std::runtime_error {
public:
    CompileError(std::string pyType, std::string message, ir::SourceLocation where = {})
        : std::runtime_error(pyType + ": " + message),
          pyType_(std::move(pyType)),
          message_(std::move(message)),
          where_(std::move(where)) {}

    const std::string& pyType() const { return pyType_; }
    const std::string& message() const { return message_; }
    // file/line/col of the construct at fault; line 0 when unknown.
    const ir::SourceLocation& where() const { return where_; }

private:
    std::string pyType_;
    std::string message_;
    ir::SourceLocation where_;
};

}  // namespace irscope::passes
