#include "passes/timing_instrumentation.h"

#include <algorithm>

namespace irscope::passes {

namespace {

double millisSince(TimingInstrumentation::Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(TimingInstrumentation::Clock::now() - start)
        .count();
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
    if (const auto s = started_.find(run.sequence); s != started_.end()) {
        return millisSince(s->second);
    }
    return 0.0;
}

void TimingInstrumentation::beforePipeline(const ir::Module&, const PassContext&) {
    pipelineStart_ = Clock::now();
    pipelineMillis_.reset();
    started_.clear();
    finished_.clear();
    childEnded_.clear();
    overhead_.clear();
    entries_.clear();
}

void TimingInstrumentation::beforePass(const PassRun& run, const ir::Module&, const PassContext&) {
    const Clock::time_point now = Clock::now();
    if (run.parent != nullptr) {
        // The instrumentation between the previous sibling and this one.
        if (const auto e = childEnded_.find(run.parent->sequence); e != childEnded_.end()) {
            overhead_[run.parent->sequence] +=
                std::chrono::duration<double, std::milli>(now - e->second).count();
            childEnded_.erase(e);
        }
    }
    started_[run.sequence] = now;
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
    const auto s = started_.find(run.sequence);
    double overhead = 0.0;
    if (const auto e = childEnded_.find(run.sequence); e != childEnded_.end()) {
        // A group: its last child's instrumentation.
        overhead += std::chrono::duration<double, std::milli>(now - e->second).count();
        childEnded_.erase(e);
    }
    if (const auto o = overhead_.find(run.sequence); o != overhead_.end()) {
        overhead += o->second;
        overhead_.erase(o);
    }
    const double ms = s == started_.end()
                          ? 0.0
                          : std::max(0.0, std::chrono::duration<double, std::milli>(now - s->second).count() - overhead);
    finished_[run.sequence] = ms;
    entries_.push_back(Entry{run.path, run.depth, ms, failed});
    if (run.parent != nullptr) {
        // A nested group's left-out time is left out of its parent's as well.
        if (overhead > 0.0) {
            overhead_[run.parent->sequence] += overhead;
        }
        childEnded_[run.parent->sequence] = Clock::now();
    }
}

}  // namespace irscope::passes
