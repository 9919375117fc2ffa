#include "main_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QShortcut>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "analyze_fail_dock.h"
#include "busy_indicator.h"
#include "compare_view.h"
#include "compilations_dock.h"
#include "execution_dock.h"
#include "export_job.h"
#include "graph_panel.h"
#include "mindir_key_dialog.h"
#include "node_inspector_dock.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "script_editor_dock.h"
#include "script_problems.h"
#include "selection_sync.h"
#include "session_io.h"
#include "settings_compare.h"
#include "statistics_dock.h"

namespace irscope::ui {

namespace {
const char* const kThemeKey = "theme";

QLabel* banner(QWidget* parent, const char* name, const char* style) {
    auto* label = new QLabel(parent);
    label->setObjectName(QLatin1String(name));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QLatin1String(style));
    label->hide();
    return label;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("irscope"));
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    resize(1200, 800);
    controller_ = new SessionController(this);
    buildCentral();
    docks_ = addMainDocks(this);
    selection_ = new SelectionSync(graphView(), irText_, docks_.inspector, docks_.editor, this);
    connect(selection_, &SelectionSync::message, this,
            [this](const QString& m) { statusBar()->showMessage(m, 4000); });
    connect(docks_.editor, &ScriptEditorDock::lineSelected, this,
            [this](int line) { selection_->selectSourceLine(line, session().get()); });
    connect(docks_.graphList, &QListWidget::currentRowChanged, selection_,
            &SelectionSync::jumpToGraph);
    menus_ = buildMainMenus(this);
    buildStatusBar();
    connectDocks();
    connectController();
    setTheme(themeFromKey(QSettings().value(QLatin1String(kThemeKey)).toString()));
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

void MainWindow::buildCentral() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    errorBanner_ = banner(central, "errorBanner",
                          "QLabel { background: #fde8e8; color: #7a1010; padding: 8px; }");
    errorBanner_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    guideBanner_ = banner(central, "guideBanner",
                          "QLabel { background: #e6f0fd; color: #0d2b52; padding: 8px; }");
    guideBanner_->setWordWrap(true);
    tabs_ = new QTabWidget(central);
    tabs_->setObjectName(QStringLiteral("viewTabs"));
    tabs_->setDocumentMode(true);
    graphPanel_ = new GraphPanel(tabs_);
    irText_ = new QPlainTextEdit(tabs_);
    irText_->setObjectName(QStringLiteral("irText"));
    irText_->setReadOnly(true);
    irText_->setLineWrapMode(QPlainTextEdit::NoWrap);
    irText_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    irText_->setPlaceholderText(
        tr("Open a .py script or an .ir file (File ▸ Open, or drop it here)."));
    compareView_ = new CompareView(tabs_);
    settingsCompare_ = new SettingsCompareView(tabs_);
    tabs_->addTab(graphPanel_, tr("Graph"));
    tabs_->addTab(irText_, tr("IR text"));
    tabs_->addTab(compareView_, tr("Compare"));
    tabs_->addTab(settingsCompare_, tr("Compare settings"));
    layout->addWidget(errorBanner_);
    layout->addWidget(guideBanner_);
    layout->addWidget(tabs_);
    setCentralWidget(central);
    connect(new QShortcut(QKeySequence::Find, this), &QShortcut::activated, this, [this] {
        tabs_->setCurrentWidget(graphPanel_);
        graphPanel_->focusSearch();
    });
    connect(graphView(), &GraphView::layoutStarted, this,
            [this] { statusBar()->showMessage(tr("Laying out the graph…")); });
    connect(graphView(), &GraphView::layoutFinished, this, [this](bool ok) {
        statusBar()->showMessage(ok ? tr("Graph laid out") : graphView()->layoutError(), 3000);
    });
}

