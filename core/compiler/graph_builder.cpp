// The graph builder's frame: the function graph and its parameters (binding the entry
// call's arguments), blocks and jumps between them, and pruning of unused block
// parameters. Statements, control flow and expressions are in graph_builder_*.cpp.
#include <algorithm>

#include "compiler/graph_builder_impl.h"
#include "passes/meta_ops.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValuePtr;

Node* Env::get(const std::string& n) const {
    for (const auto& [k, v] : vars) {
        if (k == n) {
            return v;
        }
    }
    return nullptr;
}

void Env::set(const std::string& n, Node* v) {
    for (auto& [k, old] : vars) {
        if (k == n) {
            old = v;
            return;
        }
    }
    vars.emplace_back(n, v);
}

void Env::erase(const std::string& n) {
    std::erase_if(vars, [&](const auto& kv) { return kv.first == n; });
}

std::string graphNameFor(interp::Interpreter& I, const interp::FunctionObject& fn,
                         const interp::Value& self) {
    if (fn.lambda != nullptr) {
        return "lambda";
    }
    if (self.isNull()) {
        return fn.name;
    }
    // The class that defines the method (Block_construct for an inherited construct).
    std::string cls = I.typeName(self);
    const std::string& q = fn.qualname;
    if (auto dot = q.rfind('.'); dot != std::string::npos) {
        std::string owner = q.substr(0, dot);
        if (auto d2 = owner.rfind('.'); d2 != std::string::npos) {
            owner = owner.substr(d2 + 1);
        }
        if (owner != "<locals>") {
            cls = owner;
        }
    }
    return cls + "_" + fn.name;
}

GraphBuilder::GraphBuilder(FrontendState& s, ir::Module& m, const FunctionSpec& spec)
    : s_(s), I(s.I), m_(m), spec_(spec), unit_(spec.fn->unit.get()) {}

void GraphBuilder::fail(const std::string& pyType, const std::string& msg, const ast::Span& at) const {
    throw passes::CompileError(pyType, msg, loc(at));
}

ir::SourceLocation GraphBuilder::loc(const ast::Span& s) const {
    return sourceLocation(*unit_, s);
}

CNode* GraphBuilder::cnode(std::vector<Node*> inputs, const ast::Span& at) {
    CNode* c = m_.addCNode(cur_.g, inputs);
    c->mutableDebug().scope = spec_.scope;
    if (at.line > 0) {
        c->mutableDebug().trace.push_back(loc(at));
    }
    return c;
}

Node* GraphBuilder::constant(ValuePtr v) {
    return m_.addValue(cur_.g, std::move(v));
}

Node* GraphBuilder::prim(std::string_view name) {
    return constant(Value::primitive(std::string(name)));
}

CNode* GraphBuilder::meta(std::string_view name, std::vector<Node*> args, const ast::Span& at) {
    args.insert(args.begin(), prim(name));
    return cnode(std::move(args), at);
}

Node* GraphBuilder::graphValue(FuncGraph* g) {
    return constant(Value::graphRef(g));
}

Block GraphBuilder::newBlock(const std::string& name, const Env& env, std::vector<Node*>& args,
                             const ast::Span& at) {
    s_.countGraph();
    Block b;
    b.g = m_.addGraph(s_.uniqueGraphName(name));
    if (at.line > 0) {
        b.g->debug().trace.push_back(loc(at));
    }
    for (const auto& [n, v] : env.vars) {
        ir::Parameter* p = m_.addParameter(b.g, n);
        // A tuple of known length stays one in the block (its loops unroll); noteSite drops
        // the length when another way into the block passes a different one.
        if (const std::int64_t len = knownLength(v); len >= 0) {
            s_.paramLengths[p] = len;
        }
        b.env.set(n, p);
        args.push_back(v);
    }
    blocks_[b.g].prunable = env.vars.size();
    blockOrder_.push_back(b.g);
    return b;
}

