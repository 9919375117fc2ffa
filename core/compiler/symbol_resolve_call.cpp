// symbol_resolve: calls of host callees. Cells and Python functions/methods become direct
// graph calls with keywords and defaults bound; registry functions and primitive instances
// become primitive calls bound with ops::bindCall; print becomes Print; composites become
// their meta primitives; nn layers implemented natively lower to registry primitives.
#include "compiler/graph_builder_impl.h"
#include "compiler/graph_builder.h"
#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/ms_objects.h"
#include "ops/call_binding.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

std::vector<std::string> keywordsOf(const CNode* c) {
    std::vector<std::string> out;
    if (ValuePtr k = c->attrs().get("keywords")) {
        for (const ValuePtr& e : k->elements) {
            out.push_back(e->text);
        }
    }
    return out;
}

namespace {

// A primitive value with the registry's attribute defaults, then `overrides`.
ValuePtr primitiveWith(std::string_view name, const ir::AttrMap& overrides) {
    ir::AttrMap attrs;
    if (const ops::OpDef* op = ops::OpRegistry::instance().find(name)) {
        try {
            for (const auto& [n, src] : ops::bindConstructor(*op, 0).attrs) {
                if (src.kind == ops::ArgSource::Kind::Default && src.value) {
                    attrs.set(n, src.value);
                }
            }
        } catch (const ops::OpError&) {
            // no defaults to fill
        }
    }
    for (const auto& [k, v] : overrides) {
        attrs.set(k, v);
    }
    return Value::primitive(std::string(name), std::move(attrs));
}

}  // namespace

Node* Resolver::rewrite(CNode* c, std::vector<Node*> in) {
    // In place, so the call keeps its id: the evaluator breaks ties by id, which keeps
    // statements with side effects (F.assign) in source order until auto_monad exists.
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (i < c->size()) {
            m_.setInput(c, i, in[i]);
        } else {
            m_.appendInput(c, in[i]);
        }
    }
    while (c->size() > in.size()) {
        m_.removeInput(c, c->size() - 1);
    }
    c->attrs().erase("keywords");
    return c;
}

bool Resolver::hostCallable(const interp::Value& callee) const {
    if (auto* t = callee.as<interp::Type>()) {
        // Classes instantiated at compile time: jit_class, primitives, Tensor, composites.
        if (modules::isJitClass(t)) {
            return true;
        }
        for (const interp::Type* k : t->mro) {
            if (k->module == "mindspore.ops.operations" || k->module == "mindspore.ops.composite" ||
                (k->name == "Tensor" && k->module.rfind("mindspore", 0) == 0)) {
                return true;
            }
        }
        return false;
    }
    if (auto* f = callee.as<interp::NativeFunctionObject>()) {
        return f->name == "vmap";
    }
    if (callee.is<interp::FunctionObject>()) {
        // @constexpr (mindspore/ops/primitive.py): run on the host when its arguments are
        // constants here; otherwise its body is compiled and folded by type_inference.
        const interp::Value mark = I.getAttrOrNull(callee, "__irscope_constexpr__");
        return !mark.isNull() && I.truthy(mark);
    }
    return false;
}

