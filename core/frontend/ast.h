// The script AST: the tree the parser builds from a network script, shaped like CPython's
// `ast` module (same node names, same fields, same source positions) so that anyone who knows
// Python's AST can walk it.
//
// Walking: every node is a struct deriving from Expr or Stmt that carries a `kind` tag and a
// Span. Switch on `kind` and downcast with `as<T>()` (checked, returns nullptr on mismatch)
// or `cast<T>()` (asserted). `forEachChild` visits the direct sub-nodes of any node in
// source order, for passes that only need to find things (free variables, calls).
//
// Ownership: a node owns its children through unique_ptr; the Module owns the statements and
// the source text. Limits the parser guarantees (so recursive walkers cannot overflow the
// stack): expression trees are at most kMaxExprDepth nodes deep, and statements nest at most
// 100 blocks deep.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ast {

inline constexpr int kMaxExprDepth = 1000;

// Where a node is in the source: lines are 1-based; columns are 0-based UTF-8 byte offsets
// into the line with an exclusive end. This is CPython's (lineno, col_offset, end_lineno,
// end_col_offset) and MindSpore's "# In file f.py:16, 12~25" convention; add 1 to `col` for
// the 1-based column an editor or an error message shows (byte == character for ASCII; see
// Module::charColumn otherwise).
struct Span {
    int line = 0;
    int col = 0;
    int endLine = 0;
    int endCol = 0;
};

// --- operators ------------------------------------------------------------------------------

enum class ExprContext : std::uint8_t { Load, Store, Del };
enum class BoolOperator : std::uint8_t { And, Or };
enum class Operator : std::uint8_t {
    Add,
    Sub,
    Mult,
    MatMult,
    Div,
    Mod,
    Pow,
    LShift,
    RShift,
    BitOr,
    BitXor,
    BitAnd,
    FloorDiv
};
enum class UnaryOperator : std::uint8_t { Invert, Not, UAdd, USub };
enum class CmpOperator : std::uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

// CPython's class names ("Add", "NotIn", ...) and the Python spellings ("+", "not in", ...).
const char* name(ExprContext c);
const char* name(BoolOperator op);
const char* name(Operator op);
const char* name(UnaryOperator op);
const char* name(CmpOperator op);
const char* symbol(BoolOperator op);
const char* symbol(Operator op);
const char* symbol(UnaryOperator op);
const char* symbol(CmpOperator op);

// --- base classes ---------------------------------------------------------------------------

enum class ExprKind : std::uint8_t {
    BoolOp,
    NamedExpr,
    BinOp,
    UnaryOp,
    Lambda,
    IfExp,
    Dict,
    Set,
    ListComp,
    SetComp,
    DictComp,
    GeneratorExp,
    Compare,
    Call,
    FormattedValue,
    JoinedStr,
    Constant,
    Attribute,
    Subscript,
    Starred,
    Name,
    List,
    Tuple,
    Slice
};

enum class StmtKind : std::uint8_t {
    FunctionDef,
    ClassDef,
    Return,
    Delete,
    Assign,
    AugAssign,
    AnnAssign,
    For,
    While,
    If,
    With,
    Raise,
    Try,
    Assert,
    Import,
    ImportFrom,
    Global,
    Nonlocal,
    Expr,
    Pass,
    Break,
    Continue
};

const char* name(ExprKind k);
const char* name(StmtKind k);

template <class Base>
struct NodeBase {
    virtual ~NodeBase() = default;

    template <class T>
    T* as() {
        return kindOf() == T::kKind ? static_cast<T*>(this) : nullptr;
    }
    template <class T>
    const T* as() const {
        return kindOf() == T::kKind ? static_cast<const T*>(this) : nullptr;
    }
    template <class T>
    T& cast() {
        return *static_cast<T*>(this);
    }
    template <class T>
    const T& cast() const {
        return *static_cast<const T*>(this);
    }

private:
    auto kindOf() const { return static_cast<const Base*>(this)->kind; }
};

struct Expr : NodeBase<Expr> {
    Expr(ExprKind k, Span s) : kind(k), span(s) {}
    const ExprKind kind;
    Span span;
    int depth = 1;  // nodes on the longest path down from here, this one included
};
using ExprPtr = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprPtr>;

struct Stmt : NodeBase<Stmt> {
    Stmt(StmtKind k, Span s) : kind(k), span(s) {}
    const StmtKind kind;
    Span span;
};
using StmtPtr = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtPtr>;

