// Reading test inputs whole: a file's bytes, and a .ir file parsed. Shared by the suites.
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "ir/ir_text.h"
#include "ir/module.h"

namespace test_files {

// The bytes of `path`; empty when it cannot be read (the comparison that follows fails).
inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

// The module a .ir file holds; null when the file cannot be read. A parse error throws.
inline std::shared_ptr<const irscope::ir::Module> parseIrFile(const std::filesystem::path& path) {
    if (std::ifstream probe(path, std::ios::binary); !probe) {
        return nullptr;
    }
    return irscope::ir::parseIr(readFile(path), path.string());
}

}  // namespace test_files
