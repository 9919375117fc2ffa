// Pass statistics of one compile as a text table (irscope-cli run --pass-stats), in the
// spirit of LLVM's -time-passes: a header with the graph, its signature, the trigger and
// the settings; one row per pass with its path (opt_a's sub-passes indented under opt_a,
// with their round), wall ms, % of the compile, graphs, nodes and cnodes after it, the
// change in nodes since the snapshot before it, a `*` when the IR changed (`error` when
// the pass failed) and the memory plan's peak bytes once there is one; a total line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "passes/compile_record.h"

namespace irscope::session {

// The snapshots' indices in display order: a group (opt_a) before its children, each
// snapshot once (snapshots are stored in finishing order, children first).
std::vector<std::size_t> passDisplayOrder(const passes::CompileRecord& rec);

// The snapshot holding the IR a snapshot's pass started from: the one before it in
// finishing order (for a group: before its first child). nullopt for the first pass.
std::optional<std::size_t> previousSnapshot(const passes::CompileRecord& rec, std::size_t snapshot);

// The change in node count a snapshot made: against previousSnapshot(). nullopt for the
// first pass.
std::optional<long long> nodeDelta(const passes::CompileRecord& rec, std::size_t snapshot);

// `index` is the compile's position in the session (printed 1-based).
std::string formatPassStats(const passes::CompileRecord& rec, std::size_t index);

}  // namespace irscope::session
