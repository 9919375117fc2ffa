// loop_unroll: a while loop on a tensor condition is kept by type_inference as a header
// graph `↵g` (evaluates the condition, `Switch(cond, Partial(@↻g, ...), Partial(@↓g,
// ...))()`) and a body graph `↻g` that tail-calls the header again. When, after constant
// folding, the condition is a compile-time constant in every iteration (the loop counter is
// a constant tensor, `i = Tensor(0); while i < 3: ...; i = i + 1`), the trip count is known
// and the loop is unrolled where it is entered: the header and body are inlined once per
// iteration and the exit branch once at the end, so later passes see straight-line code.
//
// The trip count is found first by evaluating only what the condition needs, iteration by
// iteration, on the constants known at the call; the IR is changed only when every
// condition folds. A loop that runs more than the limit is a CompileError at its line.
#include <algorithm>
#include <optional>
#include <unordered_map>

#include "ir/prim_names.h"
#include "passes/compile_error.h"
#include "passes/inline.h"
#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;
using ir::ValuePtr;

namespace {

Node* stripDepend(Node* n) {
    auto* c = ir::nodeCast<CNode>(n);
    while (c != nullptr && c->isPrimitive(ir::prim::kDepend) && c->size() == 3) {
        n = c->input(1);
        c = ir::nodeCast<CNode>(n);
    }
    return n;
}

FuncGraph* branchGraph(const Node* b) {
    if (const auto* v = ir::nodeCast<ValueNode>(b)) {
        return v->value()->kind == Value::Kind::Graph ? v->value()->graph : nullptr;
    }
    const auto* p = ir::nodeCast<CNode>(b);
    if (p != nullptr && p->isPrimitive(ir::prim::kPartial) && p->size() >= 2) {
        return branchGraph(p->input(1));
    }
    return nullptr;
}

// A loop header and its body, as type_inference leaves a tensor-condition while loop.
struct Loop {
    FuncGraph* header = nullptr;
    CNode* switchCall = nullptr;  // %s(args) in the header
    CNode* sw = nullptr;          // Switch(cond, body branch, exit branch)
    FuncGraph* body = nullptr;
    CNode* backEdge = nullptr;  // the body's tail call of the header
};

std::optional<Loop> loopOf(FuncGraph* h) {
    if (h->returnNode() == nullptr) {
        return std::nullopt;
    }
    Loop l;
    l.header = h;
    l.switchCall = ir::nodeCast<CNode>(stripDepend(h->output()));
    if (l.switchCall == nullptr) {
        return std::nullopt;
    }
    l.sw = ir::nodeCast<CNode>(l.switchCall->callee());
    if (l.sw == nullptr || !l.sw->isPrimitive(ir::prim::kSwitch) || l.sw->size() != 4 ||
        l.sw->graph() != h) {
        return std::nullopt;
    }
    l.body = branchGraph(l.sw->input(2));
    if (l.body == nullptr || l.body == h || l.body->returnNode() == nullptr ||
        branchGraph(l.sw->input(3)) == nullptr) {
        return std::nullopt;
    }
    l.backEdge = ir::nodeCast<CNode>(stripDepend(l.body->output()));
    if (l.backEdge == nullptr || l.backEdge->calledGraph() != h) {
        return std::nullopt;
    }
    return l;
}

class Unroller {
public:
    // Nested loops multiply: past this many live nodes unrolling stops with an error.
    static constexpr std::size_t kMaxNodes = 4'000'000;

    Unroller(ir::Module& m, int maxIterations) : m_(m), max_(maxIterations) {}

    bool run() {
        bool changed = false;
        std::unordered_set<std::uint64_t> tried;  // call sites whose trip count is unknown
        for (bool again = true; again;) {
            again = false;
            const auto recursive = opt::recursiveGraphs(m_);
            for (FuncGraph* caller : m_.reachableGraphs()) {
                for (CNode* call : caller->topoOrder()) {
                    FuncGraph* h = call->calledGraph();
                    if (h == nullptr || !recursive.count(h) || tried.count(call->id())) {
                        continue;
                    }
                    const auto loop = loopOf(h);
                    if (!loop || caller == loop->body || caller == h) {
                        continue;  // not a loop entry (the back edge is the body's own call)
                    }
                    const auto trips = tripCount(*loop, call);
                    if (!trips) {
                        tried.insert(call->id());
                        continue;
                    }
                    if (m_.liveNodeCount() > kMaxNodes) {
                        throw CompileError("RuntimeError",
                                           "loop_unroll: the graph grows beyond " +
                                               std::to_string(kMaxNodes) +
                                               " nodes while unrolling '" + h->name() + "'.",
                                           opt::locationOf(loop->sw));
                    }
                    unroll(*loop, call, *trips);
                    changed = again = true;
                    break;
                }
                if (again) {
                    break;
                }
            }
        }
        if (changed) {
            opt::eraseUnreachableGraphs(m_);
        }
        return changed;
    }

private:
    using Env = std::unordered_map<const Node*, ValuePtr>;

