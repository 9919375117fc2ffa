#include "passes/timing_instrumentation.h"

namespace irscope::passes {

namespace {

using Clock = TimingInstrumentation::Clock;

double millisBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

double millisSince(Clock::time_point start) {
    return millisBetween(start, Clock::now());
}

}  // namespace

double TimingInstrumentation::totalMillis() const {
    if (pipelineMillis_) {
        return *pipelineMillis_;
    }
    return pipelineStart_ == Clock::time_point{} ? 0.0 : millisSince(pipelineStart_);
}

double TimingInstrumentation::millis(const PassRun& run) const {
    if (const auto f = finished_.find(run.sequence); f != finished_.end()) {
        return f->second;
    }
    if (const auto r = running_.find(run.sequence); r != running_.end()) {
        return millisSince(r->second.start) - r->second.overheadMillis;
    }
    return 0.0;
}

void TimingInstrumentation::beforePipeline(const ir::Module&, const PassContext&) {
    pipelineStart_ = Clock::now();
    pipelineMillis_.reset();
    running_.clear();
    finished_.clear();
    entries_.clear();
}

void TimingInstrumentation::beforePass(const PassRun& run, const ir::Module&, const PassContext&) {
    const Clock::time_point now = Clock::now();
    if (run.parent != nullptr) {
        if (const auto p = running_.find(run.parent->sequence); p != running_.end()) {
            // Since the group's start or its previous child's end: the other
            // instrumentations' hooks (this one's before-hook runs last).
            Running& group = p->second;
            group.overheadMillis += millisBetween(group.lastChildEnd.value_or(group.start), now);
        }
    }
    running_[run.sequence] = Running{now, std::nullopt, 0.0};
}

void TimingInstrumentation::afterPass(const PassRun& run, const ir::Module&, const PassContext&,
                                      bool) {
    finish(run, false);
}

void TimingInstrumentation::onError(const PassRun& run, const ir::Module&, const PassContext&,
                                    std::string_view) {
    finish(run, true);
}

void TimingInstrumentation::afterPipeline(const ir::Module&, const PassContext&,
                                          const PipelineResult&) {
    pipelineMillis_ = millisSince(pipelineStart_);
}

void TimingInstrumentation::finish(const PassRun& run, bool failed) {
    const Clock::time_point now = Clock::now();
    double ms = 0.0;
    if (const auto r = running_.find(run.sequence); r != running_.end()) {
        Running& self = r->second;
        if (self.lastChildEnd) {
            self.overheadMillis += millisBetween(*self.lastChildEnd, now);  // the last child's hooks
        }
        ms = millisBetween(self.start, now) - self.overheadMillis;
        if (run.parent != nullptr) {
            if (const auto p = running_.find(run.parent->sequence); p != running_.end()) {
                p->second.lastChildEnd = now;
                p->second.overheadMillis += self.overheadMillis;  // a nested group's gaps
            }
        }
        running_.erase(r);
    }
    finished_[run.sequence] = ms;
    entries_.push_back(Entry{run.path, run.depth, ms, failed});
}

}  // namespace irscope::passes
