#include "ir/ir_lexer.h"

#include <algorithm>
#include <array>
#include <vector>

#include "util/diagnostic.h"
#include "util/py_text.h"

namespace irscope::ir::text {

bool isBroadNameByte(unsigned char c) {
    if (c <= ' ' || c == 0x7f) {
        return false;
    }
    switch (c) {
        case '(':
        case ')':
        case '[':
        case ']':
        case '{':
        case '}':
        case ',':
        case ':':
        case '"':
            return false;
        default:
            return true;
    }
}

std::string quoteString(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '\\':
                out += "\\\\";
                break;
            case '"':
                out += "\\\"";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    out += "\\x";
                    out += kHex[c >> 4];
                    out += kHex[c & 0xF];
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
    return out;
}

bool isPlainName(std::string_view s) {
    if (s.empty()) {
        return false;
    }
    for (char ch : s) {
        if (!isNameByte(static_cast<unsigned char>(ch))) {
            return false;
        }
    }
    return true;
}

std::string nameText(std::string_view s) {
    return isPlainName(s) ? std::string(s) : quoteString(s);
}

bool isPlainOpName(std::string_view s) {
    return !s.empty() && isIdentStart(static_cast<unsigned char>(s[0])) && isPlainName(s);
}

bool isPlainDelimitedText(std::string_view s, char open, char close) {
    if (s.empty() || s.front() == '"' || isSpace(s.front()) || isSpace(s.back())) {
        return false;
    }
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == open || ch == close || c < 0x20 || c == 0x7f) {
            return false;
        }
    }
    return true;
}

int codePoints(std::string_view s) {
    int n = 0;
    for (char ch : s) {
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) {
            ++n;
        }
    }
    return n;
}

int LineCursor::column(std::size_t bytePos) const {
    if (bytePos > line_.size()) {
        bytePos = line_.size();
    }
    return codePoints(line_.substr(0, bytePos)) + 1;
}

void LineCursor::failAt(std::size_t bytePos, const std::string& msg) const {
    Diagnostic d;
    d.file = file_ != nullptr ? *file_ : std::string();
    d.line = lineNo_;
    d.column = column(bytePos);
    d.message = msg;
    d.lineText = std::string(line_);
    throw ParseError(std::move(d));
}

std::string LineCursor::readQuoted() {
    const std::size_t start = pos;
    std::string out;
    ++pos;  // the opening quote
    while (pos < end) {
        const char ch = line_[pos++];
        if (ch == '"') {
            return out;
        }
        if (ch != '\\' || pos >= end) {
            out += ch;
            continue;
        }
        const char e = line_[pos++];
        // Only the escapes the dump writer emits: \b or \f in a Windows path stays as written.
        if (e == '\\' || e == '"' || e == 'n' || e == 'r' || e == 't') {
            out += *util::simpleEscape(e);
            continue;
        }
        switch (e) {
            case 'x': {
                const int hi = pos < end ? util::hexDigit(line_[pos]) : -1;
                const int lo = pos + 1 < end ? util::hexDigit(line_[pos + 1]) : -1;
                if (hi < 0 || lo < 0) {
                    out += "\\x";  // not an escape: keep the text as written
                    break;
                }
                out += static_cast<char>(hi * 16 + lo);
                pos += 2;
                break;
            }
            default:  // unknown escape (a Windows path in a real dump): keep it verbatim
                out += '\\';
                out += e;
        }
    }
    failAt(start, "unterminated string");
}

std::string LineCursor::readName() {
    if (peek() == '"') {
        return readQuoted();
    }
    const std::size_t b = pos;
    while (pos < end && isBroadNameByte(static_cast<unsigned char>(line_[pos]))) {
        ++pos;
    }
    return std::string(line_.substr(b, pos - b));
}

std::string_view LineCursor::readOpName() {
    const std::size_t b = pos;
    while (pos < end) {
        const char ch = line_[pos];
        if (isSpace(ch) || ch == '(' || ch == '[' || ch == '{' || ch == ',' || ch == ')') {
            break;
        }
        ++pos;
    }
    return line_.substr(b, pos - b);
}

