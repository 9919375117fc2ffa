#include "main_menus.h"

#include <QAbstractButton>
#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include "compare_view.h"
#include "execution_dock.h"
#include "irscope_version.h"
#include "main_window.h"
#include "pass_timeline_dock.h"
#include "run_settings.h"
#include "script_editor_dock.h"
#include "settings_compare.h"

namespace irscope::ui {

namespace {

constexpr int kMaxRecentFiles = 10;
const char* const kRecentKey = "recentFiles";

// --- the dialogs the actions open ---

void openDialog(MainWindow* w) {
    const QString path = QFileDialog::getOpenFileName(
        w, MainWindow::tr("Open"), QString(),
        MainWindow::tr(
            "Scripts, IR and sessions (*.py *.ir *.irscope);;Python scripts (*.py);;IR files "
            "(*.ir);;irscope sessions (*.irscope);;All files (*)"));
    if (!path.isEmpty()) {
        w->openFile(path);
    }
}

void openFolderDialog(MainWindow* w) {
    const QString dir =
        QFileDialog::getExistingDirectory(w, MainWindow::tr("Open a save_graphs Dump Folder"));
    if (!dir.isEmpty()) {
        w->openFolder(dir);
    }
}

void saveSessionDialog(MainWindow* w) {
    if (w->session() == nullptr) {
        w->statusBar()->showMessage(
            MainWindow::tr("Nothing to save: run a script or open a session first"), 5000);
        return;
    }
    const QFileInfo ran(w->script().path);
    const QString suggested =
        w->script().fromSessionFile
            ? w->script().path
            : ran.dir().filePath(ran.completeBaseName() + QStringLiteral(".irscope"));
    const QString path =
        QFileDialog::getSaveFileName(w, MainWindow::tr("Save Session"), suggested,
                                     MainWindow::tr("irscope sessions (*.irscope)"));
    if (!path.isEmpty()) {
        w->saveSession(QFileInfo(path).suffix().isEmpty() ? path + QStringLiteral(".irscope")
                                                          : path);
    }
}

void exportDialog(MainWindow* w, ExportKind kind) {
    const QString base =
        QFileInfo(w->script().path.isEmpty() ? w->document().path : w->script().path)
            .completeBaseName();
    const QString path = QFileDialog::getSaveFileName(
        w, MainWindow::tr("Export"),
        (base.isEmpty() ? QStringLiteral("irscope") : base) + QLatin1Char('.') + exportSuffix(kind),
        exportFilter(kind));
    if (!path.isEmpty()) {
        w->exportTo(kind, path);
    }
}

void compareSettingsDialog(MainWindow* w) {
    if (w->script().path.isEmpty() || w->isLoading()) {
        w->statusBar()->showMessage(
            MainWindow::tr("Open a script first: its run is compared under two settings"), 5000);
        return;
    }
    auto* dialog = new SettingsCompareDialog(w);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QDialog::accepted, w,
                     [w, dialog] { w->compareSettings(dialog->choice()); });
    dialog->open();
}

// --- the menus ---

void fileMenu(MainWindow* w, MainMenus& m) {
    QMenu* file = w->menuBar()->addMenu(MainWindow::tr("&File"));
    file->addAction(MainWindow::tr("&Open…"), w, [w] { openDialog(w); })
        ->setShortcut(QKeySequence::Open);
    m.recent = file->addMenu(MainWindow::tr("Open &Recent"));
    rebuildRecentMenu(m.recent, w);
    file->addAction(w->scriptEditorDock()->saveAction());
    m.saveSession =
        file->addAction(MainWindow::tr("Save &Session…"), w, [w] { saveSessionDialog(w); });
    m.saveSession->setObjectName(QStringLiteral("saveSessionAction"));
    m.saveSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m.saveSession->setEnabled(false);  // until a script ran or a session opened
    QAction* folder =
        file->addAction(MainWindow::tr("Open &Folder…"), w, [w] { openFolderDialog(w); });
    folder->setObjectName(QStringLiteral("actionOpenFolder"));
    folder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    folder->setToolTip(MainWindow::tr(
        "Open a MindSpore save_graphs folder (NN_pass_SSSS.ir files) as a pass sequence"));
    QMenu* exportMenu = file->addMenu(MainWindow::tr("&Export"));
    exportMenu->setObjectName(QStringLiteral("exportMenu"));
    const std::tuple<ExportKind, QString, const char*> items[] = {
        {ExportKind::Svg, MainWindow::tr("Graph as &SVG…"), "actionExportSvg"},
        {ExportKind::Png, MainWindow::tr("Graph View as &PNG…"), "actionExportPng"},
        {ExportKind::Dot, MainWindow::tr("Graph as &DOT…"), "actionExportDot"},
        {ExportKind::Ir, MainWindow::tr("&IR Text…"), "actionExportIr"},
        {ExportKind::PassCsv, MainWindow::tr("Pass &Statistics as CSV…"), "actionExportPassCsv"},
        {ExportKind::TotalsCsv, MainWindow::tr("Compile &Totals as CSV…"), "actionExportTotalsCsv"},
    };
    for (const auto& [kind, text, name] : items) {
        if (kind == ExportKind::PassCsv) {
            exportMenu->addSeparator();
        }
        exportMenu->addAction(text, w, [w, kind = kind] { exportDialog(w, kind); })
            ->setObjectName(QLatin1String(name));
    }
    file->addSeparator();
    file->addAction(MainWindow::tr("&Stop Script"), w, &MainWindow::cancelScript)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    file->addSeparator();
    file->addAction(MainWindow::tr("&Quit"), w, &QWidget::close)->setShortcut(QKeySequence::Quit);
}

void passAndDebugMenus(MainWindow* w) {
    QMenu* passes = w->menuBar()->addMenu(MainWindow::tr("&Passes"));
    PassTimelineDock* timeline = w->passTimelineDock();
    passes->addAction(timeline->previousAction());
    passes->addAction(timeline->nextAction());
    QAction* hide = passes->addAction(MainWindow::tr("&Hide Passes That Changed Nothing"));
    hide->setCheckable(true);
    QObject::connect(hide, &QAction::toggled, timeline->hideUnchangedBox(),
                     &QAbstractButton::setChecked);
    QObject::connect(timeline->hideUnchangedBox(), &QAbstractButton::toggled, hide,
                     &QAction::setChecked);
    QMenu* debug = w->menuBar()->addMenu(MainWindow::tr("&Debug"));
    debug->addActions(w->executionDock()->debugActions());
    debug->addSeparator();
    debug->addAction(w->executionDock()->toggleBreakpointAction());
}

void compareMenu(MainWindow* w, MainMenus& m) {
    QMenu* compare = w->menuBar()->addMenu(MainWindow::tr("&Compare"));
    QAction* passes = compare->addAction(MainWindow::tr("&Before/After Pass"), w, [w] {
        w->viewTabs()->setCurrentWidget(w->compareView());
    });
    passes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    passes->setToolTip(
        MainWindow::tr("The pass selected in the timeline against the pass before it"));
    m.compareSettings =
        compare->addAction(MainWindow::tr("&Settings…"), w, [w] { compareSettingsDialog(w); });
    m.compareSettings->setObjectName(QStringLiteral("compareSettingsAction"));
    m.compareSettings->setIconText(MainWindow::tr("Compare Settings…"));
    m.compareSettings->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    m.compareSettings->setToolTip(
        MainWindow::tr("Run the script under two settings (load elimination levels, lazy inline "
                       "off/on) and compare"));
    QToolBar* bar = w->addToolBar(MainWindow::tr("Compare"));
    bar->setObjectName(QStringLiteral("compareToolBar"));
    bar->addAction(m.compareSettings);
}

void runMenu(MainWindow* w, MainMenus& m) {
    QMenu* run = w->menuBar()->addMenu(MainWindow::tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    QSettings settings;
    m.run = new RunSettingsMenu(run, RunSettings::load(settings));
    run->addSeparator();
    QAction* rerun =
        run->addAction(MainWindow::tr("&Run Again With These Settings"), w, &MainWindow::rerun);
    rerun->setObjectName(QStringLiteral("actionRerun"));
    rerun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));  // F5 is the debugger's Continue
    QObject::connect(m.run, &RunSettingsMenu::changed, w, &MainWindow::setRunSettings);
}

