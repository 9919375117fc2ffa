// Internals of symbol_resolve (symbol_resolve*.cpp): what a node means on the host
// (hostOf), how a call of a host callee becomes a graph or primitive call (lowerCall), and
// how a host value used as data becomes a constant, a weight or a function value
// (materialize).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "compiler/frontend_state.h"
#include "compiler/graph_builder.h"
#include "ops/op_registry.h"
#include "passes/compile_error.h"

namespace irscope::compiler {

// A host object a node stands for, with the scope its nodes get when it is a Cell.
struct HostVal {
    interp::Value v;
    std::string scope;
    // A function of numpy or math: with constant arguments it runs at compile time (as
    // MindSpore's JIT fallback folds it), its result a constant.
    bool hostFunction = false;
};

// The keyword names of a call, in order (its "keywords" attribute; their values are the
// call's last inputs).
std::vector<std::string> keywordsOf(const ir::CNode* c);

class Resolver {
public:
    // reuseLevel: MS_DEV_CELL_REUSE (1 or 2: @lazy_inline instances are resolved once).
    Resolver(FrontendState& s, ir::Module& m, std::int64_t reuseLevel = 0)
        : s_(s), I(s.I), m_(m), reuseLevel_(reuseLevel) {}
    void run();

    // --- symbol_resolve.cpp -----------------------------------------------------------------
    std::optional<HostVal> hostOf(ir::Node* n);
    [[noreturn]] void fail(const std::string& pyType, const std::string& msg, const ir::Node* at) const;
    ir::SourceLocation where(const ir::Node* at) const;
    ir::CNode* cnode(ir::FuncGraph* g, std::vector<ir::Node*> in, const ir::Node* like);
    ir::Node* constant(ir::FuncGraph* g, ir::ValuePtr v) { return m_.addValue(g, std::move(v)); }
    // A node's constant value (a ValueNode, or a host value convertible to a constant).
    ir::ValuePtr constantOf(ir::Node* n);
    interp::Value hostFromConstant(const ir::Value& v);  // Null when not a plain constant
    // A call argument known at compile time (a host value, a constant, a literal tuple or
    // list of those) as a host value; Null otherwise.
    interp::Value hostArgument(ir::Node* n);
    ir::Node* materialize(const HostVal& hv, ir::FuncGraph* g, const ir::Node* at);
    // A host value as an ir constant (TypeError when it is not one).
    ir::ValuePtr materializeConst(const HostVal& hv, ir::FuncGraph* g, const ir::Node* at);
    ir::Node* inputValue(ir::Node* in, ir::FuncGraph* g, const ir::Node* at);
    ir::FuncGraph* graphOf(const interp::FunctionObject* fn, const interp::Value& self, const std::string& scope,
                           const ir::Node* at, const std::map<std::string, std::int64_t>& lengths = {});
    // The lengths a call with `args` (keywords `kws` last) gives the tuple/list parameters
    // of `fn` that its loops iterate or that it passes on (its *args too), by name.
    std::map<std::string, std::int64_t> argLengths(const interp::FunctionObject* fn, bool method,
                                                   const std::vector<ir::Node*>& args,
                                                   const std::vector<std::string>& kws);
    // The Tensor method written in Python (mindspore.ops.function's, attached to Tensor) that
    // getattr `c` names on a graph value, when the registry has no method of that name or
    // its method does not take the arguments of `call`.
    const interp::FunctionObject* pythonTensorMethod(const ir::CNode* c, const ir::CNode* call);
    // The names a `for` or a comprehension of fn iterates (directly, or through enumerate/zip)
    // or passes on to a call (which may iterate them).
    const std::unordered_set<std::string>& iteratedNames(const interp::FunctionObject* fn);
    ir::Parameter* weight(const interp::Value& param, const ir::Node* at);
    // @lazy_inline: the first cell called with the same cell_init_args, when it is another one.
    interp::Value reuseSource(const interp::Value& cell);
    // @lazy_inline: the graph attr cell_init_args for graph_reusing of the construct graph of
    // `cell` called at `scope` (outermost level only, unchanged attributes only), or nothing.
    std::optional<std::string> lazyInlineArgs(const interp::Value& cell, const std::string& scope);
    // Resolves the calls and host values of one graph's body.
    void resolveGraph(ir::FuncGraph* g);

