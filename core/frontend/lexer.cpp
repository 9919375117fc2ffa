#include "frontend/lexer.h"

#include <cstdio>
#include <cstring>

namespace irscope::frontend {

void throwSyntaxError(const ast::Module& m, int line, int col, const std::string& message,
                      const char* kind) {
    Diagnostic d;
    d.file = m.fileName();
    d.line = line;
    d.column = m.charColumn(line, col);
    d.message = message;
    d.lineText = std::string(m.line(line));
    d.kind = kind;
    throw SyntaxError(std::move(d));
}

namespace {

struct Spelled {
    Tok tok;
    const char* text;
};

// Fixed tokens, longest first within each first character so a linear scan finds the
// longest match.
constexpr Spelled kOperators[] = {
    {Tok::Ellipsis, "..."},
    {Tok::DoubleStarEqual, "**="},
    {Tok::DoubleSlashEqual, "//="},
    {Tok::LeftShiftEqual, "<<="},
    {Tok::RightShiftEqual, ">>="},
    {Tok::Arrow, "->"},
    {Tok::ColonEqual, ":="},
    {Tok::DoubleStar, "**"},
    {Tok::DoubleSlash, "//"},
    {Tok::LeftShift, "<<"},
    {Tok::RightShift, ">>"},
    {Tok::EqEqual, "=="},
    {Tok::NotEqual, "!="},
    {Tok::LessEqual, "<="},
    {Tok::GreaterEqual, ">="},
    {Tok::PlusEqual, "+="},
    {Tok::MinEqual, "-="},
    {Tok::StarEqual, "*="},
    {Tok::SlashEqual, "/="},
    {Tok::PercentEqual, "%="},
    {Tok::AtEqual, "@="},
    {Tok::AmperEqual, "&="},
    {Tok::VBarEqual, "|="},
    {Tok::CircumflexEqual, "^="},
    {Tok::LPar, "("},
    {Tok::RPar, ")"},
    {Tok::LSqb, "["},
    {Tok::RSqb, "]"},
    {Tok::LBrace, "{"},
    {Tok::RBrace, "}"},
    {Tok::Colon, ":"},
    {Tok::Comma, ","},
    {Tok::Semi, ";"},
    {Tok::Dot, "."},
    {Tok::At, "@"},
    {Tok::Equal, "="},
    {Tok::Plus, "+"},
    {Tok::Minus, "-"},
    {Tok::Star, "*"},
    {Tok::Slash, "/"},
    {Tok::Percent, "%"},
    {Tok::VBar, "|"},
    {Tok::Amper, "&"},
    {Tok::CircumFlex, "^"},
    {Tok::Tilde, "~"},
    {Tok::Less, "<"},
    {Tok::Greater, ">"},
};

constexpr Spelled kKeywords[] = {
    {Tok::False, "False"},
    {Tok::None, "None"},
    {Tok::True, "True"},
    {Tok::And, "and"},
    {Tok::As, "as"},
    {Tok::Assert, "assert"},
    {Tok::Async, "async"},
    {Tok::Await, "await"},
    {Tok::Break, "break"},
    {Tok::Class, "class"},
    {Tok::Continue, "continue"},
    {Tok::Def, "def"},
    {Tok::Del, "del"},
    {Tok::Elif, "elif"},
    {Tok::Else, "else"},
    {Tok::Except, "except"},
    {Tok::Finally, "finally"},
    {Tok::For, "for"},
    {Tok::From, "from"},
    {Tok::Global, "global"},
    {Tok::If, "if"},
    {Tok::Import, "import"},
    {Tok::In, "in"},
    {Tok::Is, "is"},
    {Tok::Lambda, "lambda"},
    {Tok::Nonlocal, "nonlocal"},
    {Tok::Not, "not"},
    {Tok::Or, "or"},
    {Tok::Pass, "pass"},
    {Tok::Raise, "raise"},
    {Tok::Return, "return"},
    {Tok::Try, "try"},
    {Tok::While, "while"},
    {Tok::With, "with"},
    {Tok::Yield, "yield"},
};

bool isAsciiIdStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isHexDigit(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string hexCodePoint(char32_t c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
    return buf;
}

}  // namespace

const char* spelling(Tok t) {
    switch (t) {
        case Tok::EndMarker:
            return "ENDMARKER";
        case Tok::Newline:
            return "NEWLINE";
        case Tok::Indent:
            return "INDENT";
        case Tok::Dedent:
            return "DEDENT";
        case Tok::Name:
            return "NAME";
        case Tok::Number:
            return "NUMBER";
        case Tok::String:
            return "STRING";
        default:
            break;
    }
    for (const Spelled& s : kOperators) {
        if (s.tok == t) {
            return s.text;
        }
    }
    for (const Spelled& s : kKeywords) {
        if (s.tok == t) {
            return s.text;
        }
    }
    return "?";
}

bool isKeyword(Tok t) {
    return t >= Tok::False;
}

// --- Lexer ----------------------------------------------------------------------------------

Lexer::Lexer(const ast::Module& m) : m_(m), src_(m.source()), end_(m.source().size()) {}

Lexer::Lexer(const ast::Module& m, std::size_t begin, std::size_t end, int line, int col)
    : m_(m),
      src_(m.source()),
      pos_(begin),
      end_(end),
      lineStart_(begin - static_cast<std::size_t>(col)),
      line_(line),
      subMode_(true),
      atLineStart_(false) {}

void Lexer::fail(int line, int col, const std::string& msg, const char* kind) {
    throwSyntaxError(m_, line, col, subMode_ ? "f-string: " + msg : msg, kind);
}

void Lexer::newline() {
    ++pos_;
    ++line_;
    lineStart_ = pos_;
}

void Lexer::pushToken(Tok k, std::size_t begin, int line, int col) {
    Token t;
    t.kind = k;
    t.begin = static_cast<std::uint32_t>(begin);
    t.end = static_cast<std::uint32_t>(pos_);
    t.line = line;
    t.col = col;
    t.endLine = line_;
    t.endCol = this->col();
    out_.push_back(t);
}

std::vector<Token> Lexer::tokenize() {
    if (!subMode_) {
        validateUtf8();
    }
    while (true) {
        if (atLineStart_ && !subMode_) {
            atLineStart_ = false;
            if (!indentation()) {
                // Blank or comment-only line: skip it entirely.
                while (!atEnd() && peek() != '\n') {
                    ++pos_;
                }
                if (atEnd()) {
                    break;
                }
                newline();
                atLineStart_ = true;
                continue;
            }
        }
        // Whitespace between tokens.
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f')) {
            ++pos_;
        }
        if (atEnd()) {
            break;
        }
        char c = peek();
        if (c == '#') {
            while (!atEnd() && peek() != '\n') {
                ++pos_;
            }
            continue;
        }
        if (c == '\n') {
            if (parens_.empty() && !subMode_) {
                auto b = static_cast<std::uint32_t>(pos_);
                int l = line_, cl = col();
                newline();
                out_.push_back(Token{Tok::Newline, b, b + 1, l, cl, l, cl + 1});
                atLineStart_ = true;
            } else {
                newline();
            }
            continue;
        }
        if (c == '\\') {
            if (peek(1) == '\n') {
                ++pos_;
                newline();
                if (atEnd()) {
                    fail(line_, 0, "unexpected EOF while parsing");
                }
                continue;
            }
            if (pos_ + 1 >= end_) {
                fail(line_, col(), "unexpected EOF while parsing");
            }
            fail(line_, col() + 1, "unexpected character after line continuation character");
        }
        auto uc = static_cast<unsigned char>(c);
        if (isAsciiIdStart(c) || uc >= 0x80) {
            scanName();
            continue;
        }
        if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
            scanNumber();
            continue;
        }
        if (c == '\'' || c == '"') {
            scanString(pos_, line_, col());
            continue;
        }
        scanOperator();
    }

