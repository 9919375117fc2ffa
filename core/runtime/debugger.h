// The debugger: an ExecObserver that stops a run of compiled graphs at breakpoints,
// watchpoints and steps, and lets a front end (the CLI's `debug`, the GUI) inspect every
// computed tensor while the run waits. Qt-free; its callbacks suit a queued Qt signal.
//
// Threads: the run executes on a worker thread (start() makes one, or any thread that runs an
// Executor with this observer). At a stop the observer blocks that thread on a condition
// variable until the controller calls resume() or cancel(), or stops the job's token; wait()
// lets the controller block until the next stop or the end of the job. Every public member
// is thread-safe. Inspection (inspect, listing, resolve) runs on the stopped thread.
//
//   Debugger dbg;
//   dbg.addBreakpoint("AddN");                  // an op type
//   dbg.addBreakpoint("net.py:12");             // a source line
//   dbg.addWatchpoint("%5", "nan");             // a node's output
//   dbg.start([&] { runScriptWith(dbg); });     // ExecOptions::observer = &dbg
//   while (dbg.wait() == Debugger::State::Stopped) {
//       show(*dbg.stopInfo(), dbg.inspect("%3"));
//       dbg.resume({Debugger::Mode::Next});
//   }
//
// Locations (what a breakpoint, a watchpoint or `advance` names), as the user types them:
//   %12            the node printed as %12 in the .ir listing, in the graph the run is
//                  stopped in (before any stop: in the entry graph)
//   @GRAPH:%12     the same in the named graph (`@↻Net_construct:%0`)
//   AddN           every kernel of that op type
//   FILE:LINE      kernels from that source line (FILE by basename or path suffix): a
//                  breakpoint stops once each time execution reaches the line
//   NAME           a node by its debug name (`CNode_12`, `CNode_35$x`) or its fullname with
//                  scope (`Default/network-Net/Add-op0`)
// Locations are resolved again for every run, so they may name graphs not compiled yet.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/executor.h"

