// Encrypted MindIR files, as MindSpore's export (enc_key, enc_mode) writes them: the
// serialized model cut into blocks, each written as
//   magic (int32 LE: 0x7F3A5ED8 AES-GCM, 0x7F3A5ED9 AES-CBC, 0x7F3A5EDA SM4-CBC)
//   [16-byte GCM tag, AES-GCM only]
//   block length (int32 LE), then the block: IV length (int32 LE), IV, cipher length
//   (int32 LE), cipher text.
// AES-GCM runs with OpenSSL's default 12-byte IV, i.e. the first 12 bytes of the stored
// 16-byte IV; CBC modes use all 16 with PKCS#7 padding.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "mindir/mindir.h"

namespace irscope::mindir {

namespace {

constexpr std::uint32_t kGcmMagic = 0x7F3A5ED8U;
constexpr std::uint32_t kCbcMagic = 0x7F3A5ED9U;
constexpr std::uint32_t kSm4CbcMagic = 0x7F3A5EDAU;
constexpr std::size_t kTagSize = 16;
constexpr std::size_t kIvSize = 16;
constexpr std::size_t kMaxBlock = std::size_t{512} << 20;

std::uint32_t readU32(std::string_view b, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
    }
    return v;
}

void appendU32(std::string& out, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i) {
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xFFU));
    }
}

std::uint32_t magicOf(Encryption e) {
    switch (e) {
        case Encryption::AesGcm:
            return kGcmMagic;
        case Encryption::AesCbc:
            return kCbcMagic;
        case Encryption::Sm4Cbc:
            return kSm4CbcMagic;
        case Encryption::None:
            break;
    }
    return 0;
}

// The cipher for a mode and key length, or nullptr when the key length does not fit it.
const EVP_CIPHER* cipherFor(Encryption mode, std::size_t keyLen) {
    switch (mode) {
        case Encryption::AesGcm:
            return keyLen == 16   ? EVP_aes_128_gcm()
                   : keyLen == 24 ? EVP_aes_192_gcm()
                   : keyLen == 32 ? EVP_aes_256_gcm()
                                  : nullptr;
        case Encryption::AesCbc:
            return keyLen == 16   ? EVP_aes_128_cbc()
                   : keyLen == 24 ? EVP_aes_192_cbc()
                   : keyLen == 32 ? EVP_aes_256_cbc()
                                  : nullptr;
        case Encryption::Sm4Cbc:
            return keyLen == 16 ? EVP_sm4_cbc() : nullptr;
        case Encryption::None:
            break;
    }
    return nullptr;
}

