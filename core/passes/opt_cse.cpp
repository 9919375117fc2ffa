// cse: common subexpression elimination. Two pure nodes of one graph that call the same
// primitive (same attributes) on the same inputs compute the same value: the later one is
// replaced by the earlier. Never merged: side effects (Assign, Print), random ops, Loads,
// state nodes, calls of graphs or computed functions, and nodes with a monad or Ref input
// (two reads of a parameter at different states differ).
#include <cstring>
#include <functional>
#include <string_view>
#include <unordered_map>

#include "ir/monad.h"
#include "ir/prim_names.h"
#include "passes/opt_a.h"
#include "passes/opt_util.h"

namespace irscope::passes {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValueNode;

namespace {

void mix(std::size_t& h, std::size_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
}

std::size_t hashValue(const Value& v) {
    std::size_t h = static_cast<std::size_t>(v.kind);
    switch (v.kind) {
        case Value::Kind::Bool:
            mix(h, v.b ? 1 : 0);
            break;
        case Value::Kind::Int:
            mix(h, static_cast<std::size_t>(v.i));
            break;
        case Value::Kind::Float:
            mix(h, std::hash<double>{}(v.f));
            break;
        case Value::Kind::String:
        case Value::Kind::Opaque:
            mix(h, std::hash<std::string>{}(v.text));
            break;
        case Value::Kind::Type:
            mix(h, static_cast<std::size_t>(v.dtype));
            break;
        case Value::Kind::Graph:
            mix(h, std::hash<const void*>{}(v.graph));
            break;
        case Value::Kind::Primitive:
            mix(h, std::hash<std::string>{}(v.prim->name));
            break;
        case Value::Kind::Tensor:
            if (v.tensor) {
                mix(h, static_cast<std::size_t>(v.tensor->dtype));
                const auto& d = v.tensor->data;
                mix(h, std::hash<std::string_view>{}(
                           std::string_view(reinterpret_cast<const char*>(d.data()), d.size())));
            }
            break;
        case Value::Kind::Tuple:
        case Value::Kind::List:
        case Value::Kind::Slice:
            for (const auto& e : v.elements) {
                mix(h, hashValue(*e));
            }
            break;
        default:
            break;
    }
    return h;
}

// Equal constants; primitives compare by name and attributes (two `ops.Add()` instances
// compute the same thing, as in MindSpore's CSE).
bool sameConstant(const ValueNode* a, const ValueNode* b) {
    const Value& x = *a->value();
    const Value& y = *b->value();
    if (x.kind == Value::Kind::Primitive && y.kind == Value::Kind::Primitive) {
        return x.prim->name == y.prim->name && x.prim->attrs == y.prim->attrs;
    }
    const bool absEqual = (a->abstract() == nullptr) == (b->abstract() == nullptr) &&
                          (a->abstract() == nullptr || a->abstract()->equals(*b->abstract()));
    return absEqual && x.equals(y);
}

bool eligible(const CNode* c) {
    const ops::OpDef* def = opt::opDefOf(c);
    if (def == nullptr || def->sideEffectMem || def->sideEffectIo ||
        (!def->foldable && !def->structural && def->family != "structural")) {
        return false;  // graph calls, unknown ops, side effects, random ops, Load, TensorMove
    }
    if (def->name == ir::prim::kUpdateState || def->name == ir::prim::kReturn) {
        return false;
    }
    for (std::size_t i = 1; i < c->size(); ++i) {
        // A Ref input reads a weight directly (before auto_monad makes it a Load at a
        // state): two such reads differ when an Assign runs between them.
        const Node* in = c->input(i);
        if (ir::isMonad(in) ||
            (in->abstract() != nullptr && in->abstract()->kind == ir::Abstract::Kind::Ref)) {
            return false;
        }
    }
    return true;
}

class Cse {
public:
    explicit Cse(ir::Module& m) : m_(m) {}

    bool run() {
        bool changed = false;
        for (FuncGraph* g : m_.reachableGraphs()) {
            constants_.clear();
            nodes_.clear();
            // Only c itself is erased, so the rest of the order stays valid.
            for (CNode* c : g->topoOrder()) {
                if (!eligible(c)) {
                    continue;
                }
                std::size_t h = c->size();
                std::vector<const Node*> key;
                key.reserve(c->size());
                for (Node* in : c->inputs()) {
                    key.push_back(canonical(in));
                    mix(h, std::hash<const void*>{}(key.back()));
                }
                CNode* rep = find(h, c, key);
                if (rep == nullptr) {
                    nodes_[h].push_back({c, std::move(key)});
                    continue;
                }
                m_.replaceAllUses(c, rep);
                m_.erase(c);
                changed = true;
            }
        }
        return changed;
    }

private:
    struct Entry {
        CNode* node;
        std::vector<const Node*> key;
    };

    const Node* canonical(Node* n) {
        auto* v = ir::nodeCast<ValueNode>(n);
        if (v == nullptr) {
            return n;
        }
        auto& bucket = constants_[hashValue(*v->value())];
        for (const ValueNode* k : bucket) {
            if (sameConstant(k, v)) {
                return k;
            }
        }
        bucket.push_back(v);
        return v;
    }

    CNode* find(std::size_t h, const CNode* c, const std::vector<const Node*>& key) {
        auto it = nodes_.find(h);
        if (it == nodes_.end()) {
            return nullptr;
        }
        for (const Entry& e : it->second) {
            const bool sameAbs =
                (e.node->abstract() == nullptr) == (c->abstract() == nullptr) &&
                (c->abstract() == nullptr || c->abstract()->equals(*e.node->abstract()));
            if (e.key == key && sameAbs && e.node->attrs() == c->attrs()) {
                return e.node;
            }
        }
        return nullptr;
    }

    ir::Module& m_;
    std::unordered_map<std::size_t, std::vector<const ValueNode*>> constants_;
    std::unordered_map<std::size_t, std::vector<Entry>> nodes_;
};

}  // namespace

std::unique_ptr<Pass> makeCsePass() {
    return makePass("cse",
                    "Merges operations that compute the same thing from the same inputs, so the "
                    "value is computed once (operations with side effects are never merged).",
                    [](ir::Module& m, PassContext&) { return Cse(m).run(); });
}

}  // namespace irscope::passes
