// libFuzzer target for the .ir reader: arbitrary bytes must either parse or raise
// ParseError (never crash, hang or trip a sanitizer), and whatever parses must print to text
// that parses again and prints identically (the printer and reader are exact inverses).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ir/ir_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::unique_ptr<irscope::ir::Module> m;
    try {
        m = irscope::ir::parseIr(text, "fuzz.ir");
    } catch (const irscope::ParseError&) {
        return 0;
    }
    const std::string first = irscope::ir::printIr(*m);
    std::string second;
    try {
        second = irscope::ir::printIr(*irscope::ir::parseIr(first, "printed.ir"));
    } catch (const irscope::ParseError& e) {
        std::fprintf(stderr, "printed text does not parse: %s\n--- printed ---\n%s\n", e.what(),
                     first.c_str());
        std::abort();
    }
    if (second != first) {
        std::fprintf(stderr,
                     "print(parse(print(x))) != print(x)\n--- first ---\n%s\n"
                     "--- second ---\n%s\n",
                     first.c_str(), second.c_str());
        std::abort();
    }
    const std::string problem = m->verify();
    if (!problem.empty()) {
        std::fprintf(stderr, "parsed module is inconsistent: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
