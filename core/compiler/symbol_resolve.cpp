// symbol_resolve: replaces every resolve/getattr of a host object. Cells, methods and
// functions become graph calls (built on demand by the graph builder), registry functions
// and primitive instances become primitive calls, constants become ValueNodes and
// Parameters become weights of the entry graph. See README.md ("After symbol_resolve").
#include "compiler/symbol_resolve_impl.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_set>

#include "compiler/graph_builder.h"
#include "frontend/modules/ms_objects.h"
#include "ir/prim_names.h"
#include "ops/call_binding.h"
#include "passes/meta_ops.h"
#include "passes/settings.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

const std::string* stringInput(const CNode* c, std::size_t i) {
    if (i >= c->size()) {
        return nullptr;
    }
    const auto* v = ir::nodeCast<ir::ValueNode>(c->input(i));
    return (v != nullptr && v->value()->kind == Value::Kind::String) ? &v->value()->text : nullptr;
}

std::string childScope(interp::Interpreter& I, const std::string& parent, const std::string& name,
                       const interp::Value& v) {
    return parent + "/" + name + "-" + I.typeName(v);
}

}  // namespace

ir::SourceLocation Resolver::where(const Node* at) const {
    if (at != nullptr && !at->debug().trace.empty()) {
        return at->debug().trace.back();
    }
    return {};
}

void Resolver::fail(const std::string& pyType, const std::string& msg, const Node* at) const {
    throw passes::CompileError(pyType, msg, where(at));
}

CNode* Resolver::cnode(FuncGraph* g, std::vector<Node*> in, const Node* like) {
    CNode* c = m_.addCNode(g, in);
    if (like != nullptr) {
        c->copyLocation(*like);
    }
    return c;
}

