// Internals of the graph builder (graph_builder*.cpp). One GraphBuilder parses one Python
// function (with its nested block graphs, lambdas and inner defs).
//
// Blocks: code is emitted into the current Block, a FuncGraph plus the environment of local
// variables visible in it. Control flow never lets a graph use another graph's nodes: a new
// block graph gets one parameter per live variable and its callers pass their values
// (directly, or as Partial arguments in a Switch). Parameters nobody reads are pruned at
// the end (pruneParameters), which leaves MindSpore-sized signatures. Expressions never
// change the current block (and/or/ternaries call branch graphs that return the value);
// only statements (if, while, for with break/continue) continue in a `↓` block.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/graph_builder.h"
#include "passes/compile_error.h"

namespace irscope::compiler {

// Local variables in binding order (the order block parameters are created in).
struct Env {
    std::vector<std::pair<std::string, ir::Node*>> vars;
    ir::Node* get(const std::string& n) const;
    void set(const std::string& n, ir::Node* v);
    void erase(const std::string& n);
};

struct Block {
    ir::FuncGraph* g = nullptr;
    Env env;
    std::vector<ir::Node*> isolated;  // unused expression statements, in source order
    // Calls bound to a variable (`r = self.check()`): those still unused when the block
    // returns become isolated statements too, as MindSpore's parser keeps them.
    std::vector<ir::Node*> assignedCalls;
    bool closed = false;              // has its Return
};

// A jump from an open block to a target created later (when all jumps to it are known, so
// the target's parameters cover every variable any of them brings). `emit` adds the jump
// (a tail call, or a Partial into a Switch); null `emit` means a tail call of the target.
struct PendingJump {
    Block from;
    std::function<void(ir::FuncGraph* target, std::vector<ir::Node*> args)> emit;
};

struct LoopCtx {
    bool isWhile = false;
    ir::FuncGraph* header = nullptr;  // while: the `↵` graph (continue calls it)
    std::vector<std::string> headerNames;
    std::vector<PendingJump> breaks;
    std::vector<PendingJump> continues;  // unrolled for: to the next iteration
};

std::string_view binaryMetaName(ast::Operator op);
// The meta operation a builtin becomes in a graph (len -> len, range -> make_range...);
// empty when it has none.
std::string_view builtinMeta(std::string_view name);

class GraphBuilder {
public:
    GraphBuilder(FrontendState& s, ir::Module& m, const FunctionSpec& spec);
    ir::FuncGraph* build();

    // --- shared helpers (graph_builder.cpp) -----------------------------------------------
    [[noreturn]] void fail(const std::string& pyType, const std::string& msg, const ast::Span& at) const;
    ir::SourceLocation loc(const ast::Span& s) const;
    ir::CNode* cnode(std::vector<ir::Node*> inputs, const ast::Span& at);
    ir::Node* constant(ir::ValuePtr v);
    ir::Node* prim(std::string_view name);
    ir::CNode* meta(std::string_view name, std::vector<ir::Node*> args, const ast::Span& at);
    ir::Node* graphValue(ir::FuncGraph* g);
    // A new graph with one parameter per variable of `env`; returns the block and fills
    // `args` with the caller's values for them.
    Block newBlock(const std::string& prefix, const Env& env, std::vector<ir::Node*>& args,
                   const ast::Span& at);
    // Registers a reference to a block graph whose arguments start at `argStart`.
    void noteSite(ir::FuncGraph* g, ir::CNode* site, std::size_t argStart);
    // Sets the current block's output (isolated statements kept by a Depend) and closes it.
    void finish(Block& b, ir::Node* out, const ast::Span& at);
    // Tail call of `target` from open block `b` passing the variables named `names`.
    void tailCall(Block& b, ir::FuncGraph* target, const std::vector<std::string>& names, const ast::Span& at);
    // Resolves the pending jumps into a new `prefix` block; returns it (closed when none).
    Block joinJumps(std::vector<PendingJump> jumps, const std::string& prefix, const ast::Span& at);
    ir::CNode* partial(ir::FuncGraph* g, const std::vector<ir::Node*>& args, const ast::Span& at);
    void pruneParameters();

