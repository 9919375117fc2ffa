// The engine behind type_inference (type_inference.h): abstract interpretation of the graphs
// from the entry graph, with specialization as it goes, as MindSpore's static analysis and
// specializer do in one walk.
//
//  - The graphs parse/symbol_resolve produced are *templates*: never modified. Every call of a
//    template with distinct argument abstracts (constants included) gets a *specialization*, a
//    clone of the template that is then inferred and rewritten in place (meta operations
//    expanded, constants folded, Switch on constants resolved, calls retargeted to clones).
//  - A graph re-entered while it is still being inferred is a recursion (a while loop). If the
//    way back passed a Switch whose condition is not a constant (a tensor condition), the loop
//    does not unroll: the arguments that changed are broadened (values dropped, shapes joined)
//    for that template and the whole inference restarts from the templates, which converges
//    because broadening only goes up a short lattice. Otherwise (`while i < 3` on Python ints)
//    each iteration is a new specialization: the loop unrolls, bounded by InferenceLimits.
//  - A recursive call of a specialization that is still in progress returns its result so far
//    ("bottom" at first); once the specialization is done, it is inferred again until its
//    result no longer changes (a fixed point), and so is every specialization the round
//    inferred (a nested loop's graphs read the outer loop's result while it was bottom).
//    Nodes whose inputs are bottom stay untouched until a later round gives them real inputs.
//  - At the end the templates are erased, unused clones dropped, and the clones named after
//    their templates (the first keeps the name, others get `_1`, `_2`, ...).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/type_inference.h"

namespace irscope::passes::infer {

struct FuncVal;
using FuncPtr = std::shared_ptr<const FuncVal>;

// The functions a tuple holds, by element (no fn for an element that is no function; items
// for an element that is itself a tuple holding functions).
struct ItemFn;
using TupleFns = std::shared_ptr<const std::vector<ItemFn>>;
struct ItemFn {
    FuncPtr fn;
    TupleFns items;
};

// A value as the engine sees it: the node holding it (in the graph being inferred), its
// abstract (nullptr: bottom, not known yet) and, when it is a function, which one; when it is
// a tuple holding functions, which ones (a tuple a called graph returns keeps them, so a
// caller can call `t[1]`).
struct Arg {
    ir::Node* node = nullptr;
    ir::AbstractPtr abs;
    FuncPtr fn;
    TupleFns items;
};

// A function value: what a Func abstract stands for.
struct FuncVal {
    enum class Kind : std::uint8_t {
        Graph,    // a template graph
        Prim,     // a primitive value: a registry op or a meta operation (with its attrs)
        Partial,  // fn with leading arguments bound
        Union,    // one of several (a Switch whose condition is not a constant)
        Method,   // a Tensor method (`x.sum`): registry Method spelling with self bound
    };
    Kind kind = Kind::Graph;
    ir::FuncGraph* graph = nullptr;  // Graph
    ir::ValuePtr prim;               // Prim
    FuncPtr fn;                      // Partial
    std::vector<Arg> bound;          // Partial: bound arguments; Method: self
    std::vector<FuncPtr> options;    // Union
    std::string spelling;            // Method: "Tensor.sum"
    // Graph: the ValueNode `@g`; Partial: the Partial CNode. Retargeted to the
    // specialization a call through this value selects.
    ir::Node* origin = nullptr;
};

bool sameFunc(const FuncPtr& a, const FuncPtr& b);
bool sameAbs(const ir::AbstractPtr& a, const ir::AbstractPtr& b);

// What a specialization is keyed on, per argument.
struct ArgSig {
    ir::AbstractPtr abs;
    FuncPtr fn;
};

// Whether g, or a graph it names (calls, Partials, Switch branches), uses a primitive that
// writes memory (Assign, ScatterUpdate...) or, with `io`, one that does IO (Print).
bool reachesSideEffect(const ir::FuncGraph* g, bool io);

struct Spec {
    ir::FuncGraph* tmpl = nullptr;
    ir::FuncGraph* graph = nullptr;  // the clone
    std::vector<ArgSig> args;
    ir::AbstractPtr ret;  // bottom (nullptr) until known
    FuncPtr retFn;
    TupleFns retItems;
    bool inProgress = false;
    bool pendingUsed = false;  // a recursive call used `ret` before it was final
    bool dirty = false;        // inferred with a result that changed since: infer again
    std::size_t order = 0;     // creation order
};

// Thrown to restart the inference after a template's arguments were broadened.
struct Restart {};

class Engine {
public:
    Engine(ir::Module& m, InferenceLimits limits) : m_(m), limits_(limits) {}
    // Infers from the entry graph with the given non-weight input abstracts and leaves the
    // module typed and cleaned up. Throws CompileError.
    void run(const std::vector<ir::AbstractPtr>& inputs);

