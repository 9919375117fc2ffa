// The memory plan of a kernel graph: one buffer per tensor-producing kernel, live from its
// definition to its last use in the execution order, placed first-fit by offset.
#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/prim_names.h"
#include "ops/op_registry.h"
#include "passes/task_emit.h"

namespace irscope::passes::backend {

namespace {

using ir::CNode;
using ir::Node;

// Kernels whose output is a view of (or no more than) their inputs: no buffer of their own.
bool isView(const CNode* c) {
    static const std::set<std::string, std::less<>> views = {
        "Load",    "Depend",     "UpdateState", "MakeTuple", "TupleGetItem", "Reshape",
        "Squeeze", "ExpandDims", "Flatten",     "Return",    "StopGradient", "MakeList",
    };
    const ir::PrimitiveData* p = c->primitive();
    return p != nullptr && views.count(p->name) != 0;
}

// Kernels that write a weight in place (its storage is the weight's, not counted).
bool writesInPlace(const CNode* c) {
    const ir::PrimitiveData* p = c->primitive();
    const ops::OpDef* op = p != nullptr ? ops::OpRegistry::instance().find(p->name) : nullptr;
    return op != nullptr && op->sideEffectMem && !op->writes.empty();
}

std::uint64_t tensorBytes(const ir::AbstractPtr& a) {
    if (!a) {
        return 0;
    }
    switch (a->kind) {
        case ir::Abstract::Kind::Tensor: {
            const std::int64_t n = a->shape.elementCount();
            return n > 0 ? static_cast<std::uint64_t>(n) * ir::dtypeSize(a->dtype) : 0;
        }
        case ir::Abstract::Kind::Tuple:
        case ir::Abstract::Kind::List: {
            std::uint64_t sum = 0;
            for (const auto& e : a->elements) {
                sum += tensorBytes(e);
            }
            return sum;
        }
        default:
            return 0;  // scalars live on the host, Refs are weights, monads are nothing
    }
}

std::uint64_t aligned(std::uint64_t bytes) {
    return (bytes + kMemAlign - 1) / kMemAlign * kMemAlign;
}

// The graphs a function-valued node may be, with the nodes Partials bind on the way.
void collectCallees(const Node* fn, std::vector<const ir::FuncGraph*>& out, int depth) {
    if (fn == nullptr || depth > 64) {
        return;  // a chain of Partials that long is not a program irscope plans
    }
    if (const auto* v = ir::nodeCast<ir::ValueNode>(fn)) {
        if (v->value() && v->value()->kind == ir::Value::Kind::Graph && v->value()->graph) {
            if (std::find(out.begin(), out.end(), v->value()->graph) == out.end()) {
                out.push_back(v->value()->graph);
            }
        }
        return;
    }
    const auto* c = ir::nodeCast<CNode>(fn);
    if (c == nullptr) {
        return;  // a parameter: any function
    }
    if (c->isPrimitive(ir::prim::kSwitch) && c->size() == 4) {
        collectCallees(c->input(2), out, depth + 1);
        collectCallees(c->input(3), out, depth + 1);
    } else if (c->isPrimitive(ir::prim::kPartial) && c->size() > 1) {
        collectCallees(c->input(1), out, depth + 1);
    } else if (c->isPrimitive(ir::prim::kDepend) && c->size() > 1) {
        collectCallees(c->input(1), out, depth + 1);
    }
}

bool isCallOfValue(const CNode* n) {
    return n->callee() != nullptr && n->primitive() == nullptr;
}

bool onlyUsedBy(const Node* n, const CNode* user) {
    for (const ir::Use& u : n->users()) {
        if (u.user != user) {
            return false;
        }
    }
    return !n->users().empty();
}

}  // namespace

std::vector<const CNode*> tailCallChain(const ir::FuncGraph& g) {
    const CNode* ret = g.returnNode();
    std::vector<const CNode*> path;
    if (ret == nullptr) {
        return path;
    }
    const CNode* user = ret;
    const Node* n = ret->size() > 1 ? ret->input(1) : nullptr;
    while (const auto* c = ir::nodeCast<CNode>(n)) {
        if (c->graph() != &g || !onlyUsedBy(c, user)) {
            break;
        }
        if (c->isPrimitive(ir::prim::kDepend) && c->size() > 1) {
            path.push_back(c);
            user = c;
            n = c->input(1);
            continue;
        }
        if (isCallOfValue(c)) {
            path.push_back(c);
            return path;
        }
        break;
    }
    return {};
}

std::vector<const ir::FuncGraph*> graphsCalledBy(const CNode& call) {
    std::vector<const ir::FuncGraph*> out;
    if (call.primitive() == nullptr && call.size() > 0) {
        collectCallees(call.input(0), out, 0);
    }
    return out;
}

std::uint64_t paramBytes(const ir::FuncGraph& g, const std::unordered_set<const Node*>& inputs) {
    if (g.module() != nullptr && g.module()->entry() == &g) {
        return 0;  // the run's inputs
    }
    std::uint64_t sum = 0;
    for (const auto* p : g.parameters()) {
        if (inputs.count(p) == 0) {
            sum += aligned(tensorBytes(p->abstract()));
        }
    }
    return sum;
}

std::unordered_set<const Node*> inputParameters(const ir::Module& m) {
    // What each parameter is bound to: by Partials, direct calls and calls of computed
    // functions (after the arguments the Partials on the way bind).
    std::unordered_map<const Node*, std::vector<const Node*>> bound;
    auto bind = [&](const ir::FuncGraph& g, std::size_t first, const CNode& c, std::size_t from) {
        const auto& params = g.parameters();
        for (std::size_t i = from; i < c.size() && first + (i - from) < params.size(); ++i) {
            bound[params[first + (i - from)]].push_back(c.input(i));
        }
    };
    for (const ir::FuncGraph* g : m.graphs()) {
        for (const CNode* c : g->topoOrder()) {
            if (c->isPrimitive(ir::prim::kPartial) && c->size() > 1) {
                std::vector<const ir::FuncGraph*> direct;
                if (ir::nodeCast<ir::ValueNode>(c->input(1)) != nullptr) {
                    collectCallees(c->input(1), direct, 0);
                }
                for (const ir::FuncGraph* h : direct) {
                    bind(*h, 0, *c, 2);
                }
                continue;
            }
            if (c->primitive() != nullptr || c->size() == 0) {
                continue;
            }
            for (const ir::FuncGraph* h : graphsCalledBy(*c)) {
                // The Partial on the way to h binds its leading parameters.
                std::size_t nbound = 0;
                for (const Node* fn = c->input(0);;) {
                    const auto* f = ir::nodeCast<CNode>(fn);
                    if (f == nullptr) {
                        break;
                    }
                    if (f->isPrimitive(ir::prim::kPartial) && f->size() > 1) {
                        nbound = f->size() - 2;
                        break;
                    }
                    if (f->isPrimitive(ir::prim::kSwitch) && f->size() == 4) {
                        std::vector<const ir::FuncGraph*> left;
                        collectCallees(f->input(2), left, 0);
                        fn = std::find(left.begin(), left.end(), h) != left.end() ? f->input(2)
                                                                                  : f->input(3);
                        continue;
                    }
                    if (f->isPrimitive(ir::prim::kDepend) && f->size() > 1) {
                        fn = f->input(1);
                        continue;
                    }
                    break;
                }
                bind(*h, nbound, *c, 1);
            }
        }
    }
    // The largest set closed under "bound only to constants, entry parameters or members".
    std::unordered_set<const Node*> inputs;
    for (const ir::FuncGraph* g : m.graphs()) {
        for (const auto* p : g->parameters()) {
            if (g == m.entry() || bound.count(p) != 0) {
                inputs.insert(p);
            }
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = inputs.begin(); it != inputs.end();) {
            const auto b = bound.find(*it);
            const bool keep =
                b == bound.end() ||
                std::all_of(b->second.begin(), b->second.end(), [&](const Node* a) {
                    return ir::nodeCast<ir::ValueNode>(a) != nullptr || inputs.count(a) != 0;
                });
            if (keep) {
                ++it;
            } else {
                it = inputs.erase(it);
                changed = true;
            }
        }
    }
    return inputs;
}

MemoryPlan planMemory(const ir::FuncGraph& g, const std::vector<CNode*>& order,
                      const std::unordered_map<const ir::FuncGraph*, std::uint64_t>& calleePeaks,
                      const std::unordered_set<const Node*>& inputs) {
    MemoryPlan plan;
    plan.paramBytes = paramBytes(g, inputs);
    plan.peakBytes = plan.paramBytes;
    const std::vector<const CNode*> tail = tailCallChain(g);
    const CNode* tailCall = tail.empty() ? nullptr : tail.back();
    std::unordered_map<const Node*, std::size_t> position;
    for (std::size_t t = 0; t < order.size(); ++t) {
        position[order[t]] = t;
    }
    // The buffers a node's value lives in: its own, or through views its inputs'.
    std::unordered_map<const Node*, std::vector<std::size_t>> sources;
    for (std::size_t t = 0; t < order.size(); ++t) {
        const CNode* c = order[t];
        std::vector<std::size_t>& own = sources[c];
        if (isView(c)) {
            if (c->isPrimitive(ir::prim::kLoad) || c->isPrimitive(ir::prim::kUpdateState)) {
                continue;  // a weight's storage, a state
            }
            // Depend and single-input views forward input 1; tuples collect every input.
            const bool all =
                c->isPrimitive(ir::prim::kMakeTuple) || c->isPrimitive(ir::prim::kMakeList);
            const std::size_t last = all ? c->size() : std::min<std::size_t>(c->size(), 2);
            for (std::size_t i = 1; i < last; ++i) {
                auto it = sources.find(c->input(i));
                if (it != sources.end()) {
                    own.insert(own.end(), it->second.begin(), it->second.end());
                }
            }
            continue;
        }
        if (c->isPrimitive(ir::prim::kPartial) || c->isPrimitive(ir::prim::kSwitch)) {
            // A function value holds what it binds (a Switch: either branch) until called.
            for (std::size_t i = c->isPrimitive(ir::prim::kSwitch) ? 2 : 1; i < c->size(); ++i) {
                auto it = sources.find(c->input(i));
                if (it != sources.end()) {
                    own.insert(own.end(), it->second.begin(), it->second.end());
                }
            }
            continue;
        }
        if (writesInPlace(c) || c == tailCall) {
            continue;  // a weight's storage; the tail callee's output, counted in its frame
        }
        const std::uint64_t bytes = tensorBytes(c->abstract());
        if (bytes == 0) {
            continue;
        }
        own.push_back(plan.buffers.size());
        plan.buffers.push_back({c, aligned(bytes), 0, t, t});
    }
    // Lifetimes: to the last kernel reading the buffer, directly or through views; the
    // graph's output lives to the end.
    for (std::size_t t = 0; t < order.size(); ++t) {
        const CNode* c = order[t];
        const bool isReturn = c == g.returnNode();
        for (std::size_t i = 1; i < c->size(); ++i) {
            auto it = sources.find(c->input(i));
            if (it == sources.end()) {
                continue;
            }
            for (std::size_t b : it->second) {
                plan.buffers[b].lastUse =
                    std::max(plan.buffers[b].lastUse, isReturn ? order.size() : t);
            }
        }
    }
    // First fit by offset among the buffers live at each definition. The free space below
    // the highest live buffer's end (`top`) is kept as maximal gaps, so placing a buffer
    // looks at the gaps, not at every live buffer (a training step keeps thousands of
    // forward activations live into the backward pass: sorting and walking them for each
    // new buffer made this pass quadratic).
    std::map<std::uint64_t, std::uint64_t> gaps;  // offset -> length, below top
    std::uint64_t top = 0;
    using Expiry = std::pair<std::size_t, std::size_t>;  // (lastUse, buffer)
    std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries;
    const auto release = [&](const Buffer& buf) {
        std::uint64_t start = buf.offset;
        std::uint64_t end = buf.offset + buf.size;
        if (auto after = gaps.find(end); after != gaps.end()) {
            end += after->second;
            gaps.erase(after);
        }
        if (auto before = gaps.lower_bound(start); before != gaps.begin()) {
            --before;
            if (before->first + before->second == start) {
                start = before->first;
                gaps.erase(before);
            }
        }
        if (end >= top) {
            top = start;  // what lies just below `start` is live (else it would be a gap)
        } else {
            gaps.emplace(start, end - start);
        }
    };
    const auto place = [&](std::uint64_t size) {
        for (auto it = gaps.begin(); it != gaps.end(); ++it) {
            if (it->second >= size) {
                const std::uint64_t at = it->first;
                const std::uint64_t rest = it->second - size;
                gaps.erase(it);
                if (rest > 0) {
                    gaps.emplace(at + size, rest);
                }
                return at;
            }
        }
        const std::uint64_t at = top;
        top += size;
        return at;
    };
    std::size_t next = 0;
    for (std::size_t t = 0; t < order.size(); ++t) {
        while (!expiries.empty() && expiries.top().first < t) {
            release(plan.buffers[expiries.top().second]);
            expiries.pop();
        }
        // A call runs its graph above everything live here (its arguments among it), before
        // its result (the callee's output, counted in the callee) comes back; the tail
        // call's frame replaces this one.
        for (const ir::FuncGraph* callee : graphsCalledBy(*order[t])) {
            auto it = calleePeaks.find(callee);
            if (it == calleePeaks.end()) {
                continue;
            }
            const std::uint64_t own = paramBytes(*callee, inputs);
            const std::uint64_t peak =
                order[t] == tailCall
                    ? it->second
                    : plan.paramBytes + top + (it->second > own ? it->second - own : 0);
            plan.peakBytes = std::max(plan.peakBytes, peak);
        }
        for (; next < plan.buffers.size() && plan.buffers[next].def == t; ++next) {
            Buffer& buf = plan.buffers[next];
            buf.offset = place(buf.size);
            expiries.emplace(buf.lastUse, next);
            plan.peakBytes = std::max(plan.peakBytes, plan.paramBytes + buf.offset + buf.size);
        }
    }
    return plan;
}

PeakPlanner::PeakPlanner(const ir::Module& m, ExecutionOrders orders)
    : orders_(std::move(orders)), inputs_(inputParameters(m)) {}

std::uint64_t PeakPlanner::peak(const ir::FuncGraph* g) {
    if (auto it = peaks_.find(g); it != peaks_.end()) {
        return it->second;
    }
    if (g->returnNode() == nullptr || !inProgress_.insert(g).second) {
        return 0;  // a recursive call: counted once, by the outermost plan
    }
    // Each graph is planned once (peaks_), so its known order can be moved out.
    const auto known = orders_.find(g);
    const std::vector<CNode*> order =
        known != orders_.end() ? std::move(known->second) : executionOrder(*g);
    for (const CNode* c : order) {
        for (const ir::FuncGraph* callee : graphsCalledBy(*c)) {
            peak(callee);
        }
    }
    const std::uint64_t bytes = planMemory(*g, order, peaks_, inputs_).peakBytes;
    inProgress_.erase(g);
    peaks_[g] = bytes;
    return bytes;
}

}  // namespace irscope::passes::backend
