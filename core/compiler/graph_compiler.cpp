#include "compiler/graph_compiler.h"

#include <limits>
#include <unordered_map>
#include <utility>

#include "compiler/compiled_graph.h"
#include "compiler/frontend_state.h"
#include "compiler/graph_compiler_host.h"
#include "frontend/modules/ms_objects.h"
#include "ir/module.h"
#include "passes/opt_bisect.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "passes/type_inference.h"
#include "runtime/executor.h"
#include "runtime/print_format.h"
#include "passes/compile_record.h"

namespace irscope::compiler {

using interp::Interpreter;
using interp::Value;

namespace {

// The call's arguments in one list: positionals, then keywords in the order given.
std::vector<Value> flatArgs(const interp::CallArgs& args) {
    std::vector<Value> all = args.pos;
    for (const interp::KwArg& k : args.kw) {
        all.push_back(k.value);
    }
    return all;
}

// "type_inference" with the entry's input abstracts, which are known only once `parse` has
// bound the call's arguments to the entry graph's parameters.
class TypeInferenceStage : public passes::Pass {
public:
    TypeInferenceStage(Interpreter& I, std::shared_ptr<FrontendState> s,
                       std::unique_ptr<passes::Pass> probe)
        : Pass(probe->name(), probe->description()), I_(I), state_(std::move(s)) {}

    bool run(ir::Module& m, passes::PassContext& ctx) override {
        Interpreter& I = I_;
        std::vector<ir::AbstractPtr> inputs;
        for (const Value& v : entryInputs(*state_)) {
            inputs.push_back(detail::abstractOf(I, v));
        }
        return passes::makeTypeInferencePass(std::move(inputs))->run(m, ctx);
    }

private:
    Interpreter& I_;
    std::shared_ptr<FrontendState> state_;
};

// What the Python name of the compiled code is, for the traceback line of a compile error.
std::string functionName(Interpreter& I, const Value& target) {
    if (const auto* f = target.as<interp::FunctionObject>()) {
        return f->name;
    }
    (void)I;
    return modules::gradOf(target) != nullptr ? "after_grad" : "construct";
}

}  // namespace

GraphCompilerImpl::GraphCompilerImpl(CompilerOptions options,
                                     std::shared_ptr<store::Session> session)
    : options_(std::move(options)),
      session_(session ? std::move(session) : std::make_shared<store::Session>()) {}

std::shared_ptr<GraphCompilerImpl> GraphCompilerImpl::install(
    Interpreter& I, CompilerOptions options, std::shared_ptr<store::Session> session) {
    auto compiler = std::make_shared<GraphCompilerImpl>(std::move(options), std::move(session));
    if (auto ctx = modules::msContext(I)) {
        ctx->compiler = compiler;
    }
    return compiler;
}

Value GraphCompilerImpl::call(Interpreter& I, const Value& target, interp::CallArgs& args) {
    const std::shared_ptr<Compiled> c = compiled(I, target, args);
    return run(I, *c, args);
}

void GraphCompilerImpl::compile(Interpreter& I, const Value& target, interp::CallArgs& args) {
    compiled(I, target, args);
}

std::shared_ptr<GraphCompilerImpl::Compiled> GraphCompilerImpl::compiled(Interpreter& I,
                                                                         const Value& target,
                                                                         interp::CallArgs& args) {
    const std::shared_ptr<modules::MsContext> ctx = modules::msContext(I);
    const passes::Settings settings =
        detail::compileSettings(ctx.get(), options_.overrides, options_.readEnvironment);
    // The signature the record shows, and the cache key: the target's identity, the same
    // signature, which arguments are the same object (the input binding depends on it)
    // and the settings (another LOAD_ELIM level is another compile).
    std::string signature = "(";
    const std::vector<Value> all = flatArgs(args);
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i > 0) {
            signature += ", ";
        }
        if (i >= args.pos.size()) {
            signature += args.kw[i - args.pos.size()].name + "=";
        }
        signature += detail::signatureOf(I, all[i]);
    }
    signature += ")";
    std::string identity;  // which arguments are the same object
    for (std::size_t i = 0; i < all.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (all[i].isObj() && all[i].identical(all[j])) {
                identity += " #" + std::to_string(i) + "=#" + std::to_string(j);
                break;
            }
        }
    }
    // MindSpore compiles a Cell per phase: after set_train(False) the 'predict' graph (with
    // `if self.training:` folded the other way) is another compile.
    std::string phase;
    if (const Value t = I.getAttrOrNull(target, "training"); t.isBool()) {
        phase = t.asBool() ? " train" : " predict";
    }
    const std::string key =
        detail::signatureOf(I, target) + signature + identity + phase + " | " + settings.toString();
    if (const auto it = cache_.find(key); it != cache_.end()) {
        return it->second;
    }
    if (auto cached = fromDiskCache(I, target, args, signature, identity, settings)) {
        cache_[key] = cached;
        return cached;
    }
    auto c = compileNew(I, target, args, signature, settings);
    // When a tensor argument does not reach the graph as itself (parse converted it), the
    // graph is not reused: a later call would run it on this call's values.
    bool reusable = true;
    for (std::size_t j = 0; j < all.size(); ++j) {
        if (!c->used[j] && detail::holdsTensor(I, all[j])) {
            reusable = false;
        }
    }
    if (reusable) {
        cache_[key] = c;
        storeInDiskCache(I, *c);
    }
    return c;
}

