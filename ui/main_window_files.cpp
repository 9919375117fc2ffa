// MainWindow: opening save_graphs dump folders, File ▸ Export, Help ▸ Examples, the Run
// menu's settings and View ▸ Theme (the rest of the window is in main_window.cpp).
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include "compilations_dock.h"
#include "graph_scene.h"
#include "ir/export_dot.h"
#include "layout/graphviz.h"
#include "main_window.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "script_editor_dock.h"
#include "session/stats_csv.h"
#include "statistics_dock.h"

namespace irscope::ui {

namespace {
const char* const kThemeKey = "theme";
}  // namespace

void MainWindow::restoreAppSettings() {
    guideBanner_->setObjectName(QStringLiteral("guideBanner"));
    guideBanner_->setWordWrap(true);
    guideBanner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    guideBanner_->setStyleSheet(
        QStringLiteral("QLabel { background: #e6f0fd; color: #0d2b52; padding: 8px; }"));
    guideBanner_->hide();

    runSettingsLabel_ = new QLabel(this);
    runSettingsLabel_->setObjectName(QStringLiteral("runSettingsLabel"));
    runSettingsLabel_->setToolTip(tr("Compile settings the next script run uses (Run menu)"));
    runSettingsLabel_->setText(runSettings().summary());
    statusBar()->addPermanentWidget(runSettingsLabel_);

    exporter_ = new Exporter(this);
    connect(exporter_, &Exporter::finished, this, [this](const QString& path, const QString& error) {
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
        } else {
            statusBar()->showMessage(tr("Export failed"), 5000);
            // Window-modal but not blocking: the window stays responsive behind it.
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Export"), error, QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("exportErrorBox"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        emit exportFinished(path, error);
    });
    connect(&folderWatcher_, &QFutureWatcher<session::DumpFolder>::finished, this, &MainWindow::onFolderLoaded);
    connect(this, &MainWindow::loadFinished, this, [this] { applyGuide(); });

    QSettings settings;
    setTheme(themeFromKey(settings.value(QLatin1String(kThemeKey)).toString()));
}

// --- Dump folders ---------------------------------------------------------------------------

void MainWindow::openFolder(const QString& dir) {
    if (isLoading()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
        return;
    }
    folderPath_ = dir;
    loadingFolder_ = true;
    jobStop_ = std::stop_source();
    errorBanner_->hide();
    busy_->show();
    busyBar_->setRange(0, 0);
    cancelButton_->setEnabled(true);
    cancelButton_->setToolTip(tr("Stop reading the folder"));
    statusBar()->showMessage(tr("Reading %1…").arg(QDir::toNativeSeparators(dir)));
    QPointer<QProgressBar> bar = busyBar_;
    auto progress = [bar](int done, int total) {
        QMetaObject::invokeMethod(
            bar, [bar, done, total] {
                if (bar) {
                    bar->setRange(0, total);
                    bar->setValue(done);
                }
            },
            Qt::QueuedConnection);
    };
    folderWatcher_.setFuture(QtConcurrent::run(&longWork_, [dir, progress, stop = jobStop_.get_token()] {
        return session::loadDumpFolder(QDir(dir).filesystemAbsolutePath(), progress, stop);
    }));
}

void MainWindow::onFolderLoaded() {
    loadingFolder_ = false;
    busy_->hide();
    busyBar_->setRange(0, 0);
    cancelButton_->setToolTip(tr("Stop the running script"));
    session::DumpFolder r = folderWatcher_.result();
    const QString name = QFileInfo(folderPath_).fileName();
    if (r.session == nullptr || r.session->compiles.empty()) {
        showError(QString::fromStdString(r.error));
        statusBar()->showMessage(tr("Could not open %1").arg(name));
        emit loadFinished(false);
        return;
    }
    if (r.failed > 0) {
        showError(tr("%n of %1 file(s) could not be read; their rows in the Pass timeline say why. "
                     "The first:\n%2", nullptr, r.failed)
                      .arg(r.files)
                      .arg(QString::fromStdString(r.error)));
    }
    showLoadedSession(std::move(r.session), folderPath_);
    const int compiles = static_cast<int>(session_->compiles.size());
    statusBar()->showMessage(r.cancelled ? tr("Stopped reading %1; %n compile(s) so far", nullptr, compiles).arg(name)
                                         : tr("%1: %2 file(s), %n compile(s)", nullptr, compiles)
                                               .arg(name)
                                               .arg(r.files),
                             8000);
    emit loadFinished(true);
}

void MainWindow::showLoadedSession(std::shared_ptr<const session::Session> s, const QString& path) {
    session_ = std::move(s);
    script_ = LoadedScript();
    script_.path = path;
    script_.session = session_;
    outputDock_->clear();
    setWindowTitle(tr("%1 — irscope").arg(QFileInfo(path).fileName()));
    addRecentFile(path);
    compilationsDock_->setSession(session_);
    statisticsDock_->setSession(session_);
    if (!session_->compiles.empty()) {
        compilationsDock_->selectRow(0);
    }
}

// --- Menus ----------------------------------------------------------------------------------

void MainWindow::addFileMenuItems(QMenu* file) {
    QAction* folder = file->addAction(tr("Open &Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a save_graphs Dump Folder"));
        if (!dir.isEmpty()) {
            openFolder(dir);
        }
    });
    folder->setObjectName(QStringLiteral("actionOpenFolder"));
    folder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    folder->setToolTip(tr("Open a MindSpore save_graphs folder (NN_pass_SSSS.ir files) as a pass sequence"));

    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->setObjectName(QStringLiteral("exportMenu"));
    const std::pair<ExportKind, QString> items[] = {
        {ExportKind::Svg, tr("Graph as &SVG…")},
        {ExportKind::Png, tr("Graph View as &PNG…")},
        {ExportKind::Dot, tr("Graph as &DOT…")},
        {ExportKind::Ir, tr("&IR Text…")},
        {ExportKind::PassCsv, tr("Pass &Statistics as CSV…")},
        {ExportKind::TotalsCsv, tr("Compile &Totals as CSV…")},
    };
    const char* const names[] = {"actionExportSvg", "actionExportPng", "actionExportDot",
                                 "actionExportIr", "actionExportPassCsv", "actionExportTotalsCsv"};
    int k = 0;
    for (const auto& [kind, text] : items) {
        if (kind == ExportKind::PassCsv) {
            exportMenu->addSeparator();
        }
        QAction* a = exportMenu->addAction(text, this, [this, kind = kind] { askExport(kind); });
        a->setObjectName(QLatin1String(names[k++]));
    }
}