Node* Resolver::functionValue(const HostVal& hv, FuncGraph* g, const Node* at) {
    const interp::Value& v = hv.v;
    if (auto* fn = modules::pythonFunctionOf(v)) {
        return constant(g, Value::graphRef(graphOf(fn, {}, at->debug().scope, at)));
    }
    if (auto* bm = v.as<interp::BoundMethodObject>()) {
        if (auto* fn = bm->func.as<interp::FunctionObject>()) {
            return constant(g, Value::graphRef(graphOf(fn, bm->self, hv.scope, at)));
        }
    }
    if (modules::isCell(v)) {
        interp::Value construct = I.typeOf(v)->lookup("construct");
        if (auto* fn = modules::pythonFunctionOf(construct)) {
            return constant(g, Value::graphRef(graphOf(fn, v, hv.scope, at)));
        }
    }
    if (std::optional<ops::SpellingRef> ref = modules::opFunctionOf(v)) {
        return constant(g, Value::primitive(ref->op->name));
    }
    if (const modules::PrimitiveObject* p = modules::primitiveOf(v)) {
        return constant(g, Value::primitive(p->op->name, p->attrs));
    }
    if (modules::gradOf(v) != nullptr) {
        return gradFunctionValue(hv, g, at);
    }
    const std::string kind = modules::compositeKind(v);
    if (kind == "MultitypeFuncGraph") {
        const modules::HolderObject* h = modules::holderOf(v);
        std::vector<ValuePtr> sigs, graphs;
        for (std::size_t r = 0; r < h->items.size(); ++r) {
            std::vector<ValuePtr> keys;
            for (const std::string& k : h->typeKeys[r]) {
                keys.push_back(Value::string(k));
            }
            sigs.push_back(Value::tuple(std::move(keys)));
            auto* fn = h->items[r].as<interp::FunctionObject>();
            if (fn == nullptr) {
                fail("TypeError", "For 'MultitypeFuncGraph', the registered function of '" + h->name +
                     "' must be a Python function.", at);
            }
            graphs.push_back(Value::graphRef(graphOf(fn, {}, at->debug().scope, at)));
        }
        ir::AttrMap attrs;
        attrs.set("name", Value::string(h->name));
        attrs.set("signatures", Value::tuple(std::move(sigs)));
        attrs.set("graphs", Value::tuple(std::move(graphs)));
        return constant(g, Value::primitive(std::string(meta::kMultitype), std::move(attrs)));
    }
    if (kind == "GradOperation") {
        fail("TypeError", "irscope: a GradOperation instance must be applied to the function to differentiate "
             "in graph mode: grad_op(fn)(inputs).", at);
    }
    if (I.typeName(v) == "CellList") {
        // Its cells as a tuple (indexed by a tensor: MindSpore's switch_layer).
        std::vector<Node*> items{constant(g, Value::primitive(std::string(meta::kMakeTuple)))};
        const std::int64_t n = I.len(v);
        for (std::int64_t k = 0; k < n; ++k) {
            const interp::Value cell = I.getItem(v, interp::Value::integer(k));
            const std::string scope = hv.scope + "/" + std::to_string(k) + "-" + I.typeName(cell);
            items.push_back(materialize(HostVal{cell, scope}, g, at));
        }
        return cnode(g, items, at);
    }
    if (modules::isCell(v)) {
        // A built-in cell as a value (a layer of a tuple chosen at run time): the graph of one
        // input around its lowering, as for a grad of it.
        return gradTarget(hv, g, at);
    }
    fail("TypeError", "irscope: a '" + I.typeName(v) + "' object cannot be used as a value in graph mode.", at);
}

Node* Resolver::callGraph(CNode* c, FuncGraph* g, std::vector<Node*> args, const std::vector<std::string>& kws) {
    return rewrite(c, boundCall(c, g, std::move(args), kws));
}