void viewMenu(MainWindow* w) {
    QMenu* view = w->menuBar()->addMenu(MainWindow::tr("&View"));
    for (QDockWidget* d : w->findChildren<QDockWidget*>()) {
        view->addAction(d->toggleViewAction());
    }
    view->addSeparator();
    QMenu* themes = view->addMenu(MainWindow::tr("&Theme"));
    themes->setObjectName(QStringLiteral("themeMenu"));
    auto* group = new QActionGroup(themes);
    const std::pair<Theme, QString> items[] = {{Theme::Light, MainWindow::tr("&Light")},
                                               {Theme::Dark, MainWindow::tr("&Dark")},
                                               {Theme::System, MainWindow::tr("&System")}};
    for (const auto& [t, text] : items) {
        QAction* a = themes->addAction(text, w, [w, t = t] { w->setTheme(t); });
        a->setObjectName(QStringLiteral("actionTheme_") + themeKey(t));
        a->setCheckable(true);
        a->setData(themeKey(t));
        group->addAction(a);
    }
}

void helpMenu(MainWindow* w, MainMenus& m) {
    QMenu* help = w->menuBar()->addMenu(MainWindow::tr("&Help"));
    QMenu* menu = help->addMenu(MainWindow::tr("&Examples"));
    menu->setObjectName(QStringLiteral("examplesMenu"));
    QString error;
    m.examples = loadExamples(examplesDir(), &error);
    if (!error.isEmpty()) {
        menu->setToolTip(error);
    }
    for (const ExampleInfo& e : m.examples) {
        QAction* a = menu->addAction(MainWindow::tr("%1 — %2").arg(e.name, e.title), w,
                                     [w, e] { w->openExample(e); });
        a->setObjectName(QStringLiteral("example:") + e.name);
        a->setToolTip(e.explanation);
    }
    menu->setEnabled(!m.examples.isEmpty());
    help->addSeparator();
    help->addAction(MainWindow::tr("&About irscope"), w, [w] {
        QMessageBox::about(
            w, MainWindow::tr("About irscope"),
            MainWindow::tr("<b>irscope %1</b><p>An IR visualizer and debugger for static "
                           "computation graphs compiled the way MindSpore's GRAPH_MODE "
                           "compiles them.</p>")
                .arg(QStringLiteral(IRSCOPE_VERSION)));
    });
}

}  // namespace

MainMenus buildMainMenus(MainWindow* w) {
    MainMenus m;
    fileMenu(w, m);
    passAndDebugMenus(w);
    compareMenu(w, m);
    runMenu(w, m);
    viewMenu(w);
    helpMenu(w, m);
    return m;
}

void checkThemeAction(MainWindow* w, Theme t) {
    for (QAction* a : w->findChildren<QAction*>()) {
        if (a->objectName().startsWith(QStringLiteral("actionTheme_"))) {
            a->setChecked(a->data().toString() == themeKey(t));
        }
    }
}

void addRecentFile(QMenu* recent, MainWindow* w, const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    settings.setValue(kRecentKey, files);
    rebuildRecentMenu(recent, w);
}

void rebuildRecentMenu(QMenu* recent, MainWindow* w) {
    recent->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        recent->addAction(QFileInfo(f).fileName(), w, [w, f] { w->openFile(f); })->setToolTip(f);
    }
    recent->setEnabled(!files.isEmpty());
}

}  // namespace irscope::ui