void MainWindow::buildStatusBar() {
    busy_ = new BusyIndicator(controller_, this);
    statusBar()->addPermanentWidget(busy_);
    countsLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(countsLabel_);
    runSettingsLabel_ = new QLabel(this);
    runSettingsLabel_->setObjectName(QStringLiteral("runSettingsLabel"));
    runSettingsLabel_->setToolTip(tr("Compile settings the next script run uses (Run menu)"));
    runSettingsLabel_->setText(menus_.run->settings().summary());
    statusBar()->addPermanentWidget(runSettingsLabel_);
    statusBar()->showMessage(tr("Ready"));
    sessionSaver_ = new SessionSaver(this);
    connect(sessionSaver_, &SessionSaver::finished, this,
            [this](const QString& path, const QString& error) {
                if (!error.isEmpty()) {
                    showError(tr("Could not save the session: %1").arg(error));
                }
                statusBar()->showMessage(
                    error.isEmpty() ? tr("Saved session to %1").arg(path)
                                    : tr("Could not save %1").arg(QFileInfo(path).fileName()),
                    8000);
            });
    exporter_ = new Exporter(this);
    connect(exporter_, &Exporter::finished, this,
            [this](const QString& path, const QString& error) {
                statusBar()->showMessage(
                    error.isEmpty() ? tr("Exported %1").arg(path) : tr("Export failed"), 5000);
                if (!error.isEmpty()) {
                    showExportError(this, error);
                }
                emit exportFinished(path, error);
            });
}

void MainWindow::connectController() {
    SessionController* c = controller_;
    connect(c, &SessionController::stateChanged, this, [this](SessionController::State st) {
        if (st == SessionController::State::Cancelling) {
            statusBar()->showMessage(tr("Stopping…"));
        }
    });
    connect(c, &SessionController::failed, this, &MainWindow::showError);
    connect(c, &SessionController::scriptOutput, docks_.output, &OutputDock::append);
    connect(c, &SessionController::scriptProgress, this,
            [this](std::uint64_t steps, double seconds) {
                statusBar()->showMessage(tr("Running %1… %L2 steps, %3 s")
                                             .arg(QFileInfo(script().path).fileName())
                                             .arg(steps)
                                             .arg(seconds, 0, 'f', 1));
            });
    connect(c, &SessionController::scriptFinished, this, &MainWindow::onScriptFinished);
    connect(c, &SessionController::irLoaded, this, &MainWindow::onIrLoaded);
    connect(c, &SessionController::folderRead, this, &MainWindow::onFolderRead);
    connect(c, &SessionController::snapshotLoaded, this,
            [this](const SnapshotRef&, const LoadedIr& ir) {
                if (ir.ok()) {
                    if (script().error.isEmpty()) {
                        errorBanner_->hide();
                    }
                    showDocument(ir);
                }
                emit snapshotShown(ir.ok());
            });
    connect(docks_.compilations, &CompilationsDock::compileSelected, this,
            &MainWindow::showCompile);
    connect(docks_.timeline, &PassTimelineDock::snapshotSelected, this, [this](int pass) {
        compareView_->showSnapshot(pass);
        controller_->requestSnapshot({controller_->generation(), compile_, pass});
    });
    connect(this, &MainWindow::loadFinished, this, [this] {
        applyGuide();
        if (!script().path.isEmpty()) {
            docks_.execution->setScriptPath(script().path);
        }
    });
}

bool MainWindow::isBusy() const {
    for (CompareView* c : {compareView_, settingsCompare_->compareView()}) {
        if (c->isBusy() || c->beforeGraph()->isLayoutRunning() ||
            c->afterGraph()->isLayoutRunning()) {
            return true;
        }
    }
    return isLoading() || controller_->isLoadingSnapshot() || graphView()->isLayoutRunning() ||
           settingsCompare_->isBusy();
}

GraphView* MainWindow::graphView() const {
    return graphPanel_->view();
}
QLineEdit* MainWindow::graphSearch() const {
    return graphPanel_->search();
}