    if (subMode_) {
        if (!parens_.empty()) {
            const Open& o = parens_.back();
            fail(o.line, o.col, std::string("'") + o.ch + "' was never closed");
        }
        pushToken(Tok::EndMarker, pos_, line_, col());
        return std::move(out_);
    }
    if (!parens_.empty()) {
        const Open& o = parens_.back();
        fail(o.line, o.col, std::string("'") + o.ch + "' was never closed");
    }
    // A NEWLINE ends the last logical line if the text did not.
    if (!out_.empty() && out_.back().kind != Tok::Newline && out_.back().kind != Tok::Dedent &&
        out_.back().kind != Tok::Indent) {
        pushToken(Tok::Newline, pos_, line_, col());
    }
    for (std::size_t i = 1; i < indents_.size(); ++i) {
        pushToken(Tok::Dedent, pos_, line_, col());
    }
    pushToken(Tok::EndMarker, pos_, line_, col());
    return std::move(out_);
}

bool Lexer::indentation() {
    int column = 0;
    int alt = 0;
    std::size_t p = pos_;
    while (p < end_) {
        char c = src_[p];
        if (c == ' ') {
            ++column;
            ++alt;
        } else if (c == '\t') {
            column = (column / 8 + 1) * 8;
            ++alt;
        } else if (c == '\f') {
            column = alt = 0;
        } else {
            break;
        }
        ++p;
    }
    pos_ = p;
    if (p >= end_ || src_[p] == '#' || src_[p] == '\n') {
        return false;
    }
    int here = col();
    if (column == indents_.back()) {
        if (alt != altIndents_.back()) {
            fail(line_, here, "inconsistent use of tabs and spaces in indentation", "TabError");
        }
    } else if (column > indents_.back()) {
        if (alt <= altIndents_.back()) {
            fail(line_, here, "inconsistent use of tabs and spaces in indentation", "TabError");
        }
        if (static_cast<int>(indents_.size()) > kMaxIndentDepth) {
            fail(line_, here, "too many levels of indentation", "IndentationError");
        }
        indents_.push_back(column);
        altIndents_.push_back(alt);
        pushToken(Tok::Indent, lineStart_, line_, 0);
    } else {
        while (indents_.size() > 1 && column < indents_.back()) {
            indents_.pop_back();
            altIndents_.pop_back();
            pushToken(Tok::Dedent, pos_, line_, here);
        }
        if (column != indents_.back()) {
            fail(line_, here, "unindent does not match any outer indentation level",
                 "IndentationError");
        }
        if (alt != altIndents_.back()) {
            fail(line_, here, "inconsistent use of tabs and spaces in indentation", "TabError");
        }
    }
    return true;
}