std::optional<HostVal> Resolver::hostOf(Node* n) {
    if (auto it = memo_.find(n); it != memo_.end()) {
        return it->second;
    }
    std::optional<HostVal> r;
    if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
        if (const HostEntry* e = s_.host(*vn->value()); e && e->kind == HostEntry::Kind::Object) {
            r = HostVal{e->obj, e->scope};
        }
    } else if (CNode* c = ir::nodeCast<CNode>(n)) {
        try {
            if (c->isPrimitive(ir::prim::kResolve) && c->size() == 3) {
                const auto* nsNode = ir::nodeCast<ir::ValueNode>(c->input(1));
                const HostEntry* ns = nsNode ? s_.host(*nsNode->value()) : nullptr;
                const std::string* sym = stringInput(c, 2);
                if (ns != nullptr && sym != nullptr) {
                    interp::Value v;
                    std::string scope = ns->scope;
                    switch (ns->kind) {
                        case HostEntry::Kind::ClassMember:
                            v = I.getAttr(ns->obj, *sym);
                            if (!ns->constantsFrom.isNull() && !modules::isCell(v) &&
                                modules::tensorOf(v) == nullptr) {
                                interp::Value shared = I.getAttrOrNull(ns->constantsFrom, *sym);
                                v = shared.isNull() ? v : shared;
                            }
                            if (modules::isCell(v)) {
                                scope = childScope(I, ns->scope, *sym, v);
                            }
                            break;
                        case HostEntry::Kind::Symbol:
                            v = ns->obj.as<interp::FunctionObject>()->resolveFreeName(I, *sym);
                            if (v.isNull()) {
                                fail("NameError",
                                     "The name '" + *sym +
                                         "' is not defined, or not supported in graph mode.",
                                     c);
                            }
                            scope = c->debug().scope;
                            break;
                        case HostEntry::Kind::Builtins:
                            v = I.builtins().getStr(*sym);
                            if (v.isNull()) {
                                fail("NameError",
                                     "The name '" + *sym +
                                         "' is not defined, or not supported in graph mode.",
                                     c);
                            }
                            break;
                        case HostEntry::Kind::Object:
                            v = ns->obj;
                            break;
                    }
                    r = HostVal{v, scope};
                }
            } else if (c->isPrimitive(meta::kGetAttr) && c->size() == 3) {
                const std::string* attr = stringInput(c, 2);
                std::optional<HostVal> obj = attr ? hostOf(c->input(1)) : std::nullopt;
                if (obj && modules::tensorOf(obj->v) == nullptr) {
                    interp::Value v = I.getAttr(obj->v, *attr);
                    r = HostVal{
                        v, modules::isCell(v) ? childScope(I, obj->scope, *attr, v) : obj->scope};
                    if (auto* mod = obj->v.as<interp::ModuleObject>()) {
                        r->hostFunction = v.is<interp::NativeFunctionObject>() &&
                                          (mod->name == "math" || mod->name.rfind("numpy", 0) == 0);
                    }
                }
            } else if (c->isPrimitive(meta::kLen) && c->size() == 2) {
                // len(self.blocks): the length of a host container is a constant.
                std::optional<HostVal> obj = hostOf(c->input(1));
                if (obj && modules::tensorOf(obj->v) == nullptr) {
                    r = HostVal{interp::Value::integer(I.len(obj->v)), obj->scope};
                }
            } else if (c->isPrimitive(meta::kGetItem) && c->size() == 3) {
                std::optional<HostVal> obj = hostOf(c->input(1));
                ValuePtr idx = obj ? constantOf(c->input(2)) : nullptr;
                interp::Value key = idx ? hostFromConstant(*idx) : interp::Value();
                if (obj && !key.isNull() && modules::tensorOf(obj->v) == nullptr) {
                    interp::Value v = I.getItem(obj->v, key);
                    const std::string name = key.isInt() ? std::to_string(key.asInt()) : I.str(key);
                    r = HostVal{
                        v, modules::isCell(v) ? childScope(I, obj->scope, name, v) : obj->scope};
                }
            } else if (c->size() >= 1 && !c->attrs().get("keywords") && c->primitive() == nullptr) {
                // A compile-time host call: ops.ReduceSum(keep_dims=True), a jit_class instance,
                // ms.Tensor(...) with constant arguments.
                std::optional<HostVal> callee = hostOf(c->input(0));
                if (callee && (callee->hostFunction || hostCallable(callee->v))) {
                    interp::CallArgs args;
                    bool constant = true;
                    for (std::size_t i = 1; i < c->size() && constant; ++i) {
                        args.pos.push_back(hostArgument(c->input(i)));
                        constant = !args.pos.back().isNull();
                    }
                    if (constant) {
                        r = HostVal{I.call(callee->v, std::move(args)), c->debug().scope};
                    }
                }
            }
        } catch (const interp::PyError& e) {
            interp::PyError copy = e;
            interp::Value exc = I.exceptionOf(copy);
            const std::string text = I.formatExceptionOnly(exc);
            const auto colon = text.find(": ");
            fail(colon == std::string::npos ? text : text.substr(0, colon),
                 colon == std::string::npos ? "" : text.substr(colon + 2), n);
        }
    }
    memo_[n] = r;
    return r;
}

interp::Value Resolver::hostArgument(Node* n) {
    if (std::optional<HostVal> h = hostOf(n)) {
        return h->v;
    }
    if (ValuePtr v = constantOf(n); v && v->kind != Value::Kind::Tensor) {
        return hostFromConstant(*v);
    }
    // A literal tuple or list of constants: Tensor([1.0, 2.0], ms.float32) in construct.
    auto* c = ir::nodeCast<CNode>(n);
    const bool tuple = c != nullptr && c->isPrimitive(meta::kMakeTuple);
    if (c == nullptr || (!tuple && !c->isPrimitive(meta::kMakeList))) {
        return {};
    }
    std::vector<interp::Value> items;
    for (std::size_t i = 1; i < c->size(); ++i) {
        items.push_back(hostArgument(c->input(i)));
        if (items.back().isNull()) {
            return {};
        }
    }
    return tuple ? interp::Value(I.newTuple(std::move(items)))
                 : interp::Value(I.newList(std::move(items)));
}

