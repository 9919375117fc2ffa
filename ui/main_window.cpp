#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <QSettings>
#include <QStatusBar>
#include <QRegularExpression>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QToolBar>
#include <QLineEdit>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QHash>
#include <QPointer>

#include <algorithm>
#include <limits>

#include "analyze_fail_dock.h"
#include "compare_view.h"
#include "compilations_dock.h"
#include "execution_dock.h"
#include "graph_scene.h"
#include "irscope_version.h"
#include "mindir_key_dialog.h"
#include "node_inspector_dock.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "script_editor_dock.h"
#include "script_problems.h"
#include "session_io.h"
#include "settings_compare.h"
#include "statistics_dock.h"

namespace irscope::ui {

namespace {
constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("irscope"));
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    resize(1200, 800);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    errorBanner_ = new QLabel(central);
    errorBanner_->setObjectName(QStringLiteral("errorBanner"));
    errorBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorBanner_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    errorBanner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fde8e8; color: #7a1010; padding: 8px; }"));
    errorBanner_->setWordWrap(false);
    errorBanner_->hide();
    tabs_ = new QTabWidget(central);
    tabs_->setObjectName(QStringLiteral("viewTabs"));
    tabs_->setDocumentMode(true);
    QWidget* graphPanel = buildGraphPanel(tabs_);
    irText_ = new QPlainTextEdit(tabs_);
    irText_->setObjectName(QStringLiteral("irText"));
    irText_->setReadOnly(true);
    irText_->setLineWrapMode(QPlainTextEdit::NoWrap);
    irText_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    irText_->setPlaceholderText(
        tr("Open a .py script or an .ir file (File ▸ Open, or drop it here)."));
    layout->addWidget(errorBanner_);
    guideBanner_ = new QLabel(central);
    layout->addWidget(guideBanner_);
    tabs_->addTab(graphPanel, tr("Graph"));
    tabs_->addTab(irText_, tr("IR text"));
    compareView_ = new CompareView(tabs_);
    tabs_->addTab(compareView_, tr("Compare"));
    settingsCompare_ = new SettingsCompareView(tabs_);
    tabs_->addTab(settingsCompare_, tr("Compare settings"));
    layout->addWidget(tabs_);
    setCentralWidget(central);

