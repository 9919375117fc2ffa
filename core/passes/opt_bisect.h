// OptBisect: LLVM's -opt-bisect-limit for the compile pipeline. Every skippable pass run
// (Pass::skippable(): opt_a's sub-passes in every round, and the other passes a program
// computes the same without) gets a number, 1, 2, 3..., counted over every compile of a
// script run; the first `limit` run and the rest are skipped, and each decision is printed
// as LLVM prints it:
//
//   BISECT: running pass (7) opt_a/cse on @Net_construct
//   BISECT: NOT running pass (8) opt_a/dce on @Net_construct
//
// A limit of -1 runs every pass (and still prints and counts them). Bisecting the limit
// between 0 and the count finds the first pass whose application changes a result
// (session/opt_bisect_search.h, irscope-cli bisect).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass_instrumentation.h"

namespace irscope::passes {

class OptBisect final : public PassInstrumentation {
public:
    using Print = std::function<void(std::string_view line)>;  // without newline

    // One numbered pass: what was decided.
    struct Decision {
        int number = 0;            // 1-based, over the whole script run
        std::string pass;          // "opt_a/cse"
        std::string graph;         // the compile's entry graph ("" before parse made one)
        std::size_t pipeline = 0;  // the pipeline run (compile) it belongs to, 0-based
        int round = 0;
        bool ran = false;
    };

    OptBisect(int limit, Print print) : limit_(limit), print_(std::move(print)) {}

    int limit() const { return limit_; }
    // Skippable passes seen so far (run or not).
    int count() const { return static_cast<int>(decisions_.size()); }
    const std::vector<Decision>& decisions() const { return decisions_; }

    void beforePipeline(const ir::Module&, const PassContext&) override { ++pipelines_; }
    bool shouldRun(const PassRun& run, const ir::Module& m, const PassContext&) override;

    // "BISECT: running pass (7) opt_a/cse on @Net_construct"
    static std::string describe(const Decision& d);

private:
    int limit_;
    Print print_;
    std::size_t pipelines_ = 0;
    std::vector<Decision> decisions_;
};

}  // namespace irscope::passes
