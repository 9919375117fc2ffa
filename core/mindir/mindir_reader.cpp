// MindIR -> irscope IR. The file's graphs become FuncGraphs (the ModelProto's `graph` is the
// entry, `functions` the others), graph inputs and weights become Parameters (weights with
// their values, as Ref abstracts keyed by ref_key), Constant nodes ValueNodes, every other
// NodeProto a CNode whose input 0 is the primitive (from the `primitives` table from 1.7 on,
// with its attributes), the called graph or the called node. Node names are global in a file,
// so a node may use a node or parameter of an enclosing graph (a closure's free variable).
#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "ir/ir_text.h"
#include "mindir/mindir_convert.h"
#include "mindir/mindir_wire.h"

namespace irscope::mindir {

using namespace detail;
using ir::Abstract;
using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ir::Value;
using ir::ValuePtr;
using K = MindirError::Kind;

namespace {

constexpr std::string_view kRef = "REF::";

// "G:name:7" -> "name" (the name MindSpore's node had in its graph), else the whole string.
std::string debugNameOf(const std::string& full, const std::string& graphName) {
    std::string_view s = full;
    if (!graphName.empty() && s.size() > graphName.size() + 1 && s.starts_with(graphName) &&
        s[graphName.size()] == ':') {
        s.remove_prefix(graphName.size() + 1);
        const std::size_t colon = s.rfind(':');
        if (colon != std::string_view::npos && colon > 0 && colon + 1 < s.size() &&
            std::all_of(s.begin() + static_cast<std::ptrdiff_t>(colon + 1), s.end(),
                        [](char c) { return c >= '0' && c <= '9'; })) {
            s = s.substr(0, colon);
        }
    }
    return std::string(s);
}

// The abstract a constant has: tensors, scalars, monads, None, types and tuples of them.
ir::AbstractPtr abstractOfConstant(const Value& v) {
    switch (v.kind) {
        case Value::Kind::Tensor:
            return Abstract::tensor(v.tensor->dtype, v.tensor->shape, v.tensor->hasData());
        case Value::Kind::Bool:
            return Abstract::scalar(ir::DType::Bool);
        case Value::Kind::Int:
        case Value::Kind::Float:
            return Abstract::scalar(v.dtype);
        case Value::Kind::String:
            return Abstract::scalar(ir::DType::String);
        case Value::Kind::Monad:
            return Abstract::monadAbs(v.monad);
        case Value::Kind::None:
            return Abstract::noneAbs();
        case Value::Kind::Type:
            return Abstract::typeAbs();
        case Value::Kind::Tuple:
        case Value::Kind::List: {
            std::vector<ir::AbstractPtr> elems;
            for (const auto& e : v.elements) {
                ir::AbstractPtr a = abstractOfConstant(*e);
                if (!a) {
                    return nullptr;
                }
                elems.push_back(std::move(a));
            }
            return v.kind == Value::Kind::Tuple ? Abstract::tuple(std::move(elems))
                                                : Abstract::list(std::move(elems));
        }
        default:
            return nullptr;
    }
}

std::string shortParamName(const std::string& full, const std::string& graphName) {
    if (!graphName.empty() && full.size() > graphName.size() + 1 && full.starts_with(graphName) &&
        full[graphName.size()] == ':') {
        return full.substr(graphName.size() + 1);
    }
    return full;
}

class Reader {
public:
    Reader(const pb::ModelProto& model, const std::string& fileName, const ReadOptions& opts,
           ModelInfo& info)
        : model_(model), file_(fileName), opts_(opts), info_(info) {
        cx_.fileName = fileName;
        cx_.littleEndian = !model.has_little_endian() || model.little_endian();
        cx_.findGraph = [this](std::string_view name) -> FuncGraph* {
            auto it = graphs_.find(std::string(name));
            return it == graphs_.end() ? nullptr : it->second;
        };
        cx_.externalBytes = &info_.externalBytes;
        if (!opts.baseDir.empty()) {
            cx_.readExternal = [this](const pb::TensorProto::ExternalData& e, std::size_t expect,
                                      std::string_view name, std::vector<std::byte>& out) {
                readExternal(e, expect, name, out);
            };
        }
    }

