// Specialization: cloning templates per argument signature, recursion handling (unroll,
// broaden-and-restart, fixed point) and the call machinery. See type_inference_engine.h.
#include "passes/type_inference_engine.h"

#include <algorithm>
#include <unordered_set>

#include "ir/ir_text.h"
#include "ops/infer_util.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::AbstractPtr;
using ir::FuncGraph;
using ir::Node;

// ---- errors ------------------------------------------------------------------------------------

namespace {

// The function value that is either a or b (a Union flattened, without repeats).
FuncPtr unionOf(const FuncPtr& a, const FuncPtr& b) {
    auto u = std::make_shared<FuncVal>();
    u->kind = FuncVal::Kind::Union;
    for (const FuncPtr& f : {a, b}) {
        const std::vector<FuncPtr> parts =
            f->kind == FuncVal::Kind::Union ? f->options : std::vector<FuncPtr>{f};
        for (const FuncPtr& p : parts) {
            if (std::none_of(u->options.begin(), u->options.end(),
                             [&](const FuncPtr& o) { return sameFunc(o, p); })) {
                u->options.push_back(p);
            }
        }
    }
    return u;
}

// The functions of a tuple that is either a or b (branches returning tuples holding
// functions): element by element, either function; null where a side knows none or the
// tuples differ in length.
TupleFns joinItems(const TupleFns& a, const TupleFns& b) {
    if (a == b) {
        return a;
    }
    if (!a || !b || a->size() != b->size()) {
        return nullptr;
    }
    auto out = std::make_shared<std::vector<ItemFn>>();
    for (std::size_t i = 0; i < a->size(); ++i) {
        const ItemFn& x = (*a)[i];
        const ItemFn& y = (*b)[i];
        FuncPtr fn = sameFunc(x.fn, y.fn) ? x.fn : x.fn && y.fn ? unionOf(x.fn, y.fn) : nullptr;
        out->push_back({std::move(fn), joinItems(x.items, y.items)});
    }
    return out;
}

// The node's own location: the last (innermost) entry of its trace, as symbol_resolve reads
// it; else where its graph was defined.
ir::SourceLocation locationOf(const Node* n) {
    if (n && !n->debug().trace.empty()) {
        return n->debug().trace.back();
    }
    if (n && n->graph() && !n->graph()->debug().trace.empty()) {
        return n->graph()->debug().trace.back();
    }
    return {};
}

}  // namespace

void Engine::error(const Node* at, const std::string& pyType, const std::string& message) const {
    throw CompileError(pyType, message, locationOf(at));
}

// ---- cloning -----------------------------------------------------------------------------------

FuncGraph* Engine::templateOf(FuncGraph* g) const {
    auto it = byClone_.find(g);
    return it == byClone_.end() ? g : it->second->tmpl;
}

