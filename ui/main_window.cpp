#include "main_window.h"

#include <QAction>
#include <QApplication>
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
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "irscope_version.h"

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
    graphView_ = new SvgGraphView(tabs_);
    graphView_->setObjectName(QStringLiteral("graphView"));
    graphView_->showMessage(tr("Open an .ir file to see its graph."));
    irText_ = new QPlainTextEdit(tabs_);
    irText_->setObjectName(QStringLiteral("irText"));
    irText_->setReadOnly(true);
    irText_->setLineWrapMode(QPlainTextEdit::NoWrap);
    irText_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    irText_->setPlaceholderText(tr("Open an .ir file (File ▸ Open, or drop it here)."));
    layout->addWidget(errorBanner_);
    tabs_->addTab(graphView_, tr("Graph"));
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

    countsLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(countsLabel_);
    statusBar()->showMessage(tr("Ready"));

    buildMenus();
    connect(&watcher_, &QFutureWatcher<LoadedIr>::finished, this, &MainWindow::onLoaded);

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

MainWindow::~MainWindow() { watcher_.waitForFinished(); }

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
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
        this, tr("Open IR"), QString(), tr("IR files (*.ir);;All files (*)"));
    if (!path.isEmpty()) {
        openFile(path);
    }
}

bool MainWindow::isLoading() const { return watcher_.isRunning(); }

void MainWindow::openFile(const QString& path) {
    if (watcher_.isRunning()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
        return;
    }
    statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    watcher_.setFuture(QtConcurrent::run(&loadIrFile, path));
}

void MainWindow::onLoaded() {
    LoadedIr result = watcher_.result();
    if (!result.ok()) {
        // Keep what was shown before; say what is wrong and where.
        errorBanner_->setText(result.error);
        errorBanner_->show();
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(result.path).fileName()));
        emit loadFinished(false);
        return;
    }
    doc_ = std::move(result);
    errorBanner_->hide();
    irText_->setPlainText(doc_.text);
    if (doc_.svg.isEmpty() || !graphView_->setSvg(doc_.svg)) {
        graphView_->showMessage(doc_.graphNote.isEmpty() ? tr("No drawing for this file.")
                                                         : doc_.graphNote);
    }
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
    setWindowTitle(tr("%1 — irscope").arg(QFileInfo(doc_.path).fileName()));
    statusBar()->showMessage(tr("Opened %1").arg(doc_.path), 5000);
    addRecentFile(doc_.path);
    emit loadFinished(true);
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
