// Literals: numbers, strings (prefixes, escapes, adjacent concatenation) and f-strings.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "frontend/parser_impl.h"
#include "util/py_text.h"

namespace irscope::frontend {

using namespace ast;

// --- numbers --------------------------------------------------------------------------------

ExprPtr Parser::number() {
    const Token& t = advance();
    std::string clean;
    for (char c : text(t)) {
        if (c != '_') {
            clean += c;
        }
    }
    auto c = std::make_unique<Constant>(spanOf(t));
    char last = static_cast<char>(clean.back() | 0x20);
    bool prefixed =
        clean.size() > 1 && clean[0] == '0' &&
        ((clean[1] | 0x20) == 'x' || (clean[1] | 0x20) == 'o' || (clean[1] | 0x20) == 'b');
    const bool imaginary = last == 'j';
    if (imaginary) {
        clean.pop_back();
    }
    bool isFloat = !prefixed && clean.find_first_of(".eE") != std::string::npos;
    if (isFloat || imaginary) {
        c->type = imaginary ? Constant::Type::Complex : Constant::Type::Float;
        double v = 0.0;
        auto res = std::from_chars(clean.data(), clean.data() + clean.size(), v);
        if (res.ec == std::errc::result_out_of_range) {
            std::size_t e = clean.find_first_of("eE");
            bool tiny = e != std::string::npos && e + 1 < clean.size() && clean[e + 1] == '-';
            v = tiny ? 0.0 : std::numeric_limits<double>::infinity();
        }
        c->floatValue = v;
        return c;
    }
    c->type = Constant::Type::Int;
    c->intText = clean;
    int base = 10;
    std::size_t i = 0;
    if (prefixed) {
        char p = static_cast<char>(clean[1] | 0x20);
        base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        i = 2;
    }
    std::uint64_t v = 0;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    for (; i < clean.size(); ++i) {
        auto d = static_cast<std::uint64_t>(util::hexDigit(clean[i]));
        if (v > (kMax - d) / static_cast<std::uint64_t>(base)) {
            c->intOverflow = true;
            return c;
        }
        v = v * static_cast<std::uint64_t>(base) + d;
    }
    c->intValue = static_cast<std::int64_t>(v);
    return c;
}

// --- strings --------------------------------------------------------------------------------

std::string Parser::decodeEscapes(const Token& t, std::string_view body, bool raw) const {
    if (raw) {
        return std::string(body);
    }
    std::string out;
    out.reserve(body.size());
    for (std::size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= body.size()) {
            out += '\\';
            break;
        }
        char e = body[i];
        if (const auto simple = util::simpleEscape(e)) {
            out += *simple;
            continue;
        }
        switch (e) {
            case '\n':  // a backslash at the end of a line joins it to the next
                break;
            case 'x':
            case 'u':
            case 'U': {
                int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                char32_t v = 0;
                for (int k = 0; k < digits; ++k) {
                    int h = i + 1 < body.size() ? util::hexDigit(body[i + 1]) : -1;
                    if (h < 0) {
                        const char* what = e == 'x'   ? "\\xXX"
                                           : e == 'u' ? "\\uXXXX"
                                                      : "\\UXXXXXXXX";
                        error(t, std::string("(unicode error) truncated ") + what + " escape");
                    }
                    v = v * 16 + static_cast<char32_t>(h);
                    ++i;
                }
                if (v > 0x10FFFF) {
                    error(t, "(unicode error) illegal Unicode character");
                }
                util::appendUtf8(out, v);
                break;
            }
            case 'N':
                error(t, "(unicode error) \\N{...} escapes are not supported");
            default:
                if (e >= '0' && e <= '7') {
                    char32_t v = static_cast<char32_t>(e - '0');
                    for (int k = 0;
                         k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7';
                         ++k) {
                        v = v * 8 + static_cast<char32_t>(body[++i] - '0');
                    }
                    util::appendUtf8(out, v);
                } else {
                    out += '\\';  // unknown escapes stay as written, as in Python
                    out += e;
                }
        }
    }
    return out;
}