    // --- statements (graph_builder_stmt.cpp) ----------------------------------------------
    void statements(const ast::StmtList& body);
    void statement(const ast::Stmt& s);
    void assign(const ast::Expr& target, ir::Node* value, const ast::Span& at);
    void withStatement(const ast::With& w);
    ir::Node* listMethod(const ast::Call& c);
    void functionDef(const ast::FunctionDef& d);

    // --- control flow (graph_builder_flow.cpp) --------------------------------------------
    void ifStmt(const ast::If& s);
    // `if test: onTrue() else: onFalse()` (folded when `test` is a constant).
    void branches(const ast::Expr& test, const std::function<void()>& onTrue, const std::function<void()>& onFalse,
                  const ast::Span& at);
    void whileStmt(const ast::While& s);
    // `while cond(): body()` as a `↵` header, a `↻` body and a `↓` continuation; `cond`
    // emits the condition in the header block, `body` the body in the body block.
    void loop(const ast::Span& at, const ast::Span& condAt, const std::function<ir::Node*()>& cond,
              const std::function<void()>& body);
    void forStmt(const ast::For& s);
    void breakOrContinue(bool isBreak, const ast::Span& at);
    // A for/comprehension iterable. Its length is known now (`size`; `at(i)` emits element i
    // in the current block), or, when `counted` was allowed, only to type inference: then
    // `length` is its loop_length node (the loop becomes a counter loop type inference
    // unrolls) and `item(i)` emits the element at run-time index i. A run-time iterable
    // travels between blocks as the hidden variables `hidden`.
    struct Iterable {
        std::size_t size = 0;
        std::function<ir::Node*(std::size_t)> at;
        std::vector<std::string> hidden;
        // The error raised when the length is not known while building (the loop then runs no
        // iteration): what the loop's results must wait for.
        ir::Node* unknownLength = nullptr;
        ir::Node* length = nullptr;
        std::function<ir::Node*(ir::Node*)> item;
        // A host sequence whose length is known (range(3), a constant tuple): what countedZip
        // indexes at run time when it goes with a counted one.
        interp::Value host;
        bool counted() const { return length != nullptr; }
    };
    Iterable iterable(const ast::Expr& iter, bool counted = false);
    // The unknown-length iterable: a deferred error naming `iter` (its loop runs no iteration).
    Iterable unknownLength(const ast::Expr& iter);
    std::string unknownLengthMessage(const ast::Expr& iter) const;
    // The counted form of a run-time iterable `iter` evaluated to `seq`, or (null `seq`) of
    // the call range(...) `iter`: index arithmetic, no range object.
    Iterable countedIterable(const ast::Expr& iter, ir::Node* seq);
    // zip(parts...) when one of them is counted: the shortest length, tuples of the items.
    Iterable countedZip(const ast::Expr& iter, std::vector<Iterable> parts);
    // `for target in it: body()` as a counter loop: the index advances before the body, so
    // `continue` (a call of the header) goes on with the next element.
    void countedLoop(const ast::Span& at, const Iterable& it, const std::function<void(ir::Node*)>& body);
    // The for loop `s` unrolled over `it` (of known length), break/continue joining blocks.
    void unrolled(const ast::For& s, const Iterable& it);
    // The length of a tuple/list node known while building (a display, a constant, an entry
    // input, a parameter given one by its callers or by the ways into its block); -1: only
    // type inference knows.
    std::int64_t knownLength(ir::Node* seq) const;
    bool lengthKnown(ir::Node* seq) const { return knownLength(seq) >= 0; }
    // A value computed in branch graphs: Switch(cond, Partial(@✓..), Partial(@✗..))(). The
    // branches see the variables, plus `extras` (temporaries) passed as their parameters.
    using BranchBody = std::function<ir::Node*(const std::vector<ir::Node*>& extras)>;
    ir::Node* branchValue(ir::Node* cond, const std::vector<ir::Node*>& trueExtras, const BranchBody& onTrue,
                          const std::vector<ir::Node*>& falseExtras, const BranchBody& onFalse,
                          const ast::Span& at);
    ir::Node* exprGraph(const std::string& prefix, const std::vector<ir::Node*>& extras, const BranchBody& body,
                        const ast::Span& at);
    ir::Node* partialOrGraph(ir::FuncGraph* g, const std::vector<ir::Node*>& args, const ast::Span& at);

