// The irscope main window: wiring only. It opens .ir files (their graphs and normalised
// text), .py scripts, saved sessions and save_graphs dump folders through its
// SessionController (session_controller.h: the jobs, their cancellation, the session and
// its snapshots), and shows what comes back: the Compilations dock lists a session's
// compiles, the Pass timeline the selected compile's passes, the graph view (GraphPanel)
// and the IR text the selected pass's IR, linked by one selection (SelectionSync); the
// Output dock what the script printed; the Statistics dock its pass times and node counts.
#pragma once

#include <QMainWindow>

#include <memory>
#include <optional>

#include "exporter.h"
#include "graph_view.h"
#include "main_docks.h"
#include "main_menus.h"
#include "run_settings.h"
#include "session_controller.h"
#include "theme.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;

namespace irscope::ui {

class CompareView;
class GraphPanel;
class SelectionSync;
class SessionSaver;
class SettingsCompareView;
struct SettingsChoice;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Opens `path`: a .py script runs, a saved session or an .ir / .mindir file loads, a
    // folder is read as a save_graphs dump (openFolder); loadFinished follows. With `key`: an
    // encrypted MindIR file's (without it, a MindirKeyDialog asks and loads again).
    void openFile(const QString& path, const MindirKey& key = {});
    // Reads a dump folder as a session: one compile per pipeline run found, each file a pass.
    void openFolder(const QString& dir);
    // File ▸ Export without the dialog: writes `kind` of what is shown to `path` (exportFinished
    // follows); false when there is nothing to export (the reason in the status bar).
    bool exportTo(ExportKind kind, const QString& path);
    // Help ▸ Examples: applies its run settings, opens it, explains it in the guide banner
    // and selects its compile and pass once loaded.
    void openExample(const ExampleInfo& example);
    const QList<ExampleInfo>& examples() const { return menus_.examples; }
    void setTheme(Theme t);
    Theme theme() const { return theme_; }
    // The run settings the next script runs with (Run menu); persisted.
    const RunSettings& runSettings() const { return menus_.run->settings(); }
    void setRunSettings(const RunSettings& s);
    bool isLoading() const { return controller_->isBusy(); }
    // Loading, running a script, parsing a snapshot or laying out a graph.
    bool isBusy() const;
    // Stops the running script or folder read (what it made so far is kept and shown).
    void cancelScript() { controller_->cancel(); }
    // Saves the session shown to `path` on a worker thread; false when there is none or a
    // save is running. sessionSaver() reports the end.
    bool saveSession(const QString& path);
    // Compare ▸ Settings: runs the open script under both settings of `choice`.
    void compareSettings(const SettingsChoice& choice);

    // The editor's script (edited or not), else the last script run, with runSettings().
    void rerun();

    SessionController* controller() const { return controller_; }
    SessionSaver* sessionSaver() const { return sessionSaver_; }
    const LoadedIr& document() const { return doc_; }
    std::shared_ptr<const store::Session> session() const { return controller_->session(); }
    const LoadedScript& script() const { return controller_->script(); }

    // Widgets exposed for tests.
    QPlainTextEdit* irTextView() const { return irText_; }
    QListWidget* graphList() const { return docks_.graphList; }
    QLabel* errorBanner() const { return errorBanner_; }
    GraphView* graphView() const;
    QLineEdit* graphSearch() const;
    QTabWidget* viewTabs() const { return tabs_; }
    CompilationsDock* compilationsDock() const { return docks_.compilations; }
    PassTimelineDock* passTimelineDock() const { return docks_.timeline; }
    OutputDock* outputDock() const { return docks_.output; }
    StatisticsDock* statisticsDock() const { return docks_.statistics; }
    ScriptEditorDock* scriptEditorDock() const { return docks_.editor; }
    NodeInspectorDock* nodeInspectorDock() const { return docks_.inspector; }
    AnalyzeFailDock* failureDock() const { return docks_.failure; }
    ExecutionDock* executionDock() const { return docks_.execution; }
    CompareView* compareView() const { return compareView_; }
    SettingsCompareView* settingsCompareView() const { return settingsCompare_; }
    QAction* compareSettingsAction() const { return menus_.compareSettings; }
    QWidget* busyIndicator() const { return busy_; }
    QLabel* guideBanner() const { return guideBanner_; }
    QLabel* runSettingsLabel() const { return runSettingsLabel_; }
    RunSettingsMenu* runSettingsMenu() const { return menus_.run; }

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
    void buildCentral();
    void buildStatusBar();
    void connectDocks();
    void connectController();
    void onScriptFinished(const LoadedScript& script);
    void onIrLoaded(const LoadedIr& ir);
    void onFolderRead(const QString& dir, const session::DumpFolder& folder);
    void showSession(const QString& path);
    void showCompile(int index);
    void showDocument(LoadedIr doc);
    void applyGuide();
    void showError(const QString& text);
    bool refuseWhileLoading();           // true (and says so) while a job runs
    void starting(const QString& what);  // a job starts: banner, output, selection reset

    SessionController* controller_ = nullptr;
    SelectionSync* selection_ = nullptr;
    MainMenus menus_;
    LoadedIr doc_;
    int compile_ = -1;  // the compile selected in the Compilations dock
    QTabWidget* tabs_ = nullptr;
    GraphPanel* graphPanel_ = nullptr;
    QPlainTextEdit* irText_ = nullptr;
    QLabel* errorBanner_ = nullptr;
    QLabel* guideBanner_ = nullptr;
    QLabel* countsLabel_ = nullptr;
    QLabel* runSettingsLabel_ = nullptr;
    QWidget* busy_ = nullptr;
    MainDocks docks_;
    CompareView* compareView_ = nullptr;
    SettingsCompareView* settingsCompare_ = nullptr;
    SessionSaver* sessionSaver_ = nullptr;
    Exporter* exporter_ = nullptr;
    std::optional<ExampleInfo> guide_;  // the example whose selection is pending / shown
    Theme theme_ = Theme::System;
};

}  // namespace irscope::ui
