// PassManager: an ordered list of passes run over one Module, with instrumentation around
// every pass. A pass that throws stops the pipeline and the error is recorded against it;
// a cancel request stops it cleanly between two passes.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "passes/pass.h"
#include "passes/pass_instrumentation.h"

namespace irscope::passes {

class PassManager {
public:
    PassManager() = default;
    PassManager(const PassManager&) = delete;
    PassManager& operator=(const PassManager&) = delete;

    PassManager& add(std::unique_ptr<Pass> p) {
        passes_.push_back(std::move(p));
        return *this;
    }
    template <typename P, typename... Args>
    P& emplace(Args&&... args) {
        auto p = std::make_unique<P>(std::forward<Args>(args)...);
        P& ref = *p;
        passes_.push_back(std::move(p));
        return ref;
    }
    std::span<const std::unique_ptr<Pass>> passes() const { return passes_; }

    // Instrumentation kept for every run of this manager.
    void addInstrumentation(std::shared_ptr<PassInstrumentation> inst) {
        instrumentations_.push_back(std::move(inst));
    }

    // Runs every pass in order over `m`. `extra` instrumentations take part in this run
    // only, after the manager's own (so their before-hooks run last, after-hooks first).
    // Never throws for a pass's error: the result says which pass failed and why.
    PipelineResult run(ir::Module& m, PassContext& ctx,
                       std::span<PassInstrumentation* const> extra = {});

private:
    std::vector<std::unique_ptr<Pass>> passes_;
    std::vector<std::shared_ptr<PassInstrumentation>> instrumentations_;
};

}  // namespace irscope::passes