    // --- symbol_resolve_reuse.cpp -----------------------------------------------------------
    // @lazy_inline: instances with equal cell_init_args are parsed and resolved once. A
    // later instance's construct graph starts as an empty graph with the first instance's
    // parameters and signature; once everything else is resolved, its body becomes a copy of
    // the first instance's resolved graphs reading its own weights, with its own scopes: what
    // parsing and resolving it would give, since it reads the first instance's constant
    // attributes (HostEntry::constantsFrom), its sub-cells are of the same types with the
    // same constants, and they hold Parameters of the same paths, shapes and types.
    struct ReusedInstance {
        ir::FuncGraph* graph = nullptr;  // this instance's construct graph (empty until copied)
        interp::Value cell;
        std::string scope;
        ir::FuncGraph* source = nullptr;  // the first instance's construct graph
        interp::Value sourceCell;
        std::string sourceScope;
        // The first instance's Parameter objects and this instance's, by attribute path
        // (one pair per distinct Parameter of the first instance).
        std::vector<std::pair<interp::Value, interp::Value>> weights;
        // When the two instances differ: every graph this one's parse made, `graph` first,
        // resolved on their own where the copy would have been made (so graphs are named
        // in the same order as without reuse).
        std::vector<ir::FuncGraph*> parsed;
    };
    // With MS_DEV_CELL_REUSE 1 or 2: records the construct graph `g` of `spec.self` as the
    // first instance of its cell_init_args.
    void markFirstInstance(ir::FuncGraph* g, const FunctionSpec& spec);
    // The construct graph of a later instance (see ReusedInstance), empty until
    // copyReusedInstance, or parsed when the two instances differ; nullptr when spec.self
    // is no later instance (no reuse level, or its first instance is not reused).
    ir::FuncGraph* reusedInstanceGraph(const FunctionSpec& spec);
    // The pairs of ReusedInstance::weights, or nothing when the two cells' Parameters differ
    // (paths, shapes, types, sharing) or their sub-cells do (types, constants).
    std::optional<std::vector<std::pair<interp::Value, interp::Value>>> matchedWeights(
        const interp::Value& cell, const interp::Value& source);
    // Gives r.graph its copy of the source's body.
    void copyReusedInstance(const ReusedInstance& r);
    // modules::subCellConstants of a first instance, computed once.
    const std::string& sourceConstants(const interp::Value& cell);

    // --- symbol_resolve_call.cpp ------------------------------------------------------------
    // The replacement of call `c` whose callee is the host value `callee`.
    ir::Node* lowerCall(ir::CNode* c, const HostVal& callee);
    // Makes `c` the call `in` (callee first), keeping the node and its id.
    ir::Node* rewrite(ir::CNode* c, std::vector<ir::Node*> in);
    ir::Node* callGraph(ir::CNode* c, ir::FuncGraph* g, std::vector<ir::Node*> args,
                        const std::vector<std::string>& kws);
    // The inputs of a call of g (its graph value first) with `args` (keywords `kws` last)
    // bound to its signature: keywords by name, defaults for what is not given, *args as a
    // tuple. TypeError (at c) as Python's for a call that does not bind.
    std::vector<ir::Node*> boundCall(ir::CNode* c, ir::FuncGraph* g, std::vector<ir::Node*> args,
                                     const std::vector<std::string>& kws);
    // Attributes whose values only type_inference knows (passes::meta::kLateAttrs): names
    // and the nodes giving them, in order.
    struct LateAttrs {
        std::vector<ir::ValuePtr> names;
        std::vector<ir::Node*> nodes;
    };
    // `c` as a call of primitive `op` spelled `sp`: `attrs` (the instance's) and `late` (its
    // constructor's late attributes) first, then what the call's arguments bind.
    ir::Node* callPrimitive(ir::CNode* c, const ops::OpDef& op, const ops::Spelling& sp, ir::AttrMap attrs,
                            std::vector<ir::Node*> args, const std::vector<std::string>& kws,
                            LateAttrs late = {});
    // One bound attribute `name` given by node `n` (a constant already converted by `src`):
    // a constant goes into `attrs`, a node only type_inference will know into `late`; a
    // conversion `src` needs of a non-constant fails.
    void bindAttribute(ir::CNode* c, const ops::OpDef& op, const std::string& name, const ops::ArgSource& src,
                       ir::Node* n, ir::AttrMap& attrs, LateAttrs& late);
    // `P.ReduceSum(keep)(x)` whose constructor arguments are not constants at this point (a
    // helper's parameters): each call of the construction `d` becomes the primitive call,
    // the constructor's attributes late where needed. False when `d` is used other than as
    // a callee (nothing changed).
    bool constructInCalls(ir::CNode* d, const ops::OpDef& op, const ops::Spelling& sp,
                          const std::vector<ir::Node*>& args, const std::vector<std::string>& kws);
    // A Cell with its own `bprop` method: the call's users read CustomBprop(call, bprop partial).
    ir::CNode* withCustomBprop(ir::CNode* call, ir::FuncGraph* bprop);
    ir::Node* callCell(ir::CNode* c, const HostVal& cell, std::vector<ir::Node*> args,
                       const std::vector<std::string>& kws);
    // nn layers implemented natively (Dense, ReLU, SequentialCell...) lowered to primitives.
    ir::Node* nativeCell(ir::CNode* c, const HostVal& cell, const std::vector<ir::Node*>& args);
    // A function value for a host callable (graph, primitive, MultitypeFuncGraph...).
    ir::Node* functionValue(const HostVal& hv, ir::FuncGraph* g, const ir::Node* at);
    // Whether a call of `callee` with constant arguments runs on the host at compile time
    // (creating a jit_class instance, a primitive instance, a Tensor, vmap(fn)...).
    bool hostCallable(const interp::Value& callee) const;

