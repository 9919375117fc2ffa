// TimingInstrumentation: steady-clock wall time of every pass run and of the whole run.
// Add it after the other instrumentations so that its before-hook runs last and its
// after-hook first: it then times the pass alone, not the snapshots taken around it.
// A group's time leaves out its children's instrumentation too (the other hooks run
// between one child's end and the next one's start: snapshots, save_graphs files), so
// opt_a's time is its children's work plus its own, not the IR printed after each child.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "passes/pass_instrumentation.h"

namespace irscope::passes {

class TimingInstrumentation : public PassInstrumentation {
public:
    using Clock = std::chrono::steady_clock;

    struct Entry {
        std::string path;  // "opt_a/cse"
        int depth = 0;
        double millis = 0.0;
        bool failed = false;
    };

    // Passes in the order they finished (or failed).
    const std::vector<Entry>& entries() const { return entries_; }
    // beforePipeline to afterPipeline; while running, the time so far.
    double totalMillis() const;
    // Wall time of `run`: final once the run finished here, otherwise the time since it
    // started (0 if it never started).
    double millis(const PassRun& run) const;

    void beforePipeline(const ir::Module&, const PassContext&) override;
    void beforePass(const PassRun& run, const ir::Module&, const PassContext&) override;
    void afterPass(const PassRun& run, const ir::Module&, const PassContext&, bool) override;
    void onError(const PassRun& run, const ir::Module&, const PassContext&,
                 std::string_view) override;
    void afterPipeline(const ir::Module&, const PassContext&, const PipelineResult&) override;

private:
    void finish(const PassRun& run, bool failed);

    Clock::time_point pipelineStart_{};
    std::optional<double> pipelineMillis_;
    std::unordered_map<std::uint64_t, Clock::time_point> started_;  // by PassRun::sequence
    std::unordered_map<std::uint64_t, double> finished_;
    // By a group's sequence: when its last finished child's timing ended, and the time its
    // children's instrumentation took so far (left out of the group's time).
    std::unordered_map<std::uint64_t, Clock::time_point> childEnded_;
    std::unordered_map<std::uint64_t, double> overhead_;
    std::vector<Entry> entries_;
};

}  // namespace irscope::passes
