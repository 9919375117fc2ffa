// The Node inspector's rows for what a read MindSpore dump says about a node beyond the IR
// (ir::DumpNotes): a kernel graph's device types and formats chosen by kernel selection and
// whether a parameter is a weight, the analyze_fail.ir stack frame the node is in, a
// reference the file does not define, a call of a graph the file does not contain, and
// lines kept verbatim.
#pragma once

#include "ir/node.h"

class QTreeWidget;

namespace irscope::ui {

// Adds a "Kernel" section and a "Dump" section to `tree` when `node` has something for them.
void addDumpSections(QTreeWidget* tree, const ir::Node* node);

}  // namespace irscope::ui
