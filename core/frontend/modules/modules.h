// The built-in `mindspore`, `numpy` and `time` modules of the host interpreter (PyNative,
// i.e. eager, execution): tensors backed by ir::Tensor, every registry primitive under
// its Python spellings (run through the CPU kernels), nn.Cell and a few layers, the context
// (set_context / GRAPH_MODE), decorators, and a numpy subset with numpy's seeded random.
//
//   Interpreter I;
//   registerBuiltinModules(I);        // `import mindspore as ms`, `import numpy as np`, ...
//
// A bare Interpreter has none of these (its tests expect `import numpy` to fail); the CLI's
// `run` path and the app register them.
//
// GRAPH_MODE and @jit: calling a Cell while the context's mode is GRAPH_MODE, or calling a
// @jit function, goes to the GraphCompiler installed on the module context. Until one is
// installed such calls raise
//   RuntimeError: irscope: GRAPH_MODE compilation is not available yet (...)
// instead of silently running eagerly.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "frontend/interp/interpreter.h"
#include "runtime/random.h"

namespace irscope::ir {
class Module;
}
namespace irscope::ops {
struct OpDef;
class KernelArg;
}  // namespace irscope::ops

namespace irscope::modules {

// Compiles and runs a Cell call (GRAPH_MODE) or a @jit function / method call.
class GraphCompiler {
public:
    virtual ~GraphCompiler() = default;
    // `target` is the Cell instance (a Cell call) or the original, undecorated function
    // (args then include `self` for a @jit method). Returns the call's result.
    virtual interp::Value call(interp::Interpreter& I, const interp::Value& target, interp::CallArgs& args) = 0;
    // Cell.compile(*args): compiles the Cell for these arguments without running it (the
    // compiled graph is reused by the next call with the same signature).
    // The default compiles nothing.
    virtual void compile(interp::Interpreter& I, const interp::Value& target, interp::CallArgs& args) {
        (void)I, (void)target, (void)args;
    }
    // Both default to RuntimeError (a compiler that cannot run or export graphs).
    // nn.GraphCell(mindspore.load(FILE))(*args): runs a graph loaded from a MindIR file
    // (its entry's inputs from `args`, its weights from the file). Returns the output.
    virtual interp::Value runLoaded(interp::Interpreter& I, const std::shared_ptr<const ir::Module>& graph,
                                    const std::string& file, interp::CallArgs& args);
    // mindspore.export: the graph the Cell `target` compiles to for `args` (a copy, weights
    // as the Cell holds them now).
    virtual std::unique_ptr<ir::Module> exportGraph(interp::Interpreter& I, const interp::Value& target,
                                                    interp::CallArgs& args);
};

// Sees every primitive PyNative mode runs eagerly (not the kernels of compiled graphs: those
// report to the compiler's runtime::ExecObserver), right after it ran, on the script's thread.
class EagerObserver {
public:
    virtual ~EagerObserver() = default;
    virtual void afterOp(interp::Interpreter& I, const ops::OpDef& op, const ops::KernelArg& output) = 0;
    // Text the script printed (print(), or a compiled graph's Print kernel while it runs).
    virtual void printed(interp::Interpreter& I, std::string_view text) {
        (void)I;
        (void)text;
    }
};

// One set_context setting as given (int, float, bool or str).
using ContextValue = std::variant<std::int64_t, double, bool, std::string>;

// The state the modules share for one interpreter (what the compiler reads).
struct MsContext {
    static constexpr std::int64_t kGraphMode = 0;     // ms.GRAPH_MODE
    static constexpr std::int64_t kPynativeMode = 1;  // ms.PYNATIVE_MODE (the default)
    std::int64_t mode = kPynativeMode;
    // Set: the mode stays this one whatever the script asks set_context for (irscope-cli
    // diverge --a mode=pynative runs a GRAPH_MODE script eagerly).
    std::optional<std::int64_t> forcedMode;
    EagerObserver* eagerObserver = nullptr;  // not owned; null: none
    // Every set_context keyword as given (mode and device_target included), in call order
    // of first appearance.
    std::map<std::string, ContextValue> settings;
    std::shared_ptr<GraphCompiler> compiler;  // null: GRAPH_MODE / @jit raise
    runtime::RandomState npRandom;           // np.random's global generator
    double sleepCapSeconds = 10.0;            // time.sleep is bounded by this
};

// Registers "mindspore" (and its submodules), "numpy", "numpy.random" and "time" on I.
// Returns the shared context (also reachable later with msContext(I)).
std::shared_ptr<MsContext> registerBuiltinModules(interp::Interpreter& I);
// The context registerBuiltinModules made for I, or null.
std::shared_ptr<MsContext> msContext(interp::Interpreter& I);

}  // namespace irscope::modules
