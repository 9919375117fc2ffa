// The main window's docks and their layout: Graphs, Compilations, Pass timeline and Failure
// on the left; Output, Statistics and Execution tabbed at the bottom; the script editor over
// the node inspector in a full-height column on the right. Links the docks among themselves
// (the inspector's locations open in the editor, the debugger's prints go to the Output).
#pragma once

#include "ir_loader.h"

class QListWidget;
class QMainWindow;

namespace irscope::ui {

class AnalyzeFailDock;
class CompilationsDock;
class ExecutionDock;
class NodeInspectorDock;
class OutputDock;
class PassTimelineDock;
class ScriptEditorDock;
class StatisticsDock;

struct MainDocks {
    QListWidget* graphList = nullptr;  // the Graphs dock's list
    CompilationsDock* compilations = nullptr;
    PassTimelineDock* timeline = nullptr;
    OutputDock* output = nullptr;
    StatisticsDock* statistics = nullptr;
    ExecutionDock* execution = nullptr;
    ScriptEditorDock* editor = nullptr;
    NodeInspectorDock* inspector = nullptr;
    AnalyzeFailDock* failure = nullptr;  // hidden until an analyze_fail.ir is shown
};

MainDocks addMainDocks(QMainWindow* w);

// The Graphs dock's rows: `doc`'s graphs with their parameter and CNode counts.
void showGraphList(QListWidget* list, const LoadedIr& doc);

}  // namespace irscope::ui
