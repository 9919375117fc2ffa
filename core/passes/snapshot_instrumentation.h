// SnapshotInstrumentation: after every pass run (group children included) records a
// PassSnapshot — the printed .ir text compressed with zstd, node counts, whether
// the text really changed, the pass's description, the memory plan's peak when there is
// one, and the pass's time from a TimingInstrumentation. A pass that throws gets a
// snapshot too, carrying the error and the IR as the pass left it.
//
// A pass that returns "no change", and a group (its IR is its last child's), are taken at
// their word and not walked. For a pass that reports a change, the compile's thread only
// copies the module (Module::clone); everything else runs on a worker thread
// (passes/snapshot_printer.h): the copy's structural fingerprint (ir::ModuleFingerprint: one
// walk, no printing, the node counts with it) is compared with the states before the pass
// and before it in time, and an equal one shares that state's text, counts and compressed
// bytes without printing. Otherwise the copy is printed and the text compared with those
// states' (hash and size first, then the bytes), so `changed` stays exact and unchanged
// snapshots cost no memory. The copy of a changed state is made when the next pass starts;
// the last state is printed from the module itself when its text is needed, while the
// worker finishes the older ones. The pipeline does not wait for the printer at its end: a
// snapshot's `changed`, counts and text wait for their job only when someone reads them
// (textOf() during the pipeline waits for all). Under IRSCOPE_VERIFY_EACH=1 every "no
// change" claim and every "same" verdict of the fingerprint is checked against the printed
// text, naming the pass on a miss.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "passes/pass_instrumentation.h"
#include "passes/snapshot_printer.h"
#include "passes/timing_instrumentation.h"
#include "passes/compile_record.h"

namespace irscope::passes {

class SnapshotInstrumentation : public PassInstrumentation {
public:
    // `timing` (may be null: times stay 0) should be added to the run after this one.
    explicit SnapshotInstrumentation(const TimingInstrumentation* timing = nullptr,
                                     int compressionLevel = 1)
        : timing_(timing), level_(compressionLevel) {}

    // The snapshots so far. Their text and `changed` may still be printing: reading them
    // waits for the printer (PassSnapshot::compressed()).
    const std::vector<PassSnapshot>& snapshots() const { return snapshots_; }
    std::vector<PassSnapshot> takeSnapshots() { return std::move(snapshots_); }
    // Milliseconds the end of the pipeline spent on the snapshots (handing the last state to
    // the printer): the part of their cost that a TimingInstrumentation's total (stopped
    // before this instrumentation's afterPipeline) does not show. Waits during the pipeline
    // (for a dump, under verification) are in that total.
    double endWaitMillis() const { return endWaitMillis_; }

    // The text of the module before the first pass, when the caller already has it (a
    // compile-cache hit read it): used instead of printing the module. Under verification
    // the module is printed anyway and a different text fails the compile.
    void setBaselineText(std::shared_ptr<const std::string> text) {
        baselineText_ = std::move(text);
    }

    // The uncompressed text of the IR after `run`, if this instrumentation has already
    // taken run's snapshot (lets a dump writer avoid printing again); otherwise null.
    std::shared_ptr<const std::string> textOf(const PassRun& run) const;

    void beforePipeline(const ir::Module& m, const PassContext&) override;
    void beforePass(const PassRun& run, const ir::Module&, const PassContext&) override;
    void afterPass(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                   bool reportedChange) override;
    void onError(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                 std::string_view message) override;
    void afterPipeline(const ir::Module& m, const PassContext& ctx,
                       const PipelineResult& result) override;

private:
    // One state of the IR: its text, fingerprint and counts, filled by the printer once
    // the job that prints it is done (shared by the passes that left the same state).
    struct State {
        std::shared_ptr<SnapshotText> text;
    };

    void record(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                bool reportedChange, std::string_view error);
    // Waits for the printer to settle every job (printing a deferred state first, on this
    // thread).
    void settle() const;
    // What a snapshot reads its text and `changed` from: `result`, with the printer kept
    // alive until the snapshot is gone.
    std::shared_ptr<const PendingSnapshotText> pending(std::shared_ptr<const SnapshotResult> result);
    // Hands a deferred state to the printer as a copy of the module, before anything can
    // change the module.
    void copyDeferred();
    SnapshotPrinter& printer();

    const TimingInstrumentation* timing_;
    int level_;
    // Started by the first printed state, closed at the end of the pipeline; shared with
    // the snapshots that still wait for it.
    std::shared_ptr<SnapshotPrinter> printer_;
    State current_;                             // the IR after the last pass
    std::vector<State> open_;  // the IR before each pass still running (innermost last)
    std::uint64_t lastSequence_ = UINT64_MAX;
    bool errorRecorded_ = false;
    std::vector<PassSnapshot> snapshots_;
    double endWaitMillis_ = 0.0;
    std::shared_ptr<const std::string> baselineText_;
    // The last changed state, not copied yet: the module stays as the pass left it until
    // the next pass starts, so the copy is made then (beforePass), or, at the end of the
    // pipeline or when a text is read, the module is printed directly and never copied.
    struct Deferred {
        std::shared_ptr<SnapshotText> after;
        std::shared_ptr<const SnapshotText> last;
        std::shared_ptr<const SnapshotText> before;
        std::shared_ptr<SnapshotResult> result;
    };
    mutable std::optional<Deferred> deferred_;
    const ir::Module* module_ = nullptr;  // the module of the running pipeline
};

}  // namespace irscope::passes
