// SaveGraphsInstrumentation: MindSpore's save_graphs. When the settings ask for it
// (MS_DEV_SAVE_GRAPHS, or set_context(save_graphs=...), at level 1 or more) it writes
// the IR after each pass as a .ir file into MS_DEV_SAVE_GRAPHS_PATH (default "."),
// creating the folder, with MindSpore's file names:
//
//   top-level pass:  <stage, 2 digits>_<action>_<serial, 4 digits>.ir
//                    00_parse_0000.ir  01_symbol_resolve_0001.ir  07_opt_a_0015.ir
//   group's child:   opt_substep_<group>_r<round>_<index>_<pass>_<serial>.ir
//                    opt_substep_opt_a_r0_5_cse_0011.ir
//
// The stage is the pass's index in the pipeline; the serial counts every file written in
// the session (MindSpore counts per process), so it keeps growing across compiles.
// Levels: 1 writes the top-level passes' files; 2 adds a group's children (opt_a's
// sub-passes); 3 also writes a Graphviz .dot (ir/export_dot.h) next to every .ir file.
// MS_DEV_DUMP_IR_PASSES (comma-separated names, "cse" or "opt_a/cse") filters the
// children's files at any level: when set, only the listed children are written (at level
// 1 too). Failed passes are not written.
//
// Write errors never throw: they are collected in errors() (the folder's failure once,
// then no more attempts).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "passes/pass_instrumentation.h"

namespace irscope::passes {

class SnapshotInstrumentation;

// The running serial number of save_graphs files; share one per session.
struct DumpSerial {
    int next = 0;
};

class SaveGraphsInstrumentation : public PassInstrumentation {
public:
    // `snapshots` (may be null) lends the text it printed for the same pass, saving a
    // second print; add it to the run after this one so its after-hook runs first.
    explicit SaveGraphsInstrumentation(std::shared_ptr<DumpSerial> serial = nullptr,
                                       const SnapshotInstrumentation* snapshots = nullptr);

    // The file name for `run` with serial number `serial` (without the folder).
    static std::string fileName(const PassRun& run, int serial);

    bool enabled() const { return enabled_; }
    const std::filesystem::path& directory() const { return dir_; }
    const std::vector<std::filesystem::path>& written() const { return written_; }
    const std::vector<std::string>& errors() const { return errors_; }

    void beforePipeline(const ir::Module&, const PassContext& ctx) override;
    void afterPass(const PassRun& run, const ir::Module& m, const PassContext&, bool) override;

private:
    bool wanted(const PassRun& run) const;
    // Writes one file, recording it in written() or the failure in errors().
    bool writeFile(const std::filesystem::path& file, const std::string& body);
    bool ensureDirectory();

    std::shared_ptr<DumpSerial> serial_;
    const SnapshotInstrumentation* snapshots_;
    bool enabled_ = false;
    int level_ = 0;
    std::vector<std::string> dumpPasses_;  // MS_DEV_DUMP_IR_PASSES entries
    std::filesystem::path dir_;
    bool dirReady_ = false;
    bool dirFailed_ = false;
    std::vector<std::filesystem::path> written_;
    std::vector<std::string> errors_;
};

}  // namespace irscope::passes
