// Compile statistics as CSV (File ▸ Export ▸ Statistics in the desktop app): RFC 4180
// text with a header row naming the columns, one record per line, numbers unformatted
// (no thousands separators, '.' as the decimal point), empty fields for unknown values.
#pragma once

#include <string>

#include "store/session.h"

namespace irscope::session {

// One row per pass of `rec` in display order (passDisplayOrder: opt_a before its
// sub-passes, which are included), columns:
//   index,pass,depth,round,wall_ms,graphs,nodes,cnodes,delta_nodes,changed,peak_bytes,error
// `pass` is the path ("opt_a/cse"), `round` 0-based (empty for a top-level pass),
// `changed` 1 or 0, `delta_nodes` empty for the first pass.
std::string passStatsCsv(const passes::CompileRecord& rec);

// One row per compile of `s`, in order, columns:
//   index,graph,signature,status,failed_pass,total_ms,passes,nodes_parse,nodes_opt_a,nodes_final,
//   cnodes_final,graphs_final,peak_bytes
// (`nodes_parse`/`nodes_opt_a` empty when the compile has no such pass).
std::string compileTotalsCsv(const store::Session& s);

// A field quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string csvField(const std::string& text);

}  // namespace irscope::session