template <ExprKind K>
struct ExprOf : Expr {
    static constexpr ExprKind kKind = K;
    explicit ExprOf(Span s) : Expr(K, s) {}
};
template <StmtKind K>
struct StmtOf : Stmt {
    static constexpr StmtKind kKind = K;
    explicit StmtOf(Span s) : Stmt(K, s) {}
};

// --- helper records (no kind of their own) ---------------------------------------------------

// One parameter. `annotation` is parsed and kept but means nothing to irscope.
struct Arg {
    std::string name;
    ExprPtr annotation;  // may be null
    Span span;           // the name (and annotation)
};
using ArgPtr = std::unique_ptr<Arg>;

// A parameter list: def f(posonly, /, args, *vararg, kwonly, **kwarg).
// `defaults` belong to the last len(defaults) of posonlyargs+args; `kwDefaults` is parallel
// to kwonlyargs with null for "no default".
struct Arguments {
    std::vector<Arg> posonlyargs;
    std::vector<Arg> args;
    ArgPtr vararg;  // null when absent
    std::vector<Arg> kwonlyargs;
    ExprList kwDefaults;
    ArgPtr kwarg;  // null when absent
    ExprList defaults;
};

// `name=value` in a call or class header; an empty `arg` means `**value`.
struct Keyword {
    std::string arg;
    ExprPtr value;
    Span span;
};

// `for target in iter if cond1 if cond2` inside a comprehension.
struct Comprehension {
    ExprPtr target;
    ExprPtr iter;
    ExprList ifs;
};

// `import name as asname` / `from m import name as asname`; `asname` empty when absent.
struct Alias {
    std::string name;  // dotted for `import a.b`; "*" for `from m import *`
    std::string asname;
    Span span;
};

// `with context_expr as optional_vars`.
struct WithItem {
    ExprPtr contextExpr;
    ExprPtr optionalVars;  // may be null
};

// `except type as name: body`. `type` null for a bare except; `name` empty when absent.
struct ExceptHandler {
    ExprPtr type;
    std::string name;
    StmtList body;
    Span span;
};

// --- expressions ----------------------------------------------------------------------------

struct BoolOp : ExprOf<ExprKind::BoolOp> {  // a or b or c: one node, several values
    using ExprOf::ExprOf;
    BoolOperator op = BoolOperator::And;
    ExprList values;
};
struct NamedExpr : ExprOf<ExprKind::NamedExpr> {  // target := value
    using ExprOf::ExprOf;
    ExprPtr target;
    ExprPtr value;
};
struct BinOp : ExprOf<ExprKind::BinOp> {
    using ExprOf::ExprOf;
    ExprPtr left;
    Operator op = Operator::Add;
    ExprPtr right;
};
struct UnaryOp : ExprOf<ExprKind::UnaryOp> {
    using ExprOf::ExprOf;
    UnaryOperator op = UnaryOperator::USub;
    ExprPtr operand;
};
struct Lambda : ExprOf<ExprKind::Lambda> {
    using ExprOf::ExprOf;
    Arguments args;
    ExprPtr body;
};
struct IfExp : ExprOf<ExprKind::IfExp> {  // body if test else orelse
    using ExprOf::ExprOf;
    ExprPtr test;
    ExprPtr body;
    ExprPtr orelse;
};
struct Dict : ExprOf<ExprKind::Dict> {  // keys[i] null for `**values[i]`
    using ExprOf::ExprOf;
    ExprList keys;
    ExprList values;
};
struct Set : ExprOf<ExprKind::Set> {
    using ExprOf::ExprOf;
    ExprList elts;
};
struct ListComp : ExprOf<ExprKind::ListComp> {
    using ExprOf::ExprOf;
    ExprPtr elt;
    std::vector<Comprehension> generators;
};
struct SetComp : ExprOf<ExprKind::SetComp> {
    using ExprOf::ExprOf;
    ExprPtr elt;
    std::vector<Comprehension> generators;
};
struct DictComp : ExprOf<ExprKind::DictComp> {
    using ExprOf::ExprOf;
    ExprPtr key;
    ExprPtr value;
    std::vector<Comprehension> generators;
};
struct GeneratorExp : ExprOf<ExprKind::GeneratorExp> {
    using ExprOf::ExprOf;
    ExprPtr elt;
    std::vector<Comprehension> generators;
};
struct Compare : ExprOf<ExprKind::Compare> {  // a < b <= c: left=a, ops=[<,<=], comparators=[b,c]
    using ExprOf::ExprOf;
    ExprPtr left;
    std::vector<CmpOperator> ops;
    ExprList comparators;
};
struct Call : ExprOf<ExprKind::Call> {  // `*x` arrives as a Starred in args, `**x` as a Keyword
    using ExprOf::ExprOf;
    ExprPtr func;
    ExprList args;
    std::vector<Keyword> keywords;
};
// One `{value!conversion:format_spec}` of an f-string. conversion: -1 (none), 's', 'r' or
// 'a' (as in CPython). format_spec is a JoinedStr or null.
struct FormattedValue : ExprOf<ExprKind::FormattedValue> {
    using ExprOf::ExprOf;
    ExprPtr value;
    int conversion = -1;
    ExprPtr formatSpec;
};
struct JoinedStr : ExprOf<ExprKind::JoinedStr> {  // an f-string: Constant(str) and FormattedValue
    using ExprOf::ExprOf;
    ExprList values;
};

