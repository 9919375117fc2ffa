// symbol_resolve: automatic differentiation. A GradOperation instance applied to a function
// (`self.grad(self.net)`, `self.grad(self.net, self.weights)`), the functions
// `ops.grad(fn, grad_position, weights, has_aux)` / `ops.value_and_grad(...)` called in
// construct, and the grad functions they return on the host (made in __init__ and called in
// construct) become the primitives `GradOperation`, `grad`, `value_and_grad` with their flags
// as attributes, the differentiated function as input 1 and the weights (a MakeTuple of the
// entry's weight parameters, or one of them) as input 2. Calling the result differentiates;
// type_inference infers that call and meta_fg_expand expands it (passes/README.md).
#include <algorithm>

#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/modules.h"
#include "frontend/modules/ms_objects.h"
#include "passes/autodiff.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::Node;
using ir::Value;
using ir::ValuePtr;

bool Resolver::isGradCallee(const interp::Value& v) const {
    if (modules::compositeKind(v) == "GradOperation" || modules::gradOf(v) != nullptr) {
        return true;
    }
    const auto* nf = v.as<interp::NativeFunctionObject>();
    return nf != nullptr && (nf->name == "grad" || nf->name == "value_and_grad");
}

Node* Resolver::gradWeights(const HostVal& h, ir::FuncGraph* g, const Node* at) {
    if (h.v.isNone() || h.v.isNull()) {
        return nullptr;
    }
    const bool parameterTuple =
        modules::holderOf(h.v) != nullptr && I.typeName(h.v) == "ParameterTuple";
    // A list or tuple of Parameters (`net.trainable_params()`) names the weights as a
    // ParameterTuple does.
    bool parameterList = false;
    if (h.v.is<interp::ListObject>() || h.v.is<interp::TupleObject>()) {
        const std::vector<interp::Value> elems = I.toVector(h.v);
        parameterList = !elems.empty() &&
                        std::all_of(elems.begin(), elems.end(),
                                    [](const interp::Value& e) { return modules::isParameter(e); });
    }
    if (parameterTuple || parameterList) {
        std::vector<Node*> items{
            constant(g, Value::primitive(std::string(passes::meta::kMakeTuple)))};
        for (const interp::Value& p :
             parameterTuple ? modules::holderOf(h.v)->items : I.toVector(h.v)) {
            if (!modules::isParameter(p)) {
                fail("TypeError",
                     "irscope: a ParameterTuple differentiated in graph mode must hold "
                     "Parameters only.",
                     at);
            }
            items.push_back(weight(p, at));
        }
        return cnode(g, items, at);
    }
    return materialize(h, g, at);
}

Node* Resolver::gradTarget(const HostVal& h, ir::FuncGraph* g, const Node* at) {
    if (!modules::isCell(h.v)) {
        return materialize(h, g, at);
    }
    const auto* construct = modules::pythonFunctionOf(I.typeOf(h.v)->lookup("construct"));
    const auto* bprop = I.typeOf(h.v)->lookup("bprop").as<interp::FunctionObject>();
    if (construct != nullptr && bprop != nullptr) {
        // A Cell with its own bprop: a graph that calls it, so the call carries the bprop.
        auto key = std::make_pair(h.v.obj(), h.scope);
        auto it = customBpropGraphs_.find(key);
        if (it == customBpropGraphs_.end()) {
            ir::FuncGraph* cg = graphOf(construct, h.v, h.scope, at);
            ir::FuncGraph* bg = graphOf(bprop, h.v, h.scope, at);
            ir::FuncGraph* w = m_.addGraph(cg->name() + "_with_bprop");
            w->debug() = cg->debug();
            std::vector<Node*> call{constant(w, Value::graphRef(cg))};
            for (const ir::Parameter* p : cg->parameters()) {
                call.push_back(m_.addParameter(w, p->name()));
            }
            CNode* c = cnode(w, std::move(call), at);
            c->mutableDebug().scope = h.scope;
            m_.setOutput(w, withCustomBprop(c, bg));
            it = customBpropGraphs_.emplace(key, w).first;
        }
        return constant(g, Value::graphRef(it->second));
    }
    if (construct != nullptr) {
        return materialize(h, g, at);
    }
    // A cell implemented natively (nn.Dense...): a graph of one input around its lowering.
    auto key = std::make_pair(h.v.obj(), h.scope);
    auto it = nativeCellGraphs_.find(key);
    if (it == nativeCellGraphs_.end()) {
        ir::FuncGraph* w = m_.addGraph(I.typeName(h.v) + "_construct");
        w->debug() = at->debug();
        Node* x = m_.addParameter(w, "x");
        CNode* site =
            cnode(w, {constant(w, Value::primitive(std::string(passes::meta::kMakeTuple))), x}, at);
        site->mutableDebug().scope = h.scope;
        m_.setOutput(w, nativeCell(site, h, {x}));
        if (site->users().empty()) {
            m_.erase(site);
        }
        it = nativeCellGraphs_.emplace(key, w).first;
    }
    return constant(g, Value::graphRef(it->second));
}