void Lexer::scanName() {
    std::size_t b = pos_;
    int l = line_, c0 = col();
    while (!atEnd()) {
        char c = peek();
        if (isAsciiIdStart(c) || isDigit(c)) {
            ++pos_;
            continue;
        }
        if (static_cast<unsigned char>(c) < 0x80) {
            break;
        }
        int len = 1;
        char32_t cp = decodeUtf8(src_, pos_, &len);
        if (!isIdentifierCodePoint(cp)) {
            if (pos_ == b) {
                fail(l, col(),
                     "invalid character '" +
                         std::string(src_.substr(pos_, static_cast<std::size_t>(len))) + "' (" +
                         hexCodePoint(cp) + ")");
            }
            break;
        }
        pos_ += static_cast<std::size_t>(len);
    }
    std::string_view word = src_.substr(b, pos_ - b);
    // A string prefix directly followed by a quote.
    if (!atEnd() && (peek() == '\'' || peek() == '"') && word.size() <= 2) {
        std::string lower;
        for (char ch : word) {
            lower += static_cast<char>(ch | 0x20);
        }
        if (lower == "r" || lower == "u" || lower == "f" || lower == "b" || lower == "br" ||
            lower == "rb" || lower == "fr" || lower == "rf") {
            scanString(b, l, c0);
            return;
        }
    }
    for (const Spelled& k : kKeywords) {
        if (k.text[0] == word[0] && word == k.text) {
            pushToken(k.tok, b, l, c0);
            return;
        }
    }
    pushToken(Tok::Name, b, l, c0);
}

void Lexer::scanNumber() {
    std::size_t b = pos_;
    int l = line_, c0 = col();
    auto digits = [&](auto isOk, const char* what) {
        // Digits with single underscores between them; at least one digit.
        bool any = false;
        while (!atEnd()) {
            if (isOk(peek())) {
                ++pos_;
                any = true;
            } else if (peek() == '_' && any && isOk(peek(1))) {
                ++pos_;
            } else if (peek() == '_') {
                fail(l, col(), std::string("invalid ") + what + " literal");
            } else {
                break;
            }
        }
        return any;
    };
    auto isDec = [](char c) { return isDigit(c); };
    const char* kind = "decimal";
    bool isFloat = false;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X' || peek(1) == 'o' || peek(1) == 'O' ||
                          peek(1) == 'b' || peek(1) == 'B')) {
        char p = static_cast<char>(peek(1) | 0x20);
        pos_ += 2;
        if (peek() == '_') {
            ++pos_;
        }
        int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
        auto isOk = [base](char c) {
            return base == 16  ? isHexDigit(c)
                   : base == 8 ? (c >= '0' && c <= '7')
                               : (c == '0' || c == '1');
        };
        bool any = digits(isOk, kind);
        if (base != 16 && isDigit(peek())) {
            fail(l, col(), std::string("invalid digit '") + peek() + "' in " + kind + " literal");
        }
        if (!any) {
            fail(l, c0 + 1, std::string("invalid ") + kind + " literal");
        }
    } else {
        bool leadingZero = peek() == '0';
        if (peek() != '.') {
            digits(isDec, "decimal");
        }
        bool nonZero = false;
        for (std::size_t i = b; i < pos_; ++i) {
            nonZero = nonZero || (src_[i] >= '1' && src_[i] <= '9');
        }
        if (peek() == '.') {
            isFloat = true;
            ++pos_;
            if (isDigit(peek())) {
                digits(isDec, "decimal");
            } else if (peek() == '_') {
                fail(l, col(), "invalid decimal literal");
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            std::size_t save = pos_;
            ++pos_;
            if (peek() == '+' || peek() == '-') {
                ++pos_;
            }
            if (!isDigit(peek())) {
                pos_ = save;
                fail(l, c0, "invalid decimal literal");
            }
            digits(isDec, "decimal");
            isFloat = true;
        }
        if (peek() == 'j' || peek() == 'J') {
            ++pos_;
            isFloat = true;
        }
        if (leadingZero && nonZero && !isFloat) {
            fail(l, c0,
                 "leading zeros in decimal integer literals are not permitted; use an 0o "
                 "prefix for octal integers");
        }
    }
    // A letter right after a number is an error, except for the keywords CPython tolerates
    // there (`1if x else 2`).
    char c = peek();
    if (isAsciiIdStart(c) || isDigit(c) || static_cast<unsigned char>(c) >= 0x80) {
        static constexpr const char* kAllowed[] = {"and", "else", "for", "if",
                                                   "in",  "is",   "not", "or"};
        bool allowed = false;
        for (const char* kw : kAllowed) {
            std::size_t n = std::strlen(kw);
            if (src_.substr(pos_, n) == kw) {
                char after = pos_ + n < end_ ? src_[pos_ + n] : '\0';
                allowed = !(isAsciiIdStart(after) || isDigit(after) ||
                            static_cast<unsigned char>(after) >= 0x80);
            }
        }
        if (!allowed) {
            fail(l, std::string(kind) == "decimal" ? c0 : c0 + 1,
                 std::string("invalid ") + kind + " literal");
        }
    }
    pushToken(Tok::Number, b, l, c0);
}

