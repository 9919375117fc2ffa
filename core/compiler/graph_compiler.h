// GraphCompilerImpl: what a GRAPH_MODE Cell call or a @jit call does. The first call with a
// given signature (the target, and its arguments' types with Python scalars' values)
// compiles the target through the pass pipeline (parse, symbol_resolve, type_inference,
// ...), recording every pass into a CompileRecord of the Session; later calls with the same
// signature reuse the compiled graph, as MindSpore does. Every call then runs the compiled
// entry graph with the executor (runtime/executor.h) on the call's inputs, with the
// Cell's Parameters bound by name so Assign updates them in place.
//
//   auto compiler = GraphCompilerImpl::install(interpreter);   // on mindspore's context
//   interpreter.runScript(source, "net.py");
//   compiler->session().compiles;                               // one record per compile
//
// Lifetime: the cache holds the compiled Cells and functions (interpreter objects), so the
// compiler must go with its interpreter: install() hands it to the interpreter's mindspore
// context, which the interpreter destroys. Keep sharedSession() to read the compiles later.
//
// Errors a user makes in the compiled code surface as the Python exception MindSpore raises
// (passes::CompileError: TypeError, ValueError, ...), with the construct's line in the
// traceback; failures while running are RuntimeError (or the kernel's ValueError/TypeError).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "compiler/frontend_passes.h"
#include "frontend/modules/modules.h"
#include "passes/save_graphs_instrumentation.h"
#include "passes/settings.h"
#include "store/session.h"

namespace irscope::runtime {
class ExecObserver;
}
namespace irscope::passes {
class OptBisect;
class PassManager;
}  // namespace irscope::passes

namespace irscope::compiler {

struct CompilerOptions {
    // Applied over the environment and set_context (the CLI's --save-graphs DIR sets
    // MS_DEV_SAVE_GRAPHS=1 and MS_DEV_SAVE_GRAPHS_PATH=DIR here).
    passes::Settings overrides;
    // Read MS_DEV_* from the process environment, as MindSpore does (tests turn it off).
    bool readEnvironment = true;
    CompileLimits limits;
    // Where compiled graphs run: null for the CPU, else kernels the device supports run
    // there (irscope-cli run --device).
    runtime::DevicePtr device;
    // Every run of a compiled graph reports to this observer (irscope-cli debug's debugger),
    // with every computed value kept inspectable until the run ends. Not owned; null: none.
    runtime::ExecObserver* observer = nullptr;
    // --opt-bisect-limit: decides, over every compile of the run, which skippable passes
    // run (passes/opt_bisect.h). The compile cache is not used while it is set.
    std::shared_ptr<passes::OptBisect> optBisect;
    // Called with each compile's pipeline before it runs (tests inject a deliberately
    // broken pass to bisect for).
    std::function<void(passes::PassManager&)> customizePipeline;
};

class GraphCompilerImpl : public modules::GraphCompiler {
public:
    explicit GraphCompilerImpl(CompilerOptions options = {},
                               std::shared_ptr<store::Session> session = nullptr);
    ~GraphCompilerImpl() override;

    // Makes a compiler and installs it on I's mindspore context (registerBuiltinModules must
    // have run). Returns it, for reading the session.
    static std::shared_ptr<GraphCompilerImpl> install(
        interp::Interpreter& I, CompilerOptions options = {},
        std::shared_ptr<store::Session> session = nullptr);

    // Compiles on the first call of a signature, then runs.
    interp::Value call(interp::Interpreter& I, const interp::Value& target,
                       interp::CallArgs& args) override;
    // Cell.compile(*args): compiles (once per signature) without running.
    void compile(interp::Interpreter& I, const interp::Value& target,
                 interp::CallArgs& args) override;
    // nn.GraphCell on a loaded MindIR graph (graph_compiler_mindir.cpp): the first call runs
    // task_emit on a copy (recorded like a compile), every call runs it on its inputs.
    interp::Value runLoaded(interp::Interpreter& I, const std::shared_ptr<const ir::Module>& graph,
                            const std::string& file, interp::CallArgs& args) override;
    // mindspore.export: compiles `target` for `args` (or reuses the compile) and returns a
    // copy of the graph with the Cell's weights as they are now.
    std::unique_ptr<ir::Module> exportGraph(interp::Interpreter& I, const interp::Value& target,
                                            interp::CallArgs& args) override;

    // Every compile of the run so far, in order (failed ones included).
    const store::Session& session() const { return *session_; }
    std::shared_ptr<store::Session> sharedSession() const { return session_; }
    // Compiled graphs kept for reuse (one per distinct signature).
    std::size_t cachedGraphs() const { return cache_.size(); }

    struct Compiled;  // one cached graph (compiler/compiled_graph.h)

private:
    struct DiskCache;  // the compile cache on disk (graph_compiler_cache.cpp)
    // The compile cache's entry for this compile, when the cache is on (set_context
    // enable_compile_cache / MS_COMPILER_CACHE_ENABLE): a hit is loaded and returned; a miss
    // prints MindSpore's warning and returns null, leaving `pending` set so that
    // storeInDiskCache() can store the compile's result.
    std::shared_ptr<Compiled> fromDiskCache(interp::Interpreter& I, const interp::Value& target,
                                            interp::CallArgs& args, const std::string& signature,
                                            const std::string& identity,
                                            const passes::Settings& settings);
    void storeInDiskCache(interp::Interpreter& I, const Compiled& c);
    std::shared_ptr<Compiled> compiled(interp::Interpreter& I, const interp::Value& target,
                                       interp::CallArgs& args);
    std::shared_ptr<Compiled> compileNew(interp::Interpreter& I, const interp::Value& target,
                                         interp::CallArgs& args, const std::string& signature,
                                         const passes::Settings& settings);
    interp::Value run(interp::Interpreter& I, const Compiled& c, const interp::CallArgs& args);
    // A module that arrives compiled (a compile-cache hit, a loaded MindIR graph): only
    // task_emit runs, recorded as c's compile; `what` names it in the error of a failure.
    // `text`, when known, is the module's printed IR (what a cache hit parsed).
    void emitRecorded(Compiled& c, passes::CompileRecord& record, const passes::Settings& settings,
                      const std::string& what, std::shared_ptr<const std::string> text = nullptr);

    CompilerOptions options_;
    std::shared_ptr<store::Session> session_;
    std::shared_ptr<passes::DumpSerial> serial_ = std::make_shared<passes::DumpSerial>();
    std::map<std::string, std::shared_ptr<Compiled>, std::less<>> cache_;
    // Loaded MindIR graphs prepared for running, keyed by the loaded module (kept alive).
    std::map<const ir::Module*,
             std::pair<std::shared_ptr<const ir::Module>, std::shared_ptr<Compiled>>>
        loaded_;
    std::unique_ptr<DiskCache> disk_;
    int compiles_ = 0;  // compiles so far (a compile's position: MindSpore's compile_cache_id)
};

}  // namespace irscope::compiler
