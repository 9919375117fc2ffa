// meta_fg_expand: reverse-mode automatic differentiation (passes/README.md). Every call of a
// `GradOperation`/`grad`/`value_and_grad` node is replaced by the forward computation and
// its gradient, built in the caller (autodiff_impl.h describes the steps).
#include <algorithm>
#include <stdexcept>

#include "ir/monad.h"
#include "ir/prim_names.h"
#include "ops/infer_util.h"
#include "passes/autodiff_impl.h"
#include "passes/opt_util.h"
#include "passes/pipeline.h"
#include "passes/type_inference_engine.h"

namespace irscope::passes::autodiff {

using ir::Abstract;
using ir::CNode;
using ir::Node;
using ir::Value;

CompileError errorAt(const Node* at, const std::string& pyType, const std::string& message) {
    const auto& t = at->debug().trace;
    return CompileError(pyType, message, t.empty() ? ir::SourceLocation{} : t.back());
}

namespace {

ir::TensorData filled(const ir::AbstractPtr& a, double v) {
    ir::TensorData d;
    d.dtype = a->dtype;
    d.shape = a->shape;
    const ir::TensorData one = ir::scalarTensor(a->dtype, v);
    for (std::int64_t k = 0; k < a->shape.elementCount(); ++k) {
        d.data.insert(d.data.end(), one.data.begin(), one.data.end());
    }
    return d;
}

CNode* gradOpOf(const Node* callee) {
    auto* g = ir::nodeCast<CNode>(const_cast<Node*>(callee));
    return g != nullptr && g->primitive() != nullptr && isGradPrimitive(g->primitive()->name)
               ? g
               : nullptr;
}

}  // namespace

Node* Expander::constantIn(ir::FuncGraph* g, ir::ValuePtr v) {
    Node* n = m_.addValue(g, v);
    n->setAbstract(v->kind == Value::Kind::Primitive || v->kind == Value::Kind::Graph
                       ? Abstract::func()
                       : infer::constAbstract(v));
    created_.push_back(n);
    return n;
}

Node* Expander::prim(const Node* like, std::string_view name, const std::vector<Node*>& inputs,
                     const ir::AttrMap& attrs) {
    const ops::OpDef* op = ops::OpRegistry::instance().find(name);
    if (op == nullptr) {
        throw std::logic_error("autodiff: unknown primitive " + std::string(name));
    }
    std::vector<ops::InferArg> args;
    for (Node* in : inputs) {
        const auto* v = ir::nodeCast<ir::ValueNode>(in);
        args.push_back({in->abstract(), v != nullptr ? v->value() : nullptr});
    }
    ops::InferResult r;
    try {
        r = ops::OpRegistry::instance().infer(*op, attrs, args);
    } catch (const ops::OpError& e) {
        throw errorAt(like, std::string(ops::errorKindName(e.kind())), e.what());
    }
    if (op->foldable && !op->structural && r.constant && r.constant->kind == Value::Kind::Tensor) {
        return constant(r.constant);
    }
    std::vector<Node*> ins{constant(Value::primitive(std::string(name), attrs))};
    ins.insert(ins.end(), inputs.begin(), inputs.end());
    CNode* n = m_.addCNode(bwd_, ins);
    n->setAbstract(r.abs && r.abs->kind == Abstract::Kind::Tensor
                       ? Abstract::tensor(r.abs->dtype, r.abs->shape)
                       : r.abs);
    n->mutableDebug().scope = gradientScope(like);
    n->mutableDebug().trace = like->debug().trace;
    created_.push_back(n);
    return n;
}

std::string gradientScope(const Node* forward) {
    const std::string& scope = forward->debug().scope;
    if (scope.rfind("Gradients", 0) == 0) {
        return scope;  // a backward node already
    }
    std::string out = scope.empty() ? std::string("Gradients") : "Gradients/" + scope;
    if (const auto* c = ir::nodeCast<CNode>(forward); c != nullptr && c->primitive() != nullptr) {
        out += "/Grad_" + c->primitive()->name;
    }
    return out;
}

Node* Expander::zerosFor(const Node* like, const ir::AbstractPtr& a) {
    if (!a) {
        throw errorAt(like, "RuntimeError",
                      "irscope: automatic differentiation needs typed IR (run type_inference "
                      "first).");
    }
    switch (a->kind) {
        case Abstract::Kind::Tensor:
        case Abstract::Kind::Ref:
            if (!a->shape.isStatic()) {
                throw errorAt(like, "RuntimeError",
                              "irscope: a zero gradient of dynamic shape " + a->shape.toString() +
                                  " is not supported yet.");
            }
            return constant(Value::tensorValue(filled(a, 0.0)));
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List: {
            std::vector<Node*> elems;
            for (const auto& e : a->elements) {
                elems.push_back(zerosFor(like, e));
            }
            return sequenceLike(like, a, elems);
        }
        case Abstract::Kind::Scalar:
            return constant(ir::isFloat(a->dtype) ? Value::floating(0.0, a->dtype)
                                                  : Value::integer(0, a->dtype));
        default:
            return constant(Value::none());
    }
}

Node* Expander::sequenceLike(const Node* at, const ir::AbstractPtr& like,
                             const std::vector<Node*>& elems) {
    Node* t = prim(at, "MakeTuple", elems);
    if (like->kind == Abstract::Kind::List && t->abstract() &&
        t->abstract()->kind == Abstract::Kind::Tuple) {
        t->setAbstract(Abstract::list(t->abstract()->elements));
    }
    return t;
}

Node* Expander::onesFor(const Node* like, const ir::AbstractPtr& a) {
    if (isSequence(a)) {
        std::vector<Node*> elems;
        for (const auto& e : a->elements) {
            elems.push_back(onesFor(like, e));
        }
        return sequenceLike(like, a, elems);
    }
    if (!a || !ops::isTensorAbs(a) || !a->shape.isStatic()) {
        throw errorAt(like, "TypeError",
                      "irscope: the output to differentiate must be a Tensor of static shape, "
                      "but got " +
                          (a ? infer::describe(a) : std::string("an untyped value")) + ".");
    }
    return constant(Value::tensorValue(filled(a, 1.0)));
}

// sens = ones shaped as the output: a tensor, or per element of a tuple output (with has_aux
// only element 0).
Grad Expander::sensFor(const Node* out) {
    const ir::AbstractPtr& a = out->abstract();
    if (!isSequence(a)) {
        return Grad::of(onesFor(call_, a));
    }
    Grad g;
    for (const auto& e : a->elements) {
        g.elems.push_back(Grad::of(onesFor(call_, e)));
    }
    return g;
}

Node* Expander::result(const GradSpec& spec, const GradLayout& layout) {
    std::vector<Node*> inputGrads;
    for (std::size_t i : layout.inputs) {
        const Mapped& p = targetParams_[i];
        auto it = grads_.find(p.key);
        const Grad g = it != grads_.end() ? it->second : Grad{};
        inputGrads.push_back(materialize(call_, g, p.node->abstract()));
    }
    Node* weightsGrad = nullptr;
    if (spec.hasWeights) {
        std::vector<Node*> ws;
        for (Node* w : weights_) {
            auto it = grads_.find(w);
            ws.push_back(
                materialize(call_, it != grads_.end() ? it->second : Grad{}, w->abstract()));
        }
        weightsGrad = weightsTuple_ ? prim(call_, "MakeTuple", ws) : ws.at(0);
    }
    return arrangeGrads<Node*>(layout, inputGrads, weightsGrad,
                               [&](std::vector<Node*> e) { return prim(call_, "MakeTuple", e); });
}

// The weight parameters the grad op names (input 2): a MakeTuple of them (or of Loads of
// them, after auto_monad), one of them, or an empty tuple.
void Expander::readWeights(CNode* g, const GradSpec& spec) {
    Node* w = g->input(2);
    auto weightOf = [&](Node* x) -> Node* {
        if (auto* l = ir::nodeCast<CNode>(x); l && l->isPrimitive(ir::prim::kLoad)) {
            x = l->input(1);
        }
        auto* p = ir::nodeCast<ir::Parameter>(x);
        if (p == nullptr || !p->hasDefault()) {
            throw errorAt(g, "TypeError",
                          "For '" + spec.name + "', the weights must be Parameters.");
        }
        return p;
    };
    if (auto* t = ir::nodeCast<CNode>(w); t && t->isPrimitive(ir::prim::kMakeTuple)) {
        weightsTuple_ = true;
        for (std::size_t i = 1; i < t->size(); ++i) {
            weights_.push_back(weightOf(t->input(i)));
        }
    } else if (auto* v = ir::nodeCast<ir::ValueNode>(w);
               v && v->value()->kind == Value::Kind::Tuple && v->value()->elements.empty()) {
        weightsTuple_ = true;
    } else {
        weights_.push_back(weightOf(w));
    }
}

// The caller's state after the call is the forward's last state (the Depend its output
// carries): `UpdateState(%u, %call)` becomes that state; when nothing continues the chain
// the result depends on it. Returns the result to use.
Node* Expander::continueState(Node* res, const std::vector<Node*>& monads) {
    std::unordered_map<int, Node*> finalState;
    for (Node* o = out_.node; auto* d = ir::nodeCast<CNode>(o);) {
        if (!d->isPrimitive(ir::prim::kDepend) || d->size() != 3 || !ir::isMonad(d->input(2))) {
            break;
        }
        finalState.try_emplace(static_cast<int>(d->input(2)->abstract()->monad), d->input(2));
        o = d->input(1);
    }
    for (Node* u : monads) {
        finalState.try_emplace(static_cast<int>(u->abstract()->monad), u);  // state untouched
    }
    if (monads.empty()) {
        // No monads yet (before auto_monad): keep the forward's side effects alive.
        return sideEffects_ ? prim(call_, "Depend", {res, out_.node}) : res;
    }
    bool stateUsed = false;
    const std::vector<ir::Use> uses = call_->users();
    for (const ir::Use& use : uses) {
        CNode* u = use.user;
        if (u->isPrimitive(ir::prim::kUpdateState) && u->size() == 3 && use.index == 2 &&
            ir::isMonad(u->input(1))) {
            m_.replaceAllUses(u, finalState.at(static_cast<int>(u->input(1)->abstract()->monad)));
            created_.push_back(u);
            stateUsed = true;
        }
    }
    for (Node* u : monads) {
        Node* last = finalState.at(static_cast<int>(u->abstract()->monad));
        if (!stateUsed && last != u) {
            res = prim(call_, "Depend", {res, last});
        }
    }
    return res;
}

void Expander::run() {
    CNode* g = gradOpOf(call_->input(0));
    const GradSpec spec = *GradSpec::of(*g->primitive(), g->size() > 2);
    const auto* fv = ir::nodeCast<ir::ValueNode>(g->input(1));
    if (fv == nullptr || fv->value()->kind != Value::Kind::Graph) {
        throw errorAt(g, "TypeError",
                      "For '" + spec.name +
                          "', the function to differentiate must be known at compile time.");
    }
    target_ = fv->value()->graph;
    std::vector<Node*> monads;
    std::size_t n = call_->size();
    while (n > 1 && ir::isMonad(call_->input(n - 1))) {
        --n;
    }
    for (std::size_t i = 1; i < call_->size(); ++i) {
        (i < n ? inputs_ : monads).push_back(call_->input(i));
    }
    if (spec.sensParam) {
        if (inputs_.empty()) {
            throw errorAt(call_, "TypeError",
                          "For 'GradOperation', sens_param=True needs the sensitivity as the last "
                          "input.");
        }
        sens_ = inputs_.back();
        inputs_.pop_back();
    }
    GradLayout layout;
    try {
        layout = layoutOf(spec, inputs_.size());
    } catch (const std::invalid_argument& e) {
        throw errorAt(call_, "ValueError", e.what());
    }
    if (spec.hasWeights) {
        readWeights(g, spec);
    }
    const auto& params = target_->parameters();
    if (params.size() != inputs_.size() + monads.size()) {
        throw errorAt(call_, "TypeError",
                      "The function '" + target_->name() + "' takes " +
                          std::to_string(params.size()) + " arguments but " +
                          std::to_string(inputs_.size() + monads.size()) + " were given.");
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        targetParams_.push_back(i < inputs_.size() ? Mapped{inputs_[i], params[i]}
                                                   : Mapped{monads[i - inputs_.size()], nullptr});
    }
    std::vector<ir::FuncGraph*> stack;
    out_ = copyGraph(target_, targetParams_, stack);
    markActive(layout);
    // The value differentiated: the output, or its element 0 with has_aux.
    Grad sens;
    if (sens_ != nullptr) {
        sens = Grad::of(sens_);
    } else if (spec.hasAux) {
        const ir::AbstractPtr& outAbs = out_.node->abstract();
        if (!outAbs || outAbs->kind != Abstract::Kind::Tuple || outAbs->elements.size() < 2) {
            throw errorAt(call_, "TypeError",
                          "For '" + spec.name +
                              "', when has_aux is True, the function must return more than one "
                              "output.");
        }
        sens.elems.resize(out_.node->abstract()->elements.size());
        sens.elems[0] = Grad::of(onesFor(call_, out_.node->abstract()->elements[0]));
    } else {
        sens = sensFor(out_.node);
    }
    sweep(std::move(sens));
    Node* res = result(spec, layout);
    if (spec.hasAux && spec.kind == GradSpec::Kind::Grad) {
        std::vector<Node*> aux;
        for (std::size_t k = 1; k < out_.node->abstract()->elements.size(); ++k) {
            aux.push_back(
                prim(call_, "TupleGetItem",
                     {out_.node, constant(Value::integer(static_cast<std::int64_t>(k)))}));
        }
        res = prim(call_, "MakeTuple", {res, prim(call_, "MakeTuple", aux)});
    }
    if (spec.returnsValue()) {
        res = prim(call_, "MakeTuple", {out_.node, res});
    }
    res = continueState(res, monads);
    m_.replaceAllUses(call_, res);
    created_.push_back(call_);
    created_.push_back(g);
    sweepDead();
}

// Erases what the expansion made that nothing uses (forward values only the original
// output needed, the grad call and its op, the weights tuple), users before inputs.
void Expander::sweepDead() {
    const std::unordered_set<Node*> made(created_.begin(), created_.end());
    std::unordered_set<Node*> erased;
    std::vector<Node*> work = created_;  // the latest made first
    while (!work.empty()) {
        Node* n = work.back();
        work.pop_back();
        if (erased.count(n) != 0 || !n->users().empty() || n->isParameter()) {
            continue;
        }
        std::vector<Node*> ins;
        if (auto* c = ir::nodeCast<CNode>(n)) {
            ins = c->inputs();
        }
        m_.erase(n);
        erased.insert(n);
        for (Node* in : ins) {
            const bool ours = made.count(in) != 0 || in->graph() == fwd_;
            if (ours && erased.count(in) == 0 && in->users().empty() && !in->isParameter()) {
                work.push_back(in);
            }
        }
    }
    created_.clear();
}

}  // namespace irscope::passes::autodiff