    auto* dock = new QDockWidget(tr("Graphs"), this);
    dock->setObjectName(QStringLiteral("graphsDock"));
    graphList_ = new QListWidget(dock);
    graphList_->setObjectName(QStringLiteral("graphList"));
    dock->setWidget(graphList_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    resizeDocks({dock}, {320}, Qt::Horizontal);
    connect(graphList_, &QListWidget::currentRowChanged, this, &MainWindow::jumpToGraph);

    compilationsDock_ = new CompilationsDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, compilationsDock_);
    timelineDock_ = new PassTimelineDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, timelineDock_);
    outputDock_ = new OutputDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, outputDock_);
    resizeDocks({outputDock_}, {160}, Qt::Vertical);
    statisticsDock_ = new StatisticsDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, statisticsDock_);
    tabifyDockWidget(outputDock_, statisticsDock_);
    // Execution: runs the script under the debugger; shows the executed IR and its paused node.
    executionDock_ = new ExecutionDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, executionDock_);
    tabifyDockWidget(outputDock_, executionDock_);
    executionDock_->attachGraphView(graphView_);
    connect(executionDock_, &ExecutionDock::irReady, this, [this](const LoadedIr& ir) {
        if (doc_.module != ir.module) {
            showDocument(ir);
        }
    });
    // The paused node: zoomed into view, and shown in the IR text, the inspector and the
    // script (its source line), as a node selected in the graph is.
    connect(executionDock_, &ExecutionDock::nodeReached, this, [this](const ir::Node* n) {
        graphView_->focusNode(n);
        syncSelection({n}, SelectionOrigin::Graph);
    });
    connect(executionDock_, &ExecutionDock::printed, outputDock_, &OutputDock::append);
    connect(this, &MainWindow::loadFinished, executionDock_, [this] {
        if (!script_.path.isEmpty()) {
            executionDock_->setScriptPath(script_.path);
        }
    });
    outputDock_->raise();
    // The script and the inspector: a full-height column on the right.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    editorDock_ = new ScriptEditorDock(this);
    addDockWidget(Qt::RightDockWidgetArea, editorDock_);
    resizeDocks({editorDock_}, {380}, Qt::Horizontal);
    connect(editorDock_, &ScriptEditorDock::runRequested, this, &MainWindow::runEditorScript);
    connect(editorDock_, &ScriptEditorDock::lineSelected, this, &MainWindow::selectNodesAtSourceLine);
    inspectorDock_ = new NodeInspectorDock(this);
    splitDockWidget(editorDock_, inspectorDock_, Qt::Vertical);
    connect(inspectorDock_, &NodeInspectorDock::nodeActivated, this,
            [this](const ir::Node* node) { syncSelection({node}, SelectionOrigin::Inspector); });
    connect(inspectorDock_, &NodeInspectorDock::locationActivated, editorDock_, &ScriptEditorDock::showLocation);
    // analyze_fail.ir: the failure and its traced call stack; a frame selects its node.
    failureDock_ = new AnalyzeFailDock(this);
    addDockWidget(Qt::LeftDockWidgetArea, failureDock_);
    failureDock_->hide();
    connect(failureDock_, &AnalyzeFailDock::frameActivated, this, [this](const ir::Node* node) {
        graphView_->focusNode(node);
        syncSelection({node}, SelectionOrigin::Graph);
    });
    connect(compilationsDock_, &CompilationsDock::compileSelected, this, &MainWindow::showCompile);
    connect(timelineDock_, &PassTimelineDock::snapshotSelected, this, &MainWindow::showSnapshot);

    // Busy indicator with Cancel, shown while a script runs.
    busy_ = new QWidget(this);
    busy_->setObjectName(QStringLiteral("busyIndicator"));
    auto* busyRow = new QHBoxLayout(busy_);
    busyRow->setContentsMargins(0, 0, 0, 0);
    busyBar_ = new QProgressBar(busy_);
    busyBar_->setRange(0, 0);
    busyBar_->setMaximumWidth(160);
    busyBar_->setTextVisible(false);
    cancelButton_ = new QToolButton(busy_);
    cancelButton_->setObjectName(QStringLiteral("cancelButton"));
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->setToolTip(tr("Stop the running script"));
    connect(cancelButton_, &QToolButton::clicked, this, &MainWindow::cancelScript);
    busyRow->addWidget(busyBar_);
    busyRow->addWidget(cancelButton_);
    busy_->hide();
    statusBar()->addPermanentWidget(busy_);
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(250);
    connect(progressTimer_, &QTimer::timeout, this, [this] {
        if (runner_ && runningScript_ && !jobStop_.stop_requested()) {
            statusBar()->showMessage(tr("Running %1… %L2 steps, %3 s")
                                         .arg(QFileInfo(script_.path).fileName())
                                         .arg(runner_->stepsTaken())
                                         .arg(static_cast<double>(scriptClock_.elapsed()) / 1000.0, 0, 'f', 1));
        }
    });

    countsLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(countsLabel_);
    statusBar()->showMessage(tr("Ready"));

    sessionSaver_ = new SessionSaver(this);
    connect(sessionSaver_, &SessionSaver::finished, this, [this](const QString& path, const QString& error) {
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Saved session to %1").arg(path), 8000);
        } else {
            showError(tr("Could not save the session: %1").arg(error));
            statusBar()->showMessage(tr("Could not save %1").arg(QFileInfo(path).fileName()), 8000);
        }
    });
    buildMenus();
    restoreAppSettings();
    connect(&watcher_, &QFutureWatcher<LoadedIr>::finished, this, &MainWindow::onLoaded);
    connect(&scriptWatcher_, &QFutureWatcher<LoadedScript>::finished, this,
            &MainWindow::onScriptFinished);
    connect(&snapshotWatcher_, &QFutureWatcher<LoadedIr>::finished, this,
            &MainWindow::onSnapshotLoaded);
    connect(graphView_, &GraphView::nodeSelected, this,
            [this](const ir::Node* node) { syncSelection({node}, SelectionOrigin::Graph); });
    connect(irText_, &QPlainTextEdit::cursorPositionChanged, this, &MainWindow::selectNodeAtCursor);
    connect(graphView_, &GraphView::layoutStarted, this,
            [this] { statusBar()->showMessage(tr("Laying out the graph…")); });
    connect(graphView_, &GraphView::layoutFinished, this, [this](bool ok) {
        statusBar()->showMessage(ok ? tr("Graph laid out") : graphView_->layoutError(), 3000);
    });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

