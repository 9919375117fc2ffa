// TimingInstrumentation: steady-clock wall time of every pass run and of the whole run.
// Add it after the other instrumentations so that its before-hook runs last and its
// after-hook first: it then times the pass alone, not the snapshots taken around it.
// A group (opt_a) is timed without the other instrumentations' hooks around its children
// either: the gaps between its children's timed spans (snapshots, change detection, dumps)
// are subtracted from its wall time, so its time is what its children and its own control
// cost. The pipeline's total keeps everything.
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
    struct Running {
        Clock::time_point start;
        std::optional<Clock::time_point> lastChildEnd;
        double overheadMillis = 0.0;  // other instrumentations' time inside this run's span
    };
    std::unordered_map<std::uint64_t, Running> running_;  // by PassRun::sequence
    std::unordered_map<std::uint64_t, double> finished_;
    std::vector<Entry> entries_;
};

}  // namespace irscope::passes