    std::unique_ptr<ir::Module> run() {
        m_ = std::make_unique<ir::Module>();
        std::vector<const pb::GraphProto*> protos{&model_.graph()};
        for (const auto& f : model_.functions()) {
            protos.push_back(&f);
        }
        for (const auto& p : model_.primitives()) {
            prims_.emplace(p.name(), &p);
        }
        info_.primitivesTable = model_.primitives_size() > 0;
        for (const pb::GraphProto* gp : protos) {
            if (graphs_.count(gp->name())) {
                throw MindirError(K::Corrupt, file_, "two graphs are named '" + gp->name() + "'");
            }
            FuncGraph* g = m_->addGraph(
                gp->name().empty() ? "graph" + std::to_string(graphs_.size()) : gp->name());
            graphs_.emplace(gp->name(), g);
            order_.push_back({gp, g});
        }
        m_->setEntry(order_.front().second);
        info_.graphs = order_.size();
        for (auto& [gp, g] : order_) {
            addParameters(*gp, g);
        }
        for (auto& [gp, g] : order_) {
            createNodes(*gp, g);
        }
        for (auto& [gp, g] : order_) {
            wireNodes(*gp, g);
        }
        for (auto& [gp, g] : order_) {
            checkAcyclic(g);
        }
        if (std::string problem = m_->verify(); !problem.empty()) {
            throw MindirError(K::Corrupt, file_, "inconsistent graph: " + problem);
        }
        return std::move(m_);
    }

private:
    struct PendingNode {
        const pb::NodeProto* proto;
        CNode* node;
    };

    // Names are meant to be unique in a file; where two graphs reuse one (constants such as
    // "output"), a graph's own definition wins over another graph's.
    void define(const std::string& name, Node* n) {
        if (!name.empty()) {
            local_[n->graph()].emplace(name, n);
            nodes_.emplace(name, n);
        }
    }

    Node* lookup(const std::string& name, FuncGraph* g) const {
        if (auto lg = local_.find(g); lg != local_.end()) {
            if (auto it = lg->second.find(name); it != lg->second.end()) {
                return it->second;
            }
        }
        auto it = nodes_.find(name);
        return it == nodes_.end() ? nullptr : it->second;
    }

    void addParameters(const pb::GraphProto& gp, FuncGraph* g) {
        for (const auto& in : gp.input()) {
            ir::Parameter* p = m_->addParameter(g, shortParamName(in.name(), gp.name()));
            if (in.tensor_size() > 0) {
                p->setAbstract(abstractFromTensor(in.tensor(0)));
            } else if (in.has_attr_info()) {
                p->setAbstract(abstractFromAttr(in.attr_info()));
            }
            define(in.name(), p);
        }
        for (const auto& w : gp.parameter()) {
            ir::Parameter* p = m_->addParameter(g, shortParamName(w.name(), gp.name()));
            const std::string key = w.has_ref_key() ? w.ref_key() : p->name();
            auto data = tensorFromProto(w, cx_);
            if (data) {
                p->setAbstract(Abstract::ref(data->dtype, data->shape, ":" + key));
                info_.weightBytes += data->data.size();
                p->setDefault(Value::tensorValue(std::move(*data)));
            } else {
                p->setAbstract(abstractFromTensor(w));
                p->setDefault(Value::opaque(tensorCodeName(w.data_type()) + " weight"));
            }
            ++info_.parameters;
            define(w.name(), p);
        }
    }

    // Constants become ValueNodes now; operations become CNodes without inputs, wired once
    // every name in the file is known.
    void createNodes(const pb::GraphProto& gp, FuncGraph* g) {
        for (const auto& np : gp.node()) {
            if (np.op_type() == "Constant") {
                ++info_.constants;
                const pb::AttributeProto* valueAttr = nullptr;
                for (const auto& a : np.attribute()) {
                    if (a.name() == "value" || valueAttr == nullptr) {
                        valueAttr = &a;
                    }
                }
                ValuePtr v = valueAttr ? valueFromAttr(*valueAttr, cx_) : Value::none();
                ir::AbstractPtr abs = abstractOfConstant(*v);
                ir::ValueNode* vn = m_->addValue(g, std::move(v));
                vn->setAbstract(std::move(abs));
                vn->mutableDebug().name = np.name();
                for (const auto& out : np.output()) {
                    define(out, vn);
                }
                define(np.name(), vn);
                continue;
            }
            ++info_.nodes;
            CNode* c = m_->addCNode(g, {});
            c->mutableDebug().name = debugNameOf(np.name(), gp.name());
            c->mutableDebug().scope = np.domain();
            if (np.name().empty() && np.output_size() == 0) {
                throw MindirError(
                    K::Corrupt, file_,
                    "a node of graph '" + gp.name() + "' has neither a name nor an output");
            }
            for (const auto& out : np.output()) {
                define(out, c);
            }
            define(np.name(), c);
            pending_[g].push_back({&np, c});
        }
    }