std::shared_ptr<GraphCompilerImpl::Compiled> GraphCompilerImpl::compileNew(
    Interpreter& I, const Value& target, interp::CallArgs& args, const std::string& signature,
    const passes::Settings& settings) {
    passes::CompileRecord record;
    record.signature = signature;
    record.trigger = detail::triggerText(I);
    const std::string function = functionName(I, target);

    GraphCall gc;
    gc.interp = &I;
    gc.target = target;
    gc.args = args;
    gc.limits = options_.limits;
    std::shared_ptr<FrontendState> state;
    try {
        state = makeFrontendState(std::move(gc));
    } catch (const passes::CompileError& e) {
        detail::raiseSourceError(I, e, function);
    }

    auto module = std::make_unique<ir::Module>();
    passes::PassManager pm;
    pm.add(makeParsePass(state));
    pm.add(makeSymbolResolvePass(state));
    pm.add(passes::makeGraphReusingPass());
    pm.add(std::make_unique<TypeInferenceStage>(I, state, passes::makeTypeInferencePass({})));
    passes::addOptimizerPipeline(pm);
    if (options_.optBisect) {
        pm.addInstrumentation(options_.optBisect);
    }
    if (options_.customizePipeline) {
        options_.customizePipeline(pm);
    }

    passes::PassContext pctx(settings);
    pctx.setCancelToken(I.stopToken());  // the script's: one request stops both
    const passes::PipelineResult result = passes::runRecorded(pm, *module, pctx, record, serial_);
    // A compile that failed before parse made the entry still gets the name it would have.
    record.graphName = module->entry() != nullptr ? module->entry()->name()
                       : target.is<interp::FunctionObject>() || modules::gradOf(target) != nullptr
                           ? function
                           : I.typeName(target) + "_" + function;
    session_->compiles.push_back(record);

    if (result.status == passes::PipelineStatus::Cancelled) {
        I.checkCancel();  // throws ScriptAborted: the run ends as cancelled
        throw interp::PyError(interp::Exc::RuntimeError, "irscope: the compile was cancelled");
    }
    if (result.status == passes::PipelineStatus::Error) {
        if (result.exception) {
            try {
                std::rethrow_exception(result.exception);
            } catch (const passes::CompileError& e) {
                detail::raiseSourceError(I, e, function);
            } catch (const interp::PyError&) {
                throw;  // a Python error of the host code the compile ran (NameError...)
            } catch (const interp::ScriptAborted&) {
                throw;
            } catch (...) {
            }
        }
        throw interp::PyError(interp::Exc::RuntimeError, "irscope: the '" + result.failedPass +
                                                             "' pass failed: " + result.error);
    }
    if (module->entry() == nullptr) {
        throw interp::PyError(interp::Exc::RuntimeError,
                              "irscope: the compile made no entry graph");
    }

    auto c = std::make_shared<Compiled>();
    c->record = session_->compiles.size() - 1;
    // The host Parameter object holding each buffer (the first in weightParams' order), so
    // each weight finds its object in one lookup rather than a scan of every Parameter.
    std::unordered_map<const void*, Value> objectOfStorage;
    for (const auto& entry : state->weightParams) {
        Value obj(static_cast<interp::Object*>(const_cast<void*>(entry.first)));
        if (const ir::Tensor* t = detail::tensorStorage(obj)) {
            objectOfStorage.try_emplace(t->storageId(), obj);
        }
    }
    for (const WeightBinding& w : entryWeights(*state)) {
        c->weights.emplace(w.name, w.storage);
        if (auto it = objectOfStorage.find(w.storage.storageId()); it != objectOfStorage.end()) {
            c->weightObjects.emplace(w.name, it->second);
        }
    }
    // Trace every entry input back to the argument it came from (the first not yet used
    // that is the same object), so the next call with this signature feeds its own values.
    const std::vector<Value> all = flatArgs(args);
    std::vector<bool> used(all.size(), false);
    for (const Value& in : entryInputs(*state)) {
        int from = -1;
        for (std::size_t j = 0; j < all.size(); ++j) {
            if (!used[j] && all[j].identical(in)) {
                from = static_cast<int>(j);
                used[j] = true;
                break;
            }
        }
        c->source.push_back(from);
        c->fixed.push_back(from < 0 ? detail::kernelArgOf(I, in) : ops::KernelArg());
    }
    c->used = std::move(used);
    c->module = std::move(module);
    c->function = function;
    c->pinned.push_back(target);
    for (const Value& a : all) {
        detail::identityObjects(I, a, c->pinned);
    }
    return c;
}