interp::Value Resolver::hostFromConstant(const Value& v) {
    switch (v.kind) {
        case Value::Kind::None:
            return interp::Value::none();
        case Value::Kind::Bool:
            return interp::Value::boolean(v.b);
        case Value::Kind::Int:
            return interp::Value::integer(v.i);
        case Value::Kind::Float:
            return interp::Value::real(v.f);
        case Value::Kind::String:
            return interp::Value(I.newStr(v.text));
        case Value::Kind::Tuple:
        case Value::Kind::List: {
            std::vector<interp::Value> items;
            for (const ValuePtr& e : v.elements) {
                items.push_back(hostFromConstant(*e));
                if (items.back().isNull()) {
                    return {};
                }
            }
            return v.kind == Value::Kind::Tuple ? interp::Value(I.newTuple(std::move(items)))
                                                : interp::Value(I.newList(std::move(items)));
        }
        case Value::Kind::Slice: {
            interp::CallArgs parts;
            for (const ValuePtr& e : v.elements) {
                parts.pos.push_back(hostFromConstant(*e));
            }
            return I.call(interp::Value(I.types().slice.get()), std::move(parts));
        }
        default:
            return {};
    }
}

ValuePtr Resolver::constantOf(Node* n) {
    if (const auto* vn = ir::nodeCast<ir::ValueNode>(n)) {
        return vn->value()->kind == Value::Kind::Host ? nullptr : vn->value();
    }
    if (std::optional<HostVal> h = hostOf(n)) {
        if (modules::isParameter(h->v)) {
            return nullptr;
        }
        try {
            Node* c = materialize(*h, n->graph(), n);
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(c)) {
                return vn->value();
            }
        } catch (const passes::CompileError&) {
            return nullptr;
        }
    }
    return nullptr;
}

ir::Parameter* Resolver::weight(const interp::Value& param, const Node* at) {
    auto it = s_.weightParams.find(param.obj());
    if (it != s_.weightParams.end()) {
        return it->second;
    }
    FuncGraph* entry = m_.entry();
    std::string name = modules::parameterName(param);
    if (name.empty()) {
        fail("RuntimeError", "irscope: a Parameter without a name cannot be a weight.", at);
    }
    if (weightNames_.size() != s_.weights.size()) {
        weightNames_.clear();
        for (const WeightBinding& w : s_.weights) {
            weightNames_.insert(w.name);
        }
    }
    if (weightNames_.count(name) != 0) {
        fail("RuntimeError",
             "The parameter name '" + name +
                 "' is used by two different Parameters; give them "
                 "unique names.",
             at);
    }
    weightNames_.insert(name);
    const ir::Tensor& t = *modules::tensorOf(param);
    ir::Parameter* p = m_.addParameter(entry, name);
    p->setDefault(Value::tensorValue(t.toValueData()));
    s_.weights.push_back({name, t});
    s_.weightParams[param.obj()] = p;
    return p;
}

interp::Value Resolver::reuseSource(const interp::Value& cell) {
    interp::Value args = I.getAttrOrNull(cell, "cell_init_args");
    auto* text = args.as<interp::StrObject>();
    if (text == nullptr) {
        return {};
    }
    auto [it, fresh] = reuse_.try_emplace(text->value, cell);
    return (fresh || it->second.identical(cell)) ? interp::Value() : it->second;
}

std::optional<std::string> Resolver::lazyInlineArgs(const interp::Value& cell,
                                                    const std::string& scope) {
    auto* text = I.getAttrOrNull(cell, "cell_init_args").as<interp::StrObject>();
    if (text == nullptr) {
        return std::nullopt;
    }
    // Limitation 2: only the outermost @lazy_inline level is reused; a cell called from
    // inside a marked one (its scope extends the marked cell's) is inlined as usual.
    for (const std::string& outer : lazyScopes_) {
        if (scope.size() > outer.size() && scope.starts_with(outer) && scope[outer.size()] == '/') {
            return std::nullopt;
        }
    }
    lazyScopes_.push_back(scope);
    // Limitation 1: an attribute changed after __init__ makes cell_init_args a wrong
    // identity for this instance, so it falls out of reuse.
    if (modules::cellChangedSinceInit(I, cell)) {
        return std::nullopt;
    }
    return stableInitArgs(text->value);
}

std::string Resolver::stableInitArgs(const std::string& text) {
    static constexpr std::string_view kAt = " object at 0x";
    std::string out;
    std::size_t from = 0;
    for (std::size_t at = text.find(kAt); at != std::string::npos; at = text.find(kAt, from)) {
        std::size_t end = at + kAt.size();
        while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end])) != 0) {
            ++end;
        }
        const std::string address = text.substr(at + kAt.size(), end - at - kAt.size());
        const auto it =
            objectNumbers_.try_emplace(address, static_cast<int>(objectNumbers_.size()) + 1).first;
        out.append(text, from, at - from);
        out.append(" object #");
        out.append(std::to_string(it->second));
        from = end;
    }
    out.append(text, from, std::string::npos);
    return out;
}