void MainWindow::openFile(const QString& path, const MindirKey& key) {
    if (refuseWhileLoading()) {
        return;
    }
    if (guide_ && QFileInfo(guide_->file) != QFileInfo(path)) {
        guide_.reset();  // another file: the example's explanation no longer applies
        guideBanner_->hide();
    }
    const QFileInfo info(path);
    if (info.isDir()) {
        openFolder(path);
        return;
    }
    const bool saved = isSessionFile(path);
    if (!saved && info.suffix().compare(QStringLiteral("py"), Qt::CaseInsensitive) != 0) {
        statusBar()->showMessage(tr("Loading %1…").arg(info.fileName()));
        selection_->forgetSourceLine();
        controller_->loadIr(path, key);
        return;
    }
    if (!docks_.editor->maybeSave()) {
        return;
    }
    if (!saved) {
        docks_.editor->openScript(path);  // when unreadable, the run says why
    }
    starting((saved ? tr("Opening %1…") : tr("Running %1…")).arg(info.fileName()));
    controller_->runScript(path, std::nullopt, runSettings().scriptOptions());
}

void MainWindow::rerun() {
    if (docks_.editor->path().isEmpty()) {
        if (!script().path.isEmpty() && QFileInfo(script().path).isFile()) {
            openFile(script().path);
        }
        return;
    }
    if (refuseWhileLoading()) {
        return;
    }
    starting(tr("Running %1…").arg(QFileInfo(docks_.editor->path()).fileName()));
    controller_->runScript(docks_.editor->path(), docks_.editor->text().toUtf8(),
                           runSettings().scriptOptions());
}

void MainWindow::openFolder(const QString& dir) {
    if (refuseWhileLoading()) {
        return;
    }
    errorBanner_->hide();
    statusBar()->showMessage(tr("Reading %1…").arg(QDir::toNativeSeparators(dir)));
    controller_->readFolder(dir);
}

bool MainWindow::refuseWhileLoading() {
    if (isLoading()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
    }
    return isLoading();
}

void MainWindow::starting(const QString& what) {
    errorBanner_->hide();
    docks_.output->clear();
    selection_->forgetSourceLine();
    statusBar()->showMessage(what);
}

void MainWindow::showError(const QString& text) {
    errorBanner_->setText(text);
    errorBanner_->show();
}

void MainWindow::onIrLoaded(const LoadedIr& ir) {
    if (!ir.ok()) {
        if (ir.needsKey) {  // an encrypted MindIR file: Open loads it again with the key
            auto* dialog = new MindirKeyDialog(ir.path, ir.error, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::accepted, this, [this, dialog] {
                openFile(dialog->file(), MindirKey{dialog->key(), QString()});
            });
            dialog->open();
        }
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(ir.path).fileName()));
        emit loadFinished(false);  // what was shown before stays
        return;
    }
    errorBanner_->hide();
    showDocument(ir);
    setWindowTitle(tr("%1 — irscope").arg(QFileInfo(doc_.path).fileName()));
    statusBar()->showMessage(tr("Opened %1").arg(doc_.path), 5000);
    addRecentFile(menus_.recent, this, doc_.path);
    emit loadFinished(true);
}

