// The executor: a frame per graph activation, closures for graph values (a graph and the
// frame its free variables live in), Partial applications, tail calls for loops, kernels in
// task_emit's execution order, values released after their last use, and the registry's
// CPU kernels (or the device's, executor_device.cpp) for every primitive that is not
// structural.
#include "runtime/executor.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "runtime/executor_impl.h"
#include "runtime/print_format.h"

namespace irscope::runtime {

using namespace detail;  // NOLINT: the runtime values and their helpers

namespace {

bool isMonad(const RValue& v) {
    return v.arg.isValue() && v.arg.value() && v.arg.value()->kind == ir::Value::Kind::Monad;
}

}  // namespace

const ops::OpDef* findOp(std::string_view name) {
    const ops::OpRegistry& reg = ops::OpRegistry::instance();
    const ops::OpDef* op = reg.find(name);
    constexpr std::string_view kPrimFunc = "PrimFunc_";
    if (op == nullptr && std::string_view(name).substr(0, kPrimFunc.size()) == kPrimFunc) {
        op = reg.find(std::string_view(name).substr(kPrimFunc.size()));
    }
    return op;
}

// ---------------------------------------------------------------------------------------
// Memory accounting

void MemoryMeter::exclude(const Tensor& t) { excluded_.insert(t.storageId()); }

void MemoryMeter::produced(const ops::KernelArg& a) {
    if (a.isTuple()) {
        for (const ops::KernelArg& e : a.elements()) {
            produced(e);
        }
        return;
    }
    if (!a.isTensor()) {
        return;
    }
    const Tensor& t = a.tensor();
    const void* id = t.storageId();
    if (t.nbytes() == 0 || excluded_.count(id)) {
        return;
    }
    if (dirty_) {
        collect();  // the peak is taken here: forget what was freed since then
    }
    auto it = live_.find(id);
    if (it != live_.end() && !it->second.storage.expired()) {
        return;  // a view of a buffer already counted (Reshape, Depend)
    }
    const std::uint64_t bytes =
        (t.nbytes() + passes::backend::kMemAlign - 1) / passes::backend::kMemAlign *
        passes::backend::kMemAlign;
    if (it != live_.end()) {
        liveBytes_ -= it->second.bytes;  // a freed buffer's address came back
    }
    live_[id] = Entry{t.storageHandle(), bytes};
    t.watchRelease(released_);
    liveBytes_ += bytes;
    peakBytes_ = std::max(peakBytes_, liveBytes_);
}

void MemoryMeter::collect() {
    dirty_ = false;
    // Every counted buffer is watched, so the log names each one freed since the last
    // collect; an address already reused by a buffer counted since keeps its entry.
    for (const void* id : released_->take()) {
        auto it = live_.find(id);
        if (it != live_.end() && it->second.storage.expired()) {
            liveBytes_ -= it->second.bytes;
            live_.erase(it);
        }
    }
}

void MemoryMeter::reset() {
    live_.clear();
    released_ = std::make_shared<ir::ReleaseLog>();  // buffers of the last run may still go
    excluded_.clear();
    liveBytes_ = 0;
    peakBytes_ = 0;
    dirty_ = false;
}

// ---------------------------------------------------------------------------------------
// The inspector

std::optional<ops::KernelArg> Executor::Impl::valueOf(const ir::Node* n) const {
    if (n == nullptr) {
        return std::nullopt;
    }
    if (const auto* v = ir::nodeCast<ir::ValueNode>(n)) {
        if (v->value() && (v->value()->kind == ir::Value::Kind::Graph ||
                           v->value()->kind == ir::Value::Kind::Primitive)) {
            return std::nullopt;
        }
        return ops::kernelArgFromValue(v->value());
    }
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
        for (const Frame* f = *it; f != nullptr; f = f->parent.get()) {
            if (f->graph != n->graph()) {
                continue;
            }
            const auto found = f->values.find(n);
            if (found == f->values.end()) {
                break;
            }
            if (found->second.fn) {
                return std::nullopt;
            }
            try {
                return hostValue(found->second);
            } catch (const std::exception&) {
                return std::nullopt;  // a function inside a tuple
            }
        }
    }
    if (const auto* p = ir::nodeCast<ir::Parameter>(n)) {
        const auto it = globals_.find(p);
        if (it != globals_.end() && !it->second.fn) {
            return hostValue(it->second);
        }
    }
    return std::nullopt;
}

