// symbol_resolve for @lazy_inline cells: instances with equal cell_init_args are parsed and
// resolved once (see Resolver::ReusedInstance). The first instance's construct graph is
// parsed and resolved as any graph is; a later instance's graph gets a copy of the first
// one's resolved graphs, its weights and scopes its own. graph_reusing then folds the
// instances into one CR_ graph.
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "compiler/symbol_resolve_impl.h"
#include "frontend/modules/ms_objects.h"
#include "ir/graph_refs.h"

namespace irscope::compiler {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;

namespace {

// A new graph named after `name` with src's parameters (as addParameterLike copies them)
// and src's call signature: a later instance's graph, and each graph its copy makes.
FuncGraph* graphLike(ir::Module& m, FrontendState& s, const FuncGraph& src,
                     const std::string& name) {
    s.countGraph();
    FuncGraph* g = m.addGraph(s.uniqueGraphName(name));
    for (const ir::Parameter* p : src.parameters()) {
        (void)m.addParameterLike(g, *p);
    }
    if (auto sig = s.signatures.find(&src); sig != s.signatures.end()) {
        s.signatures[g] = sig->second;
    }
    return g;
}

}  // namespace

void Resolver::markFirstInstance(FuncGraph* g, const FunctionSpec& spec) {
    if (reuseLevel_ == 1 || reuseLevel_ == 2) {  // without MS_DEV_CELL_REUSE: no reuse
        marked_.try_emplace(spec.self.obj(), MarkedConstruct{spec.fn, g, spec.scope});
    }
}

FuncGraph* Resolver::reusedInstanceGraph(const FunctionSpec& spec) {
    if ((reuseLevel_ != 1 && reuseLevel_ != 2) || spec.constantsFrom.isNull()) {
        return nullptr;
    }
    auto it = marked_.find(spec.constantsFrom.obj());
    if (it == marked_.end() || it->second.fn != spec.fn) {
        return nullptr;  // the first instance is not reused (changed since __init__)
    }
    ReusedInstance r{.cell = spec.self,
                     .scope = spec.scope,
                     .source = it->second.graph,
                     .sourceCell = spec.constantsFrom,
                     .sourceScope = it->second.scope};
    if (auto weights = matchedWeights(spec.self, spec.constantsFrom)) {
        // What parsing the same function would make of the signature: the first instance's
        // parameters, call signature and graph attributes (its body comes with the copy).
        r.graph = graphLike(m_, s_, *r.source, spec.graphName);
        r.graph->debug().trace = r.source->debug().trace;  // the def (an error shows it empty)
        for (const auto& [key, v] : r.source->attrs()) {
            r.graph->attrs().set(key, v);
        }
        r.weights = std::move(*weights);
        deferred_.insert(r.graph);
    } else {
        const std::size_t firstNew = m_.graphCount();
        r.graph = buildFunctionGraph(s_, m_, spec);
        r.parsed.push_back(r.graph);
        for (std::size_t i = firstNew; i < m_.graphCount(); ++i) {
            if (m_.graphAt(i) != r.graph) {
                r.parsed.push_back(m_.graphAt(i));
            }
        }
        deferred_.insert(r.parsed.begin(), r.parsed.end());
    }
    reused_.push_back(std::move(r));
    return reused_.back().graph;
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
            gm_[order_[i]] = graphLike(m_, s_, *order_[i], order_[i]->name());
        }
        // Every copy (the instance's own graph too, made with the source's parameters) is
        // located as a copy: its debug info, scope and parameters.
        for (FuncGraph* src : order_) {
            FuncGraph* g = gm_.at(src);
            g->debug() = src->debug();
            g->debug().scope = relocated(src->debug().scope);
            const auto& mine = g->parameters();
            for (std::size_t k = 0; k < mine.size(); ++k) {
                ir::Parameter* p = src->parameters()[k];
                locate(*mine[k], *p);
                nodes_[p] = mine[k];
                if (auto len = s_.paramLengths.find(p); len != s_.paramLengths.end()) {
                    s_.paramLengths[mine[k]] = len->second;
                }
            }
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

std::optional<std::vector<std::pair<interp::Value, interp::Value>>> Resolver::matchedWeights(
    const interp::Value& cell, const interp::Value& source) {
    // The two instances' Parameters, matched by attribute path: same names, shapes and
    // types; their sub-cells of the same types with the same constant attributes.
    const auto mine = modules::cellParameterPaths(cell);
    const auto theirs = modules::cellParameterPaths(source);
    if (mine.size() != theirs.size() ||
        modules::subCellConstants(I, cell) != sourceConstants(source)) {
        return std::nullopt;
    }
    std::vector<std::pair<interp::Value, interp::Value>> pairs;
    std::unordered_map<const interp::Object*, const interp::Object*> paired;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const ir::Tensor* a = modules::tensorOf(theirs[i].second);
        const ir::Tensor* b = modules::tensorOf(mine[i].second);
        if (mine[i].first != theirs[i].first || a == nullptr || b == nullptr ||
            a->shape() != b->shape() || a->dtype() != b->dtype()) {
            return std::nullopt;
        }
        // One Parameter of the first instance held at two paths is one of ours too.
        auto [it, fresh] = paired.try_emplace(theirs[i].second.obj(), mine[i].second.obj());
        if (!fresh && it->second != mine[i].second.obj()) {
            return std::nullopt;
        }
        if (fresh) {
            pairs.emplace_back(theirs[i].second, mine[i].second);
        }
    }
    return pairs;
}

void Resolver::copyReusedInstance(const ReusedInstance& r) {
    if (r.graph->parameters().size() != r.source->parameters().size()) {
        throw std::logic_error(
            "symbol_resolve: the first @lazy_inline instance's graph changed its parameters");
    }
    InstanceCopier copier(m_, s_, r);
    for (const auto& [theirs, mine] : r.weights) {
        if (auto w = s_.weightParams.find(theirs.obj()); w != s_.weightParams.end()) {
            copier.mapWeight(w->second, mine);
        }
    }
    copier.collect(functionGraphs_, deferred_);
    copier.copy(
        [&](const interp::Value& param, const Node* at) -> Node* { return weight(param, at); });
}

}  // namespace irscope::compiler
