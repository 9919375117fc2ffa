// libFuzzer target: the script parser must turn any bytes into a Module or a SyntaxError —
// no crash, no hang, no stack overflow, no other exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string source(reinterpret_cast<const char*>(data), size);
    try {
        auto m = irscope::frontend::parseModule(std::move(source), "fuzz.py");
        // Walk what was built: dumping touches every node.
        (void)irscope::ast::dumpAst(*m);
    } catch (const irscope::frontend::SyntaxError& e) {
        (void)e.diagnostic().format();
    }
    return 0;
}
