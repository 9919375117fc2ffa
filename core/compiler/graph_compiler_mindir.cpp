// GraphCompilerImpl's MindIR side: running a graph loaded by mindspore.load through
// nn.GraphCell, and the graph mindspore.export writes. A loaded graph is already optimized
// (MindSpore exported it after its pipeline), so it goes through the backend actions only
// (task_emit: execution order and memory plan), recorded in the session like a compile, and
// then runs on the same executor as compiled Cells (devices, debugger, run records).
#include "compiler/compiled_graph.h"
#include "compiler/graph_compiler.h"
#include "compiler/graph_compiler_host.h"
#include "frontend/interp/errors.h"
#include "passes/pass_manager.h"
#include "passes/pipeline.h"
#include "passes/compile_record.h"

namespace irscope::compiler {

using interp::Interpreter;
using interp::Value;

namespace {

std::string inputDescription(std::size_t i) {
    return "the " + std::to_string(i + 1) + "-th input";
}

// MindSpore checks a GraphCell call's inputs against the graph's input types.
void checkInput(std::size_t i, const ir::AbstractPtr& want, const ops::KernelArg& got) {
    if (!want || want->kind != ir::Abstract::Kind::Tensor || !got.isTensor()) {
        return;
    }
    const ir::Tensor& t = got.tensor();
    if (t.dtype() != want->dtype) {
        throw interp::PyError(interp::Exc::TypeError,
                              "For 'GraphCell', " + inputDescription(i) + "'s dtype should be " +
                                  std::string(ir::dtypeName(want->dtype)) + ", but got " +
                                  std::string(ir::dtypeName(t.dtype())) + ".");
    }
    const ir::Shape& s = want->shape;
    bool ok = !s.dynamicRank ? s.rank() == t.rank() : true;
    for (std::size_t d = 0; ok && !s.dynamicRank && d < s.rank(); ++d) {
        ok = s.dims[d] < 0 || s.dims[d] == t.shape().dims[d];
    }
    if (!ok) {
        throw interp::PyError(interp::Exc::ValueError,
                              "For 'GraphCell', " + inputDescription(i) + "'s shape should be " +
                                  s.toString() + ", but got " + t.shape().toString() + ".");
    }
}

}  // namespace

Value GraphCompilerImpl::runLoaded(Interpreter& I, const std::shared_ptr<const ir::Module>& graph,
                                   const std::string& file, interp::CallArgs& args) {
    if (!args.kw.empty()) {
        throw interp::PyError(interp::Exc::TypeError,
                              "For 'GraphCell', the inputs must be positional, but got keyword '" +
                                  args.kw.front().name + "'.");
    }
    auto& slot = loaded_[graph.get()];
    if (!slot.second) {
        auto c = std::make_shared<Compiled>();
        c->module = graph->clone();
        passes::CompileRecord record;
        record.signature = "(" + std::to_string(args.pos.size()) + " inputs) from " + file;
        record.trigger = detail::triggerText(I);
        const std::shared_ptr<modules::MsContext> ctx = modules::msContext(I);
        emitRecorded(*c, record,
                     detail::compileSettings(ctx.get(), options_.overrides, options_.readEnvironment),
                     "loaded graph");
        c->function = "construct";
        int next = 0;
        for (const ir::Parameter* p : c->module->entry()->parameters()) {
            if (p->hasDefault()) {
                const ir::ValuePtr& v = p->defaultValue();
                if (!v || !v->tensor || !v->tensor->hasData()) {
                    throw interp::PyError(interp::Exc::RuntimeError,
                                          "irscope: the weight '" + p->name() + "' of " + file +
                                              " has no data to run with");
                }
                c->weights.emplace(p->name(), ir::Tensor::fromValueData(*v->tensor));
            } else {
                c->source.push_back(next++);
                c->fixed.emplace_back();
            }
        }
        c->used.assign(static_cast<std::size_t>(next), true);
        slot = {graph, std::move(c)};
    }
    const Compiled& c = *slot.second;
    if (args.pos.size() != c.source.size()) {
        throw interp::PyError(interp::Exc::TypeError,
                              "For 'GraphCell', the number of inputs should be " +
                                  std::to_string(c.source.size()) + ", but got " +
                                  std::to_string(args.pos.size()) + ".");
    }
    std::size_t k = 0;
    for (const ir::Parameter* p : c.module->entry()->parameters()) {
        if (!p->hasDefault()) {
            checkInput(k, p->abstract(), detail::kernelArgOf(I, args.pos[k]));
            ++k;
        }
    }
    return run(I, c, args);
}

std::unique_ptr<ir::Module> GraphCompilerImpl::exportGraph(Interpreter& I, const Value& target,
                                                           interp::CallArgs& args) {
    const std::shared_ptr<Compiled> c = compiled(I, target, args);
    auto copy = c->module->clone();
    // The weights as the Cell holds them now (training may have changed them).
    for (ir::Parameter* p : copy->entry()->parameters()) {
        if (!p->hasDefault()) {
            continue;
        }
        const ir::Tensor* now = nullptr;
        if (auto obj = c->weightObjects.find(p->name()); obj != c->weightObjects.end()) {
            now = detail::tensorStorage(obj->second);
        }
        if (now == nullptr) {
            if (auto w = c->weights.find(p->name()); w != c->weights.end()) {
                now = &w->second;
            }
        }
        if (now != nullptr) {
            p->setDefault(ir::Value::tensorValue(now->toValueData()));
        }
    }
    return copy;
}

}  // namespace irscope::compiler
