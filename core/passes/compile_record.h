// CompileRecord: everything one compile of one graph left behind — the IR after every
// pass (compressed .ir text), with its wall time, node counts and whether the pass really
// changed the IR. The GUI's pass list, IR views, diffs and statistics read these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "passes/pass_instrumentation.h"
#include "passes/settings.h"
#include "util/compressed_text.h"

namespace irscope::passes {

class PassManager;
struct DumpSerial;

// A snapshot whose text a printer is still producing (passes/snapshot_printer.h): the
// compile does not wait for its snapshots to be printed; the first reader of a snapshot's
// text or `changed` does.
class PendingSnapshotText {
public:
    struct Outcome {
        bool changed = false;
        std::shared_ptr<const util::CompressedText> blob;
        std::string error;  // why the IR could not be printed, if it could not
        ir::NodeCounts counts;  // of the IR after the pass
    };
    virtual ~PendingSnapshotText() = default;
    // Blocks until the printer has settled the snapshot (or dropped it: an error then).
    virtual const Outcome& wait() const = 0;
};

// The IR as one pass left it.
struct PassSnapshot {
    std::string pass;         // "type_inference"; a group's child: "opt_a/cse"
    std::string description;  // the pass's plain-language description
    int depth = 0;            // 0 top-level, 1 a group's child (opt_a's sub-passes)
    int round = 0;            // a group's child: the group's round (0-based)
    double millis = 0.0;      // wall time of the pass itself (steady clock)
    bool reportedChange = false;             // what the pass itself returned
    std::optional<std::uint64_t> peakBytes;  // the memory plan's peak, once there is one
    // Non-empty when the pass threw: the IR is as the pass left it. What a reader shows or
    // saves is failure(), which also says when the IR could not be printed.
    std::string error;
    // The file the snapshot was read from (a save_graphs dump folder, session/dump_folder.h);
    // empty for a snapshot a compile took.
    std::string sourceFile;

    // The printed IR differs from the one before the pass (a pass that claimed a change
    // but left the same text is unchanged). For a group: compared with the IR before the
    // group's first child. Waits for the printer when the snapshot is still pending.
    bool changed() const { return pending_ ? pending_->wait().changed : changed_; }
    // Graphs, nodes and cnodes reachable from the entry after the pass (the printer counts
    // them from its copy of the module). Waits like changed().
    ir::NodeCounts counts() const { return pending_ ? pending_->wait().counts : counts_; }
    // The printed .ir text, compressed; passes that change nothing share their
    // predecessor's bytes. Null only when the IR could not be printed. Waits like changed().
    const std::shared_ptr<const util::CompressedText>& compressed() const {
        return pending_ ? pending_->wait().blob : compressed_;
    }
    // Why the IR could not be printed after this pass (empty when it was).
    std::string printError() const { return pending_ ? pending_->wait().error : std::string(); }
    // What went wrong with this snapshot, for display and saving: the pass's error, else
    // "the IR could not be printed: <why>" when its text is missing, else empty. Waits
    // like changed().
    std::string failure() const;
    void setChanged(bool changed);
    void setCounts(ir::NodeCounts counts);
    void setCompressed(std::shared_ptr<const util::CompressedText> text);
    // The snapshot's text and `changed` are the printer's, when it gets to them.
    void setPending(std::shared_ptr<const PendingSnapshotText> pending) { pending_ = std::move(pending); }

    std::string text() const { return compressed() ? compressed()->text() : std::string(); }
    // The IR parsed back from text() (parseIr; throws ParseError on a printer bug).
    std::unique_ptr<ir::Module> module() const;
    std::size_t rawSize() const { return compressed() ? compressed()->rawSize() : 0; }
    std::size_t compressedSize() const { return compressed() ? compressed()->compressedSize() : 0; }

private:
    bool changed_ = false;
    ir::NodeCounts counts_;
    std::shared_ptr<const util::CompressedText> compressed_;
    std::shared_ptr<const PendingSnapshotText> pending_;
};

using CompileStatus = PipelineStatus;

struct CompileRecord {
    std::string graphName;                // the entry graph: "Net_construct"
    std::string signature;                // input types: "(Tensor[Int32](), Tensor[Int32]())"
    std::string trigger;                  // what called it: "net(x) at net.py:12"
    Settings settings;            // as the compile saw them
    std::vector<PassSnapshot> snapshots;  // in the order the passes finished
    CompileStatus status = CompileStatus::Ok;
    std::string failedPass;             // path of the failing pass when status is Error
    std::string error;                  // its message
    double totalMillis = 0.0;           // the whole pipeline, instrumentation included
    std::vector<std::string> warnings;  // e.g. save_graphs files that could not be written
    // Loaded from the compile cache (store/compile_cache.h): the front end and optimizer were
    // skipped, the snapshots are the backend actions' (task_emit) on the cached IR.
    bool fromCache = false;
    double cacheLoadMillis = 0.0;  // reading and parsing the cached IR (not in totalMillis)

    // The first snapshot of `pass` ("cse" matches only a top-level pass; use "opt_a/cse"),
    // or the last one when `last` is set. nullptr if there is none.
    const PassSnapshot* find(std::string_view pass, bool last = false) const;
    // Waits until every snapshot's text and `changed` are in (the printer finishes after
    // the compile): a thread that must not block later (the GUI's) has this done first.
    void settleSnapshots() const;
};

// Runs `pm` over `m`, recording into `record`: its settings (from ctx), one snapshot per
// pass run with its time, and status, error, total time and warnings. Adds timing,
// snapshot and save-graphs instrumentation for this run only; save_graphs files are
// written when ctx's settings ask for them (MS_DEV_SAVE_GRAPHS), numbered from `serial`
// (shared by all compiles of a session, as MindSpore numbers dumps per process; a fresh
// counter when null). graphName, signature and trigger are left to the caller. Returns the
// pipeline's result (with the failing pass's exception, for a driver to rethrow).
// `baselineText`, when the caller has it, is printIr(m) before the first pass (a
// compile-cache hit read that text): the snapshots compare with it instead of printing m.
PipelineResult runRecorded(PassManager& pm, ir::Module& m, PassContext& ctx,
                           CompileRecord& record, std::shared_ptr<DumpSerial> serial = nullptr,
                           std::shared_ptr<const std::string> baselineText = nullptr);

}  // namespace irscope::passes
