#include "runtime/random.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace irscope::runtime {

namespace {

// The smallest all-ones bit mask covering `max`.
std::uint64_t maskFor(std::uint64_t max) {
    std::uint64_t m = max;
    m |= m >> 1;
    m |= m >> 2;
    m |= m >> 4;
    m |= m >> 8;
    m |= m >> 16;
    m |= m >> 32;
    return m;
}

// Inclusive range of values a dtype can hold, for randint's bounds checks.
void dtypeRange(ir::DType t, std::int64_t& lo, std::uint64_t& hi) {
    switch (t) {
        case ir::DType::Bool:
            lo = 0;
            hi = 1;
            return;
        case ir::DType::Int8:
            lo = INT8_MIN;
            hi = INT8_MAX;
            return;
        case ir::DType::Int16:
            lo = INT16_MIN;
            hi = INT16_MAX;
            return;
        case ir::DType::Int32:
            lo = INT32_MIN;
            hi = INT32_MAX;
            return;
        case ir::DType::UInt8:
            lo = 0;
            hi = UINT8_MAX;
            return;
        case ir::DType::UInt16:
            lo = 0;
            hi = UINT16_MAX;
            return;
        case ir::DType::UInt32:
            lo = 0;
            hi = UINT32_MAX;
            return;
        case ir::DType::UInt64:
            lo = 0;
            hi = UINT64_MAX;
            return;
        default:
            lo = INT64_MIN;
            hi = INT64_MAX;
            return;
    }
}

}  // namespace

RandomState::RandomState() {
    std::random_device rd;
    std::array<std::uint32_t, 4> key{rd(), rd(), rd(), rd()};
    seedArray(key);
}

void RandomState::seed(std::int64_t s) {
    if (s < 0 || s > 0xFFFFFFFFll) {
        throw std::invalid_argument("Seed must be between 0 and 2**32 - 1");
    }
    seed32(static_cast<std::uint32_t>(s));
}

void RandomState::seed32(std::uint32_t s) {
    for (int i = 0; i < kN; ++i) {
        key_[static_cast<std::size_t>(i)] = s;
        s = 1812433253u * (s ^ (s >> 30)) + static_cast<std::uint32_t>(i + 1);
    }
    pos_ = kN;
    hasGauss_ = false;
    gauss_ = 0.0;
}