    ir::ValueNode* valueIn(FuncGraph* g, const std::string& key,
                           const std::function<ValuePtr()>& make) {
        auto& slot = values_[{g, key}];
        if (slot == nullptr) {
            slot = m_->addValue(g, make());
        }
        return slot;
    }

    ValuePtr primitiveValue(const pb::PrimitiveProto& p) {
        ir::PrimitiveData d;
        d.name = p.op_type().empty() ? p.name() : p.op_type();
        d.instanceName = p.instance_name();
        for (const auto& a : p.attribute()) {
            d.attrs.set(a.name(), valueFromAttr(a, cx_));
        }
        return Value::primitive(std::move(d));
    }

    // Input 0 of a node: its primitive, called graph or called node.
    Node* callee(const pb::NodeProto& np, FuncGraph* g, CNode* c, bool typedStyle) {
        const std::string& op = np.op_type();
        if (op.starts_with(kRef)) {
            const std::string key = op.substr(kRef.size());
            if (auto it = prims_.find(key); it != prims_.end()) {
                countOp(it->second->op_type().empty() ? key : it->second->op_type());
                return valueIn(g, "prim:" + key, [&] { return primitiveValue(*it->second); });
            }
            if (auto it = graphs_.find(key); it != graphs_.end()) {
                FuncGraph* callee = it->second;
                return valueIn(g, "graph:" + key, [&] { return Value::graphRef(callee); });
            }
            if (Node* n = lookup(key, g)) {
                if (n == c) {
                    throw MindirError(K::Corrupt, file_, "node '" + np.name() + "' calls itself");
                }
                return n;
            }
            // A primitive without a table entry ("REF::Conv2D:4" in a file lacking the
            // table, "REF::MetaFuncGraph::in", "REF::ClassType::..."): keep its name.
            std::string name = key;
            if (const std::size_t colon = name.rfind(':');
                colon != std::string::npos && colon > 0 && name[colon - 1] != ':' &&
                std::all_of(name.begin() + static_cast<std::ptrdiff_t>(colon + 1), name.end(),
                            [](char ch) { return ch >= '0' && ch <= '9'; })) {
                name.resize(colon);
            }
            countOp(name);
            return valueIn(g, "prim:" + key, [&] { return Value::primitive(name); });
        }
        if (auto it = graphs_.find(op); it != graphs_.end() && !op.empty()) {
            FuncGraph* callee = it->second;
            return valueIn(g, "graph:" + op, [&] { return Value::graphRef(callee); });
        }
        // 1.x: the bare primitive name, its attributes on the node.
        ir::PrimitiveData d;
        d.name = op.empty() ? std::string("<unnamed>") : op;
        for (const auto& a : np.attribute()) {
            if (!isShapeAttr(a, typedStyle) && !a.name().empty()) {
                d.attrs.set(a.name(), valueFromAttr(a, cx_));
            }
        }
        countOp(d.name);
        return m_->addValue(g, Value::primitive(std::move(d)));
    }

    void countOp(const std::string& name) { ++info_.ops[name]; }

    Node* inputNode(const std::string& name, FuncGraph* g, const pb::NodeProto& user) {
        if (Node* n = lookup(name, g)) {
            return n;
        }
        if (auto it = graphs_.find(name); it != graphs_.end()) {
            FuncGraph* target = it->second;
            return valueIn(g, "graph:" + name, [&] { return Value::graphRef(target); });
        }
        throw MindirError(K::Corrupt, file_,
                          "node '" + user.name() + "' of graph '" + g->name() + "' uses '" + name +
                              "', which no node, parameter or graph of the file defines");
    }