Node* Resolver::gradFunctionValue(const HostVal& hv, ir::FuncGraph* g, const Node* at) {
    // A graph taking the differentiated function's inputs whose body calls the grad function:
    // the call lowers as any call of it does, and the graph can be differentiated again.
    auto key = std::make_pair(hv.v.obj(), hv.scope);
    auto it = gradFnGraphs_.find(key);
    if (it == gradFnGraphs_.end()) {
        const modules::GradData* d = modules::gradOf(hv.v);
        Node* target = gradTarget(HostVal{d->fn, hv.scope}, g, at);
        const auto* vn = ir::nodeCast<ir::ValueNode>(target);
        ir::FuncGraph* fg =
            vn != nullptr && vn->value()->kind == Value::Kind::Graph ? vn->value()->graph : nullptr;
        if (target->users().empty()) {
            m_.erase(target);
        }
        const auto sig = fg != nullptr ? s_.signatures.find(fg) : s_.signatures.end();
        if (fg == nullptr ||
            (sig != s_.signatures.end() &&
             (sig->second.varargs >= 0 || sig->second.names.size() > sig->second.positional))) {
            fail("TypeError",
                 "irscope: a " + d->kind +
                     " function used as a value in graph mode (differentiated again) is not "
                     "supported yet when the function it differentiates takes *args or "
                     "keyword-only arguments.",
                 at);
        }
        ir::FuncGraph* w = m_.addGraph(s_.uniqueGraphName(d->kind + "_" + fg->name()));
        w->debug() = fg->debug();
        std::vector<Node*> call{
            constant(w, s_.hostValue({HostEntry::Kind::Object, hv.v, hv.scope}, d->kind))};
        for (const ir::Parameter* p : fg->parameters()) {
            call.push_back(m_.addParameter(w, p->name()));
        }
        m_.setOutput(w, cnode(w, std::move(call), at));
        it = gradFnGraphs_.emplace(key, w).first;
    }
    return constant(g, Value::graphRef(it->second));
}

ir::AttrMap Resolver::gradAttrs(const std::string& name, const ValuePtr& pos, const ValuePtr& aux,
                                const ValuePtr& returnIds, bool hasWeights, const Node* at) {
    const bool posOk = pos->kind == Value::Kind::None || pos->kind == Value::Kind::Int ||
                       ((pos->kind == Value::Kind::Tuple || pos->kind == Value::Kind::List) &&
                        !pos->elements.empty() &&
                        std::all_of(pos->elements.begin(), pos->elements.end(),
                                    [](const ValuePtr& e) { return e->kind == Value::Kind::Int; }));
    if (!posOk) {
        fail("TypeError",
             "For '" + name +
                 "', the 'grad_position' must be an int, a non-empty tuple of ints or None.",
             at);
    }
    if (aux->kind != Value::Kind::Bool) {
        fail("TypeError", "For '" + name + "', the 'has_aux' must be a bool.", at);
    }
    if (returnIds->kind == Value::Kind::Bool && returnIds->b) {
        fail("RuntimeError",
             "irscope: " + name + "(return_ids=True) is not supported yet in graph mode.", at);
    }
    if (pos->kind == Value::Kind::None && !hasWeights) {
        fail("ValueError",
             "For '" + name + "', 'grad_position' and 'weights' can not be None at the same time.",
             at);
    }
    ir::AttrMap attrs;
    attrs.set("grad_position", pos->kind == Value::Kind::List ? Value::tuple(pos->elements) : pos);
    attrs.set("has_aux", aux);
    return attrs;
}

ir::AttrMap Resolver::gradOperationAttrs(bool getAll, bool getByList, bool sensParam,
                                         bool hasWeights, const Node* at) {
    if (getByList != hasWeights) {
        fail("TypeError",
             getByList
                 ? "For 'GradOperation', get_by_list=True needs the weights: grad(fn, weights)."
                 : "For 'GradOperation', weights are given but get_by_list is False.",
             at);
    }
    ir::AttrMap attrs;
    attrs.set("get_all", Value::boolean(getAll));
    attrs.set("get_by_list", Value::boolean(getByList));
    attrs.set("sens_param", Value::boolean(sensParam));
    return attrs;
}