void RandomState::seedArray(std::span<const std::uint32_t> key) {
    if (key.empty()) {
        throw std::invalid_argument("Seed must be non-empty");
    }
    seed32(19650218u);
    auto& mt = key_;
    std::size_t i = 1;
    std::size_t j = 0;
    for (std::size_t k = std::max<std::size_t>(kN, key.size()); k > 0; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] +
                static_cast<std::uint32_t>(j);
        ++i;
        ++j;
        if (i >= kN) {
            mt[0] = mt[kN - 1];
            i = 1;
        }
        if (j >= key.size()) {
            j = 0;
        }
    }
    for (std::size_t k = kN - 1; k > 0; --k) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) -
                static_cast<std::uint32_t>(i);
        ++i;
        if (i >= kN) {
            mt[0] = mt[kN - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    pos_ = kN;
    hasGauss_ = false;
    gauss_ = 0.0;
}

void RandomState::reload() {
    constexpr int kM = 397;
    constexpr std::uint32_t kMatrixA = 0x9908b0dfu;
    constexpr std::uint32_t kUpper = 0x80000000u;
    constexpr std::uint32_t kLower = 0x7fffffffu;
    auto twist = [&](int i, int next, int far) {
        const std::uint32_t y = (key_[static_cast<std::size_t>(i)] & kUpper) |
                                (key_[static_cast<std::size_t>(next)] & kLower);
        key_[static_cast<std::size_t>(i)] =
            key_[static_cast<std::size_t>(far)] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
    };
    int i = 0;
    for (; i < kN - kM; ++i) {
        twist(i, i + 1, i + kM);
    }
    for (; i < kN - 1; ++i) {
        twist(i, i + 1, i + kM - kN);
    }
    twist(kN - 1, 0, kM - 1);
    pos_ = 0;
}

std::uint32_t RandomState::nextUInt32() {
    if (pos_ >= kN) {
        reload();
    }
    std::uint32_t y = key_[static_cast<std::size_t>(pos_++)];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

std::uint64_t RandomState::nextUInt64() {
    const std::uint64_t hi = nextUInt32();
    return (hi << 32) | nextUInt32();
}

double RandomState::randomSample() {
    const std::uint32_t a = nextUInt32() >> 5;
    const std::uint32_t b = nextUInt32() >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

double RandomState::standardNormal() {
    if (hasGauss_) {
        hasGauss_ = false;
        const double g = gauss_;
        gauss_ = 0.0;
        return g;
    }
    double x1 = 0;
    double x2 = 0;
    double r2 = 0;
    do {
        x1 = 2.0 * randomSample() - 1.0;
        x2 = 2.0 * randomSample() - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss_ = f * x1;
    hasGauss_ = true;
    return f * x2;
}

std::uint64_t RandomState::interval(std::uint64_t max) {
    if (max == 0) {
        return 0;
    }
    const std::uint64_t mask = maskFor(max);
    std::uint64_t v = 0;
    if (max <= 0xFFFFFFFFull) {
        while ((v = (nextUInt32() & mask)) > max) {
        }
    } else {
        while ((v = (nextUInt64() & mask)) > max) {
        }
    }
    return v;
}

std::uint64_t RandomState::boundedUInt64(std::uint64_t off, std::uint64_t rng) {
    if (rng == 0) {
        return off;
    }
    if (rng <= 0xFFFFFFFFull) {
        if (rng == 0xFFFFFFFFull) {
            return off + nextUInt32();
        }
        const auto mask = static_cast<std::uint32_t>(maskFor(rng));
        std::uint32_t v = 0;
        while ((v = (nextUInt32() & mask)) > rng) {
        }
        return off + v;
    }
    if (rng == ~std::uint64_t{0}) {
        return off + nextUInt64();
    }
    const std::uint64_t mask = maskFor(rng);
    std::uint64_t v = 0;
    while ((v = (nextUInt64() & mask)) > rng) {
    }
    return off + v;
}

std::int64_t RandomState::randint(std::int64_t low, std::int64_t high) {
    return randintArray(low, high, 1)[0];
}

std::vector<std::int64_t> RandomState::randintArray(std::int64_t low, std::int64_t high,
                                                    std::size_t count, ir::DType dtype) {
    if (low >= high) {
        throw std::invalid_argument(low == 0 ? "high <= 0" : "low >= high");
    }
    std::int64_t lo = 0;
    std::uint64_t hi = 0;
    dtypeRange(dtype, lo, hi);
    const std::int64_t last = high - 1;  // numpy draws from the closed range [low, high - 1]
    if (low < lo) {
        throw std::invalid_argument("low is out of bounds for " +
                                    std::string(ir::dtypeName(dtype)));
    }
    if (last >= 0 && static_cast<std::uint64_t>(last) > hi) {
        throw std::invalid_argument("high is out of bounds for " +
                                    std::string(ir::dtypeName(dtype)));
    }
    const auto rng = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(low);
    const auto off = static_cast<std::uint64_t>(low);
    std::vector<std::int64_t> out(count);
    const bool small = dtype == ir::DType::Int8 || dtype == ir::DType::UInt8 ||
                       dtype == ir::DType::Int16 || dtype == ir::DType::UInt16;
    if (dtype == ir::DType::Bool) {
        // random_bounded_bool_fill: one bit of a buffered 32-bit draw per element.
        std::uint32_t buf = 0;
        int bcnt = 0;
        for (auto& o : out) {
            if (rng == 0) {
                o = static_cast<std::int64_t>(off);
                continue;
            }
            if (bcnt == 0) {
                buf = nextUInt32();
                bcnt = 31;
            } else {
                buf >>= 1;
                --bcnt;
            }
            o = static_cast<std::int64_t>(off) + static_cast<std::int64_t>(buf & 1u);
        }
    } else if (small) {
        // 8- and 16-bit fills take their draws from a buffered 32-bit value.
        const bool is8 = dtype == ir::DType::Int8 || dtype == ir::DType::UInt8;
        const std::uint32_t full = is8 ? 0xFFu : 0xFFFFu;
        const int perWord = is8 ? 3 : 1;
        const unsigned shift = is8 ? 8 : 16;
        std::uint32_t buf = 0;
        int bcnt = 0;
        auto draw = [&]() {
            if (bcnt == 0) {
                buf = nextUInt32();
                bcnt = perWord;
            } else {
                buf >>= shift;
                --bcnt;
            }
            return buf & full;
        };
        const auto mask = static_cast<std::uint32_t>(maskFor(rng));
        for (auto& o : out) {
            std::uint32_t v = 0;
            if (rng == 0) {
                v = 0;
            } else if (rng == full) {
                v = draw();
            } else {
                while ((v = (draw() & mask)) > rng) {
                }
            }
            // The sum wraps in the dtype's width, like numpy's unsigned arithmetic.
            o = static_cast<std::int64_t>(off + v);
            o = is8 ? (dtype == ir::DType::Int8
                           ? static_cast<std::int8_t>(o)
                           : static_cast<std::int64_t>(static_cast<std::uint8_t>(o)))
                    : (dtype == ir::DType::Int16
                           ? static_cast<std::int16_t>(o)
                           : static_cast<std::int64_t>(static_cast<std::uint16_t>(o)));
        }
    } else {
        for (auto& o : out) {
            o = static_cast<std::int64_t>(boundedUInt64(off, rng));
        }
    }
    return out;
}

std::vector<std::int64_t> RandomState::shuffledOrder(std::size_t n) {
    std::vector<std::int64_t> order(n);
    for (std::size_t i = 0; i < n; ++i) {
        order[i] = static_cast<std::int64_t>(i);
    }
    for (std::size_t i = n; i-- > 1;) {
        const auto j = static_cast<std::size_t>(interval(i));
        std::swap(order[i], order[j]);
    }
    return order;
}

std::vector<std::int64_t> RandomState::choice(std::size_t n, std::size_t count, bool replace) {
    if (n == 0 && count > 0) {
        throw std::invalid_argument("a cannot be empty unless no samples are taken");
    }
    if (replace) {
        if (count == 0) {
            return {};
        }
        return randintArray(0, static_cast<std::int64_t>(n), count);
    }
    if (count > n) {
        throw std::invalid_argument(
            "Cannot take a larger sample than population when 'replace=False'");
    }
    auto perm = shuffledOrder(n);
    perm.resize(count);
    return perm;
}

std::vector<std::int64_t> RandomState::choiceWeighted(std::span<const double> probs,
                                                      std::size_t count) {
    if (probs.empty()) {
        throw std::invalid_argument("a cannot be empty unless no samples are taken");
    }
    std::vector<double> cdf(probs.size());
    double acc = 0;
    for (std::size_t i = 0; i < probs.size(); ++i) {
        if (probs[i] < 0) {
            throw std::invalid_argument("probabilities are not non-negative");
        }
        acc += probs[i];
        cdf[i] = acc;
    }
    const double total = cdf.back();
    for (auto& c : cdf) {
        c /= total;
    }
    std::vector<std::int64_t> out(count);
    for (auto& o : out) {
        const double u = randomSample();
        o = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
    }
    return out;
}

std::vector<double> RandomState::randomSamples(std::size_t count) {
    std::vector<double> v(count);
    for (auto& x : v) {
        x = randomSample();
    }
    return v;
}

std::vector<double> RandomState::standardNormals(std::size_t count) {
    std::vector<double> v(count);
    for (auto& x : v) {
        x = standardNormal();
    }
    return v;
}

std::vector<double> RandomState::normals(double loc, double scale, std::size_t count) {
    std::vector<double> v(count);
    for (auto& x : v) {
        x = normal(loc, scale);
    }
    return v;
}

std::vector<double> RandomState::uniforms(double low, double high, std::size_t count) {
    std::vector<double> v(count);
    for (auto& x : v) {
        x = uniform(low, high);
    }
    return v;
}

}  // namespace irscope::runtime
