#include "passes/compile_record.h"

#include "ir/ir_text.h"
#include "passes/pass_manager.h"
#include "passes/save_graphs_instrumentation.h"
#include "passes/snapshot_instrumentation.h"
#include "passes/timing_instrumentation.h"
#include "passes/verifier_instrumentation.h"

namespace irscope::passes {

std::unique_ptr<ir::Module> PassSnapshot::module() const {
    return ir::parseIr(text(), pass + ".ir");
}

std::string PassSnapshot::failure() const {
    if (!error.empty()) {
        return error;
    }
    const std::string why = printError();
    return why.empty() ? std::string() : "the IR could not be printed: " + why;
}

void PassSnapshot::setChanged(bool changed) {
    if (pending_) {
        setCompressed(compressed());
    }
    changed_ = changed;
}

void PassSnapshot::setCounts(ir::NodeCounts counts) {
    if (pending_) {
        setCompressed(compressed());
    }
    counts_ = counts;
}

void PassSnapshot::setCompressed(std::shared_ptr<const util::CompressedText> text) {
    if (pending_) {
        error = failure();  // the printer's reason would go with the job
        changed_ = pending_->wait().changed;
        counts_ = pending_->wait().counts;
        pending_.reset();
    }
    compressed_ = std::move(text);
}

const PassSnapshot* CompileRecord::find(std::string_view pass, bool last) const {
    const PassSnapshot* found = nullptr;
    for (const PassSnapshot& s : snapshots) {
        if (s.pass == pass) {
            if (!last) {
                return &s;
            }
            found = &s;
        }
    }
    return found;
}

void CompileRecord::settleSnapshots() const {
    for (const PassSnapshot& s : snapshots) {
        (void)s.compressed();
    }
}

PipelineResult runRecorded(PassManager& pm, ir::Module& m, PassContext& ctx,
                           CompileRecord& record, std::shared_ptr<DumpSerial> serial,
                           std::shared_ptr<const std::string> baselineText) {
    TimingInstrumentation timing;
    SnapshotInstrumentation snapshots(&timing);
    snapshots.setBaselineText(std::move(baselineText));
    SaveGraphsInstrumentation saveGraphs(std::move(serial), &snapshots);
    VerifierInstrumentation verifier;
    // After-hooks run in reverse: timing stops first, then the IR is verified (a pass that
    // broke it fails, and its snapshot keeps the IR it left with the verifier's error), then
    // the snapshot is taken, then the dump reuses the snapshot's text.
    std::vector<PassInstrumentation*> insts = {&saveGraphs, &snapshots};
    if (verifyEachPass()) {
        insts.push_back(&verifier);
    }
    insts.push_back(&timing);

    record.settings = ctx.settings();
    const PipelineResult result = pm.run(m, ctx, insts);
    record.snapshots = snapshots.takeSnapshots();
    record.status = result.status;
    record.failedPass = result.failedPass;
    record.error = result.error;
    // The pipeline's total, and what its end waited for the snapshot printer.
    record.totalMillis = timing.totalMillis() + snapshots.endWaitMillis();
    record.warnings.insert(record.warnings.end(), saveGraphs.errors().begin(),
                           saveGraphs.errors().end());
    return result;
}

}  // namespace irscope::passes