void MainWindow::onScriptFinished(const LoadedScript& s) {
    docks_.editor->setProblems(scriptProblems(s.error));
    const QString name = QFileInfo(s.path).fileName();
    if (s.session == nullptr) {
        statusBar()->showMessage(tr("Could not open %1").arg(name));
        emit loadFinished(false);
        return;
    }
    if (s.fromSessionFile) {  // the script as it was when the session was saved
        docks_.editor->showScript(QString::fromStdString(s.session->scriptPath),
                                  QString::fromStdString(s.session->scriptText));
    }
    const int compiles = static_cast<int>(s.session->compiles.size());
    showSession(s.path);
    statusBar()->showMessage(
        s.cancelled() ? tr("%1 stopped; %n compile(s) so far", nullptr, compiles).arg(name)
        : s.ok()      ? tr("%1 ran; %n compile(s)", nullptr, compiles).arg(name)
                      : tr("%1 failed; %n compile(s)", nullptr, compiles).arg(name),
        8000);
    if (compiles == 0) {  // nothing of an earlier file stays on screen as if it were this script's
        doc_ = LoadedIr();
        selection_->setDocument(nullptr);
        irText_->clear();
        docks_.graphList->clear();
        countsLabel_->clear();
        compareView_->clear(tr("The script compiled no graph to compare."));
        graphView()->showMessage(s.ok()
                                     ? tr("The script compiled no graph (GRAPH_MODE Cell or @jit).")
                                     : tr("The script stopped before it compiled a graph."));
    }
    emit loadFinished(s.ok());
}

void MainWindow::onFolderRead(const QString& dir, const session::DumpFolder& r) {
    const QString name = QFileInfo(dir).fileName();
    if (r.session == nullptr || r.session->compiles.empty()) {
        statusBar()->showMessage(tr("Could not open %1").arg(name));
        emit loadFinished(false);
        return;
    }
    docks_.output->clear();
    showSession(dir);
    const int compiles = static_cast<int>(r.session->compiles.size());
    statusBar()->showMessage(
        r.cancelled ? tr("Stopped reading %1; %n compile(s) so far", nullptr, compiles).arg(name)
                    : tr("%1: %2 file(s), %n compile(s)", nullptr, compiles).arg(name).arg(r.files),
        8000);
    emit loadFinished(true);
}

// A new session (a script's, a saved one or a dump folder's): its compiles, the first selected.
void MainWindow::showSession(const QString& path) {
    menus_.saveSession->setEnabled(true);
    setWindowTitle(tr("%1 — irscope").arg(QFileInfo(path).fileName()));
    addRecentFile(menus_.recent, this, path);
    docks_.compilations->setSession(session());
    docks_.statistics->setSession(session());
    if (!session()->compiles.empty()) {
        docks_.compilations->selectRow(0);
    }
}

void MainWindow::showCompile(int index) {
    compile_ = index;
    const passes::CompileRecord* compile = controller_->compile(index);
    docks_.timeline->setCompile(compile != nullptr ? session() : nullptr, compile);
    docks_.statistics->setCompile(compile);
    compareView_->setCompile(session(), compile);
}

void MainWindow::showDocument(LoadedIr result) {
    docks_.inspector->clear();  // its rows point into the module being replaced
    docks_.editor->clearLocation();
    doc_ = std::move(result);
    selection_->setDocument(&doc_);
    irText_->setPlainText(doc_.text);
    graphView()->setModel(doc_.module, *doc_.graph);
    // analyze_fail.ir: the frames in the Failure dock, the failed node marked in the graph.
    const bool failed = docks_.failure->showModule(doc_.module.get());
    docks_.failure->setVisible(failed);
    const ir::Node* failedNode = failed ? docks_.failure->failure().failed() : nullptr;
    if (failed) {
        docks_.failure->raise();
        graphView()->setDebugMarks({}, failedNode);
    }
    graphPanel_->clearSearch();
    showGraphList(docks_.graphList, doc_);
    countsLabel_->setText(tr("%1 graphs · %2 nodes · %3 cnodes")
                              .arg(doc_.counts.graphs)
                              .arg(doc_.counts.nodes)
                              .arg(doc_.counts.cnodes));
    if (failedNode != nullptr) {
        // Where inference failed: its frame, its node in the graph and its line in the text.
        docks_.failure->frames()->setCurrentRow(docks_.failure->frames()->count() - 1);
        graphView()->focusNode(failedNode);
        selection_->sync({failedNode}, SelectionSync::Origin::Graph);
    } else {
        selection_->reselectSourceLine();  // the same script line's nodes in this IR
    }
}

