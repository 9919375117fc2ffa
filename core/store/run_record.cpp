#include "store/run_record.h"

#include <fmt/format.h>

namespace irscope::store {

namespace {

std::string shapeText(const ir::Shape& s) {
    std::string out = "(";
    for (std::size_t i = 0; i < s.dims.size(); ++i) {
        out += (i ? ", " : "") + std::to_string(s.dims[i]);
    }
    return out + ")";
}

}  // namespace

std::string summarizeOutput(const ops::KernelArg& a) {
    if (a.isTensor()) {
        return "Tensor[" + std::string(ir::dtypeName(a.tensor().dtype())) + "]" +
               shapeText(a.tensor().shape());
    }
    if (a.isTuple()) {
        std::string out = "(";
        for (std::size_t i = 0; i < a.elements().size(); ++i) {
            out += (i ? ", " : "") + summarizeOutput(a.elements()[i]);
        }
        return out + (a.elements().size() == 1 ? ",)" : ")");
    }
    if (a.isValue() && a.value()) {
        switch (a.value()->kind) {
            case ir::Value::Kind::Bool:
                return "Bool";
            case ir::Value::Kind::Int:
                return "Int64";
            case ir::Value::Kind::Float:
                return "Float32";
            case ir::Value::Kind::String:
                return "String";
            case ir::Value::Kind::None:
                return "None";
            default:
                return "Value";
        }
    }
    return "None";
}

std::string formatRunStats(const RunRecord& r, std::size_t index) {
    const runtime::RunStats& s = r.stats;
    std::string out = fmt::format("run {}: @{} on {}{}\n", index + 1, r.graphName, s.device,
                                  r.error.empty() ? "" : " (failed: " + r.error + ")");
    if (s.device == "cpu") {
        out += fmt::format("  kernels:  {} (all on the CPU)\n", s.kernels);
    } else {
        out += fmt::format("  kernels:  {} ({} on {}, {} on the CPU, {} fallbacks)\n", s.kernels,
                           s.kernelsOnDevice, s.device, s.kernels - s.kernelsOnDevice,
                           s.fallbacks);
        auto list = [](const std::map<std::string, std::uint64_t, std::less<>>& ops) {
            std::string text;
            for (const auto& [op, n] : ops) {
                text += (text.empty() ? "" : ", ") + op + " x" + std::to_string(n);
            }
            return text.empty() ? std::string("-") : text;
        };
        out += "  on " + s.device + ": " + list(s.opsOnDevice) + "\n";
        out += "  on cpu:   " + list(s.opsOnCpu) + "\n";
        out += fmt::format("  copies:   {} to the device, {} to the host, {} bytes\n",
                           s.copiesToDevice, s.copiesToHost, s.bytesCopied);
    }
    out += fmt::format("  memory:   peak {} bytes (planned {})\n", s.peakBytes,
                       s.plannedPeakBytes);
    out += fmt::format("  time:     {:.3f} ms\n", s.millis);
    out += "  outputs:  " + r.outputs + "\n";
    return out;
}

}  // namespace irscope::store
