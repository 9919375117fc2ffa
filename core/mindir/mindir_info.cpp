// `irscope-cli info FILE.mindir`: what a MindIR file says about itself and what it holds.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "mindir/mindir.h"

namespace irscope::mindir {

namespace {

std::string humanBytes(std::uint64_t n) {
    if (n < 1024) {
        return fmt::format("{} B", n);
    }
    if (n < 1024 * 1024) {
        return fmt::format("{:.1f} KiB", static_cast<double>(n) / 1024.0);
    }
    return fmt::format("{:.1f} MiB", static_cast<double>(n) / (1024.0 * 1024.0));
}

}  // namespace

std::string formatInfo(const ModelInfo& info, const std::string& fileName) {
    std::string out = fmt::format("{}: MindIR\n", fileName);
    auto row = [&](std::string_view key, const std::string& value) {
        out += fmt::format("  {:<16}{}\n", key, value);
    };
    row("producer", info.producerName.empty() ? "(none)" : info.producerName);
    row("model_version", info.modelVersion.empty() ? "(none)" : info.modelVersion);
    row("ir_version", info.irVersion.empty() ? "(none)" : info.irVersion);
    row("mind_ir_version", std::to_string(info.mindIrVersion));
    row("byte order", !info.hasLittleEndian ? "not recorded (little-endian assumed)"
                      : info.littleEndian   ? "little-endian"
                                            : "big-endian");
    row("encryption", info.encryption == Encryption::None
                          ? "none"
                          : std::string(encryptionName(info.encryption)));
    row("node style", info.primitivesTable ? "1.7+ (op_type REF:: into the primitives table)"
                                           : "1.x (primitive name and attributes on each node)");
    row("graphs", std::to_string(info.graphs));
    row("nodes", fmt::format("{} operations, {} constants", info.nodes, info.constants));
    row("parameters", fmt::format("{} weights, {} bytes ({})", info.parameters, info.weightBytes,
                                  humanBytes(info.weightBytes)));
    if (info.externalFiles > 0) {
        row("external data",
            fmt::format("{} bytes from {} file(s)", info.externalBytes, info.externalFiles));
    }
    std::vector<std::pair<std::string, std::size_t>> ops(info.ops.begin(), info.ops.end());
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string list;
    for (const auto& [name, n] : ops) {
        list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", name, n);
    }
    row("ops", fmt::format("{} kinds: {}", ops.size(), list.empty() ? "(none)" : list));
    return out;
}

}  // namespace irscope::mindir
