// meta_fg_expand: calls the forward copy keeps (a Switch between branch graphs on a tensor
// condition, a no_inline graph) are differentiated through fprop graphs, as MindSpore's J
// does: ▸g(params) returns (out, Partial(@◂g, saved...)) and ◂g(saved..., dout) returns the
// gradients of the call's tensor inputs and of the weights. Both branches of a Switch return
// the gradients of the same list of values (the union of what they are given), so the
// Switch joins them.
#include <algorithm>

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

AbstractPtr gradAbs(const AbstractPtr& a) {
    return Abstract::tensor(a->dtype, a->shape);
}

}  // namespace

Mapped Expander::callThroughFprop(const CNode* c, const std::vector<Callee>& callees,
                                  const Mapped* cond) {
    std::vector<Mapped> wrt;
    for (const Callee& k : callees) {
        for (const Mapped& b : k.bound) {
            const bool known = std::any_of(wrt.begin(), wrt.end(),
                                           [&](const Mapped& w) { return w.key == b.key; });
            if (b.key != nullptr && !known && ops::isTensorAbs(b.node->abstract())) {
                wrt.push_back(b);
            }
        }
    }
    auto node = [&](std::vector<Node*> ins, AbstractPtr abs) {
        CNode* n = m_.addCNode(fwd_, ins);
        n->setAbstract(std::move(abs));
        n->debug().scope = c->debug().scope;
        n->debug().trace = c->debug().trace;
        created_.push_back(n);
        return n;
    };
    auto primValue = [&](const char* name) { return constantIn(fwd_, Value::primitive(name)); };
    const AbstractPtr tupleAbs = Abstract::tuple({c->abstract(), Abstract::func()});
    std::vector<Node*> fns;
    for (const Callee& k : callees) {
        std::vector<Node*> ins{constantIn(fwd_, Value::graphRef(fpropGraph(c, k, wrt)))};
        for (const Mapped& b : k.bound) {
            ins.push_back(b.node);
        }
        if (cond == nullptr) {
            fns.push_back(node(std::move(ins), tupleAbs));  // the direct call itself
        } else {
            ins.insert(ins.begin(), primValue("Partial"));
            fns.push_back(node(std::move(ins), Abstract::func()));
        }
    }
    Node* tuple = fns.front();
    if (cond != nullptr) {
        Node* sw = node({primValue("Switch"), cond->node, fns[0], fns[1]}, Abstract::func());
        tuple = node({sw}, tupleAbs);
    }
    CNode* value = node({primValue("TupleGetItem"), tuple, constantIn(fwd_, Value::integer(0))},
                        c->abstract());
    copies_.push_back(value);
    std::vector<Mapped> in = wrt;
    for (Node* w : weights_) {
        in.push_back({w, w});
    }
    copyInputs_[value] = std::move(in);
    fpropCalls_[value] = FpropCall{tuple, wrt, weights_};
    return {value, value};
}

const Expander::SharedFprop& Expander::sharedFprop(const CNode* c, FuncGraph* g) {
    if (auto it = shared_->find(g); it != shared_->end()) {
        return it->second;
    }
    FuncGraph* fp = m_.addGraph(opt::uniqueGraphName(m_, "\u25b8" + g->name()));
    FuncGraph* bp = m_.addGraph(opt::uniqueGraphName(m_, "\u25c2" + g->name()));
    fp->debug() = g->debug();
    bp->debug() = g->debug();
    Expander sub(m_, c, fp, bp, weights_, shared_);
    SharedFprop shared;
    shared.fprop = fp;
    GradLayout layout;
    for (std::size_t i = 0; i < g->parameters().size(); ++i) {
        const ir::Parameter* p = g->parameters()[i];
        ir::Parameter* q = m_.addParameter(fp, p->name());
        q->setAbstract(p->abstract());
        sub.targetParams_.push_back({q, q});
        if (ops::isTensorAbs(p->abstract())) {
            layout.inputs.push_back(i);
        }
    }
    shared.params = layout.inputs;
    std::vector<FuncGraph*> stack;
    sub.out_ = sub.copyGraph(g, sub.targetParams_, stack);
    sub.markActive(layout);
    ir::Parameter* dout = m_.addParameter(bp, "dout");
    dout->setAbstract(c->abstract());
    sub.sweep(Grad::of(dout));
    std::vector<Node*> outs;
    for (std::size_t i : layout.inputs) {
        const ir::Parameter* p = g->parameters()[i];
        auto it = sub.grads_.find(sub.targetParams_[i].key);
        outs.push_back(it != sub.grads_.end() && !it->second.empty()
                           ? sub.materialize(c, it->second, gradAbs(p->abstract()))
                           : sub.zerosFor(c, gradAbs(p->abstract())));
    }
    for (Node* w : weights_) {
        auto it = sub.grads_.find(w);
        if (it != sub.grads_.end() && !it->second.empty()) {
            outs.push_back(sub.materialize(c, it->second, w->abstract()));
            shared.weights.push_back(w);
        }
    }
    finishFprop(sub, c, fp, bp, dout, outs);
    return shared_->emplace(g, std::move(shared)).first->second;
}

