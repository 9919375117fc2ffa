// type_inference of automatic differentiation (passes/README.md, meta_fg_expand):
//  - `GradOperation{...}(fn[, weights])`, `grad{...}(...)`, `value_and_grad{...}(...)` are
//    function values; fn must be a graph known at compile time;
//  - the call `%g(inputs...)` specializes fn for the inputs' abstracts (the sens input of
//    sens_param and trailing monads excluded), retargets %g's input 1 to that
//    specialization, and infers the result: the gradients laid out as autodiff::layoutOf
//    says (a gradient has its input's tensor abstract; a weight's is its Ref's tensor),
//    paired with the value for value_and_grad, with the aux outputs for has_aux.
#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

#include "ops/infer_util.h"
#include "passes/autodiff.h"
#include "ir/prim_names.h"
#include "passes/type_inference_engine.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::AbstractPtr;
using ir::CNode;
using ir::FuncGraph;
using ir::Node;

namespace {

// The abstract of the gradient of a value with abstract `a`.
AbstractPtr gradAbstract(const AbstractPtr& a) {
    switch (a->kind) {
        case Abstract::Kind::Tensor:
        case Abstract::Kind::Ref:
            return Abstract::tensor(a->dtype, a->shape);
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List: {
            std::vector<AbstractPtr> elems;
            for (const AbstractPtr& e : a->elements) {
                elems.push_back(gradAbstract(e));
            }
            return Abstract::tuple(std::move(elems));
        }
        case Abstract::Kind::Scalar:
            return Abstract::scalar(a->dtype);
        default:
            return a;
    }
}

bool differentiable(const AbstractPtr& a) {
    if (ops::isTensorAbs(a)) {
        return true;
    }
    if (a->kind == Abstract::Kind::Tuple) {
        return !a->elements.empty() &&
               std::all_of(a->elements.begin(), a->elements.end(), differentiable);
    }
    return false;
}

}  // namespace

FuncGraph* Engine::varargsCaller(FuncGraph* g, std::size_t n, const CNode* site) {
    const ir::ValuePtr at = g->attrs().get("varargs");
    if (!at || at->kind != ir::Value::Kind::Int || at->i < 0 ||
        static_cast<std::size_t>(at->i) + 1 != g->parameters().size() ||
        n < static_cast<std::size_t>(at->i)) {
        return nullptr;
    }
    const auto k = static_cast<std::size_t>(at->i);
    auto [it, fresh] = varargsCallers_.try_emplace(std::make_pair(g, n), nullptr);
    if (!fresh) {
        return it->second;
    }
    // @g_varargs(p0, ..., pn-1) = @g(p0, ..., pk-1, (pk, ..., pn-1)): the grad differentiates
    // the arguments one by one, as the call gave them.
    FuncGraph* w = m_.addGraph(g->name() + "_varargs");
    w->debug() = g->debug();
    std::vector<Node*> call{valueNode(w, ir::Value::graphRef(g))};
    std::vector<Node*> rest{valueNode(w, ir::Value::primitive(std::string(ir::prim::kMakeTuple)))};
    for (std::size_t i = 0; i < n; ++i) {
        Node* p = m_.addParameter(w, i < k ? g->parameters()[i]->name() : "arg" + std::to_string(i));
        (i < k ? call : rest).push_back(p);
    }
    CNode* tuple = m_.addCNode(w, rest);
    call.push_back(tuple);
    CNode* out = m_.addCNode(w, call);
    for (CNode* made : {tuple, out}) {
        made->copyLocation(*site);
    }
    m_.setOutput(w, out);
    templates_.push_back(w);  // like the parsed graphs: only its specializations stay
    it->second = w;
    return w;
}

Arg Engine::inferGradOp(CNode* c) {
    const std::string& name = c->primitive()->name;
    if (c->size() < 2 || c->size() > 3) {
        error(c, "TypeError",
              "For '" + name + "', it takes the function to differentiate and the weights.");
    }
    const Arg fn = argOf(c->input(1));
    if (!fn.abs) {
        return pending(c);
    }
    if (!fn.fn || fn.fn->kind != FuncVal::Kind::Graph) {
        error(c, "TypeError",
              "For '" + name +
                  "', the function to differentiate must be a Cell or a function known at "
                  "compile time, but got " +
                  describe(fn.abs) + ".");
    }
    auto f = std::make_shared<FuncVal>();
    f->kind = FuncVal::Kind::Prim;
    f->prim = static_cast<ir::ValueNode*>(c->input(0))->value();
    Arg r{c, Abstract::func(), f};
    setResult(c, r);
    return r;
}

