// libFuzzer target for the session-file loader: arbitrary bytes written as a file must either
// load or be refused with a DbError (never crash, hang, trip a sanitizer or throw anything
// else), and the file must be left exactly as it was.
// The check itself is irscope::fuzz::checkSessionFile, which the regression suite runs too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path =
        (std::filesystem::temp_directory_path() /
         ("fuzz_session_file." + std::to_string(::getpid()) + ".irscope"))
            .string();
    const std::string problem = irscope::fuzz::checkSessionFile(
        std::string_view(reinterpret_cast<const char*>(data), size), path);
    if (!problem.empty()) {
        irscope::fuzz::abortWith(problem);
    }
    return 0;
}