namespace irscope::runtime {

namespace debug {
struct Location;
}

// A command the debugger cannot do (bad location, unknown breakpoint, not stopped...); what()
// is the message for the user.
class DebugError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// MindInsight-style conditions on a node's output (every tensor in it, for a tuple).
enum class WatchCondition : std::uint8_t {
    Nan,      // some element is NaN
    Inf,      // some element is +-Inf
    Zero,     // every element is zero
    Changed,  // the value differs from the one it had when the node last ran
    Above,    // some element is > threshold
    Below,    // some element is < threshold
};
std::string_view watchConditionName(WatchCondition c);  // "nan", ..., "above"

struct Breakpoint {
    int id = 0;
    bool watch = false;    // a watchpoint (stops after the node ran) or a breakpoint (before)
    std::string location;  // as typed: "AddN", "%12", "net.py:7"
    std::string graph;     // for %N: the graph it was set in ("" = the entry graph)
    WatchCondition condition = WatchCondition::Nan;
    double threshold = 0.0;  // Above / Below
    bool enabled = true;
    std::uint64_t hits = 0;  // times it stopped a run
    // "breakpoint 1 at AddN", "watchpoint 2 on %5 (nan)"
    std::string describe() const;
};

// Statistics of a tensor (MindInsight's tensor summary): over the finite elements for
// min/max/mean; NaN and +-Inf counted apart. Bool counts as 0/1.
struct TensorSummary {
    ir::DType dtype = ir::DType::Float32;
    ir::Shape shape;
    std::size_t elements = 0;
    std::size_t nan = 0, posInf = 0, negInf = 0, zeros = 0;
    double min = 0.0, max = 0.0, mean = 0.0;  // 0 when no element is finite
};
TensorSummary summarize(const Tensor& t);

// Whether a node's source file (as its location gives it) is the file a user named: the
// same path, or one is a path suffix of the other ("net.py" names "models/net.py").
bool sourceFileMatches(std::string_view nodeFile, std::string_view wanted);

// A computed value as the debugger shows it.
struct ValueInfo {
    std::string name;  // how it was asked for: "%12", "%para1_x"
    std::string node;  // the node's line: "%12 = Add(%10, %11)"
    enum class Kind : std::uint8_t { Tensor, Tuple, Scalar, None } kind = Kind::None;
    TensorSummary summary;            // Tensor
    // Tensor: the value itself. It shares the run's buffer (no copy), so read it only while
    // the run stays stopped; clone() it to keep the values past a resume.
    std::optional<Tensor> tensor;
    std::vector<ValueInfo> elements;  // Tuple
    // Tensor: "Tensor[Float32] shape=(2, 3) min=... max=... mean=..."; Scalar: its text.
    std::string header;
    // The values in the Print operator's format (summarised with "..." past 1000 elements).
    std::string values;
    // Every line print shows, header then values (tuples element by element).
    std::string text() const;
};

enum class StopReason : std::uint8_t {
    Step,        // a step / next / stepi / nexti reached its end
    Breakpoint,  // before a kernel a breakpoint names
    Watchpoint,  // after a kernel whose output met a watch condition
    Finish,      // the graph `finish` was run in returned
    Advance,     // reached the location given to advance
    Pause,       // pause() was asked
};

struct FrameInfo {
    std::string graph;         // "Net_construct"
    std::string callSite;      // the caller's kernel line ("%0 = call @g(...)"); "" for the entry
    ir::SourceLocation where;  // the call site's source (line 0 when unknown)
};

// Where a run stopped. `node` is valid only while the run stays stopped there.
struct StopInfo {
    StopReason reason = StopReason::Step;
    int breakpoint = 0;        // Breakpoint / Watchpoint: the first that matched
    std::string detail;        // what the watch saw: "has NaN (2 of 4 elements)"
    bool afterKernel = false;  // stopped after the kernel ran (watchpoints, finish)
    const ir::CNode* node = nullptr;
    std::string nodeName;          // "%12"
    std::string nodeLine;          // "%12 = Log(%11)"
    std::string op;                // "Log"; "call" for a graph call
    std::string graph;             // the graph the kernel is in
    std::size_t index = 0;         // position in the graph's execution order (0-based)
    std::size_t orderSize = 0;     // kernels in that execution order (Return included)
    std::uint64_t step = 0;        // kernels started so far in this run
    std::uint64_t run = 0;         // runs seen by this debugger so far (1-based)
    std::string entryGraph;        // the run's entry graph
    std::string placement;         // "cpu" or a device
    ir::SourceLocation source;     // innermost source location (line 0 when unknown)
    std::vector<FrameInfo> stack;  // outermost first; back() is the kernel's graph
};

// One kernel of an execution order, for `list`.
struct ListedKernel {
    std::size_t index = 0;
    std::string line;  // "%3 = Mul(%para6_x, ...)"
    ir::SourceLocation source;
    bool current = false;
    bool breakpoint = false;  // an enabled breakpoint stops here
};

class Debugger final : public ExecObserver {
public:
    enum class State : std::uint8_t {
        Idle,     // no job, or a job between graph runs (host code running)
        Running,  // a graph run is executing
        Stopped,  // a graph run waits for resume()
        Finished  // start()'s job returned (or threw)
    };
    enum class Mode : std::uint8_t {
        Continue,         // until a breakpoint or watchpoint
        StepInstruction,  // stepi: one kernel, into graph calls
        NextInstruction,  // nexti: one kernel of this graph, over graph calls
        Step,             // step: to a kernel on another source line, into calls
        Next,             // next: to another source line of this graph, over calls
        Finish,           // finish: until the current graph returns to its caller
        Advance,          // advance LOCATION: until a kernel at the location
    };
    struct Resume {
        Mode mode = Mode::Continue;
        std::string location;  // Advance
    };
    // Text of a source file by the name a node's location gives (for FILE:LINE checks and
    // `list`); nullopt when unknown.
    using SourceLookup = std::function<std::optional<std::string>(std::string_view file)>;

    Debugger();
    ~Debugger() override;
    Debugger(const Debugger&) = delete;
    Debugger& operator=(const Debugger&) = delete;

