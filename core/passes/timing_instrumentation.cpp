#include "passes/timing_instrumentation.h"

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
    entries_.clear();
}

void TimingInstrumentation::beforePass(const PassRun& run, const ir::Module&, const PassContext&) {
    started_[run.sequence] = Clock::now();
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
    const auto s = started_.find(run.sequence);
    const double ms = s == started_.end() ? 0.0 : millisSince(s->second);
    finished_[run.sequence] = ms;
    entries_.push_back(Entry{run.path, run.depth, ms, failed});
}

}  // namespace irscope::passes