FuncGraph* Engine::cloneGraph(FuncGraph* tmpl) {
    FuncGraph* c = m_.addGraph(tmpl->name());
    c->attrs() = tmpl->attrs();
    c->debug() = tmpl->debug();
    std::unordered_map<const Node*, Node*> map;
    for (ir::Parameter* p : tmpl->parameters()) {
        map[p] = m_.addParameterLike(c, *p);
    }
    auto mapInput = [&](Node* in) -> Node* {
        if (auto it = map.find(in); it != map.end()) {
            return it->second;
        }
        if (in->graph() == tmpl) {
            auto* v = ir::nodeCast<ir::ValueNode>(in);
            if (!v) {
                error(in, "RuntimeError", "irscope: graph @" + tmpl->name() + " is malformed");
            }
            ir::ValueNode* w = m_.addValue(c, v->value());
            w->setAbstract(v->abstract());
            w->shareDebug(*v);
            map[in] = w;
            return w;
        }
        // A free variable: only the entry graph's weights may be used across graphs.
        if (in->graph() == entryTmpl_ && entrySpec_ && in->isParameter()) {
            return entrySpec_->graph->parameters().at(entryParamIndex_.at(in));
        }
        if (auto* v = ir::nodeCast<ir::ValueNode>(in)) {
            ir::ValueNode* w = m_.addValue(c, v->value());
            w->setAbstract(v->abstract());
            map[in] = w;
            return w;
        }
        error(in, "RuntimeError",
              "irscope: graph @" + tmpl->name() +
                  " uses a node of another graph that is not a weight (free variables are not "
                  "supported by type_inference)");
    };
    const std::vector<ir::CNode*> body = tmpl->topoOrder();
    for (ir::CNode* n : body) {
        std::vector<Node*> ins;
        ins.reserve(n->size());
        for (Node* in : n->inputs()) {
            ins.push_back(mapInput(in));
        }
        ir::CNode* k = m_.addCNode(c, ins);
        k->attrs() = n->attrs();
        k->primalAttrs() = n->primalAttrs();
        k->shareDebug(*n);
        k->setAbstract(n->abstract());
        order_[k] = {n->id(), 0};
        map[n] = k;
        if (n == tmpl->returnNode()) {
            m_.setReturnNode(c, k);
        }
    }
    return c;
}

// ---- specialization ----------------------------------------------------------------------------

AbstractPtr Engine::widen(FuncGraph* tmpl, std::size_t i, const AbstractPtr& a) const {
    auto it = widened_.find(tmpl);
    if (it == widened_.end() || i >= it->second.size() || !it->second[i] || !a) {
        return a;
    }
    AbstractPtr j = joinAbs(it->second[i], a);
    return j ? j : a;
}

namespace {

// A hash of a signature consistent with sameAbs: it mixes only what equal abstracts share
// exactly (the kind, and a Ref's key, which tells weights of different instances apart).
std::size_t sigHash(const std::vector<ArgSig>& sig) {
    std::size_t h = sig.size();
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    for (const ArgSig& a : sig) {
        if (!a.abs) {
            mix(0);
            continue;
        }
        mix(static_cast<std::size_t>(a.abs->kind) + 1);
        if (a.abs->kind == ir::Abstract::Kind::Ref) {
            mix(std::hash<std::string>{}(a.abs->refKey));
        }
    }
    return h;
}

}  // namespace

