// The debugger's internals, shared by debugger*.cpp (not part of the API).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/ir_text.h"
#include "ir/local_names.h"
#include "ir/module.h"
#include "runtime/debugger.h"

namespace irscope::runtime::debug {

// What onStoppedThread throws when no run is stopped.
class NotStopped : public DebugError {
public:
    NotStopped() : DebugError("The program is not stopped.") {}
};

// A location as typed (see debugger.h).
struct Location {
    enum class Kind : std::uint8_t { Node, Parameter, Word, SourceLine };
    Kind kind = Kind::Word;
    std::string graph;       // Node: "@GRAPH:" given ("" otherwise)
    std::size_t number = 0;  // Node: N of %N; Parameter: k of %para<k>
    std::string text;        // Word: the word; SourceLine: the file; Parameter: its name
    int line = 0;            // SourceLine
};
// Throws DebugError for malformed text. Parameters are accepted only with `allowParams`.
Location parseLocation(std::string_view text, bool allowParams = false);
// "nan", "above 3" -> condition and threshold. Throws DebugError.
std::pair<WatchCondition, double> parseWatchCondition(std::string_view text);

// What the debugger knows about one module, built on its first run.
struct ModuleIndex {
    explicit ModuleIndex(const ir::Module& m);
    const ir::Module& module;
    ir::LocalNames names;
    ir::NodeLines lines;
    std::vector<const ir::FuncGraph*> graphs;  // print order

    // A graph by its printed name (with or without '@'), or its own name.
    const ir::FuncGraph* graph(std::string_view name) const;
    std::string graphName(const ir::FuncGraph* g) const;
    // "%12", "Return", "%?"
    std::string nameOf(const ir::Node& n) const;
    // The node line, cut to `width` characters with "..." (0: whole).
    std::string lineOf(const ir::CNode& c, std::size_t width = 0) const;
};

// The innermost known source location of a node (line 0 when none).
ir::SourceLocation innermostSource(const ir::Node& n);

// The kernels `loc` names in the index's module. `graphHint` is the graph a bare %N is in
// ("" = the entry). `firstOfLine`: for a source line, only the first kernel of each run of
// consecutive kernels on it (where execution arrives at the line). Sets `error` (and
// returns nothing) when the location cannot name anything there (unknown graph or %N).
std::vector<const ir::CNode*> resolveKernels(const Location& loc, const std::string& graphHint,
                                             const ModuleIndex& idx, const ExecInspector& ex,
                                             bool firstOfLine, std::string* error);
// Any node (parameters included) for inspection; null with `error` set when none.
const ir::Node* resolveNode(const Location& loc, const std::string& graphHint,
                            const ModuleIndex& idx, std::string* error);

// Evaluates a watch condition on a kernel output. `previous` holds the tensors of the last
// evaluation for Changed (updated here). Returns the detail text when it triggers.
std::optional<std::string> checkWatch(WatchCondition c, double threshold,
                                      const ops::KernelArg& output, std::vector<Tensor>* previous);

ValueInfo describeValue(const ops::KernelArg& a, std::string name);
std::string formatNumber(double v);

}  // namespace irscope::runtime::debug

namespace irscope::runtime {

struct Debugger::Impl {
    mutable std::mutex mu;
    mutable std::condition_variable cv;

    // configuration
    SourceLookup sourceLookup;
    std::function<void(const StopInfo&)> stopCallback;
    std::function<void(std::uint64_t, const std::string&)> runStartedCallback;
    std::function<void(std::uint64_t, bool)> runFinishedCallback;
    std::function<void(const std::string&)> warningCallback;

    // breakpoints and watchpoints
    std::vector<Breakpoint> points;
    int nextId = 1;
    std::uint64_t pointsGeneration = 1;

    // the job
    State state = State::Idle;
    bool jobRunning = false;
    std::thread worker;
    std::string jobError;

    // the current run
    std::atomic<bool> active{false};  // something may stop the run (fast path when false)
    const ir::Module* module = nullptr;
    const ExecInspector* inspector = nullptr;
    std::uint64_t runCount = 0;
    std::map<const ir::Module*, std::unique_ptr<debug::ModuleIndex>> indexes;
    debug::ModuleIndex* index = nullptr;
    std::uint64_t resolvedGeneration = 0;
    std::unordered_map<const ir::CNode*, std::vector<int>> breakAt, watchAt;
    std::map<std::pair<int, const ir::CNode*>, std::vector<Tensor>> watchHistory;
    std::set<std::pair<int, const ir::Module*>> warned;  // (breakpoint, module) reported
    std::vector<std::string> warnings;                   // to report once mu is released

    // stepping
    Mode mode = Mode::Continue;
    std::size_t startDepth = 0;  // 0: stop at the first kernel of the next run
    ir::SourceLocation startSource;
    std::string advanceLocation;  // Advance: as typed
    std::string advanceGraph;
    std::unordered_set<const ir::CNode*> advanceAt;
    bool pauseRequested = false;
    // Cancellation of the current graph run: cancel() and the job's stop token call
    // request_stop() on it. A fresh source replaces it once a run delivered its cancel,
    // unless the whole job is stopping (closing).
    std::stop_source runStop;
    bool cancelDelivered = false;
    bool closing = false;  // the job's token was stopped or the debugger is being destroyed
    // Wakes a stopped run when the job's token (start()) is stopped; reset by start().
    std::optional<std::stop_callback<std::function<void()>>> jobStopWake;

    // the stop
    std::optional<StopInfo> stop;
    const KernelEvent* event = nullptr;
    std::optional<ops::KernelArg> output;  // after-kernel stops
    std::thread::id stoppedThread;
    bool resumeRequested = false;
    Resume resumeWith;
    struct Task {
        std::function<void()> fn;
        bool done = false;
        std::exception_ptr error;
    };
    std::deque<Task*> tasks;

    // Helpers (mu held unless said otherwise).
    void updateActive();
    // The job's stop token was stopped: cancels the current run and every later one (mu not held).
    void stopJob();
    void ensureResolved(const ExecInspector& ex);
    debug::ModuleIndex& indexFor(const ir::Module& m);
    StopInfo makeStop(StopReason reason, const KernelEvent& e, const ExecInspector& ex);
    // Blocks the executing thread at a stop until resumed; throws ExecCancelled on cancel.
    void stopHere(std::unique_lock<std::mutex>& lk, StopInfo info, const KernelEvent& e,
                  const ExecInspector& ex);
    void applyResume(const Resume& r, const KernelEvent& e);
    // The start of beforeKernel/afterKernel: false at once when nothing can stop the run;
    // else locks `lk`, delivers a pending cancel, resolves the points (false when no run
    // was reported started). mu not held.
    bool enterKernel(std::unique_lock<std::mutex>& lk, const ExecInspector& ex);
    // Runs `fn` on the stopped thread (directly when called there); throws DebugError when
    // no run is stopped. Takes the lock itself (mu not held).
    void onStoppedThread(const std::function<void()>& fn);
    // The graph a bare %N means now: the stop's graph, else "" (the entry).
    std::string currentGraphName() const;
    Breakpoint* find(int id);
};

}  // namespace irscope::runtime
