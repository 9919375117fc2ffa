// The debugger's control: breakpoints, stepping, the stop/resume handshake between the
// executing thread and its controller, and the observer hooks (debugger.h).
#include "runtime/debugger.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "runtime/debugger_impl.h"

namespace irscope::runtime {

using debug::Location;

namespace {

bool sameLine(const ir::SourceLocation& a, const ir::SourceLocation& b) {
    return a.line == b.line && a.file == b.file;
}

}  // namespace

// --- Impl helpers (mu held) ---------------------------------------------------------------

void Debugger::Impl::updateActive() {
    const bool points_ =
        std::any_of(points.begin(), points.end(), [](const Breakpoint& b) { return b.enabled; });
    active.store(points_ || mode != Mode::Continue || pauseRequested || cancelRequested,
                 std::memory_order_release);
}

Breakpoint* Debugger::Impl::find(int id) {
    const auto it =
        std::find_if(points.begin(), points.end(), [&](const Breakpoint& b) { return b.id == id; });
    return it == points.end() ? nullptr : &*it;
}

debug::ModuleIndex& Debugger::Impl::indexFor(const ir::Module& m) {
    auto& slot = indexes[&m];
    if (!slot) {
        slot = std::make_unique<debug::ModuleIndex>(m);
    }
    return *slot;
}

std::string Debugger::Impl::currentGraphName() const {
    return stop ? stop->graph : std::string();
}

void Debugger::Impl::ensureResolved(const ExecInspector& ex) {
    if (resolvedGeneration == pointsGeneration || index == nullptr) {
        return;
    }
    breakAt.clear();
    watchAt.clear();
    for (const Breakpoint& b : points) {
        try {
            const Location loc = debug::parseLocation(b.location);
            std::string error;
            for (const ir::CNode* c :
                 debug::resolveKernels(loc, b.graph, *index, ex, !b.watch, &error)) {
                (b.watch ? watchAt : breakAt)[c].push_back(b.id);
            }
            if (!error.empty() && warned.insert({b.id, &index->module}).second) {
                std::string what = b.describe();
                what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
                warnings.push_back("warning: " + what + " names nothing in graph run " +
                                   std::to_string(runCount) + ": " + error);
            }
        } catch (const DebugError&) {
            // Checked when it was added; nothing to resolve.
        }
    }
    advanceAt.clear();
    if (mode == Mode::Advance) {
        try {
            for (const ir::CNode* c :
                 debug::resolveKernels(debug::parseLocation(advanceLocation), advanceGraph, *index,
                                       ex, true, nullptr)) {
                advanceAt.insert(c);
            }
        } catch (const DebugError&) {
        }
    }
    resolvedGeneration = pointsGeneration;
}

void Debugger::Impl::onStoppedThread(const std::function<void()>& fn) {
    std::unique_lock lk(mu);
    if (state != State::Stopped || !stop) {
        throw debug::NotStopped();
    }
    if (std::this_thread::get_id() == stoppedThread) {
        lk.unlock();
        fn();
        return;
    }
    Task task{fn, false, nullptr};
    tasks.push_back(&task);
    cv.notify_all();
    cv.wait(lk, [&] { return task.done; });
    if (task.error) {
        std::rethrow_exception(task.error);
    }
}

void Debugger::Impl::stopHere(std::unique_lock<std::mutex>& lk, StopInfo info, const KernelEvent& e,
                              const ExecInspector& ex) {
    mode = Mode::Continue;
    advanceAt.clear();
    stop = std::move(info);
    event = &e;
    inspector = &ex;
    stoppedThread = std::this_thread::get_id();
    resumeRequested = false;
    state = State::Stopped;
    if (stopCallback) {
        const auto cb = stopCallback;
        const StopInfo copy = *stop;
        lk.unlock();
        cb(copy);
        lk.lock();
    }
    cv.notify_all();
    for (;;) {
        cv.wait(lk, [&] { return resumeRequested || cancelRequested || !tasks.empty(); });
        while (!tasks.empty()) {
            Task* t = tasks.front();
            tasks.pop_front();
            lk.unlock();
            try {
                t->fn();
            } catch (...) {
                t->error = std::current_exception();
            }
            lk.lock();
            t->done = true;
            cv.notify_all();
        }
        if (cancelRequested || resumeRequested) {
            break;
        }
    }
    const Resume r = resumeWith;
    stop.reset();
    output.reset();
    event = nullptr;
    stoppedThread = {};
    state = State::Running;
    if (cancelRequested) {
        cancelDelivered = true;
        updateActive();
        throw ExecCancelled();
    }
    applyResume(r, e);
}

void Debugger::Impl::applyResume(const Resume& r, const KernelEvent& e) {
    mode = r.mode;
    startDepth = e.stack.empty() ? 1 : e.stack.size();
    startSource = debug::innermostSource(*e.node);
    if (mode == Mode::Advance) {
        advanceLocation = r.location;
        advanceGraph = e.node->graph() != nullptr && index != nullptr
                           ? index->graphName(e.node->graph())
                           : std::string();
        resolvedGeneration = 0;  // resolve the target with the points
    }
    updateActive();
}

// --- construction and configuration -------------------------------------------------------

Debugger::Debugger() : impl_(std::make_unique<Impl>()) {}

Debugger::~Debugger() {
    {
        std::lock_guard lk(impl_->mu);
        if (impl_->jobRunning) {
            impl_->closing = true;  // every later run of the job is cancelled too
            impl_->cancelRequested = true;
            impl_->updateActive();
            impl_->cv.notify_all();
        }
    }
    join();
}

void Debugger::setSourceLookup(SourceLookup lookup) {
    std::lock_guard lk(impl_->mu);
    impl_->sourceLookup = std::move(lookup);
}

void Debugger::setWarningCallback(std::function<void(const std::string&)> cb) {
    std::lock_guard lk(impl_->mu);
    impl_->warningCallback = std::move(cb);
}

void Debugger::setStopCallback(std::function<void(const StopInfo&)> cb) {
    std::lock_guard lk(impl_->mu);
    impl_->stopCallback = std::move(cb);
}

void Debugger::setRunCallbacks(std::function<void(std::uint64_t, const std::string&)> started,
                               std::function<void(std::uint64_t, bool)> finished) {
    std::lock_guard lk(impl_->mu);
    impl_->runStartedCallback = std::move(started);
    impl_->runFinishedCallback = std::move(finished);
}

// --- breakpoints --------------------------------------------------------------------------

namespace {

// Checks a FILE:LINE against the source, when the source is known.
void checkSourceLine(const Location& loc, const Debugger::SourceLookup& lookup) {
    if (loc.kind != Location::Kind::SourceLine || !lookup) {
        return;
    }
    const std::optional<std::string> text = lookup(loc.text);
    if (!text) {
        throw DebugError("No source file named " + loc.text + ".");
    }
    const auto lines = static_cast<int>(std::count(text->begin(), text->end(), '\n') +
                                        (!text->empty() && text->back() != '\n' ? 1 : 0));
    if (loc.line > lines) {
        throw DebugError("Line " + std::to_string(loc.line) + " is out of range for \"" + loc.text +
                         "\" (" + std::to_string(lines) + " lines).");
    }
}

}  // namespace

int Debugger::addBreakpoint(std::string_view location, std::string* note) {
    Breakpoint b;
    b.location = std::string(location.substr(0, location.find_last_not_of(" \t") + 1));
    b.location.erase(0, b.location.find_first_not_of(" \t"));
    const Location loc = debug::parseLocation(b.location);
    return addPoint(std::move(b), loc, note);
}

int Debugger::addWatchpoint(std::string_view location, std::string_view condition,
                            std::string* note) {
    Breakpoint b;
    b.watch = true;
    b.location = std::string(location.substr(0, location.find_last_not_of(" \t") + 1));
    b.location.erase(0, b.location.find_first_not_of(" \t"));
    const Location loc = debug::parseLocation(b.location);
    std::tie(b.condition, b.threshold) = debug::parseWatchCondition(condition);
    return addPoint(std::move(b), loc, note);
}

int Debugger::addPoint(Breakpoint b, const debug::Location& loc, std::string* note) {
    SourceLookup lookup;
    {
        std::lock_guard lk(impl_->mu);
        lookup = impl_->sourceLookup;
    }
    checkSourceLine(loc, lookup);
    // Against the stopped run's module: an unknown %N or graph is an error; a location that
    // matches no kernel there stays pending (it may name a graph compiled later).
    std::size_t matches = 0;
    bool checked = false;
    try {
        impl_->onStoppedThread([&] {
            Impl& d = *impl_;
            std::string error;
            if (loc.kind == Location::Kind::Node && loc.graph.empty()) {
                b.graph = d.currentGraphName();
            }
            matches = debug::resolveKernels(loc, b.graph, *d.index, *d.inspector, !b.watch, &error)
                          .size();
            if (!error.empty()) {
                throw DebugError(error);
            }
            checked = true;
        });
    } catch (const debug::NotStopped&) {
        // checked against each run's module when it starts
    }
    if (note != nullptr) {
        note->clear();
        if (!checked) {
            *note = "pending: resolved when a graph runs";
        } else if (matches == 0) {
            *note = "pending: no kernel of the running graphs matches yet";
        }
    }
    std::lock_guard lk(impl_->mu);
    b.id = impl_->nextId++;
    impl_->points.push_back(std::move(b));
    ++impl_->pointsGeneration;
    impl_->updateActive();
    return impl_->points.back().id;
}

void Debugger::setEnabled(int id, bool enabled) {
    std::lock_guard lk(impl_->mu);
    Breakpoint* b = impl_->find(id);
    if (b == nullptr) {
        throw DebugError("No breakpoint number " + std::to_string(id) + ".");
    }
    b->enabled = enabled;
    ++impl_->pointsGeneration;
    impl_->updateActive();
}

void Debugger::remove(int id) {
    std::lock_guard lk(impl_->mu);
    auto& ps = impl_->points;
    const auto it =
        std::find_if(ps.begin(), ps.end(), [&](const Breakpoint& b) { return b.id == id; });
    if (it == ps.end()) {
        throw DebugError("No breakpoint number " + std::to_string(id) + ".");
    }
    ps.erase(it);
    ++impl_->pointsGeneration;
    impl_->updateActive();
}

std::vector<Breakpoint> Debugger::breakpoints() const {
    std::lock_guard lk(impl_->mu);
    return impl_->points;
}

// --- control ------------------------------------------------------------------------------

void Debugger::start(std::function<void()> job, Resume first) {
    std::unique_lock lk(impl_->mu);
    if (impl_->jobRunning) {
        throw DebugError("The program is already running.");
    }
    if (impl_->worker.joinable()) {
        lk.unlock();
        impl_->worker.join();
        lk.lock();
    }
    impl_->jobError.clear();
    impl_->indexes.clear();
    impl_->index = nullptr;
    impl_->watchHistory.clear();
    impl_->warned.clear();
    impl_->runCount = 0;
    impl_->cancelRequested = false;
    impl_->cancelDelivered = false;
    impl_->mode = first.mode == Mode::Continue || first.mode == Mode::Advance
                      ? first.mode
                      : Mode::StepInstruction;
    impl_->startDepth = 0;
    impl_->advanceLocation = first.location;
    impl_->advanceGraph.clear();
    impl_->state = State::Idle;
    impl_->jobRunning = true;
    impl_->updateActive();
    impl_->worker = std::thread([this, job = std::move(job)] {
        std::string error;
        try {
            job();
        } catch (const std::exception& e) {
            error = e.what();
        } catch (...) {
            error = "unknown error";
        }
        std::lock_guard lk2(impl_->mu);
        impl_->jobError = std::move(error);
        impl_->jobRunning = false;
        impl_->state = State::Finished;
        impl_->indexes.clear();
        impl_->index = nullptr;
        impl_->cv.notify_all();
    });
}

Debugger::State Debugger::wait(std::optional<std::chrono::milliseconds> timeout) {
    std::unique_lock lk(impl_->mu);
    const auto ready = [&] {
        return impl_->state == State::Stopped || impl_->state == State::Finished;
    };
    if (timeout) {
        impl_->cv.wait_for(lk, *timeout, ready);
    } else {
        impl_->cv.wait(lk, ready);
    }
    return impl_->state;
}

void Debugger::resume(const Resume& r) {
    if (r.mode == Mode::Advance) {
        debug::parseLocation(r.location);  // throws for a malformed one
    }
    std::unique_lock lk(impl_->mu);
    Impl& d = *impl_;
    if (d.state == State::Running) {
        throw DebugError("The program is running; it is not stopped.");
    }
    if (d.state != State::Stopped) {
        // Sets how the next run begins.
        d.mode =
            r.mode == Mode::Continue || r.mode == Mode::Advance ? r.mode : Mode::StepInstruction;
        d.startDepth = 0;
        d.advanceLocation = r.location;
        d.advanceGraph.clear();
        d.resolvedGeneration = 0;
        d.updateActive();
        return;
    }
    if (r.mode == Mode::Finish && d.stop->stack.size() <= 1) {
        throw DebugError("\"finish\" not meaningful in the outermost graph (@" + d.stop->graph +
                         ").");
    }
    if (r.mode == Mode::Advance) {
        lk.unlock();
        std::size_t matches = 0;
        impl_->onStoppedThread([&] {
            std::string error;
            matches =
                debug::resolveKernels(debug::parseLocation(r.location), impl_->currentGraphName(),
                                      *impl_->index, *impl_->inspector, true, &error)
                    .size();
            if (!error.empty()) {
                throw DebugError(error);
            }
        });
        if (matches == 0) {
            throw DebugError("No kernel of the running graphs is at " + r.location + ".");
        }
        lk.lock();
        if (d.state != State::Stopped) {
            return;
        }
    }
    d.resumeWith = r;
    d.resumeRequested = true;
    d.state = State::Running;
    d.cv.notify_all();
}

void Debugger::pause() {
    std::lock_guard lk(impl_->mu);
    if (impl_->state == State::Running || impl_->state == State::Idle) {
        impl_->pauseRequested = true;
        impl_->updateActive();
    }
}

void Debugger::cancel() {
    std::lock_guard lk(impl_->mu);
    if (impl_->state == State::Stopped) {
        impl_->state = State::Running;  // wait() must not see the stop being left
    }
    impl_->cancelRequested = true;
    impl_->updateActive();
    impl_->cv.notify_all();
}

void Debugger::join() {
    std::thread t;
    {
        std::lock_guard lk(impl_->mu);
        t = std::move(impl_->worker);
    }
    if (t.joinable()) {
        t.join();
    }
}

std::string Debugger::jobError() const {
    std::lock_guard lk(impl_->mu);
    return impl_->jobError;
}

Debugger::State Debugger::state() const {
    std::lock_guard lk(impl_->mu);
    return impl_->state;
}

std::optional<StopInfo> Debugger::stopInfo() const {
    std::lock_guard lk(impl_->mu);
    return impl_->state == State::Stopped ? impl_->stop : std::nullopt;
}

std::uint64_t Debugger::runs() const {
    std::lock_guard lk(impl_->mu);
    return impl_->runCount;
}

// --- the observer (executing thread) --------------------------------------------------------

void Debugger::runStarted(const ir::Module& m, const ExecInspector& ex) {
    std::function<void(std::uint64_t, const std::string&)> cb;
    std::function<void(const std::string&)> warn;
    std::vector<std::string> warnings;
    std::uint64_t run = 0;
    std::string entry;
    {
        std::lock_guard lk(impl_->mu);
        Impl& d = *impl_;
        d.module = &m;
        d.inspector = &ex;
        d.index = &d.indexFor(m);
        d.resolvedGeneration = 0;
        run = ++d.runCount;
        d.state = State::Running;
        entry = m.entry() != nullptr ? d.index->graphName(m.entry()) : std::string();
        cb = d.runStartedCallback;
        d.ensureResolved(ex);
        warnings.swap(d.warnings);
        warn = d.warningCallback;
    }
    if (cb) {
        cb(run, entry);
    }
    if (warn) {
        for (const std::string& w : warnings) {
            warn(w);
        }
    }
}

void Debugger::runFinished() {
    std::function<void(std::uint64_t, bool)> cb;
    std::uint64_t run = 0;
    bool cancelled = false;
    {
        std::lock_guard lk(impl_->mu);
        Impl& d = *impl_;
        d.module = nullptr;
        d.inspector = nullptr;
        d.index = nullptr;
        d.breakAt.clear();
        d.watchAt.clear();
        d.advanceAt.clear();
        cancelled = d.cancelDelivered;
        if (d.cancelDelivered && !d.closing) {
            d.cancelRequested = false;
            d.cancelDelivered = false;
        }
        // A step that runs off the end of a run stops at the first kernel of the next one.
        if (d.mode != Mode::Continue && d.mode != Mode::Advance) {
            d.mode = Mode::StepInstruction;
            d.startDepth = 0;
        }
        if (d.state != State::Finished) {
            d.state = State::Idle;
        }
        d.updateActive();
        run = d.runCount;
        cb = d.runFinishedCallback;
    }
    if (cb) {
        cb(run, cancelled);
    }
}

void Debugger::beforeKernel(const KernelEvent& e, const ExecInspector& ex) {
    if (!impl_->active.load(std::memory_order_acquire)) {
        return;
    }
    std::unique_lock lk(impl_->mu);
    Impl& d = *impl_;
    if (d.cancelRequested) {
        d.cancelDelivered = true;
        throw ExecCancelled();
    }
    if (d.index == nullptr) {
        return;  // an executor that did not report runStarted
    }
    d.ensureResolved(ex);
    std::optional<StopReason> reason;
    int point = 0;
    if (d.pauseRequested) {
        d.pauseRequested = false;
        reason = StopReason::Pause;
    }
    if (const auto it = d.breakAt.find(e.node); it != d.breakAt.end()) {
        for (int id : it->second) {
            Breakpoint* b = d.find(id);
            if (b != nullptr && b->enabled) {
                ++b->hits;
                if (point == 0) {
                    point = id;
                }
            }
        }
        if (point != 0) {
            reason = StopReason::Breakpoint;
        }
    }
    const std::size_t depth = e.stack.empty() ? 1 : e.stack.size();
    if (!reason) {
        const ir::SourceLocation here = debug::innermostSource(*e.node);
        const bool known = here.line > 0;
        bool stepDone = false;
        switch (d.mode) {
            case Mode::Continue:
            case Mode::Finish:
                break;
            case Mode::StepInstruction:
                stepDone = true;
                break;
            case Mode::NextInstruction:
                stepDone = depth <= d.startDepth;
                break;
            case Mode::Step:
                stepDone = d.startDepth == 0 ||
                           (known && (depth != d.startDepth || !sameLine(here, d.startSource)));
                break;
            case Mode::Next:
                stepDone =
                    d.startDepth == 0 || (depth <= d.startDepth && known &&
                                          (depth < d.startDepth || !sameLine(here, d.startSource)));
                break;
            case Mode::Advance:
                if (d.advanceAt.count(e.node) != 0) {
                    reason = StopReason::Advance;
                }
                break;
        }
        if (stepDone) {
            reason = StopReason::Step;
        }
        // finish where the callee's return was not reported: stop at the caller's next kernel
        if (d.mode == Mode::Finish && depth < d.startDepth) {
            reason = StopReason::Finish;
        }
    }
    if (!reason) {
        return;
    }
    StopInfo info = d.makeStop(*reason, e, ex);
    info.breakpoint = point;
    d.stopHere(lk, std::move(info), e, ex);
}

void Debugger::afterKernel(const KernelEvent& e, const ops::KernelArg& output,
                           const ExecInspector& ex) {
    if (!impl_->active.load(std::memory_order_acquire)) {
        return;
    }
    std::unique_lock lk(impl_->mu);
    Impl& d = *impl_;
    if (d.cancelRequested) {
        d.cancelDelivered = true;
        throw ExecCancelled();
    }
    if (d.index == nullptr) {
        return;
    }
    d.ensureResolved(ex);
    std::optional<StopReason> reason;
    int point = 0;
    std::string detail;
    if (const auto it = d.watchAt.find(e.node); it != d.watchAt.end()) {
        for (int id : it->second) {
            Breakpoint* b = d.find(id);
            if (b == nullptr || !b->enabled) {
                continue;
            }
            auto seen = debug::checkWatch(b->condition, b->threshold, output,
                                          &d.watchHistory[{id, e.node}]);
            if (seen) {
                ++b->hits;
                if (point == 0) {
                    point = id;
                    detail = std::move(*seen);
                }
            }
        }
        if (point != 0) {
            reason = StopReason::Watchpoint;
        }
    }
    const std::size_t depth = e.stack.empty() ? 1 : e.stack.size();
    if (!reason && d.mode == Mode::Finish && depth < d.startDepth) {
        reason = StopReason::Finish;
    }
    if (!reason) {
        return;
    }
    StopInfo info = d.makeStop(*reason, e, ex);
    info.breakpoint = point;
    info.detail = std::move(detail);
    info.afterKernel = true;
    d.output = output;
    d.stopHere(lk, std::move(info), e, ex);
}

}  // namespace irscope::runtime
