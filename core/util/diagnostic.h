// Located errors for bad input: `file:line:col: error: message`, the source line, a caret.
#pragma once

#include <stdexcept>
#include <string>

namespace irscope {

struct Diagnostic {
    std::string file;     // as given by the caller; may be empty
    int line = 0;         // 1-based
    int column = 0;       // 1-based
    std::string message;  // "expected ')' after the inputs of %3"
    std::string lineText;  // the offending source line, without its newline
    std::string kind;      // what the message calls the error: "error" when empty,
                           // "SyntaxError" for the script front end

    // "file:line:col: <kind>: message" followed, when lineText is known, by the line and a
    // caret under the column.
    std::string format() const;
};

// Thrown by readers of user input (the .ir parser, later the script front end).
class ParseError : public std::runtime_error {
public:
    explicit ParseError(Diagnostic d) : std::runtime_error(d.format()), diag_(std::move(d)) {}
    const Diagnostic& diagnostic() const { return diag_; }

private:
    Diagnostic diag_;
};

}  // namespace irscope
