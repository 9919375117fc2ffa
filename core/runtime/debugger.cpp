// The debugger's controller side: configuration, breakpoints and watchpoints, starting the
// job and resuming, pausing or cancelling its runs (debugger.h). The executing thread's
// side (the observer hooks and stops) is in debugger_observer.cpp.
#include "runtime/debugger.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "runtime/debugger_impl.h"

namespace irscope::runtime {

using debug::Location;

// --- Impl helpers (mu held) ---------------------------------------------------------------

void Debugger::Impl::updateActive() {
    const bool points_ =
        std::any_of(points.begin(), points.end(), [](const Breakpoint& b) { return b.enabled; });
    active.store(points_ || mode != Mode::Continue || pauseRequested || runStop.stop_requested(),
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

// --- construction and configuration -------------------------------------------------------

Debugger::Debugger() : impl_(std::make_unique<Impl>()) {}

Debugger::~Debugger() {
    impl_->jobStopWake.reset();
    {
        std::lock_guard lk(impl_->mu);
        if (impl_->jobRunning) {
            impl_->closing = true;  // every later run of the job is cancelled too
            impl_->runStop.request_stop();
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

void Debugger::start(std::function<void()> job, Resume first, std::stop_token stop) {
    impl_->jobStopWake.reset();  // not under mu: a running callback takes it
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
    impl_->runStop = std::stop_source();
    impl_->cancelDelivered = false;
    impl_->closing = false;
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
    lk.unlock();
    // Runs stopJob at once when the token is already stopped (hence after unlocking).
    impl_->jobStopWake.emplace(std::move(stop),
                               std::function<void()>([d = impl_.get()] { d->stopJob(); }));
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
    impl_->runStop.request_stop();
    impl_->updateActive();
    impl_->cv.notify_all();
}

void Debugger::Impl::stopJob() {
    std::lock_guard lk(mu);
    if (state == State::Stopped) {
        state = State::Running;
    }
    closing = true;  // every later run of the job is cancelled too
    runStop.request_stop();
    updateActive();
    cv.notify_all();
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

}  // namespace irscope::runtime
