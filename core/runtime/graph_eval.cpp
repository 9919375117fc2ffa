// The graph evaluator: a frame per graph activation, closures for graph values (a graph
// and the frame its free variables live in), Partial applications, tail calls for loops,
// and the registry's CPU kernels for every primitive that is not structural.
#include "runtime/graph_eval.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "runtime/graph_eval_plan.h"
#include "runtime/graph_eval_print.h"
#include "runtime/graph_eval_values.h"

namespace irscope::runtime {

namespace {

using namespace detail;  // NOLINT: the runtime values and their helpers

bool isMonad(const RValue& v) {
    return v.arg.isValue() && v.arg.value() && v.arg.value()->kind == ir::Value::Kind::Monad;
}

class Evaluator {
public:
    Evaluator(const ir::Module& m, const EvalOptions& opts)
        : m_(m), opts_(opts), owners_(detail::freeVariableOwners(m)) {}

    void bindGlobal(const ir::Parameter* p, RValue v) { globals_[p] = std::move(v); }

    RValue run(std::vector<RValue> args) {
        return runGraph(m_.entry(), nullptr, std::move(args), nullptr);
    }

private:
    const detail::GraphPlan& plan(const FuncGraph* g) {
        auto it = plans_.find(g);
        if (it == plans_.end()) {
            it = plans_.emplace(g, detail::planGraph(*g)).first;
        }
        return it->second;
    }

    void step(const Node& n) {
        if (++steps_ > opts_.maxSteps) {
            failAt(n, "The graph evaluation exceeded " + std::to_string(opts_.maxSteps) +
                          " steps (the step limit of the run).");
        }
        if (opts_.cancel.stop_requested() || (opts_.isCancelled && opts_.isCancelled())) {
            failAt(n, "The graph evaluation was cancelled.");
        }
    }

    // The frame of `g` for a closure made in `cur`: the nearest activation of a graph whose
    // nodes g uses, so loop frames do not chain up behind each other.
    FramePtr closureParent(const FuncGraph* g, const FramePtr& cur) {
        const auto it = owners_.find(g);
        if (it == owners_.end() || it->second.empty()) {
            return nullptr;
        }
        for (FramePtr f = cur; f; f = f->parent) {
            if (it->second.count(f->graph)) {
                return f;
            }
        }
        return cur;
    }

    RValue constant(const ir::ValuePtr& v, const FramePtr& frame) {
        if (v && v->kind == ir::Value::Kind::Graph) {
            auto f = std::make_shared<Func>();
            f->kind = Func::Kind::Closure;
            f->graph = v->graph;
            f->parent = closureParent(v->graph, frame);
            return RValue::func(std::move(f));
        }
        if (v && v->kind == ir::Value::Kind::Primitive) {
            auto f = std::make_shared<Func>();
            f->kind = Func::Kind::Primitive;
            f->prim = v->prim;
            return RValue::func(std::move(f));
        }
        return RValue::of(ops::kernelArgFromValue(v));
    }

    RValue valueOf(const Node* n, const FramePtr& frame) {
        if (const auto* v = ir::nodeCast<ir::ValueNode>(n)) {
            return constant(v->value(), frame);
        }
        for (Frame* f = frame.get(); f != nullptr; f = f->parent.get()) {
            if (f->graph != n->graph()) {
                continue;
            }
            const auto it = f->values.find(n);
            if (it != f->values.end()) {
                return it->second;
            }
            if (const auto* c = ir::nodeCast<CNode>(n)) {
                // A node of an enclosing graph its schedule has not reached yet (or never
                // reaches: only an inner graph uses it): evaluate it there now.
                FramePtr owner = findFrame(frame, f);
                RValue r = evalCNode(*c, owner);
                owner->values[n] = r;
                return r;
            }
            break;
        }
        const auto* p = ir::nodeCast<ir::Parameter>(n);
        if (p != nullptr) {
            const auto it = globals_.find(p);
            if (it != globals_.end()) {
                return it->second;
            }
        }
        failAt(*n, "The value of this node is not available here: it belongs to graph @" +
                       (n->graph() ? n->graph()->name() : std::string("?")) +
                       ", which is not an enclosing activation.");
    }

