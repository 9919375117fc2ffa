// The options `irscope-cli run` and `irscope-cli debug` share: --load-elim N and
// --cell-reuse N (MS_DEV_SIDE_EFFECT_LOAD_ELIM / MS_DEV_CELL_REUSE for this run, over the
// environment) and --device NAME (where compiled graphs run; the CPU runs what it lacks).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace irscope::compiler {
struct CompilerOptions;
}

namespace irscope::cli {

// The exit status of a usage error (a bad option or device).
inline constexpr int kExitUsage = 2;

// A whole file's bytes, or nullopt with `*error` set ("cannot open PATH: REASON", or
// "cannot read ..."): a folder, a missing or unreadable file. Every subcommand reads its
// script or input through it.
std::optional<std::string> readWholeFile(const std::string& path, std::string* error);

struct RunOptionArgs {
    std::optional<std::int64_t> loadElim;
    std::optional<std::int64_t> cellReuse;
    std::string device = "cpu";
    bool verifyEach = false;  // --verify-each
    std::string decKey;       // --dec-key: the key of an encrypted MindIR file run directly
};

// Declares the options on `sub`, writing into `args` (which must outlive `sub`'s parse).
void addRunOptions(CLI::App& sub, RunOptionArgs& args);

// Sets `options` from `args`: the settings overrides, and the device found by name. A device
// that cannot be found is a usage error written to `err` (the devices found, then plugin
// failures); returns false then.
bool applyRunOptions(const RunOptionArgs& args, compiler::CompilerOptions& options,
                     std::ostream& err);

}  // namespace irscope::cli