ExprPtr Parser::strings() {
    std::size_t first = i_;
    std::size_t last = i_;
    while (last + 1 < toks_.size() && toks_[last + 1].kind == Tok::String) {
        ++last;
    }
    const Token& a = toks_[first];
    const Token& b = toks_[last];
    Span whole{a.line, a.col, b.endLine, b.endCol};
    ExprList values;
    std::string literal;
    bool anyF = false;
    for (std::size_t k = first; k <= last; ++k) {
        const Token& t = toks_[k];
        std::string_view s = text(t);
        std::size_t prefixLen = s.find_first_of("'\"");
        bool raw = false;
        bool isF = false;
        for (std::size_t p = 0; p < prefixLen; ++p) {
            char ch = static_cast<char>(s[p] | 0x20);
            raw = raw || ch == 'r';
            isF = isF || ch == 'f';
            if (ch == 'b') {
                error(t, "bytes literals are not supported");
            }
        }
        char q = s[prefixLen];
        std::size_t quoteLen =
            s.size() >= prefixLen + 6 && s[prefixLen + 1] == q && s[prefixLen + 2] == q ? 3 : 1;
        std::size_t bodyBegin = t.begin + prefixLen + quoteLen;
        std::size_t bodyEnd = t.end - quoteLen;
        if (!isF) {
            literal += decodeEscapes(
                t, std::string_view(m_.source()).substr(bodyBegin, bodyEnd - bodyBegin), raw);
            continue;
        }
        anyF = true;
        FCursor c{bodyBegin, t.line, t.begin - static_cast<std::size_t>(t.col)};
        fstringParts(t, c, bodyEnd, raw, 0, false, values, literal, whole);
    }
    i_ = last;
    advance();
    if (!anyF) {
        auto c = std::make_unique<Constant>(whole);
        c->type = Constant::Type::Str;
        c->strValue = std::move(literal);
        return c;
    }
    if (!literal.empty()) {
        auto c = std::make_unique<Constant>(whole);
        c->type = Constant::Type::Str;
        c->strValue = std::move(literal);
        values.push_back(std::move(c));
    }
    auto j = std::make_unique<JoinedStr>(whole);
    j->values = std::move(values);
    return seal(std::move(j));
}

// --- f-strings ------------------------------------------------------------------------------

void Parser::fstringParts(const Token& t, FCursor& c, std::size_t end, bool raw, int nesting,
                          bool inSpec, ExprList& values, std::string& literal, const Span& whole) {
    std::string_view src = m_.source();
    std::size_t chunk = c.p;
    auto flushChunk = [&]() { literal += decodeEscapes(t, src.substr(chunk, c.p - chunk), raw); };
    auto flushLiteral = [&]() {
        if (!literal.empty()) {
            auto k = std::make_unique<Constant>(whole);
            k->type = Constant::Type::Str;
            k->strValue = std::move(literal);
            literal.clear();
            values.push_back(std::move(k));
        }
    };
    while (c.p < end) {
        char ch = src[c.p];
        if (ch == '\n') {
            ++c.p;
            ++c.line;
            c.lineStart = c.p;
            continue;
        }
        if (ch == '\\' && !raw && c.p + 1 < end && src[c.p + 1] != '{' && src[c.p + 1] != '}') {
            if (src[c.p + 1] == '\n') {
                ++c.p;
                continue;  // the newline is counted above
            }
            c.p += 2;
            continue;
        }
        if (ch == '{' || ch == '}') {
            bool doubled = c.p + 1 < end && src[c.p + 1] == ch;
            if (doubled && !inSpec) {
                flushChunk();
                literal += ch;
                c.p += 2;
                chunk = c.p;
                continue;
            }
            if (ch == '}') {
                if (inSpec) {
                    break;
                }
                error(c.line, c.col(), "f-string: single '}' is not allowed");
            }
            flushChunk();
            std::string debugText;
            ExprPtr field = fstringField(t, c, end, nesting, whole, debugText);
            literal += debugText;
            flushLiteral();
            values.push_back(std::move(field));
            chunk = c.p;
            continue;
        }
        ++c.p;
    }
    flushChunk();
    if (inSpec) {
        flushLiteral();
    }
}