const std::unordered_set<std::string>& Resolver::iteratedNames(const interp::FunctionObject* fn) {
    auto [it, fresh] = iterated_.try_emplace(fn);
    if (!fresh) {
        return it->second;
    }
    std::unordered_set<std::string>& names = it->second;
    auto iterable = [&names](const ast::Expr& e) {
        if (const auto* n = e.as<ast::Name>()) {
            names.insert(n->id);
        } else if (const auto* c = e.as<ast::Call>()) {
            const auto* f = c->func->as<ast::Name>();
            if (f != nullptr && (f->id == "enumerate" || f->id == "zip")) {
                for (const ast::ExprPtr& a : c->args) {
                    if (const auto* arg = a->as<ast::Name>()) {
                        names.insert(arg->id);
                    }
                }
            }
        }
    };
    std::function<void(const ast::Expr&)> onExpr;
    std::function<void(const ast::Stmt&)> onStmt;
    auto generators = [&](const std::vector<ast::Comprehension>& gens) {
        for (const ast::Comprehension& g : gens) {
            iterable(*g.iter);
        }
    };
    onExpr = [&](const ast::Expr& e) {
        const auto* call = e.as<ast::Call>();
        const auto* callee = call != nullptr ? call->func->as<ast::Name>() : nullptr;
        if (call != nullptr && (callee == nullptr || I.builtins().getStr(callee->id).isNull())) {
            // Passed on to a function (f(xs), f(*xs)) that may iterate it; builtins (len,
            // isinstance, ...) take any length.
            for (const ast::ExprPtr& a : call->args) {
                const ast::Expr* arg = a.get();
                if (const auto* star = arg->as<ast::Starred>()) {
                    arg = star->value.get();
                }
                if (const auto* n = arg->as<ast::Name>()) {
                    names.insert(n->id);
                }
            }
        }
        if (const auto* c = e.as<ast::ListComp>()) {
            generators(c->generators);
        } else if (const auto* c2 = e.as<ast::SetComp>()) {
            generators(c2->generators);
        } else if (const auto* c3 = e.as<ast::DictComp>()) {
            generators(c3->generators);
        } else if (const auto* c4 = e.as<ast::GeneratorExp>()) {
            generators(c4->generators);
        }
        ast::forEachChild(e, onExpr);
    };
    onStmt = [&](const ast::Stmt& st) {
        if (const auto* f = st.as<ast::For>()) {
            iterable(*f->iter);
        }
        ast::forEachChild(st, onExpr, onStmt);
    };
    if (fn->def != nullptr) {
        for (const ast::StmtPtr& st : fn->def->body) {
            onStmt(*st);
        }
    } else if (fn->lambda != nullptr) {
        onExpr(*fn->lambda->body);
    }
    return names;
}

std::map<std::string, std::int64_t> Resolver::argLengths(const interp::FunctionObject* fn, bool method,
                                                         const std::vector<Node*>& args,
                                                         const std::vector<std::string>& kws) {
    std::map<std::string, std::int64_t> out;
    const interp::CodeInfo* code = fn->code;
    if (code == nullptr) {
        return out;
    }
    const std::unordered_set<std::string>& iterated = iteratedNames(fn);
    if (iterated.empty()) {
        return out;
    }
    auto note = [&](const std::string& name, std::int64_t len) {
        if (len >= 0 && iterated.count(name) != 0) {
            out[name] = len;
        }
    };
    const int first = method ? 1 : 0;
    const std::size_t npos = args.size() - kws.size();
    const std::size_t positional = code->posCount > first ? static_cast<std::size_t>(code->posCount - first) : 0;
    for (std::size_t i = 0; i < npos && i < positional; ++i) {
        note(code->varNames[i + static_cast<std::size_t>(first)], s_.sequenceLength(args[i]));
    }
    if (code->hasVarArgs) {
        note(code->varNames[static_cast<std::size_t>(code->posCount + code->kwOnlyCount)],
             static_cast<std::int64_t>(npos > positional ? npos - positional : 0));
    }
    for (std::size_t k = 0; k < kws.size(); ++k) {
        note(kws[k], s_.sequenceLength(args[npos + k]));
    }
    return out;
}

