// Inference of one CNode: primitives through the registry (with MindSpore's implicit
// conversion of constant scalars to tensors), Switch, Partial, direct graph calls and calls
// of function values (made direct where the function is known, as MindSpore's specializer
// does). Meta operations go to type_inference_meta*.cpp.
#include <algorithm>
#include <unordered_set>

#include "ir/prim_names.h"
#include "ops/infer_util.h"
#include "passes/autodiff.h"
#include "passes/meta_ops.h"
#include "passes/type_inference_engine.h"
#include "passes/type_inference_meta.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::AbstractPtr;
using ir::CNode;
using ir::Node;

namespace {

// Whether a result with this abstract becomes a constant ValueNode: scalars, strings, None,
// dtypes and tuples of them whose value is known (never tensors: they stay computed).
bool foldsToValue(const AbstractPtr& a) {
    if (!a || !a->value) {
        return false;
    }
    switch (a->kind) {
        case Abstract::Kind::Scalar:
        case Abstract::Kind::None:
        case Abstract::Kind::Type:
        case Abstract::Kind::Opaque:  // with a value: a slice, Ellipsis
            return true;
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List:
            return std::all_of(a->elements.begin(), a->elements.end(), foldsToValue);
        default:
            return false;
    }
}

bool holdsTensor(const ir::Value& v) {
    if (v.kind == ir::Value::Kind::Tensor) {
        return true;
    }
    return std::any_of(v.elements.begin(), v.elements.end(),
                       [](const ir::ValuePtr& e) { return e && holdsTensor(*e); });
}

ir::ValuePtr valueOfArg(const Arg& a) {
    if (auto* v = ir::nodeCast<ir::ValueNode>(a.node)) {
        return v->value();
    }
    return a.abs ? a.abs->value : nullptr;
}

AbstractPtr withoutTensorValue(const AbstractPtr& a) {
    if (a && a->kind == Abstract::Kind::Tensor && (a->valueKnown || a->value)) {
        return Abstract::tensor(a->dtype, a->shape);
    }
    if (a && a->kind == Abstract::Kind::Tuple) {
        std::vector<AbstractPtr> elems;
        for (const auto& e : a->elements) {
            elems.push_back(withoutTensorValue(e));
        }
        auto t = Abstract::tuple(std::move(elems));
        return a->value && !holdsTensor(*a->value) ? Abstract::withValue(t, a->value) : t;
    }
    return a;
}

}  // namespace

// ---- small builders ----------------------------------------------------------------------------

void Engine::setResult(Node* n, const Arg& r) {
    n->setAbstract(r.abs);
    if (r.fn) {
        fns_[n] = r.fn;
    } else {
        fns_.erase(n);
    }
    if (r.items) {
        items_[n] = r.items;
    } else {
        items_.erase(n);
    }
}

Arg Engine::argOf(Node* n) {
    Arg a{n, n->abstract(), nullptr};
    if (auto* v = ir::nodeCast<ir::ValueNode>(n)) {
        const ir::ValuePtr& val = v->value();
        if (val->kind == ir::Value::Kind::Graph) {
            auto f = std::make_shared<FuncVal>();
            f->kind = FuncVal::Kind::Graph;
            f->graph = templateOf(val->graph);
            f->origin = v;
            a.fn = f;
            a.abs = Abstract::func();
        } else if (val->kind == ir::Value::Kind::Primitive) {
            auto f = std::make_shared<FuncVal>();
            f->kind = FuncVal::Kind::Prim;
            f->prim = val;
            a.fn = f;
            a.abs = Abstract::func();
        } else {
            a.abs = constAbstract(val);
        }
        v->setAbstract(a.abs);
        return a;
    }
    if (auto it = fns_.find(n); it != fns_.end()) {
        a.fn = it->second;
    }
    if (auto it = items_.find(n); it != items_.end()) {
        a.items = it->second;
    }
    return a;
}

ir::ValueNode* Engine::valueNode(ir::FuncGraph* g, ir::ValuePtr v) {
    ir::ValueNode* n = m_.addValue(g, v);
    Arg a = argOf(n);
    (void)a;
    return n;
}

