#include "util/compressed_text.h"

#include <zstd.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <utility>

namespace irscope::util {

std::size_t CompressedText::hashOf(std::string_view text) {
    return std::hash<std::string_view>{}(text);
}

CompressedText CompressedText::compress(std::string_view text, int level) {
    return compress(text, level, hashOf(text));
}

CompressedText CompressedText::compress(std::string_view text, int level, std::size_t textHash) {
    CompressedText c;
    c.rawSize_ = text.size();
    c.hash_ = textHash;
    if (text.empty()) {
        return c;
    }
    // Into a per-thread scratch buffer that is neither zeroed nor given back between calls:
    // sizing a string to the bound would clear (and fault in) tens of megabytes per snapshot.
    thread_local std::unique_ptr<char[]> scratch;
    thread_local std::size_t scratchSize = 0;
    const std::size_t bound = ZSTD_compressBound(text.size());
    if (scratchSize < bound) {
        scratch = std::make_unique_for_overwrite<char[]>(bound);
        scratchSize = bound;
    }
    const std::size_t n = ZSTD_compress(scratch.get(), bound, text.data(), text.size(), level);
    if (ZSTD_isError(n) != 0U) {
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    }
    c.data_.assign(scratch.get(), n);
    return c;
}

CompressedText CompressedText::fromBytes(std::string bytes, std::size_t rawSize,
                                         std::string* text) {
    CompressedText c;
    c.data_ = std::move(bytes);
    c.rawSize_ = rawSize;
    if (rawSize == 0 && !c.data_.empty()) {
        throw std::runtime_error("corrupt compressed text: bytes for an empty text");
    }
    if (rawSize != 0) {
        // Checked before text() allocates: compress() records the size in the frame, and
        // no zstd frame expands more than 65536-fold (an RLE block: 3 bytes for 128 KiB).
        const unsigned long long inFrame = ZSTD_getFrameContentSize(c.data_.data(), c.data_.size());
        if (inFrame != rawSize || rawSize / 65536 > c.data_.size()) {
            throw std::runtime_error(
                "corrupt compressed text: " +
                (inFrame == ZSTD_CONTENTSIZE_ERROR || inFrame == ZSTD_CONTENTSIZE_UNKNOWN
                     ? std::string("not a zstd frame")
                     : "the frame holds " + std::to_string(inFrame) + " bytes, not " +
                           std::to_string(rawSize)));
        }
    }
    std::string t = c.text();
    c.hash_ = hashOf(t);
    if (text != nullptr) {
        *text = std::move(t);
    }
    return c;
}

std::string CompressedText::text() const {
    std::string out;
    if (rawSize_ == 0) {
        return out;
    }
    out.resize(rawSize_);
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), data_.data(), data_.size());
    if (ZSTD_isError(n) != 0U || n != rawSize_) {
        throw std::runtime_error(
            std::string("corrupt compressed text: ") +
            (ZSTD_isError(n) != 0U ? ZSTD_getErrorName(n) : "unexpected decompressed size"));
    }
    return out;
}

}  // namespace irscope::util