    // ---- used by the meta-operation expanders (type_inference_meta*.cpp) -------------------
    Arg argOf(ir::Node* n);
    // A primitive CNode in c's graph with c's debug info, inferred. `name` is a registry op.
    Arg emitPrim(ir::CNode* at, const std::string& name, const std::vector<ir::Node*>& inputs,
                 const ir::AttrMap& attrs = {});
    // A CNode calling `callee` (a ValueNode, or a node with a function value) on `inputs`,
    // inferred as any call (specializing graphs).
    Arg emitCall(ir::CNode* at, ir::Node* callee, const std::vector<ir::Node*>& inputs);
    // Infers c (any CNode) and returns its result; c may have been replaced by another node
    // (a folded constant, the chosen Switch branch, an expansion), which the result names.
    Arg inferCNode(ir::CNode* c);
    // The call `at` of function value fn.fn on args: rewritten into a direct call (of a graph,
    // a primitive, a method) where the arguments live in at's graph, else inferred as is.
    Arg callValue(ir::CNode* at, const Arg& fn, const std::vector<Arg>& args);
    Arg emitConst(ir::CNode* at, ir::ValuePtr v);
    ir::ValueNode* valueNode(ir::FuncGraph* g, ir::ValuePtr v);
    // Replaces every use of `c` by `r`'s node and records r as c's result.
    Arg replace(ir::CNode* c, const Arg& r);
    // The elements of a tuple/list value as nodes of at's graph (MakeTuple inputs, constants,
    // or TupleGetItem nodes).
    std::vector<Arg> elementsOf(ir::CNode* at, const Arg& seq);
    Arg makeTuple(ir::CNode* at, const std::vector<Arg>& elems, bool list = false);
    [[noreturn]] void error(const ir::Node* at, const std::string& pyType,
                            const std::string& message) const;

private:
    void runOnce(const std::vector<ir::AbstractPtr>& inputs);
    Spec& specialize(ir::FuncGraph* tmpl, const std::vector<Arg>& args, const ir::Node* site,
                     bool undetermined);
    void inferSpec(Spec& s);
    void inferBody(Spec& s);
    // The arguments of c (inputs 1...), or nullopt when one is not inferred yet.
    std::optional<std::vector<Arg>> knownInputs(ir::CNode* c);
    // Records c's result as not known yet (an input is still being inferred) and returns it.
    Arg pending(ir::CNode* c);
    Arg inferPrimitive(ir::CNode* c, const ir::ValuePtr& prim);
    // A call whose attributes symbol_resolve left as inputs (meta::kLateAttrs): the same
    // primitive with them as attributes, or the "must be a constant" error.
    Arg inferLateAttrs(ir::CNode* c, const ir::ValuePtr& prim);
    // meta::kRaise reached: the compile fails with its exception, or with "not supported
    // yet" when a Switch whose condition is not a constant led here.
    Arg inferRaise(ir::CNode* c);
    Arg inferRegistryOp(ir::CNode* c, const ir::ValuePtr& prim);
    Arg inferSwitch(ir::CNode* c);
    Arg inferPartial(ir::CNode* c);
    Arg inferCallOfValue(ir::CNode* c);
    // CustomBprop(out, Partial(@bprop, args..., out)): out, with the bprop specialized.
    Arg inferCustomBprop(ir::CNode* c);
    Arg evalCall(const ir::CNode* site, const FuncPtr& f, const std::vector<Arg>& args,
                 bool undetermined);
    // type_inference_grad.cpp: `GradOperation{...}(fn[, weights])` (and grad,
    // value_and_grad) is a function value; the call of one specializes fn and infers the
    // gradients (nullopt when c's callee is not such a node).
    Arg inferGradOp(ir::CNode* c);
    ir::FuncGraph* varargsCaller(ir::FuncGraph* g, std::size_t n, const ir::CNode* site);
    std::optional<Arg> inferGradCall(ir::CNode* c);
    ir::FuncGraph* cloneGraph(ir::FuncGraph* tmpl);
    // Whether g and the graphs it refers to contain no side-effect primitive (Assign, Print).
    bool hasEffectfulInput(ir::CNode* c);
    // A call of a graph with a side effect, or of an effectful primitive (directly or
    // through a function value).
    bool isEffectfulCall(ir::CNode* c);
    bool effectfulFunction(const FuncPtr& f);
    // c folds to a constant: its effectful input calls are kept (foldedEffects_).
    void keepEffectfulInputs(ir::CNode* c);
    bool sideEffectFree(ir::FuncGraph* g);
    std::unordered_map<const ir::FuncGraph*, bool> effectFree_;
    ir::FuncGraph* templateOf(ir::FuncGraph* g) const;
    void setResult(ir::Node* n, const Arg& r);
    void discardClones();
    void finish();
    // Rebuilds every live graph with its CNodes created in source order (order_), so node
    // ids, which the evaluator uses to order statements without data dependences (an
    // isolated F.assign, a print), follow the source again after expansions added nodes.
    void renumber();
    void sweepDeadNodes(ir::FuncGraph* g);
    // Effectful calls whose value was used up at compile time (a folded bool_(call), a
    // Switch decided by it); finish() keeps those left without users as isolated
    // statements of their graphs, so auto_monad still orders their effects.
    std::vector<ir::CNode*> foldedEffects_;
    // Function values still naming a template (a graph passed as an argument and called
    // through a parameter) name its first specialization instead (None if it has none).
    void retargetTemplateValues();
    void eraseGraphs(const std::vector<ir::FuncGraph*>& gs);
    ir::AbstractPtr widen(ir::FuncGraph* tmpl, std::size_t i, const ir::AbstractPtr& a) const;