FuncGraph* Resolver::graphOf(const interp::FunctionObject* fn, const interp::Value& self,
                             const std::string& scope, const Node* at,
                             const std::map<std::string, std::int64_t>& lengths) {
    auto key = std::make_pair(static_cast<const void*>(fn), static_cast<const void*>(self.obj()));
    std::string lengthKey;
    for (const auto& [name, len] : lengths) {
        lengthKey += name + "=" + std::to_string(len) + ";";
    }
    const auto byLength = std::make_tuple(key.first, key.second, lengthKey);
    if (lengths.empty()) {
        if (auto it = s_.fnGraphs.find(key); it != s_.fnGraphs.end()) {
            return it->second;
        }
    } else if (auto it = s_.fnGraphsByLength.find(byLength); it != s_.fnGraphsByLength.end()) {
        return it->second;
    }
    FunctionSpec spec;
    spec.argLengths = lengths;
    spec.fn = fn;
    spec.self = self;
    spec.graphName = graphNameFor(I, *fn, self);
    spec.scope = scope.empty() ? "Default" : scope;
    if (!self.isNull() && modules::isCell(self)) {
        spec.constantsFrom = reuseSource(self);
    }
    (void)at;
    std::optional<std::string> initArgs;
    if (!self.isNull() && modules::isCell(self) && fn->name == "construct") {
        initArgs = lazyInlineArgs(self, spec.scope);
    }
    // A later @lazy_inline instance is not parsed: its graph gets the first one's body.
    FuncGraph* g = initArgs && lengths.empty() ? reusedInstanceGraph(spec) : nullptr;
    if (g == nullptr) {
        g = buildFunctionGraph(s_, m_, spec);
    }
    if (lengths.empty()) {
        s_.fnGraphs[key] = g;
    } else {
        s_.fnGraphsByLength[byLength] = g;
    }
    if (self.isNull()) {
        functionGraphs_.insert(g);
    } else if (initArgs) {
        g->attrs().set("cell_init_args", Value::string(*initArgs));
        if (lengths.empty() && spec.constantsFrom.isNull()) {
            markFirstInstance(g, spec);
        }
    }
    return g;
}

Node* Resolver::materialize(const HostVal& hv, FuncGraph* g, const Node* at) {
    const interp::Value& v = hv.v;
    if (v.isNone()) {
        return constant(g, Value::none());
    }
    if (v.isBool()) {
        return constant(g, Value::boolean(v.asBool()));
    }
    if (v.isInt()) {
        return constant(g, Value::integer(v.asInt()));
    }
    if (v.isFloat()) {
        return constant(g, Value::floating(v.asFloat()));
    }
    if (auto* s = v.as<interp::StrObject>()) {
        return constant(g, Value::string(s->value));
    }
    if (modules::isParameter(v)) {
        return weight(v, at);
    }
    if (const ir::Tensor* t = modules::tensorOf(v)) {
        return constant(g, Value::tensorValue(t->toValueData()));
    }
    if (std::optional<ir::DType> d = modules::dtypeOf(v)) {
        return constant(g, Value::type(*d));
    }
    if (auto* sl = v.as<interp::SliceObject>()) {
        auto bound = [](const interp::Value& b) {
            return b.isIntLike() ? Value::integer(b.intLike()) : Value::none();
        };
        return constant(g, Value::slice(bound(sl->start), bound(sl->stop), bound(sl->step)));
    }
    const bool tup = v.is<interp::TupleObject>();
    if (tup || v.is<interp::ListObject>()) {
        const auto& items =
            tup ? v.as<interp::TupleObject>()->items : v.as<interp::ListObject>()->items;
        std::vector<Node*> nodes;
        std::vector<ValuePtr> consts;
        for (std::size_t k = 0; k < items.size(); ++k) {
            Node* n = materialize(HostVal{items[k], hv.scope}, g, at);
            nodes.push_back(n);
            if (const auto* vn = ir::nodeCast<ir::ValueNode>(n);
                vn && vn->value()->kind != Value::Kind::Graph &&
                vn->value()->kind != Value::Kind::Primitive) {
                consts.push_back(vn->value());
            }
        }
        if (consts.size() == nodes.size()) {
            return constant(g,
                            tup ? Value::tuple(std::move(consts)) : Value::list(std::move(consts)));
        }
        nodes.insert(
            nodes.begin(),
            constant(g, Value::primitive(std::string(tup ? meta::kMakeTuple : meta::kMakeList))));
        return cnode(g, nodes, at);
    }
    if (const modules::HolderObject* h = modules::holderOf(v); h && I.typeName(v) == "ParameterTuple") {
        // A ParameterTuple as a value (passed to a function that indexes it): the tuple of
        // its Parameters, as MindSpore makes it.
        return materialize(HostVal{interp::Value(I.newTuple(h->items)), hv.scope}, g, at);
    }
    if (auto* t = v.as<interp::Type>()) {
        // A class used as data (isinstance's second argument): its name.
        return constant(g, Value::string(t->name));
    }
    return functionValue(hv, g, at);
}