void MainWindow::connectDocks() {
    connect(docks_.editor, &ScriptEditorDock::runRequested, this, &MainWindow::rerun);
    docks_.execution->attachGraphView(graphView());
    connect(docks_.execution, &ExecutionDock::irReady, this, [this](const LoadedIr& ir) {
        if (doc_.module != ir.module) {
            showDocument(ir);
        }
    });
    // The paused node or a failure's frame: zoomed into view and selected everywhere.
    auto focus = [this](const ir::Node* n) {
        graphView()->focusNode(n);
        selection_->sync({n}, SelectionSync::Origin::Graph);
    };
    connect(docks_.execution, &ExecutionDock::nodeReached, this, focus);
    connect(docks_.failure, &AnalyzeFailDock::frameActivated, this, focus);
}

// --- Menu actions -----------------------------------------------------------------------------

bool MainWindow::saveSession(const QString& path) {
    if (!sessionSaver_->save(path, script())) {
        statusBar()->showMessage(script().session == nullptr
                                     ? tr("Nothing to save")
                                     : tr("Still saving; try again when it is done"),
                                 5000);
        return false;
    }
    statusBar()->showMessage(tr("Saving session to %1…").arg(path));
    return true;
}

void MainWindow::compareSettings(const SettingsChoice& choice) {
    tabs_->setCurrentWidget(settingsCompare_);
    settingsCompare_->start(script().path, choice);
}

bool MainWindow::exportTo(ExportKind kind, const QString& path) {
    QString why = exporter_->isRunning() ? tr("An export is still running") : QString();
    std::function<QByteArray()> make;
    if (why.isEmpty()) {
        make = exportJob(kind,
                         {&doc_, graphView()->scene(), graphView()->backgroundBrush().color(),
                          session(), docks_.timeline->model()->compile()},
                         &why);
    }
    if (!make) {
        statusBar()->showMessage(why, 5000);
        emit exportFinished(path, why);
        return false;
    }
    statusBar()->showMessage(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
    exporter_->start(path, std::move(make));
    return true;
}

// --- Examples, run settings, theme ------------------------------------------------------------

void MainWindow::openExample(const ExampleInfo& example) {
    if (refuseWhileLoading()) {
        return;
    }
    const RunSettings s = RunSettings::fromEnvironment(example.settings);
    if (!(s == runSettings())) {
        setRunSettings(s);
    }
    guide_ = example;
    guideBanner_->setText(guideHtml(example));
    guideBanner_->show();
    openFile(example.file);
}

void MainWindow::applyGuide() {
    const passes::CompileRecord* c = guide_ ? controller_->compile(guide_->compile) : nullptr;
    if (c == nullptr) {
        return;
    }
    docks_.compilations->selectRow(guide_->compile);
    for (std::size_t i = 0; !guide_->pass.isEmpty() && i < c->snapshots.size(); ++i) {
        if (QString::fromStdString(c->snapshots[i].pass) == guide_->pass) {
            docks_.timeline->model()->setHideUnchanged(false);
            docks_.timeline->selectRow(
                docks_.timeline->model()->rowOfSnapshot(static_cast<int>(i)));
            break;
        }
    }
}

void MainWindow::setRunSettings(const RunSettings& s) {
    menus_.run->setSettings(s);
    QSettings settings;
    s.save(settings);
    runSettingsLabel_->setText(s.summary());
    statusBar()->showMessage(tr("The next run uses %1").arg(s.summary()), 5000);
}

void MainWindow::setTheme(Theme t) {
    theme_ = t;
    applyTheme(t);
    QSettings().setValue(QLatin1String(kThemeKey), themeKey(t));
    checkThemeAction(this, t);
}

// --- Window events ----------------------------------------------------------------------------

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) {
        e->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        openFile(urls.first().toLocalFile());
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!docks_.editor->maybeSave()) {
        e->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

}  // namespace irscope::ui