Spec& Engine::specialize(FuncGraph* tmpl, const std::vector<Arg>& args, const Node* site,
                         bool undetermined) {
    const auto& params = tmpl->parameters();
    if (params.size() != args.size()) {
        // A function value taking *args, called with its arguments one by one (a bound method
        // passed through a block's parameter): the wrapper gathers them into the tuple.
        const auto* call = ir::nodeCast<ir::CNode>(const_cast<ir::Node*>(site));
        if (FuncGraph* w = call != nullptr ? varargsCaller(tmpl, args.size(), call) : nullptr) {
            return specialize(w, args, site, undetermined);
        }
        error(site, "TypeError",
              "The function '" + tmpl->name() + "' takes " + std::to_string(params.size()) +
                  " positional arguments but " + std::to_string(args.size()) + " were given.");
    }
    std::vector<ArgSig> sig;
    sig.reserve(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        ir::AbstractPtr key = keyAbstract(args[i].abs);
        if (key && key->kind == ir::Abstract::Kind::Ref && tmpl->flag("cell_reuse")) {
            // Lazy inline: a reused graph is specialized once for every instance's weights.
            key = ir::Abstract::ref(key->dtype, key->shape, {});
        }
        sig.push_back({widen(tmpl, i, key), args[i].fn});
    }
    auto matches = [&](const Spec& s) {
        for (std::size_t i = 0; i < sig.size(); ++i) {
            if (!sameAbs(s.args[i].abs, sig[i].abs) || !sameFunc(s.args[i].fn, sig[i].fn)) {
                return false;
            }
        }
        return true;
    };
    byTemplate_[tmpl];  // a template called at least once has an entry (possibly empty)
    const std::size_t hash = sigHash(sig);
    for (Spec* s : bySig_[tmpl][hash]) {
        if (!matches(*s)) {
            continue;
        }
        if (s->inProgress) {
            s->pendingUsed = true;
            return *s;
        }
        if (s->dirty) {
            frames_.push_back({s, undetermined});
            try {
                inferSpec(*s);
            } catch (...) {
                frames_.pop_back();
                throw;
            }
            frames_.pop_back();
        }
        return *s;
    }
    // A recursion of `tmpl` whose way back passed an undetermined Switch: broaden, restart.
    bool throughUndetermined = undetermined;
    for (auto f = frames_.rbegin(); f != frames_.rend(); ++f) {
        if (f->spec->tmpl == tmpl && f->spec->inProgress) {
            if (!throughUndetermined) {
                break;  // a constant condition: unroll
            }
            auto& w = widened_[tmpl];
            w.resize(params.size());
            for (std::size_t i = 0; i < params.size(); ++i) {
                const AbstractPtr& before = f->spec->args[i].abs;
                const AbstractPtr& now = sig[i].abs;
                if (sameAbs(before, now)) {
                    continue;
                }
                AbstractPtr j = joinAbs(before, now);
                if (!j) {
                    error(site, "TypeError",
                          "The loop variable '" + params[i]->name() + "' of '" + tmpl->name() +
                              "' changes its type from " + describe(before) + " to " +
                              describe(now) +
                              " between iterations of a loop whose condition "
                              "is a Tensor.");
                }
                w[i] = w[i] ? joinAbs(w[i], j) : j;
            }
            throw Restart{};
        }
        throughUndetermined = throughUndetermined || f->undetermined;
    }
    if (frames_.size() >= limits_.maxCallDepth) {
        error(site, "RuntimeError",
              "Exceed function call depth limit " + std::to_string(limits_.maxCallDepth) +
                  " while inferring '" + tmpl->name() +
                  "'. It's always happened with complex construction of code or infinite "
                  "recursion or loop: a loop whose condition is a constant is unrolled, one "
                  "graph per iteration.");
    }
    if (specs_.size() >= limits_.maxSpecializations) {
        error(site, "RuntimeError",
              "irscope: more than " + std::to_string(limits_.maxSpecializations) +
                  " graph specializations while inferring '" + tmpl->name() +
                  "' (a loop or recursion unrolled too far).");
    }
    auto owned = std::make_unique<Spec>();
    Spec& s = *owned;
    s.tmpl = tmpl;
    s.args = std::move(sig);
    s.order = specs_.size();
    specs_.push_back(std::move(owned));
    s.graph = cloneGraph(tmpl);
    byTemplate_[tmpl].push_back(&s);
    bySig_[tmpl][hash].push_back(&s);
    byClone_[s.graph] = &s;
    if (tmpl == entryTmpl_ && !entrySpec_) {
        entrySpec_ = &s;
    }
    const auto& ps = s.graph->parameters();
    for (std::size_t i = 0; i < ps.size(); ++i) {
        ps[i]->setAbstract(s.args[i].abs);
        if (s.args[i].fn) {
            fns_[ps[i]] = s.args[i].fn;
        } else {
            fns_.erase(ps[i]);
        }
    }
    frames_.push_back({&s, undetermined});
    try {
        inferSpec(s);
    } catch (...) {
        frames_.pop_back();
        throw;
    }
    frames_.pop_back();
    return s;
}

