#include "cli_mindir_run.h"

#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "ir/func_graph.h"
#include "ir/module.h"
#include "mindir/mindir.h"

namespace irscope::cli {

namespace {

// A Python string literal of arbitrary bytes (printable ASCII as is, the rest as \xNN).
std::string pyLiteral(std::string_view s) {
    std::string out = "'";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
            out += ch;
        } else {
            constexpr std::string_view kHex = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        }
    }
    return out + "'";
}

// How `irscope-cli run` draws an input of abstract `a`: uniform [0, 1) for floats, integers
// in [0, 10) for ints, 0/1 for bools, in numpy's dtype of the same name.
std::string inputExpr(const std::string& file, const std::string& name, const ir::Abstract& a) {
    std::string shape = "(";
    for (const std::int64_t d : a.shape.dims) {
        shape += std::to_string(d) + ", ";
    }
    if (a.shape.dims.size() > 1) {
        shape.resize(shape.size() - 2);
    } else if (a.shape.dims.size() == 1) {
        shape.pop_back();  // (3,)
    }
    shape += ")";
    std::string np;
    for (const char c : ir::dtypeName(a.dtype)) {
        np += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (ir::isFloat(a.dtype) && a.dtype != ir::DType::BFloat16) {
        return "np.random.uniform(0.0, 1.0, " + shape + ").astype(np." + np + ")";
    }
    if (ir::isInteger(a.dtype)) {
        return "np.random.randint(0, 10, " + shape + ").astype(np." + np + ")";
    }
    if (a.dtype == ir::DType::Bool) {
        return "np.random.randint(0, 2, " + shape + ").astype(np.bool_)";
    }
    throw std::runtime_error(file + ": the input '" + name + "' is of dtype " +
                             std::string(ir::dtypeName(a.dtype)) +
                             ", for which irscope-cli run draws no values; run the graph from a "
                             "script with nn.GraphCell and inputs of your own");
}

}  // namespace

bool isMindirScript(const std::string& path, const std::string& bytes) {
    return mindir::hasMindirExtension(path) ||
           mindir::detectEncryption(bytes) != mindir::Encryption::None;
}

std::string mindirRunScript(const std::string& path, const std::string& bytes,
                            const std::string& decKey) {
    mindir::ReadOptions o;
    o.decKey = decKey;
    o.baseDir = std::filesystem::path(path).parent_path().string();
    if (o.baseDir.empty()) {
        o.baseDir = ".";
    }
    const mindir::Model model = mindir::readMindir(bytes, path, o);  // throws MindirError
    const ir::FuncGraph* entry = model.module->entry();
    std::string inputs;
    std::string args;
    int k = 0;
    for (const ir::Parameter* p : entry->parameters()) {
        if (p->hasDefault()) {
            continue;  // a weight: GraphCell takes it from the file
        }
        const ir::AbstractPtr& a = p->abstract();
        if (!a || a->kind != ir::Abstract::Kind::Tensor || a->shape.dynamicRank ||
            !a->shape.isStatic()) {
            throw std::runtime_error(
                path + ": the input '" + p->name() + "' has no fixed tensor shape (" +
                (a ? a->shape.toString() : std::string("unknown")) +
                "); run the graph from a script with nn.GraphCell and inputs of your own");
        }
        const std::string var = "x" + std::to_string(k++);
        inputs += var + " = ms.Tensor(" + inputExpr(path, p->name(), *a) + ")\n";
        args += (args.empty() ? "" : ", ") + var;
    }
    const std::string file = std::filesystem::path(path).filename().string();
    std::string s;
    s += "# irscope-cli run " + file + ": the graph on inputs drawn with np.random.seed(0)\n";
    s += "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n";
    s += "np.random.seed(0)\n";
    s += "net = nn.GraphCell(ms.load(" + pyLiteral(file) +
         (decKey.empty() ? std::string() : ", dec_key=" + pyLiteral(decKey)) + "))\n";
    s += inputs;
    s += "out = net(" + args + ")\n";
    s += "print(out)\n";
    return s;
}

}  // namespace irscope::cli
