// meta_fg_expand internals (passes/autodiff*.cpp). One Expander per grad call:
//   1. forward (autodiff_forward.cpp): the target graph's body is copied into the caller,
//      its parameters bound to the call's inputs (and monads), direct graph calls copied in
//      as well (recursively), so the forward computation is straight-line code in the caller;
//      a Switch call on a tensor condition and a no_inline call go through fprop graphs
//      (autodiff_fprop.cpp), each built by an Expander of its own;
//   2. sweep (autodiff_sweep.cpp): reverse mode over the copy, last node first, from
//      sens = ones (or the sens input); each primitive's gradient comes from its
//      OpDef::bprop rule, tuples/Depend/Load/monads are handled here; contributions to one
//      value are accumulated with AddN(MakeTuple(sum, new)) in the order the sweep makes them;
//   3. the call is replaced by the gradients laid out as GradSpec says (autodiff.cpp).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "passes/autodiff.h"
#include "passes/compile_error.h"

namespace irscope::passes::autodiff {

// The gradient of one value: a node, or per element of a tuple value (an empty element has
// no gradient: zero). Empty as a whole: no gradient.
struct Grad {
    ir::Node* node = nullptr;
    std::vector<Grad> elems;
    bool empty() const { return node == nullptr && elems.empty(); }
    static Grad of(ir::Node* n) {
        Grad g;
        g.node = n;
        return g;
    }
};

// What an original node stands for in the caller: the node holding its value and the key
// its gradient accumulates under (nullptr: a constant, no gradient). The target's own
// parameters have their own keys, so f(x, x) gets one gradient per parameter.
struct Mapped {
    ir::Node* node = nullptr;
    const void* key = nullptr;
};

CompileError errorAt(const ir::Node* at, const std::string& pyType, const std::string& message);
// A tuple or a list (a MakeTuple node with a List abstract): gradients go element by element.
inline bool isSequence(const ir::AbstractPtr& a) {
    return a && (a->kind == ir::Abstract::Kind::Tuple || a->kind == ir::Abstract::Kind::List);
}
// MindSpore's scope of a node the backward pass makes for `forward`: "Gradients/" before the
// forward scope, then "Grad_<Prim>" when a primitive's bprop made it, as 2.x dumps show
// (`Gradients/Default/network-Net/Grad_MatMul`).
std::string gradientScope(const ir::Node* forward);
// Whether `from` reaches `to` through the graphs its nodes name (calls, Partials, Switches).
bool reachesGraph(ir::FuncGraph* from, const ir::FuncGraph* to);

// A graph differentiated once per grad call instead of copied into each caller: a recursive
// graph (the ↵ header and ↻ body of a while loop on a tensor condition, a recursive
// function), and a no_inline graph (lazy inline's CR_ graph, as MindSpore differentiates a
// reused cell once). It gets one fprop graph ▸g(g's parameters) returning
// (out, Partial(@◂g, saved...)), shared by every call of g, where ◂g(saved..., dout)
// returns the gradients of g's differentiable parameters (`gradParams`, in order) and then
// of `weights`. ▸g calls the fprop graphs of the shared graphs it reaches, itself included
// for a recursive one, as MindSpore's J of a FuncGraph does.
//
// `weights`: for a recursive graph, every weight of the grad (its own calls inside ▸g need
// the list before its sweep ran); for a no_inline graph, only the weights it reads as free
// variables that get a gradient, so that a CR_ graph called once per layer, each call
// passing that layer's weights as arguments, does not return (and each call site add) a
// zero gradient for every weight of the network.
struct SharedFprop {
    ir::FuncGraph* fprop = nullptr;
    std::vector<std::size_t> gradParams;
    std::vector<ir::Node*> weights;
};

// What the Expanders of one grad call share (the shared fprop graphs).
struct ExpansionState {
    std::map<const ir::FuncGraph*, SharedFprop> fprops;
    std::map<const ir::FuncGraph*, bool> recursive;
    // The fprop graph of a Switch branch, by the branch graph and, per gradient its bprop
    // returns, the branch's parameters that gradient sums: call sites that bind alike share
    // it. (Made anew per call site, nested ifs differentiated each branch once per path
    // reaching it: exponentially many times.)
    std::map<std::pair<const ir::FuncGraph*, std::vector<std::vector<std::size_t>>>, ir::FuncGraph*>
        branchFprops;  // entered once complete
};

class Expander {
public:
    // The expansion of a grad call: forward and gradient go into the call's graph.
    // `closureFree`: the call's graph is differentiated again (a grad of a grad), so the
    // gradient must not call functions computed at run time. Calls that go through fprop
    // graphs (a Switch on a tensor, a recursive or no_inline graph) then keep their forward
    // call, and their gradient calls a gradient graph ∇g(g's parameters..., dout) that
    // recomputes g's forward and returns the gradients, chosen by the same Switch: graphs
    // known at compile time, which the outer grad differentiates as any other.
    Expander(ir::Module& m, ir::CNode* call, bool closureFree)
        : m_(m),
          call_(call),
          site_(call),
          fwd_(call->graph()),
          bwd_(call->graph()),
          closureFree_(closureFree),
          state_(std::make_shared<ExpansionState>()) {}
    // Expands the call and replaces it by the gradients.
    void run();