    // The constant n has when the parameters have the values in env (nullptr: unknown).
    // Nodes of other graphs (free variables) are unknown unless constants.
    static ValuePtr eval(Node* root, Env& env) {
        if (const auto* v = ir::nodeCast<ValueNode>(root)) {
            return v->value();
        }
        if (auto it = env.find(root); it != env.end() || root->isParameter()) {
            return it != env.end() ? it->second : nullptr;
        }
        std::vector<CNode*> stack{static_cast<CNode*>(root)};
        while (!stack.empty()) {
            CNode* c = stack.back();
            if (env.count(c)) {
                stack.pop_back();
                continue;
            }
            bool pending = false;
            std::vector<ValuePtr> inputs;
            for (std::size_t i = 1; i < c->size(); ++i) {
                Node* in = c->input(i);
                if (const auto* v = ir::nodeCast<ValueNode>(in)) {
                    inputs.push_back(v->value());
                } else if (auto it = env.find(in); it != env.end()) {
                    inputs.push_back(it->second);
                } else if (in->isCNode() && in->graph() == c->graph()) {
                    stack.push_back(static_cast<CNode*>(in));
                    pending = true;
                } else {
                    inputs.push_back(nullptr);  // an unbound parameter or a free variable
                }
            }
            if (!pending) {
                env[c] = opt::foldedValue(c, inputs);
                stack.pop_back();
            }
        }
        return env.at(root);
    }

    // The arguments the header's Switch call passes to the body: the Partial's bound ones,
    // then the call's own.
    static std::vector<Node*> bodyArguments(const Loop& l) {
        std::vector<Node*> args;
        if (const auto* p = ir::nodeCast<CNode>(l.sw->input(2))) {
            args.insert(args.end(), p->inputs().begin() + 2, p->inputs().end());
        }
        args.insert(args.end(), l.switchCall->inputs().begin() + 1, l.switchCall->inputs().end());
        return args;
    }

    // How many times the body runs when the loop is entered by `call`, if every condition
    // folds. Throws CompileError past the limit.
    std::optional<int> tripCount(const Loop& l, const CNode* call) const {
        const std::vector<Node*> toBody = bodyArguments(l);
        const auto& hp = l.header->parameters();
        const auto& bp = l.body->parameters();
        if (call->size() - 1 != hp.size() || toBody.size() != bp.size() ||
            l.backEdge->size() - 1 != hp.size()) {
            return std::nullopt;
        }
        // Only the loop variables the condition depends on (through any number of
        // iterations) are evaluated: the others may be large tensors folded for nothing.
        const Needed needed = conditionVariables(l, toBody);
        std::vector<ValuePtr> args(hp.size());
        for (std::size_t i = 0; i < hp.size(); ++i) {
            const auto* v = ir::nodeCast<ValueNode>(call->input(i + 1));
            args[i] = needed.header[i] && v != nullptr ? v->value() : nullptr;
        }
        for (int trips = 0;; ++trips) {
            Env header;
            for (std::size_t i = 0; i < hp.size(); ++i) {
                header[hp[i]] = args[i];
            }
            const auto cond = opt::truthOf(eval(l.sw->input(1), header));
            if (!cond) {
                return std::nullopt;
            }
            if (!*cond) {
                return trips;
            }
            if (trips == max_) {
                const ir::SourceLocation where = opt::locationOf(l.sw->input(1));
                throw CompileError("RuntimeError",
                                   "loop_unroll: the while loop '" + l.header->name() +
                                       "' still runs after " + std::to_string(max_) +
                                       " iterations; its condition is constant, so it may "
                                       "never end.",
                                   where.line != 0 ? where : opt::locationOf(l.sw));
            }
            Env body;
            for (std::size_t j = 0; j < bp.size(); ++j) {
                body[bp[j]] = needed.body[j] ? eval(toBody[j], header) : nullptr;
            }
            for (std::size_t i = 0; i < hp.size(); ++i) {
                args[i] = needed.header[i] ? eval(l.backEdge->input(i + 1), body) : nullptr;
            }
        }
    }