void Lexer::scanString(std::size_t tokenBegin, int line, int c0) {
    char quote = peek();
    bool triple = peek(1) == quote && peek(2) == quote;
    pos_ += triple ? 3 : 1;
    while (true) {
        if (atEnd()) {
            // Reported at the start of the literal, naming the last line of the input.
            int lastLine = line_;
            if (pos_ > 0 && src_[pos_ - 1] == '\n' && lastLine > 1) {
                --lastLine;
            }
            if (triple) {
                fail(line, c0,
                     "unterminated triple-quoted string literal (detected at line " +
                         std::to_string(lastLine) + ")");
            }
            fail(line, c0,
                 "unterminated string literal (detected at line " + std::to_string(lastLine) + ")");
        }
        char c = peek();
        if (c == '\\') {
            ++pos_;
            if (!atEnd()) {
                if (peek() == '\n') {
                    newline();
                } else {
                    ++pos_;
                }
            }
            continue;
        }
        if (c == '\n') {
            if (!triple) {
                fail(
                    line, c0,
                    "unterminated string literal (detected at line " + std::to_string(line_) + ")");
            }
            newline();
            continue;
        }
        if (c == quote) {
            if (!triple) {
                ++pos_;
                break;
            }
            if (peek(1) == quote && peek(2) == quote) {
                pos_ += 3;
                break;
            }
        }
        ++pos_;
    }
    pushToken(Tok::String, tokenBegin, line, c0);
}

void Lexer::scanOperator() {
    std::size_t b = pos_;
    int l = line_, c0 = col();
    for (const Spelled& op : kOperators) {
        if (op.text[0] != peek()) {
            continue;
        }
        std::size_t n = std::strlen(op.text);
        if (pos_ + n > end_ || src_.substr(pos_, n) != op.text) {
            continue;
        }
        pos_ += n;
        char ch = op.text[0];
        if (n == 1 && (ch == '(' || ch == '[' || ch == '{')) {
            if (static_cast<int>(parens_.size()) >= kMaxParenDepth) {
                fail(l, c0, "too many nested parentheses");
            }
            parens_.push_back({ch, l, c0});
        } else if (n == 1 && (ch == ')' || ch == ']' || ch == '}')) {
            if (parens_.empty()) {
                fail(l, c0, std::string("unmatched '") + ch + "'");
            }
            Open o = parens_.back();
            char want = o.ch == '(' ? ')' : o.ch == '[' ? ']' : '}';
            if (ch != want) {
                std::string msg = std::string("closing parenthesis '") + ch +
                                  "' does not match opening parenthesis '" + o.ch + "'";
                if (o.line != l) {
                    msg += " on line " + std::to_string(o.line);
                }
                fail(l, c0, msg);
            }
            parens_.pop_back();
        }
        pushToken(op.tok, b, l, c0);
        return;
    }
    char c = peek();
    auto uc = static_cast<unsigned char>(c);
    if (uc < 0x20 || uc == 0x7f) {
        fail(l, c0, "invalid non-printable character " + hexCodePoint(uc));
    }
    fail(l, c0, "invalid syntax");
}

}  // namespace irscope::frontend
