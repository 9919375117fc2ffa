// Runtime tensors: a dtype, a static shape and shared, contiguous row-major storage.
// Copies of a Tensor share storage (like MindSpore's device address): a Parameter's tensor
// and every Load of it alias one buffer, and an in-place write (Assign) is seen by all.
// Use clone() for an independent copy (TensorMove).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ir/types.h"
#include "ir/value.h"

namespace irscope::ir {

// The identities of watched buffers that were freed, in the order they went: lets the
// executor's memory accounting forget exactly those buffers instead of polling every live
// one. Storages may be freed on any thread.
class ReleaseLog {
public:
    void add(const void* id) {
        std::lock_guard lock(mutex_);
        ids_.push_back(id);
    }
    std::vector<const void*> take() {
        std::lock_guard lock(mutex_);
        return std::exchange(ids_, {});
    }

private:
    std::mutex mutex_;
    std::vector<const void*> ids_;
};

class Storage {
public:
    explicit Storage(std::size_t bytes) : bytes_(bytes) {}
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    ~Storage() {
        for (const std::weak_ptr<ReleaseLog>& w : watchers_) {
            if (const std::shared_ptr<ReleaseLog> log = w.lock()) {
                log->add(this);
            }
        }
    }
    std::byte* data() { return bytes_.data(); }
    const std::byte* data() const { return bytes_.data(); }
    std::size_t size() const { return bytes_.size(); }
    // `log` hears of this buffer's end (its identity, the address of this Storage).
    void watch(const std::shared_ptr<ReleaseLog>& log) { watchers_.push_back(log); }

private:
    std::vector<std::byte> bytes_;
    std::vector<std::weak_ptr<ReleaseLog>> watchers_;
};

class Tensor {
public:
    Tensor() = default;  // an empty Float32 tensor of shape (0)
    // Zero-filled. Throws std::invalid_argument for a non-static shape.
    Tensor(DType dtype, Shape shape);

    static Tensor scalar(DType dtype, double value);
    // From row-major host values converted to dtype.
    static Tensor fromDoubles(DType dtype, Shape shape, std::span<const double> values);
    static Tensor fromInts(DType dtype, Shape shape, std::span<const std::int64_t> values);
    static Tensor fromValueData(const ir::TensorData& data);  // throws if data is unknown
    ir::TensorData toValueData() const;

    DType dtype() const { return dtype_; }
    const Shape& shape() const { return shape_; }
    std::size_t rank() const { return shape_.dims.size(); }
    std::size_t size() const { return count_; }  // number of elements
    std::size_t nbytes() const { return count_ * ir::dtypeSize(dtype_); }

    template <typename T>
    T* data() {
        return reinterpret_cast<T*>(storage_->data());
    }
    template <typename T>
    const T* data() const {
        return reinterpret_cast<const T*>(storage_->data());
    }
    std::byte* bytes() { return storage_ ? storage_->data() : nullptr; }
    const std::byte* bytes() const { return storage_ ? storage_->data() : nullptr; }

    // Element access through double / int64 (Float16 and BFloat16 decoded; a complex
    // element reads as its real part and is written as (v, 0)).
    double getDouble(std::size_t i) const;
    std::int64_t getInt(std::size_t i) const;
    void setDouble(std::size_t i, double v);
    void setInt(std::size_t i, std::int64_t v);
    // Any element as a complex (imaginary part 0 for the real types); a real element takes
    // the real part of v.
    std::complex<double> getComplex(std::size_t i) const;
    void setComplex(std::size_t i, std::complex<double> v);

    // A new tensor with its own storage and the same contents.
    Tensor clone() const;
    // A converted copy (MindSpore's Cast semantics: float->int truncates, ->bool is != 0,
    // complex->real keeps the real part).
    Tensor cast(DType to) const;
    // Same storage viewed with another static shape of the same element count.
    Tensor reshaped(Shape s) const;
    // Writes `src`'s contents into this tensor's storage (shapes' element counts and dtypes
    // must match): what Assign does to a Parameter.
    void assignFrom(const Tensor& src);
    bool sharesStorageWith(const Tensor& o) const { return storage_ == o.storage_; }
    // Identity of the buffer, for memory statistics and the debugger.
    const void* storageId() const { return storage_.get(); }
    // A handle that tells when the buffer is freed (the executor's memory accounting).
    std::weak_ptr<Storage> storageHandle() const { return storage_; }
    // Adds the storage's identity to `log` once the buffer is freed.
    void watchRelease(const std::shared_ptr<ReleaseLog>& log) const {
        if (storage_) {
            storage_->watch(log);
        }
    }

private:
    DType dtype_ = DType::Float32;
    Shape shape_{0};
    std::size_t count_ = 0;
    std::shared_ptr<Storage> storage_ = std::make_shared<Storage>(0);
};

}  // namespace irscope::ir