    // ---- node building (autodiff.cpp) --------------------------------------------------------
    // A registry primitive in the gradient's graph, typed by the registry (folded to a constant
    // when every input is one), with `like`'s debug info.
    ir::Node* prim(const ir::Node* like, std::string_view name,
                   const std::vector<ir::Node*>& inputs, const ir::AttrMap& attrs = {});
    // A constant in the graph the gradient is built in (constantIn: in g).
    ir::Node* constant(ir::ValuePtr v) { return constantIn(bwd_, std::move(v)); }
    ir::Node* constantIn(ir::FuncGraph* g, ir::ValuePtr v);
    ir::Node* zerosFor(const ir::Node* like, const ir::AbstractPtr& a);
    // MakeTuple of elems, a list when `like` (the value whose gradient it is) is one.
    ir::Node* sequenceLike(const ir::Node* at, const ir::AbstractPtr& like,
                           const std::vector<ir::Node*>& elems);
    ir::Node* onesFor(const ir::Node* like, const ir::AbstractPtr& a);

    // ---- gradients (autodiff_sweep.cpp) ------------------------------------------------------
    bool active(const void* key) const { return key != nullptr && active_.count(key) != 0; }
    void accumulate(const ir::Node* like, const void* key, Grad g);
    // The gradient as one node: a tuple (list) gradient becomes a MakeTuple with zeros for the
    // elements without one (a's elements give their shapes).
    ir::Node* materialize(const ir::Node* like, const Grad& g, const ir::AbstractPtr& a);
    const std::vector<Mapped>& inputsOf(const ir::CNode* copy) const {
        return copyInputs_.at(copy);
    }

private:
    // A region differentiated inside an fprop graph: forward copies go to `fwd`, the
    // gradient to `bwd` (autodiff_fprop.cpp).
    Expander(const Expander& parent, const ir::Node* site, ir::FuncGraph* fwd, ir::FuncGraph* bwd)
        : m_(parent.m_),
          site_(site),
          fwd_(fwd),
          bwd_(bwd),
          weights_(parent.weights_),
          closureFree_(parent.closureFree_),
          state_(parent.state_) {}

