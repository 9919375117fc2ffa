// Pass: one step of the compile pipeline, named as MindSpore names its actions and opt
// passes ("parse", "symbol_resolve", "type_inference", "opt_a", "cse", ...), with a short
// plain-language description the GUI shows to teach what the step does.
//
// Passes only transform the IR. They never print, dump, time or snapshot themselves: the
// PassManager calls PassInstrumentation hooks around every pass for that (pass_manager.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "passes/settings.h"

namespace irscope::ir {
class Module;
}

namespace irscope::passes {

// What the progress callback is told before each pass starts.
struct PassProgress {
    std::size_t stage = 0;       // index of the top-level pass being run
    std::size_t stageCount = 0;  // number of top-level passes in the pipeline
    std::string_view path;       // "type_inference", "opt_a/cse"
    int depth = 0;               // 0 for a top-level pass, 1 for a group's child, ...
};

// What a pipeline run shares with its passes: the compile settings, a cancel request
// checked between passes, a progress callback, and results one pass leaves for later
// ones and for the instrumentation (the memory plan's peak).
//
// A PassContext belongs to the thread running the pipeline; only the stop_token's source
// and the progress callback's receiver live elsewhere. The callback runs on the pipeline's
// thread and must hand results to the UI thread itself.
class PassContext {
public:
    PassContext() = default;
    explicit PassContext(Settings settings) : settings_(std::move(settings)) {}

    Settings& settings() { return settings_; }
    const Settings& settings() const { return settings_; }

    // Cancellation: request_stop() on the token's std::stop_source (from any thread)
    // stops the pipeline before its next pass; the run ends with PipelineStatus::Cancelled.
    void setCancelToken(std::stop_token token) { cancel_ = std::move(token); }
    bool cancelRequested() const { return cancel_.stop_requested(); }

    using ProgressCallback = std::function<void(const PassProgress&)>;
    void setProgressCallback(ProgressCallback cb) { progress_ = std::move(cb); }
    void reportProgress(const PassProgress& p) const {
        if (progress_) {
            progress_(p);
        }
    }

    // Peak bytes of the memory plan, once a pass has computed one (nullopt before). A pass
    // that makes the plan stale should clear it. Snapshots record it after every pass.
    std::optional<std::uint64_t> peakBytes() const { return peakBytes_; }
    void setPeakBytes(std::optional<std::uint64_t> bytes) { peakBytes_ = bytes; }

private:
    Settings settings_;
    std::stop_token cancel_;
    ProgressCallback progress_;
    std::optional<std::uint64_t> peakBytes_;
};

class Pass {
public:
    Pass(std::string name, std::string description)
        : name_(std::move(name)), description_(std::move(description)) {}
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;
    virtual ~Pass() = default;

    const std::string& name() const { return name_; }
    const std::string& description() const { return description_; }

    // Transforms `m`. Returns whether it may have changed the IR ("I may have changed
    // it"): false promises no change; true is checked by the snapshot instrumentation,
    // which records what really happened. Errors are thrown (any std::exception); the
    // PassManager records them against this pass and stops the pipeline.
    virtual bool run(ir::Module& m, PassContext& ctx) = 0;

    // A group's sub-passes. The PassManager runs a group by running its children itself,
    // so each child is instrumented and recorded ("opt_a/cse"); run() is then not called.
    virtual std::span<const std::unique_ptr<Pass>> children() const { return {}; }
    // How many times at most a group runs its children while any of them reports a change.
    virtual int maxRounds() const { return 1; }
    bool isGroup() const { return !children().empty(); }

    // Whether the program still computes what it means without this pass (an optimization,
    // not a lowering the later passes or the backend need): what a bisection may skip
    // (passes/opt_bisect.h), as LLVM's -opt-bisect-limit skips its optional passes.
    bool skippable() const { return skippable_; }
    Pass& setSkippable(bool skippable = true) {
        skippable_ = skippable;
        return *this;
    }

private:
    std::string name_;
    std::string description_;
    bool skippable_ = false;
};

// A pass made of sub-passes, as MindSpore's opt_a is made of switch_simplify, cse, dce...
// Each round runs every child in order; another round follows while any child reported a
// change, up to maxRounds rounds (MindSpore iterates opt_a to a fixed point the same way).
class PassGroup : public Pass {
public:
    PassGroup(std::string name, std::string description, int maxRounds = 1)
        : Pass(std::move(name), std::move(description)),
          maxRounds_(maxRounds < 1 ? 1 : maxRounds) {}

    PassGroup& add(std::unique_ptr<Pass> p) {
        children_.push_back(std::move(p));
        return *this;
    }
    template <typename P, typename... Args>
    P& emplace(Args&&... args) {
        auto p = std::make_unique<P>(std::forward<Args>(args)...);
        P& ref = *p;
        children_.push_back(std::move(p));
        return ref;
    }

    std::span<const std::unique_ptr<Pass>> children() const override { return children_; }
    int maxRounds() const override { return maxRounds_; }

    // Runs the children to the fixed point without instrumentation (outside a PassManager),
    // checking for cancellation between children. Returns whether any child reported a
    // change.
    bool run(ir::Module& m, PassContext& ctx) override;

private:
    std::vector<std::unique_ptr<Pass>> children_;
    int maxRounds_;
};

// A pass from a function, for small passes and tests.
class FunctionPass : public Pass {
public:
    using Fn = std::function<bool(ir::Module&, PassContext&)>;
    FunctionPass(std::string name, std::string description, Fn fn)
        : Pass(std::move(name), std::move(description)), fn_(std::move(fn)) {}
    bool run(ir::Module& m, PassContext& ctx) override { return fn_(m, ctx); }

private:
    Fn fn_;
};

inline std::unique_ptr<Pass> makePass(std::string name, std::string description,
                                      FunctionPass::Fn fn) {
    return std::make_unique<FunctionPass>(std::move(name), std::move(description), std::move(fn));
}

}  // namespace irscope::passes
