// The ops of the OpenCL plugin: which (op, dtypes) it runs, and their kernels, generated
// as OpenCL C per op and dtype combination and built once per device (ClDevice caches
// them). Semantics follow the registry's CPU kernels (core/ops/): result types, integer
// division by zero giving 0, NaN-propagating Maximum/Minimum, Cast truncating, etc.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cl_runtime.h"
#include "irscope_device.h"

namespace irscope_opencl {

// The op names the plugin implements (for some dtypes at least).
const std::vector<std::string>& opNames();

// Whether `op` runs on `dev` for tensor inputs of these dtypes producing these outputs.
bool supportsOp(const ClDevice& dev, std::string_view op, std::span<const std::int32_t> inputs,
                std::span<const std::int32_t> outputs);

// Enqueues the launch. Throws Unsupported or PluginError with a message.
void launchOp(ClDevice& dev, const irscope_launch& launch);

}  // namespace irscope_opencl
