// symbol_resolve: automatic differentiation in construct. A GradOperation instance applied
// to a function (`self.grad(self.net)`, `self.grad(self.net, self.weights)`) and the
// functions `ops.grad(fn, grad_position, weights, has_aux)` / `ops.value_and_grad(...)`
// become the primitives `GradOperation`, `grad`, `value_and_grad` with their flags as
// attributes, the differentiated function as input 1 and the weights (a MakeTuple of the
// entry's weight parameters, or one of them) as input 2. Calling the result differentiates;
// type_inference infers that call and meta_fg_expand expands it (passes/README.md).
#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/ms_objects.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::Node;
using ir::Value;
using ir::ValuePtr;

namespace {

bool isParameterTuple(interp::Interpreter& I, const interp::Value& v) {
    return modules::holderOf(v) != nullptr && I.typeName(v) == "ParameterTuple";
}

}  // namespace

bool Resolver::isGradCallee(const interp::Value& v) const {
    if (modules::compositeKind(v) == "GradOperation") {
        return true;
    }
    const auto* nf = v.as<interp::NativeFunctionObject>();
    return nf != nullptr && (nf->name == "grad" || nf->name == "value_and_grad");
}

Node* Resolver::gradWeights(Node* in, ir::FuncGraph* g, const Node* at) {
    std::optional<HostVal> h = hostOf(in);
    if (!h) {
        return in;  // computed in the graph; type_inference checks it
    }
    if (h->v.isNone()) {
        return nullptr;
    }
    if (isParameterTuple(I, h->v)) {
        std::vector<Node*> items{
            constant(g, Value::primitive(std::string(passes::meta::kMakeTuple)))};
        for (const interp::Value& p : modules::holderOf(h->v)->items) {
            if (!modules::isParameter(p)) {
                fail("TypeError",
                     "irscope: a ParameterTuple differentiated in graph mode must hold Parameters "
                     "only.",
                     at);
            }
            items.push_back(weight(p, at));
        }
        return cnode(g, items, at);
    }
    return materialize(*h, g, at);
}

Node* Resolver::gradTarget(Node* in, ir::FuncGraph* g, const Node* at) {
    std::optional<HostVal> h = hostOf(in);
    if (!h || !modules::isCell(h->v) ||
        I.typeOf(h->v)->lookup("construct").as<interp::FunctionObject>() != nullptr) {
        return inputValue(in, g, at);
    }
    // A cell implemented natively (nn.Dense...): a graph of one input around its lowering.
    auto key = std::make_pair(h->v.obj(), h->scope);
    auto it = nativeCellGraphs_.find(key);
    if (it == nativeCellGraphs_.end()) {
        ir::FuncGraph* w = m_.addGraph(I.typeName(h->v) + "_construct");
        w->debug() = at->debug();
        Node* x = m_.addParameter(w, "x");
        CNode* site =
            cnode(w, {constant(w, Value::primitive(std::string(passes::meta::kMakeTuple))), x}, at);
        site->debug().scope = h->scope;
        m_.setOutput(w, nativeCell(site, *h, {x}));
        if (site->users().empty()) {
            m_.erase(site);
        }
        it = nativeCellGraphs_.emplace(key, w).first;
    }
    return constant(g, Value::graphRef(it->second));
}

Node* Resolver::lowerGrad(CNode* c, const HostVal& callee) {
    ir::FuncGraph* home = c->graph();
    const std::vector<std::string> kws = [&] {
        std::vector<std::string> out;
        if (ValuePtr k = c->attrs().get("keywords")) {
            for (const ValuePtr& e : k->elements) {
                out.push_back(e->text);
            }
        }
        return out;
    }();
    const std::size_t npos = c->size() - 1 - kws.size();
    auto arg = [&](std::size_t i) { return c->input(i + 1); };
    ir::AttrMap attrs;
    std::string name;
    Node* fn = nullptr;
    Node* weights = nullptr;
    if (modules::compositeKind(callee.v) == "GradOperation") {
        name = "GradOperation";
        const modules::HolderObject* h = modules::holderOf(callee.v);
        static const char* const flags[] = {"get_all", "get_by_list", "sens_param"};
        for (std::size_t k = 0; k < 3; ++k) {
            attrs.set(flags[k], Value::boolean(k < h->items.size() && I.truthy(h->items[k])));
        }
        if (!kws.empty() || npos < 1 || npos > 2) {
            fail("TypeError",
                 "For 'GradOperation', it takes the function to differentiate and, with "
                 "get_by_list, "
                 "the weights (" +
                     std::to_string(npos) + " arguments given).",
                 c);
        }
        const bool byList = attrs.get("get_by_list")->b;
        if (byList != (npos == 2)) {
            fail("TypeError",
                 byList
                     ? "For 'GradOperation', get_by_list=True needs the weights: grad(fn, weights)."
                     : "For 'GradOperation', weights are given but get_by_list is False.",
                 c);
        }
        fn = gradTarget(arg(0), home, c);
        if (npos == 2) {
            weights = gradWeights(arg(1), home, c);
        }
    } else {
        name = callee.v.as<interp::NativeFunctionObject>()->name;
        // grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False)
        static const char* const names[] = {"fn", "grad_position", "weights", "has_aux",
                                            "return_ids"};
        std::vector<Node*> bound(5, nullptr);
        if (npos > 5) {
            fail("TypeError",
                 name + "() takes at most 5 arguments (" + std::to_string(npos) + " given)", c);
        }
        for (std::size_t i = 0; i < npos; ++i) {
            bound[i] = arg(i);
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
            bound[at] = arg(npos + k);
        }
        if (bound[0] == nullptr) {
            fail("TypeError", name + "() missing 1 required argument: 'fn'", c);
        }
        fn = gradTarget(bound[0], home, c);
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
        const ValuePtr pos = constArg(1, Value::integer(0));
        const bool posOk =
            pos->kind == Value::Kind::None || pos->kind == Value::Kind::Int ||
            ((pos->kind == Value::Kind::Tuple || pos->kind == Value::Kind::List) &&
             !pos->elements.empty() &&
             std::all_of(pos->elements.begin(), pos->elements.end(),
                         [](const ValuePtr& e) { return e->kind == Value::Kind::Int; }));
        if (!posOk) {
            fail("TypeError",
                 "For '" + name +
                     "', the 'grad_position' must be an int, a non-empty tuple of ints or None.",
                 c);
        }
        attrs.set("grad_position",
                  pos->kind == Value::Kind::List ? Value::tuple(pos->elements) : pos);
        const ValuePtr aux = constArg(3, Value::boolean(false));
        if (aux->kind != Value::Kind::Bool) {
            fail("TypeError", "For '" + name + "', the 'has_aux' must be a bool.", c);
        }
        attrs.set("has_aux", aux);
        if (constArg(4, Value::boolean(false))->b) {
            fail("RuntimeError",
                 "irscope: " + name + "(return_ids=True) is not supported yet in graph mode.", c);
        }
        if (bound[2] != nullptr) {
            weights = gradWeights(bound[2], home, c);
        }
        if (pos->kind == Value::Kind::None && weights == nullptr) {
            fail("ValueError",
                 "For '" + name +
                     "', 'grad_position' and 'weights' can not be None at the same time.",
                 c);
        }
    }
    std::vector<Node*> in{constant(home, Value::primitive(name, std::move(attrs))), fn};
    if (weights != nullptr) {
        in.push_back(weights);
    }
    return rewrite(c, std::move(in));
}

}  // namespace irscope::compiler
