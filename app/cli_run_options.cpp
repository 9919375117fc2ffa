#include "cli_run_options.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <vector>

#include "compiler/graph_compiler.h"
#include "passes/settings.h"
#include "passes/verifier_instrumentation.h"
#include "runtime/plugin_loader.h"

namespace irscope::cli {

void addRunOptions(CLI::App& sub, RunOptionArgs& args) {
    sub.add_option("--load-elim", args.loadElim,
                   "MS_DEV_SIDE_EFFECT_LOAD_ELIM for this run (0-3; 3 skips the copies "
                   "and may compute wrong values)")
        ->check(CLI::Range(0, 3));
    sub.add_option("--cell-reuse", args.cellReuse,
                   "MS_DEV_CELL_REUSE for this run (0 off, 1 lazy inline, 2 lazy inline "
                   "then inline in task_emit)")
        ->check(CLI::Range(0, 2));
    sub.add_option("--device", args.device,
                   "where compiled graphs run: cpu (default), opencl, opencl:N or a "
                   "plugin device's name (see 'irscope-cli devices'); kernels the device "
                   "lacks run on the CPU");
    sub.add_flag("--verify-each", args.verifyEach,
                 "verify the IR after every pass and fail naming the pass that broke it "
                 "(always on in debug builds and with IRSCOPE_VERIFY_EACH=1)");
    sub.add_option("--dec-key", args.decKey,
                   "running a MindIR file: the key it was encrypted with (its enc_key, as text)");
}

bool applyRunOptions(const RunOptionArgs& args, compiler::CompilerOptions& options,
                     std::ostream& err) {
    if (args.verifyEach) {
        passes::setVerifyEachPass(true);
    }
    if (args.loadElim) {
        options.overrides.set(std::string(passes::kSideEffectLoadElim), *args.loadElim);
    }
    if (args.cellReuse) {
        options.overrides.set(std::string(passes::kCellReuse), *args.cellReuse);
    }
    if (args.device == "cpu") {
        return true;
    }
    std::vector<std::string> errors;
    options.device = runtime::findDevice(args.device, &errors);
    if (!options.device) {
        err << "irscope-cli: error: --device: "
            << (errors.empty() ? "no device named '" + args.device + "'" : errors.front())
            << "\n";
        for (std::size_t i = 1; i < errors.size(); ++i) {
            err << "  " << errors[i] << "\n";
        }
        return false;
    }
    return true;
}

std::optional<std::string> readWholeFile(const std::string& path, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        *error = "cannot open " + path + ": " + std::strerror(EISDIR);
        return std::nullopt;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = "cannot open " + path + ": " + std::strerror(errno != 0 ? errno : ENOENT);
        return std::nullopt;
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) {
        *error = "cannot read " + path + ": " + std::strerror(errno != 0 ? errno : EIO);
        return std::nullopt;
    }
    return std::move(buf).str();
}

}  // namespace irscope::cli
