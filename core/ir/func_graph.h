// FuncGraph: one function of the program in ANF form. Its body is every CNode reachable
// from its Return node; parameters are the graph's inputs (the entry graph's include the
// weights, which carry `has_default`).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "ir/node.h"

namespace irscope::ir {

class FuncGraph {
public:
    FuncGraph(const FuncGraph&) = delete;
    FuncGraph& operator=(const FuncGraph&) = delete;

    // The printed name, with MindSpore's prefixes where they apply: "BackwardNet_construct",
    // "✓Net_construct", "↻Net_construct", "CR_Block_construct".
    const std::string& name() const { return name_; }
    void setName(std::string n) { name_ = std::move(n); }

    const std::vector<Parameter*>& parameters() const { return params_; }
    // The `Return(...)` CNode, or nullptr while the graph is being built.
    CNode* returnNode() const { return return_; }
    // The node the graph returns (input 1 of the Return node), or nullptr.
    Node* output() const;

    // Graph attributes printed in `subgraph attr:` (no_inline, cell_reuse, lazy_inline, ...).
    AttrMap& attrs() { return attrs_; }
    const AttrMap& attrs() const { return attrs_; }
    bool flag(std::string_view key) const;

    // Where the graph was defined (the `# In file ...` line above `subgraph @...`).
    DebugInfo& debug() { return debug_; }
    const DebugInfo& debug() const { return debug_; }

    // Every CNode reachable from the Return node through inputs that stay in this graph,
    // in a topological order (inputs before users, input order preserved), ending with
    // the Return node. This is the graph's body as it is printed and counted. Computed
    // once per state of the module: kept until the next change of any node's inputs or
    // any graph's Return node (Module::structureEpoch), so the passes, the fingerprint and
    // the printer that look at one state walk each graph once. Safe to call from several
    // threads reading one module.
    std::vector<CNode*> topoOrder() const;
    // The graphs named by the constants the body's CNodes take as inputs, in order of
    // reference (a graph named twice is listed twice): what reachableGraphs follows. Kept
    // per state of the module, as topoOrder is.
    std::vector<FuncGraph*> graphRefs() const;

    Module* module() const { return module_; }

    // Every live node that belongs to this graph (its parameters, constants and CNodes,
    // reachable or not), in no particular order. Kept by the Module, so erasing a graph or
    // looking at its nodes costs the graph's own size.
    const std::vector<Node*>& ownedNodes() const { return owned_; }

private:
    friend class Module;
    FuncGraph(Module* m, std::string name) : module_(m), name_(std::move(name)) {}
    Module* module_;
    std::string name_;
    std::vector<Parameter*> params_;
    CNode* return_ = nullptr;
    AttrMap attrs_;
    DebugInfo debug_;
    std::size_t slot_ = 0;
    std::vector<Node*> owned_;
    // How many graph references in the module's ValueNodes name this graph (a value naming
    // it twice counts twice): eraseGraph's "still referenced" check without a module scan.
    std::size_t valueRefs_ = 0;
    // topoOrder's result for the module's structure epoch topoEpoch_.
    std::vector<CNode*> computeTopoOrder() const;
    // The body kept for `epoch`, computed first if it is older (topoMutex_ held).
    const std::vector<CNode*>& bodyLocked(std::uint64_t epoch) const;
    mutable std::mutex topoMutex_;
    mutable std::uint64_t topoEpoch_ = UINT64_MAX;
    mutable std::vector<CNode*> topo_;
    mutable std::uint64_t refsEpoch_ = UINT64_MAX;
    mutable std::vector<FuncGraph*> refs_;
};

}  // namespace irscope::ir
