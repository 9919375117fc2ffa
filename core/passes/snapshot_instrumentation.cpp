#include "passes/snapshot_instrumentation.h"

#include <chrono>
#include <stdexcept>

#include "ir/ir_text.h"
#include "passes/verifier_instrumentation.h"

namespace irscope::passes {

SnapshotPrinter& SnapshotInstrumentation::printer() {
    if (!printer_ || printer_->closed()) {
        printer_ = std::make_shared<SnapshotPrinter>(level_, verifyEachPass());
    }
    return *printer_;
}

namespace {

// A snapshot's view of its printer job: the job's result, and the printer, which must go on
// until the result is in.
class PrinterJob : public PendingSnapshotText {
public:
    PrinterJob(std::shared_ptr<const SnapshotResult> result, std::shared_ptr<SnapshotPrinter> printer)
        : result_(std::move(result)), printer_(std::move(printer)) {}
    const Outcome& wait() const override { return result_->wait(); }

private:
    std::shared_ptr<const SnapshotResult> result_;
    std::shared_ptr<SnapshotPrinter> printer_;
};

}  // namespace

std::shared_ptr<const PendingSnapshotText> SnapshotInstrumentation::pending(
    std::shared_ptr<const SnapshotResult> result) {
    printer();
    return std::make_shared<PrinterJob>(std::move(result), printer_);
}

void SnapshotInstrumentation::copyDeferred() {
    if (deferred_) {
        Deferred d = std::move(*deferred_);
        deferred_.reset();
        printer().submit(module_->printCopy(), std::move(d.after), std::move(d.last),
                         std::move(d.before), std::move(d.result));
    }
}

void SnapshotInstrumentation::settle() const {
    if (deferred_ && printer_) {
        Deferred d = std::move(*deferred_);
        deferred_.reset();
        printer_->submitPrinted(*module_, std::move(d.after), std::move(d.last),
                                std::move(d.before), std::move(d.result));
    }
    if (printer_ && !printer_->closed()) {
        printer_->wait();  // also for jobs no snapshot waits on (the baseline's)
    }
}

std::shared_ptr<const std::string> SnapshotInstrumentation::textOf(const PassRun& run) const {
    if (lastSequence_ != run.sequence) {
        return nullptr;
    }
    settle();
    return current_.text ? current_.text->text : nullptr;
}

void SnapshotInstrumentation::beforePipeline(const ir::Module& m, const PassContext&) {
    // The baseline the first pass is compared with: the empty module before parse, printed
    // by the worker like every other state, or the IR a compile-cache hit read, whose text
    // the caller already has.
    deferred_.reset();  // (settled by the last afterPipeline: never left over)
    settle();
    module_ = &m;
    auto baseline = std::make_shared<SnapshotText>();
    if (baselineText_) {
        if (verifyEachPass() && ir::printIr(m) != *baselineText_) {
            throw std::logic_error(
                "the text given for the IR before the first pass is not "
                "the IR's text");
        }
        baseline->text = baselineText_;
        baseline->hash = util::CompressedText::hashOf(*baselineText_);
    } else {
        printer().submit(m.printCopy(), baseline, nullptr, nullptr,
                         std::make_shared<SnapshotResult>());
    }
    if (baselineText_) {
        SnapshotPrinter::fingerprint(m, *baseline);
    }
    current_ = State{std::move(baseline)};
    open_.clear();
    lastSequence_ = UINT64_MAX;
    errorRecorded_ = false;
    snapshots_.clear();
    endWaitMillis_ = 0.0;
}

void SnapshotInstrumentation::afterPipeline(const ir::Module&, const PassContext&,
                                            const PipelineResult&) {
    const auto t0 = std::chrono::steady_clock::now();
    // The last state goes to the printer as a copy (the module is the caller's from now
    // on), and the printer finishes on its own: nobody waits here.
    copyDeferred();
    if (printer_) {
        printer_->close();
    }
    endWaitMillis_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void SnapshotInstrumentation::beforePass(const PassRun&, const ir::Module&, const PassContext&) {
    copyDeferred();  // the pass may change the module
    open_.push_back(current_);
}

void SnapshotInstrumentation::afterPass(const PassRun& run, const ir::Module& m,
                                        const PassContext& ctx, bool reportedChange) {
    record(run, m, ctx, reportedChange, {});
}

void SnapshotInstrumentation::onError(const PassRun& run, const ir::Module& m,
                                      const PassContext& ctx, std::string_view message) {
    if (errorRecorded_) {
        // An enclosing group of the pass that failed: its snapshot says it all.
        if (!open_.empty()) {
            open_.pop_back();
        }
        return;
    }
    errorRecorded_ = true;
    record(run, m, ctx, false, message.empty() ? std::string_view("error") : message);
}

void SnapshotInstrumentation::record(const PassRun& run, const ir::Module& m,
                                     const PassContext& ctx, bool reportedChange,
                                     std::string_view error) {
    State before = current_;
    if (!open_.empty()) {
        before = std::move(open_.back());
        open_.pop_back();
    }

    PassSnapshot s;
    s.pass = run.path;
    s.description = run.pass->description();
    s.depth = run.depth;
    s.round = run.round;
    s.millis = timing_ != nullptr ? timing_->millis(run) : 0.0;
    s.reportedChange = reportedChange;
    s.peakBytes = ctx.peakBytes();
    s.error = std::string(error);

    State after;
    bool print = false;  // a new state: handed to the printer as a copy (or the module)
    copyDeferred();      // queued jobs settle in order: the deferred state goes first
    try {
        // The IR after a group is the IR after its last child, and a pass that returned
        // false (no change) is taken at its word, as MLIR takes a pass's preserved analyses:
        // neither is walked. Under verification the claim is checked against the text.
        const bool trusted = error.empty() && (run.pass->isGroup() || !reportedChange);
        if (trusted) {
            if (verifyEachPass()) {
                settle();
                if (current_.text->text && ir::printIr(m) != *current_.text->text) {
                    throw std::logic_error(
                        "pass '" + run.path + "' " +
                        (run.pass->isGroup()
                             ? std::string("changed the IR after its last child")
                             : std::string("returned no change but changed the IR")));
                }
            }
            after = current_;
        } else if (!error.empty()) {
            // After an error the IR may be half-built: print it here, where a failure
            // only means the snapshot keeps the error without the text.
            settle();
            auto text = std::make_shared<SnapshotText>();
            SnapshotPrinter::print(m, *text, current_.text.get(), before.text.get(), level_);
            s.setCounts(text->counts());  // kept when the text cannot be
            if (!text->text) {
                throw std::runtime_error(text->error);
            }
            after = State{std::move(text)};
        } else {
            // A reported change: a new state for the printer, which finds out from its
            // copy's fingerprint (and text) whether it is one.
            after = State{std::make_shared<SnapshotText>()};
            print = true;
        }
        auto result = std::make_shared<SnapshotResult>();
        s.setPending(pending(result));
        if (print) {
            deferred_ = Deferred{after.text, current_.text, before.text, std::move(result)};
            if (verifyEachPass()) {
                // The worker settles the copy as it would any other (fingerprint first).
                copyDeferred();
                (void)s.changed();
                if (after.text->fingerprintMissed) {
                    throw std::logic_error("the module's fingerprint missed a change made by pass '" +
                                           run.path + "'");
                }
            }
        } else {
            printer().submit(nullptr, after.text, nullptr, before.text, std::move(result));
        }
    } catch (const std::exception&) {
        if (error.empty()) {
            // A healthy pass left IR that cannot be fingerprinted or copied: the PassManager
            // reports it as this pass's error, and onError records the snapshot again.
            open_.push_back(std::move(before));
            throw;
        }
        // After an error the IR may be half-built; keep the error without the text.
        snapshots_.push_back(std::move(s));
        return;
    }

    current_ = std::move(after);
    lastSequence_ = run.sequence;
    snapshots_.push_back(std::move(s));
}

}  // namespace irscope::passes
