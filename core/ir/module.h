// Module: owns FuncGraphs and nodes. Every mutation of the graph structure goes through
// this class so the use-def index (Node::users) stays consistent.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ir/func_graph.h"
#include "ir/node.h"

namespace irscope::ir {

struct NodeCounts {
    std::size_t graphs = 0;
    std::size_t nodes = 0;   // parameters and CNodes, plus each use of a constant
    std::size_t cnodes = 0;  // CNodes in graph bodies, Return nodes included
};

class Module {
public:
    Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    ~Module();

    // --- graphs -------------------------------------------------------------------------
    FuncGraph* addGraph(std::string name);
    // Erases a graph and all nodes that belong to it. Nodes of other graphs must no longer
    // use them (checked; throws std::logic_error otherwise), and no value may refer to it.
    void eraseGraph(FuncGraph* g);
    // Graphs in creation order (the printer's order for subgraphs is derived from entry).
    std::vector<FuncGraph*> graphs() const;
    std::size_t graphCount() const { return graphs_.size(); }
    FuncGraph* graphAt(std::size_t i) const { return graphs_.at(i).get(); }
    FuncGraph* entry() const { return entry_; }
    void setEntry(FuncGraph* g) { entry_ = g; }
    FuncGraph* findGraph(std::string_view name) const;
    // Graphs reachable from the entry through graph values, entry first, then in the
    // order they are first referenced (depth-first), as dumps list them.
    std::vector<FuncGraph*> reachableGraphs() const;

    // Module-level attributes (the header's `# Attrs:` block).
    AttrMap& attrs() { return attrs_; }
    const AttrMap& attrs() const { return attrs_; }

    // Lines of a read dump outside its graphs that irscope does not model, verbatim: the
    // banner analyze_fail.ir starts with (the exception, the C++ call stack, the traceback)
    // and what follows the last graph. printIr writes them back where they were.
    std::vector<std::string>& preamble() { return preamble_; }
    const std::vector<std::string>& preamble() const { return preamble_; }
    std::vector<std::string>& trailer() { return trailer_; }
    const std::vector<std::string>& trailer() const { return trailer_; }

    // --- nodes --------------------------------------------------------------------------
    Parameter* addParameter(FuncGraph* g, std::string name);
    // A new parameter of g copying `like`: its name, default, abstract and (shared) debug info.
    Parameter* addParameterLike(FuncGraph* g, const Parameter& like);
    ValueNode* addValue(FuncGraph* g, ValuePtr v);
    CNode* addCNode(FuncGraph* g, const std::vector<Node*>& inputs);
    // Creates `Return(out)` in g and makes it g's return node.
    CNode* setOutput(FuncGraph* g, Node* out);
    void setReturnNode(FuncGraph* g, CNode* ret);

    void setInput(CNode* n, std::size_t index, Node* input);
    void appendInput(CNode* n, Node* input);
    // Removes input `index` and shifts the later inputs down.
    void removeInput(CNode* n, std::size_t index);
    // Every use of `from` becomes a use of `to` (`from` itself is left in place).
    void replaceAllUses(Node* from, Node* to);
    // Removes a node that has no users; its own uses of its inputs go away.
    // Throws std::logic_error if the node still has users or is a graph's Return.
    void erase(Node* n);
    // Removes a parameter from its graph's parameter list (it must have no users).
    void eraseParameter(Parameter* p);
    // Gives `nodes` fresh ids in the order listed, each above every id the module has given,
    // as creating them again in that order would (task_emit numbers a kernel graph's nodes
    // in its execution order). Inputs, users and everything else stay as they are.
    void renumber(const std::vector<CNode*>& nodes);

    // Changes whenever any CNode's inputs or any graph's Return node change (every mutation
    // that can change a graph's body): what FuncGraph::topoOrder's cache is keyed by.
    std::uint64_t structureEpoch() const { return structureEpoch_; }

    // Number of live nodes of every kind (owned, whether reachable or not).
    std::size_t liveNodeCount() const;
    // Counts as MindSpore's `Node counting information` block: over the graphs reachable
    // from the entry.
    NodeCounts counts() const;

    // --- whole-module operations ----------------------------------------------------------
    // A deep copy: new graphs and nodes with the same ids, names, abstracts and debug info;
    // values referring to graphs point at the copies.
    std::unique_ptr<Module> clone() const;
    // A copy to print, fingerprint and count (the snapshots' copies): clone() without the
    // nodes' users, which none of these reads (so it costs about one allocation per node
    // less). Read-only: without users it is not a consistent module for a pass or verify().
    std::unique_ptr<const Module> printCopy() const;
    // Checks the use-def index and ownership invariants; returns "" when consistent,
    // otherwise a description of the first problem found.
    std::string verify() const;

    // Visits every live node in creation order.
    template <typename F>
    void forEachNode(F&& f) const {
        for (const auto& n : nodes_) {
            if (n) {
                f(n.get());
            }
        }
    }

private:
    std::unique_ptr<Module> copy(bool withUsers) const;

    template <typename T>
    T* adopt(std::unique_ptr<T> n);
    // Enters a new node in its graph's owned list and (a ValueNode) in the graph-reference
    // counts; disown undoes both.
    void own(Node* n);
    void enterInGraph(Node* n);  // own()'s first half: the graph's owned list only
    void disown(Node* n);
    void addUse(Node* input, CNode* user, std::size_t index);
    void removeUse(Node* input, CNode* user, std::size_t index);

    // Owns a node: frees it, or only destroys it when it lives in pool_.
    struct NodeDelete {
        void operator()(Node* n) const noexcept;
    };
    using NodeOwner = std::unique_ptr<Node, NodeDelete>;

    std::vector<std::unique_ptr<FuncGraph>> graphs_;
    // A clone's nodes, made in one block (one allocation instead of one per node, and one
    // free when the copy goes); nodes added later are allocated one by one. Declared before
    // nodes_, so it outlives them.
    std::unique_ptr<std::byte[]> pool_;
    std::vector<NodeOwner> nodes_;  // arena; erased slots are null
    std::size_t liveNodes_ = 0;
    std::uint64_t nextId_ = 1;
    std::uint64_t structureEpoch_ = 0;
    FuncGraph* entry_ = nullptr;
    AttrMap attrs_;
    std::vector<std::string> preamble_;
    std::vector<std::string> trailer_;
};

}  // namespace irscope::ir
