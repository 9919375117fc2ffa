// The script parser: Python 3.9-style source -> ast::Module (see ast.h for the tree).
//
// Recursive descent over the lexer's tokens, one token of lookahead (two for keyword
// arguments), CPython's node positions and error messages. Linear in the input; nesting is
// capped (200 open brackets, 100 indentation levels, expressions 1000 nodes deep) so hostile
// input gets a SyntaxError, never a stack overflow.
//
// Stack: the deepest input accepted needs about 0.5 MB of stack in an optimised build
// (1 MB at -O0, 4 MB under AddressSanitizer); parse on a thread with the usual 8 MB.
//
// Beyond the grammar it also reports what CPython's compiler reports as SyntaxError before
// running anything: 'return' outside function, 'break'/'continue' outside loop, nonlocal at
// module level, duplicate parameters, repeated keyword arguments, starred misuse.
// Rejected with a clear message: imaginary and bytes literals, yield, async/await.
#pragma once

#include <memory>
#include <string>

#include "frontend/ast.h"
#include "frontend/lexer.h"

namespace irscope::frontend {

// Parses a script. `fileName` names it in errors and in the Module. Throws SyntaxError.
std::unique_ptr<ast::Module> parseModule(std::string source, std::string fileName = "<string>");

}  // namespace irscope::frontend