std::span<const ir::CNode* const> Executor::Impl::order(const ir::FuncGraph* g) const {
    const auto it = plan_->graphs.find(g);
    if (it == plan_->graphs.end()) {
        return {};
    }
    return it->second.order;
}

// ---------------------------------------------------------------------------------------
// Running graphs

Executor::Impl::Impl(const ir::Module& m, ExecOptions o, std::shared_ptr<const ModulePlan> plan)
    : m_(m), opts_(std::move(o)), plan_(plan ? std::move(plan) : planExecution(m)) {}

const GraphPlan& Executor::Impl::plan(const ir::FuncGraph* g) {
    const auto it = plan_->graphs.find(g);
    if (it == plan_->graphs.end()) {
        // Every graph a run reaches is one of the module's, planned up front.
        throw EvalError("irscope: the executor reached the graph @" + g->name() +
                        ", which is not in the module it runs", "RuntimeError");
    }
    return it->second;
}

void Executor::Impl::step(const ir::Node& n) {
    if (++steps_ > opts_.maxSteps) {
        failAt(n, "The graph evaluation exceeded " + std::to_string(opts_.maxSteps) +
                      " steps (the step limit of the run).");
    }
    if (opts_.cancel.stop_requested()) {
        ir::SourceLocation where;
        for (auto it = n.debug().trace.rbegin(); it != n.debug().trace.rend(); ++it) {
            if (it->line > 0) {
                where = *it;
                break;
            }
        }
        throw ExecCancelled(std::move(where), describeNode(n));
    }
}

// The frame of `g` for a closure made in `cur`: the nearest activation of a graph whose
// nodes g uses, so loop frames do not chain up behind each other.
FramePtr Executor::Impl::closureParent(const ir::FuncGraph* g, const FramePtr& cur) {
    const auto it = plan_->owners.find(g);
    if (it == plan_->owners.end() || it->second.empty()) {
        return nullptr;
    }
    for (FramePtr f = cur; f; f = f->parent) {
        if (it->second.count(f->graph)) {
            return f;
        }
    }
    return cur;
}

RValue Executor::Impl::constant(const ir::ValuePtr& v, const FramePtr& frame) {
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

static FramePtr findFrame(const FramePtr& from, const Frame* target) {
    for (FramePtr f = from; f; f = f->parent) {
        if (f.get() == target) {
            return f;
        }
    }
    return from;
}

RValue Executor::Impl::valueIn(const ir::Node* n, const FramePtr& frame) {
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
        if (const auto* c = ir::nodeCast<ir::CNode>(n)) {
            // A node of an enclosing graph its order has not reached yet (or never reaches:
            // only an inner graph uses it): evaluate it there now.
            FramePtr owner = findFrame(frame, f);
            RValue r = evalCNode(*c, owner, nullptr);
            owner->values[n] = r;
            return r;
        }
        break;
    }
    if (const auto* p = ir::nodeCast<ir::Parameter>(n)) {
        const auto it = globals_.find(p);
        if (it != globals_.end()) {
            return it->second;
        }
    }
    failAt(*n, "The value of this node is not available here: it belongs to graph @" +
                   (n->graph() ? n->graph()->name() : std::string("?")) +
                   ", which is not an enclosing activation.");
}