Arg Engine::emitConst(CNode* at, ir::ValuePtr v) {
    return argOf(valueNode(at->graph(), std::move(v)));
}

Arg Engine::replace(CNode* c, const Arg& r) {
    if (r.node && r.node != c) {
        // bool_(self.check()) folded, or a Switch decided by it: the call still runs.
        keepEffectfulInputs(c);
        m_.replaceAllUses(c, r.node);
        if (r.node->isCNode() && r.node->graph() == c->graph() && r.node->debug().name.empty()) {
            r.node->mutableDebug().name = c->debug().name;  // `out = x + y` keeps its name
        }
    }
    setResult(c, r);
    return r;
}

Arg Engine::emitCall(CNode* at, Node* callee, const std::vector<Node*>& inputs) {
    std::vector<Node*> ins{callee};
    ins.insert(ins.end(), inputs.begin(), inputs.end());
    CNode* n = m_.addCNode(at->graph(), ins);
    n->copyLocation(*at);
    // New nodes take the source position of the node they expand (see Engine::order_).
    auto it = order_.find(at);
    OrderKey key = it != order_.end() ? it->second : OrderKey{at->id(), 0};
    key.second = ++seq_;
    order_[n] = key;
    return inferCNode(n);
}

Arg Engine::emitPrim(CNode* at, const std::string& name, const std::vector<Node*>& inputs,
                     const ir::AttrMap& attrs) {
    return emitCall(at, valueNode(at->graph(), ir::Value::primitive(name, attrs)), inputs);
}

Arg Engine::makeTuple(CNode* at, const std::vector<Arg>& elems, bool list) {
    std::vector<Node*> ins;
    for (const Arg& e : elems) {
        ins.push_back(e.node);
    }
    Arg r = emitPrim(at, "MakeTuple", ins);
    if (list && r.abs && r.abs->kind == Abstract::Kind::Tuple) {
        auto l = Abstract::list(r.abs->elements);
        r.abs = r.abs->value ? Abstract::withValue(l, ir::Value::list(r.abs->value->elements)) : l;
        if (auto* v = ir::nodeCast<ir::ValueNode>(r.node)) {
            return emitConst(at, ir::Value::list(v->value()->elements));
        }
        setResult(r.node, r);
    }
    return r;
}

std::vector<Arg> Engine::elementsOf(CNode* at, const Arg& seq) {
    std::vector<Arg> out;
    if (!seq.abs) {
        return out;
    }
    const std::size_t n = seq.abs->elements.size();
    if (auto* v = ir::nodeCast<ir::ValueNode>(seq.node)) {
        for (const auto& e : v->value()->elements) {
            out.push_back(emitConst(at, e));
        }
        return out;
    }
    if (auto* c = ir::nodeCast<CNode>(seq.node); c && c->isPrimitive(ir::prim::kMakeTuple) &&
                                                 c->size() == n + 1 && c->graph() == at->graph()) {
        for (std::size_t i = 0; i < n; ++i) {
            out.push_back(argOf(c->input(i + 1)));
        }
        return out;
    }
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(emitPrim(
            at, "TupleGetItem",
            {seq.node, emitConst(at, ir::Value::integer(static_cast<std::int64_t>(i))).node}));
    }
    return out;
}

// ---- one node ----------------------------------------------------------------------------------

bool Engine::sideEffectFree(ir::FuncGraph* g) {
    // Asked for every folded node's call inputs: remembered per graph (an inference that
    // restarts forgets, its clones being discarded).
    if (auto it = effectFree_.find(g); it != effectFree_.end()) {
        return it->second;
    }
    const bool free = !reachesSideEffect(g, true);
    effectFree_.emplace(g, free);
    return free;
}

