// meta_fg_expand, step 2: the reverse sweep over the forward copy (autodiff_impl.h).
#include "ir/monad.h"
#include "ir/prim_names.h"
#include "ops/bprop.h"
#include "passes/autodiff_impl.h"

namespace irscope::passes::autodiff {

using ir::Abstract;
using ir::CNode;
using ir::Node;
using ir::Value;

namespace {

// The BpropContext of one forward primitive.
class NodeBprop final : public ops::BpropContext {
public:
    NodeBprop(Expander& e, CNode* fwd, const Grad& dout) : e_(e), fwd_(fwd), dout_(dout) {
        for (const Mapped& m : e.inputsOf(fwd)) {
            if (!ir::isMonad(m.node)) {
                inputs_.push_back(m);
            }
        }
    }
    const ir::AttrMap& attrs() const override { return fwd_->primitive()->attrs; }
    std::size_t inputCount() const override { return inputs_.size(); }
    Node* input(std::size_t i) const override { return inputs_.at(i).node; }
    Node* out() const override { return fwd_; }
    Node* dout() override {
        if (doutNode_ == nullptr) {
            doutNode_ = e_.materialize(fwd_, dout_, fwd_->abstract());
        }
        return doutNode_;
    }
    Node* doutElement(std::size_t i) override {
        if (dout_.node != nullptr) {
            return e_.prim(fwd_, "TupleGetItem",
                           {dout_.node, constant(Value::integer(static_cast<std::int64_t>(i)))});
        }
        if (i >= dout_.elems.size() || dout_.elems[i].empty()) {
            return nullptr;
        }
        return e_.materialize(fwd_, dout_.elems[i], fwd_->abstract()->elements.at(i));
    }
    bool needsGrad(std::size_t i) const override {
        return i < inputs_.size() && e_.active(inputs_[i].key);
    }
    void setGrad(std::size_t i, Node* grad) override {
        if (needsGrad(i) && grad != nullptr) {
            e_.accumulate(fwd_, inputs_[i].key, Grad::of(grad));
        }
    }
    void setGradElements(std::size_t i, const std::vector<Node*>& grads) override {
        if (!needsGrad(i)) {
            return;
        }
        Grad g;
        for (Node* n : grads) {
            g.elems.push_back(n != nullptr ? Grad::of(n) : Grad{});
        }
        e_.accumulate(fwd_, inputs_[i].key, std::move(g));
    }
    Node* emit(std::string_view op, const std::vector<Node*>& inputs,
               const ir::AttrMap& attrs) override {
        return e_.prim(fwd_, op, inputs, attrs);
    }
    Node* constant(ir::ValuePtr v) override { return e_.constant(std::move(v)); }
    [[noreturn]] void fail(const std::string& message) const override {
        throw errorAt(fwd_, "RuntimeError", message);
    }

private:
    Expander& e_;
    CNode* fwd_;
    const Grad& dout_;
    Node* doutNode_ = nullptr;
    std::vector<Mapped> inputs_;
};

}  // namespace

void Expander::accumulate(const Node* like, const void* key, Grad g) {
    if (!active(key) || g.empty()) {
        return;
    }
    Grad& sum = grads_[key];
    // Element-wise for tuple gradients; a whole-tuple node is split with TupleGetItem.
    std::function<Grad(Grad, Grad)> add = [&](Grad a, Grad b) -> Grad {
        if (a.empty()) {
            return b;
        }
        if (b.empty()) {
            return a;
        }
        if (a.node != nullptr && b.node != nullptr) {
            Node* t = prim(like, "MakeTuple", {a.node, b.node});
            return Grad::of(prim(like, "AddN", {t}));
        }
        const std::size_t n = std::max(a.elems.size(), b.elems.size());
        auto split = [&](Grad& x) {
            if (x.node != nullptr) {
                Node* whole = x.node;
                x.node = nullptr;
                for (std::size_t i = 0; i < n; ++i) {
                    x.elems.push_back(Grad::of(
                        prim(like, "TupleGetItem",
                             {whole, constant(Value::integer(static_cast<std::int64_t>(i)))})));
                }
            }
            x.elems.resize(n);
        };
        split(a);
        split(b);
        Grad r;
        for (std::size_t i = 0; i < n; ++i) {
            r.elems.push_back(add(std::move(a.elems[i]), std::move(b.elems[i])));
        }
        return r;
    };
    sum = add(std::move(sum), std::move(g));
}

Node* Expander::materialize(const Node* like, const Grad& g, const ir::AbstractPtr& a) {
    if (g.node != nullptr) {
        return g.node;
    }
    if (g.empty() || !isSequence(a)) {
        return zerosFor(like, a);
    }
    std::vector<Node*> elems;
    for (std::size_t i = 0; i < a->elements.size(); ++i) {
        elems.push_back(i < g.elems.size() ? materialize(like, g.elems[i], a->elements[i])
                                           : zerosFor(like, a->elements[i]));
    }
    return sequenceLike(like, a, elems);
}

void Expander::sweep(Grad sens) {
    accumulate(site_, out_.key, std::move(sens));
    for (auto it = copies_.rbegin(); it != copies_.rend(); ++it) {
        CNode* c = *it;
        if (!active(c)) {
            continue;
        }
        auto g = grads_.find(c);
        if (g == grads_.end() || g->second.empty()) {
            continue;
        }
        const Grad dout = g->second;
        backprop(c, dout);
    }
}

void Expander::backprop(CNode* c, const Grad& dout) {
    if (auto call = fpropCalls_.find(c); call != fpropCalls_.end()) {
        backpropCall(c, call->second, dout);
        return;
    }
    const ir::PrimitiveData* p = c->primitive();
    if (p == nullptr) {
        throw errorAt(c, "RuntimeError",
                      "irscope: automatic differentiation through this call is not supported yet.");
    }
    const std::vector<Mapped>& in = copyInputs_.at(c);
    const std::string& name = p->name;
    if (name == ir::prim::kMakeTuple) {
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (!active(in[i].key)) {
                continue;
            }
            if (dout.node != nullptr) {
                Node* idx = constant(Value::integer(static_cast<std::int64_t>(i)));
                accumulate(c, in[i].key, Grad::of(prim(c, "TupleGetItem", {dout.node, idx})));
            } else if (i < dout.elems.size()) {
                accumulate(c, in[i].key, dout.elems[i]);
            }
        }
        return;
    }
    if (name == ir::prim::kTupleGetItem) {
        const auto* idx = ir::nodeCast<ir::ValueNode>(in.at(1).node);
        const ir::AbstractPtr& t = in.at(0).node->abstract();
        if (idx == nullptr || idx->value()->kind != Value::Kind::Int || !isSequence(t) ||
            idx->value()->i < 0 ||
            static_cast<std::size_t>(idx->value()->i) >= t->elements.size()) {
            throw errorAt(c, "RuntimeError",
                          "irscope: the gradient of TupleGetItem needs a constant index.");
        }
        Grad g;
        g.elems.resize(t->elements.size());
        g.elems.at(static_cast<std::size_t>(idx->value()->i)) = dout;
        accumulate(c, in[0].key, std::move(g));
        return;
    }
    if (name == ir::prim::kDepend || name == ir::prim::kLoad) {
        // Depend: only the value gets the gradient. Load: the weight it reads (get_by_list).
        accumulate(c, in.at(0).key, dout);
        return;
    }
    const ops::OpDef* op = ops::OpRegistry::instance().find(name);
    if (name == ir::prim::kStopGradient || name == ir::prim::kUpdateState ||
        name == ir::prim::kSwitch || name == ir::prim::kPartial ||
        (op != nullptr && (op->sideEffectMem || op->sideEffectIo) && !op->bprop) ||
        ir::isMonad(c)) {
        return;  // no gradient through state, IO or a stopped value (BatchNorm, which
                 // writes its moving statistics, has a rule for its output)
    }
    if (op == nullptr || !op->bprop) {
        throw errorAt(c, "RuntimeError",
                      "irscope: the gradient of '" + name + "' is not supported yet.");
    }
    NodeBprop ctx(*this, c, dout);
    try {
        op->bprop(ctx);
    } catch (const ops::OpError& e) {
        throw errorAt(c, std::string(ops::errorKindName(e.kind())), e.what());
    }
}

}  // namespace irscope::passes::autodiff
