// Internal: the tree-walking evaluator (frames, statements, expressions, calls of script
// functions, class bodies, comprehensions). Native code uses Interpreter, not this.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "frontend/interp/interpreter.h"

namespace irscope::interp {

struct NameInfo {
    NameRef ref;
    Ref<StrObject> name;
};

// Per-script caches, keyed by AST node (valid while the script's AST lives).
struct UnitCache {
    std::unordered_map<const void*, NameInfo> names;
    std::unordered_map<const void*, Value> constants;
    std::unordered_map<const void*, Ref<StrObject>> attrNames;
};

// One activation of a code block.
struct Frame {
    std::shared_ptr<const ScriptUnit> unit;
    const CodeInfo* code = nullptr;
    FunctionObject* func =
        nullptr;  // the running function (null: module, class body, comprehension)
    DictObject* globals = nullptr;
    DictObject* ns = nullptr;  // module: the globals; class body: the class namespace
    std::vector<Value> fast;
    std::vector<Ref<CellObject>> cells;  // own cells, then free variables
    Value retval;
    int line = 0;
    std::uint64_t serial = 0;
    Frame* back = nullptr;
};

class Evaluator {
public:
    explicit Evaluator(Interpreter& interp) : I(interp) {}
    ~Evaluator();

    // Runs a module's code in m's namespace.
    void runModule(const std::shared_ptr<ScriptUnit>& unit, ModuleObject& m);
    Value callFunction(FunctionObject& f, CallArgs& args);
    // Zero-argument super() in the innermost frame.
    Value zeroArgSuper();
    // Records where an exception passes through `f` (once per frame activation).
    void noteTraceback(PyError& e, Frame& f);
    // Sets exc.__context__ to the exception being handled, if any and not already set.
    void setContext(PyError& e, const Value& handled);

    // Guards against C++ stack exhaustion (RecursionError instead of a crash).
    void setStackLimit(const char* limit) { stackLimit_ = limit; }
    void checkStack() {
        char here;
        if (&here < stackLimit_) {
            stackExhausted();
        }
    }

    Frame* top = nullptr;
    int depth = 0;
    std::vector<Value> handling;  // exceptions being handled, innermost last

    enum class Flow : std::uint8_t { Normal, Break, Continue, Return };

    // --- statements (eval_stmt.cpp) -----------------------------------------------------------
    Flow execBlock(const ast::StmtList& body, Frame& f);
    Flow exec(const ast::Stmt& s, Frame& f);

    // --- expressions (eval_expr.cpp) ----------------------------------------------------------
    Value eval(const ast::Expr& e, Frame& f);
    void assign(const ast::Expr& target, const Value& v, Frame& f);
    void del(const ast::Expr& target, Frame& f);
    Value loadName(const ast::Name& n, Frame& f);
    void storeSite(const void* site, const std::string& name, const Value& v, Frame& f);
    void deleteSite(const void* site, const std::string& name, Frame& f, bool quiet = false);

    // --- functions, classes, comprehensions (eval_call.cpp) -----------------------------------
    Value makeFunction(const ast::FunctionDef* def, const ast::Lambda* lambda, Frame& f);
    Value makeClass(const ast::ClassDef& c, Frame& f);
    Value comprehension(const ast::Expr& e, Frame& f);
    Value generator(const ast::GeneratorExp& g, Frame& f);
    void evalCallArgs(const ast::Call& c, Frame& f, CallArgs& out);
    // A frame for a nested block (comprehension, class body) of `parent`.
    void initNestedFrame(Frame& nf, const CodeInfo* code, Frame& parent);

    Interpreter& I;

private:
    UnitCache& cacheOf(const ScriptUnit& unit);
    const NameInfo& nameInfo(const void* site, const std::string& name, const ScriptUnit& unit);
    [[noreturn]] void stackExhausted();

    Flow execFor(const ast::For& s, Frame& f);
    Flow execWhile(const ast::While& s, Frame& f);
    Flow execTry(const ast::Try& s, Frame& f);
    Flow execTryExcept(const ast::Try& s, Frame& f);
    Flow execWith(const ast::With& s, std::size_t item, Frame& f);
    void execRaise(const ast::Raise& s, Frame& f);
    void execImport(const ast::Import& s, Frame& f);
    void execImportFrom(const ast::ImportFrom& s, Frame& f);
    void execAugAssign(const ast::AugAssign& s, Frame& f);
    bool exceptionMatches(const Value& exc, const Value& type);

    Value evalConstant(const ast::Constant& c, Frame& f);
    Value evalCall(const ast::Call& c, Frame& f);
    Value evalCompare(const ast::Compare& c, Frame& f);
    Value evalSubscript(const ast::Subscript& s, Frame& f);
    Value evalSlice(const ast::Slice& s, Frame& f);
    Value evalJoinedStr(const ast::JoinedStr& s, Frame& f);
    void evalElements(const ast::ExprList& elts, Frame& f, std::vector<Value>& out);
    void unpack(const ast::ExprList& targets, const Value& v, Frame& f);

    std::vector<std::weak_ptr<UnitCache>> caches_;  // cleared when the interpreter goes
    const char* stackLimit_ = nullptr;
    std::uint64_t nextSerial_ = 1;

public:
    std::uint64_t newSerial() { return nextSerial_++; }
    const Ref<StrObject>& attrName(const Frame& f, const void* node, const std::string& name);
};

// Pushes a frame for its lifetime (and counts the recursion depth).
class FrameGuard {
public:
    FrameGuard(Evaluator& ev, Frame& f);
    ~FrameGuard();
    FrameGuard(const FrameGuard&) = delete;
    FrameGuard& operator=(const FrameGuard&) = delete;

private:
    Evaluator& ev_;
};

}  // namespace irscope::interp
