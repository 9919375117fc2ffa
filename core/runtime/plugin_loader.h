// Loads device plugins (shared libraries implementing plugins/include/irscope_device.h)
// and wraps each of their devices into a runtime::Device.
//
// Where plugins are looked for, in order:
//  1. IRSCOPE_PLUGIN_PATH: a colon-separated list of directories (every lib*.so / *.so in
//     them) and files;
//  2. the install's plugin folder, <directory of the executable>/../lib/irscope/plugins
//     (the build puts the plugins in build/lib/irscope/plugins).
// A library found twice (same real path) is loaded once. Loaded plugins stay loaded for
// the life of the process, and their devices are opened once and shared by every scan.
//
// A plugin that cannot be loaded, lacks the entry point, has another ABI major or fails
// while enumerating gives one message naming its file; it never takes irscope down. Every
// call through a plugin device throws DeviceError with the plugin's message on failure.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/device.h"

namespace irscope::runtime {

struct PluginScan {
    std::vector<DevicePtr> devices;   // in the order found
    std::vector<std::string> errors;  // one per plugin (or device) that failed
};

// Every device of every plugin found, and a message per plugin that failed.
PluginScan scanDevicePlugins();

// The device named `name` ("opencl", "opencl:1", ...). "cpu" gives nullptr without an
// error (the CPU is not a Device). An unknown name gives nullptr and, when `errors` is
// given, a message listing the devices found followed by the plugins' errors.
DevicePtr findDevice(std::string_view name, std::vector<std::string>* errors);

// The directories and files searched, in order (for messages and `irscope-cli devices`).
std::vector<std::filesystem::path> pluginSearchPath();

// The plugin at `file` alone (loaded once, like the scan's): its devices, or the error
// naming the file. For tests and tools.
PluginScan loadDevicePlugin(const std::filesystem::path& file);

}  // namespace irscope::runtime