ValuePtr Resolver::materializeConst(const HostVal& hv, FuncGraph* g, const Node* at) {
    const auto* vn = ir::nodeCast<ir::ValueNode>(materialize(hv, g, at));
    if (vn == nullptr) {
        fail("TypeError", "irscope: expected a constant, got a '" + I.typeName(hv.v) + "' object.",
             at);
    }
    return vn->value();
}

Node* Resolver::inputValue(Node* in, FuncGraph* g, const Node* at) {
    if (std::optional<HostVal> h = hostOf(in)) {
        return materialize(*h, g, at);
    }
    return in;
}

const interp::FunctionObject* Resolver::pythonTensorMethod(const CNode* c, const CNode* call) {
    if (!c->isPrimitive(meta::kGetAttr) || c->size() != 3 || hostOf(c->input(1)).has_value()) {
        return nullptr;
    }
    const ValuePtr name = constantOf(c->input(2));
    if (!name || name->kind != Value::Kind::String) {
        return nullptr;
    }
    if (const auto sp = ops::OpRegistry::instance().findSpelling("Tensor." + name->text)) {
        // The registry's method when it takes the call's arguments (x.sum(axis=1)); the Python
        // one when only that one does (x.sum(dtype=ms.float32)).
        const std::vector<std::string> kws = keywordsOf(call);
        try {
            (void)ops::bindCall(*sp->op, *sp->spelling, call->size() - kws.size(), kws);
            return nullptr;
        } catch (const ops::OpError&) {
        }
    }
    interp::Value tensor = I.getAttrOrNull(interp::Value(I.importModule("mindspore")), "Tensor");
    auto* type = tensor.as<interp::Type>();
    if (type == nullptr) {
        return nullptr;
    }
    return type->lookup(name->text).as<interp::FunctionObject>();
}

void Resolver::run() {
    // Lowering calls may add graphs, which this loop then visits too.
    std::size_t next = 0;
    auto resolveNew = [&] {
        for (; next < m_.graphCount(); ++next) {
            if (FuncGraph* g = m_.graphAt(next); !deferred_.count(g)) {
                resolveGraph(g);
            }
        }
    };
    resolveNew();
    // The later instances of @lazy_inline cells, once their first instances are resolved.
    for (std::size_t i = 0; i < reused_.size(); ++i) {
        const ReusedInstance r = reused_[i];  // resolving may add to reused_
        if (r.parsed.empty()) {
            copyReusedInstance(r);
            continue;
        }
        for (FuncGraph* g : r.parsed) {
            deferred_.erase(g);
        }
        for (FuncGraph* g : r.parsed) {
            resolveGraph(g);
        }
        resolveNew();
    }
    // What the calls replaced is dead now; so are graphs nothing refers to any more.
    sweepModule(m_);
    for (FuncGraph* g : m_.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            for (Node* in : c->inputs()) {
                const auto* vn = ir::nodeCast<ir::ValueNode>(in);
                if (c->isPrimitive(ir::prim::kResolve) ||
                    (vn && vn->value()->kind == Value::Kind::Host)) {
                    fail("RuntimeError",
                         "irscope: a host object is used where graph mode needs a value: " +
                             std::string(vn ? vn->value()->host->text() : "resolve"),
                         c);
                }
            }
        }
    }
}

