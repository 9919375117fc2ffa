// numpy's legacy random generator (np.random.seed / np.random.RandomState), bit for bit:
// MT19937 seeded like numpy, 53-bit doubles from two 32-bit draws, the polar Box-Muller
// normal with its cached second value, and the masked-rejection integer sampling that
// RandomState.randint uses. Scripts that seed numpy print the same numbers under irscope.
//
// Every array-filling call draws in C (row-major) order, exactly like numpy filling an array
// of that many elements, so `randn(2, 3)` is six successive standardNormal() values.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ir/types.h"

namespace irscope::runtime {

class RandomState {
public:
    // Seeded from std::random_device, like an unseeded np.random.
    RandomState();
    explicit RandomState(std::uint32_t seed) { seed32(seed); }

    // np.random.seed(int): numpy accepts 0 <= seed <= 2**32 - 1 and raises
    // ValueError("Seed must be between 0 and 2**32 - 1") otherwise; this throws
    // std::invalid_argument with that message.
    void seed(std::int64_t seed);
    // MT19937 init_genrand.
    void seed32(std::uint32_t seed);
    // np.random.seed([a, b, ...]): MT19937 init_by_array (each key element < 2**32).
    void seedArray(std::span<const std::uint32_t> key);

    std::uint32_t nextUInt32();
    std::uint64_t nextUInt64();  // high word drawn first

    // random_sample / rand / random: a double in [0, 1) with 53 random bits.
    double randomSample();
    // standard_normal / randn (legacy polar method; every second call uses the cache).
    double standardNormal();
    // normal(loc, scale) = loc + scale * standardNormal().
    double normal(double loc, double scale) { return loc + scale * standardNormal(); }
    // uniform(low, high) = low + (high - low) * randomSample().
    double uniform(double low, double high) { return low + (high - low) * randomSample(); }

    // randint(low, high) for the default int64 dtype: a value in [low, high). Throws
    // std::invalid_argument("low >= high" / "high <= 0") when the range is empty.
    std::int64_t randint(std::int64_t low, std::int64_t high);
    // randint(low, high, size=count, dtype=...): numpy's bounded fill for that dtype
    // (8- and 16-bit dtypes and bool share 32-bit draws between elements).
    std::vector<std::int64_t> randintArray(std::int64_t low, std::int64_t high, std::size_t count,
                                           ir::DType dtype = ir::DType::Int64);

    // random_interval(max): a value in [0, max], masked rejection.
    std::uint64_t interval(std::uint64_t max);
    // The order shuffle() leaves arange(n) in (it swaps i with interval(i), i = n-1 .. 1).
    // shuffle(x) of any sequence is x[shuffledOrder(len(x))]; permutation(n) is this.
    std::vector<std::int64_t> shuffledOrder(std::size_t n);
    std::vector<std::int64_t> permutation(std::size_t n) { return shuffledOrder(n); }
    // choice(n, size=count, replace) with uniform probabilities: indices into the population.
    std::vector<std::int64_t> choice(std::size_t n, std::size_t count, bool replace = true);
    // choice(n, size=count, replace=True, p=probs): inverse-CDF sampling as numpy does it.
    std::vector<std::int64_t> choiceWeighted(std::span<const double> probs, std::size_t count);

    std::vector<double> randomSamples(std::size_t count);
    std::vector<double> standardNormals(std::size_t count);
    std::vector<double> normals(double loc, double scale, std::size_t count);
    std::vector<double> uniforms(double low, double high, std::size_t count);

private:
    void reload();
    std::uint64_t boundedUInt64(std::uint64_t off, std::uint64_t rng);

    static constexpr int kN = 624;
    std::array<std::uint32_t, kN> key_{};
    int pos_ = kN;
    bool hasGauss_ = false;
    double gauss_ = 0.0;
};

}  // namespace irscope::runtime