void Engine::inferSpec(Spec& s) {
    for (int round = 0;; ++round) {
        const AbstractPtr before = s.ret;
        const std::size_t mark = specs_.size();
        const std::size_t logMark = inferLog_.size();
        inferLog_.push_back(&s);
        s.inProgress = true;
        s.pendingUsed = false;
        s.dirty = false;
        try {
            inferBody(s);
        } catch (...) {
            s.inProgress = false;
            throw;
        }
        s.inProgress = false;
        if (!s.pendingUsed || sameAbs(before, s.ret)) {
            return;
        }
        if (round > 20) {
            error(s.graph->returnNode(), "RuntimeError",
                  "irscope: the result of the recursion '" + s.tmpl->name() +
                      "' does not reach a fixed point.");
        }
        // Everything inferred under the old result is inferred again: the specs made in
        // this round and those it re-inferred (a nested loop's graphs made earlier).
        for (std::size_t i = mark; i < specs_.size(); ++i) {
            specs_[i]->dirty = true;
        }
        for (std::size_t i = logMark + 1; i < inferLog_.size(); ++i) {
            if (!inferLog_[i]->inProgress) {
                inferLog_[i]->dirty = true;
            }
        }
        inferLog_.resize(logMark);
    }
}

void Engine::inferBody(Spec& s) {
    for (ir::CNode* c : s.graph->topoOrder()) {
        if (c == s.graph->returnNode()) {
            Arg r = argOf(c->input(1));
            c->setAbstract(r.abs);
            s.ret = r.abs;
            s.retFn = r.fn;
            s.retItems = r.items;
            continue;
        }
        inferCNode(c);
    }
}

// ---- calls -------------------------------------------------------------------------------------

Arg Engine::evalCall(const ir::CNode* site, const FuncPtr& f, const std::vector<Arg>& args,
                     bool undetermined) {
    for (const Arg& a : args) {
        if (!a.abs) {
            return {};
        }
    }
    switch (f->kind) {
        case FuncVal::Kind::Graph: {
            Spec& s = specialize(f->graph, args, site, undetermined);
            if (auto* v = ir::nodeCast<ir::ValueNode>(f->origin)) {
                // Retarget every use of the `@g` value this function came from.
                const std::vector<ir::Use> uses = v->users();
                for (const ir::Use& u : uses) {
                    m_.setInput(u.user, u.index,
                                valueNode(u.user->graph(), ir::Value::graphRef(s.graph)));
                }
            }
            return {nullptr, s.ret, s.retFn, s.retItems};
        }
        case FuncVal::Kind::Partial: {
            std::vector<Arg> all = f->bound;
            all.insert(all.end(), args.begin(), args.end());
            if (f->fn->kind == FuncVal::Kind::Graph) {
                Spec& s = specialize(f->fn->graph, all, site, undetermined);
                if (auto* p = ir::nodeCast<ir::CNode>(f->origin)) {
                    m_.setInput(p, 1, valueNode(p->graph(), ir::Value::graphRef(s.graph)));
                }
                return {nullptr, s.ret, s.retFn, s.retItems};
            }
            return evalCall(site, f->fn, all, undetermined);
        }
        case FuncVal::Kind::Union: {
            Arg out;
            bool first = true;
            for (const FuncPtr& o : f->options) {
                Arg r = evalCall(site, o, args, true);
                if (!r.abs) {
                    continue;
                }
                if (first) {
                    out = r;
                    first = false;
                    continue;
                }
                AbstractPtr j = joinAbs(out.abs, r.abs);
                if (!j || (ops::isTensorAbs(out.abs) && out.abs->shape != r.abs->shape &&
                           !out.abs->shape.dynamicRank && !singleElementJoin(out.abs->shape, r.abs->shape))) {
                    const bool typeDiff =
                        !j || out.abs->kind != r.abs->kind || out.abs->dtype != r.abs->dtype;
                    error(site, typeDiff ? "TypeError" : "ValueError",
                          std::string("Cannot join the return values of different branches, "
                                      "perhaps you need to make them equal.\n") +
                              (typeDiff ? "Type Join Failed: " : "Shape Join Failed: ") +
                              "The branches of if/else (or while) have different " +
                              (typeDiff ? "types: " : "shapes: ") +
                              (typeDiff ? describe(out.abs) : out.abs->shape.toString()) + " and " +
                              (typeDiff ? describe(r.abs) : r.abs->shape.toString()) + ".");
                }
                out.abs = j;
                if (!sameFunc(out.fn, r.fn)) {
                    // Branches returning different functions (`return f` / `return k` under a
                    // tensor condition): the value is one of them, a call of it calls either.
                    out.fn = out.fn && r.fn ? unionOf(out.fn, r.fn) : nullptr;
                }
                out.items = joinItems(out.items, r.items);
            }
            return out;
        }
        case FuncVal::Kind::Prim: {
            const ops::OpDef* op = ops::OpRegistry::instance().find(f->prim->prim->name);
            if (!op) {
                error(site, "RuntimeError",
                      "irscope: '" + f->prim->prim->name +
                          "' cannot be called here (through a value of another graph)");
            }
            std::vector<ops::InferArg> in;
            for (const Arg& a : args) {
                in.push_back({a.abs, a.abs ? a.abs->value : nullptr});
            }
            try {
                auto r = ops::OpRegistry::instance().infer(*op, f->prim->prim->attrs, in);
                return {nullptr, r.abs, nullptr};
            } catch (const ops::OpError& e) {
                error(site, std::string(ops::errorKindName(e.kind())), e.what());
            }
        }
        case FuncVal::Kind::Method:
            break;
    }
    error(site, "RuntimeError", "irscope: this function value cannot be called here");
}