    void wireNodes(const pb::GraphProto& gp, FuncGraph* g) {
        const bool typedStyle = model_.primitives_size() > 0 || model_.mind_ir_version() > 0;
        for (const PendingNode& pn : pending_[g]) {
            const pb::NodeProto& np = *pn.proto;
            m_->appendInput(pn.node, callee(np, g, pn.node, typedStyle));
            for (const auto& in : np.input()) {
                m_->appendInput(pn.node, inputNode(in, g, np));
            }
            for (const auto& a : np.attribute()) {
                if (isShapeAttr(a, typedStyle)) {
                    if (auto abs = abstractFromAttr(a)) {
                        pn.node->setAbstract(std::move(abs));
                    }
                }
            }
            for (const auto& a : np.node_attr()) {
                pn.node->attrs().set(a.name(), valueFromAttr(a, cx_));
            }
            for (const auto& a : np.primal_attr()) {
                pn.node->primalAttrs().set(a.name(), valueFromAttr(a, cx_));
            }
        }
        for (const auto& a : gp.attribute()) {
            g->attrs().set(a.name(), valueFromAttr(a, cx_));
        }
        if (gp.output_size() == 0) {
            throw MindirError(K::Corrupt, file_, "graph '" + gp.name() + "' names no output");
        }
        Node* out = nullptr;
        if (gp.output_size() == 1) {
            out = inputNode(gp.output(0).name(), g, pb::NodeProto());
        } else {
            std::vector<Node*> elems{
                valueIn(g, "prim:MakeTuple", [] { return Value::primitive("MakeTuple"); })};
            for (const auto& o : gp.output()) {
                elems.push_back(inputNode(o.name(), g, pb::NodeProto()));
            }
            out = m_->addCNode(g, elems);
        }
        CNode* ret = m_->setOutput(g, out);
        if (gp.output_size() == 1 && gp.output(0).tensor_size() > 0 && out->abstract() == nullptr) {
            out->setAbstract(abstractFromTensor(gp.output(0).tensor(0)));
        }
        ret->setAbstract(out->abstract());
    }

    // A node that (through nodes of its own graph) uses itself would make every walk of the
    // graph loop; refuse it.
    void checkAcyclic(FuncGraph* g) {
        std::unordered_map<const CNode*, int> state;  // 1 on the stack, 2 done
        for (Node* n : g->ownedNodes()) {
            auto* root = ir::nodeCast<CNode>(n);
            if (root == nullptr || state[root] != 0) {
                continue;
            }
            std::vector<std::pair<const CNode*, std::size_t>> stack{{root, 0}};
            state[root] = 1;
            while (!stack.empty()) {
                auto& [c, i] = stack.back();
                if (i < c->size()) {
                    const auto* next = ir::nodeCast<CNode>(c->input(i++));
                    if (next == nullptr || next->graph() != g) {
                        continue;
                    }
                    int& s = state[next];
                    if (s == 1) {
                        throw MindirError(K::Corrupt, file_,
                                          "node '" + next->debug().name + "' of graph '" +
                                              g->name() + "' depends on itself");
                    }
                    if (s == 0) {
                        s = 1;
                        stack.push_back({next, 0});
                    }
                } else {
                    state[c] = 2;
                    stack.pop_back();
                }
            }
        }
    }

    void readExternal(const pb::TensorProto::ExternalData& e, std::size_t expect,
                      std::string_view tensorName, std::vector<std::byte>& out) {
        namespace fs = std::filesystem;
        const std::string who = "tensor '" + std::string(tensorName) + "'";
        const fs::path rel(e.location());
        if (e.location().empty() || rel.is_absolute() ||
            std::any_of(rel.begin(), rel.end(),
                        [](const fs::path& part) { return part == ".."; })) {
            throw MindirError(K::External, file_,
                              who + ": external data location '" + e.location() +
                                  "' must be a path inside the model's folder");
        }
        const fs::path path = fs::path(opts_.baseDir) / rel;
        auto& f = external_[path.string()];
        if (!f) {
            f = std::make_unique<std::ifstream>(path, std::ios::binary);
            if (!*f) {
                throw MindirError(K::External, file_,
                                  who + ": cannot open its external data file " + path.string());
            }
            ++info_.externalFiles;
        }
        std::error_code ec;
        const auto size = fs::file_size(path, ec);
        const std::int64_t length = e.has_length() ? e.length() : static_cast<std::int64_t>(expect);
        if (ec || e.offset() < 0 || length < 0 ||
            static_cast<std::uint64_t>(e.offset()) + static_cast<std::uint64_t>(length) > size) {
            throw MindirError(K::External, file_,
                              who + ": external data " + path.string() + " is " +
                                  std::to_string(ec ? 0 : size) + " bytes, too short for offset " +
                                  std::to_string(e.offset()) + " + length " +
                                  std::to_string(length));
        }
        if (static_cast<std::uint64_t>(length) != expect) {
            throw MindirError(K::External, file_,
                              who + ": external data length " + std::to_string(length) +
                                  " does not match its shape and dtype (" + std::to_string(expect) +
                                  " bytes)");
        }
        out.resize(expect);
        f->clear();
        f->seekg(e.offset());
        f->read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(expect));
        if (!*f) {
            throw MindirError(K::External, file_, who + ": cannot read " + path.string());
        }
    }

