// Reading a save_graphs dump folder back as a Session: MindSpore's (and irscope-cli run
// --save-graphs') one .ir file per pass becomes a CompileRecord whose snapshots are the
// files, so the views made for a script's compiles (Pass timeline, Statistics, Compare)
// show a dump without a second model.
//
// File names understood (passes/save_graphs_instrumentation.h writes the first two):
//   <stage>_<pass>_<serial>.ir                          00_parse_0000.ir, 07_opt_a_0015.ir
//   opt_substep_<group>_r<round>_<index>_<pass>_<serial>.ir   a group's child (opt_a/cse)
//   any other *.ir (hwopt_*, graph_build_*, ...)         a backend pass named by the file
// Files with a serial are ordered by it (the order they were written, children before
// their group); the others follow, in natural name order. A folder holds one compile per
// pipeline run: a new compile starts where a top-level file's stage does not grow
// (00_parse after 12_task_emit). Each compile is named after the entry graph of its first
// file that parses.
//
// Per file: the graphs, nodes and cnodes of its IR, and `changed` when its normalised text
// differs from the snapshot before it (a group: from the IR before its first child; the
// first file: from the empty module, so it is always changed). A
// file that does not parse stays in the sequence as a snapshot with `error` set to the
// parser's `file:line:col: error: ...` and the counts of the snapshot before it; the rest
// still load. Times are unknown (0 ms). Snapshots keep the file's own bytes.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "store/session.h"

namespace irscope::session {

// One .ir file of a dump folder, as its name reads.
struct DumpFileName {
    std::string pass;     // "parse", "opt_a/cse", "hwopt_d_ir_fusion_before_graph"
    int stage = -1;       // the leading 2-digit stage; -1 for a child or a backend file
    int serial = -1;      // the trailing serial; -1 when the name has none
    int depth = 0;        // 1 for opt_substep_ files
    int round = 0;        // opt_substep_: the group's round
    int index = 0;        // opt_substep_: the child's index in the group
};

// Reads a file name (without folder); false when it does not end in ".ir".
bool parseDumpFileName(const std::string& fileName, DumpFileName* out);

struct DumpFolder {
    std::shared_ptr<store::Session> session;  // null only when the folder cannot be read
    std::string error;                 // why not, or the first file that failed to parse
    int files = 0;                     // .ir files found
    int failed = 0;                    // of them, files that did not parse
    bool cancelled = false;
};

// Called after each file with (files done, files in all).
using DumpProgress = std::function<void(int done, int total)>;

// Blocking; call it on a worker thread. Never throws. An empty folder (no .ir file) gives
// a Session with no compile and an error saying so. request_stop() on the source of `stop`
// (from any thread) stops the read after the file being read: the result is `cancelled`
// and holds the files read so far.
DumpFolder loadDumpFolder(const std::filesystem::path& dir, const DumpProgress& progress = {},
                          std::stop_token stop = {});

// The plain-language description of an irscope pass ("cse" or "opt_a/cse"), empty for a
// pass irscope does not run.
std::string passDescription(const std::string& pass);

}  // namespace irscope::session