    void setSourceLookup(SourceLookup lookup);
    // Called on the executing thread at every stop, before it blocks (a GUI emits a queued
    // signal here). Must not call resume() and wait for it synchronously.
    void setStopCallback(std::function<void(const StopInfo&)> cb);
    // Called on the executing thread when a graph run starts / ends (run number, entry graph).
    void setRunCallbacks(std::function<void(std::uint64_t, const std::string&)> started,
                         std::function<void(std::uint64_t, bool cancelled)> finished);
    // Called on the executing thread with warnings, once per breakpoint and module: a
    // location that cannot name anything in a run's module (an unknown %N or graph).
    void setWarningCallback(std::function<void(const std::string&)> cb);

    // --- breakpoints and watchpoints (any time) ---
    // Returns the new id. Throws DebugError for a malformed location, or one that names
    // nothing in the graph the run is stopped in (an unknown %N, a line past the end of its
    // file, an unknown file). `note` (optional) says when the location is pending: it
    // matches no kernel yet.
    int addBreakpoint(std::string_view location, std::string* note = nullptr);
    // `condition`: "nan", "inf", "zero", "changed", "above V", "below V".
    int addWatchpoint(std::string_view location, std::string_view condition,
                      std::string* note = nullptr);
    void setEnabled(int id, bool enabled);  // throws DebugError for an unknown id
    void remove(int id);                    // throws DebugError for an unknown id
    std::vector<Breakpoint> breakpoints() const;

    // --- control ---
    // Runs `job` on a worker thread (e.g. a script whose compiled graphs use this observer);
    // `first` says how the first graph run begins (StepInstruction stops at its first kernel).
    // `stop` is the job's cancellation (the token the job's script runs with): request_stop()
    // on its source cancels the current graph run, waking it when stopped, and every later one.
    void start(std::function<void()> job, Resume first, std::stop_token stop = {});
    void start(std::function<void()> job) { start(std::move(job), Resume{Mode::Continue, {}}); }
    // Blocks until a stop (Stopped), the job's end (Finished) or, with a timeout, until it
    // passes (then the current state). Idle/Running are returned only on timeout.
    State wait(std::optional<std::chrono::milliseconds> timeout = std::nullopt);
    // Continues a stopped run. When not stopped, sets how the next run begins (Continue or
    // a step that stops at its first kernel). Throws DebugError for finish in the outermost
    // graph or an advance location that names nothing.
    void resume(const Resume& r);
    void pause();   // a running run stops before its next kernel
    // The current graph run (or the next one) stops with ExecCancelled: request_stop() on
    // the run's std::stop_source; later runs of the job go on (the CLI's `kill`).
    void cancel();
    // Waits for the job to end (after cancel(), for instance); rethrows nothing.
    void join();
    // What start()'s job threw, if it threw (its message); empty otherwise.
    std::string jobError() const;

    State state() const;
    std::optional<StopInfo> stopInfo() const;  // while stopped
    std::uint64_t runs() const;

    // --- inspection (while stopped) ---
    // The value of a node at the stop: "%12", "@GRAPH:%3", "%para1_x", a node name; no
    // argument (empty): the current kernel's output (after it ran) or its inputs' nodes.
    ValueInfo inspect(std::string_view location) const;
    // `radius` kernels either side of the current one in its graph's execution order.
    std::vector<ListedKernel> listing(std::size_t radius = 5) const;
    // The source lines around the current kernel's innermost location, numbered.
    std::string sourceListing(int radius = 5) const;

    // --- ExecObserver (the executing thread) ---
    void runStarted(const ir::Module& m, const ExecInspector& ex) override;
    void runFinished() override;
    void beforeKernel(const KernelEvent& e, const ExecInspector& ex) override;
    void afterKernel(const KernelEvent& e, const ops::KernelArg& output,
                     const ExecInspector& ex) override;

    struct Impl;  // debugger_*.cpp

private:
    int addPoint(Breakpoint b, const debug::Location& loc, std::string* note);
    std::unique_ptr<Impl> impl_;
};

}  // namespace irscope::runtime
