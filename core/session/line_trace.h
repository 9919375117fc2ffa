// LineTrace: what each line of a script computed, in the order it ran — the primitives PyNative
// mode ran eagerly (a modules::EagerObserver) and the kernels of compiled graphs (a
// runtime::ExecObserver), each credited to the innermost line of the script file it comes from
// (an eager op: the innermost running frame of the script; a kernel: its debug trace), and
// what was printed, by line. Two traces compared line by line (compareLines) put PyNative mode
// against GRAPH_MODE, where kernels cannot be matched node for node: graph mode folds,
// fuses, eliminates and reorders what PyNative runs op by op.
//
// A line's results are its visits: the ops of the line that run one after the other, and in a
// graph run also a later kernel of the line that reads a kernel of the line's latest visit,
// make one visit, whose value is its last op's output (`out = x * w + b` gives the Add's, not
// the Mul's). Nodes that compute nothing (Load, UpdateState, Depend, MakeTuple, TupleGetItem,
// TensorMove, graph calls) and Print are not results. Kernels of a gradient (scope
// `Gradients/...`) are kept apart from the forward kernels of the same line.
//
// Threads: filled on the script's thread; read after the run.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/modules/modules.h"
#include "ops/op_registry.h"
#include "runtime/executor.h"

namespace irscope::session {

struct LineResult {
    int line = 0;                         // 1-based line of the script
    bool backward = false;                // a kernel of a gradient (scope Gradients/...)
    std::uint32_t occurrence = 0;         // visits of (line, backward) before this one
    std::string op;                       // the visit's last op
    std::size_t ops = 0;                  // ops in the visit
    std::optional<ops::KernelArg> value;  // a deep copy; nullopt past the byte budget
    bool compiled = false;                // a kernel of a compiled graph (false: an eager op)
    std::size_t graphRun = 0;             // compiled: the graph run (index into Session::runs)
    std::string graph;                    // compiled: the graph the last kernel is in
    std::string scope;                    // compiled: the last kernel's scope
};

// Text printed while a line ran: print() in PyNative, a Print kernel in a graph.
struct LinePrint {
    int line = 0;  // 0: printed outside the script's own lines
    bool compiled = false;
    std::string text;
};

class LineTrace final : public runtime::ExecObserver, public modules::EagerObserver {
public:
    // `scriptPath`: the script's name as the run gives it (its frames' and nodes' file).
    explicit LineTrace(std::string scriptPath, std::size_t maxBytes = std::size_t{1} << 30)
        : path_(std::move(scriptPath)), maxBytes_(maxBytes) {}

    const std::vector<LineResult>& results() const { return results_; }
    const std::vector<LinePrint>& prints() const { return prints_; }
    bool truncated() const { return truncated_; }

    void afterOp(interp::Interpreter& I, const ops::OpDef& op,
                 const ops::KernelArg& output) override;
    void printed(interp::Interpreter& I, std::string_view text) override;

    void runStarted(const ir::Module& m, const runtime::ExecInspector& ex) override;
    void beforeKernel(const runtime::KernelEvent& e, const runtime::ExecInspector& ex) override;
    void afterKernel(const runtime::KernelEvent& e, const ops::KernelArg& output,
                     const runtime::ExecInspector& ex) override;

    // Whether an op computes nothing a line comparison should look at.
    static bool transparent(std::string_view op);

private:
    // Adds an op's output to the visit it belongs to (`join`: a result to extend), or opens one.
    void record(int line, bool backward, std::string_view op, const ops::KernelArg& output,
                std::optional<std::size_t> join);
    std::optional<ops::KernelArg> copy(const ops::KernelArg& v);

    std::string path_;
    std::size_t maxBytes_;
    std::size_t bytes_ = 0;
    bool truncated_ = false;
    std::vector<LineResult> results_;
    std::vector<LinePrint> prints_;
    // (line, backward) -> visits so far, and the latest visit's result.
    std::unordered_map<std::int64_t, std::pair<std::uint32_t, std::size_t>> visits_;
    std::optional<std::size_t> last_;  // the result the previous op went to
    // This graph run: which result each kernel went to.
    std::unordered_map<const ir::Node*, std::size_t> resultOf_;
    std::size_t graphRuns_ = 0;
    const ir::CNode* printing_ = nullptr;  // a Print kernel running
    int printLine_ = 0;
    // The kernel being recorded (for the result's graph and scope).
    const ir::CNode* kernel_ = nullptr;
};

// Where two line traces first differ.
struct LineDivergence {
    int line = 0;
    std::string text;  // the script's line
    bool backward = false;
    std::uint32_t occurrence = 0;
    std::array<const LineResult*, 2> sides{};  // into the traces compared
    std::array<std::size_t, 2> visits{};       // visits of (line, backward) on each side
    bool finalOnly = false;  // the sides visit the line differently often: final values compared
    std::string detail;
};

struct LineComparison {
    std::size_t lines = 0;      // (line, backward) keys both sides computed
    std::size_t compared = 0;   // value pairs compared
    std::size_t differing = 0;  // of which differ
    std::size_t oneSided = 0;   // keys only one side computed (folded, eliminated)
    std::optional<LineDivergence> first;
};

struct Tolerance;

// Line `line` (1-based) of `source`, as written; "" past the end.
std::string sourceLine(const std::string& source, int line);

// Compares a's and b's results per (line, backward): the k-th visit against the k-th when
// both sides visit the line as often, otherwise the last visits. The first difference is the
// one a reached first.
LineComparison compareLines(const LineTrace& a, const LineTrace& b, const Tolerance& tol,
                            const std::string& source);

}  // namespace irscope::session