    const pb::ModelProto& model_;
    std::string file_;
    const ReadOptions& opts_;
    ModelInfo& info_;
    ConvertContext cx_;
    std::unique_ptr<ir::Module> m_;
    std::vector<std::pair<const pb::GraphProto*, FuncGraph*>> order_;
    std::unordered_map<std::string, FuncGraph*> graphs_;
    std::unordered_map<std::string, const pb::PrimitiveProto*> prims_;
    std::unordered_map<std::string, Node*> nodes_;
    std::unordered_map<const FuncGraph*, std::unordered_map<std::string, Node*>> local_;
    std::unordered_map<FuncGraph*, std::vector<PendingNode>> pending_;
    std::map<std::pair<FuncGraph*, std::string>, ir::ValueNode*> values_;
    std::unordered_map<std::string, std::unique_ptr<std::ifstream>> external_;
};

}  // namespace

bool hasMindirExtension(std::string_view path) {
    if (path.size() < 7) {
        return false;
    }
    std::string ext(path.substr(path.size() - 7));
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return ext == ".mindir";
}

Model readMindir(std::string_view bytes, const std::string& fileName, const ReadOptions& opts) {
    Model result;
    ModelInfo& info = result.info;
    if (bytes.empty()) {
        throw MindirError(K::Foreign, fileName, "empty file, not a MindIR model");
    }
    std::string plain;
    info.encryption = detectEncryption(bytes);
    if (info.encryption != Encryption::None) {
        const std::string mode(encryptionName(info.encryption));
        if (opts.decKey.empty()) {
            throw MindirError(K::Encrypted, fileName,
                              "this MindIR file is encrypted (" + mode +
                                  "); open it with its key: irscope-cli info|dump|run ... "
                                  "--dec-key KEY (the app asks for the key)");
        }
        if (!opts.decMode.empty() && opts.decMode != mode) {
            throw MindirError(K::WrongKey, fileName,
                              "the file is encrypted with " + mode + ", not " + opts.decMode);
        }
        plain = decrypt(bytes, opts.decKey, info.encryption, fileName);
        bytes = plain;
    }
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw MindirError(K::Corrupt, fileName, "larger than 2 GiB, which protobuf cannot read");
    }
    pb::ModelProto model;
    if (!model.ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
        const WireProblem p = locateWireProblem(bytes, *pb::ModelProto::descriptor());
        throw MindirError(p.foreign ? K::Foreign : K::Corrupt, fileName, p.message);
    }
    if (!model.IsInitialized()) {
        throw MindirError(K::Corrupt, fileName,
                          "missing required fields: " + model.InitializationErrorString());
    }
    if (!model.has_graph()) {
        const auto& unknown = model.GetReflection()->GetUnknownFields(model);
        for (int i = 0; i < unknown.field_count(); ++i) {
            if (unknown.field(i).number() == 1 &&
                unknown.field(i).type() == google::protobuf::UnknownField::TYPE_VARINT) {
                throw MindirError(
                    K::Foreign, fileName,
                    "written with ONNX's schema (MindSpore 1.0's MindIR), which "
                    "irscope does not read; export it again with MindSpore 1.1 or later");
            }
        }
        throw MindirError(K::Foreign, fileName,
                          model.producer_name().empty()
                              ? "not a MindIR model (" + describeForeign(bytes) + ")"
                              : "MindIR model without a graph");
    }
    info.irVersion = model.ir_version();
    info.producerName = model.producer_name();
    info.modelVersion = model.model_version();
    info.mindIrVersion = model.mind_ir_version();
    info.hasLittleEndian = model.has_little_endian();
    info.littleEndian = !model.has_little_endian() || model.little_endian();
    Reader reader(model, fileName, opts, info);
    result.module = reader.run();
    return result;
}

Model readMindirFile(const std::string& path, ReadOptions opts) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        throw MindirError(K::Unreadable, path, "is a folder, not a MindIR file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw MindirError(K::Unreadable, path, "cannot open the file");
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        throw MindirError(K::Unreadable, path, "cannot read the file");
    }
    if (opts.baseDir.empty()) {
        opts.baseDir = fs::path(path).parent_path().string();
        if (opts.baseDir.empty()) {
            opts.baseDir = ".";
        }
    }
    return readMindir(bytes, path, opts);
}

}  // namespace irscope::mindir