Mapped Expander::callSharedFprop(const CNode* c, const Callee& callee) {
    const SharedFprop& shared = sharedFprop(c, callee.graph);
    std::vector<Node*> ins{constantIn(fwd_, Value::graphRef(shared.fprop))};
    for (const Mapped& b : callee.bound) {
        ins.push_back(b.node);
    }
    CNode* tuple = m_.addCNode(fwd_, ins);
    tuple->setAbstract(Abstract::tuple({c->abstract(), Abstract::func()}));
    CNode* value = m_.addCNode(fwd_, {constantIn(fwd_, Value::primitive("TupleGetItem")), tuple,
                                      constantIn(fwd_, Value::integer(0))});
    value->setAbstract(c->abstract());
    for (CNode* n : {tuple, value}) {
        n->debug().scope = c->debug().scope;
        n->debug().trace = c->debug().trace;
        created_.push_back(n);
    }
    copies_.push_back(value);
    std::vector<Mapped> wrt;
    for (std::size_t i : shared.params) {
        wrt.push_back(callee.bound.at(i));
    }
    std::vector<Mapped> in = wrt;
    for (Node* w : shared.weights) {
        in.push_back({w, w});
    }
    copyInputs_[value] = std::move(in);
    fpropCalls_[value] = FpropCall{tuple, std::move(wrt), shared.weights};
    return {value, value};
}

FuncGraph* Expander::fpropGraph(const CNode* c, const Callee& callee,
                                const std::vector<Mapped>& wrt) {
    FuncGraph* g = callee.graph;
    FuncGraph* fp = m_.addGraph(opt::uniqueGraphName(m_, "\u25b8" + g->name()));
    FuncGraph* bp = m_.addGraph(opt::uniqueGraphName(m_, "\u25c2" + g->name()));
    fp->debug() = g->debug();
    bp->debug() = g->debug();
    Expander sub(m_, c, fp, bp, weights_, shared_);
    GradLayout layout;
    for (std::size_t i = 0; i < g->parameters().size(); ++i) {
        const ir::Parameter* p = g->parameters()[i];
        ir::Parameter* q = m_.addParameter(fp, p->name());
        q->setAbstract(p->abstract());
        sub.targetParams_.push_back({q, q});
        const bool differentiated =
            i < callee.bound.size() && std::any_of(wrt.begin(), wrt.end(), [&](const Mapped& w) {
                return w.key == callee.bound[i].key;
            });
        if (differentiated) {
            layout.inputs.push_back(i);
        }
    }
    std::vector<FuncGraph*> stack;
    sub.out_ = sub.copyGraph(g, sub.targetParams_, stack);
    sub.markActive(layout);
    ir::Parameter* dout = m_.addParameter(bp, "dout");
    dout->setAbstract(c->abstract());
    sub.sweep(Grad::of(dout));
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
    finishFprop(sub, c, fp, bp, dout, outs);
    return fp;
}

// ◂g returns `outs`; what it reads of ▸g's forward becomes its parameters (bound by the
// Partial ▸g returns), then dout; ▸g returns (out, Partial(@◂g, saved...)).
void Expander::finishFprop(Expander& sub, const CNode* c, FuncGraph* fp, FuncGraph* bp,
                           ir::Parameter* dout, const std::vector<Node*>& outs) {
    Node* grads = sub.prim(c, "MakeTuple", outs);
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
    std::vector<Node*> partialIn{sub.constantIn(fp, Value::primitive("Partial")),
                                 sub.constantIn(fp, Value::graphRef(bp))};
    partialIn.insert(partialIn.end(), saved.begin(), saved.end());
    CNode* partial = m_.addCNode(fp, partialIn);
    partial->setAbstract(Abstract::func());
    CNode* tuple = m_.addCNode(
        fp, {sub.constantIn(fp, Value::primitive("MakeTuple")), sub.out_.node, partial});
    tuple->setAbstract(Abstract::tuple({sub.out_.node->abstract(), Abstract::func()}));
    for (CNode* n : {partial, tuple}) {
        n->debug().scope = c->debug().scope;
        n->debug().trace = c->debug().trace;
    }
    m_.setOutput(fp, tuple)->setAbstract(tuple->abstract());
    sub.sweepDead();
}

void Expander::backpropCall(CNode* value, const FpropCall& call, const Grad& dout) {
    Node* d = materialize(value, dout, value->abstract());
    Node* bprop = prim(value, "TupleGetItem", {call.tuple, constant(Value::integer(1))});
    std::vector<AbstractPtr> abs;
    for (const Mapped& w : call.wrt) {
        abs.push_back(gradAbs(w.node->abstract()));
    }
    for (Node* w : call.weights) {
        abs.push_back(gradAbs(w->abstract()));
    }
    CNode* grads = m_.addCNode(bwd_, {bprop, d});
    grads->setAbstract(Abstract::tuple(abs));
    grads->debug().scope = gradientScope(value);
    grads->debug().trace = value->debug().trace;
    created_.push_back(grads);
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
