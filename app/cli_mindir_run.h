// `irscope-cli run FILE.mindir` and `irscope-cli debug FILE.mindir`: the Python script they
// run instead of a .py file. It loads the file with mindspore.load, wraps it in
// nn.GraphCell and calls it once on inputs of the graph's own shapes and dtypes drawn from
// numpy's generator seeded with 0 (as MindSpore Lite's benchmark fills inputs it was not
// given), then prints the output. The script is named after the MindIR file, so its folder
// is the file's folder and mindspore.load's confinement applies as to any script.
#pragma once

#include <string>

namespace irscope::cli {

// Whether `path` is to be run as a MindIR file (its extension, or an encrypted file's magic).
bool isMindirScript(const std::string& path, const std::string& bytes);

// The script for the MindIR file at `path`; `decKey` is passed to mindspore.load as dec_key.
// Throws mindir::MindirError for a file that cannot be read, std::runtime_error ("FILE: ...")
// when its entry graph has an input of unknown shape (then inputs must come from a script).
std::string mindirRunScript(const std::string& path, const std::string& bytes,
                            const std::string& decKey);

}  // namespace irscope::cli
