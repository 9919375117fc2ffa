// The type_inference pass: runs the engine (type_inference_engine.h) and leaves only the
// typed specializations — templates erased, dead nodes swept, unreachable clones dropped,
// clones named after their templates — with every reachable node carrying an abstract.
#include "passes/type_inference.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "passes/auto_monad.h"
#include "passes/type_inference_engine.h"

namespace irscope::passes {

namespace infer {

namespace {

bool refersToGraph(const ir::Value& v) {
    if (v.kind == ir::Value::Kind::Graph) {
        return true;
    }
    for (const auto& e : v.elements) {
        if (e && refersToGraph(*e)) {
            return true;
        }
    }
    if (v.kind == ir::Value::Kind::Primitive && v.prim) {
        for (const auto& [k, a] : v.prim->attrs) {
            if (a && refersToGraph(*a)) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace

void Engine::eraseGraphs(const std::vector<ir::FuncGraph*>& gs) {
    const std::unordered_set<const ir::FuncGraph*> doomed(gs.begin(), gs.end());
    if (doomed.empty()) {
        return;
    }
    // Cut every edge that leaves a doomed graph or holds a graph value, then drop the graph
    // values themselves: what is left refers to nothing outside its own graph.
    std::vector<ir::CNode*> cnodes;
    m_.forEachNode([&](ir::Node* n) {
        if (auto* c = ir::nodeCast<ir::CNode>(n); c && doomed.count(c->graph())) {
            cnodes.push_back(c);
        }
    });
    std::unordered_map<ir::FuncGraph*, ir::ValueNode*> placeholder;
    for (ir::CNode* c : cnodes) {
        for (std::size_t i = 0; i < c->size(); ++i) {
            ir::Node* in = c->input(i);
            const auto* v = ir::nodeCast<ir::ValueNode>(in);
            if (in->graph() == c->graph() && !(v && refersToGraph(*v->value()))) {
                continue;
            }
            auto& p = placeholder[c->graph()];
            if (!p) {
                p = m_.addValue(c->graph(), ir::Value::none());
            }
            m_.setInput(c, i, p);
        }
    }
    std::vector<ir::Node*> values;
    m_.forEachNode([&](ir::Node* n) {
        const auto* v = ir::nodeCast<ir::ValueNode>(n);
        if (v && doomed.count(n->graph()) && refersToGraph(*v->value()) && n->users().empty()) {
            values.push_back(n);
        }
    });
    for (ir::Node* n : values) {
        m_.erase(n);
    }
    for (ir::FuncGraph* g : gs) {
        m_.eraseGraph(g);
    }
}

void Engine::sweepDeadNodes(ir::FuncGraph*) {
    // Every node of a clone that nothing uses (replaced calls, folded operands, expanded meta
    // operations) goes, and with it whatever only it used.
    std::unordered_set<const ir::FuncGraph*> clones;
    for (const auto& s : specs_) {
        clones.insert(s->graph);
    }
    std::vector<ir::Node*> work;
    m_.forEachNode([&](ir::Node* n) {
        if (!n->isParameter() && clones.count(n->graph()) && n->users().empty()) {
            work.push_back(n);
        }
    });
    while (!work.empty()) {
        ir::Node* n = work.back();
        work.pop_back();
        if (!n->users().empty() || n == n->graph()->returnNode()) {
            continue;
        }
        std::vector<ir::Node*> inputs;
        if (auto* c = ir::nodeCast<ir::CNode>(n)) {
            inputs = c->inputs();
        }
        fns_.erase(n);
        items_.erase(n);
        m_.erase(n);
        std::sort(inputs.begin(), inputs.end());
        inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
        for (ir::Node* in : inputs) {
            if (!in->isParameter() && in->users().empty() && clones.count(in->graph())) {
                work.push_back(in);
            }
        }
    }
}

void Engine::retargetTemplateValues() {
    std::unordered_map<ir::FuncGraph*, ir::FuncGraph*> gmap;
    for (ir::FuncGraph* t : templates_) {
        auto it = byTemplate_.find(t);
        gmap[t] =
            it != byTemplate_.end() && !it->second.empty() ? it->second.front()->graph : nullptr;
    }
    std::vector<ir::ValueNode*> stale;
    m_.forEachNode([&](ir::Node* n) {
        auto* v = ir::nodeCast<ir::ValueNode>(n);
        if (v && byClone_.count(v->graph()) && refersToGraph(*v->value()) &&
            substitute(v->value(), gmap) != v->value()) {
            stale.push_back(v);
        }
    });
    for (ir::ValueNode* v : stale) {
        ir::ValueNode* w = m_.addValue(v->graph(), substitute(v->value(), gmap));
        w->setAbstract(v->abstract());
        w->shareDebug(*v);
        m_.replaceAllUses(v, w);
        m_.erase(v);
    }
}

void Engine::discardClones() {
    std::vector<ir::FuncGraph*> gs;
    for (const auto& s : specs_) {
        gs.push_back(s->graph);
    }
    eraseGraphs(gs);
    specs_.clear();
    byTemplate_.clear();
    bySig_.clear();
    byClone_.clear();
    fns_.clear();
    items_.clear();
    varargsCallers_.clear();
    frames_.clear();
    order_.clear();
    foldedEffects_.clear();
    effectFree_.clear();
    entrySpec_ = nullptr;
}

void Engine::finish() {
    m_.setEntry(entrySpec_->graph);
    for (ir::CNode* call : foldedEffects_) {
        // Used only by nodes that were replaced (now without users themselves): the call
        // would go with them.
        const bool unused = std::all_of(call->users().begin(), call->users().end(), [](const ir::Use& u) {
            return u.user->users().empty() && u.user != u.user->graph()->returnNode();
        });
        if (unused) {
            monad::keepIsolated(m_, call->graph(), call);
        }
    }
    foldedEffects_.clear();
    sweepDeadNodes(nullptr);
    retargetTemplateValues();
    eraseGraphs(templates_);
    const std::vector<ir::FuncGraph*> reachable = m_.reachableGraphs();
    const std::set<ir::FuncGraph*> live(reachable.begin(), reachable.end());
    std::vector<ir::FuncGraph*> dropped;
    for (const auto& s : specs_) {
        if (!live.count(s->graph)) {
            dropped.push_back(s->graph);
        }
    }
    eraseGraphs(dropped);
    // Names: the first live specialization of a template keeps its name, the others get the
    // first free `_N` suffix, as MindSpore numbers cloned graphs.
    std::set<std::string> taken;
    std::set<ir::FuncGraph*> firstDone;
    std::vector<Spec*> rest;
    for (const auto& s : specs_) {
        if (!live.count(s->graph)) {
            continue;
        }
        if (firstDone.insert(s->tmpl).second) {
            taken.insert(s->graph->name());  // the template's own name
        } else {
            rest.push_back(s.get());
        }
    }
    // Per name, the suffix tried last: every smaller one is taken already.
    std::map<std::string, int> lastSuffix;
    for (Spec* s : rest) {
        for (int& k = lastSuffix[s->graph->name()];;) {
            std::string candidate = s->graph->name() + "_" + std::to_string(++k);
            if (!taken.count(candidate)) {
                s->graph->setName(candidate);
                taken.insert(candidate);
                break;
            }
        }
    }
    renumber();
    for (ir::FuncGraph* g : m_.reachableGraphs()) {
        for (ir::Parameter* p : g->parameters()) {
            if (!p->abstract()) {
                error(p, "RuntimeError",
                      "irscope: the parameter '" + p->name() + "' of '" + g->name() +
                          "' has no type: it is never called with arguments.");
            }
        }
        for (ir::CNode* c : g->topoOrder()) {
            for (ir::Node* in : c->inputs()) {
                if (!in->abstract() && in->isValue()) {
                    argOf(in);
                }
            }
            if (!c->abstract()) {
                error(c, "RuntimeError",
                      "irscope: the type of this expression in '" + g->name() +
                          "' could not be inferred (a recursion without an exit?).");
            }
        }
    }
    if (std::string problem = m_.verify(); !problem.empty()) {
        throw CompileError("RuntimeError",
                           "irscope: type_inference left an inconsistent IR: " + problem);
    }
}

}  // namespace infer

namespace {

class TypeInferencePass final : public Pass {
public:
    TypeInferencePass(std::vector<ir::AbstractPtr> inputs, InferenceLimits limits)
        : Pass("type_inference",
               "Infers the type and shape of every node from the inputs, specializes each graph "
               "per distinct argument types (unrolling loops on constants), folds constants and "
               "replaces Python operators and builtins by primitives."),
          inputs_(std::move(inputs)),
          limits_(limits) {}

    bool run(ir::Module& m, PassContext&) override {
        infer::Engine e(m, limits_);
        e.run(inputs_);
        return true;
    }

private:
    std::vector<ir::AbstractPtr> inputs_;
    InferenceLimits limits_;
};

}  // namespace

std::unique_ptr<Pass> makeTypeInferencePass(std::vector<ir::AbstractPtr> inputs,
                                            InferenceLimits limits) {
    return std::make_unique<TypeInferencePass>(std::move(inputs), limits);
}

}  // namespace irscope::passes