std::vector<Node*> Resolver::boundCall(CNode* c, FuncGraph* g, std::vector<Node*> args,
                                       const std::vector<std::string>& kws) {
    FuncGraph* home = c->graph();
    auto sit = s_.signatures.find(g);
    std::vector<Node*> in{constant(home, Value::graphRef(g))};
    if (sit == s_.signatures.end()) {
        if (!kws.empty()) {
            fail("TypeError", "irscope: keyword arguments are not supported when calling '" + g->name() + "'.", c);
        }
        in.insert(in.end(), args.begin(), args.end());
        return in;
    }
    const GraphSignature& sig = sit->second;
    const std::size_t npos = args.size() - kws.size();
    std::vector<Node*> bound(sig.names.size(), nullptr);
    if (npos > sig.positional && sig.varargs < 0) {
        fail("TypeError", g->name() + "() takes " + std::to_string(sig.positional) + " positional arguments but " +
             std::to_string(npos) + " were given", c);
    }
    for (std::size_t i = 0; i < npos && i < sig.positional; ++i) {
        bound[i] = args[i];
    }
    if (sig.varargs >= 0) {
        std::vector<Node*> extra{constant(home, Value::primitive(std::string(meta::kMakeTuple)))};
        for (std::size_t i = sig.positional; i < npos; ++i) {
            extra.push_back(args[i]);
        }
        bound[static_cast<std::size_t>(sig.varargs)] =
            extra.size() == 1 ? constant(home, Value::tuple({})) : cnode(home, extra, c);
    }
    for (std::size_t k = 0; k < kws.size(); ++k) {
        auto it = std::find(sig.names.begin(), sig.names.end(), kws[k]);
        const auto at = static_cast<std::size_t>(it - sig.names.begin());
        if (it == sig.names.end() || static_cast<int>(at) == sig.varargs) {
            fail("TypeError", g->name() + "() got an unexpected keyword argument '" + kws[k] + "'", c);
        }
        if (bound[at] != nullptr) {
            fail("TypeError", g->name() + "() got multiple values for argument '" + kws[k] + "'", c);
        }
        bound[at] = args[npos + k];
    }
    for (std::size_t i = 0; i < bound.size(); ++i) {
        if (bound[i] != nullptr) {
            continue;
        }
        if (sig.defaults[i]) {
            bound[i] = constant(home, sig.defaults[i]);
        } else {
            fail("TypeError", g->name() + "() missing 1 required argument: '" + sig.names[i] + "'", c);
        }
    }
    in.insert(in.end(), bound.begin(), bound.end());
    return in;
}

void Resolver::bindAttribute(CNode* c, const ops::OpDef& op, const std::string& name, const ops::ArgSource& src,
                             Node* n, ir::AttrMap& attrs, LateAttrs& late) {
    if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
        attrs.set(name, vn->value());
    } else if (src.convert == nullptr) {
        // Known only once type_inference has specialized the function for its constant
        // arguments (meta::kLateAttrs).
        late.names.push_back(Value::string(name));
        late.nodes.push_back(n);
    } else {
        fail("TypeError", "For '" + op.name + "', the argument '" + name + "' must be a constant in graph mode.", c);
    }
}

bool Resolver::constructInCalls(CNode* d, const ops::OpDef& op, const ops::Spelling& sp,
                                const std::vector<Node*>& args, const std::vector<std::string>& kws) {
    const std::vector<ir::Use> uses = d->users();
    if (uses.empty() || std::any_of(uses.begin(), uses.end(), [](const ir::Use& u) { return u.index != 0; })) {
        return false;
    }
    ops::CallBinding b;
    try {
        b = ops::bindConstructor(op, args.size() - kws.size(), kws);
    } catch (const ops::OpError& e) {
        fail("TypeError", e.what(), d);
    }
    ir::AttrMap attrs;
    LateAttrs late;
    for (const auto& [name, src] : b.attrs) {
        if (src.kind == ops::ArgSource::Kind::Default) {
            if (src.value) {
                attrs.set(name, src.value);
            }
        } else if (src.kind == ops::ArgSource::Kind::Arg && src.args.size() == 1) {
            Node* n = args.at(src.args[0]);
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(n); vn != nullptr && src.convert != nullptr) {
                n = constant(d->graph(), src.convert(vn->value()));
            }
            bindAttribute(d, op, name, src, n, attrs, late);
        } else if (src.kind != ops::ArgSource::Kind::Absent) {
            return false;
        }
    }
    for (const ir::Use& u : uses) {
        CNode* call = u.user;
        std::vector<Node*> callArgs;
        for (std::size_t i = 1; i < call->size(); ++i) {
            callArgs.push_back(inputValue(call->input(i), call->graph(), call));
        }
        callPrimitive(call, op, sp, attrs, std::move(callArgs), keywordsOf(call), late);
    }
    return true;
}