    static FramePtr findFrame(const FramePtr& from, const Frame* target) {
        for (FramePtr f = from; f; f = f->parent) {
            if (f.get() == target) {
                return f;
            }
        }
        return from;
    }

    RValue runGraph(const FuncGraph* g, FramePtr parent, std::vector<RValue> args,
                    const CNode* site) {
        if (depth_ >= opts_.maxCallDepth) {
            const std::string msg =
                "Exceed function call depth limit " + std::to_string(opts_.maxCallDepth) +
                ", (function call depth: " + std::to_string(depth_ + 1) +
                "). It's always happened with complex construction of code or infinite "
                "recursion or loop. Please check the code if it's has the infinite recursion "
                "or call 'context.set_context(max_call_depth=value)' to adjust this value.";
            if (site != nullptr) {
                failAt(*site, msg);
            }
            throw EvalError(msg, "RuntimeError");
        }
        ++depth_;
        struct Leave {
            std::size_t& d;
            ~Leave() { --d; }
        } leave{depth_};
        for (;;) {
            if (g->returnNode() == nullptr || g->output() == nullptr) {
                throw EvalError("Graph @" + g->name() + " has no Return node (or returns nothing).",
                                "RuntimeError");
            }
            auto frame = std::make_shared<Frame>();
            frame->graph = g;
            frame->parent = std::move(parent);
            const auto& params = g->parameters();
            // Real dumps pass a trailing U monad to branch graphs that list no parameter
            // for it (`%7(UMonad[U])`): drop surplus monads.
            while (args.size() > params.size() && isMonad(args.back())) {
                args.pop_back();
            }
            if (params.size() != args.size()) {
                const std::string msg = "The graph @" + g->name() + " takes " +
                                        std::to_string(params.size()) + " arguments, but " +
                                        std::to_string(args.size()) + " were given.";
                if (site != nullptr) {
                    failAt(*site, msg, "TypeError");
                }
                throw EvalError(msg, "TypeError");
            }
            for (std::size_t i = 0; i < params.size(); ++i) {
                frame->values[params[i]] = std::move(args[i]);
            }
            const detail::GraphPlan& p = plan(g);
            for (const CNode* c : p.order) {
                if (frame->values.count(c) == 0) {
                    frame->values[c] = evalCNode(*c, frame);
                }
            }
            if (p.tailCall == nullptr) {
                return valueOf(g->output(), frame);
            }
            // The tail call: resolve the callee; a graph continues in this loop.
            const CNode& call = *p.tailCall;
            step(call);
            RValue callee = valueOf(call.input(0), frame);
            std::vector<RValue> next = callArgs(call, frame);
            while (callee.fn && callee.fn->kind == Func::Kind::Partial) {
                std::vector<RValue> all = callee.fn->bound;
                all.insert(all.end(), next.begin(), next.end());
                next = std::move(all);
                RValue inner = callee.fn->inner;
                callee = std::move(inner);
            }
            if (!callee.fn || callee.fn->kind != Func::Kind::Closure) {
                return callValue(call, callee, std::move(next));
            }
            g = callee.fn->graph;
            parent = callee.fn->parent;
            args = std::move(next);
            site = &call;
        }
    }

    std::vector<RValue> callArgs(const CNode& c, const FramePtr& frame) {
        std::vector<RValue> args;
        args.reserve(c.size() - 1);
        for (std::size_t i = 1; i < c.size(); ++i) {
            args.push_back(valueOf(c.input(i), frame));
        }
        return args;
    }

