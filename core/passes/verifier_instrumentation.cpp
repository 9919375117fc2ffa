#include "passes/verifier_instrumentation.h"

#include <atomic>
#include <cstdlib>
#include <string_view>

#include "ir/module.h"

namespace irscope::passes {

namespace {

// -1 no override, 0 off, 1 on.
std::atomic<int> overrideState{-1};

bool defaultFromEnvironment() {
    if (const char* env = std::getenv("IRSCOPE_VERIFY_EACH"); env != nullptr && *env != '\0') {
        const std::string_view v(env);
        return !(v == "0" || v == "false" || v == "False" || v == "off");
    }
#ifdef NDEBUG
    return false;
#else
    return true;
#endif
}

}  // namespace

bool verifyEachPass() {
    const int o = overrideState.load(std::memory_order_relaxed);
    if (o >= 0) {
        return o == 1;
    }
    static const bool fromEnvironment = defaultFromEnvironment();
    return fromEnvironment;
}

void setVerifyEachPass(std::optional<bool> on) {
    overrideState.store(on ? (*on ? 1 : 0) : -1, std::memory_order_relaxed);
}

void VerifierInstrumentation::beforePass(const PassRun& run, const ir::Module& m, const PassContext&) {
    if (run.sequence != 0) {
        return;
    }
    if (const std::string problem = m.verify(); !problem.empty()) {
        throw IrVerifyError("IR verification failed before pass '" + run.path +
                            "', the first one (the module given to the pipeline is broken): " + problem);
    }
}

void VerifierInstrumentation::afterPass(const PassRun& run, const ir::Module& m, const PassContext&,
                                        bool) {
    if (const std::string problem = m.verify(); !problem.empty()) {
        throw IrVerifyError("IR verification failed after pass '" + run.path + "': " + problem);
    }
}

}  // namespace irscope::passes
