// symbol_resolve for @lazy_inline cells: instances with equal cell_init_args are resolved
// once (see Resolver::ReusedInstance). The first instance's construct graph is resolved as
// any graph is; a later instance's graph gets a copy of the first one's resolved graphs,
// its weights and scopes its own. graph_reusing then folds the instances into one CR_ graph.
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/ms_objects.h"
#include "ir/graph_refs.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

void Resolver::deferReusedInstance(FuncGraph* g, const interp::Value& cell, const std::string& scope,
                                   const interp::Value& source, const interp::FunctionObject* fn,
                                   std::vector<FuncGraph*> parsed) {
    if (reuseLevel_ != 1 && reuseLevel_ != 2) {
        return;  // without MS_DEV_CELL_REUSE every instance is compiled on its own
    }
    if (source.isNull()) {
        marked_.try_emplace(cell.obj(), MarkedConstruct{fn, g, scope});
        return;
    }
    auto it = marked_.find(source.obj());
    if (it == marked_.end() || it->second.fn != fn) {
        return;  // the first instance is not reused (changed since __init__): resolved on its own
    }
    deferred_.insert(parsed.begin(), parsed.end());
    reused_.push_back(ReusedInstance{g, std::move(parsed), cell, scope, it->second.graph, source,
                                     it->second.scope});
}

namespace {

// Copies the first instance's resolved graphs for another instance.
class InstanceCopier {
public:
    InstanceCopier(ir::Module& m, FrontendState& s, const Resolver::ReusedInstance& r)
        : m_(m), s_(s), r_(r) {}

    // The graphs to copy: the source and what it refers to, but for the graphs every caller
    // shares (plain functions), graphs of other instances and the entry.
    void collect(const std::unordered_set<const FuncGraph*>& shared,
                 const std::unordered_set<const FuncGraph*>& deferred) {
        order_.push_back(r_.source);
        gm_[r_.source] = r_.graph;
        for (std::size_t i = 0; i < order_.size(); ++i) {
            for (FuncGraph* ref : order_[i]->graphRefs()) {
                if (ref != m_.entry() && !shared.count(ref) && !deferred.count(ref) &&
                    gm_.try_emplace(ref, nullptr).second) {
                    order_.push_back(ref);
                }
            }
        }
    }

    // Maps the entry weight `p` reads of the first instance to `weight`, a Parameter object
    // of this instance.
    void mapWeight(const Node* p, interp::Value weight) { weights_.emplace(p, std::move(weight)); }

    template <typename WeightOf>
    void copy(WeightOf&& weightOf) {
        for (std::size_t i = 1; i < order_.size(); ++i) {
            FuncGraph* src = order_[i];
            s_.countGraph();
            FuncGraph* g = m_.addGraph(s_.uniqueGraphName(src->name()));
            g->debug() = src->debug();
            g->debug().scope = relocated(src->debug().scope);
            gm_[src] = g;
            for (ir::Parameter* p : src->parameters()) {
                ir::Parameter* q = m_.addParameterLike(g, *p);
                locate(*q, *p);
                nodes_[p] = q;
                if (auto len = s_.paramLengths.find(p); len != s_.paramLengths.end()) {
                    s_.paramLengths[q] = len->second;
                }
            }
            if (auto sig = s_.signatures.find(src); sig != s_.signatures.end()) {
                s_.signatures[g] = sig->second;
            }
        }
        const auto& mine = r_.graph->parameters();
        for (std::size_t k = 0; k < mine.size(); ++k) {
            nodes_[r_.source->parameters()[k]] = mine[k];
        }
        for (FuncGraph* src : order_) {
            FuncGraph* g = gm_.at(src);
            for (const auto& [key, v] : src->attrs()) {
                g->attrs().set(key, ir::remapGraphRefs(v, gm_));
            }
            for (CNode* c : src->topoOrder()) {
                copyNode(c, weightOf);
            }
        }
    }

private:
    std::string relocated(const std::string& scope) const {
        const std::string& from = r_.sourceScope;
        if (scope.size() < from.size() || scope.compare(0, from.size(), from) != 0 ||
            (scope.size() > from.size() && scope[from.size()] != '/')) {
            return scope;
        }
        return r_.scope + scope.substr(from.size());
    }

    // The copy takes src's debug info with the first instance's scope replaced by this
    // one's, and a debug name made of src's id (CNode_<id>$x, graph_builder's) made of its
    // own; copies of nodes that shared one debug info share one again.
    void locate(Node& copy, const Node& src) {
        copy.shareDebug(src);
        if (const std::string& name = src.debug().name; !name.empty()) {
            const std::string ownId = "CNode_" + std::to_string(src.id()) + "$";
            if (name.starts_with(ownId)) {
                ir::DebugInfo& d = copy.mutableDebug();
                d.name = "CNode_" + std::to_string(copy.id()) + "$" + name.substr(ownId.size());
                d.scope = relocated(d.scope);
                return;
            }
        }
        const ir::DebugInfo* key = &src.debug();
        if (auto it = located_.find(key); it != located_.end()) {
            copy.shareDebug(*it->second);
            return;
        }
        std::string scope = relocated(src.debug().scope);
        if (scope != src.debug().scope) {
            copy.mutableDebug().scope = std::move(scope);
        }
        located_.emplace(key, &copy);
    }