    // The parameters a node of g depends on, within g.
    static std::vector<const Node*> parametersOf(Node* root) {
        std::vector<const Node*> params;
        std::unordered_set<const Node*> seen{root};
        std::vector<Node*> work{root};
        while (!work.empty()) {
            Node* n = work.back();
            work.pop_back();
            if (n->isParameter() && n->graph() == root->graph()) {
                params.push_back(n);
            }
            if (auto* c = ir::nodeCast<CNode>(n); c != nullptr && c->graph() == root->graph()) {
                for (Node* in : c->inputs()) {
                    if (seen.insert(in).second) {
                        work.push_back(in);
                    }
                }
            }
        }
        return params;
    }

    template <typename T>
    static std::size_t indexOf(const std::vector<T*>& v, const Node* n) {
        return static_cast<std::size_t>(std::find(v.begin(), v.end(), n) - v.begin());
    }

    // The loop variables (header and body parameters) the loop condition depends on, in
    // this iteration or a later one (through the body's back edge).
    struct Needed {
        std::vector<bool> header;
        std::vector<bool> body;
    };

    static Needed conditionVariables(const Loop& l, const std::vector<Node*>& toBody) {
        const auto& hp = l.header->parameters();
        const auto& bp = l.body->parameters();
        Needed needed{std::vector<bool>(hp.size(), false), std::vector<bool>(bp.size(), false)};
        std::vector<Node*> work{l.sw->input(1)};  // header nodes whose parameters count
        while (!work.empty()) {
            Node* root = work.back();
            work.pop_back();
            for (const Node* p : parametersOf(root)) {
                const std::size_t i = indexOf(hp, p);
                if (i == hp.size() || needed.header[i]) {
                    continue;
                }
                needed.header[i] = true;
                // Header parameter i next time is the back edge's argument i, computed from
                // body parameters, which the header passes.
                for (const Node* q : parametersOf(l.backEdge->input(i + 1))) {
                    const std::size_t j = indexOf(bp, q);
                    if (j < bp.size() && !needed.body[j]) {
                        needed.body[j] = true;
                        work.push_back(toBody[j]);
                    }
                }
            }
        }
        return needed;
    }

    // Inlines the header trips + 1 times and the body trips times, choosing each Switch's
    // branch once its condition folded; the exit branch is inlined at the end.
    void unroll(const Loop& l, CNode* call, int trips) {
        FuncGraph* caller = call->graph();
        const std::uint64_t place = call->id();
        const std::uint64_t upTo = opt::maxNodeId(m_);
        CNode* enter = call;
        for (int i = 0;; ++i) {
            Node* out = stripDepend(inlineCall(m_, enter, 0, false));
            auto* switchCall = ir::nodeCast<CNode>(out);
            auto* sw = switchCall != nullptr ? ir::nodeCast<CNode>(switchCall->callee()) : nullptr;
            if (sw == nullptr || !sw->isPrimitive(ir::prim::kSwitch)) {
                throw CompileError("RuntimeError", "loop_unroll: unexpected loop header shape",
                                   opt::locationOf(l.sw));
            }
            opt::foldCone(m_, sw->input(1));
            CNode* direct = opt::callSelectedBranch(m_, switchCall);
            if (direct == nullptr || (i < trips) != (direct->calledGraph() == l.body)) {
                throw CompileError("RuntimeError",
                                   "loop_unroll: the condition of '" + l.header->name() +
                                       "' did not fold as predicted",
                                   opt::locationOf(l.sw));
            }
            if (i == trips) {
                if (isInlinableCall(direct, opt::recursiveGraphs(m_))) {
                    inlineCall(m_, direct, 0, false);
                }
                break;
            }
            enter = ir::nodeCast<CNode>(stripDepend(inlineCall(m_, direct, 0, false)));
            if (enter == nullptr || enter->calledGraph() != l.header) {
                throw CompileError("RuntimeError", "loop_unroll: unexpected loop body shape",
                                   opt::locationOf(l.backEdge));
            }
        }
        // The caller's statements after the loop run after its unrolled iterations.
        opt::renumberAfter(m_, caller, place, upTo);
    }

    ir::Module& m_;
    int max_;
};

}  // namespace

std::unique_ptr<Pass> makeLoopUnrollPass(int maxIterations) {
    return makePass(
        "loop_unroll",
        "Unrolls a while loop on a tensor whose condition became known at compile time: the "
        "loop body is copied once per iteration.",
        [maxIterations](ir::Module& m, PassContext&) { return Unroller(m, maxIterations).run(); });
}

}  // namespace irscope::passes