    // --- expressions (graph_builder_expr.cpp) ---------------------------------------------
    ir::Node* expr(const ast::Expr& e);
    ir::Node* call(const ast::Call& c);
    // super().method as a host method bound to self (a function of a base class).
    ir::Node* superMethod(const ast::Call& superCall, const std::string& method, const ast::Span& at);
    ir::Node* name(const ast::Name& n);
    ir::Node* attribute(const ast::Attribute& a);
    ir::Node* subscriptIndex(const ast::Expr& e);
    ir::Node* lambda(const ast::Lambda& l);
    ir::Node* comprehension(const ast::Expr& e);  // graph_builder_flow.cpp
    // The items of generators `first`... of comprehension `e` (a list or generator expression)
    // when generator `first` iterates the counted `it`: a `comp_` graph whose counter loops
    // collect them (its conditions may be any condition type inference decides).
    ir::Node* countedComprehension(const ast::Expr& e, const std::vector<ast::Comprehension>& gens,
                                   std::size_t first, Iterable it);
    ir::Node* boolOp(const ast::BoolOp& b);
    ir::Node* compare(const ast::Compare& c);
    // The value of an expression when parse can know it: literals, `is None` on known
    // values, constant attributes of self, constant globals, entry arguments' host values.
    // `useKnown`: entry arguments count as known (only `is None` tests fold on them).
    std::optional<interp::Value> constValue(const ast::Expr& e, bool useKnown = true);
    std::optional<bool> constCondition(const ast::Expr& e);
    ir::ValuePtr irConstant(const interp::Value& v) const;  // null when not a plain constant
    bool isSelf(const ast::Expr& e) const;
    // `self.<attr>` names a Parameter of the host object (so assigning it is an Assign).
    bool isParameterAttribute(const ast::Attribute& a);
    interp::Value lookupHostName(const std::string& n) const;  // Null when unbound
    ir::Node* resolveNode(const HostEntry& ns, const std::string& nsText, const std::string& sym,
                          const ast::Span& at);

    FrontendState& s_;
    interp::Interpreter& I;
    ir::Module& m_;
    FunctionSpec spec_;
    const interp::ScriptUnit* unit_ = nullptr;
    Block cur_;
    std::vector<LoopCtx> loops_;
    std::map<const ir::Node*, interp::Value> known_;  // entry parameters' host values
    std::string selfName_;  // the method's first parameter ("self"), empty for functions
    // Block graphs and their call sites (for pruning).
    struct Site {
        ir::CNode* node;
        std::size_t argStart;
    };
    struct BlockInfo {
        std::vector<Site> sites;
        std::size_t prunable = 0;  // leading parameters that may be pruned
    };
    std::map<ir::FuncGraph*, BlockInfo> blocks_;
    // Parameters whose known length a loop used, with the loop's iterable (noteSite must not
    // drop the length then).
    std::map<const ir::Node*, ast::Span> lengthsUsed_;
    std::vector<ir::FuncGraph*> blockOrder_;
    std::size_t hiddenCount_ = 0;
    // Inner defs and lambdas by the node that holds them: their parameter names and
    // constant defaults, so calls in the same block bind keywords and defaults at parse.
    struct InnerSignature {
        std::vector<std::string> names;
        std::vector<ir::ValuePtr> defaults;  // per name; null: required
    };
    std::map<const ir::Node*, InnerSignature> inner_;
    InnerSignature innerSignature(const interp::CodeInfo& code, const ast::Arguments& a);
    // Orders a call's arguments for an inner function (keywords and defaults bound).
    std::vector<ir::Node*> bindInner(const InnerSignature& sig, std::vector<ir::Node*> args,
                                     const std::vector<std::string>& kws, const ast::Span& at);
    ir::ValuePtr classNs_, symbolNs_, builtinsNs_, selfObject_;
};

}  // namespace irscope::compiler