ExprPtr Parser::fstringField(const Token& t, FCursor& c, std::size_t end, int nesting,
                             const Span& whole, std::string& literal) {
    std::string_view src = m_.source();
    if (nesting >= 2) {
        error(c.line, c.col(), "f-string: expressions nested too deeply");
    }
    ++c.p;  // {
    std::size_t exprBegin = c.p;
    int exprLine = c.line;
    int exprCol = c.col();
    int depth = 0;
    char quote = 0;
    bool tripleQuote = false;
    auto fail = [&](const std::string& msg) { error(c.line, c.col(), msg); };
    for (; c.p < end; ++c.p) {
        char ch = src[c.p];
        char next = c.p + 1 < end ? src[c.p + 1] : '\0';
        if (ch == '\n') {
            c.lineStart = c.p + 1;
            ++c.line;
            continue;
        }
        if (ch == '\\') {
            fail("f-string expression part cannot include a backslash");
        }
        if (quote) {
            if (ch == quote) {
                if (!tripleQuote) {
                    quote = 0;
                } else if (next == quote && c.p + 2 < end && src[c.p + 2] == quote) {
                    quote = 0;
                    c.p += 2;
                }
            }
            continue;
        }
        if (ch == '\'' || ch == '"') {
            quote = ch;
            tripleQuote = next == ch && c.p + 2 < end && src[c.p + 2] == ch;
            if (tripleQuote) {
                c.p += 2;
            }
            continue;
        }
        if (ch == '(' || ch == '[' || ch == '{') {
            ++depth;
            continue;
        }
        if (ch == ')' || ch == ']' || ch == '}') {
            if (depth == 0) {
                if (ch == '}') {
                    break;
                }
                fail(std::string("f-string: unmatched '") + ch + "'");
            }
            --depth;
            continue;
        }
        if (ch == '#') {
            fail("f-string expression part cannot include '#'");
        }
        if (depth == 0 && ((ch == '!' && next != '=') || ch == ':')) {
            break;
        }
        if (depth == 0 && ch == '=' && next != '=') {
            char before = c.p > exprBegin ? src[c.p - 1] : '\0';
            if (before != '=' && before != '!' && before != '<' && before != '>') {
                break;  // `{x=}` debugging specifier
            }
        }
    }
    if (quote) {
        fail("f-string: unterminated string");
    }
    if (c.p >= end) {
        fail("f-string: expecting '}'");
    }
    std::size_t exprEnd = c.p;
    bool blank = true;
    for (std::size_t k = exprBegin; k < exprEnd; ++k) {
        blank = blank && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n' || src[k] == '\f');
    }
    if (blank) {
        fail("f-string: empty expression not allowed");
    }
    // The expression, tokenized in place so its nodes carry their true source positions.
    std::vector<Token> tokens = Lexer(m_, exprBegin, exprEnd, exprLine, exprCol).tokenize();
    Parser sub(m_, std::move(tokens));
    sub.nesting_ = nesting_;
    sub.fstring_ = true;
    auto f = std::make_unique<FormattedValue>(whole);
    f->value = sub.parseFStringExpression();
    bool debug = src[c.p] == '=';
    if (debug) {
        ++c.p;
        while (c.p < end && (src[c.p] == ' ' || src[c.p] == '\t')) {
            ++c.p;
        }
        literal = std::string(src.substr(exprBegin, c.p - exprBegin));
    }
    if (c.p < end && src[c.p] == '!') {
        ++c.p;
        char conv = c.p < end ? src[c.p] : '\0';
        if (conv != 's' && conv != 'r' && conv != 'a') {
            fail("f-string: invalid conversion character: expected 's', 'r', or 'a'");
        }
        f->conversion = conv;
        ++c.p;
    }
    if (c.p < end && src[c.p] == ':') {
        ++c.p;
        ExprList specValues;
        std::string specLiteral;
        fstringParts(t, c, end, false, nesting + 1, true, specValues, specLiteral, whole);
        auto spec = std::make_unique<JoinedStr>(whole);
        spec->values = std::move(specValues);
        f->formatSpec = seal(std::move(spec));
    } else if (debug && f->conversion == -1) {
        f->conversion = 'r';  // `{x=}` shows repr(x) unless a conversion or spec is given
    }
    if (c.p >= end || src[c.p] != '}') {
        fail("f-string: expecting '}'");
    }
    ++c.p;
    return seal(std::move(f));
}

ExprPtr Parser::parseFStringExpression() {
    const Token& start = tok();
    ExprPtr first = at(Tok::Star) ? starExpression() : namedExpression();
    if (at(Tok::Comma)) {
        auto t = std::make_unique<Tuple>(Span{});
        t->elts.push_back(std::move(first));
        while (accept(Tok::Comma) && !at(Tok::EndMarker)) {
            t->elts.push_back(at(Tok::Star) ? starExpression() : namedExpression());
        }
        t->span = spanFrom(start);
        first = seal(std::move(t));
    } else {
        rejectBareStarred(*first);
    }
    if (!at(Tok::EndMarker)) {
        checkMissingComma(*first);
        invalidSyntax();
    }
    return first;
}

}  // namespace irscope::frontend
