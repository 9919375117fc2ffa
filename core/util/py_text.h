// Python's rules for text, shared by the script lexer, the interpreter and the .ir lexer:
// UTF-8 code points, repr() and ascii() of a str, and backslash escapes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace irscope::util {

// The code point that starts at byte i of UTF-8 text, and its length in bytes. A byte that
// does not start a complete sequence is read as a code point of its own (length 1), so
// invalid text passes through unchanged.
char32_t decodeUtf8(std::string_view s, std::size_t i, std::size_t* len);
void appendUtf8(std::string& out, char32_t c);
std::string encodeUtf8(char32_t c);

// Whether repr() shows the code point as it is (Python's str.isprintable for one character:
// controls, C1 controls, separators, format characters and surrogates are not).
bool isPrintable(char32_t c);

// repr() of a str: quoted with ' unless the text holds ' and no ", with \\, the quote, \n,
// \r and \t escaped and the code points that are not printable as \xhh, \uhhhh or \Uhhhhhhhh.
std::string pyStrRepr(std::string_view s);

// repr() of a float, as Python 3 writes it: the shortest digits that read back to the same
// double, positional for exponents -4 to 15 ("0.0001", "100000.0", "1e-05", "1e+16"),
// "inf", "-inf", "nan".
std::string pyFloatRepr(double v);

// What ascii() makes of repr() text: every code point above 0x7f as \xhh, \uhhhh or \Uhhhhhhhh.
std::string pyAsciiEscape(std::string_view s);

// The value of a hexadecimal digit, or -1.
int hexDigit(char c);

// The character a one-letter escape stands for after a backslash: \\ \' \" \a \b \f \n \r \t
// \v. Numeric escapes (\x, \u, \U, octal) are each lexer's own.
std::optional<char> simpleEscape(char e);

}  // namespace irscope::util
