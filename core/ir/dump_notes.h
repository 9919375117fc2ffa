// Reading what a MindSpore dump says beyond the graph (DumpNotes in node.h): the device types
// of kernel graphs, and the failure and traced call stack of analyze_fail.ir.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace irscope::ir {

// `<Float32xDefaultFormat[const vector][32, 1, 32, 32]>` (angle brackets included) as MindSpore's
// kernel dump prints a device tensor: type, then `x`, format and device shape when a format is
// set. nullopt for text of another form.
std::optional<DeviceTensor> parseDeviceTensor(std::string_view text);
std::string formatDeviceTensor(const DeviceTensor& t);

// One frame of analyze_fail.ir's traced call stack: the node after a
// `#------------------------> N` marker, in the graph being evaluated at that depth.
struct StackFrame {
    int index = 0;
    const CNode* node = nullptr;
};

// What analyze_fail.ir tells about a failed compile. MindSpore 2.2.1x and later write the
// exception, the C++ call stack and the traceback of the network's code in a banner; 2.0 to
// 2.2.0 write only a short notice (the exception went to the log).
struct AnalyzeFailure {
    std::vector<std::string> notice;     // the `# ===` lines before the first section
    std::string exception;               // `- Caught exception:` (several lines joined)
    std::vector<std::string> cppStack;   // `- C++ Call Stack:`
    std::vector<std::string> traceback;  // `- The Traceback of Net Construct Code:`
    std::vector<StackFrame> frames;      // by marker number; the last one failed
    // A banner or at least one marker was found.
    bool present() const { return !frames.empty() || !notice.empty() || !exception.empty(); }
    // The node where inference failed (the last marker's), or nullptr.
    const CNode* failed() const { return frames.empty() ? nullptr : frames.back().node; }
};

AnalyzeFailure analyzeFailure(const Module& m);

// `irscope-cli dump --trace`: the failure and every frame (number, graph, node line as printIr
// writes it, the node's innermost source line), the failed frame marked.
std::string formatFailure(const Module& m, const AnalyzeFailure& f);

}  // namespace irscope::ir
