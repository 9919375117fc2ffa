#include "passes/snapshot_instrumentation.h"

#include <stdexcept>

#include "ir/ir_text.h"
#include "ir/module_fingerprint.h"
#include "passes/verifier_instrumentation.h"

namespace irscope::passes {

bool SnapshotInstrumentation::sameText(const State& a, const State& b) {
    if (a.text == b.text) {
        return true;
    }
    return a.text && b.text && a.hash == b.hash && a.text->size() == b.text->size() &&
           *a.text == *b.text;
}

void SnapshotInstrumentation::beforePipeline(const ir::Module& m, const PassContext&) {
    // The baseline the first pass is compared with (the empty module before parse).
    auto text = std::make_shared<const std::string>(ir::printIr(m));
    current_ = State{ir::fingerprint(m), text, util::CompressedText::hashOf(*text), nullptr};
    open_.clear();
    lastSequence_ = UINT64_MAX;
    errorRecorded_ = false;
    snapshots_.clear();
}

void SnapshotInstrumentation::beforePass(const PassRun&, const ir::Module&, const PassContext&) {
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

    session::PassSnapshot s;
    s.pass = run.path;
    s.description = run.pass->description();
    s.depth = run.depth;
    s.round = run.round;
    s.millis = timing_ != nullptr ? timing_->millis(run) : 0.0;
    s.reportedChange = reportedChange;
    s.peakBytes = ctx.peakBytes();
    s.error = std::string(error);

    State after;
    try {
        const ir::ModuleFingerprint fp = ir::fingerprint(m);
        s.counts = fp.counts;
        const State* same = current_.text && fp == current_.fingerprint ? &current_
                            : before.text && fp == before.fingerprint   ? &before
                                                                        : nullptr;
        if (same != nullptr && verifyEachPass()) {
            // The fingerprint hashes abstracts and values by identity: under verification
            // its verdict is checked against the text it saves printing.
            if (ir::printIr(m) != *same->text) {
                throw std::logic_error("the module's fingerprint missed a change made by pass '" +
                                       run.path + "'");
            }
        }
        if (same != nullptr) {
            after = *same;  // structurally the IR as last printed: nothing to print
        } else {
            auto text = std::make_shared<const std::string>(ir::printIr(m));
            after = State{fp, text, util::CompressedText::hashOf(*text), nullptr};
        }
    } catch (const std::exception&) {
        if (error.empty()) {
            // A healthy pass left IR the printer cannot print: the PassManager reports it
            // as this pass's error, and onError records the snapshot again.
            open_.push_back(std::move(before));
            throw;
        }
        // After an error the IR may be half-built; keep the error without the text.
        snapshots_.push_back(std::move(s));
        return;
    }

    s.changed = !sameText(before, after);
    // Share bytes with the last snapshot when nothing changed since (passes that change
    // nothing are the common case); otherwise compress.
    if (sameText(current_, after) && current_.blob) {
        after = current_;
    } else if (!s.changed && before.blob) {
        after = before;
    } else {
        after.blob = std::make_shared<const util::CompressedText>(
            util::CompressedText::compress(*after.text, level_));
    }
    s.compressed = after.blob;
    current_ = std::move(after);
    lastSequence_ = run.sequence;
    snapshots_.push_back(std::move(s));
}

}  // namespace irscope::passes