namespace irscope::passes {

std::unique_ptr<Pass> makeMetaFgExpandPass() {
    return makePass(
        "meta_fg_expand",
        "Automatic differentiation: expands GradOperation, grad and value_and_grad into the "
        "forward computation "
        "followed by its reverse-mode gradient, built from each primitive's bprop rule.",
        [](ir::Module& m, PassContext&) {
            std::vector<ir::CNode*> calls;
            for (ir::FuncGraph* g : m.reachableGraphs()) {
                for (ir::CNode* c : g->topoOrder()) {
                    if (c->size() > 0 && autodiff::gradOpOf(c->input(0)) != nullptr) {
                        calls.push_back(c);
                    }
                }
            }
            // A grad call in a graph another grad call's function reaches is differentiated
            // again: its gradient calls only graphs known at compile time.
            std::vector<ir::FuncGraph*> targets;
            for (ir::CNode* c : calls) {
                const auto* fn = ir::nodeCast<ir::ValueNode>(autodiff::gradOpOf(c->input(0))->input(1));
                if (fn != nullptr && fn->value()->kind == ir::Value::Kind::Graph) {
                    targets.push_back(fn->value()->graph);
                }
            }
            std::vector<bool> again;
            for (ir::CNode* c : calls) {
                again.push_back(std::any_of(targets.begin(), targets.end(), [&](ir::FuncGraph* t) {
                    return t == c->graph() || autodiff::reachesGraph(t, c->graph());
                }));
            }
            // Graphs the entry reaches later first: a grad call inside a differentiated
            // function is expanded before its caller copies it (higher-order gradients).
            for (std::size_t k = calls.size(); k-- > 0;) {
                autodiff::Expander(m, calls[k], again[k]).run();
            }
            // Outside the differentiated code a Cell with a bprop is its plain call.
            bool stripped = false;
            for (ir::FuncGraph* g : m.reachableGraphs()) {
                for (ir::CNode* c : g->topoOrder()) {
                    if (!c->isPrimitive(ir::prim::kCustomBprop) || c->size() != 3) {
                        continue;
                    }
                    ir::Node* bprop = c->input(2);
                    m.replaceAllUses(c, c->input(1));
                    m.erase(c);
                    if (bprop->users().empty()) {
                        m.erase(bprop);
                    }
                    stripped = true;
                }
            }
            if (!calls.empty() || stripped) {
                opt::eraseUnreachableGraphs(m);
            }
            return !calls.empty() || stripped;
        });
}

}  // namespace irscope::passes
