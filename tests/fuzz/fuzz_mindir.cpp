// libFuzzer target for the MindIR reader (core/mindir): any bytes must give a module or a
// MindirError, never a crash, hang or unbounded allocation. Encrypted inputs are tried with
// the key of the shared AES-GCM sample, so the decryption path is fuzzed too. Seeded from
// ../shared/mindir (make fuzz).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ir/ir_text.h"
#include "mindir/mindir.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    irscope::mindir::ReadOptions opts;
    opts.decKey = "0123456789ABCDEF";
    try {
        const irscope::mindir::Model model =
            irscope::mindir::readMindir(bytes, "fuzz.mindir", opts);
        // What the app does next with it: print it as .ir.
        (void)irscope::ir::printIr(*model.module);
    } catch (const irscope::mindir::MindirError&) {
    }
    return 0;
}
