// CompileError: what a compile stage (parse, symbol_resolve, type_inference, later passes)
// throws for a problem in the user's program (see ir/source_error.h); what() is
// "TypeError: message". The graph compiler turns it into that Python exception in the host
// interpreter, with the location in the traceback.
#pragma once

#include <string>

#include "ir/source_error.h"

namespace irscope::passes {

class CompileError : public ir::SourceError {
public:
    CompileError(std::string pyType, std::string message, ir::SourceLocation where = {})
        : ir::SourceError(pyType + ": " + message, pyType, message, std::move(where)) {}
};

}  // namespace irscope::passes
