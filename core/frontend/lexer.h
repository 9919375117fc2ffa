// The script lexer: Python 3 tokens (NEWLINE/INDENT/DEDENT included) from a Module's source.
//
// Follows CPython's tokenizer: implicit line joining inside brackets, backslash continuation,
// comments and blank lines skipped, tabs to multiples of 8 with the tab/space consistency
// check, a NEWLINE and the pending DEDENTs before ENDMARKER at end of input. A string literal
// (any prefix, f-strings included) is one STRING token; the parser decodes it. Errors are
// thrown as SyntaxError with CPython's messages and positions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "util/diagnostic.h"

namespace irscope::frontend {

// Thrown for any error in a script's syntax. diagnostic().kind is "SyntaxError",
// "IndentationError" or "TabError" (Python's names), and what() reads
// "script.py:3:5: SyntaxError: invalid syntax" followed by the line and a caret.
class SyntaxError : public ParseError {
public:
    using ParseError::ParseError;
};

// Throws a SyntaxError at 1-based `line` and 0-based byte column `col` of m's source (the
// message shows the 1-based character column).
[[noreturn]] void throwSyntaxError(const ast::Module& m, int line, int col,
                                   const std::string& message, const char* kind = "SyntaxError");

// Nesting limits (CPython's values): brackets open at once, and indentation levels.
inline constexpr int kMaxParenDepth = 200;
inline constexpr int kMaxIndentDepth = 100;

enum class Tok : std::uint8_t {
    EndMarker,
    Newline,
    Indent,
    Dedent,
    Name,
    Number,
    String,
    // brackets and punctuation
    LPar,
    RPar,
    LSqb,
    RSqb,
    LBrace,
    RBrace,
    Colon,
    Comma,
    Semi,
    Dot,
    Ellipsis,
    Arrow,
    At,
    ColonEqual,
    Equal,
    // operators
    Plus,
    Minus,
    Star,
    DoubleStar,
    Slash,
    DoubleSlash,
    Percent,
    VBar,
    Amper,
    CircumFlex,
    Tilde,
    LeftShift,
    RightShift,
    Less,
    Greater,
    EqEqual,
    NotEqual,
    LessEqual,
    GreaterEqual,
    // augmented assignment
    PlusEqual,
    MinEqual,
    StarEqual,
    DoubleStarEqual,
    SlashEqual,
    DoubleSlashEqual,
    PercentEqual,
    AtEqual,
    AmperEqual,
    VBarEqual,
    CircumflexEqual,
    LeftShiftEqual,
    RightShiftEqual,
    // keywords
    False,
    None,
    True,
    And,
    As,
    Assert,
    Async,
    Await,
    Break,
    Class,
    Continue,
    Def,
    Del,
    Elif,
    Else,
    Except,
    Finally,
    For,
    From,
    Global,
    If,
    Import,
    In,
    Is,
    Lambda,
    Nonlocal,
    Not,
    Or,
    Pass,
    Raise,
    Return,
    Try,
    While,
    With,
    Yield
};

// The spelling of a fixed token ("(", "**=", "lambda"), or a name for the others ("NEWLINE").
const char* spelling(Tok t);
bool isKeyword(Tok t);

struct Token {
    Tok kind = Tok::EndMarker;
    std::uint32_t begin = 0;  // byte offsets into the module source
    std::uint32_t end = 0;
    int line = 0;  // 1-based
    int col = 0;   // 0-based byte column
    int endLine = 0;
    int endCol = 0;
};

class Lexer {
public:
    // Tokens of the whole module.
    explicit Lexer(const ast::Module& m);
    // Tokens of source[begin, end) as if inside brackets (no NEWLINE/INDENT), ending with
    // ENDMARKER: the expression part of an f-string. `line`/`col` locate `begin`.
    Lexer(const ast::Module& m, std::size_t begin, std::size_t end, int line, int col);

    // Throws SyntaxError on the first error.
    std::vector<Token> tokenize();

private:
    struct Open {
        char ch;
        int line;
        int col;
    };

    [[noreturn]] void fail(int line, int col, const std::string& msg,
                           const char* kind = "SyntaxError");
    int col() const { return static_cast<int>(pos_ - lineStart_); }
    char peek(std::size_t ahead = 0) const {
        return pos_ + ahead < end_ ? src_[pos_ + ahead] : '\0';
    }
    bool atEnd() const { return pos_ >= end_; }
    void newline();  // consume '\n' at pos_
    void pushToken(Tok k, std::size_t begin, int line, int col);

    bool indentation();  // at the start of a logical line; false when the line is blank
    void scanName();
    void scanNumber();
    void scanString(std::size_t tokenBegin, int line, int col);
    void scanOperator();
    void validateUtf8();

    const ast::Module& m_;
    std::string_view src_;
    std::size_t pos_ = 0;
    std::size_t end_ = 0;
    std::size_t lineStart_ = 0;
    int line_ = 1;
    bool subMode_ = false;
    bool atLineStart_ = true;
    std::vector<Open> parens_;
    std::vector<int> indents_{0};
    std::vector<int> altIndents_{0};
    std::vector<Token> out_;
};

// The code point at s[i] (UTF-8, already validated) and its length in bytes.
char32_t decodeUtf8(std::string_view s, std::size_t i, int* len);
// Whether a non-ASCII code point may appear in an identifier (an approximation of XID).
bool isIdentifierCodePoint(char32_t c);

}  // namespace irscope::frontend