Node* Resolver::lowerGrad(CNode* c, const HostVal& callee) {
    ir::FuncGraph* home = c->graph();
    std::vector<std::string> kws;
    if (ValuePtr k = c->attrs().get("keywords")) {
        for (const ValuePtr& e : k->elements) {
            kws.push_back(e->text);
        }
    }
    const std::size_t npos = c->size() - 1 - kws.size();
    auto hostArg = [&](Node* n) -> HostVal {
        std::optional<HostVal> h = hostOf(n);
        if (!h) {
            fail("TypeError",
                 "irscope: the function to differentiate and the weights must be known at compile "
                 "time (attributes of the cell, globals).",
                 c);
        }
        return *h;
    };
    auto weightsArg = [&](Node* n) -> Node* {
        if (std::optional<HostVal> h = hostOf(n)) {
            return gradWeights(*h, home, c);
        }
        return n;  // built in the graph (a tuple of weights): type_inference checks it
    };
    // A grad function made on the host: the call `c` differentiates.
    if (const modules::GradData* d = modules::gradOf(callee.v)) {
        if (!kws.empty()) {
            fail("TypeError",
                 "irscope: keyword arguments are not supported when calling a " + d->kind +
                     " function.",
                 c);
        }
        Node* weights = gradWeights(HostVal{d->weights, callee.scope}, home, c);
        // PyNative's GradOperation(get_by_list=True)(net) without weights differentiates the
        // weights the forward uses, in the order it first uses them (type_inference reads
        // them off the specialized graph).
        const auto ctx = modules::msContext(I);
        const bool forwardWeights =
            d->kind == "GradOperation" && d->getByList && weights == nullptr && ctx &&
            ctx->mode == modules::MsContext::kPynativeMode;
        ir::AttrMap attrs =
            d->kind == "GradOperation"
                ? gradOperationAttrs(d->getAll, d->getByList, d->sensParam,
                                     weights != nullptr || forwardWeights, c)
                : gradAttrs(d->kind,
                            materializeConst(HostVal{d->gradPosition, callee.scope}, home, c),
                            materializeConst(HostVal{d->hasAux, callee.scope}, home, c),
                            materializeConst(HostVal{d->returnIds, callee.scope}, home, c),
                            weights != nullptr, c);
        if (forwardWeights) {
            attrs.set(std::string(passes::autodiff::kForwardWeightsAttr), Value::boolean(true));
        }
        std::vector<Node*> g{constant(home, Value::primitive(d->kind, std::move(attrs))),
                             gradTarget(HostVal{d->fn, callee.scope}, home, c)};
        if (weights != nullptr) {
            g.push_back(weights);
        }
        std::vector<Node*> in{cnode(home, g, c)};
        for (std::size_t i = 1; i < c->size(); ++i) {
            in.push_back(inputValue(c->input(i), home, c));
        }
        return rewrite(c, std::move(in));
    }
    std::string name;
    ir::AttrMap attrs;
    Node* fn = nullptr;
    Node* weights = nullptr;
    if (modules::compositeKind(callee.v) == "GradOperation") {
        // GradOperation instance applied in construct: grad_op(fn[, weights]).
        name = "GradOperation";
        if (!kws.empty() || npos < 1 || npos > 2) {
            fail("TypeError",
                 "For 'GradOperation', it takes the function to differentiate and, with "
                 "get_by_list, the weights (" +
                     std::to_string(npos) + " arguments given).",
                 c);
        }
        const modules::HolderObject* h = modules::holderOf(callee.v);
        auto flag = [&](std::size_t k) { return k < h->items.size() && I.truthy(h->items[k]); };
        fn = gradTarget(hostArg(c->input(1)), home, c);
        if (npos == 2) {
            weights = weightsArg(c->input(2));
        }
        attrs = gradOperationAttrs(flag(0), flag(1), flag(2), weights != nullptr, c);
    } else {
        // grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False) in construct.
        name = callee.v.as<interp::NativeFunctionObject>()->name;
        static const char* const names[] = {"fn", "grad_position", "weights", "has_aux",
                                            "return_ids"};
        std::vector<Node*> bound(5, nullptr);
        if (npos > 5) {
            fail("TypeError",
                 name + "() takes at most 5 arguments (" + std::to_string(npos) + " given)", c);
        }
        for (std::size_t i = 0; i < npos; ++i) {
            bound[i] = c->input(i + 1);
        }
        for (std::size_t k = 0; k < kws.size(); ++k) {
            const auto* it = std::find(std::begin(names), std::end(names), kws[k]);
            if (it == std::end(names)) {
                fail("TypeError", name + "() got an unexpected keyword argument '" + kws[k] + "'",
                     c);
            }
            auto at = static_cast<std::size_t>(it - std::begin(names));
            if (bound[at] != nullptr) {
                fail("TypeError", name + "() got multiple values for argument '" + kws[k] + "'", c);
            }
            bound[at] = c->input(npos + k + 1);
        }
        if (bound[0] == nullptr) {
            fail("TypeError", name + "() missing 1 required argument: 'fn'", c);
        }
        fn = gradTarget(hostArg(bound[0]), home, c);
        auto constArg = [&](std::size_t i, ValuePtr dflt) -> ValuePtr {
            if (bound[i] == nullptr) {
                return dflt;
            }
            ValuePtr v = constantOf(bound[i]);
            if (!v) {
                fail("TypeError",
                     "For '" + name + "', the argument '" + names[i] +
                         "' must be a constant in graph mode.",
                     c);
            }
            return v;
        };
        if (bound[2] != nullptr) {
            weights = weightsArg(bound[2]);
        }
        attrs = gradAttrs(name, constArg(1, Value::integer(0)), constArg(3, Value::boolean(false)),
                          constArg(4, Value::boolean(false)), weights != nullptr, c);
    }
    std::vector<Node*> in{constant(home, Value::primitive(name, std::move(attrs))), fn};
    if (weights != nullptr) {
        in.push_back(weights);
    }
    return rewrite(c, std::move(in));
}

}  // namespace irscope::compiler
