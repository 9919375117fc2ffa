// Text kept zstd-compressed in memory: the storage of IR snapshots. A printed .ir module
// is very repetitive (scopes, types, source lines), so it shrinks to a few percent of its
// size; views decompress on demand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace irscope::util {

class CompressedText {
public:
    CompressedText() = default;  // the empty text

    // Compresses `text` with zstd at `level` (1 fastest .. 19 smallest). Level 1 is the
    // default: snapshots are compressed after every pass, and on the IR text of a 384-block
    // training step it is 2.5 times as fast as zstd's own default (3) and no larger.
    static CompressedText compress(std::string_view text, int level = 1);
    // The same when the caller already has hashOf(text): a snapshot's text is hashed for
    // the change check, and hashing tens of megabytes twice is not free.
    static CompressedText compress(std::string_view text, int level, std::size_t textHash);

    // The original text. Throws std::runtime_error if the compressed bytes are corrupt
    // (they never are when produced by compress()).
    std::string text() const;

    // The zstd frame as compress() made it (empty for the empty text): what files store.
    const std::string& bytes() const { return data_; }
    // A text from stored bytes (a frame of `rawSize` bytes of text, as bytes() gave them),
    // decompressed once to check them. Throws std::runtime_error when they are corrupt.
    // The text is written to `text` when it is not null.
    static CompressedText fromBytes(std::string bytes, std::size_t rawSize,
                                    std::string* text = nullptr);

    std::size_t rawSize() const { return rawSize_; }
    std::size_t compressedSize() const { return data_.size(); }
    // A hash of the original text (std::hash of its bytes: stable within one process
    // only, never stored).
    std::size_t hash() const { return hash_; }
    bool empty() const { return rawSize_ == 0; }

    // Hash of text as hash() computes it, for comparing fresh text with a stored one.
    static std::size_t hashOf(std::string_view text);

private:
    std::string data_;  // the zstd frame; empty for the empty text
    std::size_t rawSize_ = 0;
    std::size_t hash_ = hashOf({});
};

}  // namespace irscope::util