struct Constant : ExprOf<ExprKind::Constant> {
    using ExprOf::ExprOf;
    // Complex: an imaginary literal (`2j`), floatValue its imaginary part.
    enum class Type : std::uint8_t { None, Bool, Int, Float, Complex, Str, Ellipsis };
    Type type = Type::None;
    bool boolValue = false;
    // Int: the value, or intOverflow when it does not fit int64 (intText then is exact).
    std::int64_t intValue = 0;
    bool intOverflow = false;
    std::string intText;  // the literal as written, without underscores: "0x1F", "10"
    double floatValue = 0.0;
    std::string strValue;  // decoded UTF-8 (escapes applied, adjacent literals joined)
};

struct Attribute : ExprOf<ExprKind::Attribute> {
    using ExprOf::ExprOf;
    ExprPtr value;
    std::string attr;
    ExprContext ctx = ExprContext::Load;
};
struct Subscript : ExprOf<ExprKind::Subscript> {  // x[0, 1:2] -> slice is a Tuple
    using ExprOf::ExprOf;
    ExprPtr value;
    ExprPtr slice;
    ExprContext ctx = ExprContext::Load;
};
struct Starred : ExprOf<ExprKind::Starred> {
    using ExprOf::ExprOf;
    ExprPtr value;
    ExprContext ctx = ExprContext::Load;
};
struct Name : ExprOf<ExprKind::Name> {
    using ExprOf::ExprOf;
    std::string id;
    ExprContext ctx = ExprContext::Load;
};
struct List : ExprOf<ExprKind::List> {
    using ExprOf::ExprOf;
    ExprList elts;
    ExprContext ctx = ExprContext::Load;
};
struct Tuple : ExprOf<ExprKind::Tuple> {
    using ExprOf::ExprOf;
    ExprList elts;
    ExprContext ctx = ExprContext::Load;
};
struct Slice : ExprOf<ExprKind::Slice> {  // lower:upper:step, each may be null
    using ExprOf::ExprOf;
    ExprPtr lower;
    ExprPtr upper;
    ExprPtr step;
};

// --- statements -----------------------------------------------------------------------------