    RValue callValue(const CNode& site, const RValue& f, std::vector<RValue> args) {
        if (!f.fn) {
            failAt(site, "The callee is not a function (a graph, a Partial or a primitive).",
                   "TypeError");
        }
        switch (f.fn->kind) {
            case Func::Kind::Closure:
                return runGraph(f.fn->graph, f.fn->parent, std::move(args), &site);
            case Func::Kind::Partial: {
                std::vector<RValue> all = f.fn->bound;
                all.insert(all.end(), std::make_move_iterator(args.begin()),
                           std::make_move_iterator(args.end()));
                return callValue(site, f.fn->inner, std::move(all));
            }
            case Func::Kind::Primitive:
                return applyPrimitive(site, *f.fn->prim, std::move(args));
        }
        return {};
    }

    RValue evalCNode(const CNode& c, const FramePtr& frame) {
        step(c);
        if (const ir::PrimitiveData* prim = c.primitive()) {
            return applyPrimitive(c, *prim, callArgs(c, frame));
        }
        if (c.size() == 0) {
            failAt(c, "A CNode without a callee.");
        }
        RValue callee = valueOf(c.input(0), frame);
        return callValue(c, callee, callArgs(c, frame));
    }

    RValue print(const std::vector<RValue>& args, const CNode& site) {
        for (const RValue& a : args) {
            const KernelArg k = toKernel(site, a);
            if (isPrintSkipped(k)) {
                continue;
            }
            if (opts_.print) {
                opts_.print(formatPrintInput(k));
            }
        }
        return RValue::of(KernelArg(Tensor(DType::Int32, Shape{1})));
    }

    RValue applyPrimitive(const CNode& site, const ir::PrimitiveData& prim,
                          std::vector<RValue> args) {
        const std::string& name = prim.name;
        auto need = [&](std::size_t n) {
            if (args.size() < n) {
                failAt(site,
                       "For '" + name + "', " + std::to_string(n) + " inputs are needed, but got " +
                           std::to_string(args.size()) + ".",
                       "TypeError");
            }
        };
        if (name == "MakeTuple" || name == "MakeList" || name == "make_list") {
            return makeTuple(std::move(args));
        }
        if (name == "TupleGetItem" || name == "ListGetItem" || name == "tuple_getitem" ||
            name == "list_getitem") {
            need(2);
            return tupleItem(site, args[0], args[1]);
        }
        if (name == "Depend" || name == "StopGradient" || name == "stop_gradient") {
            need(1);
            return std::move(args[0]);
        }
        if (name == "UpdateState") {
            return RValue::of(KernelArg(ir::Value::monadValue(ir::MonadKind::U)));
        }
        if (name == "Switch") {
            need(3);
            return truthOf(site, args[0]) ? std::move(args[1]) : std::move(args[2]);
        }
        if (name == "Partial") {
            need(1);
            auto f = std::make_shared<Func>();
            f->kind = Func::Kind::Partial;
            f->inner = std::move(args[0]);
            f->bound.assign(std::make_move_iterator(args.begin() + 1),
                            std::make_move_iterator(args.end()));
            if (!f->inner.fn) {
                failAt(site, "For 'Partial', the first input must be a function.", "TypeError");
            }
            return RValue::func(std::move(f));
        }
        if (name == "Print") {
            return print(args, site);
        }
        if (name == "Return") {
            need(1);
            return std::move(args[0]);
        }
        const ops::OpRegistry& reg = ops::OpRegistry::instance();
        const ops::OpDef* op = reg.find(name);
        // MindSpore 2.3 dumps name generated primitives `PrimFunc_Mul`.
        constexpr std::string_view kPrimFunc = "PrimFunc_";
        if (op == nullptr && std::string_view(name).substr(0, kPrimFunc.size()) == kPrimFunc) {
            op = reg.find(std::string_view(name).substr(kPrimFunc.size()));
        }
        if (op == nullptr || !op->cpuKernel) {
            failAt(site, "The primitive '" + name + "' has no CPU kernel.", "RuntimeError");
        }
        std::vector<KernelArg> inputs;
        inputs.reserve(args.size());
        for (const RValue& a : args) {
            inputs.push_back(toKernel(site, a));
        }
        // MindSpore 2.x dumps pass constructor attributes as trailing inputs
        // (`ReduceSum(%x, (), Bool(0))`): map them back onto the registry's attributes.
        ir::AttrMap attrs = prim.attrs;
        const bool variadic = std::any_of(op->inputs.begin(), op->inputs.end(),
                                          [](const ops::ArgSpec& a) { return a.variadic; });
        if (!variadic && inputs.size() > op->inputs.size()) {
            std::size_t extra = inputs.size() - op->inputs.size();
            for (std::size_t k = 0; k < extra && k < op->attrs.size(); ++k) {
                const KernelArg& in = inputs[op->inputs.size() + k];
                if (in.isValue() && in.value() && in.value()->kind != ir::Value::Kind::Monad) {
                    attrs.set(op->attrs[k].name, in.value());
                }
            }
            // Monads stay (the kernels ignore an absent or monad trailing input).
            inputs.resize(op->inputs.size());
        }
        try {
            return RValue::of(reg.run(*op, attrs, inputs));
        } catch (const EvalError&) {
            throw;
        } catch (const ops::OpError& e) {
            failAt(site, e.what(), std::string(ops::errorKindName(e.kind())));
        } catch (const std::exception& e) {
            failAt(site, e.what());
        }
    }

