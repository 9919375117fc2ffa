// The memory plan of a kernel graph: one buffer per tensor-producing kernel, live from its
// definition to its last use in the execution order, placed first-fit by offset.
#include <algorithm>
#include <set>
#include <unordered_map>

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
    return c->isPrimitive("Assign") || c->isPrimitive("AssignAdd") || c->isPrimitive("AssignSub");
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

}  // namespace

MemoryPlan planMemory(const ir::FuncGraph& g, const std::vector<CNode*>& order,
                      const std::unordered_map<const ir::FuncGraph*, std::uint64_t>& calleePeaks) {
    MemoryPlan plan;
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
            if (c->isPrimitive("Load") || c->isPrimitive("UpdateState")) {
                continue;  // a weight's storage, a state
            }
            // Depend and single-input views forward input 1; tuples collect every input.
            const bool all = c->isPrimitive("MakeTuple") || c->isPrimitive("MakeList");
            const std::size_t last = all ? c->size() : std::min<std::size_t>(c->size(), 2);
            for (std::size_t i = 1; i < last; ++i) {
                auto it = sources.find(c->input(i));
                if (it != sources.end()) {
                    own.insert(own.end(), it->second.begin(), it->second.end());
                }
            }
            continue;
        }
        if (writesInPlace(c)) {
            continue;
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
    // First fit by offset among the buffers live at each definition.
    std::vector<std::size_t> live;  // buffer indices
    std::size_t next = 0;
    for (std::size_t t = 0; t < order.size(); ++t) {
        std::erase_if(live, [&](std::size_t b) { return plan.buffers[b].lastUse < t; });
        for (; next < plan.buffers.size() && plan.buffers[next].def == t; ++next) {
            Buffer& buf = plan.buffers[next];
            std::sort(live.begin(), live.end(), [&](std::size_t a, std::size_t b) {
                return plan.buffers[a].offset < plan.buffers[b].offset;
            });
            std::uint64_t at = 0;
            for (std::size_t b : live) {
                if (plan.buffers[b].offset >= at + buf.size) {
                    break;  // the gap before b fits
                }
                at = std::max(at, plan.buffers[b].offset + plan.buffers[b].size);
            }
            buf.offset = at;
            live.push_back(next);
            plan.peakBytes = std::max(plan.peakBytes, at + buf.size);
        }
        // A call runs its graph above everything live here.
        if (const ir::FuncGraph* callee = order[t]->calledGraph()) {
            auto it = calleePeaks.find(callee);
            if (it != calleePeaks.end()) {
                std::uint64_t top = 0;
                for (std::size_t b : live) {
                    top = std::max(top, plan.buffers[b].offset + plan.buffers[b].size);
                }
                plan.peakBytes = std::max(plan.peakBytes, top + it->second);
            }
        }
    }
    return plan;
}

}  // namespace irscope::passes::backend
