#include "frontend/ast.h"

#include <algorithm>

namespace irscope::ast {

// --- names ----------------------------------------------------------------------------------

const char* name(ExprContext c) {
    switch (c) {
        case ExprContext::Load:
            return "Load";
        case ExprContext::Store:
            return "Store";
        case ExprContext::Del:
            return "Del";
    }
    return "?";
}

const char* name(BoolOperator op) {
    return op == BoolOperator::And ? "And" : "Or";
}
const char* symbol(BoolOperator op) {
    return op == BoolOperator::And ? "and" : "or";
}

namespace {
struct OpNames {
    const char* name;
    const char* symbol;
};
constexpr OpNames kOperators[] = {
    {"Add", "+"},    {"Sub", "-"},    {"Mult", "*"},     {"MatMult", "@"}, {"Div", "/"},
    {"Mod", "%"},    {"Pow", "**"},   {"LShift", "<<"},  {"RShift", ">>"}, {"BitOr", "|"},
    {"BitXor", "^"}, {"BitAnd", "&"}, {"FloorDiv", "//"}};
constexpr OpNames kUnary[] = {{"Invert", "~"}, {"Not", "not"}, {"UAdd", "+"}, {"USub", "-"}};
constexpr OpNames kCompare[] = {{"Eq", "=="}, {"NotEq", "!="},    {"Lt", "<"},  {"LtE", "<="},
                                {"Gt", ">"},  {"GtE", ">="},      {"Is", "is"}, {"IsNot", "is not"},
                                {"In", "in"}, {"NotIn", "not in"}};
constexpr const char* kExprNames[] = {
    "BoolOp",    "NamedExpr", "BinOp",          "UnaryOp",   "Lambda",   "IfExp",
    "Dict",      "Set",       "ListComp",       "SetComp",   "DictComp", "GeneratorExp",
    "Compare",   "Call",      "FormattedValue", "JoinedStr", "Constant", "Attribute",
    "Subscript", "Starred",   "Name",           "List",      "Tuple",    "Slice"};
constexpr const char* kStmtNames[] = {
    "FunctionDef", "ClassDef", "Return", "Delete", "Assign", "AugAssign", "AnnAssign", "For",
    "While",       "If",       "With",   "Raise",  "Try",    "Assert",    "Import",    "ImportFrom",
    "Global",      "Nonlocal", "Expr",   "Pass",   "Break",  "Continue"};
}  // namespace

const char* name(Operator op) {
    return kOperators[static_cast<int>(op)].name;
}
const char* symbol(Operator op) {
    return kOperators[static_cast<int>(op)].symbol;
}
const char* name(UnaryOperator op) {
    return kUnary[static_cast<int>(op)].name;
}
const char* symbol(UnaryOperator op) {
    return kUnary[static_cast<int>(op)].symbol;
}
const char* name(CmpOperator op) {
    return kCompare[static_cast<int>(op)].name;
}
const char* symbol(CmpOperator op) {
    return kCompare[static_cast<int>(op)].symbol;
}
const char* name(ExprKind k) {
    return kExprNames[static_cast<int>(k)];
}
const char* name(StmtKind k) {
    return kStmtNames[static_cast<int>(k)];
}

// --- Module ---------------------------------------------------------------------------------

namespace {
std::string normalizeNewlines(std::string src) {
    if (src.size() >= 3 && static_cast<unsigned char>(src[0]) == 0xEF &&
        static_cast<unsigned char>(src[1]) == 0xBB && static_cast<unsigned char>(src[2]) == 0xBF) {
        src.erase(0, 3);
    }
    if (src.find('\r') == std::string::npos) {
        return src;
    }
    std::string out;
    out.reserve(src.size());
    for (std::size_t i = 0; i < src.size(); ++i) {
        if (src[i] == '\r') {
            out += '\n';
            if (i + 1 < src.size() && src[i + 1] == '\n') {
                ++i;
            }
        } else {
            out += src[i];
        }
    }
    return out;
}
}  // namespace

Module::Module(std::string fileName, std::string source)
    : fileName_(std::move(fileName)), source_(normalizeNewlines(std::move(source))) {
    lineStarts_.push_back(0);
    for (std::size_t i = 0; i < source_.size(); ++i) {
        if (source_[i] == '\n' && i + 1 < source_.size()) {
            lineStarts_.push_back(i + 1);
        }
    }
}

std::string_view Module::line(int n) const {
    if (n < 1 || n > lineCount()) {
        return {};
    }
    std::size_t begin = lineStarts_[static_cast<std::size_t>(n - 1)];
    std::size_t end = source_.find('\n', begin);
    if (end == std::string::npos) {
        end = source_.size();
    }
    return std::string_view(source_).substr(begin, end - begin);
}

std::string_view Module::text(const Span& s) const {
    if (s.line < 1 || s.line > lineCount() || s.endLine < s.line || s.endLine > lineCount()) {
        return {};
    }
    std::size_t begin =
        lineStarts_[static_cast<std::size_t>(s.line - 1)] + static_cast<std::size_t>(s.col);
    std::size_t end =
        lineStarts_[static_cast<std::size_t>(s.endLine - 1)] + static_cast<std::size_t>(s.endCol);
    if (begin > end || end > source_.size()) {
        return {};
    }
    return std::string_view(source_).substr(begin, end - begin);
}

int Module::charColumn(int n, int col) const {
    std::string_view l = line(n);
    int chars = 1;
    for (std::size_t i = 0; i < l.size() && static_cast<int>(i) < col; ++i) {
        if ((static_cast<unsigned char>(l[i]) & 0xC0) != 0x80) {
            ++chars;
        }
    }
    return chars;
}

// --- forEachChild ---------------------------------------------------------------------------

namespace {
void visit(const ExprPtr& e, const ExprVisitor& f) {
    if (e) {
        f(*e);
    }
}
void visitAll(const ExprList& list, const ExprVisitor& f) {
    for (const ExprPtr& e : list) {
        visit(e, f);
    }
}
void visitBody(const StmtList& list, const StmtVisitor& f) {
    for (const StmtPtr& s : list) {
        f(*s);
    }
}
void visitGenerators(const std::vector<Comprehension>& gens, const ExprVisitor& f) {
    for (const Comprehension& c : gens) {
        visit(c.target, f);
        visit(c.iter, f);
        visitAll(c.ifs, f);
    }
}
// In source order: defaults sit with their parameters.
void visitArguments(const Arguments& a, const ExprVisitor& f) {
    std::size_t positional = a.posonlyargs.size() + a.args.size();
    std::size_t firstDefault = positional - std::min(positional, a.defaults.size());
    std::size_t i = 0;
    auto param = [&](const Arg& arg) {
        visit(arg.annotation, f);
        if (i >= firstDefault && i - firstDefault < a.defaults.size()) {
            visit(a.defaults[i - firstDefault], f);
        }
        ++i;
    };
    for (const Arg& arg : a.posonlyargs) {
        param(arg);
    }
    for (const Arg& arg : a.args) {
        param(arg);
    }
    if (a.vararg) {
        visit(a.vararg->annotation, f);
    }
    for (std::size_t k = 0; k < a.kwonlyargs.size(); ++k) {
        visit(a.kwonlyargs[k].annotation, f);
        if (k < a.kwDefaults.size()) {
            visit(a.kwDefaults[k], f);
        }
    }
    if (a.kwarg) {
        visit(a.kwarg->annotation, f);
    }
}
void visitKeywords(const std::vector<Keyword>& kws, const ExprVisitor& f) {
    for (const Keyword& k : kws) {
        visit(k.value, f);
    }
}
}  // namespace

void forEachChild(const Expr& node, const ExprVisitor& f) {
    switch (node.kind) {
        case ExprKind::BoolOp:
            visitAll(node.cast<BoolOp>().values, f);
            break;
        case ExprKind::NamedExpr: {
            const auto& n = node.cast<NamedExpr>();
            visit(n.target, f);
            visit(n.value, f);
            break;
        }
        case ExprKind::BinOp: {
            const auto& n = node.cast<BinOp>();
            visit(n.left, f);
            visit(n.right, f);
            break;
        }
        case ExprKind::UnaryOp:
            visit(node.cast<UnaryOp>().operand, f);
            break;
        case ExprKind::Lambda: {
            const auto& n = node.cast<Lambda>();
            visitArguments(n.args, f);
            visit(n.body, f);
            break;
        }
        case ExprKind::IfExp: {
            const auto& n = node.cast<IfExp>();
            visit(n.body, f);
            visit(n.test, f);
            visit(n.orelse, f);
            break;
        }
        case ExprKind::Dict: {
            const auto& n = node.cast<Dict>();
            for (std::size_t i = 0; i < n.values.size(); ++i) {
                visit(n.keys[i], f);
                visit(n.values[i], f);
            }
            break;
        }
        case ExprKind::Set:
            visitAll(node.cast<Set>().elts, f);
            break;
        case ExprKind::ListComp: {
            const auto& n = node.cast<ListComp>();
            visit(n.elt, f);
            visitGenerators(n.generators, f);
            break;
        }
        case ExprKind::SetComp: {
            const auto& n = node.cast<SetComp>();
            visit(n.elt, f);
            visitGenerators(n.generators, f);
            break;
        }
        case ExprKind::GeneratorExp: {
            const auto& n = node.cast<GeneratorExp>();
            visit(n.elt, f);
            visitGenerators(n.generators, f);
            break;
        }
        case ExprKind::DictComp: {
            const auto& n = node.cast<DictComp>();
            visit(n.key, f);
            visit(n.value, f);
            visitGenerators(n.generators, f);
            break;
        }
        case ExprKind::Compare: {
            const auto& n = node.cast<Compare>();
            visit(n.left, f);
            visitAll(n.comparators, f);
            break;
        }
        case ExprKind::Call: {
            const auto& n = node.cast<Call>();
            visit(n.func, f);
            visitAll(n.args, f);
            visitKeywords(n.keywords, f);
            break;
        }
        case ExprKind::FormattedValue: {
            const auto& n = node.cast<FormattedValue>();
            visit(n.value, f);
            visit(n.formatSpec, f);
            break;
        }
        case ExprKind::JoinedStr:
            visitAll(node.cast<JoinedStr>().values, f);
            break;
        case ExprKind::Constant:
            break;
        case ExprKind::Attribute:
            visit(node.cast<Attribute>().value, f);
            break;
        case ExprKind::Subscript: {
            const auto& n = node.cast<Subscript>();
            visit(n.value, f);
            visit(n.slice, f);
            break;
        }
        case ExprKind::Starred:
            visit(node.cast<Starred>().value, f);
            break;
        case ExprKind::Name:
            break;
        case ExprKind::List:
            visitAll(node.cast<List>().elts, f);
            break;
        case ExprKind::Tuple:
            visitAll(node.cast<Tuple>().elts, f);
            break;
        case ExprKind::Slice: {
            const auto& n = node.cast<Slice>();
            visit(n.lower, f);
            visit(n.upper, f);
            visit(n.step, f);
            break;
        }
    }
}

void forEachChild(const Stmt& node, const ExprVisitor& fe, const StmtVisitor& fs) {
    switch (node.kind) {
        case StmtKind::FunctionDef: {
            const auto& n = node.cast<FunctionDef>();
            visitAll(n.decorators, fe);
            visitArguments(n.args, fe);
            visit(n.returns, fe);
            visitBody(n.body, fs);
            break;
        }
        case StmtKind::ClassDef: {
            const auto& n = node.cast<ClassDef>();
            visitAll(n.decorators, fe);
            visitAll(n.bases, fe);
            visitKeywords(n.keywords, fe);
            visitBody(n.body, fs);
            break;
        }
        case StmtKind::Return:
            visit(node.cast<Return>().value, fe);
            break;
        case StmtKind::Delete:
            visitAll(node.cast<Delete>().targets, fe);
            break;
        case StmtKind::Assign: {
            const auto& n = node.cast<Assign>();
            visitAll(n.targets, fe);
            visit(n.value, fe);
            break;
        }
        case StmtKind::AugAssign: {
            const auto& n = node.cast<AugAssign>();
            visit(n.target, fe);
            visit(n.value, fe);
            break;
        }
        case StmtKind::AnnAssign: {
            const auto& n = node.cast<AnnAssign>();
            visit(n.target, fe);
            visit(n.annotation, fe);
            visit(n.value, fe);
            break;
        }
        case StmtKind::For: {
            const auto& n = node.cast<For>();
            visit(n.target, fe);
            visit(n.iter, fe);
            visitBody(n.body, fs);
            visitBody(n.orelse, fs);
            break;
        }
        case StmtKind::While: {
            const auto& n = node.cast<While>();
            visit(n.test, fe);
            visitBody(n.body, fs);
            visitBody(n.orelse, fs);
            break;
        }
        case StmtKind::If: {
            const auto& n = node.cast<If>();
            visit(n.test, fe);
            visitBody(n.body, fs);
            visitBody(n.orelse, fs);
            break;
        }
        case StmtKind::With: {
            const auto& n = node.cast<With>();
            for (const WithItem& item : n.items) {
                visit(item.contextExpr, fe);
                visit(item.optionalVars, fe);
            }
            visitBody(n.body, fs);
            break;
        }
        case StmtKind::Raise: {
            const auto& n = node.cast<Raise>();
            visit(n.exc, fe);
            visit(n.cause, fe);
            break;
        }
        case StmtKind::Try: {
            const auto& n = node.cast<Try>();
            visitBody(n.body, fs);
            for (const ExceptHandler& h : n.handlers) {
                visit(h.type, fe);
                visitBody(h.body, fs);
            }
            visitBody(n.orelse, fs);
            visitBody(n.finalbody, fs);
            break;
        }
        case StmtKind::Assert: {
            const auto& n = node.cast<Assert>();
            visit(n.test, fe);
            visit(n.msg, fe);
            break;
        }
        case StmtKind::Expr:
            visit(node.cast<ExprStmt>().value, fe);
            break;
        case StmtKind::Import:
        case StmtKind::ImportFrom:
        case StmtKind::Global:
        case StmtKind::Nonlocal:
        case StmtKind::Pass:
        case StmtKind::Break:
        case StmtKind::Continue:
            break;
    }
}

}  // namespace irscope::ast
