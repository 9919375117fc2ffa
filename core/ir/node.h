// ANF nodes: Parameter, ValueNode and CNode. Nodes are owned by a Module and mutated only
// through the Module's API, which keeps the use-def index consistent.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ir/abstract.h"
#include "ir/value.h"

namespace irscope::ir {

class FuncGraph;
class Module;
class CNode;

// One source position of a node's origin: `# In file f.py:16, 12~25/    a = ops.sub(x, 1)/`.
struct SourceLocation {
    std::string file;
    int line = 0;     // 1-based; 0 when unknown
    int lineEnd = 0;  // equal to line for a one-line span
    int col = -1;     // 0-based column range as MindSpore prints it; -1 when not printed
    int colEnd = -1;
    std::string text;  // the source line text between the slashes
    std::string note;  // text after the closing slash (e.g. "<~~This line of code ...")
    bool operator==(const SourceLocation&) const = default;
};

// One device tensor of a kernel graph as MindSpore prints it after kernel selection:
// `<Float32xNC1HWC0[const vector][32, 1, 32, 32, 16]>` is type "Float32", format "NC1HWC0",
// shape "[const vector][32, 1, 32, 32, 16]" (kept as written; 1.x prints the prefix).
struct DeviceTensor {
    std::string type;
    std::string format;  // empty when MindSpore printed only the type: `<Float32>`
    std::string shape;
    bool operator==(const DeviceTensor&) const = default;
};

// What a MindSpore dump says about a node or a graph beyond what irscope models. The reader
// fills it, the printer writes it back, so `dump` of a real file loses nothing; modules
// built by irscope's own passes have none. Shared between clones (never mutated once read).
struct DumpNotes {
    // Kernel graphs (`hwopt_*`, `graph_build_*`): a CNode's device type line after its type
    // line (`: (<Float32xDefaultFormat[..]>, ...) -> (<...>)`), a parameter's device type and
    // `IsWeight:` suffix in the header.
    bool hasKernel = false;
    std::vector<DeviceTensor> kernelInputs;
    std::vector<DeviceTensor> kernelOutputs;
    std::optional<bool> isWeight;
    // A header parameter's text after what is read (`: []` in 2.3 dumps), kept as written.
    std::string suffix;
    // analyze_fail.ir: N of the `#------------------------> N` marker in front of the node
    // (frame N of the traced call stack, 0 outermost); -1 when there is none.
    int stackFrame = -1;
    // A value node owned by another graph: `$(graph):MakeTuple(...)` (2.x), the text between
    // the parentheses.
    std::string owner;
    // A reference the file uses but does not define (`%para11_27`, `%7`), kept as written: the
    // node is a stand-in of no graph.
    std::string unresolved;
    // A graph's `parent: [subgraph @outer]`, the text between the brackets.
    std::string parent;
    // A CNode's groups after its callee (`[@FuncUnion(@a, @b)]`, `[side_effect_propagate=1]`,
    // 1.x `{prim_type=1}`) and after its inputs (`{in_strategy: ...}`), as written.
    std::string calleeSuffix;
    std::string lineSuffix;
    // Lines kept verbatim (without their indentation): a node's after its type and debug
    // lines; a graph's in front of its header (`subgraph instance: g : 0x...`, `indirect: 1`)
    // split around its `subgraph attr:` block.
    std::vector<std::string> lines;
    std::vector<std::string> linesAfterAttrs;
    // A graph's lines after its closing brace: the `# Order:` block of analyze_fail.ir.
    std::vector<std::string> linesAfter;
    // A graph: print every node read, in file order, also those its Return does not reach
    // (analyze_fail.ir stops where inference failed).
    bool keepAllNodes = false;
    bool operator==(const DumpNotes&) const = default;
};

// A node's source trace: an immutable list of locations shared by every copy (a copy of a
// module, Module::clone, one per snapshot, copies a pointer per node instead of every
// location's file, line text and note). A change makes a new list, so two traces with the
// same identity() hold the same locations (module fingerprints hash the identity). Reads
// like a const std::vector.
class LocationTrace {
public:
    using Items = std::vector<SourceLocation>;
    LocationTrace() = default;
    LocationTrace(std::initializer_list<SourceLocation> items)
        : items_(items.size() == 0 ? nullptr : std::make_shared<const Items>(items)) {}
    LocationTrace(Items items)  // NOLINT: a vector of locations is a trace
        : items_(items.empty() ? nullptr : std::make_shared<const Items>(std::move(items))) {}