MainWindow::~MainWindow() {
    jobStop_.request_stop();
    folderWatcher_.waitForFinished();
    scriptWatcher_.waitForFinished();
    snapshotWatcher_.waitForFinished();
    watcher_.waitForFinished();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(editorDock_->saveAction());
    QAction* saveSessionAction =
        file->addAction(tr("Save &Session…"), this, &MainWindow::showSaveSessionDialog);
    saveSessionAction->setObjectName(QStringLiteral("saveSessionAction"));
    saveSessionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    saveSessionAction->setEnabled(false);  // until a script ran or a session opened
    addFileMenuItems(file);
    file->addSeparator();
    QAction* cancel = file->addAction(tr("&Stop Script"), this, &MainWindow::cancelScript);
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* passes = menuBar()->addMenu(tr("&Passes"));
    passes->addAction(timelineDock_->previousAction());
    passes->addAction(timelineDock_->nextAction());
    QAction* hide = passes->addAction(tr("&Hide Passes That Changed Nothing"));
    hide->setCheckable(true);
    connect(hide, &QAction::toggled, timelineDock_->hideUnchangedBox(), &QAbstractButton::setChecked);
    connect(timelineDock_->hideUnchangedBox(), &QAbstractButton::toggled, hide, &QAction::setChecked);

    QMenu* debug = menuBar()->addMenu(tr("&Debug"));
    debug->addActions(executionDock_->debugActions());
    debug->addSeparator();
    debug->addAction(executionDock_->toggleBreakpointAction());
    buildCompareMenu();
    addRunMenu();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        view->addAction(d->toggleViewAction());
    }
    addViewMenuItems(view);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addHelpMenuItems(help);
    help->addAction(tr("&About irscope"), this, [this] {
        QMessageBox::about(this, tr("About irscope"),
                           tr("<b>irscope %1</b><p>An IR visualizer and debugger for static "
                              "computation graphs compiled the way MindSpore's GRAPH_MODE "
                              "compiles them.</p>")
                               .arg(QStringLiteral(IRSCOPE_VERSION)));
    });
}

void MainWindow::buildCompareMenu() {
    QMenu* compare = menuBar()->addMenu(tr("&Compare"));
    QAction* passes = compare->addAction(tr("&Before/After Pass"), this, [this] { tabs_->setCurrentWidget(compareView_); });
    passes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    passes->setToolTip(tr("The pass selected in the timeline against the pass before it"));
    compareSettingsAction_ = compare->addAction(tr("&Settings…"), this, [this] {
        if (script_.path.isEmpty() || isLoading()) {
            statusBar()->showMessage(tr("Open a script first: its run is compared under two settings"), 5000);
            return;
        }
        auto* dialog = new SettingsCompareDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] { compareSettings(dialog->choice()); });
        dialog->open();
    });
    compareSettingsAction_->setObjectName(QStringLiteral("compareSettingsAction"));
    compareSettingsAction_->setIconText(tr("Compare Settings…"));
    compareSettingsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    compareSettingsAction_->setToolTip(
        tr("Run the script under two settings (load elimination levels, lazy inline off/on) and compare"));
    QToolBar* bar = addToolBar(tr("Compare"));
    bar->setObjectName(QStringLiteral("compareToolBar"));
    bar->addAction(compareSettingsAction_);
}

void MainWindow::compareSettings(const SettingsChoice& choice) {
    tabs_->setCurrentWidget(settingsCompare_);
    settingsCompare_->start(script_.path, choice);
}

void MainWindow::showOpenDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open"), QString(),
        tr("Scripts, IR and sessions (*.py *.ir *.irscope);;Python scripts (*.py);;IR files "
           "(*.ir);;irscope sessions (*.irscope);;All files (*)"));
    if (!path.isEmpty()) {
        openFile(path);
    }
}

// A watcher stops "running" before its finished() reaches us: the flags last until the
// result is handled.
bool MainWindow::isLoading() const { return loadingIr_ || runningScript_ || loadingFolder_; }

bool MainWindow::isBusy() const {
    for (CompareView* c : {compareView_, settingsCompare_->compareView()}) {
        if (c->isBusy() || c->beforeGraph()->isLayoutRunning() || c->afterGraph()->isLayoutRunning()) {
            return true;
        }
    }
    return isLoading() || loadingSnapshot_ || graphView_->isLayoutRunning() || settingsCompare_->isBusy();
}

QWidget* MainWindow::busyIndicator() const { return busy_; }

void MainWindow::openFile(const QString& path) {
    openFile(path, MindirKey{});
}

void MainWindow::openFile(const QString& path, const MindirKey& key) {
    if (isLoading()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
        return;
    }
    if (guide_ && QFileInfo(guide_->file) != QFileInfo(path)) {
        guide_.reset();  // another file: the example's explanation no longer applies
        guideBanner_->hide();
    }
    if (QFileInfo(path).isDir()) {
        openFolder(path);
        return;
    }
    const bool session = isSessionFile(path);
    if (session || QFileInfo(path).suffix().compare(QStringLiteral("py"), Qt::CaseInsensitive) == 0) {
        if (!editorDock_->maybeSave()) {
            return;
        }
        if (!session) {
            editorDock_->openScript(path);  // when unreadable, the run below says why
        }  // a session's script is shown from the session once it is loaded
        startScript(path);
        return;
    }
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    sourceLine_ = 0;
    loadingIr_ = true;
    watcher_.setFuture(QtConcurrent::run(&loadIrFile, path, key));
}

void MainWindow::showError(const QString& text) {
    errorBanner_->setText(text);
    errorBanner_->show();
}

