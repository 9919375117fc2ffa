// VerifierInstrumentation: checks the module's structural invariants (Module::verify(): the
// use-def index, graph ownership, parameters and Return nodes) before the first pass and after
// every pass, group children included, and fails the pipeline naming the pass after which
// the IR broke, as MLIR's -verify-each does. The failure is the pass's: PipelineResult's
// failedPass is that pass, its error says what is broken.
//
// On in debug builds and wherever IRSCOPE_VERIFY_EACH=1 (every test suite sets it); off in
// release builds unless asked (irscope-cli --verify-each, or IRSCOPE_VERIFY_EACH=1).
// IRSCOPE_VERIFY_EACH=0 turns it off in a debug build.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "passes/pass_instrumentation.h"

namespace irscope::passes {

// What a verification failure throws (and what the pipeline reports as the pass's error).
class IrVerifyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class VerifierInstrumentation : public PassInstrumentation {
public:
    // Before the first pass: the module the pipeline was given (reported as that pass's
    // failure, since nothing ran yet, with a message that says so).
    void beforePass(const PassRun& run, const ir::Module& m, const PassContext& ctx) override;
    void afterPass(const PassRun& run, const ir::Module& m, const PassContext& ctx,
                   bool reportedChange) override;
};

// Whether compiles verify after every pass: the override if one is set, else
// IRSCOPE_VERIFY_EACH when set, else whether this is a debug build.
bool verifyEachPass();
// Set by a front end's --verify-each; nullopt returns to the default.
void setVerifyEachPass(std::optional<bool> on);

}  // namespace irscope::passes
