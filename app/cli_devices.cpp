#include "cli_devices.h"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "ops/op_registry.h"
#include "runtime/plugin_loader.h"

namespace irscope::cli {

namespace {

std::string bytesText(std::uint64_t b) {
    if (b == 0) {
        return "unknown";
    }
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(b);
    std::size_t u = 0;
    while (v >= 1024.0 && u + 1 < std::size(units)) {
        v /= 1024.0;
        ++u;
    }
    return fmt::format("{:.1f} {}", v, units[u]);
}

// The registry ops with a tensor kernel, sorted: structural ones (MakeTuple, Switch...) run
// in the executor itself and the scalar family on Python numbers, never on a device.
std::vector<std::string> kernelOps() {
    std::vector<std::string> names;
    for (const auto& op : ops::OpRegistry::instance().ops()) {
        if (op->cpuKernel && op->family != "scalar") {
            names.push_back(op->name);
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

void coverage(std::ostream& out, const std::vector<std::string>& claimed,
              const std::vector<std::string>& all, bool verbose) {
    std::vector<std::string> missing;
    std::size_t have = 0;
    for (const auto& op : all) {
        if (std::find(claimed.begin(), claimed.end(), op) != claimed.end()) {
            ++have;
        } else {
            missing.push_back(op);
        }
    }
    out << fmt::format("    ops: {} of {} registry ops ({}%)\n", have, all.size(),
                       all.empty() ? 100 : have * 100 / all.size());
    if (verbose && !missing.empty()) {
        std::string line;
        for (const auto& m : missing) {
            line += (line.empty() ? "" : ", ") + m;
        }
        out << "    missing: " << line << "\n";
    }
}

}  // namespace

int listDevices(bool verbose, std::ostream& out, std::ostream& err) {
    const runtime::PluginScan scan = runtime::scanDevicePlugins();
    const std::vector<std::string> all = kernelOps();
    out << "cpu\n    the registry's CPU kernels (Eigen), always available\n";
    coverage(out, all, all, verbose);
    for (const runtime::DevicePtr& d : scan.devices) {
        const runtime::DeviceInfo& info = d->info();
        out << info.name << "\n";
        if (!info.description.empty()) {
            out << "    " << info.description << "\n";
        }
        out << "    memory: " << bytesText(info.memoryBytes) << "\n";
        out << "    plugin: " << info.plugin << "\n";
        coverage(out, d->supportedOps(), all, verbose);
    }
    if (scan.devices.empty()) {
        out << "(no device plugin found; searched:";
        for (const auto& p : runtime::pluginSearchPath()) {
            out << " " << p.string();
        }
        out << ")\n";
    }
    out.flush();
    for (const std::string& e : scan.errors) {
        err << "irscope-cli: warning: " << e << "\n";
    }
    return 0;
}

}  // namespace irscope::cli