void MainWindow::onLoaded() {
    loadingIr_ = false;
    LoadedIr result = watcher_.result();
    if (!result.ok() && result.needsKey) {
        // An encrypted MindIR file: ask for its key (non-modal to the event loop, so the
        // window keeps painting); Open loads it again, Cancel leaves the error shown.
        auto* dialog = new MindirKeyDialog(result.path, result.error, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, this, [this, dialog] {
            openFile(dialog->file(), MindirKey{dialog->key(), QString()});
        });
        dialog->open();
    }
    if (!result.ok()) {
        // Keep what was shown before; say what is wrong and where.
        showError(result.error);
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(result.path).fileName()));
        emit loadFinished(false);
        return;
    }
    errorBanner_->hide();
    showDocument(std::move(result));
    setWindowTitle(tr("%1 — irscope").arg(QFileInfo(doc_.path).fileName()));
    statusBar()->showMessage(tr("Opened %1").arg(doc_.path), 5000);
    addRecentFile(doc_.path);
    emit loadFinished(true);
}

void MainWindow::setBusy(bool busy, const QString& what) {
    busy_->setVisible(busy);
    if (busy) {
        scriptClock_.start();
        progressTimer_->start();
    } else {
        progressTimer_->stop();
    }
    cancelButton_->setEnabled(busy);
    if (!what.isEmpty()) {
        statusBar()->showMessage(what);
    }
}

void MainWindow::runEditorScript() {
    if (editorDock_->path().isEmpty()) {
        return;
    }
    if (isLoading()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
        return;
    }
    startScript(editorDock_->path(), editorDock_->text().toUtf8());
}

void MainWindow::startScript(const QString& path, const std::optional<QByteArray>& source) {
    runner_ = std::make_shared<session::ScriptRunner>();
    jobStop_ = std::stop_source();
    sourceLine_ = 0;
    script_ = LoadedScript();
    script_.path = path;
    outputDock_->clear();
    errorBanner_->hide();
    // A saved session shows what its run showed, through the same path, without running.
    const bool saved = isSessionFile(path);
    setBusy(true, (saved ? tr("Opening %1…") : tr("Running %1…")).arg(QFileInfo(path).fileName()));
    // Printed text reaches the Output dock as it is printed (queued onto the UI thread).
    QPointer<OutputDock> dock = outputDock_;
    auto output = [dock](const QString& text) {
        QMetaObject::invokeMethod(
            dock, [dock, text] {
                if (dock) {
                    dock->append(text);
                }
            },
            Qt::QueuedConnection);
    };
    runningScript_ = true;
    scriptWatcher_.setFuture(QtConcurrent::run(&longWork_, [path, source, runner = runner_, output, saved,
                                                 options = runSettings().scriptOptions(), stop = jobStop_.get_token()]() mutable {
        options.stop = stop;
        if (saved) {
            return loadSessionFile(path, output);
        }
        return source ? runScriptSource(path, *source, runner, output, options)
                      : runScriptFile(path, runner, output, options);
    }));
}

void MainWindow::cancelScript() {
    if (loadingFolder_) {
        jobStop_.request_stop();
        cancelButton_->setEnabled(false);
    }
    if (runner_ && runningScript_) {
        jobStop_.request_stop();
        cancelButton_->setEnabled(false);
        statusBar()->showMessage(tr("Stopping the script…"));
    }
}

void MainWindow::showSaveSessionDialog() {
    if (session_ == nullptr) {
        statusBar()->showMessage(tr("Nothing to save: run a script or open a session first"), 5000);
        return;
    }
    const QFileInfo script(script_.path);
    const QString suggested = script_.fromSessionFile
                                  ? script_.path
                                  : script.dir().filePath(script.completeBaseName() +
                                                          QStringLiteral(".irscope"));
    QString path = QFileDialog::getSaveFileName(this, tr("Save Session"), suggested,
                                                tr("irscope sessions (*.irscope)"));
    if (path.isEmpty()) {
        return;
    }
    if (QFileInfo(path).suffix().isEmpty()) {
        path += QStringLiteral(".irscope");
    }
    saveSession(path);
}

bool MainWindow::saveSession(const QString& path) {
    if (!sessionSaver_->save(path, script_)) {
        statusBar()->showMessage(script_.session == nullptr ? tr("Nothing to save")
                                                     : tr("Still saving; try again when it is done"),
                                 5000);
        return false;
    }
    statusBar()->showMessage(tr("Saving session to %1…").arg(path));
    return true;
}