void MainWindow::addRunMenu() {
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    QSettings settings;
    runMenu_ = new RunSettingsMenu(run, RunSettings::load(settings));
    run->addSeparator();
    // The script as the editor holds it (edited or not), else the last script run.
    QAction* rerun = run->addAction(tr("&Run Again With These Settings"), this, [this] {
        if (!editorDock_->path().isEmpty()) {
            runEditorScript();
        } else if (!script_.path.isEmpty() && QFileInfo(script_.path).isFile()) {
            openFile(script_.path);
        }
    });
    rerun->setObjectName(QStringLiteral("actionRerun"));
    rerun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));  // F5 is the debugger's Continue
    connect(runMenu_, &RunSettingsMenu::changed, this, [this](const RunSettings& s) { setRunSettings(s); });
}

void MainWindow::addViewMenuItems(QMenu* view) {
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("&Theme"));
    themes->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(themes);
    const std::pair<Theme, QString> items[] = {
        {Theme::Light, tr("&Light")}, {Theme::Dark, tr("&Dark")}, {Theme::System, tr("&System")}};
    for (const auto& [t, text] : items) {
        QAction* a = themes->addAction(text, this, [this, t = t] { setTheme(t); });
        a->setObjectName(QStringLiteral("actionTheme_") + themeKey(t));
        a->setCheckable(true);
        a->setData(themeKey(t));
        group->addAction(a);
    }
}

void MainWindow::addHelpMenuItems(QMenu* help) {
    QMenu* menu = help->addMenu(tr("&Examples"));
    menu->setObjectName(QStringLiteral("examplesMenu"));
    QString error;
    examples_ = loadExamples(examplesDir(), &error);
    if (!error.isEmpty()) {
        menu->setToolTip(error);
    }
    for (const ExampleInfo& e : examples_) {
        QAction* a = menu->addAction(tr("%1 — %2").arg(e.name, e.title), this, [this, e] { openExample(e); });
        a->setObjectName(QStringLiteral("example:") + e.name);
        a->setToolTip(e.explanation);
    }
    menu->setEnabled(!examples_.isEmpty());
    help->addSeparator();
}

// --- Run settings and theme -----------------------------------------------------------------

const RunSettings& MainWindow::runSettings() const { return runMenu_->settings(); }

void MainWindow::setRunSettings(const RunSettings& s) {
    runMenu_->setSettings(s);
    QSettings settings;
    s.save(settings);
    runSettingsLabel_->setText(s.summary());
    statusBar()->showMessage(tr("The next run uses %1").arg(s.summary()), 5000);
}

void MainWindow::setTheme(Theme t) {
    theme_ = t;
    applyTheme(t);
    QSettings().setValue(QLatin1String(kThemeKey), themeKey(t));
    for (QAction* a : findChildren<QAction*>()) {
        if (a->objectName().startsWith(QStringLiteral("actionTheme_"))) {
            a->setChecked(a->data().toString() == themeKey(t));
        }
    }
}

// --- Examples -------------------------------------------------------------------------------

