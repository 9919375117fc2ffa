// The first divergent kernel: one script run under two settings (a and b: LOAD_ELIM,
// CELL_REUSE, the device, any MS_DEV_* setting), every kernel of every compiled graph traced
// with its output (session/kernel_trace.h), the kernels of each graph run matched across the
// two compiled modules (ir/ir_diff.h's node matching; a kernel with no counterpart node, as
// in lazy inline's CR_ graph against its inlined copies, by the same execution of the same op
// from the same source line), and their outputs compared in a's execution order. The first matched
// kernel whose outputs differ beyond the tolerance (numpy.allclose's: |a - b| <= atol + rtol * |b|,
// NaN equal to NaN) is reported with both values, both IR neighbourhoods, its source line, the
// nodes that feed it on each side with the values they held, and, for a known pattern, a one-line
// explanation: a Load read a Parameter that an Assign wrote before the Load's user ran, with no
// TensorMove copying it (MS_DEV_SIDE_EFFECT_LOAD_ELIM=3 inserts none where levels 0-2 do).
//
//   DivergenceFinder finder;
//   DivergenceResult r = finder.run(source, "net.py", {parseRunSide("load-elim=1"),
//                                                      parseRunSide("load-elim=3")}, {});
//   if (r.first) std::cout << formatDivergence(r);
//
// Threads: run() blocks (the two sides run at once, on the calling thread and one more,
// unless both use a device); request_stop() on the source of options.script.stop, from any
// thread, stops both runs at their next step (the result is then `cancelled`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "passes/settings.h"
#include "session/run_script.h"
#include "store/session.h"