void MainWindow::onScriptFinished() {
    runningScript_ = false;
    script_ = scriptWatcher_.result();
    runner_.reset();
    setBusy(false, QString());
    const QString name = QFileInfo(script_.path).fileName();
    if (!script_.error.isEmpty()) {
        const QString where = script_.errorLine > 0
                                  ? QStringLiteral("%1:%2").arg(script_.errorFile).arg(script_.errorLine)
                                  : QString();
        // A traceback gets its innermost location on top; a diagnostic starts with it.
        const QString text = script_.error.trimmed();
        showError(where.isEmpty() || text.startsWith(where) ? text
                                                            : tr("%1: error\n%2").arg(where, text));
    } else {
        errorBanner_->hide();
    }
    editorDock_->setProblems(scriptProblems(script_.error));
    if (script_.session == nullptr) {
        statusBar()->showMessage(tr("Could not open %1").arg(name));
        emit loadFinished(false);
        return;
    }
    session_ = script_.session;
    if (script_.fromSessionFile) {  // the script as it was when the session was saved
        editorDock_->showScript(QString::fromStdString(session_->scriptPath),
                                QString::fromStdString(session_->scriptText));
    }
    findChild<QAction*>(QStringLiteral("saveSessionAction"))->setEnabled(true);
    setWindowTitle(tr("%1 — irscope").arg(name));
    addRecentFile(script_.path);
    const int compiles = static_cast<int>(session_->compiles.size());
    statusBar()->showMessage(
        script_.cancelled() ? tr("%1 stopped; %n compile(s) so far", nullptr, compiles).arg(name)
        : script_.ok()      ? tr("%1 ran; %n compile(s)", nullptr, compiles).arg(name)
                            : tr("%1 failed; %n compile(s)", nullptr, compiles).arg(name),
        8000);
    compilationsDock_->setSession(session_);
    statisticsDock_->setSession(session_);
    if (compiles == 0) {
        // Nothing of an earlier file stays on screen as if it were this script's.
        doc_ = LoadedIr();
        irText_->clear();
        textLines_.clear();
        graphList_->clear();
        countsLabel_->clear();
        compareView_->clear(tr("The script compiled no graph to compare."));
        graphView_->showMessage(script_.ok() ? tr("The script compiled no graph (GRAPH_MODE Cell or @jit).")
                                             : tr("The script stopped before it compiled a graph."));
    } else {
        compilationsDock_->selectRow(0);
    }
    emit loadFinished(script_.ok());
}

void MainWindow::showCompile(const session::CompileRecord* compile) {
    timelineDock_->setCompile(compile != nullptr ? session_ : nullptr, compile);
    statisticsDock_->setCompile(compile);
    compareView_->setCompile(session_, compile);
}

void MainWindow::showSnapshot(const session::CompileRecord* compile, int snapshot) {
    // Only compiles of the current session (a pending request may predate a newer script).
    const bool current = session_ != nullptr && compile != nullptr && !session_->compiles.empty() &&
                         compile >= &session_->compiles.front() && compile <= &session_->compiles.back();
    if (!current || snapshot < 0 || snapshot >= static_cast<int>(compile->snapshots.size())) {
        return;
    }
    compareView_->showSnapshot(snapshot);
    if (loadingSnapshot_) {
        pendingSnapshot_ = SnapshotRequest{compile, snapshot};
        return;
    }
    loadingSnapshot_ = true;
    pendingSnapshot_.reset();
    const session::PassSnapshot& s = compile->snapshots[static_cast<std::size_t>(snapshot)];
    // A dump folder's snapshot is named by its file, so its errors point into it.
    const QString name = !s.sourceFile.empty()
                             ? QString::fromStdString(s.sourceFile)
                             : QStringLiteral("%1@%2.ir")
                                   .arg(QString::fromStdString(compile->graphName),
                                        QString::fromStdString(s.pass).replace(QLatin1Char('/'), QLatin1Char('.')));
    // The session (kept alive by the lambda) owns the compressed text.
    snapshotWatcher_.setFuture(QtConcurrent::run([owner = session_, compressed = s.compressed, name] {
        if (!compressed) {
            LoadedIr failed;
            failed.path = name;
            failed.error = QStringLiteral("%1: error: the IR could not be printed after this pass").arg(name);
            return failed;
        }
        return loadIrText(compressed->text(), name);
    }));
}

void MainWindow::onSnapshotLoaded() {
    loadingSnapshot_ = false;
    LoadedIr result = snapshotWatcher_.result();
    if (pendingSnapshot_) {
        // A newer pass was selected meanwhile: show that one instead.
        const SnapshotRequest next = *pendingSnapshot_;
        pendingSnapshot_.reset();
        showSnapshot(next.compile, next.snapshot);
        return;
    }
    if (!result.ok()) {
        showError(result.error);
        emit snapshotShown(false);
        return;
    }
    if (script_.error.isEmpty()) {
        errorBanner_->hide();
    }
    showDocument(std::move(result));
    emit snapshotShown(true);
}

