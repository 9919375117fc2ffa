// irscope IR -> MindIR in MindSpore 2.x's layout (see mindir.h, writeMindir).
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "ir/ir_text.h"
#include "mindir/mindir_convert.h"

namespace irscope::mindir {

using namespace detail;
using ir::Abstract;
using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using AttrType = pb::AttributeProto;

namespace detail {

void tensorToProto(const ir::TensorData& t, pb::TensorProto& out, bool withData) {
    for (std::int64_t d : t.shape.dims) {
        out.add_dims(d);
    }
    if (t.shape.dynamicRank) {
        out.add_dims(-2);
    }
    out.set_data_type(tensorCodeOf(t.dtype));
    if (withData && !t.data.empty()) {
        out.set_raw_data(reinterpret_cast<const char*>(t.data.data()), t.data.size());
    }
}

namespace {

// A scalar in the fields the 2.x exporter uses: `i`/`f`/`d`/`s` at the top, the repeated
// `ints`/`floats`/`doubles`/`strings` inside a tuple or list.
void scalarToAttr(const Value& v, AttrType& a, bool element) {
    switch (v.kind) {
        case Value::Kind::Bool:
            a.set_type(AttrType::BOOL);
            element ? a.add_ints(v.b ? 1 : 0) : a.set_i(v.b ? 1 : 0);
            break;
        case Value::Kind::Int:
            a.set_type(attrCodeOf(v.dtype));
            element ? a.add_ints(v.i) : a.set_i(v.i);
            break;
        case Value::Kind::Float:
            if (v.dtype == ir::DType::Float64) {
                a.set_type(AttrType::DOUBLE);
                element ? a.add_doubles(v.f) : a.set_d(v.f);
            } else {
                a.set_type(attrCodeOf(v.dtype));
                element ? a.add_floats(static_cast<float>(v.f)) : a.set_f(static_cast<float>(v.f));
            }
            break;
        case Value::Kind::String:
            a.set_type(AttrType::STRING);
            element ? a.add_strings(v.text) : a.set_s(v.text);
            break;
        default:
            break;
    }
}

bool valueToAttr(const Value& v, AttrType& a, bool element,
                 const std::function<std::string(const FuncGraph*)>& graphName) {
    switch (v.kind) {
        case Value::Kind::Bool:
        case Value::Kind::Int:
        case Value::Kind::Float:
        case Value::Kind::String:
            scalarToAttr(v, a, element);
            return true;
        case Value::Kind::None:
            a.set_type(AttrType::NONE);
            return true;
        case Value::Kind::Monad:
            a.set_type(v.monad == ir::MonadKind::U ? AttrType::UMONAD : AttrType::IOMONAD);
            return true;
        case Value::Kind::Tensor:
            if (tensorCodeOf(v.tensor->dtype) == 0) {
                return false;
            }
            a.set_type(AttrType::TENSORS);
            tensorToProto(*v.tensor, *a.add_tensors(), true);
            return true;
        case Value::Kind::Type:
            if (tensorCodeOf(v.dtype) == 0) {
                return false;
            }
            a.set_type(AttrType::TENSORS);
            a.add_tensors()->set_data_type(tensorCodeOf(v.dtype));
            return true;
        case Value::Kind::Tuple:
        case Value::Kind::List:
            a.set_type(v.kind == Value::Kind::Tuple ? AttrType::TUPLE : AttrType::LIST);
            for (const auto& e : v.elements) {
                if (!valueToAttr(*e, *a.add_values(), true, graphName)) {
                    return false;
                }
            }
            return true;
        case Value::Kind::Graph:
            if (!graphName) {
                return false;
            }
            a.set_type(AttrType::GRAPH);
            a.set_s(graphName(v.graph));
            return true;
        case Value::Kind::Opaque: {
            // What the reader keeps verbatim goes back to its own type.
            static const std::pair<const char*, int> prefixes[] = {
                {"ClassType: ", AttrType::CLASS_TYPE},
                {"NameSpace: ", AttrType::NAME_SPACE},
                {"Symbol: ", AttrType::SYMBOL}};
            for (const auto& [prefix, type] : prefixes) {
                if (v.text.starts_with(prefix)) {
                    a.set_type(type);
                    a.set_s(v.text.substr(std::string_view(prefix).size()));
                    return true;
                }
            }
            // A dtype irscope has no DType for (Complex64 ...), as the reader names it.
            for (int code = 0; code < 64; ++code) {
                if (!dtypeFromTensorCode(code) && v.text == tensorCodeName(code)) {
                    a.set_type(AttrType::TENSORS);
                    a.add_tensors()->set_data_type(code);
                    return true;
                }
            }
            if (v.text == "TypeNull") {
                a.set_type(AttrType::TYPE_NULL);
                return true;
            }
            return false;
        }
        default:
            return false;
    }
}

}  // namespace

bool attrFromValue(const Value& v, pb::AttributeProto& a,
                   const std::function<std::string(const FuncGraph*)>& graphName) {
    return valueToAttr(v, a, false, graphName);
}

void attrFromAbstract(const Abstract& abs, pb::AttributeProto& a) {
    switch (abs.kind) {
        case Abstract::Kind::Tensor:
        case Abstract::Kind::Ref: {
            a.set_type(AttrType::TENSORS);
            auto* t = a.add_tensors();
            for (std::int64_t d : abs.shape.dims) {
                t->add_dims(d);
            }
            if (abs.shape.dynamicRank) {
                t->add_dims(-2);
            }
            t->set_data_type(tensorCodeOf(abs.dtype));
            break;
        }
        case Abstract::Kind::Scalar:
            a.set_type(AttrType::SCALAR);
            a.add_tensors()->set_data_type(tensorCodeOf(abs.dtype));
            break;
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List:
            a.set_type(abs.kind == Abstract::Kind::Tuple ? AttrType::TUPLE : AttrType::LIST);
            for (const auto& e : abs.elements) {
                if (e) {
                    attrFromAbstract(*e, *a.add_values());
                } else {
                    a.add_values();
                }
            }
            break;
        case Abstract::Kind::Monad:
            a.set_type(abs.monad == ir::MonadKind::U ? AttrType::UMONAD : AttrType::IOMONAD);
            break;
        case Abstract::Kind::None:
            a.set_type(AttrType::NONE);
            break;
        default:
            break;
    }
}

}  // namespace detail

namespace {

bool writableAbstract(const ir::AbstractPtr& a) {
    if (!a) {
        return false;
    }
    switch (a->kind) {
        case Abstract::Kind::Tensor:
        case Abstract::Kind::Ref:
        case Abstract::Kind::Scalar:
            return tensorCodeOf(a->dtype) != 0;
        case Abstract::Kind::Tuple:
        case Abstract::Kind::List:
            for (const auto& e : a->elements) {
                if (!writableAbstract(e)) {
                    return false;
                }
            }
            return true;
        case Abstract::Kind::Monad:
        case Abstract::Kind::None:
            return true;
        default:
            return false;
    }
}

// A graph's CNodes to write: its body in topological order, then the nodes only other graphs
// use (free variables of closures), in creation order; never the Return node.
std::vector<CNode*> bodyOf(const FuncGraph& g) {
    std::vector<CNode*> out;
    std::set<const CNode*> seen;
    for (CNode* c : g.topoOrder()) {
        if (c != g.returnNode()) {
            out.push_back(c);
        }
        seen.insert(c);
    }
    std::vector<CNode*> rest;
    for (Node* n : g.ownedNodes()) {
        if (auto* c = ir::nodeCast<CNode>(n); c != nullptr && !seen.count(c)) {
            rest.push_back(c);
        }
    }
    std::sort(rest.begin(), rest.end(),
              [](const CNode* a, const CNode* b) { return a->id() < b->id(); });
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

class Writer {
public:
    explicit Writer(const ir::Module& m) : m_(m) {}

    pb::ModelProto run(const WriteOptions& opts) {
        pb::ModelProto model;
        model.set_ir_version("0.1.1");
        model.set_producer_name("MindSpore");
        model.set_model_version(opts.modelVersion);
        model.set_little_endian(true);
        model.set_mind_ir_version(1);
        // The entry, then every other graph of the module (graphs only values refer to, such
        // as Switch branches, included).
        std::vector<FuncGraph*> graphs{m_.entry()};
        for (FuncGraph* g : m_.graphs()) {
            if (g != m_.entry()) {
                graphs.push_back(g);
            }
        }
        for (FuncGraph* g : graphs) {
            graphNames_[g] = uniqueGraphName(g->name());
        }
        // Names first (nodes may use nodes of enclosing graphs), then the graphs.
        for (FuncGraph* g : graphs) {
            for (ir::Parameter* p : g->parameters()) {
                names_[p] = graphNames_[g] + ":" + p->name();
            }
            std::size_t k = 0;
            for (CNode* c : bodyOf(*g)) {
                {
                    const std::string dbg = c->debug().name.empty() ? "CNode" : c->debug().name;
                    names_[c] = graphNames_[g] + ":" + dbg + ":" + std::to_string(++k);
                }
            }
        }
        for (std::size_t i = 0; i < graphs.size(); ++i) {
            writeGraph(*graphs[i], i == 0 ? *model.mutable_graph() : *model.add_functions());
        }
        for (auto& p : prims_) {
            *model.add_primitives() = std::move(p);
        }
        return model;
    }

private:
    std::string uniqueGraphName(const std::string& name) {
        std::string n = name.empty() ? "graph" : name;
        for (int i = 1; usedGraphNames_.count(n); ++i) {
            n = name + "_" + std::to_string(i);
        }
        usedGraphNames_.insert(n);
        return n;
    }

    std::string graphName(const FuncGraph* g) const {
        auto it = graphNames_.find(g);
        return it == graphNames_.end() ? g->name() : it->second;
    }

    // The primitives-table key of a primitive value ("Conv2D:3"), added once per value.
    std::string primitiveKey(const ir::ValuePtr& v) {
        const ir::PrimitiveData* p = v->prim.get();
        if (auto it = primKeys_.find(p); it != primKeys_.end()) {
            return it->second;
        }
        const std::string key = p->name + ":" + std::to_string(primKeys_.size() + 1);
        primKeys_[p] = key;
        pb::PrimitiveProto proto;
        proto.set_name(key);
        proto.set_op_type(p->name);
        proto.set_instance_name(p->instanceName);
        for (const auto& [name, value] : p->attrs) {
            pb::AttributeProto a;
            a.set_name(name);
            if (value &&
                attrFromValue(*value, a, [this](const FuncGraph* g) { return graphName(g); })) {
                *proto.add_attribute() = std::move(a);
            }
        }
        prims_.push_back(std::move(proto));
        return key;
    }

    // The name a node's users give for it: a parameter's or CNode's, a graph's name for a
    // graph value, else a Constant node written (once per graph) into `gp`.
    std::string inputName(const Node* n, pb::GraphProto& gp, const FuncGraph& g) {
        if (auto it = names_.find(n); it != names_.end()) {
            return it->second;
        }
        const auto* vn = ir::nodeCast<ir::ValueNode>(n);
        if (vn == nullptr) {
            throw std::runtime_error("node " + std::to_string(n->id()) +
                                     " is in no graph being written");
        }
        const ir::Value& v = *vn->value();
        if (v.kind == Value::Kind::Graph) {
            return graphName(v.graph);
        }
        auto key = std::make_pair(&g, vn);
        if (auto it = constants_.find(key); it != constants_.end()) {
            return it->second;
        }
        const std::string name = "[ValueNode]" + std::to_string(vn->id());
        pb::NodeProto* np = gp.add_node();
        np->set_op_type("Constant");
        np->set_name(name);
        np->add_output(name);
        pb::AttributeProto* a = np->add_attribute();
        a->set_name("value");
        if (!attrFromValue(v, *a, [this](const FuncGraph* fg) { return graphName(fg); })) {
            throw std::runtime_error("the constant " + ir::formatValue(v) +
                                     " cannot be written to MindIR");
        }
        constants_[key] = name;
        return name;
    }

    void writeGraph(const FuncGraph& g, pb::GraphProto& gp) {
        gp.set_name(graphName(&g));
        for (const ir::Parameter* p : g.parameters()) {
            const std::string& name = names_.at(p);
            const ir::ValuePtr& dv = p->defaultValue();
            if (p->hasDefault() && dv && dv->tensor) {
                pb::TensorProto* t = gp.add_parameter();
                t->set_name(name);
                std::string key = p->name();
                if (p->abstract() && p->abstract()->kind == Abstract::Kind::Ref &&
                    !p->abstract()->refKey.empty()) {
                    key = p->abstract()->refKey;
                    if (key.starts_with(':')) {
                        key.erase(0, 1);
                    }
                }
                t->set_ref_key(key);
                tensorToProto(*dv->tensor, *t, true);
                continue;
            }
            pb::ValueInfoProto* in = gp.add_input();
            in->set_name(name);
            if (const auto& a = p->abstract();
                a && (a->kind == Abstract::Kind::Tensor || a->kind == Abstract::Kind::Ref)) {
                pb::TensorProto* t = in->add_tensor();
                for (std::int64_t d : a->shape.dims) {
                    t->add_dims(d);
                }
                t->set_data_type(tensorCodeOf(a->dtype));
            } else if (writableAbstract(a)) {
                attrFromAbstract(*a, *in->mutable_attr_info());
            }
        }
        for (const CNode* c : bodyOf(g)) {
            writeNode(*c, gp, g);
        }
        const Node* out = g.output();
        if (out == nullptr) {
            throw std::runtime_error("graph '" + g.name() + "' has no output");
        }
        pb::ValueInfoProto* o = gp.add_output();
        o->set_name(inputName(out, gp, g));
        if (const auto& a = out->abstract();
            a && (a->kind == Abstract::Kind::Tensor || a->kind == Abstract::Kind::Ref)) {
            pb::TensorProto* t = o->add_tensor();
            for (std::int64_t d : a->shape.dims) {
                t->add_dims(d);
            }
            t->set_data_type(tensorCodeOf(a->dtype));
        }
        for (const auto& [name, value] : g.attrs()) {
            pb::AttributeProto a;
            a.set_name(name);
            if (value &&
                attrFromValue(*value, a, [this](const FuncGraph* fg) { return graphName(fg); })) {
                *gp.add_attribute() = std::move(a);
            }
        }
    }

    void writeNode(const CNode& c, pb::GraphProto& gp, const FuncGraph& g) {
        // Constants the node uses come first, as MindSpore writes them.
        std::vector<std::string> inputs;
        for (std::size_t i = 1; i < c.size(); ++i) {
            inputs.push_back(inputName(c.input(i), gp, g));
        }
        std::string opType;
        const Node* callee = c.callee();
        if (const auto* vn = ir::nodeCast<ir::ValueNode>(callee)) {
            const ir::ValuePtr& v = vn->value();
            if (v->kind == Value::Kind::Primitive) {
                opType = "REF::" + primitiveKey(v);
            } else if (v->kind == Value::Kind::Graph) {
                opType = "REF::" + graphName(v->graph);
            } else {
                throw std::runtime_error("a node calls " + ir::formatValue(*v) +
                                         ", which MindIR cannot hold");
            }
        } else if (callee != nullptr) {
            opType = "REF::" + inputName(callee, gp, g);
        }
        pb::NodeProto* np = gp.add_node();
        for (std::string& in : inputs) {
            np->add_input(std::move(in));
        }
        const std::string& name = names_.at(&c);
        np->add_output(name);
        np->set_name(name);
        np->set_op_type(opType);
        if (writableAbstract(c.abstract())) {
            pb::AttributeProto* a = np->add_attribute();
            a->set_name("shape");
            attrFromAbstract(*c.abstract(), *a);
        }
        np->set_domain(c.debug().scope);
        for (const auto& [key, value] : c.attrs()) {
            pb::AttributeProto a;
            a.set_name(key);
            if (value &&
                attrFromValue(*value, a, [this](const FuncGraph* fg) { return graphName(fg); })) {
                *np->add_node_attr() = std::move(a);
            }
        }
        for (const auto& [key, value] : c.primalAttrs()) {
            pb::AttributeProto a;
            a.set_name(key);
            if (value &&
                attrFromValue(*value, a, [this](const FuncGraph* fg) { return graphName(fg); })) {
                *np->add_primal_attr() = std::move(a);
            }
        }
    }

    const ir::Module& m_;
    std::unordered_map<const FuncGraph*, std::string> graphNames_;
    std::set<std::string> usedGraphNames_;
    std::unordered_map<const Node*, std::string> names_;
    std::map<std::pair<const FuncGraph*, const ir::ValueNode*>, std::string> constants_;
    std::unordered_map<const ir::PrimitiveData*, std::string> primKeys_;
    std::vector<pb::PrimitiveProto> prims_;
};

}  // namespace

std::string writeMindir(const ir::Module& m, const WriteOptions& opts) {
    if (m.entry() == nullptr) {
        throw std::runtime_error("the module has no entry graph to write");
    }
    Writer w(m);
    const pb::ModelProto model = w.run(opts);
    std::string bytes = model.SerializeAsString();
    if (!opts.encKey.empty()) {
        bytes = encrypt(bytes, opts.encKey, opts.encMode);
    }
    return bytes;
}

}  // namespace irscope::mindir
