// Pass statistics of one compile as a text table (irscope-cli run --pass-stats), in the
// spirit of LLVM's -time-passes: a header with the graph, its signature, the trigger and
// the settings; one row per pass with its path (opt_a's sub-passes indented under opt_a,
// with their round), wall ms, % of the compile, graphs, nodes and cnodes after it, the
// change in nodes since the snapshot before it, a `*` when the IR changed (`error` when
// the pass failed) and the memory plan's peak bytes once there is one; a total line.
#pragma once

#include <cstddef>
#include <string>

#include "session/compile_record.h"

namespace irscope::session {

// `index` is the compile's position in the session (printed 1-based).
std::string formatPassStats(const CompileRecord& rec, std::size_t index);

}  // namespace irscope::session