    const Items& items() const { return items_ ? *items_ : empty_(); }
    Items::const_iterator begin() const { return items().begin(); }
    Items::const_iterator end() const { return items().end(); }
    Items::const_reverse_iterator rbegin() const { return items().rbegin(); }
    Items::const_reverse_iterator rend() const { return items().rend(); }
    std::size_t size() const { return items().size(); }
    bool empty() const { return items().empty(); }
    const SourceLocation& operator[](std::size_t i) const { return items()[i]; }
    const SourceLocation& at(std::size_t i) const { return items().at(i); }
    const SourceLocation& front() const { return items().front(); }
    const SourceLocation& back() const { return items().back(); }
    // The list's identity: equal identities mean equal traces (not the converse).
    const void* identity() const { return items_.get(); }

    // A new list with `loc` appended (traces are a few locations long).
    void push_back(SourceLocation loc) {
        auto more = std::make_shared<Items>(items());
        more->push_back(std::move(loc));
        items_ = std::move(more);
    }
    bool operator==(const LocationTrace& o) const { return items_ == o.items_ || items() == o.items(); }

private:
    static const Items& empty_() {
        static const Items none;
        return none;
    }
    std::shared_ptr<const Items> items_;
};

struct DebugInfo {
    std::string name;   // debug name printed in parentheses: "CNode_12$a", "a", "[CNode]5"
    std::string scope;  // "Default/network-Net/blocks-0/Add-op0"
    LocationTrace trace;  // outermost first, as dumps list them
    std::shared_ptr<const DumpNotes> dump;  // null unless read from a file that needs it
    bool operator==(const DebugInfo& o) const {
        return name == o.name && scope == o.scope && trace == o.trace &&
               (dump == o.dump || (dump && o.dump && *dump == *o.dump));
    }
};

struct Use {
    CNode* user = nullptr;
    std::size_t index = 0;
    bool operator==(const Use&) const = default;
};

class Node {
public:
    enum class Kind : std::uint8_t { Parameter, Value, CNode };

    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;
    virtual ~Node() = default;

    Kind kind() const { return kind_; }
    bool isParameter() const { return kind_ == Kind::Parameter; }
    bool isValue() const { return kind_ == Kind::Value; }
    bool isCNode() const { return kind_ == Kind::CNode; }

    // Stable within a module and kept by Module::clone, so snapshots of one compile can be
    // matched node by node.
    std::uint64_t id() const { return id_; }
    FuncGraph* graph() const { return graph_; }

    const AbstractPtr& abstract() const { return abstract_; }
    void setAbstract(AbstractPtr a) { abstract_ = std::move(a); }
    // The debug info is a value, shared with the node's copies (Module::clone copies a
    // 135k-node module for every snapshot) until one of them changes it: mutableDebug()
    // gives this node a copy of its own first. Only the thread that owns the module may
    // change it; copies read theirs on any thread.
    const DebugInfo& debug() const { return debug_ ? *debug_ : noDebug(); }
    DebugInfo& mutableDebug();
    // Takes `from`'s debug info (shared, as a copy shares it).
    void shareDebug(const Node& from) { debug_ = from.debug_; }
    // Takes `from`'s source location, its scope and trace but not its name: what a node
    // made on `from`'s behalf (a pass's helper node, a gradient's piece) is printed with.
    // A node with no debug info of its own shares `from`'s when that holds nothing else
    // (passes make many nodes per source node: one object instead of one each).
    void copyLocation(const Node& from) {
        if (debug_ == nullptr && (from.debug_ == nullptr ||
                                  (from.debug_->name.empty() && from.debug_->dump == nullptr))) {
            debug_ = from.debug_;
            return;
        }
        DebugInfo& d = mutableDebug();
        d.scope = from.debug().scope;
        d.trace = from.debug().trace;
    }

