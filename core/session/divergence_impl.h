// Inside the first-divergence search (session/divergence.h): the two traces' modules parsed
// back, their kernels indexed, each pair of modules matched once, and the walk over a's
// kernels in execution order.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/ir_diff.h"
#include "ir/ir_text.h"
#include "session/divergence.h"
#include "session/kernel_trace.h"

namespace irscope::session::detail {

// One printed module of a trace, parsed back, with its names.
struct TracedModule {
    std::unique_ptr<ir::Module> module;
    std::unique_ptr<KernelIndex> index;
    std::unique_ptr<ir::NodeLines> lines;
};

class TraceComparison {
public:
    TraceComparison(const KernelTrace& a, const KernelTrace& b, const store::Session& sa,
                    const store::Session& sb, const Tolerance& tol);
    // Fills r.first, r.graphRuns, r.compared, r.unmatched.
    void search(DivergenceResult& r) const;

private:
    const ir::NodeMatching& matching(std::size_t ma, std::size_t mb) const;
    // The kernel `k` of graph run `run` on `side`, described.
    DivergentKernel describe(int side, std::size_t run, std::size_t k) const;
    // The one-line explanation of a known pattern, if the divergence is one.
    std::string explain(const Divergence& d, std::size_t run,
                        const std::array<std::size_t, 2>& kernels,
                        const std::array<std::string, 2>& labels) const;

    std::array<const KernelTrace*, 2> traces_;
    std::array<const store::Session*, 2> sessions_;
    Tolerance tol_;
    std::array<std::vector<TracedModule>, 2> modules_;
    mutable std::map<std::pair<std::size_t, std::size_t>, ir::NodeMatching> matchings_;
};

// The stale reads of a kernel: for each Load feeding `node` (directly or through MakeTuple,
// Depend or TupleGetItem) of a Parameter that an Assign wrote after the Load ran and before
// `node` ran in graph run `run`, the Load and the last such Assign (trace positions).
struct StaleLoad {
    const ir::CNode* load = nullptr;
    const ir::CNode* assign = nullptr;
    std::size_t loadKernel = 0;    // position in the run's trace
    std::size_t assignKernel = 0;  // position in the run's trace
};
std::vector<StaleLoad> staleLoads(const TracedRun& run, const KernelIndex& index,
                                  const ir::CNode& node, std::uint64_t step);

// The latest position in `run` at which the kernel `key` ran before step `before`.
std::optional<std::size_t> lastRunBefore(const TracedRun& run, KernelKey key, std::uint64_t before);

std::string valueText(const std::optional<ops::KernelArg>& v);
// A one-element tensor as its number ("2", "0.5"); anything else as valueText.
std::string shortValue(const std::optional<ops::KernelArg>& v);

}  // namespace irscope::session::detail
