#include "session/run_script.h"

#include "frontend/modules/modules.h"
#include "store/stats_history.h"

namespace irscope::session {

namespace {

// Appends the run's compiles to the statistics history; a history that cannot be written
// is a warning on the error stream, never a failed run.
void recordStatistics(const interp::Interpreter& I, const store::Session& s, const std::string& option) {
    try {
        if (const std::optional<std::string> path = store::statsHistoryPath(option)) {
            store::appendStatsHistory(*path, s);
        }
    } catch (const store::StatsHistoryError& e) {
        I.writeError(std::string("[WARNING] irscope: statistics history not recorded: ") +
                     e.what() + "\n");
    }
}

}  // namespace

ScriptRunner::ScriptRunner() : interpreter_(std::make_unique<interp::Interpreter>()) {
    modules::registerBuiltinModules(*interpreter_);  // mindspore, numpy, time
}

ScriptRunner::~ScriptRunner() = default;

ScriptOutcome ScriptRunner::run(const std::string& source, const std::string& path,
                                ScriptOptions options, interp::OutputSink out,
                                interp::OutputSink err) {
    interp::Interpreter& I = *interpreter_;
    ScriptOutcome outcome;
    const passes::Settings overrides = options.compiler.overrides;
    // The context owns the compiler (it holds interpreter values and must go with it); the
    // session outlives it.
    outcome.session =
        compiler::GraphCompilerImpl::install(I, std::move(options.compiler))->sharedSession();
    const std::shared_ptr<modules::MsContext> ctx = modules::msContext(I);
    if (ctx) {
        ctx->forcedMode = options.mode;
        if (options.mode) {
            ctx->mode = *options.mode;
        }
        ctx->eagerObserver = options.eagerObserver;
    }
    store::Session& s = *outcome.session;
    s.scriptPath = path;
    s.scriptText = source;
    if (s.settings.empty()) {
        s.settings = overrides;
    }
    I.limits().maxSteps = options.maxSteps;
    I.setStopToken(options.stop);
    I.setOutputSink([&I, &s, out = std::move(out), observer = options.eagerObserver](std::string_view text) {
        s.output += text;
        if (observer != nullptr) {
            observer->printed(I, text);
        }
        if (out) {
            out(text);
        }
    });
    I.setErrorSink([&s, err = std::move(err)](std::string_view text) {
        s.output += text;
        if (err) {
            err(text);
        }
    });
    const std::string statsHistory = options.statsHistory;
    outcome.result = I.runScript(source, path);
    recordStatistics(I, s, statsHistory);
    I.setOutputSink({});
    I.setErrorSink({});
    if (ctx) {
        ctx->eagerObserver = nullptr;
    }
    return outcome;
}

}  // namespace irscope::session
