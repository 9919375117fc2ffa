// makeFrontendState and the `parse` pass: finds the function a graph-mode call compiles
// (a Cell's construct through the MRO, a @jit function or method, a jit_class instance's
// __call__) and builds its graphs.
#include "compiler/frontend_passes.h"

#include "compiler/frontend_state.h"
#include "compiler/graph_builder.h"
#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/ms_objects.h"
#include "ir/module.h"
#include "passes/compile_error.h"

namespace irscope::compiler {

namespace {

// The function to compile and its bound instance.
struct Target {
    const interp::FunctionObject* fn = nullptr;
    interp::Value self;
    bool builtinCell = false;  // a built-in Cell (nn.ReLU): compiled as a call of the Cell
};

Target findTarget(interp::Interpreter& I, const GraphCall& call) {
    Target t;
    const interp::Value& v = call.target;
    if (modules::gradOf(v) != nullptr) {
        return t;  // a grad function called from Python: parse builds `after_grad`
    }
    if (auto* f = v.as<interp::FunctionObject>()) {
        t.fn = f;
        // A @jit method: its arguments start with an instance of the defining class.
        const std::string& q = f->qualname;
        const auto dot = q.rfind('.');
        if (dot != std::string::npos && !call.args.pos.empty() && f->code != nullptr && f->code->posCount > 0) {
            std::string owner = q.substr(0, dot);
            owner = owner.substr(owner.rfind('.') == std::string::npos ? 0 : owner.rfind('.') + 1);
            for (const interp::Type* k : I.typeOf(call.args.pos[0])->mro) {
                if (k->name == owner) {
                    t.self = call.args.pos[0];
                    break;
                }
            }
        }
        return t;
    }
    interp::Type* type = I.typeOf(v);
    const bool cell = modules::isCell(v);
    const char* method = cell ? "construct" : "__call__";
    if (!cell && !modules::isJitClass(type)) {
        throw passes::CompileError("TypeError", "irscope: cannot compile a call of a '" + I.typeName(v) + "' object.");
    }
    interp::Value m = type->lookup(method);
    if (m.isNull()) {
        if (!cell) {
            throw passes::CompileError("ValueError", "MsClassObject: '" + type->name +
                                                         "' has no __call__ function, please check the code.");
        }
        throw passes::CompileError("AttributeError", "For 'Cell', the method 'construct' is not defined in '" +
                                                         type->name + "'.");
    }
    t.fn = modules::pythonFunctionOf(m);  // `@jit def construct(self)` too
    if (t.fn == nullptr && cell) {
        t.builtinCell = true;
        t.self = v;
        return t;
    }
    if (t.fn == nullptr) {
        throw passes::CompileError("TypeError", "irscope: '" + type->name + "." + method +
                                                    "' is built in, not Python code that can be compiled.");
    }
    t.self = v;
    return t;
}

class ParsePass final : public passes::Pass {
public:
    explicit ParsePass(std::shared_ptr<FrontendState> s)
        : Pass("parse", "Reads the Python source of the called function and builds its graphs: one FuncGraph "
                        "per function and per control-flow block, names not yet bound as resolve nodes."),
          s_(std::move(s)) {}

    bool run(ir::Module& m, passes::PassContext&) override {
        Target t = findTarget(s_->I, s_->call);
        if (t.builtinCell) {
            buildObjectCall(m, s_->I.typeName(t.self) + "_construct", "cell", "calling a built-in Cell");
            return true;
        }
        if (t.fn == nullptr) {
            buildObjectCall(m, "after_grad", "grad_fn", "calling a grad function");
            return true;
        }
        FunctionSpec spec;
        spec.fn = t.fn;
        spec.self = t.self;
        spec.graphName = graphNameFor(s_->I, *t.fn, t.self);
        spec.scope = "Default";
        spec.entry = true;
        // A state serves one Module: forget graphs and weights of an earlier run.
        s_->inputs.clear();
        s_->weights.clear();
        s_->fnGraphs.clear();
        s_->signatures.clear();
        s_->weightParams.clear();
        ir::FuncGraph* g = buildFunctionGraph(*s_, m, spec);
        s_->fnGraphs[{t.fn, t.self.obj()}] = g;
        sweepModule(m);
        return true;
    }

private:
    // A grad function called from Python, as MindSpore's ms_function wrapper of it
    // (`after_grad(args0, args1, ...)`), or a built-in Cell compiled as the network
    // (`ReLU_construct(args0)`): a graph returning the object's call on its parameters;
    // symbol_resolve lowers that call as in construct.
    void buildObjectCall(ir::Module& m, const std::string& graphName, const char* hostName, const char* what) {
        s_->inputs.clear();
        s_->weights.clear();
        s_->fnGraphs.clear();
        s_->signatures.clear();
        s_->weightParams.clear();
        if (!s_->call.args.kw.empty()) {
            throw passes::CompileError("TypeError", std::string("irscope: keyword arguments are not supported yet when ") +
                                                        what + ".");
        }
        s_->countGraph();
        ir::FuncGraph* g = m.addGraph(s_->uniqueGraphName(graphName));
        m.setEntry(g);
        std::vector<ir::Node*> call{m.addValue(
            g, s_->hostValue({HostEntry::Kind::Object, s_->call.target, "Default"}, hostName))};
        for (std::size_t i = 0; i < s_->call.args.pos.size(); ++i) {
            call.push_back(m.addParameter(g, "args" + std::to_string(i)));
            s_->inputs.push_back(s_->call.args.pos[i]);
        }
        ir::CNode* c = m.addCNode(g, call);
        c->mutableDebug().scope = "Default";
        m.setOutput(g, c);
    }

    std::shared_ptr<FrontendState> s_;
};

}  // namespace

std::shared_ptr<FrontendState> makeFrontendState(GraphCall call) {
    if (call.interp == nullptr) {
        throw passes::CompileError("RuntimeError", "irscope: no interpreter for the graph-mode call");
    }
    auto s = std::make_shared<FrontendState>(std::move(call));
    findTarget(s->I, s->call);  // reports an uncompilable target now
    return s;
}

const std::vector<interp::Value>& entryInputs(const FrontendState& s) {
    return s.inputs;
}

const std::vector<WeightBinding>& entryWeights(const FrontendState& s) {
    return s.weights;
}

std::unique_ptr<passes::Pass> makeParsePass(std::shared_ptr<FrontendState> s) {
    return std::make_unique<ParsePass>(std::move(s));
}

}  // namespace irscope::compiler
