// `irscope-cli diverge SCRIPT --a SETTINGS --b SETTINGS [--rtol R] [--atol A]`: runs the
// script under both settings and prints the first kernel whose outputs differ
// (session/divergence.h). Exit status: 0 nothing differs, 1 a difference was found (printed),
// 2 a usage error (bad option or setting, unknown device, a script that cannot be read or
// does not parse).
#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace irscope::cli {

using DivergeRunner = std::function<int(std::ostream& out, std::ostream& err)>;

// Declares diverge's options on `sub`; the returned runner reads them.
DivergeRunner declareDivergeCommand(CLI::App& sub);

}  // namespace irscope::cli
