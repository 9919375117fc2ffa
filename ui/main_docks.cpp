#include "main_docks.h"

#include <QDockWidget>
#include <QListWidget>
#include <QMainWindow>
#include <QSignalBlocker>

#include "analyze_fail_dock.h"
#include "compilations_dock.h"
#include "execution_dock.h"
#include "node_inspector_dock.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "script_editor_dock.h"
#include "statistics_dock.h"

namespace irscope::ui {

MainDocks addMainDocks(QMainWindow* w) {
    MainDocks d;
    auto* graphs = new QDockWidget(QMainWindow::tr("Graphs"), w);
    graphs->setObjectName(QStringLiteral("graphsDock"));
    d.graphList = new QListWidget(graphs);
    d.graphList->setObjectName(QStringLiteral("graphList"));
    graphs->setWidget(d.graphList);
    w->addDockWidget(Qt::LeftDockWidgetArea, graphs);
    w->resizeDocks({graphs}, {320}, Qt::Horizontal);
    d.compilations = new CompilationsDock(w);
    w->addDockWidget(Qt::LeftDockWidgetArea, d.compilations);
    d.timeline = new PassTimelineDock(w);
    w->addDockWidget(Qt::LeftDockWidgetArea, d.timeline);
    d.output = new OutputDock(w);
    w->addDockWidget(Qt::BottomDockWidgetArea, d.output);
    w->resizeDocks({d.output}, {160}, Qt::Vertical);
    d.statistics = new StatisticsDock(w);
    w->addDockWidget(Qt::BottomDockWidgetArea, d.statistics);
    w->tabifyDockWidget(d.output, d.statistics);
    // Execution: runs the script under the debugger; shows the executed IR and its paused node.
    d.execution = new ExecutionDock(w);
    w->addDockWidget(Qt::BottomDockWidgetArea, d.execution);
    w->tabifyDockWidget(d.output, d.execution);
    d.output->raise();
    w->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    d.editor = new ScriptEditorDock(w);
    w->addDockWidget(Qt::RightDockWidgetArea, d.editor);
    w->resizeDocks({d.editor}, {380}, Qt::Horizontal);
    d.inspector = new NodeInspectorDock(w);
    w->splitDockWidget(d.editor, d.inspector, Qt::Vertical);
    // analyze_fail.ir: the failure and its traced call stack; a frame selects its node.
    d.failure = new AnalyzeFailDock(w);
    w->addDockWidget(Qt::LeftDockWidgetArea, d.failure);
    d.failure->hide();
    QObject::connect(d.inspector, &NodeInspectorDock::locationActivated, d.editor,
                     &ScriptEditorDock::showLocation);
    QObject::connect(d.execution, &ExecutionDock::printed, d.output, &OutputDock::append);
    return d;
}

void showGraphList(QListWidget* list, const LoadedIr& doc) {
    const QSignalBlocker blocker(list);
    list->clear();
    for (const GraphSummary& g : doc.graphs) {
        auto* item = new QListWidgetItem(QMainWindow::tr("@%1  (%2 params, %3 cnodes)")
                                             .arg(g.name)
                                             .arg(g.parameters)
                                             .arg(g.cnodes),
                                         list);
        item->setToolTip(g.name);
    }
}

}  // namespace irscope::ui