    // --- symbol_resolve_grad.cpp ------------------------------------------------------------
    // GradOperation instances, ops.grad / ops.value_and_grad and the grad functions they make.
    bool isGradCallee(const interp::Value& v) const;
    // `GradOperation{flags}(fn[, weights])` / `grad{grad_position, has_aux}(fn[, weights])`,
    // or for a grad function made on the host, the call of such a node.
    ir::Node* lowerGrad(ir::CNode* c, const HostVal& callee);
    // The weights: a MakeTuple of weight parameters, one weight, or nullptr (None).
    ir::Node* gradWeights(const HostVal& h, ir::FuncGraph* g, const ir::Node* at);
    // The function differentiated: a graph value; a native cell (nn.Dense) gets a graph.
    ir::Node* gradTarget(const HostVal& h, ir::FuncGraph* g, const ir::Node* at);
    // A grad function made on the host used as a value (F.grad(F.grad(f))): a graph calling it.
    ir::Node* gradFunctionValue(const HostVal& hv, ir::FuncGraph* g, const ir::Node* at);
    ir::AttrMap gradAttrs(const std::string& name, const ir::ValuePtr& pos, const ir::ValuePtr& aux,
                          const ir::ValuePtr& returnIds, bool hasWeights, const ir::Node* at);
    ir::AttrMap gradOperationAttrs(bool getAll, bool getByList, bool sensParam, bool hasWeights,
                                   const ir::Node* at);

    FrontendState& s_;
    interp::Interpreter& I;
    ir::Module& m_;
    std::int64_t reuseLevel_ = 0;
    std::map<const ir::Node*, std::optional<HostVal>> memo_;
    std::map<std::string, interp::Value> reuse_;  // cell_init_args -> first cell called
    std::map<const interp::FunctionObject*, std::unordered_set<std::string>> iterated_;
    // Graphs made for natively implemented cells differentiated by GradOperation.
    std::map<std::pair<const interp::Object*, std::string>, ir::FuncGraph*> nativeCellGraphs_;
    std::map<std::pair<const interp::Object*, std::string>, ir::FuncGraph*> customBpropGraphs_;
    std::map<std::pair<const interp::Object*, std::string>, ir::FuncGraph*> gradFnGraphs_;
    std::vector<std::string> lazyScopes_;         // scopes of the @lazy_inline cells met so far
    struct MarkedConstruct {
        const interp::FunctionObject* fn = nullptr;
        ir::FuncGraph* graph = nullptr;
        std::string scope;
    };
    std::map<const interp::Object*, MarkedConstruct> marked_;  // first instances, by cell
    std::vector<ReusedInstance> reused_;
    std::map<const interp::Object*, std::string> sourceConstants_;
    std::unordered_set<const ir::FuncGraph*> deferred_;  // graphs of reused_ not copied (yet)
    // Graphs of plain functions (no bound instance): one graph serves every caller, so an
    // instance's copy calls them as the first instance does.
    std::unordered_set<const ir::FuncGraph*> functionGraphs_;
    // cell_init_args as the graph attribute shows it: each `object at 0x...` address becomes
    // `object #N`, numbered per compile in order of appearance, so saved IR is the same on
    // every run while equal addresses still give equal text.
    std::string stableInitArgs(const std::string& text);
    std::map<std::string, int> objectNumbers_;
    // The names in s_.weights, for the duplicate-name check of each new weight.
    std::unordered_set<std::string> weightNames_;
};

// Erases nodes nothing uses and graphs nothing reaches (after calls were replaced).
void sweepModule(ir::Module& m);

}  // namespace irscope::compiler
