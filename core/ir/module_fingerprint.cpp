// ir::fingerprint (module_fingerprint.h). The snapshot instrumentation calls it after every
// pass, so it must stay a small fraction of a pass: one topological order per graph, marks
// indexed by node id instead of hash sets, and pointers instead of printed text for the
// immutable parts (abstracts, values).
#include "ir/module_fingerprint.h"

#include <functional>
#include <string_view>
#include <unordered_map>

#include "ir/graph_refs.h"

namespace irscope::ir {

namespace {

// 64-bit mixing (the splitmix64 finalizer) folded into a running hash.
class Hasher {
public:
    void add(std::uint64_t v) {
        std::uint64_t z = h_ + 0x9e3779b97f4a7c15ULL + v;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        h_ = z ^ (z >> 31);
    }
    void add(const void* p) {
        add(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)));
    }
    void add(std::string_view s) {
        add(static_cast<std::uint64_t>(std::hash<std::string_view>{}(s)));
        add(static_cast<std::uint64_t>(s.size()));
    }
    void add(const AttrMap& attrs) {
        add(static_cast<std::uint64_t>(attrs.size()));
        for (const auto& [k, v] : attrs) {
            add(std::string_view(k));
            add(v.get());
        }
    }
    // A graph by its place in the printed order (a copy of the module has other graph
    // objects in the same places); one outside it, by name.
    void add(const FuncGraph* g) {
        if (g == nullptr) {
            add(std::uint64_t{0});
        } else if (auto it = graphIndex_.find(g); it != graphIndex_.end()) {
            add(static_cast<std::uint64_t>(it->second + 1));
        } else {
            add(std::string_view(g->name()));
        }
    }
    // A constant by identity, except the parts that name graphs: Module::clone gives those
    // new values naming its own graphs, and a copy must fingerprint like its original.
    void add(const Value* v) {
        if (v == nullptr) {
            add(std::uint64_t{0});
            return;
        }
        switch (v->kind) {
            case Value::Kind::Graph:
                add(std::uint64_t{1});
                add(v->graph);
                return;
            case Value::Kind::Tuple:
            case Value::Kind::List:
            case Value::Kind::Slice:
                add(static_cast<std::uint64_t>(v->kind) + 2);
                add(static_cast<std::uint64_t>(v->elements.size()));
                for (const ValuePtr& e : v->elements) {
                    add(e.get());
                }
                return;
            case Value::Kind::Primitive:
                if (v->prim && namesGraphs(v->prim->attrs)) {
                    add(std::string_view(v->prim->name));
                    add(std::string_view(v->prim->instanceName));
                    add(v->prim->attrs);
                    return;
                }
                break;
            default:
                break;
        }
        add(static_cast<const void*>(v));
    }
    void indexGraph(const FuncGraph* g, std::size_t i) { graphIndex_.emplace(g, i); }
    void add(const DebugInfo& d) {
        add(std::string_view(d.name));
        add(std::string_view(d.scope));
        add(d.trace.identity());  // immutable: the same list holds the same locations
    }
    std::uint64_t value() const { return h_; }

private:
    bool namesGraphs(const AttrMap& attrs) {
        scratch_.clear();
        for (const auto& [k, a] : attrs) {
            collectGraphRefs(*a, scratch_);
        }
        return !scratch_.empty();
    }

    std::uint64_t h_ = 0x1234567887654321ULL;
    std::unordered_map<const FuncGraph*, std::size_t> graphIndex_;
    std::vector<FuncGraph*> scratch_;
};

}  // namespace

ModuleFingerprint fingerprint(const Module& m) {
    ModuleFingerprint fp;
    Hasher h;
    const FuncGraph* entry = m.entry();
    if (entry == nullptr) {
        h.add(m.attrs());
        fp.hash = h.value();
        return fp;
    }
    // Graph and node marks by id (ids are dense: a module numbers its nodes from 1).
    std::vector<char> counted;
    auto mark = [&counted](std::uint64_t id) {
        if (id >= counted.size()) {
            counted.resize(static_cast<std::size_t>(id) * 2 + 1024, 0);
        }
        char& c = counted[static_cast<std::size_t>(id)];
        const bool first = c == 0;
        c = 1;
        return first;
    };
    // The reachable graphs in reachableGraphs()'s order, with their bodies.
    struct Visit {
        const FuncGraph* graph;
        std::vector<CNode*> body;
    };
    std::vector<Visit> order;
    for (const FuncGraph* g : m.reachableGraphs()) {
        h.indexGraph(g, order.size());
        order.push_back({g, g->topoOrder()});
    }

    std::size_t distinct = 0;
    std::size_t valueUses = 0;
    auto count = [&](const Node* n) {
        if (mark(n->id())) {
            ++distinct;
        }
    };
    h.add(m.attrs());
    h.add(entry);
    for (const Visit& v : order) {
        const FuncGraph* g = v.graph;
        ++fp.counts.graphs;
        h.add(std::string_view(g->name()));
        h.add(g->attrs());
        h.add(g->debug());
        h.add(static_cast<std::uint64_t>(g->parameters().size()));
        for (const Parameter* p : g->parameters()) {
            count(p);
            h.add(p->id());
            h.add(std::string_view(p->name()));
            h.add(p->abstract().get());
            h.add(static_cast<std::uint64_t>(p->hasDefault()));
            h.add(p->defaultValue().get());
        }
        h.add(static_cast<std::uint64_t>(v.body.size()));
        for (const CNode* c : v.body) {
            ++fp.counts.cnodes;
            count(c);
            h.add(c->id());
            h.add(c->abstract().get());
            h.add(c->attrs());
            h.add(c->primalAttrs());
            h.add(c->debug());
            h.add(static_cast<std::uint64_t>(c->size()));
            for (const Node* in : c->inputs()) {
                if (in->isValue()) {
                    ++valueUses;
                    h.add(static_cast<const ValueNode*>(in)->value().get());
                    h.add(static_cast<const void*>(in->abstract().get()));
                } else {
                    count(in);
                    h.add(in->id());
                    h.add(in->graph());
                }
            }
        }
    }
    fp.counts.nodes = distinct + valueUses;
    fp.hash = h.value();
    return fp;
}

}  // namespace irscope::ir