void MainWindow::showDocument(LoadedIr result) {
    inspectorDock_->clear();  // its rows point into the module being replaced
    editorDock_->clearLocation();
    doc_ = std::move(result);
    irText_->setPlainText(doc_.text);
    textLines_ = doc_.text.split(QLatin1Char('\n'));
    graphView_->setModel(doc_.module, *doc_.graph);
    // analyze_fail.ir: the frames in the Failure dock, the failed node marked in the graph.
    const bool failed = failureDock_->showModule(doc_.module.get());
    failureDock_->setVisible(failed);
    const ir::Node* failedNode = failed ? failureDock_->failure().failed() : nullptr;
    if (failed) {
        failureDock_->raise();
        graphView_->setDebugMarks({}, failedNode);
    }
    search_->clear();
    searchStatus_->clear();
    graphList_->blockSignals(true);
    graphList_->clear();
    for (const GraphSummary& g : doc_.graphs) {
        auto* item = new QListWidgetItem(
            tr("@%1  (%2 params, %3 cnodes)").arg(g.name).arg(g.parameters).arg(g.cnodes),
            graphList_);
        item->setToolTip(g.name);
    }
    graphList_->blockSignals(false);
    countsLabel_->setText(tr("%1 graphs · %2 nodes · %3 cnodes")
                              .arg(doc_.counts.graphs)
                              .arg(doc_.counts.nodes)
                              .arg(doc_.counts.cnodes));
    if (failedNode != nullptr) {
        // Where inference failed: its frame, its node in the graph and its line in the text.
        failureDock_->frames()->setCurrentRow(failureDock_->frames()->count() - 1);
        graphView_->focusNode(failedNode);
        syncSelection({failedNode}, SelectionOrigin::Graph);
    } else if (sourceLine_ > 0) {
        // The same script line's nodes in this IR (what the pass made of them).
        syncSelection(nodesAtSourceLine(sourceLine_), SelectionOrigin::Source);
    }
}

void MainWindow::jumpToGraph(int row) {
    if (row < 0 || row >= doc_.graphs.size()) {
        return;
    }
    const QTextBlock block = irText_->document()->findBlockByNumber(doc_.graphs[row].textLine);
    QTextCursor cursor(block);
    irText_->setTextCursor(cursor);
    irText_->centerCursor();
}

QWidget* MainWindow::buildGraphPanel(QWidget* parent) {
    auto* panel = new QWidget(parent);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    auto* bar = new QToolBar(panel);
    bar->setObjectName(QStringLiteral("graphToolBar"));
    search_ = new QLineEdit(bar);
    search_->setObjectName(QStringLiteral("graphSearch"));
    search_->setPlaceholderText(tr("Search nodes (regex over name, op, attributes, shape)"));
    search_->setClearButtonEnabled(true);
    search_->setMinimumWidth(220);
    search_->setMaximumWidth(420);
    bar->addWidget(search_);
    QAction* prev = bar->addAction(tr("Previous"), this, [this] { graphView_->previousMatch(); });
    prev->setShortcut(QKeySequence::FindPrevious);
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    QAction* next = bar->addAction(tr("Next"), this, [this] { graphView_->nextMatch(); });
    next->setShortcut(QKeySequence::FindNext);
    next->setToolTip(tr("Next match (F3)"));
    searchStatus_ = new QLabel(bar);
    bar->addWidget(searchStatus_);
    bar->addSeparator();
    bar->addAction(tr("Fit"), this, [this] { graphView_->fitToView(); })->setToolTip(tr("Fit (Ctrl+0)"));
    bar->addAction(tr("Collapse all"), this, [this] { graphView_->expandWithin(0); })
        ->setToolTip(tr("Show every graph as one box (double-click a box to expand it)"));
    bar->addAction(tr("Overview"), this, [this] { graphView_->expandWithin(kDefaultNodeBudget); })
        ->setToolTip(tr("Expand groups breadth-first up to %1 drawn items").arg(kDefaultNodeBudget));
    QAction* inlineInputs = bar->addAction(tr("Weights inside"));
    inlineInputs->setObjectName(QStringLiteral("graphInlineInputs"));
    inlineInputs->setCheckable(true);
    inlineInputs->setChecked(true);
    inlineInputs->setToolTip(tr("Draw weights and constants inside the box of the op using them "
                                "(off: as nodes of their own)"));
    connect(inlineInputs, &QAction::toggled, this, [this](bool on) { graphView_->setInlineInputs(on); });
    QAction* hideState = bar->addAction(tr("Hide state"));
    hideState->setObjectName(QStringLiteral("graphHideState"));
    hideState->setCheckable(true);
    hideState->setToolTip(tr("Hide state plumbing: monads, UpdateState, Load and Depend's ordering "
                             "(off: dimmed). Graphs of more than %1 CNodes open with it hidden")
                              .arg(kHideStateAbove));
    connect(hideState, &QAction::toggled, this, [this](bool on) { graphView_->setStateHidden(on); });
    bar->addSeparator();
    // Legend of the node styles.
    QString legend;
    const std::pair<NodeStyle, QString> styles[] = {
        {NodeStyle::Primitive, tr("op")},           {NodeStyle::SideEffect, tr("side effect")},
        {NodeStyle::Monad, tr("monad/state")},      {NodeStyle::GraphCall, tr("graph call")},
        {NodeStyle::Parameter, tr("parameter")},    {NodeStyle::Constant, tr("constant")}};
    for (const auto& [style, name] : styles) {
        legend += QStringLiteral("<span style='background:%1; border:1px solid %2'>&nbsp;%3&nbsp;</span> ")
                      .arg(NodeItem::fillFor(style).name(), NodeItem::borderFor(style).name(), name);
    }
    auto* legendLabel = new QLabel(legend, bar);
    legendLabel->setObjectName(QStringLiteral("graphLegend"));
    legendLabel->setToolTip(tr("Data edges are solid, monad/control edges dashed; a stacked box is "
                               "a collapsed group"));
    bar->addWidget(legendLabel);
    auto* find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, this, [this] {
        tabs_->setCurrentIndex(0);
        search_->setFocus();
        search_->selectAll();
    });
    connect(search_, &QLineEdit::returnPressed, this, [this] {
        if (graphView_->searchMatches().empty()) {
            runSearch();
        } else {
            graphView_->nextMatch();
        }
    });
    connect(search_, &QLineEdit::textChanged, this, &MainWindow::runSearch);
    graphView_ = new GraphView(panel);
    // The toggles follow the view: a big module opens with state hidden, a search may show it.
    connect(graphView_, &GraphView::layoutFinished, hideState, [this, hideState, inlineInputs] {
        const QSignalBlocker b1(hideState);
        const QSignalBlocker b2(inlineInputs);
        hideState->setChecked(graphView_->stateHidden());
        inlineInputs->setChecked(graphView_->inlineInputs());
    });
    graphView_->setObjectName(QStringLiteral("graphView"));
    graphView_->showMessage(tr("Open an .ir file to see its graph."));
    column->addWidget(bar);
    column->addWidget(graphView_);
    return panel;
}

