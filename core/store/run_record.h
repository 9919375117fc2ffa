// RunRecord: one execution of a compiled graph (a GRAPH_MODE Cell or @jit call after its
// compile): which graph, what ran where (device, kernels on it, fallbacks, copies), its
// outputs in short, its wall time and the memory it really held against the plan.
#pragma once

#include <cstddef>
#include <string>

#include "ops/op_registry.h"
#include "runtime/executor.h"

namespace irscope::store {

struct RunRecord {
    std::string graphName;     // the entry graph: "Net_construct"
    std::size_t compile = 0;   // index of its CompileRecord in Session::compiles
    runtime::RunStats stats;   // device, kernels, copies, millis, peak vs planned bytes
    std::string outputs;       // summary: "(Tensor[Int32](), Tensor[Float32](2, 3))"
    // The outputs' values as the Print operator writes them (one line per tuple element),
    // cut after kMaxValuesChars characters: what a compare view sets side by side.
    std::string values;
    static constexpr std::size_t kMaxValuesChars = 2000;
    std::string error;         // non-empty when the run failed
};

// "Tensor[Float32](2, 3)", "Int64", "(Tensor[Int32](), None)": the dtypes and shapes of a
// run's output, without values.
std::string summarizeOutput(const ops::KernelArg& a);

// The --run-stats text of one run (one line per item, `index` printed 1-based): device,
// kernels (on the device / fallbacks), copies, peak vs planned bytes, time.
std::string formatRunStats(const RunRecord& r, std::size_t index);

}  // namespace irscope::store
