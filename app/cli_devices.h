// `irscope-cli devices`: the devices the plugin loader finds (the CPU first), each with its
// description, memory, plugin file and ops coverage against the registry's kernel ops
// (`-v` also names the ops it lacks), then the plugins that failed to load (stderr).
#pragma once

#include <iosfwd>

namespace irscope::cli {

// Prints the listing; returns the exit status (0: listed, even when plugins failed).
int listDevices(bool verbose, std::ostream& out, std::ostream& err);

}  // namespace irscope::cli