void MainWindow::runSearch() {
    const QString pattern = search_->text();
    if (pattern.isEmpty()) {
        graphView_->setSearch(QString());
        searchStatus_->clear();
        return;
    }
    const int n = graphView_->setSearch(pattern);
    searchStatus_->setText(n < 0 ? tr("invalid regular expression")
                                 : n == 0 ? tr("no match") : tr("%n match(es)", nullptr, n));
}

void MainWindow::showNodeInText(const ir::Node* node) {
    if (node == nullptr || syncing_) {
        return;
    }
    const GraphModel& model = graphView_->model();
    const int k = model.indexOf(node);
    if (k < 0) {
        return;
    }
    const ModelNode& mn = model.nodes()[static_cast<std::size_t>(k)];
    // A constant has no line of its own: show its user's.
    const int named = mn.user != nullptr ? model.indexOf(mn.user) : k;
    const ModelNode& target = model.nodes()[static_cast<std::size_t>(named)];
    int from = 0;
    for (int g = target.group; g >= 0; g = model.group(g).parent) {
        if (model.group(g).isGraph) {
            for (const GraphSummary& s : doc_.graphs) {
                if (QStringLiteral("@") + s.name == model.group(g).title) {
                    from = s.textLine;
                }
            }
        }
    }
    const int line = findNodeLine(textLines_, from, target.name);
    if (line < 0) {
        return;
    }
    syncing_ = true;
    QTextCursor cursor(irText_->document()->findBlockByNumber(line));
    irText_->setTextCursor(cursor);
    irText_->centerCursor();
    syncing_ = false;
}

void MainWindow::selectNodeAtCursor() {
    if (syncing_ || !doc_.ok()) {
        return;
    }
    const int line = irText_->textCursor().blockNumber();
    const QString text = irText_->textCursor().block().text();
    static const QRegularExpression lead(QStringLiteral("^\\s*(%[A-Za-z0-9_]+)[ (:]"));
    const QRegularExpressionMatch m = lead.match(text);
    if (!m.hasMatch()) {
        return;
    }
    // The graph whose section holds the line.
    QString graph;
    for (const GraphSummary& s : doc_.graphs) {
        if (s.textLine <= line) {
            graph = QStringLiteral("@") + s.name;
        }
    }
    const QString name = m.captured(1);
    const GraphModel& model = graphView_->model();
    for (const ModelNode& mn : model.nodes()) {
        if (mn.name != name || mn.user != nullptr) {
            continue;
        }
        int g = mn.group;
        while (g >= 0 && !model.group(g).isGraph) {
            g = model.group(g).parent;
        }
        if (name.startsWith(QStringLiteral("%para")) || (g >= 0 && model.group(g).title == graph)) {
            syncSelection({mn.node}, SelectionOrigin::IrText);
            return;
        }
    }
}