// The lowest address the current thread's stack may grow to (null when unknown). Asked
// once per thread: for the main thread glibc reads /proc/self/maps to answer.
static const char* queryStackLimit() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) {
        return nullptr;
    }
    void* base = nullptr;
    std::size_t size = 0;
    const int rc = pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
    return rc == 0 ? static_cast<const char*>(base) : nullptr;
}

static const char* stackLimit() {
    thread_local const char* const limit = queryStackLimit();
    return limit;
}

void Executor::Impl::checkDepth(const ir::CNode* site) {
    // Nested calls recurse on the C++ stack: whatever max_call_depth says, stop while a
    // safe margin is left (a thread with a small stack gets the error instead of a crash).
    constexpr std::uintptr_t kMargin = 256 * 1024;
    const char here = 0;
    const auto at = reinterpret_cast<std::uintptr_t>(&here);
    const auto end = reinterpret_cast<std::uintptr_t>(stackLimit_);
    const bool stackLow = stackLimit_ != nullptr && at - end < kMargin;
    if (depth_ < opts_.maxCallDepth && !stackLow) {
        return;
    }
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

void Executor::Impl::trackFrame(const FramePtr& frame) {
    if (runFrames_.size() >= pruneFramesAt_) {
        std::erase_if(runFrames_, [](const std::weak_ptr<Frame>& w) { return w.expired(); });
        pruneFramesAt_ = std::max<std::size_t>(1024, 2 * runFrames_.size());
    }
    runFrames_.push_back(frame);
}

void Executor::Impl::releaseRunFrames() {
    // Frames still alive after the run are kept only by cycles through their own values:
    // emptying them frees the frames and what they hold.
    std::vector<std::weak_ptr<Frame>> frames;
    frames.swap(runFrames_);
    pruneFramesAt_ = 0;
    for (const std::weak_ptr<Frame>& w : frames) {
        if (const FramePtr f = w.lock()) {
            std::unordered_map<const Node*, RValue> values;
            values.swap(f->values);
            f->parent.reset();
        }
    }
}

RValue Executor::Impl::runGraph(const ir::FuncGraph* g, FramePtr parent, std::vector<RValue> args,
                                const ir::CNode* site) {
    checkDepth(site);
    ++depth_;
    stack_.push_back(StackFrame{g, site});
    frames_.push_back(nullptr);
    struct Leave {
        Impl& ex;
        ~Leave() {
            ex.meter_.maybeFreed();  // the frame's values may go with it
            --ex.depth_;
            ex.stack_.pop_back();
            ex.frames_.pop_back();
        }
    } leave{*this};
    for (;;) {
        if (g->returnNode() == nullptr || g->output() == nullptr) {
            throw EvalError("Graph @" + g->name() + " has no Return node (or returns nothing).",
                            "RuntimeError");
        }
        auto frame = std::make_shared<Frame>();
        frame->graph = g;
        frame->parent = std::move(parent);
        trackFrame(frame);
        stack_.back() = StackFrame{g, site};
        frames_.back() = frame.get();
        const auto& params = g->parameters();
        // Real dumps pass a trailing U monad to branch graphs that list no parameter for it
        // (`%7(UMonad[U])`): drop surplus monads.
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
        const GraphPlan& p = plan(g);
        for (std::size_t t = 0; t < p.body.size(); ++t) {
            const ir::CNode* c = p.body[t];
            if (frame->values.count(c) == 0) {
                frame->values[c] = evalCNode(*c, frame, &p);
            }
            if (!opts_.keepValues) {
                if (!p.releaseAfter[t].empty()) {
                    for (const ir::Node* dead : p.releaseAfter[t]) {
                        frame->values.erase(dead);
                    }
                    meter_.maybeFreed();
                    if (opts_.device) {
                        collectMirrors();
                    }
                }
            }
        }
        if (p.tailCall == nullptr) {
            return valueIn(g->output(), frame);
        }
        // The tail call: resolve the callee; a graph continues in this loop.
        const ir::CNode& call = *p.tailCall;
        step(call);
        RValue callee = valueIn(call.input(0), frame);
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
        if (opts_.observer != nullptr) {
            KernelEvent e = event(call, p, true);
            opts_.observer->beforeKernel(e, *this);
        }
        g = callee.fn->graph;
        parent = callee.fn->parent;
        args = std::move(next);
        site = &call;
        frame.reset();
        meter_.maybeFreed();
    }
}

std::vector<RValue> Executor::Impl::callArgs(const ir::CNode& c, const FramePtr& frame) {
    std::vector<RValue> args;
    args.reserve(c.size() - 1);
    for (std::size_t i = 1; i < c.size(); ++i) {
        args.push_back(valueIn(c.input(i), frame));
    }
    return args;
}

RValue Executor::Impl::callValue(const ir::CNode& site, const RValue& f, std::vector<RValue> args) {
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

KernelEvent Executor::Impl::event(const ir::CNode& c, const GraphPlan& p, bool callsGraph) {
    KernelEvent e;
    e.node = &c;
    e.stack = stack_;
    const auto it = p.index.find(&c);
    e.index = it != p.index.end() ? it->second : 0;
    e.step = steps_;
    e.callsGraph = callsGraph;
    e.placement = callsGraph ? std::string_view("cpu") : placementName(c);
    return e;
}

RValue Executor::Impl::evalCNode(const ir::CNode& c, const FramePtr& frame, const GraphPlan* p) {
    step(c);
    const ir::PrimitiveData* prim = c.primitive();
    if (prim == nullptr && c.size() == 0) {
        failAt(c, "A CNode without a callee.");
    }
    const bool observed = opts_.observer != nullptr && p != nullptr;
    const ResolvedPrim::Kind kind = prim ? resolve(*prim).kind : ResolvedPrim::Kind::Kernel;
    const bool callsGraph = prim == nullptr || kind == ResolvedPrim::Kind::Switch ||
                            kind == ResolvedPrim::Kind::Partial;
    KernelEvent e;
    if (observed) {
        e = event(c, *p, callsGraph);
        opts_.observer->beforeKernel(e, *this);
    }
    const std::uint64_t fallbacks = deviceStats_.fallbacks;
    RValue out;
    if (prim != nullptr) {
        out = applyPrimitive(c, *prim, callArgs(c, frame));
    } else {
        RValue callee = valueIn(c.input(0), frame);
        out = callValue(c, callee, callArgs(c, frame));
    }
    if (observed) {
        const ops::KernelArg shown = out.fn ? ops::KernelArg() : hostValue(out, true);
        e.stack = stack_;
        if (deviceStats_.fallbacks != fallbacks) {
            e.placement = "cpu";  // the device failed it: it ran on the CPU after all
        }
        opts_.observer->afterKernel(e, shown, *this);
    }
    return out;
}

RValue Executor::Impl::print(const std::vector<RValue>& args, const ir::CNode& site) {
    for (const RValue& a : args) {
        const ops::KernelArg k = hostArg(site, a);
        if (isPrintSkipped(k)) {
            continue;
        }
        if (opts_.print) {
            opts_.print(formatPrintInput(k));
        }
    }
    return RValue::of(ops::KernelArg(Tensor(DType::Int32, Shape{1})));
}

const ResolvedPrim& Executor::Impl::resolve(const ir::PrimitiveData& prim) {
    auto it = resolved_.find(&prim);
    if (it != resolved_.end()) {
        return it->second;
    }
    using K = ResolvedPrim::Kind;
    static const std::unordered_map<std::string_view, K> structural = {
        {"MakeTuple", K::MakeTuple},       {"MakeList", K::MakeTuple},
        {"make_list", K::MakeTuple},       {"TupleGetItem", K::TupleGetItem},
        {"ListGetItem", K::TupleGetItem},  {"tuple_getitem", K::TupleGetItem},
        {"list_getitem", K::TupleGetItem}, {"Depend", K::Forward},
        {"StopGradient", K::Forward},      {"stop_gradient", K::Forward},
        {"Return", K::Forward},            {"UpdateState", K::UpdateState},
        {"Switch", K::Switch},             {"Partial", K::Partial},
        {"Print", K::Print},
    };
    ResolvedPrim r;
    if (const auto s = structural.find(prim.name); s != structural.end()) {
        r.kind = s->second;
    } else {
        r.op = findOp(prim.name);
        r.variadic = r.op != nullptr &&
                     std::any_of(r.op->inputs.begin(), r.op->inputs.end(),
                                 [](const ops::ArgSpec& a) { return a.variadic; });
    }
    return resolved_.emplace(&prim, r).first->second;
}

RValue Executor::Impl::applyPrimitive(const ir::CNode& site, const ir::PrimitiveData& prim,
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
    const ResolvedPrim& r = resolve(prim);
    switch (r.kind) {
        case ResolvedPrim::Kind::MakeTuple:
            return makeTuple(std::move(args));
        case ResolvedPrim::Kind::TupleGetItem:
            need(2);
            return tupleItem(site, args[0], args[1]);
        case ResolvedPrim::Kind::Forward:  // Depend, StopGradient, Return
            need(1);
            return std::move(args[0]);
        case ResolvedPrim::Kind::UpdateState:
            return RValue::of(ops::KernelArg(ir::Value::monadValue(ir::MonadKind::U)));
        case ResolvedPrim::Kind::Switch:
            need(3);
            return truthOf(site, hostCondition(args[0])) ? std::move(args[1])
                                                         : std::move(args[2]);
        case ResolvedPrim::Kind::Partial: {
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
        case ResolvedPrim::Kind::Print:
            return print(args, site);
        case ResolvedPrim::Kind::Kernel:
            break;
    }
    const ops::OpDef* op = r.op;
    if (op == nullptr || !op->cpuKernel) {
        failAt(site, "The primitive '" + name + "' has no CPU kernel.", "RuntimeError");
    }
    ++kernels_;
    std::vector<ops::KernelArg> inputs;
    inputs.reserve(args.size());
    for (const RValue& a : args) {
        inputs.push_back(toKernel(site, a));
    }
    // MindSpore 2.x dumps pass constructor attributes as trailing inputs
    // (`ReduceSum(%x, (), Bool(0))`): map them back onto the registry's attributes.
    std::optional<ir::AttrMap> mapped;  // prim.attrs plus the trailing inputs, when any
    if (!r.variadic && inputs.size() > op->inputs.size()) {
        mapped = prim.attrs;
        std::size_t extra = inputs.size() - op->inputs.size();
        for (std::size_t k = 0; k < extra && k < op->attrs.size(); ++k) {
            const ops::KernelArg& in = inputs[op->inputs.size() + k];
            if (in.isValue() && in.value() && in.value()->kind != ir::Value::Kind::Monad) {
                mapped->set(op->attrs[k].name, in.value());
            }
        }
        // Monads stay (the kernels ignore an absent or monad trailing input).
        inputs.resize(op->inputs.size());
    }
    const ir::AttrMap& attrs = mapped ? *mapped : prim.attrs;
    ops::KernelArg out = runKernel(site, *op, attrs, std::move(inputs));
    meter_.produced(out);
    return RValue::of(std::move(out));
}

ops::KernelArg Executor::Impl::runOnCpu(const ir::CNode& site, const ops::OpDef& op,
                                        const ir::AttrMap& attrs,
                                        std::span<const ops::KernelArg> inputs) {
    try {
        return ops::OpRegistry::instance().run(op, attrs, inputs);
    } catch (const EvalError&) {
        throw;
    } catch (const ops::OpError& e) {
        failAt(site, e.what(), std::string(ops::errorKindName(e.kind())));
    } catch (const std::exception& e) {
        failAt(site, e.what());
    }
}

ops::KernelArg Executor::Impl::run(std::span<const ops::KernelArg> inputs,
                                   const std::map<std::string, Tensor, std::less<>>& weights,
                                   RunStats* stats) {
    const ir::FuncGraph* entry = m_.entry();
    if (entry == nullptr) {
        throw EvalError("The module has no entry graph.", "RuntimeError");
    }
    const auto start = std::chrono::steady_clock::now();
    globals_.clear();
    stack_.clear();
    frames_.clear();
    releaseRunFrames();
    meter_.reset();
    depth_ = 0;
    steps_ = 0;
    kernels_ = 0;
    stackLimit_ = stackLimit();
    beginDeviceRun();
    std::vector<RValue> args;
    std::unordered_set<const void*> shared;  // storage of the weights and inputs
    std::size_t next = 0;
    for (const ir::Parameter* p : entry->parameters()) {
        if (p->hasDefault()) {
            const auto it = weights.find(p->name());
            if (it == weights.end()) {
                throw EvalError("The weight '" + p->name() + "' of graph @" + entry->name() +
                                    " has no bound value (no Parameter named '" + p->name() +
                                    "').",
                                "RuntimeError");
            }
            // A Parameter owns its storage: the run reads and writes the caller's tensor.
            RValue w = RValue::of(ops::KernelArg(it->second));
            shared.insert(it->second.storageId());
            meter_.exclude(it->second);
            globals_[p] = w;
            args.push_back(std::move(w));
            continue;
        }
        if (next >= inputs.size()) {
            break;
        }
        const ops::KernelArg& in = inputs[next++];
        if (in.isTensor()) {
            shared.insert(in.tensor().storageId());
            meter_.exclude(in.tensor());
        }
        RValue v = RValue::of(in);
        globals_[p] = v;
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
    struct Finish {
        Impl& ex;
        ~Finish() {
            ex.globals_.clear();
            ex.releaseRunFrames();
            try {
                ex.endDeviceRun();  // weights written on the device go back (no-op if done)
            } catch (const std::exception&) {
            }
            if (ex.opts_.observer != nullptr) {
                ex.opts_.observer->runFinished();
            }
        }
    } finish{*this};
    if (opts_.observer != nullptr) {
        opts_.observer->runStarted(m_, *this);
    }
    const RValue out = runGraph(entry, nullptr, std::move(args), nullptr);
    ops::KernelArg result = detach(hostValue(RValue::of(outputOf(out, entry->name()))), shared);
    endDeviceRun();
    if (stats != nullptr) {
        stats->device = opts_.device ? opts_.device->info().name : std::string("cpu");
        stats->millis = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        stats->kernels = kernels_;
        stats->peakBytes = meter_.peakBytes();
        stats->plannedPeakBytes = plan_->plannedPeakBytes;
        fillDeviceStats(*stats);
    }
    return result;
}

// ---------------------------------------------------------------------------------------
// The public face

std::shared_ptr<const ModulePlan> planExecution(const ir::Module& m) {
    auto plan = std::make_shared<ModulePlan>();
    plan->graphs = planModule(m);
    plan->owners = freeVariableOwners(m);
    plan->plannedPeakBytes = plannedPeakBytes(m);
    return plan;
}

Executor::Executor(const ir::Module& m, ExecOptions opts, std::shared_ptr<const ModulePlan> plan)
    : impl_(std::make_unique<Impl>(m, std::move(opts), std::move(plan))) {}

Executor::~Executor() = default;

ops::KernelArg Executor::run(std::span<const ops::KernelArg> inputs,
                             const std::map<std::string, Tensor, std::less<>>& weights,
                             RunStats* stats) {
    return impl_->run(inputs, weights, stats);
}

std::string Executor::placementOf(const ir::CNode& n) const {
    return std::string(impl_->placementName(n));
}

}  // namespace irscope::runtime
