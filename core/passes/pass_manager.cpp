#include "passes/pass_manager.h"

#include <exception>
#include <string>

namespace irscope::passes {

std::string_view statusName(PipelineStatus s) {
    switch (s) {
        case PipelineStatus::Ok:
            return "ok";
        case PipelineStatus::Error:
            return "error";
        case PipelineStatus::Cancelled:
            return "cancelled";
    }
    return "ok";
}

namespace {

enum class Outcome { Done, Failed, Cancelled };

// Runs passes (recursing into groups) and calls the instrumentation around each.
class Runner {
public:
    Runner(ir::Module& m, PassContext& ctx, std::vector<PassInstrumentation*> insts,
           std::size_t stageCount)
        : m_(m), ctx_(ctx), insts_(std::move(insts)), stageCount_(stageCount) {}

    void beforePipeline() {
        for (PassInstrumentation* i : insts_) {
            i->beforePipeline(m_, ctx_);
        }
    }
    void afterPipeline() {
        for (auto it = insts_.rbegin(); it != insts_.rend(); ++it) {
            (*it)->afterPipeline(m_, ctx_, result_);
        }
    }

    PassRun makeRun(const Pass& p, const PassRun* parent, std::size_t index, int round) {
        PassRun r;
        r.pass = &p;
        r.parent = parent;
        r.index = index;
        r.round = round;
        r.sequence = nextSequence_++;
        if (parent == nullptr) {
            r.path = p.name();
            r.depth = 0;
            r.stage = index;
        } else {
            r.path = parent->path + "/" + p.name();
            r.depth = parent->depth + 1;
            r.stage = parent->stage;
        }
        return r;
    }

    // Runs `pass` (described by `run`); `reported` is set to what it returned.
    Outcome runPass(Pass& pass, const PassRun& run, bool& reported) {
        reported = false;
        if (ctx_.cancelRequested()) {
            result_.status = PipelineStatus::Cancelled;
            return Outcome::Cancelled;
        }
        if (pass.skippable() && !shouldRun(run)) {
            return Outcome::Done;
        }
        ctx_.reportProgress(PassProgress{run.stage, stageCount_, run.path, run.depth});
        try {
            for (PassInstrumentation* i : insts_) {
                i->beforePass(run, m_, ctx_);
            }
            if (pass.isGroup()) {
                const Outcome o = runGroup(pass, run, reported);
                if (o == Outcome::Failed) {
                    // The failing child has been reported; now its enclosing group.
                    callOnError(run, result_.error);
                }
                if (o != Outcome::Done) {
                    return o;
                }
            } else {
                reported = pass.run(m_, ctx_);
            }
            for (auto it = insts_.rbegin(); it != insts_.rend(); ++it) {
                (*it)->afterPass(run, m_, ctx_, reported);
            }
        } catch (const std::exception& e) {
            fail(run, e.what(), std::current_exception());
            return Outcome::Failed;
        } catch (...) {
            fail(run, "unknown exception", std::current_exception());
            return Outcome::Failed;
        }
        return Outcome::Done;
    }

    const PipelineResult& result() const { return result_; }

private:
    bool shouldRun(const PassRun& run) {
        bool yes = true;
        for (PassInstrumentation* i : insts_) {
            yes = i->shouldRun(run, m_, ctx_) && yes;  // every one is asked
        }
        return yes;
    }

    Outcome runGroup(Pass& group, const PassRun& run, bool& reported) {
        const auto children = group.children();
        for (int round = 0; round < group.maxRounds(); ++round) {
            bool changed = false;
            for (std::size_t k = 0; k < children.size(); ++k) {
                const PassRun child = makeRun(*children[k], &run, k, round);
                bool childChanged = false;
                const Outcome o = runPass(*children[k], child, childChanged);
                if (o != Outcome::Done) {
                    return o;
                }
                changed = changed || childChanged;
            }
            reported = reported || changed;
            if (!changed) {
                break;
            }
        }
        return Outcome::Done;
    }

    void fail(const PassRun& run, const std::string& message, std::exception_ptr thrown) {
        if (result_.status != PipelineStatus::Error) {
            result_.status = PipelineStatus::Error;
            result_.failedPass = run.path;
            result_.error = message;
            result_.exception = std::move(thrown);
        }
        callOnError(run, message);
    }

    void callOnError(const PassRun& run, const std::string& message) {
        for (auto it = insts_.rbegin(); it != insts_.rend(); ++it) {
            try {
                (*it)->onError(run, m_, ctx_, message);
            } catch (...) {
                // An instrumentation failing while reporting a failure has nothing better
                // to report to; the pipeline result already holds the error.
            }
        }
    }

    ir::Module& m_;
    PassContext& ctx_;
    std::vector<PassInstrumentation*> insts_;
    std::size_t stageCount_;
    std::uint64_t nextSequence_ = 0;
    PipelineResult result_;
};

}  // namespace

PipelineResult PassManager::run(ir::Module& m, PassContext& ctx,
                                std::span<PassInstrumentation* const> extra) {
    std::vector<PassInstrumentation*> insts;
    for (const auto& i : instrumentations_) {
        insts.push_back(i.get());
    }
    insts.insert(insts.end(), extra.begin(), extra.end());
    Runner runner(m, ctx, std::move(insts), passes_.size());
    runner.beforePipeline();
    for (std::size_t i = 0; i < passes_.size(); ++i) {
        const PassRun run = runner.makeRun(*passes_[i], nullptr, i, 0);
        bool reported = false;
        if (runner.runPass(*passes_[i], run, reported) != Outcome::Done) {
            break;
        }
    }
    runner.afterPipeline();
    return runner.result();
}

}  // namespace irscope::passes
