#include "util/compressed_text.h"

#include <zstd.h>

#include <functional>
#include <stdexcept>

namespace irscope::util {

std::size_t CompressedText::hashOf(std::string_view text) {
    return std::hash<std::string_view>{}(text);
}

CompressedText CompressedText::compress(std::string_view text, int level) {
    CompressedText c;
    c.rawSize_ = text.size();
    c.hash_ = hashOf(text);
    if (text.empty()) {
        return c;
    }
    c.data_.resize(ZSTD_compressBound(text.size()));
    const std::size_t n =
        ZSTD_compress(c.data_.data(), c.data_.size(), text.data(), text.size(), level);
    if (ZSTD_isError(n) != 0U) {
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    }
    c.data_.resize(n);
    c.data_.shrink_to_fit();
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