void MainWindow::syncSelection(const std::vector<const ir::Node*>& nodes, SelectionOrigin from) {
    if (nodes.empty() || nodes.front() == nullptr || !doc_.ok()) {
        return;
    }
    const ir::Node* node = nodes.front();
    if (from != SelectionOrigin::Source) {
        sourceLine_ = 0;
    }
    if (from != SelectionOrigin::Graph) {
        syncing_ = true;
        graphView_->selectNodes(nodes);
        syncing_ = false;
    }
    if (from != SelectionOrigin::IrText) {
        showNodeInText(node);
    }
    const GraphModel& model = graphView_->model();
    inspectorDock_->showNode(node, model);
    if (from == SelectionOrigin::Source) {
        return;
    }
    // The node's innermost location in the script (a constant: its user's).
    const ir::Node* located = node;
    if (const int k = model.indexOf(node); node->debug().trace.empty() && k >= 0) {
        if (const ir::CNode* user = model.nodes()[static_cast<std::size_t>(k)].user) {
            located = user;
        }
    }
    const auto& trace = located->debug().trace;
    for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
        if (it->line > 0 && editorDock_->isScriptFile(QString::fromStdString(it->file))) {
            editorDock_->showLocation(QString::fromStdString(it->file), it->line);
            return;
        }
    }
    // An .ir file opened with no script: open the script its node names, when it is here.
    if (editorDock_->path().isEmpty() && !trace.empty() && trace.back().line > 0) {
        const QString file = QString::fromStdString(trace.back().file);
        if (QFileInfo(file).isFile() && editorDock_->openScript(file)) {
            editorDock_->showLocation(file, trace.back().line);
            return;
        }
    }
    editorDock_->clearLocation();
}

std::vector<const ir::Node*> MainWindow::nodesAtSourceLine(int line) const {
    // Nodes whose location starts on the line; failing that, those whose span covers it
    // most narrowly (a statement over several lines).
    std::vector<const ir::Node*> exact;
    std::vector<const ir::Node*> covering;
    int narrowest = std::numeric_limits<int>::max();
    QHash<QString, bool> isScript;  // per file name seen
    for (const ModelNode& mn : graphView_->model().nodes()) {
        if (mn.user != nullptr) {
            continue;  // a constant's use: not created by a line of its own
        }
        bool onLine = false;
        int span = std::numeric_limits<int>::max();
        for (const ir::SourceLocation& loc : mn.node->debug().trace) {
            const int end = std::max(loc.line, loc.lineEnd);
            if (loc.line <= 0 || line < loc.line || line > end) {
                continue;
            }
            const QString file = QString::fromStdString(loc.file);
            auto known = isScript.find(file);
            if (known == isScript.end()) {
                known = isScript.insert(file, editorDock_->isScriptFile(file));
            }
            if (!*known) {
                continue;
            }
            onLine = onLine || loc.line == line;
            span = std::min(span, end - loc.line);
        }
        if (onLine) {
            exact.push_back(mn.node);
        } else if (span < narrowest) {
            narrowest = span;
            covering.assign(1, mn.node);
        } else if (span == narrowest && span != std::numeric_limits<int>::max()) {
            covering.push_back(mn.node);
        }
    }
    return exact.empty() ? covering : exact;
}

void MainWindow::selectNodesAtSourceLine(int line) {
    if (!doc_.ok()) {
        return;
    }
    if (session_ != nullptr && editorDock_->isScriptFile(QString::fromStdString(session_->scriptPath)) &&
        editorDock_->text().toStdString() != session_->scriptText) {
        // The lines no longer say where the IR's nodes came from.
        statusBar()->showMessage(tr("The script was edited since it ran: run it again (Ctrl+R) to select by line"),
                                 4000);
        return;
    }
    const std::vector<const ir::Node*> nodes = nodesAtSourceLine(line);
    if (nodes.empty()) {
        statusBar()->showMessage(tr("Line %1 created no node in this IR").arg(line), 4000);
        return;
    }
    statusBar()->showMessage(tr("Line %1: %n node(s) selected", nullptr, static_cast<int>(nodes.size())).arg(line),
                             4000);
    sourceLine_ = line;
    syncSelection(nodes, SelectionOrigin::Source);
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    settings.setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openFile(f); })
            ->setToolTip(f);
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

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
    if (!editorDock_->maybeSave()) {
        e->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

}  // namespace irscope::ui