void GraphBuilder::noteSite(FuncGraph* g, CNode* site, std::size_t argStart) {
    auto it = blocks_.find(g);
    if (it != blocks_.end()) {
        it->second.sites.push_back({site, argStart});
    }
    const std::vector<ir::Parameter*>& params = g->parameters();
    for (std::size_t k = 0; k < params.size() && argStart + k < site->size(); ++k) {
        auto len = s_.paramLengths.find(params[k]);
        if (len == s_.paramLengths.end() || knownLength(site->input(argStart + k)) == len->second) {
            continue;
        }
        if (auto used = lengthsUsed_.find(params[k]); used != lengthsUsed_.end()) {
            // A loop of the block was unrolled for the length one way in gives.
            fail("RuntimeError", "In graph mode, a tuple or list a loop iterates ('" + params[k]->name() +
                 "') must have the same length on every path to the loop (not supported yet).",
                 used->second);
        }
        s_.paramLengths.erase(len);
    }
}

void GraphBuilder::finish(Block& b, Node* out, const ast::Span& at) {
    // Build in b's graph: make b current for a moment (never swap cur_ with itself, which
    // would empty it).
    const bool other = &b != &cur_;
    if (other) {
        std::swap(cur_, b);
    }
    for (Node* call : cur_.assignedCalls) {
        if (call->users().empty() && call != out &&
            std::find(cur_.isolated.begin(), cur_.isolated.end(), call) == cur_.isolated.end()) {
            cur_.isolated.push_back(call);
        }
    }
    if (!cur_.isolated.empty()) {
        std::vector<Node*> items{prim(passes::meta::kMakeTuple)};
        items.insert(items.end(), cur_.isolated.begin(), cur_.isolated.end());
        Node* tuple = cnode(items, at);
        Node* stop = cnode({prim("StopGradient"), tuple}, at);
        out = cnode({prim("Depend"), out, stop}, at);
    }
    CNode* ret = m_.setOutput(cur_.g, out);
    ret->mutableDebug().scope = spec_.scope;
    if (at.line > 0) {
        ret->mutableDebug().trace.push_back(loc(at));
    }
    cur_.closed = true;
    if (other) {
        std::swap(cur_, b);
    }
}

CNode* GraphBuilder::partial(FuncGraph* g, const std::vector<Node*>& args, const ast::Span& at) {
    std::vector<Node*> in{prim("Partial"), graphValue(g)};
    in.insert(in.end(), args.begin(), args.end());
    CNode* p = cnode(in, at);
    noteSite(g, p, 2);
    return p;
}

void GraphBuilder::tailCall(Block& b, FuncGraph* target, const std::vector<std::string>& names,
                            const ast::Span& at) {
    const bool other = &b != &cur_;
    if (other) {
        std::swap(cur_, b);
    }
    std::vector<Node*> in{graphValue(target)};
    for (const std::string& n : names) {
        Node* v = cur_.env.get(n);
        in.push_back(v != nullptr ? v : constant(Value::none()));
    }
    CNode* call = cnode(in, at);
    noteSite(target, call, 1);
    finish(cur_, call, at);
    if (other) {
        std::swap(cur_, b);
    }
}

Block GraphBuilder::joinJumps(std::vector<PendingJump> jumps, const std::string& name, const ast::Span& at) {
    Block target;
    if (jumps.empty()) {
        target.closed = true;
        return target;
    }
    if (jumps.size() == 1 && !jumps[0].emit) {
        return jumps[0].from;  // one way in: carry on in that block, no join graph needed
    }
    Env all;
    for (const PendingJump& j : jumps) {
        for (const auto& [n, v] : j.from.env.vars) {
            if (all.get(n) == nullptr) {
                all.set(n, v);
            }
        }
    }
    std::vector<Node*> unused;
    target = newBlock(name, all, unused, at);
    std::vector<std::string> names;
    for (const auto& kv : all.vars) {
        names.push_back(kv.first);
    }
    for (PendingJump& j : jumps) {
        if (!j.emit) {
            tailCall(j.from, target.g, names, at);
            continue;
        }
        std::swap(cur_, j.from);
        std::vector<Node*> args;
        for (const std::string& n : names) {
            Node* v = cur_.env.get(n);
            args.push_back(v != nullptr ? v : constant(Value::none()));
        }
        j.emit(target.g, args);
        std::swap(cur_, j.from);
    }
    return target;
}