namespace irscope::session {

// The settings one side starts with, over the environment.
struct RunSide {
    std::string label;           // as given: "load-elim=1"
    passes::Settings overrides;  // MS_DEV_SIDE_EFFECT_LOAD_ELIM=1 ...
    std::string device = "cpu";  // "cpu", "opencl", or a plugin device's name
    // Set: the run's mode, whatever the script's set_context says (modules::MsContext's
    // kGraphMode / kPynativeMode). Sides in different modes are compared line by line.
    std::optional<std::int64_t> mode;
};

// Parses a side: comma-separated KEY=VALUE items, KEY one of load-elim (0-3), cell-reuse
// (0-2), device (a device name), mode (graph or pynative) or an MS_DEV_* / MS_* setting name. Returns nullopt and sets
// `error` for anything else.
std::optional<RunSide> parseRunSide(std::string_view spec, std::string* error);

struct Tolerance {
    double rtol = 1e-5;  // numpy.allclose's defaults
    double atol = 1e-8;
};

// Whether two outputs agree: same structure, dtypes and shapes, and every element within the
// tolerance (integers and booleans exactly). When not, `why` says how they differ.
bool valuesAgree(const ops::KernelArg& a, const ops::KernelArg& b, const Tolerance& tol,
                 std::string* why = nullptr);

// A node feeding the divergent kernel, with the value it held.
struct UpstreamNode {
    std::string line;   // "%5(CNode_7) = Load(%para2_param, %4)"
    std::string value;  // the value it computed (Print format); "" when unknown
    int depth = 1;      // 1: a direct input; 2: an input's input...
    // For a Load whose Parameter an Assign wrote before the kernel ran: what the kernel
    // really read through it ("2", the Parameter's value then).
    std::string readAs;
};

// The divergent kernel on one side.
struct DivergentKernel {
    std::size_t run = 0;        // the graph run (index into Session::runs)
    std::size_t compile = 0;    // its compile (index into Session::compiles)
    std::string graph;          // "BackwardNet_construct", as printed after @
    std::string node;           // "%14"
    std::string line;           // "%14(CNode_30) = AddN(%13)"
    std::string op;             // "AddN"
    std::string scope;          // "Default/AddN-op0"
    ir::SourceLocation source;  // innermost; line 0 when unknown
    std::uint64_t step = 0;     // kernels started in the graph run when it ran
    std::uint32_t occurrence = 0;
    std::string placement;                   // "cpu" or a device
    std::string value;                       // its output (Print format); "" when not recorded
    std::vector<std::string> neighbourhood;  // the .ir lines of its inputs, itself, its users
    std::vector<UpstreamNode> upstream;      // nearest first
};

struct Divergence {
    enum class Kind : std::uint8_t {
        Value,    // a matched kernel computed different outputs
        Missing,  // a kernel ran on one side and its counterpart did not (as often)
        Runs,     // the scripts ran different numbers of compiled graphs
        Output,   // no kernel differs, but a graph returned other values or the exit differs
        Line,     // sides in different modes: a line of the script computed different values
    };
    Kind kind = Kind::Value;
    std::array<DivergentKernel, 2> sides;  // Value and Missing (Missing: sides[1] empty)
    std::string detail;                    // "max |a - b| = 4 (element 0: 3 vs 6)"
    std::string explanation;               // a known pattern in one line; "" when none
    // Kind::Line: the line's visit on each side (sides[i].source, .op, .value, .occurrence),
    // how often each side visited it, and whether only the final values could be compared.
    std::array<std::size_t, 2> visits{};
    bool finalOnly = false;
};

// What a line printed on each side of a comparison by line, when the two differ.
struct PrintedLine {
    int line = 0;  // 0: outside the script's lines
    std::string text;  // the script's line
    std::array<std::string, 2> printed;
    std::array<bool, 2> compiled{};  // a Print kernel of a compiled graph printed it
};

struct DivergenceResult {
    std::array<std::shared_ptr<store::Session>, 2> sessions;  // never null after run()
    std::array<interp::RunResult, 2> results;
    std::array<std::string, 2> labels;
    std::optional<Divergence> first;
    std::size_t graphRuns = 0;  // graph runs compared
    std::size_t compared = 0;   // kernel pairs compared (up to the first difference)
    std::size_t unmatched = 0;  // kernels of a with no counterpart in b (skipped)
    bool truncated = false;     // a trace ran out of its byte budget (values not compared)
    bool cancelled = false;
    double seconds = 0.0;
    // The sides ran in different modes (PyNative against GRAPH_MODE): their ops and kernels
    // were compared per source line (session/line_trace.h) instead of kernel by kernel.
    bool byLine = false;
    std::size_t lines = 0;     // byLine: lines both sides computed
    std::size_t oneSided = 0;  // byLine: lines only one side computed (folded or eliminated)
    std::size_t differing = 0;  // byLine: value pairs that differ (compared counts the equal ones)
    std::vector<PrintedLine> prints;  // byLine: lines whose printed text differs
};

struct DivergenceOptions {
    ScriptOptions script;  // max steps, limits, statistics history, stop; settings come per side
    Tolerance tolerance;
    std::size_t maxTraceBytes = std::size_t{1} << 30;  // per side
};

class DivergenceFinder {
public:
    DivergenceFinder() = default;
    DivergenceFinder(const DivergenceFinder&) = delete;
    DivergenceFinder& operator=(const DivergenceFinder&) = delete;

    // Runs `source` under both sides and finds the first divergent kernel. Throws
    // std::invalid_argument for a device that cannot be found.
    DivergenceResult run(const std::string& source, const std::string& path,
                         const std::array<RunSide, 2>& sides, const DivergenceOptions& options);
};

// The report irscope-cli diverge prints: both settings, what was compared and the first
// difference with both values, neighbourhoods, source line, upstream nodes and explanation
// (or that nothing differs).
std::string formatDivergence(const DivergenceResult& r);
// The same for sides compared by source line (r.byLine): the first divergent line with each
// side's value and what the sides printed differently, explained.
std::string formatLineDivergence(const DivergenceResult& r);
// Why the sides' prints differ when one compiled a print into a Print operator and the other
// ran Python's print (r.prints); "" when no print was compiled on one side only.
std::string explainPrints(const DivergenceResult& r);

}  // namespace irscope::session
