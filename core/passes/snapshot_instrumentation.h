// SnapshotInstrumentation: after every pass run (group children included) records a
// session::PassSnapshot — the printed .ir text compressed with zstd, node counts, whether
// the text really changed, the pass's description, the memory plan's peak when there is
// one, and the pass's time from a TimingInstrumentation. A pass that throws gets a
// snapshot too, carrying the error and the IR as the pass left it.
//
// Change detection first compares the module's structural fingerprint (ir::ModuleFingerprint:
// one walk, no printing) with the one before the pass: equal, the pass changed nothing and
// its snapshot shares its predecessor's text, table and counts without printing. Only a
// different fingerprint prints the IR, and the text is then compared with the text before
// the pass (hash and size first, then the bytes), so `changed` stays exact. Unchanged
// snapshots share their predecessor's compressed bytes and cost no memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/module_fingerprint.h"
#include "passes/pass_instrumentation.h"
#include "passes/timing_instrumentation.h"
#include "session/compile_record.h"

namespace irscope::passes {

class SnapshotInstrumentation : public PassInstrumentation {
public:
    // `timing` (may be null: times stay 0) should be added to the run after this one.
    explicit SnapshotInstrumentation(const TimingInstrumentation* timing = nullptr,
                                     int compressionLevel = 3)
        : timing_(timing), level_(compressionLevel) {}

    const std::vector<session::PassSnapshot>& snapshots() const { return snapshots_; }
    std::vector<session::PassSnapshot> takeSnapshots() { return std::move(snapshots_); }

    // The uncompressed text just printed for `run`, if this instrumentation has already
    // taken run's snapshot (lets a dump writer avoid printing again); otherwise null.
    std::shared_ptr<const std::string> textOf(const PassRun& run) const {
        return lastSequence_ == run.sequence ? current_.text : nullptr;
    }

    void beforePipeline(const ir::Module& m, const PassContext&) override;
    void beforePass(const PassRun& run, const ir::Module&, const PassContext&) override;
    void afterPass(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                   bool reportedChange) override;
    void onError(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                 std::string_view message) override;

private:
    // One state of the IR: its structural fingerprint, and its text once printed.
    struct State {
        ir::ModuleFingerprint fingerprint;
        std::shared_ptr<const std::string> text;  // null when not printed (yet)
        std::size_t hash = 0;
        std::shared_ptr<const util::CompressedText> blob;  // null until compressed
    };

    void record(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                bool reportedChange, std::string_view error);
    static bool sameText(const State& a, const State& b);

    const TimingInstrumentation* timing_;
    int level_;
    State current_;            // the IR as last printed
    std::vector<State> open_;  // the IR before each pass still running (innermost last)
    std::uint64_t lastSequence_ = UINT64_MAX;
    bool errorRecorded_ = false;
    std::vector<session::PassSnapshot> snapshots_;
};

}  // namespace irscope::passes