void MainWindow::openExample(const ExampleInfo& example) {
    if (isLoading()) {
        statusBar()->showMessage(tr("Still loading; try again when it is done"), 3000);
        return;
    }
    RunSettings s;
    s.loadElim = example.settings.value(QString::fromUtf8(passes::kSideEffectLoadElim.data(), static_cast<qsizetype>(passes::kSideEffectLoadElim.size())), RunSettings::kScript);
    s.cellReuse = example.settings.value(QString::fromUtf8(passes::kCellReuse.data(), static_cast<qsizetype>(passes::kCellReuse.size())), RunSettings::kScript);
    if (!(s == runSettings())) {
        setRunSettings(s);
    }
    guide_ = example;
    QString text = QStringLiteral("<b>%1</b> — %2<br>").arg(example.name.toHtmlEscaped(), example.title.toHtmlEscaped());
    text += example.explanation.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (!example.settings.isEmpty()) {
        QStringList set;
        for (auto it = example.settings.begin(); it != example.settings.end(); ++it) {
            set << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
        }
        text += QStringLiteral("<br><i>%1</i>").arg(tr("Run settings for this example: %1").arg(set.join(QStringLiteral(", "))));
    }
    guideBanner_->setText(text);
    guideBanner_->show();
    openFile(example.file);
}

void MainWindow::applyGuide() {
    if (!guide_) {
        return;
    }
    if (session_ == nullptr || guide_->compile < 0 ||
        guide_->compile >= static_cast<int>(session_->compiles.size())) {
        return;
    }
    compilationsDock_->selectRow(guide_->compile);
    const session::CompileRecord& c = session_->compiles[static_cast<std::size_t>(guide_->compile)];
    if (!guide_->pass.isEmpty()) {
        for (std::size_t i = 0; i < c.snapshots.size(); ++i) {
            if (QString::fromStdString(c.snapshots[i].pass) == guide_->pass) {
                timelineDock_->model()->setHideUnchanged(false);
                timelineDock_->selectRow(timelineDock_->model()->rowOfSnapshot(static_cast<int>(i)));
                break;
            }
        }
    }
}

// --- Export ---------------------------------------------------------------------------------

void MainWindow::askExport(ExportKind kind) {
    QString base = QFileInfo(script_.path.isEmpty() ? doc_.path : script_.path).completeBaseName();
    if (base.isEmpty()) {
        base = QStringLiteral("irscope");
    }
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export"), base + QLatin1Char('.') + exportSuffix(kind), exportFilter(kind));
    if (!path.isEmpty()) {
        exportTo(kind, path);
    }
}

bool MainWindow::exportTo(ExportKind kind, const QString& path) {
    auto refuse = [this, &path](const QString& why) {
        statusBar()->showMessage(why, 5000);
        emit exportFinished(path, why);
        return false;
    };
    if (exporter_->isRunning()) {
        return refuse(tr("An export is still running"));
    }
    const bool graph = kind == ExportKind::Svg || kind == ExportKind::Png || kind == ExportKind::Dot ||
                       kind == ExportKind::Ir;
    if (graph && !doc_.ok()) {
        return refuse(tr("Nothing to export: open an .ir file, a script or a dump folder first"));
    }
    std::function<QByteArray()> make;
    switch (kind) {
    case ExportKind::Svg:
    case ExportKind::Dot: {
        const bool svg = kind == ExportKind::Svg;
        make = [module = doc_.module, svg] {
            const std::string dot = ir::exportDot(*module);
            const std::string out = svg ? layout::renderDot(dot, "svg") : dot;
            return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
        };
        statusBar()->showMessage(svg ? tr("Rendering the SVG…") : tr("Writing the DOT…"));
        break;
    }
    case ExportKind::Png: {
        const QByteArray png = renderScenePng(*graphView_->scene(), graphView_->backgroundBrush().color());
        if (png.isEmpty()) {
            return refuse(tr("Nothing to export: the graph view is empty"));
        }
        make = [png] { return png; };
        break;
    }
    case ExportKind::Ir:
        make = [text = doc_.text] { return text.toUtf8(); };
        break;
    case ExportKind::PassCsv: {
        const session::CompileRecord* c = timelineDock_->model()->compile();
        if (c == nullptr) {
            return refuse(tr("Nothing to export: select a compile first"));
        }
        make = [owner = session_, c] {
            const std::string csv = session::passStatsCsv(*c);
            return QByteArray(csv.data(), static_cast<qsizetype>(csv.size()));
        };
        break;
    }
    case ExportKind::TotalsCsv:
        if (session_ == nullptr) {
            return refuse(tr("Nothing to export: run a script or open a dump folder first"));
        }
        make = [owner = session_] {
            const std::string csv = session::compileTotalsCsv(*owner);
            return QByteArray(csv.data(), static_cast<qsizetype>(csv.size()));
        };
        break;
    }
    exporter_->start(path, std::move(make));
    return true;
}

}  // namespace irscope::ui