std::optional<std::uint64_t> LineCursor::readUnsigned() {
    const std::size_t b = pos;
    std::uint64_t v = 0;
    while (pos < end && isDigit(line_[pos])) {
        const auto d = static_cast<std::uint64_t>(line_[pos] - '0');
        if (v > (UINT64_MAX - d) / 10) {
            pos = b;
            return std::nullopt;
        }
        v = v * 10 + d;
        ++pos;
    }
    if (pos == b) {
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> LineCursor::readInt() {
    const std::size_t b = pos;
    const bool neg = eat('-');
    auto u = readUnsigned();
    if (!u || *u > static_cast<std::uint64_t>(INT64_MAX) + (neg ? 1u : 0u)) {
        pos = b;
        return std::nullopt;
    }
    if (neg) {
        return *u == static_cast<std::uint64_t>(INT64_MAX) + 1u ? INT64_MIN
                                                                : -static_cast<std::int64_t>(*u);
    }
    return static_cast<std::int64_t>(*u);
}

bool LineCursor::readDims(char close, std::vector<std::int64_t>& dims) {
    skipSpaces();
    if (eat(close)) {
        return true;
    }
    for (;;) {
        skipSpaces();
        auto d = readInt();
        if (!d) {
            return false;
        }
        dims.push_back(*d);
        skipSpaces();
        if (eat(close)) {
            return true;
        }
        if (!eat(',')) {
            return false;
        }
    }
}

namespace {

// The brackets a scan nests: ()[]{} always, <> when asked.
std::string_view bracketsOf(bool angles) {
    return angles ? "([{<" : "([{";
}

char closerOf(char opener) {
    switch (opener) {
        case '(':
            return ')';
        case '[':
            return ']';
        case '{':
            return '}';
        case '<':
            return '>';
        default:
            return '\0';
    }
}

}  // namespace

std::size_t LineCursor::scanBalanced(std::string_view stops, bool angles) const {
    return scan(stops, bracketsOf(angles), false);
}

std::size_t LineCursor::scanGroup(bool angles) const {
    return scan({}, bracketsOf(angles), true);
}

std::size_t LineCursor::scanParens(std::string_view stops) const {
    return scan(stops, "(", false);
}

std::size_t LineCursor::scan(std::string_view stops, std::string_view openers,
                             bool oneGroup) const {
    struct Open {
        char closer;
        std::size_t at;
    };
    std::vector<Open> stack;
    // The bytes the loop below acts on; runs of any other byte are skipped at once (a
    // large dump scans hundreds of thousands of spans).
    std::array<bool, 256> special{};
    const auto mark = [&special](char ch) { special[static_cast<unsigned char>(ch)] = true; };
    for (const char o : openers) {
        mark(o);
        mark(closerOf(o));
    }
    for (const char ch : stops) {
        mark(ch);
    }
    mark('"');
    std::size_t i = pos;
    while (i < end) {
        const char ch = line_[i];
        if (!special[static_cast<unsigned char>(ch)]) {
            ++i;
            continue;
        }
        if (stack.empty() && stops.find(ch) != std::string_view::npos) {
            return i;
        }
        if (ch == '"') {
            LineCursor q = sub(i, end);
            q.readQuoted();
            i = q.pos;
            continue;
        }
        const char closer = openers.find(ch) != std::string_view::npos ? closerOf(ch) : '\0';
        if (closer != '\0') {
            if (static_cast<int>(stack.size()) >= kMaxNesting) {
                failAt(i, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
            }
            stack.push_back({closer, i});
        } else if (ch != '>' ? std::any_of(openers.begin(), openers.end(),
                                           [ch](char o) { return closerOf(o) == ch; })
                             : !stack.empty() && stack.back().closer == '>') {
            if (stack.empty()) {
                return i;  // an unmatched closer ends the span; the caller decides
            }
            if (stack.back().closer != ch) {
                failAt(i, std::string("expected '") + stack.back().closer + "' to close '" +
                              line_[stack.back().at] + "' at column " +
                              std::to_string(column(stack.back().at)) + ", found '" + ch + "'");
            }
            stack.pop_back();
            if (oneGroup && stack.empty()) {
                return i + 1;
            }
        }
        ++i;
    }
    if (!stack.empty()) {
        failAt(end, std::string("expected '") + stack.back().closer + "' to close '" +
                        line_[stack.back().at] + "' at column " +
                        std::to_string(column(stack.back().at)));
    }
    return end;
}

}  // namespace irscope::ir::text