// ---- the pass ----------------------------------------------------------------------------------

void Engine::runOnce(const std::vector<AbstractPtr>& inputs) {
    std::vector<Arg> args;
    std::size_t next = 0;
    for (ir::Parameter* p : entryTmpl_->parameters()) {
        if (p->hasDefault()) {
            const auto& v = p->defaultValue();
            if (v && v->kind == ir::Value::Kind::Tensor) {
                args.push_back({nullptr,
                                Abstract::ref(v->tensor->dtype, v->tensor->shape, ":" + p->name()),
                                nullptr});
            } else if (p->abstract()) {
                args.push_back({nullptr, p->abstract(), nullptr});
            } else {
                error(p, "RuntimeError",
                      "irscope: the weight '" + p->name() + "' has no tensor default value");
            }
            continue;
        }
        if (next >= inputs.size()) {
            error(p, "TypeError",
                  "The function '" + entryTmpl_->name() + "' needs an input for '" + p->name() +
                      "', but only " + std::to_string(inputs.size()) + " were given.");
        }
        args.push_back({nullptr, inputs[next++], nullptr});
    }
    if (next != inputs.size()) {
        error(entryTmpl_->returnNode(), "TypeError",
              "The function '" + entryTmpl_->name() + "' takes " + std::to_string(next) +
                  " inputs but " + std::to_string(inputs.size()) + " were given.");
    }
    entrySpec_ = nullptr;
    Spec& s = specialize(entryTmpl_, args, entryTmpl_->returnNode(), false);
    (void)s;
}

void Engine::run(const std::vector<AbstractPtr>& inputs) {
    entryTmpl_ = m_.entry();
    if (!entryTmpl_) {
        throw CompileError("RuntimeError", "irscope: the module has no entry graph");
    }
    entryParamIndex_.clear();
    for (ir::Parameter* p : entryTmpl_->parameters()) {
        entryParamIndex_.emplace(p, entryParamIndex_.size());
    }
    templates_ = m_.graphs();
    for (int attempt = 0;; ++attempt) {
        try {
            // The entry's specialization must exist before any other clone maps its weights.
            entrySpec_ = nullptr;
            runOnce(inputs);
            break;
        } catch (const Restart&) {
            discardClones();
            inferLog_.clear();
            if (attempt > 200) {
                throw CompileError("RuntimeError",
                                   "irscope: type inference did not converge (too many "
                                   "broadenings of loop variables)");
            }
        }
    }
    finish();
}

}  // namespace irscope::passes::infer