struct CtxFree {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
using Ctx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

const unsigned char* bytesOf(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

std::string keyLengthMessage(Encryption mode, std::size_t len) {
    return std::string("a ") + std::string(encryptionName(mode)) + " key must be " +
           (mode == Encryption::Sm4Cbc ? "16" : "16, 24 or 32") + " bytes long, this one has " +
           std::to_string(len);
}

}  // namespace

Encryption detectEncryption(std::string_view bytes) {
    if (bytes.size() < 4) {
        return Encryption::None;
    }
    switch (readU32(bytes, 0)) {
        case kGcmMagic:
            return Encryption::AesGcm;
        case kCbcMagic:
            return Encryption::AesCbc;
        case kSm4CbcMagic:
            return Encryption::Sm4Cbc;
        default:
            return Encryption::None;
    }
}

std::string_view encryptionName(Encryption e) {
    switch (e) {
        case Encryption::AesGcm:
            return "AES-GCM";
        case Encryption::AesCbc:
            return "AES-CBC";
        case Encryption::Sm4Cbc:
            return "SM4-CBC";
        case Encryption::None:
            break;
    }
    return "";
}

namespace {

// Frees what OpenSSL keeps per thread (the error queue a failed decryption fills, the random
// generator) when a call ends. OpenSSL frees it when the thread exits, but the app decrypts on
// pool threads that may outlive the files they read, and LeakSanitizer reported the error
// queue of one still running at exit (904 bytes).
struct ThreadStateRelease {
    ThreadStateRelease() = default;
    ThreadStateRelease(const ThreadStateRelease&) = delete;
    ThreadStateRelease& operator=(const ThreadStateRelease&) = delete;
    ~ThreadStateRelease() { OPENSSL_thread_stop(); }
};

}  // namespace

std::string decrypt(std::string_view bytes, std::string_view key, Encryption mode,
                    const std::string& fileName) {
    const ThreadStateRelease release;
    using K = MindirError::Kind;
    const EVP_CIPHER* cipher = cipherFor(mode, key.size());
    if (cipher == nullptr) {
        throw MindirError(K::WrongKey, fileName, keyLengthMessage(mode, key.size()));
    }
    const bool gcm = mode == Encryption::AesGcm;
    std::string plain;
    std::size_t pos = 0;
    int blockIndex = 0;
    auto corrupt = [&](const std::string& what) {
        return MindirError(K::Corrupt, fileName,
                           "encrypted block " + std::to_string(blockIndex) + " at byte " +
                               std::to_string(pos) + ": " + what);
    };
    while (pos < bytes.size()) {
        const std::size_t header = 4 + (gcm ? kTagSize : 0) + 4;
        if (bytes.size() - pos < header) {
            throw corrupt("truncated block header");
        }
        const std::uint32_t magic = readU32(bytes, pos);
        if (magic != magicOf(mode)) {
            const Encryption actual = detectEncryption(bytes.substr(pos, 4));
            throw MindirError(actual == Encryption::None ? K::Corrupt : K::WrongKey, fileName,
                              actual == Encryption::None
                                  ? "encrypted block " + std::to_string(blockIndex) + " at byte " +
                                        std::to_string(pos) + " does not start with the " +
                                        std::string(encryptionName(mode)) + " magic number"
                                  : "the file is encrypted with " +
                                        std::string(encryptionName(actual)) + ", not " +
                                        std::string(encryptionName(mode)));
        }
        std::string_view tag;
        if (gcm) {
            tag = bytes.substr(pos + 4, kTagSize);
        }
        const std::uint32_t blockLen = readU32(bytes, pos + header - 4);
        const std::size_t blockAt = pos + header;
        if (blockLen > bytes.size() - blockAt) {
            throw corrupt("block of " + std::to_string(blockLen) + " bytes but only " +
                          std::to_string(bytes.size() - blockAt) + " left (truncated file?)");
        }
        const std::string_view block = bytes.substr(blockAt, blockLen);
        if (block.size() < 8) {
            throw corrupt("block too short");
        }
        const std::uint32_t ivLen = readU32(block, 0);
        if (ivLen == 0 || ivLen > block.size() - 8) {
            throw corrupt("bad IV length " + std::to_string(ivLen));
        }
        const std::string_view iv = block.substr(4, ivLen);
        const std::uint32_t cipherLen = readU32(block, 4 + ivLen);
        if (cipherLen == 0 || std::size_t{cipherLen} + ivLen + 8 != block.size()) {
            throw corrupt("cipher length " + std::to_string(cipherLen) +
                          " does not match the block length " + std::to_string(block.size()));
        }
        if (!gcm && ivLen < kIvSize) {
            throw corrupt("IV of " + std::to_string(ivLen) + " bytes, CBC needs 16");
        }
        const std::string_view text = block.substr(8 + ivLen, cipherLen);

        Ctx ctx(EVP_CIPHER_CTX_new());
        if (!ctx ||
            EVP_DecryptInit_ex(ctx.get(), cipher, nullptr, bytesOf(key), bytesOf(iv)) != 1) {
            throw MindirError(K::WrongKey, fileName, "OpenSSL could not set up decryption");
        }
        std::string out(text.size() + 32, '\0');
        int outLen = 0;
        int finalLen = 0;
        if (EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &outLen,
                              bytesOf(text), static_cast<int>(text.size())) != 1) {
            throw MindirError(K::WrongKey, fileName, "decryption failed");
        }
        if (gcm) {
            std::string tagCopy(tag);
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagSize),
                                tagCopy.data());
        }
        if (EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + outLen,
                                &finalLen) != 1) {
            throw MindirError(K::WrongKey, fileName,
                              "the key does not decrypt this file (" +
                                  std::string(encryptionName(mode)) +
                                  (gcm ? " authentication failed)" : " padding check failed)"));
        }
        out.resize(static_cast<std::size_t>(outLen + finalLen));
        plain += out;
        pos = blockAt + blockLen;
        ++blockIndex;
    }
    return plain;
}

std::string encrypt(std::string_view plain, std::string_view key, Encryption mode) {
    const ThreadStateRelease release;
    const EVP_CIPHER* cipher = cipherFor(mode, key.size());
    if (cipher == nullptr) {
        throw MindirError(MindirError::Kind::WrongKey, {}, keyLengthMessage(mode, key.size()));
    }
    const bool gcm = mode == Encryption::AesGcm;
    std::string out;
    std::size_t pos = 0;
    do {
        const std::string_view chunk = plain.substr(pos, std::min(kMaxBlock, plain.size() - pos));
        unsigned char iv[kIvSize];
        if (RAND_bytes(iv, sizeof iv) != 1) {
            throw std::runtime_error("OpenSSL could not make a random IV");
        }
        Ctx ctx(EVP_CIPHER_CTX_new());
        if (!ctx || EVP_EncryptInit_ex(ctx.get(), cipher, nullptr, bytesOf(key), iv) != 1) {
            throw std::runtime_error("OpenSSL could not set up encryption");
        }
        std::string text(chunk.size() + 32, '\0');
        int len = 0;
        int finalLen = 0;
        EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(text.data()), &len,
                          bytesOf(chunk), static_cast<int>(chunk.size()));
        EVP_EncryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(text.data()) + len,
                            &finalLen);
        text.resize(static_cast<std::size_t>(len + finalLen));
        unsigned char tag[kTagSize] = {};
        if (gcm) {
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagSize), tag);
        }
        std::string block;
        appendU32(block, static_cast<std::uint32_t>(kIvSize));
        block.append(reinterpret_cast<const char*>(iv), kIvSize);
        appendU32(block, static_cast<std::uint32_t>(text.size()));
        block += text;
        appendU32(out, magicOf(mode));
        if (gcm) {
            out.append(reinterpret_cast<const char*>(tag), kTagSize);
        }
        appendU32(out, static_cast<std::uint32_t>(block.size()));
        out += block;
        pos += chunk.size();
    } while (pos < plain.size());
    return out;
}

}  // namespace irscope::mindir
