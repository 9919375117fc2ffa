// Compares two IR texts off the UI thread: parses both as the IR views do (loadIrText),
// matches their nodes (ir::matchModules), diffs the texts (ir::diffIrText) and marks each
// side's graph-view nodes added, removed or changed. The compare views show the result.
#pragma once

#include <QString>

#include <memory>
#include <string_view>
#include <vector>

#include "graph_scene.h"
#include "ir/ir_diff.h"
#include "ir_loader.h"

namespace irscope::ui {

struct IrComparison {
    LoadedIr before, after;
    // Refers to the nodes of before.module and after.module (kept alive with them).
    std::shared_ptr<const ir::NodeMatching> matching;
    ir::TextDiff text;
    std::vector<NodeMark> beforeMarks, afterMarks;  // per graph-model node of each side
    QString error;  // a side that could not be parsed: its located error
    bool ok() const { return matching != nullptr; }
    // The counterpart on the other side of a node of `before` (fromBefore) or `after`.
    const ir::Node* counterpart(const ir::Node* n, bool fromBefore) const;
};

// Blocking; call it on a worker thread. Never throws.
IrComparison compareIr(std::string_view beforeText, const QString& beforeName,
                       std::string_view afterText, const QString& afterName);

// The marks of a graph model's nodes for one side of a comparison (constants: none).
std::vector<NodeMark> diffMarks(const GraphModel& model, const ir::NodeMatching& matching);

}  // namespace irscope::ui
