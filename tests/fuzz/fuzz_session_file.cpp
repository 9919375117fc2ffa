// libFuzzer target for the session-file loader: arbitrary bytes written as a file must either
// load or be refused with a DbError (never crash, hang, trip a sanitizer or throw anything
// else), and the file must be left exactly as it was.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "store/session_file.h"

namespace {

std::string readBack(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path =
        (std::filesystem::temp_directory_path() /
         ("fuzz_session_file." + std::to_string(::getpid()) + ".irscope"))
            .string();
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    for (const char* side : {"", "-wal", "-shm", "-journal"}) {
        std::filesystem::remove(path + side);
    }
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    try {
        irscope::store::loadSession(path);
    } catch (const irscope::store::DbError&) {
    }
    if (readBack(path) != bytes) {
        std::fprintf(stderr, "loading changed the file\n");
        std::abort();
    }
    return 0;
}