Node* Resolver::callPrimitive(CNode* c, const ops::OpDef& op, const ops::Spelling& sp, ir::AttrMap attrs,
                              std::vector<Node*> args, const std::vector<std::string>& kws, LateAttrs late) {
    FuncGraph* home = c->graph();
    ops::CallBinding b;
    try {
        // A tuple or list written as one argument where *args are expected (the older
        // spelling ops.meshgrid((x, y), 'ij')): known here from how it is built.
        b = ops::bindCall(op, sp, args.size() - kws.size(), kws, [&args](std::size_t i) {
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(args[i])) {
                return vn->value() && (vn->value()->kind == Value::Kind::Tuple || vn->value()->kind == Value::Kind::List);
            }
            const auto* cn = ir::nodeCast<ir::CNode>(args[i]);
            return cn != nullptr && (cn->isPrimitive(meta::kMakeTuple) || cn->isPrimitive(meta::kMakeList));
        });
    } catch (const ops::OpError& e) {
        fail("TypeError", e.what(), c);
    }
    auto source = [&](const ops::ArgSource& src) -> Node* {
        if (src.kind == ops::ArgSource::Kind::Default) {
            return constant(home, src.value);
        }
        if (src.kind == ops::ArgSource::Kind::Pack) {
            if (src.args.size() == 1) {
                return args[src.args[0]];
            }
            std::vector<Node*> items{constant(home, Value::primitive(std::string(meta::kMakeTuple)))};
            std::vector<ValuePtr> consts;
            for (std::size_t i : src.args) {
                items.push_back(args[i]);
                if (const auto* vn = ir::nodeCast<ir::ValueNode>(args[i])) {
                    consts.push_back(vn->value());
                }
            }
            if (consts.size() == src.args.size()) {
                return constant(home, Value::tuple(std::move(consts)));
            }
            return cnode(home, items, c);
        }
        Node* n = args.at(src.args.at(0));
        if (src.convert != nullptr) {
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
                return constant(home, src.convert(vn->value()));
            }
        }
        return n;
    };
    for (const auto& [name, src] : b.attrs) {
        if (src.kind == ops::ArgSource::Kind::Absent) {
            continue;
        }
        if (src.kind == ops::ArgSource::Kind::Default) {
            if (!attrs.get(name)) {
                attrs.set(name, src.value);
            }
            continue;
        }
        bindAttribute(c, op, name, src, source(src), attrs, late);
    }
    if (!late.names.empty()) {
        attrs.set(std::string(meta::kLateAttrs), Value::tuple(late.names));
    }
    std::vector<Node*> in{constant(home, Value::primitive(op.name, std::move(attrs)))};
    for (const ops::ArgSource& src : b.inputs) {
        if (src.kind != ops::ArgSource::Kind::Absent) {
            in.push_back(source(src));
        }
    }
    in.insert(in.end(), late.nodes.begin(), late.nodes.end());
    rewrite(c, std::move(in));
    if (b.outputIndex >= 0) {
        // The spelling returns one output of the primitive's tuple: its users read it.
        const std::vector<ir::Use> uses = c->users();
        CNode* item = cnode(home, {constant(home, Value::primitive("TupleGetItem")), c,
                                   constant(home, Value::integer(b.outputIndex))}, c);
        for (const ir::Use& u : uses) {
            m_.setInput(u.user, u.index, item);
        }
    }
    return c;
}

Node* Resolver::callCell(CNode* c, const HostVal& cell, std::vector<Node*> args, const std::vector<std::string>& kws) {
    interp::Value construct = I.typeOf(cell.v)->lookup("construct");
    if (auto* fn = modules::pythonFunctionOf(construct)) {
        FuncGraph* g = graphOf(fn, cell.v, cell.scope, c, argLengths(fn, true, args, kws));
        Node* out = callGraph(c, g, std::move(args), kws);
        interp::Value bprop = I.typeOf(cell.v)->lookup("bprop");
        if (auto* bfn = bprop.as<interp::FunctionObject>(); bfn != nullptr && out == c) {
            withCustomBprop(c, graphOf(bfn, cell.v, cell.scope, c));
        }
        return out;
    }
    if (!kws.empty()) {
        fail("TypeError", "irscope: keyword arguments are not supported when calling '" + I.typeName(cell.v) + "'.", c);
    }
    return nativeCell(c, cell, args);
}

