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
#include <QTabWidget>
#include <QToolBar>
#include <QLineEdit>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <QHBoxLayout>
#include <QPointer>

#include "compilations_dock.h"
#include "graph_scene.h"
#include "irscope_version.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
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
    outputDock_->raise();
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
        if (runner_ && runningScript_ && !runner_->cancelRequested()) {
            statusBar()->showMessage(tr("Running %1… %L2 steps, %3 s")
                                         .arg(QFileInfo(script_.path).fileName())
                                         .arg(runner_->stepsTaken())
                                         .arg(static_cast<double>(scriptClock_.elapsed()) / 1000.0, 0, 'f', 1));
        }
    });

    countsLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(countsLabel_);
    statusBar()->showMessage(tr("Ready"));

    buildMenus();
    restoreAppSettings();
    connect(&watcher_, &QFutureWatcher<LoadedIr>::finished, this, &MainWindow::onLoaded);
    connect(&scriptWatcher_, &QFutureWatcher<LoadedScript>::finished, this,
            &MainWindow::onScriptFinished);
    connect(&snapshotWatcher_, &QFutureWatcher<LoadedIr>::finished, this,
            &MainWindow::onSnapshotLoaded);
    connect(graphView_, &GraphView::nodeSelected, this, &MainWindow::showNodeInText);
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
    if (runner_) {
        runner_->cancel();
    }
    if (folderCancel_) {
        folderCancel_->store(true);
    }
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

void MainWindow::showOpenDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open"), QString(),
        tr("Scripts and IR (*.py *.ir);;Python scripts (*.py);;IR files (*.ir);;All files (*)"));
    if (!path.isEmpty()) {
        openFile(path);
    }
}

// A watcher stops "running" before its finished() reaches us: the flags last until the
// result is handled.
bool MainWindow::isLoading() const { return loadingIr_ || runningScript_ || loadingFolder_; }

bool MainWindow::isBusy() const {
    return isLoading() || loadingSnapshot_ || graphView_->isLayoutRunning();
}

QWidget* MainWindow::busyIndicator() const { return busy_; }

void MainWindow::openFile(const QString& path) {
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
    if (QFileInfo(path).suffix().compare(QStringLiteral("py"), Qt::CaseInsensitive) == 0) {
        startScript(path);
        return;
    }
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    loadingIr_ = true;
    watcher_.setFuture(QtConcurrent::run(&loadIrFile, path));
}

void MainWindow::showError(const QString& text) {
    errorBanner_->setText(text);
    errorBanner_->show();
}

void MainWindow::onLoaded() {
    loadingIr_ = false;
    LoadedIr result = watcher_.result();
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

void MainWindow::startScript(const QString& path) {
    runner_ = std::make_shared<session::ScriptRunner>();
    script_ = LoadedScript();
    script_.path = path;
    outputDock_->clear();
    errorBanner_->hide();
    setBusy(true, tr("Running %1…").arg(QFileInfo(path).fileName()));
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
    scriptWatcher_.setFuture(QtConcurrent::run([path, runner = runner_, output,
                                                 options = runSettings().scriptOptions()] {
        return runScriptFile(path, runner, output, options);
    }));
}

void MainWindow::cancelScript() {
    if (folderCancel_ && loadingFolder_) {
        folderCancel_->store(true);
        cancelButton_->setEnabled(false);
    }
    if (runner_ && runningScript_) {
        runner_->cancel();
        cancelButton_->setEnabled(false);
        statusBar()->showMessage(tr("Stopping the script…"));
    }
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
    if (script_.session == nullptr) {
        statusBar()->showMessage(tr("Could not open %1").arg(name));
        emit loadFinished(false);
        return;
    }
    session_ = script_.session;
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
}

void MainWindow::showSnapshot(const session::CompileRecord* compile, int snapshot) {
    // Only compiles of the current session (a pending request may predate a newer script).
    const bool current = session_ != nullptr && compile != nullptr && !session_->compiles.empty() &&
                         compile >= &session_->compiles.front() && compile <= &session_->compiles.back();
    if (!current || snapshot < 0 || snapshot >= static_cast<int>(compile->snapshots.size())) {
        return;
    }
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
    doc_ = std::move(result);
    irText_->setPlainText(doc_.text);
    textLines_ = doc_.text.split(QLatin1Char('\n'));
    graphView_->setModel(doc_.module, *doc_.graph);
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
            syncing_ = true;
            graphView_->selectNode(mn.node);
            syncing_ = false;
            return;
        }
    }
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
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

}  // namespace irscope::ui