    // autodiff_forward.cpp
    Mapped copyGraph(ir::FuncGraph* g, const std::vector<Mapped>& args,
                     std::vector<ir::FuncGraph*>& stack);
    // The keys that get a gradient: the layout's inputs, the weights, what depends on them.
    void markActive(const GradLayout& layout);
    // autodiff_fprop.cpp: a call the forward copy cannot inline (a Switch between branch
    // graphs, a no_inline graph) becomes a call of fprop graphs ▸g returning
    // (out, Partial(@◂g, saved...)); ◂g(saved..., dout) returns the gradients of `wrt` (the
    // call's tensor inputs) then of the weights. Returns the forward value.
    struct Callee {
        ir::FuncGraph* graph = nullptr;
        std::vector<Mapped> bound;  // Partial arguments, then the call's
    };
    // callees[k] runs when conds[k] holds and no earlier one did; the last one otherwise (an
    // if/else: two callees and one condition; a Cell chosen from a tuple by a tensor index,
    // switch_layer: a chain). No conds: a direct call of callees[0].
    Mapped callThroughFprop(const ir::CNode* c, const std::vector<Callee>& callees,
                            const std::vector<Mapped>& conds);
    ir::FuncGraph* fpropGraph(const ir::CNode* c, const Callee& callee,
                              const std::vector<Mapped>& wrt);
    struct FpropCall {
        ir::Node* tuple = nullptr;  // (out, bprop); nullptr when closure-free
        // Closure-free: per callee its gradient graph ∇g and the arguments bound before dout,
        // chosen as the forward's callees by `conds` (none: a direct call of vjps[0]).
        std::vector<std::pair<ir::FuncGraph*, std::vector<ir::Node*>>> vjps;
        std::vector<ir::Node*> conds;
        std::vector<Mapped> wrt;
        std::vector<ir::Node*> weights;  // the weights whose gradients follow wrt's
    };
    // The forward value of a call returning (out, bprop) whose bprop gives the gradients of
    // wrt then of `weights`: recorded for the sweep.
    Mapped recordFpropCall(const ir::CNode* c, ir::Node* tuple, std::vector<Mapped> wrt,
                           std::vector<ir::Node*> weights);
    // Closure-free: `value` is the forward call itself; the sweep calls call.vjps.
    Mapped recordVjpCall(ir::CNode* value, FpropCall call);
    // A node of the forward graph (fwd_) or of the gradient's (bwd_, in c's gradient scope)
    // with c's source.
    ir::CNode* callNode(bool backward, const ir::CNode* c, std::vector<ir::Node*> inputs,
                        ir::AbstractPtr abs);
    // Switch(conds[0], fns[0], Switch(conds[1], fns[1], ... fns.back())).
    ir::Node* switchChain(bool backward, const ir::CNode* c, const std::vector<ir::Node*>& conds,
                          const std::vector<ir::Node*>& fns);
    // CustomBprop(out, Partial(@bprop, args..., out)): an fprop call whose bprop is the
    // Cell's own bprop method.
    Mapped customBprop(const ir::CNode* c, const std::function<Mapped(ir::Node*)>& mapped);
    // A direct call of a recursive or no_inline graph: a call of its shared fprop graph.
    bool isRecursive(const ir::FuncGraph* g);
    Mapped callShared(const ir::CNode* c, ir::FuncGraph* g, const std::vector<Mapped>& in);
    const SharedFprop& sharedFprop(const ir::CNode* c, ir::FuncGraph* g);
    // A new pair ▸g, ◂g (named and located as g); closure-free: ∇g twice, one graph that
    // holds both the forward copy and the gradient.
    std::pair<ir::FuncGraph*, ir::FuncGraph*> newFpropPair(const ir::FuncGraph* g);
    // In a sub-Expander of an fprop pair: ▸g gets a parameter for each of g's, in
    // targetParams_.
    void mirrorParameters(const ir::FuncGraph* g);
    // In a sub-Expander of an fprop pair, with g's parameters in targetParams_: copies g
    // into ▸g and sweeps its gradient into ◂g from a new parameter dout (returned) of
    // abstract `outAbs`.
    ir::Parameter* differentiate(ir::FuncGraph* g, const GradLayout& layout,
                                 const ir::AbstractPtr& outAbs);
    // Ends an fprop graph pair once the sweep ran in this (sub-)Expander: ◂g returns `outs`,
    // what it reads of ▸g becomes its leading parameters bound by ▸g's Partial, and ▸g
    // returns (out, Partial(@◂g, saved...)).
    void closeFprop(ir::FuncGraph* fp, ir::FuncGraph* bp, ir::Parameter* dout,
                    const std::vector<ir::Node*>& outs);
    // closeFprop or, closure-free, ∇g returns `outs`.
    void close(ir::FuncGraph* fp, ir::FuncGraph* bp, ir::Parameter* dout,
               const std::vector<ir::Node*>& outs);
    void backpropCall(ir::CNode* value, const FpropCall& call, const Grad& dout);
    // autodiff_sweep.cpp
    void sweep(Grad sens);
    void backprop(ir::CNode* copy, const Grad& dout);
    // autodiff.cpp
    Grad sensFor(const ir::Node* out);
    void readWeights(ir::CNode* g, const GradSpec& spec);
    ir::Node* continueState(ir::Node* res, const std::vector<ir::Node*>& monads);
    ir::Node* result(const GradSpec& spec, const GradLayout& layout);
    void sweepDead();

    ir::Module& m_;
    ir::CNode* call_ = nullptr;  // the grad call (nullptr inside an fprop graph)
    const ir::Node* site_;       // debug info and errors of the expansion's own nodes
    ir::FuncGraph* fwd_;
    ir::FuncGraph* bwd_;
    ir::FuncGraph* target_ = nullptr;
    std::vector<Mapped> targetParams_;  // the target's parameters as mapped
    std::vector<ir::Node*> inputs_;     // the call's differentiated inputs (sens excluded)
    std::vector<ir::Node*> weights_;    // the weight parameters (get_by_list / weights=)
    bool weightsTuple_ = false;
    ir::Node* sens_ = nullptr;
    std::vector<ir::CNode*> copies_;  // forward copies, in topological order
    std::unordered_map<const ir::CNode*, std::vector<Mapped>> copyInputs_;  // inputs 1..
    std::unordered_set<const void*> active_;
    std::unordered_map<const void*, Grad> grads_;
    std::vector<ir::Node*> created_;  // every node made, for the final sweep
    Mapped out_;
    std::unordered_map<const ir::CNode*, FpropCall> fpropCalls_;  // by the forward value node
    bool sideEffects_ = false;
    bool closureFree_ = false;
    std::shared_ptr<ExpansionState> state_;
};

}  // namespace irscope::passes::autodiff
