// libFuzzer target for the .ir reader: arbitrary bytes must either parse or raise a located
// ParseError (never crash, hang or trip a sanitizer), and whatever parses must print to text
// that parses again and prints identically (the printer and reader are exact inverses).
// The check itself is irscope::fuzz::checkIrText, which the regression suite runs too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem =
        irscope::fuzz::checkIrText(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        irscope::fuzz::abortWith(problem);
    }
    return 0;
}