// The span starts at `def` (decorators are separate expressions with their own spans) and
// ends with the last body statement, as in CPython.
struct FunctionDef : StmtOf<StmtKind::FunctionDef> {
    using StmtOf::StmtOf;
    std::string name;
    Arguments args;
    StmtList body;
    ExprList decorators;  // outermost first, as written
    ExprPtr returns;      // the `-> T` annotation, may be null
};
struct ClassDef : StmtOf<StmtKind::ClassDef> {
    using StmtOf::StmtOf;
    std::string name;
    ExprList bases;
    std::vector<Keyword> keywords;
    StmtList body;
    ExprList decorators;
};
struct Return : StmtOf<StmtKind::Return> {
    using StmtOf::StmtOf;
    ExprPtr value;  // may be null
};
struct Delete : StmtOf<StmtKind::Delete> {
    using StmtOf::StmtOf;
    ExprList targets;
};
struct Assign : StmtOf<StmtKind::Assign> {  // a = b = value: targets [a, b]
    using StmtOf::StmtOf;
    ExprList targets;
    ExprPtr value;
};
struct AugAssign : StmtOf<StmtKind::AugAssign> {
    using StmtOf::StmtOf;
    ExprPtr target;
    Operator op = Operator::Add;
    ExprPtr value;
};
// target: annotation [= value]; simple is true for a bare (unparenthesized) name target.
struct AnnAssign : StmtOf<StmtKind::AnnAssign> {
    using StmtOf::StmtOf;
    ExprPtr target;
    ExprPtr annotation;
    ExprPtr value;  // may be null
    bool simple = false;
};
struct For : StmtOf<StmtKind::For> {
    using StmtOf::StmtOf;
    ExprPtr target;
    ExprPtr iter;
    StmtList body;
    StmtList orelse;
};
struct While : StmtOf<StmtKind::While> {
    using StmtOf::StmtOf;
    ExprPtr test;
    StmtList body;
    StmtList orelse;
};
// elif chains are nested Ifs in orelse, as in CPython.
struct If : StmtOf<StmtKind::If> {
    using StmtOf::StmtOf;
    ExprPtr test;
    StmtList body;
    StmtList orelse;
};
struct With : StmtOf<StmtKind::With> {
    using StmtOf::StmtOf;
    std::vector<WithItem> items;
    StmtList body;
};
struct Raise : StmtOf<StmtKind::Raise> {
    using StmtOf::StmtOf;
    ExprPtr exc;    // may be null (re-raise)
    ExprPtr cause;  // `from cause`, may be null
};
struct Try : StmtOf<StmtKind::Try> {
    using StmtOf::StmtOf;
    StmtList body;
    std::vector<ExceptHandler> handlers;
    StmtList orelse;
    StmtList finalbody;
};
struct Assert : StmtOf<StmtKind::Assert> {
    using StmtOf::StmtOf;
    ExprPtr test;
    ExprPtr msg;  // may be null
};
struct Import : StmtOf<StmtKind::Import> {
    using StmtOf::StmtOf;
    std::vector<Alias> names;
};
struct ImportFrom : StmtOf<StmtKind::ImportFrom> {  // from ..module import names
    using StmtOf::StmtOf;
    std::string module;  // may be empty (`from . import x`)
    std::vector<Alias> names;
    int level = 0;  // leading dots
};
struct Global : StmtOf<StmtKind::Global> {
    using StmtOf::StmtOf;
    std::vector<std::string> names;
};
struct Nonlocal : StmtOf<StmtKind::Nonlocal> {
    using StmtOf::StmtOf;
    std::vector<std::string> names;
};
struct ExprStmt : StmtOf<StmtKind::Expr> {  // CPython's `Expr` statement
    using StmtOf::StmtOf;
    ExprPtr value;
};
struct Pass : StmtOf<StmtKind::Pass> {
    using StmtOf::StmtOf;
};
struct Break : StmtOf<StmtKind::Break> {
    using StmtOf::StmtOf;
};
struct Continue : StmtOf<StmtKind::Continue> {
    using StmtOf::StmtOf;
};

// --- the module -----------------------------------------------------------------------------

// A parsed script. Keeps its source (line endings normalised to '\n', a UTF-8 BOM dropped)
// so debug info can quote any line.
class Module {
public:
    Module(std::string fileName, std::string source);

    const std::string& fileName() const { return fileName_; }
    const std::string& source() const { return source_; }
    int lineCount() const { return static_cast<int>(lineStarts_.size()); }
    // Text of 1-based line n without its newline; empty when out of range.
    std::string_view line(int n) const;
    // The source text a span covers.
    std::string_view text(const Span& s) const;
    // 1-based character column of 0-based byte column `col` on line n (what editors show).
    int charColumn(int n, int col) const;

    StmtList body;

private:
    std::string fileName_;
    std::string source_;
    std::vector<std::size_t> lineStarts_;
};

// --- walking and dumping --------------------------------------------------------------------

// Calls the callbacks for the direct children of a node, in source order. Children that are
// not Expr/Stmt (arguments, keywords, comprehensions, handlers, ...) are looked into: their
// expressions and statements are reported as children of `node`.
using ExprVisitor = std::function<void(const Expr&)>;
using StmtVisitor = std::function<void(const Stmt&)>;
void forEachChild(const Expr& node, const ExprVisitor& onExpr);
void forEachChild(const Stmt& node, const ExprVisitor& onExpr, const StmtVisitor& onStmt);

// Python's repr() of a float ("1.0", "1e+16", "inf"); a str's is util::pyStrRepr.
std::string pyRepr(double d);
// Exact decimal text of an integer literal's intText ("0x1F" -> "31"), any length.
std::string intLiteralDecimal(const std::string& text);

// CPython `ast.dump`-like text on one line: field names kept; null fields, empty lists,
// ctx=Load(), Constant.kind and comprehension.is_async omitted:
//   Module(body=[Assign(targets=[Name(id='a', ctx=Store())], value=Constant(value=1))])
// With `spans`, every node that has a span is followed by `@line:col-endLine:endCol`.
struct DumpOptions {
    bool spans = false;
};
std::string dumpAst(const Module& m, const DumpOptions& opts = {});
std::string dumpAst(const Stmt& s, const DumpOptions& opts = {});
std::string dumpAst(const Expr& e, const DumpOptions& opts = {});

}  // namespace irscope::ast