bool reachesSideEffect(const ir::FuncGraph* g, bool io) {
    std::vector<const ir::FuncGraph*> work{g};
    std::unordered_set<const ir::FuncGraph*> seen{g};
    while (!work.empty()) {
        const ir::FuncGraph* f = work.back();
        work.pop_back();
        for (const CNode* c : f->topoOrder()) {
            for (const Node* in : c->inputs()) {
                const auto* v = ir::nodeCast<ir::ValueNode>(in);
                if (!v) {
                    continue;
                }
                if (v->value()->kind == ir::Value::Kind::Graph) {
                    if (seen.insert(v->value()->graph).second) {
                        work.push_back(v->value()->graph);
                    }
                } else if (v->value()->kind == ir::Value::Kind::Primitive) {
                    const ops::OpDef* op = ops::OpRegistry::instance().find(v->value()->prim->name);
                    if (op && (op->sideEffectMem || (io && op->sideEffectIo))) {
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

// An input of `c` is a call with a side effect (a graph that assigns or prints, or an
// effectful primitive): folding `c` to a constant would drop that call (the isolated
// statements' MakeTuple holds `self.update()` whose result is a known None).
bool Engine::effectfulFunction(const FuncPtr& f) {
    if (!f) {
        return false;
    }
    switch (f->kind) {
        case FuncVal::Kind::Graph:
            return f->graph != nullptr && !sideEffectFree(f->graph);
        case FuncVal::Kind::Prim: {
            const ops::OpDef* op =
                f->prim ? ops::OpRegistry::instance().find(f->prim->prim->name) : nullptr;
            return op != nullptr && (op->sideEffectMem || op->sideEffectIo);
        }
        case FuncVal::Kind::Partial:
            return effectfulFunction(f->fn);
        case FuncVal::Kind::Union:
            return std::any_of(f->options.begin(), f->options.end(),
                               [&](const FuncPtr& o) { return effectfulFunction(o); });
        case FuncVal::Kind::Method:
            return false;
    }
    return false;
}

bool Engine::isEffectfulCall(CNode* c) {
    if (c == nullptr || c->size() == 0) {
        return false;
    }
    const auto* callee = ir::nodeCast<ir::ValueNode>(c->input(0));
    if (callee == nullptr) {
        // A call of a function value (a Cell passed as an argument): what it holds.
        return effectfulFunction(argOf(c->input(0)).fn);
    }
    if (callee->value()->kind == ir::Value::Kind::Graph) {
        return !sideEffectFree(callee->value()->graph);
    }
    if (callee->value()->kind == ir::Value::Kind::Primitive) {
        const ops::OpDef* op = ops::OpRegistry::instance().find(callee->value()->prim->name);
        return op != nullptr && (op->sideEffectMem || op->sideEffectIo);
    }
    return false;
}

void Engine::keepEffectfulInputs(CNode* c) {
    for (std::size_t i = 1; i < c->size(); ++i) {
        auto* in = ir::nodeCast<CNode>(c->input(i));
        if (isEffectfulCall(in)) {
            foldedEffects_.push_back(in);
        }
    }
}

bool Engine::hasEffectfulInput(CNode* c) {
    for (std::size_t i = 1; i < c->size(); ++i) {
        if (isEffectfulCall(ir::nodeCast<CNode>(c->input(i)))) {
            return true;
        }
    }
    return false;
}

std::optional<std::vector<Arg>> Engine::knownInputs(CNode* c) {
    std::vector<Arg> args;
    for (std::size_t i = 1; i < c->size(); ++i) {
        args.push_back(argOf(c->input(i)));
        if (!args.back().abs) {
            return std::nullopt;
        }
    }
    return args;
}

Arg Engine::pending(CNode* c) {
    setResult(c, {});
    return {c, nullptr, nullptr};
}

Arg Engine::inferCNode(CNode* c) {
    Node* callee = c->input(0);
    if (auto* v = ir::nodeCast<ir::ValueNode>(callee)) {
        const ir::ValuePtr& val = v->value();
        if (val->kind == ir::Value::Kind::Primitive) {
            return inferPrimitive(c, val);
        }
        if (val->kind == ir::Value::Kind::Graph) {
            const std::optional<std::vector<Arg>> args = knownInputs(c);
            if (!args) {
                return pending(c);
            }
            Spec& s = specialize(templateOf(val->graph), *args, c, false);
            if (!s.inProgress && foldsToValue(s.ret) && sideEffectFree(s.graph)) {
                // A call whose result is a known constant and that does nothing else is that
                // constant, as MindSpore's specializer replaces it.
                return replace(c, emitConst(c, s.ret->value));
            }
            if (s.graph != val->graph) {
                m_.setInput(c, 0, valueNode(c->graph(), ir::Value::graphRef(s.graph)));
            }
            Arg r{c, s.ret, s.retFn, s.retItems};
            setResult(c, r);
            return r;
        }
    }
    return inferCallOfValue(c);
}

Arg Engine::inferLateAttrs(CNode* c, const ir::ValuePtr& prim) {
    const std::optional<std::vector<Arg>> args = knownInputs(c);
    if (!args) {
        return pending(c);
    }
    const ir::ValuePtr names = prim->prim->attrs.get(meta::kLateAttrs);
    const std::size_t late = names->elements.size();
    if (late > args->size()) {
        error(c, "RuntimeError", "irscope: a '" + prim->prim->name + "' call lost its late attributes.");
    }
    ir::AttrMap attrs = prim->prim->attrs;
    attrs.erase(meta::kLateAttrs);
    const std::size_t first = args->size() - late;
    for (std::size_t k = 0; k < late; ++k) {
        const ir::ValuePtr v = valueOfArg((*args)[first + k]);
        if (!v || holdsTensor(*v)) {
            error(c, "TypeError", "For '" + prim->prim->name + "', the argument '" + names->elements[k]->text +
                                      "' must be a constant in graph mode.");
        }
        attrs.set(names->elements[k]->text, v);
    }
    std::vector<Node*> inputs;
    for (std::size_t i = 0; i < first; ++i) {
        inputs.push_back((*args)[i].node);
    }
    return replace(c, emitPrim(c, prim->prim->name, inputs, attrs));
}

Arg Engine::inferRaise(CNode* c) {
    const std::optional<std::vector<Arg>> args = knownInputs(c);
    if (!args) {
        return pending(c);  // the message is still being inferred
    }
    auto text = [&](std::size_t i) {
        const ir::ValuePtr v = i < args->size() ? valueOfArg((*args)[i]) : nullptr;
        return v && v->kind == ir::Value::Kind::String ? v->text : std::string();
    };
    const std::string type = text(0).empty() ? "RuntimeError" : text(0);
    const ir::ValuePtr always = args->size() > 2 ? valueOfArg((*args)[2]) : nullptr;
    const bool atRunTime =
        !(always && always->kind == ir::Value::Kind::Bool && always->b) &&
        std::any_of(frames_.begin(), frames_.end(), [](const Frame& f) { return f.undetermined; });
    if (atRunTime) {
        error(c, "RuntimeError",
              "In graph mode, 'raise' is supported only where the compiler can decide the condition "
              "(irscope cannot raise " + type + " at run time yet).");
    }
    error(c, type, text(1));
}

Arg Engine::inferPrimitive(CNode* c, const ir::ValuePtr& prim) {
    const std::string& name = prim->prim->name;
    if (prim->prim->attrs.find(meta::kLateAttrs) != nullptr) {
        return inferLateAttrs(c, prim);
    }
    if (name == meta::kRaise) {
        return inferRaise(c);
    }
    if (name == ir::prim::kSwitch) {
        return inferSwitch(c);
    }
    if (name == ir::prim::kPartial) {
        return inferPartial(c);
    }
    if (name == ir::prim::kCustomBprop) {
        return inferCustomBprop(c);
    }
    if (autodiff::isGradPrimitive(name)) {
        return inferGradOp(c);
    }
    if (isMetaOp(name)) {
        const std::optional<std::vector<Arg>> args = knownInputs(c);
        if (!args) {
            return pending(c);
        }
        try {
            return expandMeta(*this, c, prim, *args);
        } catch (const ops::OpError& e) {
            // A registry helper's check (an axis out of range...) inside an expansion.
            error(c, std::string(ops::errorKindName(e.kind())), e.what());
        }
    }
    return inferRegistryOp(c, prim);
}

Arg Engine::inferCustomBprop(CNode* c) {
    const Arg out = argOf(c->input(1));
    const Arg bprop = argOf(c->input(2));
    if (!out.abs || !bprop.abs) {
        return pending(c);
    }
    if (!bprop.fn) {
        error(c, "TypeError", "irscope: a Cell's bprop must be a method.");
    }
    // The bprop is specialized for dout of out's type (its Partial is retargeted to it), so
    // meta_fg_expand calls a typed graph.
    const Arg grads = evalCall(c, bprop.fn, {Arg{out.node, out.abs, nullptr}}, false);
    if (grads.abs && grads.abs->kind != Abstract::Kind::Tuple) {
        error(
            c, "TypeError",
            "The 'bprop' of a Cell must return a tuple with the gradient of each input, but got " +
                describe(grads.abs) + ".");
    }
    Arg r{c, out.abs, out.fn};
    setResult(c, r);
    return r;
}

Arg Engine::inferRegistryOp(CNode* c, const ir::ValuePtr& prim) {
    const ops::OpDef* op = ops::OpRegistry::instance().find(prim->prim->name);
    if (!op) {
        error(c, "RuntimeError", "irscope: unknown primitive '" + prim->prim->name + "'.");
    }
    std::optional<std::vector<Arg>> known = knownInputs(c);
    if (!known) {
        return pending(c);
    }
    std::vector<Arg>& args = *known;
    // MindSpore's implicit conversion: a constant Python number meeting a tensor in an input
    // of the same dtype group becomes a tensor constant of the promoted dtype
    // (`F.assign(self.weight, i)` shows `Assign(%para2_param, Tensor(shape=[], dtype=Int32,
    // value=0), U)`).
    if (!op->structural) {
        std::vector<ops::Operand> operands;
        bool anyTensor = false;
        for (std::size_t i = 0; i < args.size() && i < op->inputs.size(); ++i) {
            const auto kind = op->inputs[i].kind;
            if (kind != ops::ArgKind::Number && kind != ops::ArgKind::Tensor) {
                continue;
            }
            if (ops::isTensorAbs(args[i].abs)) {
                anyTensor = true;
                operands.push_back({true, args[i].abs->dtype, args[i].abs->shape});
            } else if (kind == ops::ArgKind::Number && ops::isScalarAbs(args[i].abs) &&
                       ops::isNumberScalar(args[i].abs->dtype)) {
                operands.push_back({false, args[i].abs->dtype, {}});
            }
        }
        if (anyTensor && operands.size() > 1) {
            const ir::DType to = ops::promoteOperands(operands);
            for (std::size_t i = 0; i < args.size() && i < op->inputs.size(); ++i) {
                const ir::ValuePtr v = valueOfArg(args[i]);
                if (op->inputs[i].kind != ops::ArgKind::Number || !ops::isScalarAbs(args[i].abs) ||
                    !v || !ops::numberOf(v)) {
                    continue;
                }
                ir::TensorData t = ir::scalarTensor(to, *ops::numberOf(v));
                if (v->kind == ir::Value::Kind::Int && !ir::isFloat(to)) {
                    t = ir::scalarTensor(to, static_cast<double>(v->i));
                }
                Arg k = emitConst(c, ir::Value::tensorValue(std::move(t)));
                m_.setInput(c, i + 1, k.node);
                args[i] = k;
            }
        }
    }
    std::vector<ops::InferArg> in;
    in.reserve(args.size());
    for (const Arg& a : args) {
        in.push_back({a.abs, valueOfArg(a)});
    }
    ops::InferResult r;
    try {
        r = ops::OpRegistry::instance().infer(*op, prim->prim->attrs, in);
    } catch (const ops::OpError& e) {
        error(c, std::string(ops::errorKindName(e.kind())), e.what());
    }
    const bool mayFold =
        op->foldable || op->name == ir::prim::kMakeTuple || op->name == ir::prim::kTupleGetItem;
    AbstractPtr abs = r.abs;
    if (r.constant && r.constant->kind != ir::Value::Kind::Tensor && abs &&
        abs->kind != Abstract::Kind::Tensor) {
        abs = constAbstract(r.constant);
    }
    abs = withoutTensorValue(abs);
    if (mayFold && foldsToValue(abs) &&
        !(op->name == ir::prim::kMakeTuple && hasEffectfulInput(c))) {
        return replace(c, emitConst(c, abs->value));
    }
    Arg out{c, abs, nullptr};
    if (op->name == ir::prim::kDepend || op->name == ir::prim::kStopGradient) {
        // Function values pass through these untouched.
        if (!args.empty()) {
            out.fn = args[0].fn;
            out.items = args[0].items;
        }
    } else if (op->name == ir::prim::kMakeTuple) {
        // Which functions the tuple holds, for a caller of one of them.
        if (std::any_of(args.begin(), args.end(), [](const Arg& a) { return a.fn || a.items; })) {
            auto fns = std::make_shared<std::vector<ItemFn>>();
            for (const Arg& a : args) {
                fns->push_back({a.fn, a.items});
            }
            out.items = std::move(fns);
        }
    } else if (op->name == ir::prim::kTupleGetItem && args.size() == 2 && args[0].items) {
        const std::optional<std::int64_t> k = ops::intOf(valueOfArg(args[1]));
        if (k && *k >= 0 && static_cast<std::size_t>(*k) < args[0].items->size()) {
            const ItemFn& item = (*args[0].items)[static_cast<std::size_t>(*k)];
            out.fn = item.fn;
            out.items = item.items;
        }
    }
    setResult(c, out);
    return out;
}

Arg Engine::inferSwitch(CNode* c) {
    if (c->size() != 4) {
        error(c, "TypeError", "For 'Switch', the number of inputs must be 3.");
    }
    const Arg cond = argOf(c->input(1));
    const Arg a = argOf(c->input(2));
    const Arg b = argOf(c->input(3));
    if (!cond.abs) {
        return pending(c);
    }
    const bool known = (cond.abs->kind == Abstract::Kind::Scalar && cond.abs->value &&
                        ops::numberOf(cond.abs->value)) ||
                       cond.abs->kind == Abstract::Kind::None;
    if (known) {
        const bool truth =
            cond.abs->kind != Abstract::Kind::None && *ops::numberOf(cond.abs->value) != 0;
        return replace(c, truth ? a : b);
    }
    if (!(ops::isTensorAbs(cond.abs) || cond.abs->kind == Abstract::Kind::Scalar)) {
        error(c, "TypeError",
              "For 'Switch', the 'cond' must be a bool or a Tensor, but got " + describe(cond.abs) +
                  ".");
    }
    if (a.fn && b.fn) {
        auto u = std::make_shared<FuncVal>();
        u->kind = FuncVal::Kind::Union;
        u->options = {a.fn, b.fn};
        Arg r{c, Abstract::func(), u};
        setResult(c, r);
        return r;
    }
    if (!a.abs || !b.abs) {
        Arg r{c, a.abs ? a.abs : b.abs, nullptr};
        setResult(c, r);
        return r;
    }
    AbstractPtr j = joinAbs(a.abs, b.abs);
    if (!j) {
        error(c, "TypeError",
              "Cannot join the return values of different branches, perhaps you need to make "
              "them equal.\nType Join Failed: " +
                  describe(a.abs) + " and " + describe(b.abs) + ".");
    }
    Arg r{c, j, nullptr};
    setResult(c, r);
    return r;
}

Arg Engine::inferPartial(CNode* c) {
    if (c->size() < 2) {
        error(c, "TypeError", "For 'Partial', the function is missing.");
    }
    const Arg fn = argOf(c->input(1));
    if (!fn.fn) {
        if (!fn.abs) {
            return pending(c);
        }
        error(
            c, "TypeError",
            "For 'Partial', the first input must be a function, but got " + describe(fn.abs) + ".");
    }
    auto f = std::make_shared<FuncVal>();
    f->kind = FuncVal::Kind::Partial;
    f->fn = fn.fn;
    for (std::size_t i = 2; i < c->size(); ++i) {
        f->bound.push_back(argOf(c->input(i)));
    }
    f->origin = c;
    Arg r{c, Abstract::func(), f};
    setResult(c, r);
    return r;
}

namespace {

// Whether `n` can be used as an input of a node of graph g: its own nodes, constants (copied
// over) and weights (the entry graph's has_default parameters).
bool usableIn(const Node* n, const ir::FuncGraph* g) {
    if (!n) {
        return false;
    }
    const auto* p = ir::nodeCast<ir::Parameter>(n);
    return n->graph() == g || n->isValue() || (p && p->hasDefault());
}

}  // namespace

Arg Engine::inferCallOfValue(CNode* c) {
    if (std::optional<Arg> grad = inferGradCall(c)) {
        return *grad;
    }
    const Arg fn = argOf(c->input(0));
    std::vector<Arg> args;
    for (std::size_t i = 1; i < c->size(); ++i) {
        args.push_back(argOf(c->input(i)));
    }
    if (!fn.abs) {
        return pending(c);
    }
    if (!fn.fn && fn.abs->kind == Abstract::Kind::Func) {
        // A function whose identity the engine lost on the way (an element of a tuple a
        // called graph returned): MindSpore would call it.
        error(c, "RuntimeError",
              "irscope: calling a function value taken out of a tuple returned by another "
              "graph is not supported yet.");
    }
    if (!fn.fn) {
        error(c, "TypeError", "'" + describe(fn.abs) + "' object is not callable.");
    }
    if (const ir::ValuePtr kw = c->attrs().get("keywords")) {
        // Keyword arguments (the trailing inputs) reach here only for calls of values the
        // front end could not bind: Tensor methods (`x.sum(axis=1)`).
        std::vector<std::string> names;
        for (const auto& k : kw->elements) {
            names.push_back(k->text);
        }
        if (fn.fn->kind != FuncVal::Kind::Method || names.size() > args.size()) {
            error(c, "TypeError",
                  "irscope: keyword arguments are supported only in calls of functions, "
                  "methods, cells and primitives known at compile time.");
        }
        std::vector<Arg> all = fn.fn->bound;
        all.insert(all.end(), args.begin(), args.end());
        return replace(c, callMethod(*this, c, fn.fn->spelling, all, names));
    }
    return callValue(c, fn, args);
}

Arg Engine::callValue(CNode* at, const Arg& fn, const std::vector<Arg>& args) {
    const FuncPtr& f = fn.fn;
    auto nodesOf = [&](const std::vector<Arg>& as) {
        std::vector<Node*> ns;
        for (const Arg& a : as) {
            auto* v = ir::nodeCast<ir::ValueNode>(a.node);
            ns.push_back(v && v->graph() != at->graph() ? valueNode(at->graph(), v->value())
                                                        : a.node);
        }
        return ns;
    };
    auto rebuild = [&](Node* callee, const std::vector<Arg>& all) {
        return replace(at, emitCall(at, callee, nodesOf(all)));
    };
    switch (f->kind) {
        case FuncVal::Kind::Graph:
            return rebuild(valueNode(at->graph(), ir::Value::graphRef(f->graph)), args);
        case FuncVal::Kind::Prim:
            return rebuild(valueNode(at->graph(), f->prim), args);
        case FuncVal::Kind::Method: {
            std::vector<Arg> all = f->bound;
            all.insert(all.end(), args.begin(), args.end());
            return replace(at, callMethod(*this, at, f->spelling, all));
        }
        case FuncVal::Kind::Partial: {
            std::vector<Arg> all = f->bound;
            all.insert(all.end(), args.begin(), args.end());
            const bool usable = std::all_of(all.begin(), all.end(), [&](const Arg& a) {
                return usableIn(a.node, at->graph());
            });
            if (usable && f->fn->kind != FuncVal::Kind::Union) {
                return callValue(at, Arg{nullptr, Abstract::func(), f->fn}, all);
            }
            break;
        }
        case FuncVal::Kind::Union:
            break;
    }
    // The function lives elsewhere or is one of several: infer the call without rewriting it.
    Arg r = evalCall(at, f, args, f->kind == FuncVal::Kind::Union);
    r.node = at;
    setResult(at, r);
    return r;
}

}  // namespace irscope::passes::infer