    // The copy of `in`, an input of a node being copied; nullptr when it is a CNode of a
    // copied graph not copied yet.
    template <typename WeightOf>
    Node* input(Node* in, const Node* user, WeightOf& weightOf) {
        if (auto it = nodes_.find(in); it != nodes_.end()) {
            return it->second;
        }
        if (in->graph() == nullptr || !gm_.count(in->graph())) {
            auto w = weights_.find(in);
            return w == weights_.end() ? in : nodes_.emplace(in, weightOf(w->second, user)).first->second;
        }
        if (auto* v = ir::nodeCast<ir::ValueNode>(in)) {
            ir::ValueNode* w = m_.addValue(gm_.at(in->graph()), ir::remapGraphRefs(v->value(), gm_));
            w->setAbstract(v->abstract());
            locate(*w, *v);
            nodes_[in] = w;
            return w;
        }
        if (!in->isCNode()) {
            throw std::logic_error("symbol_resolve: a parameter of a copied graph was not copied");
        }
        return nullptr;
    }

    template <typename WeightOf>
    void copyNode(CNode* root, WeightOf& weightOf) {
        std::vector<CNode*> work{root};
        std::vector<Node*> ins;
        while (!work.empty()) {
            CNode* c = work.back();
            if (nodes_.count(c)) {
                work.pop_back();
                continue;
            }
            ins.clear();
            bool ready = true;
            for (Node* in : c->inputs()) {
                Node* mapped = input(in, c, weightOf);
                if (mapped == nullptr) {
                    ready = false;
                    work.push_back(static_cast<CNode*>(in));
                }
                ins.push_back(mapped);
            }
            if (!ready) {
                continue;
            }
            work.pop_back();
            FuncGraph* g = gm_.at(c->graph());
            CNode* k = m_.addCNode(g, ins);
            k->attrs() = c->attrs();
            k->primalAttrs() = c->primalAttrs();
            k->setAbstract(c->abstract());
            locate(*k, *c);
            nodes_[c] = k;
            if (c == c->graph()->returnNode()) {
                m_.setReturnNode(g, k);
            }
        }
    }

    ir::Module& m_;
    FrontendState& s_;
    const Resolver::ReusedInstance& r_;
    std::vector<FuncGraph*> order_;                            // source graphs, source first
    std::unordered_map<const FuncGraph*, FuncGraph*> gm_;      // source graph -> copy
    std::unordered_map<const Node*, Node*> nodes_;             // source node -> copy
    std::unordered_map<const Node*, interp::Value> weights_;   // first instance's weight -> ours
    std::unordered_map<const ir::DebugInfo*, const Node*> located_;
};

}  // namespace

const std::string& Resolver::sourceConstants(const interp::Value& cell) {
    auto it = sourceConstants_.find(cell.obj());
    if (it == sourceConstants_.end()) {
        it = sourceConstants_.emplace(cell.obj(), modules::subCellConstants(I, cell)).first;
    }
    return it->second;
}

bool Resolver::copyReusedInstance(const ReusedInstance& r) {
    // The two instances' Parameters, matched by attribute path: same names, shapes and
    // types; their sub-cells of the same types with the same constant attributes.
    const auto mine = modules::cellParameterPaths(r.cell);
    const auto theirs = modules::cellParameterPaths(r.sourceCell);
    if (mine.size() != theirs.size() ||
        r.graph->parameters().size() != r.source->parameters().size() ||
        modules::subCellConstants(I, r.cell) != sourceConstants(r.sourceCell)) {
        return false;
    }
    InstanceCopier copier(m_, s_, r);
    std::unordered_map<const interp::Object*, const interp::Object*> paired;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const ir::Tensor* a = modules::tensorOf(theirs[i].second);
        const ir::Tensor* b = modules::tensorOf(mine[i].second);
        if (mine[i].first != theirs[i].first || a == nullptr || b == nullptr ||
            a->shape() != b->shape() || a->dtype() != b->dtype()) {
            return false;
        }
        // One Parameter of the first instance held at two paths is one of ours too.
        auto [it, fresh] = paired.try_emplace(theirs[i].second.obj(), mine[i].second.obj());
        if (!fresh && it->second != mine[i].second.obj()) {
            return false;
        }
        if (auto w = s_.weightParams.find(theirs[i].second.obj()); fresh && w != s_.weightParams.end()) {
            copier.mapWeight(w->second, mine[i].second);
        }
    }
    copier.collect(functionGraphs_, deferred_);
    copier.copy([&](const interp::Value& param, const Node* at) -> Node* { return weight(param, at); });
    // r.graph's parsed body, and the graphs its parse made, are unreachable now: the sweep
    // erases them.
    return true;
}

}  // namespace irscope::compiler