namespace {

// The weights as the host Parameters hold them now.
std::map<std::string, ir::Tensor, std::less<>> currentWeights(
    const GraphCompilerImpl::Compiled& c) {
    std::map<std::string, ir::Tensor, std::less<>> weights = c.weights;
    for (const auto& [name, obj] : c.weightObjects) {
        const ir::Tensor* now = detail::tensorStorage(obj);
        auto it = weights.find(name);
        if (now == nullptr || it == weights.end() || now->sharesStorageWith(it->second)) {
            continue;
        }
        if (now->dtype() != it->second.dtype() || now->shape() != it->second.shape()) {
            throw interp::PyError(interp::Exc::RuntimeError,
                                  "irscope: the Parameter '" + name +
                                      "' changed its dtype or shape after the graph was "
                                      "compiled; create the network again to recompile it.");
        }
        it->second = *now;
    }
    return weights;
}

}  // namespace

Value GraphCompilerImpl::run(Interpreter& I, const Compiled& c, const interp::CallArgs& args) {
    const std::vector<Value> all = flatArgs(args);
    std::vector<ops::KernelArg> inputs;
    for (std::size_t k = 0; k < c.source.size(); ++k) {
        const int from = c.source[k];
        if (from < 0 || static_cast<std::size_t>(from) >= all.size()) {
            inputs.push_back(c.fixed[k]);
            continue;
        }
        try {
            inputs.push_back(detail::kernelArgOf(I, all[static_cast<std::size_t>(from)]));
        } catch (const passes::CompileError& e) {
            throw interp::PyError(interp::Exc::TypeError, e.message());
        }
    }
    runtime::ExecOptions opts;
    opts.print = [&I](std::string_view line) {
        std::string text(line);
        text += "\n";
        I.writeOutput(text);
    };
    opts.cancel = I.stopToken();
    const std::uint64_t maxSteps = I.limits().maxSteps;
    opts.maxSteps = maxSteps == 0 ? std::numeric_limits<std::uint64_t>::max() : maxSteps;
    if (const auto ctx = modules::msContext(I)) {
        const auto it = ctx->settings.find("max_call_depth");
        if (it != ctx->settings.end() && std::holds_alternative<std::int64_t>(it->second)) {
            opts.maxCallDepth = static_cast<std::size_t>(std::get<std::int64_t>(it->second));
        }
    }
    opts.device = options_.device;
    opts.observer = options_.observer;
    opts.keepValues = options_.observer != nullptr;  // the debugger inspects any value
    ops::KernelArg out;
    store::RunRecord record;
    record.graphName = c.module->entry()->name();
    record.compile = c.record;
    try {
        if (!c.plan) {
            c.plan = runtime::planExecution(*c.module);
        }
        runtime::Executor executor(*c.module, std::move(opts), c.plan);
        out = executor.run(inputs, currentWeights(c), &record.stats);
        record.outputs = store::summarizeOutput(out);
        record.values =
            runtime::formatPrintInputPrefix(out, store::RunRecord::kMaxValuesChars);
        if (record.values.size() > store::RunRecord::kMaxValuesChars) {
            record.values.resize(store::RunRecord::kMaxValuesChars);
            record.values += "...";
        }
        session_->runs.push_back(std::move(record));
    } catch (const runtime::EvalError& e) {
        record.error = e.message();
        session_->runs.push_back(std::move(record));
        I.checkCancel();
        detail::raiseSourceError(I, e, c.function);
    }
    const ir::Node* output = c.module->entry()->output();
    return detail::hostValueOf(I, out, output != nullptr ? output->abstract() : nullptr);
}

}  // namespace irscope::compiler
