// FrontendState: what `parse` and `symbol_resolve` share for one graph-mode call (see
// frontend_passes.h): the interpreter, the call, the host objects the IR refers to, the
// graphs already made per host function (so a sub-cell called twice has one graph), the
// entry inputs and weights, and the compile's budgets.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/frontend_passes.h"
#include "compiler/host_objects.h"
#include "ir/module.h"
#include "ir/node.h"

namespace irscope::compiler {

// The Python signature of a graph made from a function: parameter names in order and the
// default values (ir constants) of the trailing ones, for binding keywords and defaults
// when symbol_resolve turns a call into a direct graph call.
struct GraphSignature {
    std::vector<std::string> names;      // positional..., *args (one tuple parameter), keyword-only...
    std::vector<ir::ValuePtr> defaults;  // per name; null: required
    std::size_t positional = 0;          // how many names take positional arguments
    int varargs = -1;                    // index of the *args parameter, -1 when none
};

class FrontendState {
public:
    explicit FrontendState(GraphCall c);
    FrontendState(const FrontendState&) = delete;
    FrontendState& operator=(const FrontendState&) = delete;

    interp::Interpreter& I;
    GraphCall call;

    std::vector<interp::Value> inputs;   // entryInputs
    std::vector<WeightBinding> weights;  // entryWeights

    // --- host objects ---------------------------------------------------------------------
    ir::ValuePtr hostValue(HostEntry e, std::string text);
    // The entry behind a Host value, or null when `v` is not one of ours.
    const HostEntry* host(const ir::Value& v) const;

    // --- graphs -----------------------------------------------------------------------------
    std::string uniqueGraphName(const std::string& base);
    void countGraph();  // throws CompileError past CompileLimits::maxGraphs
    void countUnroll(const ir::SourceLocation& where);  // one unrolled iteration

    std::map<std::pair<const void*, const void*>, ir::FuncGraph*> fnGraphs;  // (function, self)
    // Graphs of a function called with tuples or lists of known length for the parameters
    // its loops iterate: (function, self, "name=length;..."), one graph per lengths.
    std::map<std::tuple<const void*, const void*, std::string>, ir::FuncGraph*> fnGraphsByLength;
    // The known length of a tuple/list parameter of such a graph (what its loops unroll).
    std::map<const ir::Node*, std::int64_t> paramLengths;
    // The length of a tuple/list node known without running anything: a tuple or list
    // display (MakeTuple/MakeList), a tuple or list constant, or a parameter in
    // paramLengths; -1 otherwise.
    std::int64_t sequenceLength(const ir::Node* n) const;
    std::map<const ir::FuncGraph*, GraphSignature> signatures;
    std::map<const void*, ir::Parameter*> weightParams;  // host Parameter object -> entry param

private:
    std::vector<HostEntry> hosts_;
    std::set<std::string> names_;
    std::map<std::string, int> lastSuffix_;
    std::size_t graphs_ = 0;
    std::size_t unrolled_ = 0;
};

// Where a span of a script is, as the IR's debug info records it.
ir::SourceLocation sourceLocation(const interp::ScriptUnit& unit, const ast::Span& s);

}  // namespace irscope::compiler
