// The graph builder behind `parse`: turns one Python function's AST into MindSpore-shaped
// ANF FuncGraphs (block graphs for control flow, unrolled `for`s). `parse` builds the entry
// graph; symbol_resolve builds the graphs of the functions, methods and sub-cells the
// program calls. See README.md ("After parse") for the IR produced.
#pragma once

#include <map>
#include <string>

#include "compiler/frontend_state.h"

namespace irscope::compiler {

struct FunctionSpec {
    const interp::FunctionObject* fn = nullptr;
    interp::Value self;     // the bound instance of a method (Null for a plain function)
    std::string graphName;  // "Net_construct", "helper"
    std::string scope;      // scope of its nodes: "Default", "Default/fc-Dense"
    bool entry = false;     // bind the call's arguments (GraphCall::args) and fill `inputs`
    interp::Value constantsFrom;  // lazy_inline reuse (see HostEntry::constantsFrom)
    // A called function's tuple/list parameters whose length the call site knows (by
    // parameter name; *args by its name): loops over them unroll as over a display.
    std::map<std::string, std::int64_t> argLengths;
};

// Builds the function's graphs into `m`; returns its main graph. Throws CompileError.
ir::FuncGraph* buildFunctionGraph(FrontendState& s, ir::Module& m, const FunctionSpec& spec);

// "Net_construct" for Net.construct, "helper" for a function, as MindSpore names them.
std::string graphNameFor(interp::Interpreter& I, const interp::FunctionObject& fn,
                         const interp::Value& self);

}  // namespace irscope::compiler