void Resolver::resolveGraph(FuncGraph* g) {
    for (CNode* c : g->topoOrder()) {
        if (hostOf(c)) {
            continue;  // folded into its users
        }
        if (std::optional<HostVal> callee = hostOf(c->input(0))) {
            Node* r = lowerCall(c, *callee);
            if (r != c) {
                m_.replaceAllUses(c, r);
            }
            continue;
        }
        // A method of a graph value (`x.sum(axis=1)`): type_inference binds the keywords
        // against the registry's method spelling, so they stay on the call.
        const auto* calleeNode = ir::nodeCast<CNode>(c->input(0));
        const bool methodCall =
            calleeNode != nullptr && calleeNode->isPrimitive(passes::meta::kGetAttr);
        if (const interp::FunctionObject* fn = methodCall ? pythonTensorMethod(calleeNode, c) : nullptr) {
            // A Tensor method written in Python (x.clamp(0, 1)): its function called with
            // the object first, bound here like any call.
            std::vector<Node*> args{calleeNode->input(1)};
            for (std::size_t i = 1; i < c->size(); ++i) {
                args.push_back(inputValue(c->input(i), g, c));
            }
            callGraph(c, graphOf(fn, {}, c->debug().scope, c), std::move(args), keywordsOf(c));
            continue;
        }
        if (c->attrs().get("keywords") && !methodCall) {
            fail(
                "TypeError",
                "irscope: keyword arguments are supported only in calls of functions, methods, "
                "cells and primitives known at compile time.",
                c);
        }
        for (std::size_t i = 1; i < c->size(); ++i) {
            if (std::optional<HostVal> h = hostOf(c->input(i))) {
                m_.setInput(c, i, materialize(*h, g, c));
            }
        }
    }
}

void sweepModule(ir::Module& m) {
    // Every unused node but parameters and Returns goes, and whatever only it used.
    auto isDead = [](const Node* n) {
        return n->users().empty() && !n->isParameter() &&
               (n->graph() == nullptr || n->graph()->returnNode() != n);
    };
    std::vector<Node*> dead;
    m.forEachNode([&](Node* n) {
        if (isDead(n)) {
            dead.push_back(n);
        }
    });
    while (!dead.empty()) {
        Node* n = dead.back();
        dead.pop_back();
        std::vector<Node*> inputs;
        if (const auto* c = ir::nodeCast<CNode>(n)) {
            inputs = c->inputs();
        }
        m.erase(n);
        std::sort(inputs.begin(), inputs.end());
        inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
        for (Node* in : inputs) {
            if (isDead(in)) {
                dead.push_back(in);
            }
        }
    }
    const std::vector<FuncGraph*> live = m.reachableGraphs();
    std::unordered_set<const FuncGraph*> keep(live.begin(), live.end());
    bool progress = true;
    while (progress) {
        progress = false;
        for (FuncGraph* g : m.graphs()) {
            if (keep.count(g) != 0) {
                continue;
            }
            try {
                m.eraseGraph(g);
                progress = true;
            } catch (const std::logic_error&) {
                // still referenced by another unreachable graph: erased in a later round
            }
        }
    }
}

namespace {

class SymbolResolvePass final : public passes::Pass {
public:
    explicit SymbolResolvePass(std::shared_ptr<FrontendState> s)
        : Pass("symbol_resolve",
               "Binds every name to what it means in the host program: sub-cells and functions "
               "become graph calls, ops become primitives, attributes constants, Parameters "
               "weights of the entry graph."),
          s_(std::move(s)) {}
    bool run(ir::Module& m, passes::PassContext& ctx) override {
        Resolver r(*s_, m, ctx.settings().getInt(passes::kCellReuse, 0));
        r.run();
        return true;
    }

private:
    std::shared_ptr<FrontendState> s_;
};

}  // namespace

std::unique_ptr<passes::Pass> makeSymbolResolvePass(std::shared_ptr<FrontendState> s) {
    return std::make_unique<SymbolResolvePass>(std::move(s));
}

}  // namespace irscope::compiler
