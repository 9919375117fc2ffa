// meta_fg_expand: calls the forward copy keeps (a Switch between branch graphs on a tensor
// condition, a no_inline graph) are differentiated through fprop graphs, as MindSpore's J
// does: ▸g(params) returns (out, Partial(@◂g, saved...)) and ◂g(saved..., dout) returns the
// gradients of the call's tensor inputs and of the weights. Both branches of a Switch return
// the gradients of the same list of values (the union of what they are given), so the
// Switch joins them.
#include <algorithm>
#include <functional>

#include "ir/prim_names.h"
#include "ops/infer_util.h"
#include "passes/autodiff_impl.h"
#include "passes/opt_util.h"

namespace irscope::passes::autodiff {

using ir::Abstract;
using ir::AbstractPtr;
using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;

namespace {

// The abstract of a value's gradient: a tensor's (a Ref's tensor), per element of a tuple
// or list.
AbstractPtr gradAbs(const AbstractPtr& a) {
    if (isSequence(a)) {
        std::vector<AbstractPtr> elems;
        for (const AbstractPtr& e : a->elements) {
            elems.push_back(gradAbs(e));
        }
        return a->kind == Abstract::Kind::List ? Abstract::list(std::move(elems))
                                               : Abstract::tuple(std::move(elems));
    }
    if (a->kind == Abstract::Kind::Scalar) {
        return a;
    }
    return Abstract::tensor(a->dtype, a->shape);
}

// Whether a parameter of a recursive graph gets a gradient: a tensor, or a tuple or list
// holding one.
bool differentiable(const AbstractPtr& a) {
    if (!a) {
        return false;
    }
    if (isSequence(a)) {
        return std::any_of(a->elements.begin(), a->elements.end(), differentiable);
    }
    return ops::isTensorAbs(a);
}

}  // namespace

Mapped Expander::callThroughFprop(const CNode* c, const std::vector<Callee>& callees,
                                  const std::vector<Mapped>& conds) {
    std::vector<Mapped> wrt;
    for (const Callee& k : callees) {
        for (const Mapped& b : k.bound) {
            const bool known = std::any_of(wrt.begin(), wrt.end(),
                                           [&](const Mapped& w) { return w.key == b.key; });
            if (b.key != nullptr && !known && differentiable(b.node->abstract())) {
                wrt.push_back(b);
            }
        }
    }
    auto primValue = [&](const char* name) { return constantIn(fwd_, Value::primitive(name)); };
    std::vector<Node*> condNodes;
    for (const Mapped& k : conds) {
        condNodes.push_back(k.node);
    }
    if (closureFree_) {
        // The forward calls the callees themselves; the sweep calls their gradient graphs.
        FpropCall call;
        std::vector<Node*> fns;
        for (const Callee& k : callees) {
            std::vector<Node*> bound;
            for (const Mapped& b : k.bound) {
                bound.push_back(b.node);
            }
            call.vjps.emplace_back(fpropGraph(c, k, wrt), bound);
            bound.insert(bound.begin(), constantIn(fwd_, Value::graphRef(k.graph)));
            if (!conds.empty()) {
                bound.insert(bound.begin(), primValue("Partial"));
            }
            fns.push_back(conds.empty() ? callNode(false, c, std::move(bound), c->abstract())
                                        : callNode(false, c, std::move(bound), Abstract::func()));
        }
        CNode* value = conds.empty() ? ir::nodeCast<CNode>(fns.front())
                                     : callNode(false, c, {switchChain(false, c, condNodes, fns)},
                                                c->abstract());
        call.conds = std::move(condNodes);
        call.wrt = std::move(wrt);
        call.weights = weights_;
        return recordVjpCall(value, std::move(call));
    }
    const AbstractPtr tupleAbs = Abstract::tuple({c->abstract(), Abstract::func()});
    std::vector<Node*> fns;
    for (const Callee& k : callees) {
        std::vector<Node*> ins{constantIn(fwd_, Value::graphRef(fpropGraph(c, k, wrt)))};
        for (const Mapped& b : k.bound) {
            ins.push_back(b.node);
        }
        if (conds.empty()) {
            fns.push_back(callNode(false, c, std::move(ins), tupleAbs));  // the direct call itself
        } else {
            ins.insert(ins.begin(), primValue("Partial"));
            fns.push_back(callNode(false, c, std::move(ins), Abstract::func()));
        }
    }
    Node* tuple = conds.empty()
                      ? fns.front()
                      : callNode(false, c, {switchChain(false, c, condNodes, fns)}, tupleAbs);
    return recordFpropCall(c, tuple, std::move(wrt), weights_);
}

CNode* Expander::callNode(bool backward, const CNode* c, std::vector<Node*> inputs,
                          AbstractPtr abs) {
    CNode* n = m_.addCNode(backward ? bwd_ : fwd_, inputs);
    n->setAbstract(std::move(abs));
    n->mutableDebug().scope = backward ? gradientScope(c) : c->debug().scope;
    n->mutableDebug().trace = c->debug().trace;
    created_.push_back(n);
    return n;
}

Node* Expander::switchChain(bool backward, const CNode* c, const std::vector<Node*>& conds,
                            const std::vector<Node*>& fns) {
    Node* chosen = fns.back();
    for (std::size_t k = conds.size(); k-- > 0;) {
        Node* sw = constantIn(backward ? bwd_ : fwd_, Value::primitive("Switch"));
        chosen = callNode(backward, c, {sw, conds[k], fns[k], chosen}, Abstract::func());
    }
    return chosen;
}

Mapped Expander::recordVjpCall(CNode* value, FpropCall call) {
    copies_.push_back(value);
    std::vector<Mapped> in = call.wrt;
    for (Node* w : call.weights) {
        in.push_back({w, w});
    }
    copyInputs_[value] = std::move(in);
    fpropCalls_[value] = std::move(call);
    return {value, value};
}

Mapped Expander::recordFpropCall(const CNode* c, Node* tuple, std::vector<Mapped> wrt,
                                 std::vector<Node*> weights) {
    CNode* value = m_.addCNode(fwd_, {constantIn(fwd_, Value::primitive("TupleGetItem")), tuple,
                                      constantIn(fwd_, Value::integer(0))});
    value->setAbstract(c->abstract());
    value->copyLocation(*c);
    created_.push_back(value);
    copies_.push_back(value);
    std::vector<Mapped> in = wrt;
    for (Node* w : weights) {
        in.push_back({w, w});
    }
    copyInputs_[value] = std::move(in);
    fpropCalls_[value] = FpropCall{.tuple = tuple, .wrt = std::move(wrt), .weights = std::move(weights)};
    return {value, value};
}

Mapped Expander::customBprop(const CNode* c, const std::function<Mapped(Node*)>& mapped) {
    const Mapped out = mapped(c->input(1));
    const auto* p = ir::nodeCast<CNode>(c->input(2));
    const auto* fn =
        p != nullptr && p->size() >= 3 ? ir::nodeCast<ir::ValueNode>(p->input(1)) : nullptr;
    if (fn == nullptr || !p->isPrimitive(ir::prim::kPartial)) {
        throw errorAt(c, "RuntimeError",
                      "irscope: CustomBprop needs Partial(@bprop, args..., out).");
    }
    // (out, Partial(@bprop, args..., out)) is what an fprop graph returns: bprop(dout) gives
    // the gradient of each argument, and nothing flows into the construct's own nodes.
    std::vector<Node*> bound{constantIn(fwd_, Value::primitive("Partial")),
                             constantIn(fwd_, fn->value())};
    std::vector<Mapped> wrt;
    for (std::size_t i = 2; i + 1 < p->size(); ++i) {
        wrt.push_back(mapped(p->input(i)));
        bound.push_back(wrt.back().node);
    }
    bound.push_back(out.node);
    CNode* partial = m_.addCNode(fwd_, bound);
    partial->setAbstract(p->abstract());
    partial->shareDebug(*p);
    created_.push_back(partial);
    CNode* tuple =
        m_.addCNode(fwd_, {constantIn(fwd_, Value::primitive("MakeTuple")), out.node, partial});
    tuple->setAbstract(Abstract::tuple({out.node->abstract(), partial->abstract()}));
    tuple->copyLocation(*c);
    created_.push_back(tuple);
    return recordFpropCall(c, tuple, std::move(wrt), {});
}

bool Expander::isRecursive(const FuncGraph* g) {
    auto [it, fresh] = state_->recursive.try_emplace(g, false);
    if (fresh) {
        it->second = reachesGraph(const_cast<FuncGraph*>(g), g);
    }
    return it->second;
}

Mapped Expander::callShared(const CNode* c, FuncGraph* g, const std::vector<Mapped>& in) {
    const SharedFprop fp = sharedFprop(c, g);
    std::vector<Node*> args;
    for (const Mapped& x : in) {
        args.push_back(x.node);
    }
    std::vector<Mapped> wrt;
    for (std::size_t i : fp.gradParams) {
        wrt.push_back(in.at(i));
    }
    std::vector<Node*> ins{constantIn(fwd_, Value::graphRef(closureFree_ ? g : fp.fprop))};
    ins.insert(ins.end(), args.begin(), args.end());
    if (closureFree_) {
        FpropCall call;
        call.vjps.emplace_back(fp.fprop, std::move(args));
        call.wrt = std::move(wrt);
        call.weights = fp.weights;
        return recordVjpCall(callNode(false, c, std::move(ins), c->abstract()), std::move(call));
    }
    CNode* tuple =
        callNode(false, c, std::move(ins), Abstract::tuple({c->abstract(), Abstract::func()}));
    return recordFpropCall(c, tuple, std::move(wrt), fp.weights);
}

std::pair<FuncGraph*, FuncGraph*> Expander::newFpropPair(const FuncGraph* g) {
    if (closureFree_) {
        FuncGraph* vjp = m_.addGraph(opt::uniqueGraphName(m_, "\u2207" + g->name()));
        vjp->debug() = g->debug();
        return {vjp, vjp};
    }
    FuncGraph* fp = m_.addGraph(opt::uniqueGraphName(m_, "\u25b8" + g->name()));
    FuncGraph* bp = m_.addGraph(opt::uniqueGraphName(m_, "\u25c2" + g->name()));
    fp->debug() = g->debug();
    bp->debug() = g->debug();
    return {fp, bp};
}

void Expander::mirrorParameters(const FuncGraph* g) {
    for (const ir::Parameter* p : g->parameters()) {
        ir::Parameter* q = m_.addParameter(fwd_, p->name());
        q->setAbstract(p->abstract());
        targetParams_.push_back({q, q});
    }
}

ir::Parameter* Expander::differentiate(FuncGraph* g, const GradLayout& layout,
                                       const AbstractPtr& outAbs) {
    std::vector<FuncGraph*> stack;
    out_ = copyGraph(g, targetParams_, stack);
    markActive(layout);
    ir::Parameter* dout = m_.addParameter(bwd_, "dout");
    dout->setAbstract(outAbs);
    sweep(Grad::of(dout));
    return dout;
}

const SharedFprop& Expander::sharedFprop(const CNode* c, FuncGraph* g) {
    if (auto it = state_->fprops.find(g); it != state_->fprops.end()) {
        return it->second;
    }
    const auto [fp, bp] = newFpropPair(g);
    SharedFprop& rf = state_->fprops[g];  // std::map: stays valid while others are added
    rf.fprop = fp;
    const bool recursive = isRecursive(g);
    if (recursive) {
        rf.weights = weights_;  // its own calls in ▸g need the list before the sweep
    }
    Expander sub(*this, c, fp, bp);
    GradLayout layout;
    sub.mirrorParameters(g);
    for (std::size_t i = 0; i < g->parameters().size(); ++i) {
        if (differentiable(g->parameters()[i]->abstract())) {
            layout.inputs.push_back(i);
            rf.gradParams.push_back(i);
        }
    }
    ir::Parameter* dout = sub.differentiate(g, layout, g->output()->abstract());
    std::vector<Node*> outs;
    for (std::size_t i : rf.gradParams) {
        const Mapped& p = sub.targetParams_[i];
        auto it = sub.grads_.find(p.key);
        outs.push_back(it != sub.grads_.end() && !it->second.empty()
                           ? sub.materialize(c, it->second, gradAbs(p.node->abstract()))
                           : sub.zerosFor(c, gradAbs(p.node->abstract())));
    }
    for (Node* w : weights_) {
        auto it = sub.grads_.find(w);
        const bool has = it != sub.grads_.end() && !it->second.empty();
        if (recursive) {
            outs.push_back(has ? sub.materialize(c, it->second, w->abstract())
                               : sub.zerosFor(c, w->abstract()));
        } else if (has) {
            outs.push_back(sub.materialize(c, it->second, w->abstract()));
            rf.weights.push_back(w);
        }
    }
    sub.close(fp, bp, dout, outs);
    return rf;
}

FuncGraph* Expander::fpropGraph(const CNode* c, const Callee& callee,
                                const std::vector<Mapped>& wrt) {
    FuncGraph* g = callee.graph;
    std::vector<std::vector<std::size_t>> binding;
    for (const Mapped& w : wrt) {
        std::vector<std::size_t>& params = binding.emplace_back();
        for (std::size_t i = 0; i < callee.bound.size(); ++i) {
            if (callee.bound[i].key == w.key) {
                params.push_back(i);
            }
        }
    }
    auto key = std::make_pair(static_cast<const FuncGraph*>(g), std::move(binding));
    if (auto it = state_->branchFprops.find(key); it != state_->branchFprops.end()) {
        return it->second;
    }
    const auto [fp, bp] = newFpropPair(g);
    Expander sub(*this, c, fp, bp);
    GradLayout layout;
    sub.mirrorParameters(g);
    for (std::size_t i = 0; i < g->parameters().size(); ++i) {
        const bool differentiated =
            i < callee.bound.size() && std::any_of(wrt.begin(), wrt.end(), [&](const Mapped& w) {
                return w.key == callee.bound[i].key;
            });
        if (differentiated) {
            layout.inputs.push_back(i);
        }
    }
    ir::Parameter* dout = sub.differentiate(g, layout, c->abstract());
    // The gradients of wrt (summed over the parameters each was passed to), then the weights'.
    std::vector<Node*> outs;
    for (const Mapped& w : wrt) {
        std::vector<Node*> parts;
        for (std::size_t i : layout.inputs) {
            auto it = sub.grads_.find(sub.targetParams_[i].key);
            if (callee.bound[i].key == w.key && it != sub.grads_.end() && !it->second.empty()) {
                parts.push_back(sub.materialize(c, it->second, gradAbs(w.node->abstract())));
            }
        }
        if (parts.empty()) {
            outs.push_back(sub.zerosFor(c, gradAbs(w.node->abstract())));
        } else {
            outs.push_back(parts.size() == 1
                               ? parts[0]
                               : sub.prim(c, "AddN", {sub.prim(c, "MakeTuple", parts)}));
        }
    }
    for (Node* w : weights_) {
        auto it = sub.grads_.find(w);
        outs.push_back(it != sub.grads_.end() ? sub.materialize(c, it->second, w->abstract())
                                              : sub.zerosFor(c, w->abstract()));
    }
    sub.close(fp, bp, dout, outs);
    // Kept once complete: a branch that reaches itself while being made gets its own.
    state_->branchFprops.emplace(std::move(key), fp);
    return fp;
}

void Expander::close(FuncGraph* fp, FuncGraph* bp, ir::Parameter* dout,
                     const std::vector<Node*>& outs) {
    if (!closureFree_) {
        closeFprop(fp, bp, dout, outs);
        return;
    }
    if (sideEffects_) {
        // ∇g runs g's forward again: an Assign or a print in it would happen twice.
        throw errorAt(site_, "RuntimeError",
                      "irscope: a grad of a grad through an if or a loop on a tensor whose body has "
                      "side effects (Assign, print...) is not supported yet.");
    }
    Node* grads = prim(site_, "MakeTuple", outs);
    m_.setOutput(bp, grads)->setAbstract(grads->abstract());
    sweepDead();
}

void Expander::closeFprop(FuncGraph* fp, FuncGraph* bp, ir::Parameter* dout,
                          const std::vector<Node*>& outs) {
    Node* grads = prim(site_, "MakeTuple", outs);
    m_.setOutput(bp, grads)->setAbstract(grads->abstract());
    // What the gradient reads of the forward becomes parameters of ◂g, bound by ▸g's Partial.
    std::vector<Node*> saved;
    std::unordered_map<Node*, Node*> lifted;
    for (CNode* n : bp->topoOrder()) {
        for (std::size_t i = 0; i < n->size(); ++i) {
            Node* in = n->input(i);
            if (in->graph() != fp) {
                continue;
            }
            if (const auto* v = ir::nodeCast<ir::ValueNode>(in)) {
                m_.setInput(n, i, constantIn(bp, v->value()));
                continue;
            }
            auto [it, fresh] = lifted.try_emplace(in, nullptr);
            if (fresh) {
                const auto* fpParam = ir::nodeCast<ir::Parameter>(in);
                ir::Parameter* sp =
                    m_.addParameter(bp, fpParam != nullptr ? fpParam->name() : "saved");
                sp->setAbstract(in->abstract());
                it->second = sp;
                saved.push_back(in);
            }
            m_.setInput(n, i, it->second);
        }
    }
    ir::Parameter* d = m_.addParameter(bp, "dout");
    d->setAbstract(dout->abstract());
    m_.replaceAllUses(dout, d);
    m_.eraseParameter(dout);
    // ▸g returns (out, Partial(@◂g, saved...)).
    std::vector<Node*> partialIn{constantIn(fp, Value::primitive("Partial")),
                                 constantIn(fp, Value::graphRef(bp))};
    partialIn.insert(partialIn.end(), saved.begin(), saved.end());
    CNode* partial = m_.addCNode(fp, partialIn);
    partial->setAbstract(Abstract::func());
    CNode* tuple =
        m_.addCNode(fp, {constantIn(fp, Value::primitive("MakeTuple")), out_.node, partial});
    tuple->setAbstract(Abstract::tuple({out_.node->abstract(), Abstract::func()}));
    for (CNode* n : {partial, tuple}) {
        n->copyLocation(*site_);
    }
    m_.setOutput(fp, tuple)->setAbstract(tuple->abstract());
    sweepDead();
}

void Expander::backpropCall(CNode* value, const FpropCall& call, const Grad& dout) {
    Node* d = materialize(value, dout, value->abstract());
    std::vector<AbstractPtr> abs;
    for (const Mapped& w : call.wrt) {
        abs.push_back(gradAbs(w.node->abstract()));
    }
    for (Node* w : call.weights) {
        abs.push_back(gradAbs(w->abstract()));
    }
    CNode* grads = nullptr;
    if (call.tuple != nullptr) {
        Node* bprop = prim(value, "TupleGetItem", {call.tuple, constant(Value::integer(1))});
        grads = callNode(true, value, {bprop, d}, Abstract::tuple(abs));
    } else if (call.conds.empty()) {
        const auto& [vjp, bound] = call.vjps.front();
        std::vector<Node*> ins{constant(Value::graphRef(vjp))};
        ins.insert(ins.end(), bound.begin(), bound.end());
        ins.push_back(d);
        grads = callNode(true, value, std::move(ins), Abstract::tuple(abs));
    } else {
        // The gradient graph of the callee the forward chose, by the same conditions.
        std::vector<Node*> fns;
        for (const auto& [vjp, bound] : call.vjps) {
            std::vector<Node*> ins{constant(Value::primitive("Partial")),
                                   constant(Value::graphRef(vjp))};
            ins.insert(ins.end(), bound.begin(), bound.end());
            fns.push_back(callNode(true, value, std::move(ins), Abstract::func()));
        }
        grads = callNode(true, value, {switchChain(true, value, call.conds, fns), d},
                         Abstract::tuple(abs));
    }
    auto item = [&](std::size_t k) {
        return Grad::of(prim(value, "TupleGetItem",
                             {grads, constant(Value::integer(static_cast<std::int64_t>(k)))}));
    };
    for (std::size_t k = 0; k < call.wrt.size(); ++k) {
        accumulate(value, call.wrt[k].key, item(k));
    }
    for (std::size_t j = 0; j < call.weights.size(); ++j) {
        accumulate(value, call.weights[j], item(call.wrt.size() + j));
    }
}

}  // namespace irscope::passes::autodiff
