// Session: one run of one script — its text, the settings it started with, every compile
// it triggered (in order, each with its pass snapshots) and what it printed. The CLI and
// the GUI are two front ends over the same Session.
//
// Threads: a Session is built on a worker thread and handed over whole (moved, or by
// shared_ptr<const Session>) to the UI thread when the run is done; from then on it is
// only read, so readers need no locks. Nothing inside refers back to the interpreter, the
// compiler or a live Module: snapshots are self-contained text.
#pragma once

#include <string>
#include <vector>

#include "passes/settings.h"
#include "passes/compile_record.h"
#include "store/run_record.h"

namespace irscope::store {

struct Session {
    std::string scriptPath;
    std::string scriptText;
    passes::Settings settings;            // as the run started (each compile keeps its own copy)
    std::vector<passes::CompileRecord> compiles;  // in the order the script triggered them
    std::vector<RunRecord> runs;          // every execution of a compiled graph, in order
    std::string output;                   // what the script printed (stdout and stderr interleaved)
};

}  // namespace irscope::store