void GraphBuilder::pruneParameters() {
    bool changed = true;
    while (changed) {
        changed = false;
        for (FuncGraph* g : blockOrder_) {
            BlockInfo& info = blocks_[g];
            for (std::size_t k = info.prunable; k-- > 0;) {
                ir::Parameter* p = g->parameters().at(k);
                if (!p->users().empty()) {
                    continue;
                }
                for (const Site& site : info.sites) {
                    const std::size_t at = site.argStart + k;
                    if (at < site.node->size()) {
                        m_.removeInput(site.node, at);
                    }
                }
                m_.eraseParameter(p);
                --info.prunable;
                changed = true;
            }
        }
    }
}

ir::FuncGraph* GraphBuilder::build() {
    const interp::FunctionObject& fn = *spec_.fn;
    const interp::CodeInfo* code = fn.code;
    if (code == nullptr || (fn.def == nullptr && fn.lambda == nullptr)) {
        throw passes::CompileError("TypeError", "The function '" + fn.name + "' has no Python source to compile.");
    }
    const ast::Span defSpan = fn.def != nullptr ? fn.def->span : fn.lambda->span;
    s_.countGraph();
    cur_.g = m_.addGraph(s_.uniqueGraphName(spec_.graphName));
    cur_.g->debug().trace.push_back(loc(defSpan));
    if (spec_.entry) {
        m_.setEntry(cur_.g);
    }

    // Parameters: positional (after self for a method), then keyword-only; *args expands
    // to one parameter per actual argument for the entry graph.
    const int first = spec_.self.isNull() ? 0 : 1;
    if (first == 1 && code->posCount > 0) {
        selfName_ = code->varNames[0];
    }
    std::vector<std::string> names;
    for (int k = first; k < code->posCount; ++k) {
        names.push_back(code->varNames[static_cast<std::size_t>(k)]);
    }
    const std::size_t npos = names.size();
    for (int k = 0; k < code->kwOnlyCount; ++k) {
        names.push_back(code->varNames[static_cast<std::size_t>(code->posCount + k)]);
    }
    // The signature symbol_resolve binds calls against (defaults as constants).
    GraphSignature sig;
    sig.names.assign(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(npos));
    sig.positional = npos;
    sig.defaults.assign(npos, nullptr);
    const std::size_t ndefs = fn.defaults.size();
    for (std::size_t k = 0; k < ndefs && k < npos; ++k) {
        ValuePtr c = irConstant(fn.defaults[ndefs - 1 - k]);
        sig.defaults[npos - 1 - k] = c ? c : Value::none();
    }
    if (code->hasVarArgs) {
        sig.varargs = static_cast<int>(sig.names.size());
        sig.names.push_back(code->varNames[static_cast<std::size_t>(code->posCount + code->kwOnlyCount)]);
        sig.defaults.push_back(Value::tuple({}));
        if (code->kwOnlyCount == 0 && !spec_.entry) {
            // The tuple parameter of *args, last: a grad of the graph gathers the arguments
            // from there into it (type_inference, inferGradCall).
            cur_.g->attrs().set("varargs", Value::integer(sig.varargs));
        }
    }
    for (std::size_t i = npos; i < names.size(); ++i) {
        sig.names.push_back(names[i]);
        const std::size_t k = i - npos;
        ValuePtr c = k < fn.kwDefaults.size() && !fn.kwDefaults[k].isNull() ? irConstant(fn.kwDefaults[k]) : nullptr;
        sig.defaults.push_back(c ? c : (k < fn.kwDefaults.size() && !fn.kwDefaults[k].isNull() ? Value::none() : nullptr));
    }
    const std::string what = fn.name + "()";
    if (!spec_.entry) {
        if (code->hasVarKw) {
            fail("RuntimeError", "The function '" + fn.name + "' with **kwargs can only be the compiled entry, not "
                 "a function called from the graph.", defSpan);
        }
        // Called from the graph: *args is one tuple parameter.
        for (const std::string& n : sig.names) {
            ir::Parameter* p = m_.addParameter(cur_.g, n);
            if (auto it = spec_.argLengths.find(n); it != spec_.argLengths.end()) {
                s_.paramLengths[p] = it->second;
            }
            cur_.env.set(n, p);
        }
        s_.signatures[cur_.g] = sig;
    } else {
        const interp::CallArgs& a = s_.call.args;
        // A @jit method's arguments start with self; a Cell call's do not.
        const std::size_t skip = (!spec_.self.isNull() && s_.call.target.is<interp::FunctionObject>()) ? 1 : 0;
        std::vector<interp::Value> bound(names.size());
        std::vector<interp::Value> extra;
        for (std::size_t k = skip; k < a.pos.size(); ++k) {
            const std::size_t i = k - skip;
            if (i < npos) {
                bound[i] = a.pos[k];
            } else if (code->hasVarArgs) {
                extra.push_back(a.pos[k]);
            } else {
                fail("TypeError", what + " takes " + std::to_string(npos + first) + " positional arguments but " +
                     std::to_string(a.pos.size() - skip + first) + " were given", defSpan);
            }
        }
        for (const interp::KwArg& kw : a.kw) {
            auto it = std::find(names.begin(), names.end(), kw.name);
            if (it == names.end()) {
                fail("TypeError", what + " got an unexpected keyword argument '" + kw.name + "'", defSpan);
            }
            bound[static_cast<std::size_t>(it - names.begin())] = kw.value;
        }
        const std::size_t ndef = fn.defaults.size();
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (!bound[i].isNull()) {
                continue;
            }
            const std::size_t slot = i + static_cast<std::size_t>(first);
            if (i < npos && slot + ndef >= static_cast<std::size_t>(code->posCount)) {
                bound[i] = fn.defaults[slot + ndef - static_cast<std::size_t>(code->posCount)];
            } else if (i >= npos && i - npos < fn.kwDefaults.size() && !fn.kwDefaults[i - npos].isNull()) {
                bound[i] = fn.kwDefaults[i - npos];
            } else {
                fail("TypeError", what + " missing 1 required positional argument: '" + names[i] + "'", defSpan);
            }
        }
        // Positional parameters, then *args as inputs0, inputs1..., then keyword-only.
        auto addInput = [&](const std::string& n, const interp::Value& v) {
            ir::Parameter* p = m_.addParameter(cur_.g, n);
            s_.inputs.push_back(v);
            known_[p] = v;
            return p;
        };
        for (std::size_t i = 0; i < npos; ++i) {
            cur_.env.set(names[i], addInput(names[i], bound[i]));
        }
        if (code->hasVarArgs) {
            const std::string& vname = code->varNames[static_cast<std::size_t>(code->posCount + code->kwOnlyCount)];
            std::vector<Node*> items{prim(passes::meta::kMakeTuple)};
            for (std::size_t k = 0; k < extra.size(); ++k) {
                items.push_back(addInput(vname + std::to_string(k), extra[k]));
            }
            cur_.env.set(vname, cnode(items, defSpan));
        }
        for (std::size_t i = npos; i < names.size(); ++i) {
            cur_.env.set(names[i], addInput(names[i], bound[i]));
        }
        if (code->hasVarKw) {
            fail("RuntimeError", "**kwargs parameters are not supported for the compiled entry '" + fn.name + "'.",
                 defSpan);
        }
        s_.signatures[cur_.g] = sig;
    }

    FuncGraph* g = cur_.g;
    if (fn.def != nullptr) {
        statements(fn.def->body);
        if (!cur_.closed) {
            const ast::Span end = fn.def->body.empty() ? defSpan : fn.def->body.back()->span;
            finish(cur_, constant(Value::none()), end);
        }
    } else {
        Node* out = expr(*fn.lambda->body);
        finish(cur_, out, fn.lambda->body->span);
    }
    pruneParameters();
    return g;
}

ir::FuncGraph* buildFunctionGraph(FrontendState& s, ir::Module& m, const FunctionSpec& spec) {
    GraphBuilder b(s, m, spec);
    return b.build();
}

}  // namespace irscope::compiler