    const ir::Module& m_;
    const EvalOptions& opts_;
    std::unordered_map<const FuncGraph*, std::unordered_set<const FuncGraph*>> owners_;
    std::unordered_map<const FuncGraph*, detail::GraphPlan> plans_;
    std::unordered_map<const ir::Parameter*, RValue> globals_;
    std::size_t depth_ = 0;
    std::uint64_t steps_ = 0;
};

}  // namespace

EvalError::EvalError(const std::string& message, std::string pyType, ir::SourceLocation where,
                     const std::string& node)
    : std::runtime_error(node.empty() ? message : message + "\n  at " + node),
      pyType_(std::move(pyType)),
      message_(message),
      where_(std::move(where)) {}

ops::KernelArg evaluateGraph(const ir::Module& m, std::span<const ops::KernelArg> inputs,
                             const std::map<std::string, Tensor, std::less<>>& weights,
                             const EvalOptions& opts) {
    const FuncGraph* entry = m.entry();
    if (entry == nullptr) {
        throw EvalError("The module has no entry graph.", "RuntimeError");
    }
    Evaluator ev(m, opts);
    std::vector<RValue> args;
    std::vector<const void*> shared;
    std::size_t next = 0;
    for (const ir::Parameter* p : entry->parameters()) {
        if (p->hasDefault()) {
            const auto it = weights.find(p->name());
            if (it == weights.end()) {
                throw EvalError("The weight '" + p->name() + "' of graph @" + entry->name() +
                                    " has no bound value (no Parameter named '" + p->name() + "').",
                                "RuntimeError");
            }
            RValue w = RValue::of(KernelArg(it->second));
            shared.push_back(it->second.storageId());
            ev.bindGlobal(p, w);
            args.push_back(std::move(w));
            continue;
        }
        if (next >= inputs.size()) {
            break;
        }
        const KernelArg& in = inputs[next++];
        if (in.isTensor()) {
            shared.push_back(in.tensor().storageId());
        }
        RValue v = RValue::of(in);
        ev.bindGlobal(p, v);
        args.push_back(std::move(v));
    }
    const std::size_t wanted = static_cast<std::size_t>(
        std::count_if(entry->parameters().begin(), entry->parameters().end(),
                      [](const ir::Parameter* p) { return !p->hasDefault(); }));
    if (inputs.size() != wanted) {
        throw EvalError("The graph @" + entry->name() + " takes " + std::to_string(wanted) +
                            " inputs, but " + std::to_string(inputs.size()) + " were given.",
                        "TypeError");
    }
    const RValue out = ev.run(std::move(args));
    return detail::detach(detail::outputOf(out, entry->name()), shared);
}

}  // namespace irscope::runtime