    ir::Module& m_;
    InferenceLimits limits_;
    std::vector<ir::FuncGraph*> templates_;
    ir::FuncGraph* entryTmpl_ = nullptr;
    // The entry template's parameters by position: clones map each weight they read as a
    // free variable to the entry specialization's parameter at the same place.
    std::unordered_map<const ir::Node*, std::size_t> entryParamIndex_;
    Spec* entrySpec_ = nullptr;
    std::vector<std::unique_ptr<Spec>> specs_;
    std::unordered_map<ir::FuncGraph*, std::vector<Spec*>> byTemplate_;
    // A graph taking *args (attr `varargs`) called through a grad with n arguments: the
    // graph of n parameters that gathers the trailing ones into the tuple (varargsCaller).
    std::map<std::pair<ir::FuncGraph*, std::size_t>, ir::FuncGraph*> varargsCallers_;
    // The same specializations, per template, bucketed by sigHash of their arguments: a call
    // compares its signature with the few specializations that can match, not with all of
    // the template's (one per instance of a cell in a long CellList).
    std::unordered_map<ir::FuncGraph*, std::unordered_map<std::size_t, std::vector<Spec*>>>
        bySig_;
    std::unordered_map<ir::FuncGraph*, Spec*> byClone_;
    std::unordered_map<const ir::Node*, FuncPtr> fns_;
    std::unordered_map<const ir::Node*, TupleFns> items_;  // Arg::items of inferred nodes
    struct Frame {
        Spec* spec;
        bool undetermined;  // entered through a Switch whose condition is not a constant
    };
    std::vector<Frame> frames_;
    // Every spec whose body was inferred, in order: a round of a recursion that must run again
    // re-infers what it inferred (a nested loop's body read the outer result when bottom).
    std::vector<Spec*> inferLog_;
    // Per template and parameter: the broadened abstract the parameter is joined with.
    std::map<ir::FuncGraph*, std::vector<ir::AbstractPtr>> widened_;
    // Source order of each clone CNode: (id of the template node it comes from, sequence of
    // the nodes an expansion created). The front end creates nodes in source order (an
    // unrolled `for` iteration after iteration), so template ids are that order.
    using OrderKey = std::pair<std::uint64_t, std::uint64_t>;
    std::unordered_map<const ir::Node*, OrderKey> order_;
    std::uint64_t seq_ = 0;
};

// Abstract of a constant, with the value kept for scalars, strings, None and tuples of them.
ir::AbstractPtr constAbstract(const ir::ValuePtr& v);
// Drops what specialization must not key on (tensor values) — tensors are never specialized
// by value.
ir::AbstractPtr keyAbstract(const ir::AbstractPtr& a);
// The join of two abstracts met at one place (Switch branches, loop iterations): values that
// differ are dropped, tensor dims that differ become -1. nullptr when they cannot be joined.
// MindSpore's one exception to equal ranks when branches join: shape (1) with shape () joins
// to (1).
bool singleElementJoin(const ir::Shape& a, const ir::Shape& b);
ir::AbstractPtr joinAbs(const ir::AbstractPtr& a, const ir::AbstractPtr& b);
// v with every graph it refers to (also inside tuples and primitive attrs) replaced through
// gmap; a graph mapped to nullptr becomes None.
ir::ValuePtr substitute(const ir::ValuePtr& v,
                        const std::unordered_map<ir::FuncGraph*, ir::FuncGraph*>& gmap);
// "Tensor[Float32]", "Int64", "Tuple[...]" for messages.
std::string describe(const ir::AbstractPtr& a);

}  // namespace irscope::passes::infer
