#include "util/sha256.h"

#include <openssl/evp.h>

#include <cstdint>
#include <stdexcept>

namespace irscope::util {

namespace {

EVP_MD_CTX* md(void* p) {
    return static_cast<EVP_MD_CTX*>(p);
}

std::string toHex(const unsigned char* bytes, unsigned int n) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * n);
    for (unsigned int i = 0; i < n; ++i) {
        out.push_back(kDigits[bytes[i] >> 4]);
        out.push_back(kDigits[bytes[i] & 0xf]);
    }
    return out;
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (ctx_ == nullptr || EVP_DigestInit_ex(md(ctx_), EVP_sha256(), nullptr) != 1) {
        EVP_MD_CTX_free(md(ctx_));
        throw std::runtime_error("irscope: SHA-256 is not available (OpenSSL)");
    }
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(md(ctx_));
}

Sha256& Sha256::add(std::string_view piece) {
    const std::uint64_t n = piece.size();
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) {
        len[i] = static_cast<unsigned char>(n >> (8 * i));
    }
    EVP_DigestUpdate(md(ctx_), len, sizeof len);
    EVP_DigestUpdate(md(ctx_), piece.data(), piece.size());
    return *this;
}

std::string Sha256::hex() {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(md(ctx_), out, &n);
    return toHex(out, n);
}

std::string sha256Hex(std::string_view data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(data.data(), data.size(), out, &n, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("irscope: SHA-256 failed (OpenSSL)");
    }
    return toHex(out, n);
}

}  // namespace irscope::util
