// SHA-256 digests (OpenSSL's libcrypto) as lowercase hex: the compile cache's keys and the
// statistics history's script hashes, as MindSpore hashes its compile-cache dependency files.
#pragma once

#include <string>
#include <string_view>

namespace irscope::util {

// The 64-character hex digest of `data`.
std::string sha256Hex(std::string_view data);

// Feeds several pieces into one digest; each piece is length-prefixed, so ("ab", "c") and
// ("a", "bc") differ.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    Sha256& add(std::string_view piece);
    std::string hex();  // finishes the digest; add() may not be called afterwards

private:
    void* ctx_;  // EVP_MD_CTX
};

}  // namespace irscope::util