std::optional<Arg> Engine::inferGradCall(CNode* c) {
    auto* g = ir::nodeCast<CNode>(c->input(0));
    if (g == nullptr || g->primitive() == nullptr ||
        !autodiff::isGradPrimitive(g->primitive()->name)) {
        return std::nullopt;
    }
    std::optional<autodiff::GradSpec> spec = autodiff::GradSpec::of(*g->primitive(), g->size() > 2);
    const Arg fn = argOf(g->input(1));
    std::optional<std::vector<Arg>> args = knownInputs(c);
    if (!fn.abs || !args) {
        return pending(c);
    }
    if (!fn.fn || fn.fn->kind != FuncVal::Kind::Graph) {
        return inferGradOp(g);  // reports the error
    }
    std::size_t n = args->size();
    while (n > 0 && args->at(n - 1).abs->kind == Abstract::Kind::Monad) {
        --n;
    }
    std::vector<Arg> inputs(args->begin(), args->begin() + static_cast<std::ptrdiff_t>(n));
    if (spec->sensParam) {
        if (inputs.empty()) {
            error(c, "TypeError",
                  "For 'GradOperation', sens_param=True needs the sensitivity as the last input.");
        }
        inputs.pop_back();
    }
    AbstractPtr weightsAbs;
    if (spec->hasWeights) {
        weightsAbs = argOf(g->input(2)).abs;
        if (!weightsAbs) {
            return pending(c);
        }
        const bool ok =
            weightsAbs->kind == Abstract::Kind::Ref ||
            (weightsAbs->kind == Abstract::Kind::Tuple &&
             std::all_of(weightsAbs->elements.begin(), weightsAbs->elements.end(),
                         [](const AbstractPtr& e) { return e->kind == Abstract::Kind::Ref; }));
        if (!ok) {
            error(g, "TypeError",
                  "For '" + spec->name +
                      "', the weights must be a Parameter or a tuple of "
                      "Parameters, but got " +
                      describe(weightsAbs) + ".");
        }
    }
    if (g->users().size() > 1) {
        // Each call differentiates its own specialization: give this one its own node.
        CNode* own = m_.addCNode(g->graph(), g->inputs());
        own->shareDebug(*g);
        auto it = order_.find(g);
        order_[own] = it != order_.end() ? it->second : OrderKey{g->id(), ++seq_};
        setResult(own, argOf(g));
        m_.setInput(c, 0, own);
        g = own;
    }
    FuncGraph* target = fn.fn->graph;
    if (FuncGraph* w = varargsCaller(target, inputs.size(), c)) {
        target = w;  // a function taking *args: its arguments gathered into the tuple
    }
    Spec& s = specialize(target, inputs, c, false);
    if (!s.ret) {
        return pending(c);
    }
    if (g->size() == 2 && g->primitive()->attrs.get(std::string(autodiff::kForwardWeightsAttr))) {
        // The weights the forward reads (Parameters with a value), first read first.
        std::vector<ir::Node*> weights;
        std::set<const ir::Node*> seenNodes;
        std::set<const FuncGraph*> seenGraphs;
        std::function<void(const FuncGraph*)> walk = [&](const FuncGraph* h) {
            if (!seenGraphs.insert(h).second) {
                return;
            }
            for (const CNode* node : h->topoOrder()) {
                for (ir::Node* in : node->inputs()) {
                    const auto* p = ir::nodeCast<ir::Parameter>(in);
                    if (p != nullptr && p->hasDefault() && seenNodes.insert(p).second) {
                        weights.push_back(in);
                    }
                    const auto* v = ir::nodeCast<ir::ValueNode>(in);
                    if (v != nullptr && v->value()->kind == ir::Value::Kind::Graph) {
                        walk(v->value()->graph);
                    }
                }
            }
        };
        walk(s.graph);
        const Arg tuple = emitPrim(g, "MakeTuple", weights);
        m_.appendInput(g, tuple.node);
        spec = autodiff::GradSpec::of(*g->primitive(), true);
        weightsAbs = tuple.abs;
    }
    if (static_cast<ir::ValueNode*>(g->input(1))->value()->graph != s.graph) {
        m_.setInput(g, 1, valueNode(g->graph(), ir::Value::graphRef(s.graph)));
    }
    AbstractPtr out = s.ret;
    AbstractPtr aux;
    if (spec->hasAux) {
        if (out->kind != Abstract::Kind::Tuple || out->elements.size() < 2) {
            error(c, "TypeError",
                  "For '" + spec->name +
                      "', when has_aux is True, the function must return more "
                      "than one output, but got " +
                      describe(out) + ".");
        }
        aux = Abstract::tuple({out->elements.begin() + 1, out->elements.end()});
        out = out->elements[0];
    }
    if (!differentiable(out)) {
        error(c, "TypeError",
              "For '" + spec->name + "', the output of '" + s.graph->name() +
                  "' must be a Tensor or a tuple of Tensors to be differentiated, but got " +
                  describe(out) + ".");
    }
    autodiff::GradLayout layout;
    try {
        layout = autodiff::layoutOf(*spec, inputs.size());
    } catch (const std::invalid_argument& e) {
        error(c, "ValueError", e.what());
    }
    std::vector<AbstractPtr> inputGrads;
    for (std::size_t i : layout.inputs) {
        inputGrads.push_back(gradAbstract(inputs[i].abs));
    }
    const AbstractPtr weightsGrad = weightsAbs ? gradAbstract(weightsAbs) : nullptr;
    AbstractPtr result = autodiff::arrangeGrads<AbstractPtr>(
        layout, inputGrads, weightsGrad,
        [](std::vector<AbstractPtr> e) { return Abstract::tuple(std::move(e)); });
    if (aux && spec->kind == autodiff::GradSpec::Kind::Grad) {
        result = Abstract::tuple({result, aux});
    }
    if (spec->returnsValue()) {
        result = Abstract::tuple({s.ret, result});
    }
    Arg r{c, result, nullptr};
    setResult(c, r);
    return r;
}

}  // namespace irscope::passes::infer
