// libFuzzer target for the MindIR reader (core/mindir): any bytes must give a module or a
// MindirError, never a crash, hang or unbounded allocation. Encrypted inputs are tried with
// the key of the shared AES-GCM sample, so the decryption path is fuzzed too. Seeded from
// ../shared/mindir (make fuzz). The check itself is irscope::fuzz::checkMindir.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem =
        irscope::fuzz::checkMindir(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        irscope::fuzz::abortWith(problem);
    }
    return 0;
}
