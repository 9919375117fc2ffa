#include "ir/local_names.h"

#include <fmt/format.h>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <unordered_set>

namespace irscope::ir {

namespace {

constexpr std::size_t kVisiting = SIZE_MAX;

class Numbering {
public:
    explicit Numbering(LocalNames& out) : out_(out) {}

    void run(const Module& m) {
        std::unordered_set<const FuncGraph*> placed;
        for (FuncGraph* g : m.reachableGraphs()) {
            if (placed.insert(g).second) {
                out_.order.push_back(g);
            }
        }
        for (FuncGraph* g : m.graphs()) {
            if (placed.insert(g).second) {
                out_.order.push_back(g);
            }
        }
        std::size_t k = 1;
        for (const FuncGraph* g : out_.order) {
            for (const Parameter* p : g->parameters()) {
                out_.para[p] = k++;
            }
        }
        std::deque<const CNode*> queue;
        for (const FuncGraph* g : out_.order) {
            next_[g] = 0;
            for (const CNode* c : bodyOf(g)) {
                if (c != g->returnNode()) {
                    out_.number[c] = next_[g]++;
                    out_.bodies[g].push_back(c);
                }
                queue.push_back(c);
            }
        }
        // Nodes of a graph that only other graphs use are numbered after that graph's body,
        // in the order the uses are met.
        while (!queue.empty()) {
            const CNode* n = queue.front();
            queue.pop_front();
            for (const Node* in : n->inputs()) {
                const auto* c = nodeCast<CNode>(in);
                if (c != nullptr && c->graph() != n->graph() && next_.count(c->graph()) != 0 &&
                    out_.number.count(c) == 0 && c != c->graph()->returnNode()) {
                    addExtras(c, queue);
                }
            }
        }
    }

private:
    // The graph's body: its topological order, or for a graph read from a dump that has nodes
    // its Return does not reach (analyze_fail.ir), every node in the order it was read.
    static std::vector<CNode*> bodyOf(const FuncGraph* g) {
        if (!g->debug().dump || !g->debug().dump->keepAllNodes) {
            return g->topoOrder();
        }
        std::vector<CNode*> all;
        for (Node* n : g->ownedNodes()) {
            if (auto* c = nodeCast<CNode>(n); c != nullptr && c != g->returnNode()) {
                all.push_back(c);
            }
        }
        std::sort(all.begin(), all.end(),
                  [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
        if (g->returnNode() != nullptr) {
            all.push_back(g->returnNode());
        }
        return all;
    }

    // Numbers `root` and its not yet numbered same-graph inputs, inputs first.
    void addExtras(const CNode* root, std::deque<const CNode*>& queue) {
        struct Frame {
            const CNode* node;
            std::size_t next;
        };
        std::vector<Frame> stack{{root, 0}};
        out_.number.emplace(root, kVisiting);
        while (!stack.empty()) {
            Frame& top = stack.back();
            if (top.next < top.node->size()) {
                const auto* c = nodeCast<CNode>(top.node->input(top.next++));
                if (c != nullptr && c->graph() == root->graph() &&
                    c != root->graph()->returnNode() && out_.number.emplace(c, kVisiting).second) {
                    stack.push_back({c, 0});  // invalidates `top`
                }
                continue;
            }
            out_.number[top.node] = next_[root->graph()]++;
            out_.bodies[root->graph()].push_back(top.node);
            queue.push_back(top.node);
            stack.pop_back();
        }
    }

    LocalNames& out_;
    std::unordered_map<const FuncGraph*, std::size_t> next_;
};

}  // namespace

std::string LocalNames::of(const Node& n) const {
    if (const auto* p = nodeCast<Parameter>(&n)) {
        auto it = para.find(p);
        return it == para.end() ? "%para_" + p->name()
                                : "%para" + std::to_string(it->second) + "_" + p->name();
    }
    if (const auto* c = nodeCast<CNode>(&n)) {
        auto it = number.find(c);
        if (it != number.end() && it->second != kVisiting) {
            return fmt::format("%{}", it->second);
        }
    }
    return {};
}

const std::vector<const CNode*>& LocalNames::body(const FuncGraph* g) const {
    static const std::vector<const CNode*> kEmpty;
    auto it = bodies.find(g);
    return it == bodies.end() ? kEmpty : it->second;
}

LocalNames localNames(const Module& m) {
    LocalNames names;
    Numbering(names).run(m);
    return names;
}

}  // namespace irscope::ir
