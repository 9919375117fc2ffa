// The debugger's executing-thread side: the observer hooks decide where a run stops, and a
// stop blocks the thread until the controller resumes or cancels it, running the
// controller's inspection tasks meanwhile (debugger.h).
#include <algorithm>

#include "runtime/debugger_impl.h"

namespace irscope::runtime {

namespace {

bool sameLine(const ir::SourceLocation& a, const ir::SourceLocation& b) {
    return a.line == b.line && a.file == b.file;
}

}  // namespace

// --- stops (mu held) -------------------------------------------------------------------------

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
        cv.wait(lk, [&] { return resumeRequested || runStop.stop_requested() || !tasks.empty(); });
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
        if (runStop.stop_requested() || resumeRequested) {
            break;
        }
    }
    const Resume r = resumeWith;
    stop.reset();
    output.reset();
    event = nullptr;
    stoppedThread = {};
    state = State::Running;
    if (runStop.stop_requested()) {
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

bool Debugger::Impl::enterKernel(std::unique_lock<std::mutex>& lk, const ExecInspector& ex) {
    if (!active.load(std::memory_order_acquire)) {
        return false;  // nothing can stop the run: the fast path, no lock
    }
    lk = std::unique_lock(mu);
    if (runStop.stop_requested()) {
        cancelDelivered = true;
        throw ExecCancelled();
    }
    if (index == nullptr) {
        return false;  // an executor that did not report runStarted
    }
    ensureResolved(ex);
    return true;
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
            d.runStop = std::stop_source();
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
    std::unique_lock<std::mutex> lk;
    Impl& d = *impl_;
    if (!d.enterKernel(lk, ex)) {
        return;
    }
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
    std::unique_lock<std::mutex> lk;
    Impl& d = *impl_;
    if (!d.enterKernel(lk, ex)) {
        return;
    }
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
