// The irscope main window. It opens .ir files (their graphs and normalised text) and .py
// scripts: a script runs on a worker thread into a Session (busy indicator, Cancel); the
// Compilations dock lists its compiles, the Pass timeline the selected compile's passes,
// and the selected pass's IR snapshot is parsed off the UI thread and shown in the graph
// view and the IR text. What the script printed goes to the Output dock; the Statistics
// dock charts the selected compile's pass times and node counts and totals every compile.
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QMainWindow>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "examples_catalog.h"
#include "exporter.h"
#include "ir_loader.h"
#include "graph_view.h"
#include "run_settings.h"
#include "script_loader.h"
#include "session/dump_folder.h"
#include "theme.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTimer;
class QToolButton;

namespace irscope::ui {

class AnalyzeFailDock;
class CompareView;
class SettingsCompareView;
struct SettingsChoice;
class CompilationsDock;
class NodeInspectorDock;
class ExecutionDock;
class OutputDock;
class PassTimelineDock;
class ScriptEditorDock;
class SessionSaver;
class StatisticsDock;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Starts loading `path` on a worker thread (.py: runs the script; a folder: reads it
    // as a save_graphs dump, see openFolder); emits loadFinished when done.
    void openFile(const QString& path);
    // The same with the key of an encrypted MindIR file. Opening one without its key (or
    // with a wrong one) shows a MindirKeyDialog, and Open loads the file again with its key.
    void openFile(const QString& path, const MindirKey& key);
    // Reads a save_graphs dump folder on a worker thread (progress, Cancel) and shows it as
    // a session: one compile per pipeline run found (session/dump_folder.h), each file a
    // pass of the Pass timeline. Files that do not parse are rows with their error.
    void openFolder(const QString& dir);
    // File ▸ Export without the file dialog: writes `kind` of what is shown to `path` (on a
    // worker thread for SVG and DOT); emits exportFinished. False when there is nothing
    // to export (the reason is in the status bar and exportFinished).
    bool exportTo(ExportKind kind, const QString& path);
    // Help ▸ Examples: applies the example's run settings, opens it, shows its explanation
    // in the guide banner and selects its compile and pass once loaded.
    void openExample(const ExampleInfo& example);
    const QList<ExampleInfo>& examples() const { return examples_; }
    void setTheme(Theme t);
    Theme theme() const { return theme_; }
    // The run settings the next script runs with (Run menu); persisted.
    const RunSettings& runSettings() const;
    void setRunSettings(const RunSettings& s);
    bool isLoading() const;
    // Loading, running a script, parsing a snapshot or laying out a graph.
    bool isBusy() const;
    // Stops the running script (its compiles so far are kept and shown).
    void cancelScript();
    // Saves the session shown to `path` (a .irscope file) on a worker thread; false when
    // there is none or a save is running. sessionSaver() reports the end.
    bool saveSession(const QString& path);
    SessionSaver* sessionSaver() const { return sessionSaver_; }
    const LoadedIr& document() const { return doc_; }
    // The session of the last script opened (null before one ran).
    std::shared_ptr<const session::Session> session() const { return session_; }
    const LoadedScript& script() const { return script_; }

    // Widgets exposed for tests.
    QPlainTextEdit* irTextView() const { return irText_; }
    QListWidget* graphList() const { return graphList_; }
    QLabel* errorBanner() const { return errorBanner_; }
    GraphView* graphView() const { return graphView_; }
    QLineEdit* graphSearch() const { return search_; }
    QTabWidget* viewTabs() const { return tabs_; }
    CompilationsDock* compilationsDock() const { return compilationsDock_; }
    PassTimelineDock* passTimelineDock() const { return timelineDock_; }
    OutputDock* outputDock() const { return outputDock_; }
    StatisticsDock* statisticsDock() const { return statisticsDock_; }
    ScriptEditorDock* scriptEditorDock() const { return editorDock_; }
    NodeInspectorDock* nodeInspectorDock() const { return inspectorDock_; }
    AnalyzeFailDock* failureDock() const { return failureDock_; }
    ExecutionDock* executionDock() const { return executionDock_; }
    CompareView* compareView() const { return compareView_; }
    SettingsCompareView* settingsCompareView() const { return settingsCompare_; }
    // Compare ▸ Settings…: the dialog, and running the open script under both settings.
    QAction* compareSettingsAction() const { return compareSettingsAction_; }
    void compareSettings(const SettingsChoice& choice);
    QWidget* busyIndicator() const;
    QLabel* guideBanner() const { return guideBanner_; }
    QLabel* runSettingsLabel() const { return runSettingsLabel_; }
    RunSettingsMenu* runSettingsMenu() const { return runMenu_; }

signals:
    void loadFinished(bool ok);
    // A pass snapshot's IR is shown (ok) or could not be parsed (the error banner says why).
    void snapshotShown(bool ok);
    // An export ended: `error` is empty when `path` was written.
    void exportFinished(const QString& path, const QString& error);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildMenus();
    void buildCompareMenu();
    // main_window_files.cpp: Open Folder, Export, Help ▸ Examples, Run settings, Theme.
    void addFileMenuItems(QMenu* file);
    void addRunMenu();
    void addViewMenuItems(QMenu* view);
    void addHelpMenuItems(QMenu* help);
    void restoreAppSettings();
    void onFolderLoaded();
    void showLoadedSession(std::shared_ptr<const session::Session> s, const QString& path);
    void askExport(ExportKind kind);
    void applyGuide();
    void showOpenDialog();
    void showSaveSessionDialog();
    void onLoaded();
    // Runs the script at `path`, or `source` named `path` (the editor's text) when given.
    void startScript(const QString& path, const std::optional<QByteArray>& source = std::nullopt);
    void runEditorScript();
    void onScriptFinished();
    void showCompile(const session::CompileRecord* compile);
    void showSnapshot(const session::CompileRecord* compile, int snapshot);
    void onSnapshotLoaded();
    void showDocument(LoadedIr doc);
    void setBusy(bool busy, const QString& what);
    void showError(const QString& text);
    void jumpToGraph(int row);
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    QWidget* buildGraphPanel(QWidget* parent);
    void runSearch();
    // Graph view <-> IR text: a selected node moves the text cursor to its line, and
    // putting the cursor on a node's line selects the node.
    void showNodeInText(const ir::Node* node);
    void selectNodeAtCursor();
    // One selection everywhere: `nodes` (the first one current) are selected in the graph
    // view, the current one shown in the IR text and the inspector, its source line
    // highlighted in the script; `from` is the panel the selection came from (left as is).
    enum class SelectionOrigin { Graph, IrText, Source, Inspector };
    void syncSelection(const std::vector<const ir::Node*>& nodes, SelectionOrigin from);
    // The script's line `line` (1-based): selects the nodes created from it.
    void selectNodesAtSourceLine(int line);
    std::vector<const ir::Node*> nodesAtSourceLine(int line) const;

    QTabWidget* tabs_ = nullptr;
    GraphView* graphView_ = nullptr;
    QLineEdit* search_ = nullptr;
    QLabel* searchStatus_ = nullptr;
    QStringList textLines_;
    bool syncing_ = false;
    QPlainTextEdit* irText_ = nullptr;
    QListWidget* graphList_ = nullptr;
    QLabel* errorBanner_ = nullptr;
    QLabel* countsLabel_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QFutureWatcher<LoadedIr> watcher_;
    LoadedIr doc_;

    CompilationsDock* compilationsDock_ = nullptr;
    PassTimelineDock* timelineDock_ = nullptr;
    OutputDock* outputDock_ = nullptr;
    StatisticsDock* statisticsDock_ = nullptr;
    ScriptEditorDock* editorDock_ = nullptr;
    NodeInspectorDock* inspectorDock_ = nullptr;
    AnalyzeFailDock* failureDock_ = nullptr;
    // The script line whose nodes were selected last (0: the selection came from elsewhere);
    // stepping to another pass selects that line's nodes in the new IR.
    int sourceLine_ = 0;
    ExecutionDock* executionDock_ = nullptr;
    SessionSaver* sessionSaver_ = nullptr;
    CompareView* compareView_ = nullptr;
    SettingsCompareView* settingsCompare_ = nullptr;
    QAction* compareSettingsAction_ = nullptr;
    QWidget* busy_ = nullptr;
    QProgressBar* busyBar_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QTimer* progressTimer_ = nullptr;  // while a script runs: its steps and time so far
    QElapsedTimer scriptClock_;
    QFutureWatcher<LoadedScript> scriptWatcher_;
    std::shared_ptr<session::ScriptRunner> runner_;
    LoadedScript script_;
    std::shared_ptr<const session::Session> session_;
    // Snapshot parsing: one at a time; a newer request waits in pending_ (older ones drop).
    QFutureWatcher<LoadedIr> snapshotWatcher_;
    struct SnapshotRequest {
        const session::CompileRecord* compile = nullptr;
        int snapshot = -1;
    };
    std::optional<SnapshotRequest> pendingSnapshot_;
    bool loadingIr_ = false;
    bool runningScript_ = false;
    bool loadingSnapshot_ = false;

    // main_window_files.cpp
    QFutureWatcher<session::DumpFolder> folderWatcher_;
    // Script runs and dump-folder reads, which can take as long as a script does, get threads
    // of their own: Qt's raster painting waits on the global pool, so long jobs there would
    // freeze the window. Declared after the watchers: destroyed (and waited for) first.
    QThreadPool longWork_;
    std::stop_source jobStop_;  // the script run's or folder read's cancellation
    QString folderPath_;
    bool loadingFolder_ = false;
    Exporter* exporter_ = nullptr;
    QList<ExampleInfo> examples_;
    std::optional<ExampleInfo> guide_;  // the example whose selection is pending / shown
    QLabel* guideBanner_ = nullptr;
    QLabel* runSettingsLabel_ = nullptr;
    RunSettingsMenu* runMenu_ = nullptr;
    Theme theme_ = Theme::System;
};

}  // namespace irscope::ui
