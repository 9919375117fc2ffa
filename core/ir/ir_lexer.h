// Character-level scanning for the .ir reader, one line at a time: positions for diagnostics,
// the name and string-literal rules shared with the printer, and bracket-balanced spans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir::text {

// Values, abstracts and attribute maps nest at most this deep; deeper input is an error.
constexpr int kMaxNesting = 200;

// --- character classes ------------------------------------------------------------------
// Bytes of a name printed bare: ASCII letters, digits, '_', '.', '-' and every byte of a
// multi-byte UTF-8 sequence (so ✓ ✗ ↓ ↵ ↻ ▸ ◂ and other scripts stay unquoted).
inline bool isNameByte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-' || c >= 0x80;
}
inline bool isIdentStart(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
inline bool isSpace(char c) {
    return c == ' ' || c == '\t';
}
// What the reader accepts in an unquoted @graph or %para name (real dumps use more than
// the printer does, e.g. `<lambda>`): anything but blanks, brackets, ',', ':' and '"'.
bool isBroadNameByte(unsigned char c);

// --- printing helpers ---------------------------------------------------------------------
// `"..."` with \\ \" \n \r \t and \xHH for other control bytes; other bytes verbatim.
std::string quoteString(std::string_view s);
// Non-empty and made of isNameByte only.
bool isPlainName(std::string_view s);
// Graph, parameter and attribute-key names: bare when plain, otherwise quoted.
std::string nameText(std::string_view s);
// An operator name that can be printed bare: starts like an identifier, then name bytes.
bool isPlainOpName(std::string_view s);
// Text that may stand between the parentheses of `%3(name)` or after `instance name: `
// without quotes: no brackets of the given kind, no control bytes, no leading quote.
bool isPlainDelimitedText(std::string_view s, char open, char close);

// Number of UTF-8 code points in s (continuation bytes are not counted).
int codePoints(std::string_view s);

// --- a cursor over one line -------------------------------------------------------------------
class LineCursor {
public:
    LineCursor(std::string_view line, int lineNo, const std::string* file)
        : end(line.size()), line_(line), lineNo_(lineNo), file_(file) {}

    std::size_t pos = 0;  // byte offset of the next character
    std::size_t end;      // the cursor never reads at or past this offset

    std::string_view line() const { return line_; }
    int lineNo() const { return lineNo_; }
    const std::string* file() const { return file_; }

    bool atEnd() const { return pos >= end; }
    char peek(std::size_t k = 0) const { return pos + k < end ? line_[pos + k] : '\0'; }
    void skipSpaces() {
        while (pos < end && isSpace(line_[pos])) {
            ++pos;
        }
    }
    bool lookingAt(std::string_view lit) const {
        return end - pos >= lit.size() && line_.substr(pos, lit.size()) == lit;
    }
    bool eat(char c) {
        if (peek() == c && pos < end) {
            ++pos;
            return true;
        }
        return false;
    }
    bool eat(std::string_view lit) {
        if (lookingAt(lit)) {
            pos += lit.size();
            return true;
        }
        return false;
    }
    std::string_view rest() const { return line_.substr(pos, end - pos); }
    std::string_view slice(std::size_t b, std::size_t e) const { return line_.substr(b, e - b); }

    // 1-based column (in code points) of a byte offset of this line.
    int column(std::size_t bytePos) const;
    [[noreturn]] void fail(const std::string& msg) const { failAt(pos, msg); }
    [[noreturn]] void failAt(std::size_t bytePos, const std::string& msg) const;

    // A quoted string literal at pos (which must be '"'); throws when it is unterminated.
    std::string readQuoted();
    // A name: quoted, or the longest run of isBroadNameByte (possibly empty).
    std::string readName();
    // An unquoted operator name: bytes up to a blank, '(', '[', '{', ',', ')' or the end.
    std::string_view readOpName();
    // Decimal digits as an unsigned number; nullopt (pos unchanged) when there are none or
    // they overflow.
    std::optional<std::uint64_t> readUnsigned();
    // A signed decimal integer; nullopt (pos unchanged) when absent or out of range.
    std::optional<std::int64_t> readInt();

    // Comma-separated integers up to `close` (pos is just past the opener), as in `(2, 3)`
    // and `[2, 3]`; false when the text is not of that form.
    bool readDims(char close, std::vector<std::int64_t>& dims);

    // Scans a bracket-balanced span starting at pos, honouring string literals and ()[]{}
    // (and <> when `angles`), and returns the offset where it stops: at depth 0 before any
    // byte of `stops`, or at the end. Throws when a bracket is left open or closed wrongly
    // or nesting exceeds kMaxNesting.
    std::size_t scanBalanced(std::string_view stops, bool angles) const;
    // pos is at an opening bracket: the offset just past its matching closer (same rules).
    std::size_t scanGroup(bool angles) const;
    // As scanBalanced, but only parentheses nest: for text that may hold an unclosed '[' or
    // '<' (a parameter's name such as `%para7_List[<2.weight`), never a parenthesis.
    std::size_t scanParens(std::string_view stops) const;

    // A cursor over [b, e) of the same line, for parsing a span on its own.
    LineCursor sub(std::size_t b, std::size_t e) const {
        LineCursor c(line_, lineNo_, file_);
        c.pos = b;
        c.end = e;
        return c;
    }

private:
    std::size_t scan(std::string_view stops, std::string_view openers, bool oneGroup) const;

    std::string_view line_;
    int lineNo_;
    const std::string* file_;
};

}  // namespace irscope::ir::text
