// libFuzzer target for the script front end: the parser must turn any bytes into a Module or
// a located SyntaxError, and the interpreter must run what parses to a result (an exception,
// the step limit, or the end) with no crash, hang, stack overflow or escaping C++ exception.
// The check itself is irscope::fuzz::checkPyScript, which the regression suite runs too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem =
        irscope::fuzz::checkPyScript(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        irscope::fuzz::abortWith(problem);
    }
    return 0;
}
