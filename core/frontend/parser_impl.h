// Internal to the parser: the recursive-descent Parser shared by parser.cpp (statements),
// parser_expr.cpp (expressions, assignment targets) and parser_string.cpp (literals).
//
// Positions follow CPython's PEG parser: a node starts at the first token of the rule that
// built it (so `(a + b) * c` starts at the parenthesis) and ends at the last token consumed.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/lexer.h"

namespace irscope::frontend {

// Guard on the parser's own recursion (each unit is a handful of C++ frames).
inline constexpr int kMaxParserNesting = 600;

class Parser {
public:
    // Parses the whole module (m.body is filled).
    Parser(ast::Module& m, std::vector<Token> tokens) : m_(m), toks_(std::move(tokens)) {}
    void parseModule();

    // For f-string replacement fields: parses tokens of a sub-lexer as one expression list.
    ast::ExprPtr parseFStringExpression();

private:
    friend struct NestingGuard;

    // --- tokens -----------------------------------------------------------------------------
    const Token& tok() const { return toks_[i_]; }
    const Token& ahead(std::size_t k = 1) const {
        return toks_[std::min(i_ + k, toks_.size() - 1)];
    }
    const Token& prev() const { return toks_[i_ > 0 ? i_ - 1 : 0]; }
    bool at(Tok k) const { return tok().kind == k; }
    const Token& advance() {
        const Token& t = toks_[i_];
        if (i_ + 1 < toks_.size()) {
            ++i_;
        }
        return t;
    }
    bool accept(Tok k) {
        if (at(k)) {
            advance();
            return true;
        }
        return false;
    }
    const Token& expect(Tok k);  // "invalid syntax" / "expected ':'" otherwise
    std::string_view text(const Token& t) const {
        return std::string_view(m_.source()).substr(t.begin, t.end - t.begin);
    }

    // --- errors -----------------------------------------------------------------------------
    [[noreturn]] void error(int line, int col, const std::string& msg,
                            const char* kind = "SyntaxError") const;
    [[noreturn]] void error(const Token& t, const std::string& msg) const {
        error(t.line, t.col, msg);
    }
    [[noreturn]] void error(const ast::Expr& e, const std::string& msg) const {
        error(e.span.line, e.span.col, msg);
    }
    [[noreturn]] void invalidSyntax() const;  // at the current token

    // --- spans and nodes --------------------------------------------------------------------
    ast::Span spanFrom(const Token& start) const {
        return {start.line, start.col, prev().endLine, prev().endCol};
    }
    static ast::Span spanOf(const Token& t) { return {t.line, t.col, t.endLine, t.endCol}; }
    template <class T>
    std::unique_ptr<T> node(const Token& start) const {
        return std::make_unique<T>(spanFrom(start));
    }
    // Computes e's depth from its children; errors past ast::kMaxExprDepth.
    ast::ExprPtr seal(ast::ExprPtr e) const;

    // --- statements (parser.cpp) ------------------------------------------------------------
    void statement(ast::StmtList& out);
    void simpleStatements(ast::StmtList& out);
    ast::StmtPtr simpleStatement();
    ast::StmtPtr compoundStatement();
    ast::StmtList block(const std::string& what, int headerLine);
    void expectColon();
    ast::StmtPtr assignmentOrExpression();
    ast::StmtPtr importStatement();
    ast::StmtPtr fromImportStatement();
    ast::StmtPtr functionDef(ast::ExprList decorators);
    ast::StmtPtr classDef(ast::ExprList decorators);
    ast::StmtPtr ifStatement(bool isElif);
    ast::StmtPtr forStatement();
    ast::StmtPtr whileStatement();
    ast::StmtPtr tryStatement();
    ast::StmtPtr withStatement();
    bool parenthesizedWithItems(std::vector<ast::WithItem>& items);
    void parameters(ast::Arguments& args, Tok close, bool annotations);
    std::string dottedName();

    // --- expressions (parser_expr.cpp) ------------------------------------------------------
    ast::ExprPtr starExpressions();  // a, *b, c  (tuple without parentheses)
    ast::ExprPtr starExpression();   // *a | expression
    ast::ExprPtr namedExpression();  // NAME := expression | expression
    ast::ExprPtr expression();       // lambda, a if b else c, or below
    ast::ExprPtr disjunction();
    ast::ExprPtr conjunction();
    ast::ExprPtr inversion();
    ast::ExprPtr comparison();
    ast::ExprPtr binary(int level);  // | ^ & << >> + - * / // % @
    ast::ExprPtr factor();
    ast::ExprPtr power();
    ast::ExprPtr primary();
    ast::ExprPtr atom();
    ast::ExprPtr lambda();
    ast::ExprPtr parenthesized();
    ast::ExprPtr listDisplay();
    ast::ExprPtr braceDisplay();
    ast::ExprPtr subscriptSlices();
    ast::ExprPtr slice();
    void callArguments(ast::ExprList& args, std::vector<ast::Keyword>& keywords, const Token& open);
    std::vector<ast::Comprehension> comprehensionClauses();
    ast::ExprPtr targetList(Tok stop);  // `for` targets, up to `in`
    bool startsExpression(const Token& t) const;
    void rejectBareStarred(const ast::Expr& e) const;
    void checkMissingComma(const ast::Expr& element) const;  // `f(a b)` inside brackets

    // Assignment targets: sets ctx (Store/Del) throughout, errors with CPython's messages.
    enum class TargetUse { Assign, For, With, Del, Comprehension };
    void setTarget(ast::Expr& e, TargetUse use, bool hint) const;
    void setTargetInner(ast::Expr& e, TargetUse use, bool hint) const;
    static const char* describe(const ast::Expr& e);

    // --- literals (parser_string.cpp) -------------------------------------------------------
    ast::ExprPtr number();
    ast::ExprPtr strings();  // one or more adjacent STRING tokens
    struct FCursor {         // a position inside an f-string token
        std::size_t p;
        int line;
        std::size_t lineStart;
        int col() const { return static_cast<int>(p - lineStart); }
    };
    // Literal text and replacement fields up to `end`, or (inSpec) up to a single '}'.
    void fstringParts(const Token& t, FCursor& c, std::size_t end, bool raw, int nesting,
                      bool inSpec, ast::ExprList& values, std::string& literal,
                      const ast::Span& whole);
    // One `{expr!c:spec}` starting at the '{'; appends `expr=` text to literal for `{x=}`.
    ast::ExprPtr fstringField(const Token& t, FCursor& c, std::size_t end, int nesting,
                              const ast::Span& whole, std::string& literal);
    std::string decodeEscapes(const Token& t, std::string_view body, bool raw) const;

    ast::Module& m_;
    std::vector<Token> toks_;
    std::size_t i_ = 0;
    int nesting_ = 0;
    int functionDepth_ = 0;  // for 'return' outside function
    int loopDepth_ = 0;      // for 'break'/'continue' outside loop
    int defDepth_ = 0;       // enclosing def/class bodies, for nonlocal at module level
    bool fstring_ = false;   // parsing an f-string replacement field: errors say "f-string: "
};

// Counts one level of parser recursion; throws past kMaxParserNesting.
struct NestingGuard {
    explicit NestingGuard(Parser& p);
    ~NestingGuard() { --p_.nesting_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

private:
    Parser& p_;
};

}  // namespace irscope::frontend
