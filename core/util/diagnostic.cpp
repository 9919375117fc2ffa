#include "util/diagnostic.h"

#include <fmt/format.h>

namespace irscope {

std::string Diagnostic::format() const {
    std::string out;
    out += file.empty() ? std::string("<input>") : file;
    out += fmt::format(":{}:{}: ", line, column);
    out += (kind.empty() ? std::string("error") : kind) + ": " + message;
    if (!lineText.empty()) {
        out += "\n" + lineText + "\n";
        // Keep tabs so the caret lines up under the same column in a terminal.
        for (int i = 1; i < column && static_cast<std::size_t>(i - 1) < lineText.size(); ++i) {
            out += lineText[static_cast<std::size_t>(i - 1)] == '\t' ? '\t' : ' ';
        }
        out += "^";
    }
    return out;
}

}  // namespace irscope
