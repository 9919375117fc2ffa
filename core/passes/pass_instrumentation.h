// PassInstrumentation: hooks the PassManager calls around the pipeline and every pass
// (every group child included), in the manner of MLIR's PassInstrumentation. Timing,
// snapshots, change detection and save_graphs dumps are instrumentations; passes never do
// any of it themselves.
//
// Order: before-hooks run in the order instrumentations were added, after-hooks and
// error-hooks in the reverse order, so an instrumentation added later nests inside one
// added earlier (add timing last so that it measures the pass alone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "passes/pass.h"

namespace irscope::passes {

enum class PipelineStatus { Ok, Error, Cancelled };
std::string_view statusName(PipelineStatus s);  // "ok", "error", "cancelled"

struct PipelineResult {
    PipelineStatus status = PipelineStatus::Ok;
    std::string failedPass;  // path of the pass that threw ("opt_a/cse"); empty unless Error
    std::string error;       // its message; empty unless Error
    // What the failing pass threw, so a driver can rethrow it as it was (a CompileError
    // keeps its Python exception type and source location); null unless Error.
    std::exception_ptr exception;
};

// One execution of one pass within a pipeline run. Valid only during the hook it is passed
// to (copy what is needed; `parent` points into the PassManager's stack).
struct PassRun {
    const Pass* pass = nullptr;
    std::string path;                 // "type_inference"; a group's child: "opt_a/cse"
    int depth = 0;                    // 0 top-level, 1 a group's child, 2 a child of a nested group
    std::size_t stage = 0;            // index of the top-level pass (MindSpore's action index)
    std::size_t index = 0;            // index among its siblings (== stage at depth 0)
    int round = 0;                    // the enclosing group's round (0-based); 0 at depth 0
    std::uint64_t sequence = 0;       // 0, 1, 2, ... in execution order within the run
    const PassRun* parent = nullptr;  // the enclosing group's run; nullptr at depth 0
};

class PassInstrumentation {
public:
    PassInstrumentation() = default;
    PassInstrumentation(const PassInstrumentation&) = delete;
    PassInstrumentation& operator=(const PassInstrumentation&) = delete;
    virtual ~PassInstrumentation() = default;

    virtual void beforePipeline(const ir::Module&, const PassContext&) {}
    // Asked before each skippable pass (Pass::skippable()), before its beforePass; every
    // instrumentation is asked, and if any says false the pass is skipped: no hooks, no
    // snapshot, as LLVM's shouldRun callbacks skip optional passes (passes/opt_bisect.h).
    virtual bool shouldRun(const PassRun&, const ir::Module&, const PassContext&) { return true; }
    virtual void beforePass(const PassRun&, const ir::Module&, const PassContext&) {}
    // After a pass returned normally. `reportedChange` is what it returned (for a group:
    // whether any child reported a change in any round).
    virtual void afterPass(const PassRun&, const ir::Module&, const PassContext&,
                           bool /*reportedChange*/) {}
    // A pass threw (`message` is what()). Called for the failing pass, then for each
    // enclosing group, innermost first. No afterPass follows for any of them.
    virtual void onError(const PassRun&, const ir::Module&, const PassContext&,
                         std::string_view /*message*/) {}
    // Always called once the run ends: completed, failed or cancelled. A pass cancelled
    // part-way through a group gets neither afterPass nor onError for the group.
    virtual void afterPipeline(const ir::Module&, const PassContext&, const PipelineResult&) {}
};

}  // namespace irscope::passes