    const std::vector<Use>& users() const { return users_; }

protected:
    Node(Kind k, std::uint64_t id, FuncGraph* g) : kind_(k), id_(id), graph_(g) {}

private:
    friend class Module;
    friend class FuncGraph;  // topoOrder marks visited nodes by ownedSlot_
    Kind kind_;
    bool pooled_ = false;  // made in its module's node pool (Module::clone): destroyed, not freed
    std::uint64_t id_;
    FuncGraph* graph_;
    AbstractPtr abstract_;
    static const DebugInfo& noDebug();
    std::shared_ptr<DebugInfo> debug_;  // null: no debug info
    std::vector<Use> users_;
    std::size_t slot_ = 0;       // index in the module's node arena
    std::size_t ownedSlot_ = 0;  // index in its graph's ownedNodes()
};

class Parameter final : public Node {
public:
    // The name without the `%paraN_` prefix the printer adds: "x", "param", "inputs0".
    const std::string& name() const { return name_; }
    void setName(std::string n) { name_ = std::move(n); }
    // Weights (`: has_default`) carry their initial value when it is known.
    bool hasDefault() const { return hasDefault_; }
    const ValuePtr& defaultValue() const { return default_; }
    void setDefault(ValuePtr v) {
        hasDefault_ = true;
        default_ = std::move(v);
    }
    void clearDefault() {
        hasDefault_ = false;
        default_ = nullptr;
    }

private:
    friend class Module;
    Parameter(std::uint64_t id, FuncGraph* g, std::string name)
        : Node(Kind::Parameter, id, g), name_(std::move(name)) {}
    std::string name_;
    bool hasDefault_ = false;
    ValuePtr default_;
};

class ValueNode final : public Node {
public:
    const ValuePtr& value() const { return value_; }

private:
    friend class Module;
    ValueNode(std::uint64_t id, FuncGraph* g, ValuePtr v)
        : Node(Kind::Value, id, g), value_(std::move(v)) {}
    ValuePtr value_;
};

class CNode final : public Node {
public:
    const std::vector<Node*>& inputs() const { return inputs_; }
    std::size_t size() const { return inputs_.size(); }
    Node* input(std::size_t i) const { return inputs_.at(i); }
    Node* callee() const { return inputs_.empty() ? nullptr : inputs_[0]; }

    // The primitive called when input 0 is a primitive ValueNode, else nullptr.
    const PrimitiveData* primitive() const;
    bool isPrimitive(std::string_view name) const;
    // The graph called directly (`call @g(...)`) when input 0 is a graph ValueNode.
    FuncGraph* calledGraph() const;

    AttrMap& attrs() { return attrs_; }  // cnode_attrs
    const AttrMap& attrs() const { return attrs_; }
    AttrMap& primalAttrs() { return primalAttrs_; }  // cnode_primal_attrs
    const AttrMap& primalAttrs() const { return primalAttrs_; }

private:
    friend class Module;
    CNode(std::uint64_t id, FuncGraph* g) : Node(Kind::CNode, id, g) {}
    std::vector<Node*> inputs_;
    AttrMap attrs_;
    AttrMap primalAttrs_;
};

inline const PrimitiveData* CNode::primitive() const {
    if (inputs_.empty() || !inputs_[0]->isValue()) {
        return nullptr;
    }
    const auto& v = static_cast<const ValueNode*>(inputs_[0])->value();
    return v->kind == Value::Kind::Primitive ? v->prim.get() : nullptr;
}

inline bool CNode::isPrimitive(std::string_view name) const {
    const PrimitiveData* p = primitive();
    return p != nullptr && p->name == name;
}

inline FuncGraph* CNode::calledGraph() const {
    if (inputs_.empty() || !inputs_[0]->isValue()) {
        return nullptr;
    }
    const auto& v = static_cast<const ValueNode*>(inputs_[0])->value();
    return v->kind == Value::Kind::Graph ? v->graph : nullptr;
}

template <typename T>
T* nodeCast(Node* n) {
    if (n == nullptr) {
        return nullptr;
    }
    if constexpr (std::is_same_v<T, CNode>) {
        return n->isCNode() ? static_cast<CNode*>(n) : nullptr;
    } else if constexpr (std::is_same_v<T, Parameter>) {
        return n->isParameter() ? static_cast<Parameter*>(n) : nullptr;
    } else {
        static_assert(std::is_same_v<T, ValueNode>, "nodeCast: T is CNode, Parameter or ValueNode");
        return n->isValue() ? static_cast<ValueNode*>(n) : nullptr;
    }
}

template <typename T>
const T* nodeCast(const Node* n) {
    return nodeCast<T>(const_cast<Node*>(n));
}

}  // namespace irscope::ir