CNode* Resolver::withCustomBprop(CNode* call, FuncGraph* bprop) {
    // call's users read CustomBprop(call, Partial(@bprop, args..., call)): the value is the
    // call's; autodiff takes the gradient of the arguments from bprop(args..., out, dout).
    FuncGraph* home = call->graph();
    const std::vector<ir::Use> uses = call->users();
    std::vector<Node*> partial{constant(home, Value::primitive("Partial")), constant(home, Value::graphRef(bprop))};
    for (std::size_t i = 1; i < call->size(); ++i) {
        partial.push_back(call->input(i));
    }
    partial.push_back(call);
    CNode* p = cnode(home, std::move(partial), call);
    CNode* custom = cnode(home, {constant(home, Value::primitive("CustomBprop")), call, p}, call);
    for (const ir::Use& u : uses) {
        m_.setInput(u.user, u.index, custom);
    }
    return custom;
}

Node* Resolver::lowerCall(CNode* c, const HostVal& callee) {
    if (isGradCallee(callee.v)) {
        return lowerGrad(c, callee);
    }
    FuncGraph* home = c->graph();
    const std::vector<std::string> kws = keywordsOf(c);
    std::vector<Node*> args;
    for (std::size_t i = 1; i < c->size(); ++i) {
        args.push_back(inputValue(c->input(i), home, c));
    }
    const interp::Value& v = callee.v;
    if (modules::isCell(v)) {
        return callCell(c, callee, std::move(args), kws);
    }
    if (auto* fn = modules::pythonFunctionOf(v)) {
        FuncGraph* g = graphOf(fn, {}, c->debug().scope, c, argLengths(fn, false, args, kws));
        return callGraph(c, g, std::move(args), kws);
    }
    if (auto* bm = v.as<interp::BoundMethodObject>()) {
        if (auto* fn = bm->func.as<interp::FunctionObject>()) {
            FuncGraph* g = graphOf(fn, bm->self, callee.scope, c, argLengths(fn, true, args, kws));
            return callGraph(c, g, std::move(args), kws);
        }
    }
    if (std::optional<ops::SpellingRef> ref = modules::opFunctionOf(v)) {
        return callPrimitive(c, *ref->op, *ref->spelling, {}, std::move(args), kws);
    }
    if (const modules::PrimitiveObject* p = modules::primitiveOf(v)) {
        return callPrimitive(c, *p->op, *p->classSpelling, p->attrs, std::move(args), kws);
    }
    // A builtin reached through another name (F.tuple_len is len, F.make_range is range).
    for (const char* name : {"len", "range", "max", "min", "abs", "sum", "tuple", "list", "zip", "enumerate", "pow"}) {
        if (v.identical(I.builtins().getStr(name))) {
            std::vector<Node*> in{constant(home, Value::primitive(std::string(builtinMeta(name))))};
            in.insert(in.end(), args.begin(), args.end());
            return rewrite(c, std::move(in));
        }
    }
    if (v.identical(I.builtins().getStr("print"))) {
        std::vector<Node*> in{constant(home, Value::primitive("Print"))};
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    interp::Type* type = I.typeOf(v);
    if (modules::isJitClass(type)) {
        interp::Value call = type->lookup("__call__");
        auto* fn = call.as<interp::FunctionObject>();
        if (fn == nullptr) {
            fail("ValueError", "MsClassObject: '" + type->name + "' has no __call__ function, please check the code.", c);
        }
        return callGraph(c, graphOf(fn, v, callee.scope, c), std::move(args), kws);
    }
    if (auto* t = v.as<interp::Type>(); t != nullptr && t->module == "mindspore.ops.operations") {
        if (std::optional<ops::SpellingRef> ref = ops::OpRegistry::instance().findSpelling("P." + t->name);
            ref && constructInCalls(c, *ref->op, *ref->spelling, args, kws)) {
            return c;  // dead: its calls call the primitive now
        }
    }
    if (const auto* t = v.as<interp::Type>(); t != nullptr && t->name == "Tensor" &&
                                               t->module.rfind("mindspore", 0) == 0 &&
                                               (kws.empty() || (kws.size() == 1 && kws[0] == "dtype"))) {
        // Tensor(x[, dtype]) of a value only type_inference knows (a + b of constants, sum of
        // a list): folded there, or a tensor cast.
        std::vector<Node*> in{constant(home, Value::primitive(std::string(meta::kTensorOf)))};
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    if (!kws.empty()) {
        fail("TypeError", "irscope: keyword arguments are not supported when calling a '" + I.typeName(v) + "'.", c);
    }
    const std::string kind = modules::compositeKind(v);
    if (kind == "MultitypeFuncGraph") {
        std::vector<Node*> in{functionValue(callee, home, c)};
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    if (kind == "HyperMap") {
        const modules::HolderObject* h = modules::holderOf(v);
        std::vector<Node*> in{constant(home, Value::primitive(std::string(meta::kHyperMap)))};
        if (!h->extra.isNull() && !h->extra.isNone()) {
            in.push_back(functionValue(HostVal{h->extra, callee.scope}, home, c));
        }
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    if (const modules::VmapData* vm = modules::vmapOf(v)) {
        ir::AttrMap attrs;
        auto axes = [&](const interp::Value& a) {
            Node* n = materialize(HostVal{a, callee.scope}, home, c);
            const auto* vn = ir::nodeCast<ir::ValueNode>(n);
            return vn ? vn->value() : Value::none();
        };
        attrs.set("in_axes", axes(vm->inAxes));
        attrs.set("out_axes", axes(vm->outAxes));
        // vmap(fn, args...) with the axes as attributes (meta_ops.h).
        Node* fnv = functionValue(HostVal{vm->fn, callee.scope}, home, c);
        std::vector<Node*> in{constant(home, Value::primitive(std::string(meta::kVmap), std::move(attrs))), fnv};
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    if (auto* nf = v.as<interp::NativeFunctionObject>()) {
        // F.make_tuple, F.tuple_getitem, F.list_getitem: the tuple display and the subscript.
        const bool makeTuple = nf->name == "make_tuple";
        if (nf->name == "switch" && args.size() == 3 && kws.empty()) {
            std::vector<Node*> in{constant(home, Value::primitive("Switch"))};
            in.insert(in.end(), args.begin(), args.end());
            return rewrite(c, std::move(in));
        }
        if (nf->name == "mutable" && !args.empty()) {
            return args[0];  // a mark for MindSpore's compile cache only (ms_context.cpp)
        }
        if (makeTuple || nf->name == "tuple_getitem" || nf->name == "list_getitem") {
            std::vector<Node*> in{
                constant(home, Value::primitive(std::string(makeTuple ? meta::kMakeTuple : meta::kGetItem)))};
            in.insert(in.end(), args.begin(), args.end());
            return rewrite(c, std::move(in));
        }
        fail("TypeError", "irscope: the built-in function '" + nf->name + "' is not supported in graph mode.", c);
    }
    if (v.identical(I.builtins().getStr("str")) && kws.empty()) {
        // str(x) of a value only type_inference knows (a parameter of a specialized function).
        std::vector<Node*> in{constant(home, Value::primitive(std::string(meta::kToStr)))};
        in.insert(in.end(), args.begin(), args.end());
        return rewrite(c, std::move(in));
    }
    if (type == I.types().type.get() || v.as<interp::Type>() != nullptr) {
        fail("TypeError", "irscope: creating a '" + std::string(v.as<interp::Type>() ? v.as<interp::Type>()->name
                                                                                      : I.typeName(v)) +
             "' object in graph mode needs constant arguments (or is not supported).", c);
    }
    fail("TypeError", "irscope: a '" + I.typeName(v) + "' object is not callable in graph mode.", c);
}

Node* Resolver::nativeCell(CNode* c, const HostVal& cell, const std::vector<Node*>& args) {
    FuncGraph* home = c->graph();
    const std::string cls = I.typeName(cell.v);
    auto fresh = [&](ValuePtr prim, std::vector<Node*> in) {
        in.insert(in.begin(), constant(home, std::move(prim)));
        CNode* n = cnode(home, in, c);
        n->mutableDebug().scope = cell.scope;
        return n;
    };
    auto attr = [&](const char* name) { return I.getAttr(cell.v, name); };
    auto param = [&](const char* name) { return weight(attr(name), c); };
    auto getItem0 = [&](Node* tuple) {
        return fresh(Value::primitive("TupleGetItem"), {tuple, constant(home, Value::integer(0))});
    };
    if (args.size() != 1) {
        fail("TypeError", "For '" + cls + "', construct takes 1 input but " + std::to_string(args.size()) + " were given.", c);
    }
    Node* x = args[0];
    static const std::pair<const char*, const char*> acts[] = {
        {"ReLU", "ReLU"}, {"Sigmoid", "Sigmoid"}, {"Tanh", "Tanh"}, {"GELU", "GeLU"}, {"HSwish", "HSwish"}};
    for (const auto& [k, op] : acts) {
        if (cls == k) {
            return fresh(primitiveWith(op, {}), {x});
        }
    }
    if (cls == "Softmax") {
        ir::AttrMap a;
        interp::Value axis = attr("axis");
        a.set("axis", axis.isIntLike() ? Value::tuple({Value::integer(axis.intLike())})
                                       : materializeConst(HostVal{axis, cell.scope}, home, c));
        return fresh(primitiveWith("Softmax", a), {x});
    }
    if (cls == "Dense") {
        ir::AttrMap a;
        a.set("transpose_b", Value::boolean(true));
        Node* y = fresh(primitiveWith("MatMul", a), {x, param("weight")});
        if (I.truthy(attr("has_bias"))) {
            y = fresh(primitiveWith("BiasAdd", {}), {y, param("bias")});
        }
        // activation_flag says whether there is one: asking for a missing `activation`
        // would raise (and catch) an AttributeError per Dense.
        interp::Value act = I.truthy(attr("activation_flag")) ? attr("activation") : interp::Value();
        if (!act.isNull() && modules::isCell(act)) {
            y = nativeCell(c, HostVal{act, cell.scope + "/activation-" + I.typeName(act)}, {y});
        }
        return y;
    }
    if (cls == "Dropout") {
        if (!I.truthy(attr("training"))) {
            return x;
        }
        ir::AttrMap a;
        a.set("keep_prob", Value::floating(attr("keep_prob").toDouble()));
        return getItem0(fresh(primitiveWith("Dropout", a), {x}));
    }
    if (cls == "LayerNorm") {
        ir::AttrMap a;
        a.set("begin_norm_axis", Value::integer(attr("begin_norm_axis").intLike()));
        a.set("begin_params_axis", Value::integer(attr("begin_params_axis").intLike()));
        a.set("epsilon", Value::floating(attr("epsilon").toDouble()));
        return getItem0(fresh(primitiveWith("LayerNorm", a), {x, param("gamma"), param("beta")}));
    }
    if (cls == "SequentialCell") {
        Node* y = x;
        const std::int64_t n = I.len(cell.v);
        for (std::int64_t k = 0; k < n; ++k) {
            interp::Value sub = I.getItem(cell.v, interp::Value::integer(k));
            HostVal hv{sub, cell.scope + "/" + std::to_string(k) + "-" + I.typeName(sub)};
            interp::Value construct = I.typeOf(sub)->lookup("construct");
            if (auto* fn = modules::pythonFunctionOf(construct)) {
                y = cnode(home, boundCall(c, graphOf(fn, sub, hv.scope, c), {y}, {}), c);
            } else {
                y = nativeCell(c, hv, {y});
            }
        }
        return y;
    }
    fail("TypeError", "irscope: the built-in cell '" + cls + "' is not supported in graph mode yet.", c);
}

}  // namespace irscope::compiler
