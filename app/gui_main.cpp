// irscope: the desktop app. `irscope [FILE]` opens FILE (.py script, .ir file, .irscope
// session or save_graphs dump folder) at start.
// `irscope --screenshot OUT.png [--view graph|compare|stats|execution] [--pass NAME]
// [--compare SETTINGS [--find-first-difference]] [--break LOCATION] FILE` opens FILE, waits until
// every piece of work (script run, snapshot parsing, layout, comparisons) is done, saves the main
// window as a PNG and exits (0 when FILE opened, 1 otherwise); it works with `-platform offscreen`.
// --pass selects a pass of the first compile (the compare view shows it against the pass
// before it); --compare load-elim=1,3 (or cell-reuse=A,B, lazy-inline, mode) shows the settings
// compare, and --find-first-difference then finds the first divergent kernel in it.
// `--view execution` runs FILE under the debugger to a stop (`--break LOCATION`, as
// irscope-cli debug takes it; without it, the first kernel) and shows its values.
// `--expand REGEX` opens, in the graph view, the first group whose title matches (a scope
// such as `^0-Block$`, with every group around it) once the graph is shown.
// A screenshot uses the default window layout and saves no settings.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <optional>

#include "execution_dock.h"
#include "graph_view.h"
#include "irscope_version.h"
#include "compare_view.h"
#include "main_window.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "settings_compare.h"
#include "statistics_dock.h"

namespace {

constexpr int kScreenshotTimeoutMs = 300000;

// Polls until the window has been idle for a few ticks in a row, then grabs it.
void screenshotWhenIdle(irscope::ui::MainWindow& window, const QString& out, bool opened) {
    auto* timer = new QTimer(&window);
    auto idleTicks = std::make_shared<int>(0);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(timer, &QTimer::timeout, &window, [&window, timer, idleTicks, clock, out, opened] {
        if (window.isBusy()) {
            *idleTicks = 0;
            if (clock->elapsed() < kScreenshotTimeoutMs) {
                return;
            }
            std::fprintf(stderr, "irscope: error: --screenshot: still busy after %d s; saving anyway\n",
                         kScreenshotTimeoutMs / 1000);
        } else if (++*idleTicks < 3) {
            return;
        }
        timer->stop();
        const bool saved = window.grab().save(out, "PNG");
        if (!saved) {
            std::fprintf(stderr, "irscope: error: cannot write %s\n", qPrintable(out));
        }
        QApplication::exit(saved && opened ? 0 : 1);
    });
    timer->start(100);
}

// Selects the first row of the timeline showing pass `name` (no-op when empty or absent).
void selectPass(irscope::ui::MainWindow& window, const QString& name) {
    if (name.isEmpty()) {
        return;
    }
    irscope::ui::PassTimelineDock* timeline = window.passTimelineDock();
    for (int row = 0; row < timeline->model()->rowCount(); ++row) {
        const irscope::passes::PassSnapshot* s = timeline->model()->snapshot(row);
        if (s != nullptr && QString::fromStdString(s->pass) == name) {
            timeline->selectRow(row);
            return;
        }
    }
    std::fprintf(stderr, "irscope: note: --pass: no pass '%s' in the first compile\n", qPrintable(name));
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("irscope"));
    QApplication::setApplicationName(QStringLiteral("irscope"));
    QApplication::setApplicationVersion(QStringLiteral(IRSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("IR visualizer and debugger for static computation graphs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .py script to run, an .ir file, an .irscope session or a save_graphs folder to open"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Open FILE, wait until all work is done, save the window to OUT.png, exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("View to screenshot: graph (default), compare, "
                                                 "stats or execution."),
                                  QStringLiteral("VIEW"), QStringLiteral("graph"));
    const QCommandLineOption breakAt(
        QStringLiteral("break"),
        QStringLiteral("With --view execution: where the debug run stops (an op type such as AddN, "
                       "FILE:LINE, @GRAPH:%N); default: the first kernel."),
        QStringLiteral("LOCATION"));
    const QCommandLineOption pass(QStringLiteral("pass"),
                                  QStringLiteral("Select this pass of the first compile (e.g. auto_monad_reorder)."),
                                  QStringLiteral("NAME"));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QStringLiteral("With --view compare: run the script under two settings "
                                                    "and compare them: load-elim=A,B, cell-reuse=A,B, lazy-inline or mode (PyNative vs GRAPH_MODE)."),
                                     QStringLiteral("SETTINGS"));
    const QCommandLineOption expand(QStringLiteral("expand"),
                                    QStringLiteral("Open the first graph group whose title matches REGEX "
                                                   "(e.g. '^0-Block$') and the groups around it."),
                                    QStringLiteral("REGEX"));
    const QCommandLineOption firstDifference(
        QStringLiteral("find-first-difference"),
        QStringLiteral("With --compare: then find the first kernel whose outputs differ "
                       "(Compare ▸ Settings ▸ Find first difference)."));
    parser.addOption(screenshot);
    parser.addOption(firstDifference);
    parser.addOption(view);
    parser.addOption(expand);
    parser.addOption(pass);
    parser.addOption(compare);
    parser.addOption(breakAt);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    const bool shooting = parser.isSet(screenshot);
    std::optional<irscope::ui::SettingsChoice> settingsChoice;
    if (parser.isSet(compare)) {
        QString error;
        settingsChoice = irscope::ui::SettingsChoice::parse(parser.value(compare), &error);
        if (!settingsChoice) {
            std::fprintf(stderr, "irscope: error: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (shooting) {
        const QString v = parser.value(view);
        static const QStringList known = {QStringLiteral("graph"), QStringLiteral("compare"),
                                          QStringLiteral("stats"), QStringLiteral("execution")};
        if (!known.contains(v)) {
            std::fprintf(stderr, "irscope: error: --view: unknown view '%s' (graph, compare, stats, execution)\n",
                         qPrintable(v));
            return 2;
        }
        if (files.isEmpty()) {
            std::fprintf(stderr, "irscope: error: --screenshot needs a FILE to open\n");
            return 2;
        }
    }

    // A screenshot shows the default layout and leaves the user's settings (window state,
    // recent files) alone: its settings live in a throwaway folder.
    QTemporaryDir scratchSettings;
    if (shooting) {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, scratchSettings.path());
    }

    irscope::ui::MainWindow window;
    window.show();
    if (!files.isEmpty()) {
        if (!shooting) {
            window.openFile(files.first());
        } else {
            window.resize(1600, 1000);  // room for the graph and the charts to be read
            window.viewTabs()->setCurrentIndex(0);
            if (parser.value(view) == QStringLiteral("stats")) {
                // The Statistics dock in front, tall enough for its charts to be read.
                window.statisticsDock()->raise();
                window.resizeDocks({window.statisticsDock()}, {window.height() * 2 / 3}, Qt::Vertical);
            }
            if (parser.value(view) == QStringLiteral("execution")) {
                // Run FILE under the debugger once it opened; shoot when it pauses (or ends).
                irscope::ui::ExecutionDock* dock = window.executionDock();
                dock->raise();
                window.resizeDocks({dock}, {window.height() / 2}, Qt::Vertical);
                const QString where = parser.value(breakAt);
                QObject::connect(&window, &irscope::ui::MainWindow::loadFinished, dock, [dock, where] {
                    auto go = [dock, where] {
                        if (!where.isEmpty()) {
                            dock->addBreakpoint(where);
                            dock->run();
                        } else {
                            dock->resume(irscope::runtime::Debugger::Mode::StepInstruction);
                        }
                    };
                    if (dock->devicesScanned()) {
                        go();
                    } else {
                        QObject::connect(dock, &irscope::ui::ExecutionDock::devicesReady, dock, go);
                    }
                }, Qt::SingleShotConnection);
                QObject::connect(dock, &irscope::ui::ExecutionDock::paused, &window,
                                 [&window, out = parser.value(screenshot)] {
                                     screenshotWhenIdle(window, out, true);
                                 }, Qt::SingleShotConnection);
                QObject::connect(dock, &irscope::ui::ExecutionDock::finished, &window,
                                 [&window, out = parser.value(screenshot)] {
                                     std::fprintf(stderr, "irscope: error: --view execution: the run "
                                                          "ended before it stopped anywhere\n");
                                     screenshotWhenIdle(window, out, false);
                                 }, Qt::SingleShotConnection);
            } else {
                const bool comparing = parser.value(view) == QStringLiteral("compare");
                if (parser.isSet(expand)) {
                    const QRegularExpression re(parser.value(expand));
                    irscope::ui::GraphView* gv = window.graphView();
                    QObject::connect(gv, &irscope::ui::GraphView::layoutFinished, gv, [gv, re] {
                        const auto& groups = gv->model().groups();
                        for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
                            if (re.match(groups[static_cast<std::size_t>(g)].title).hasMatch()) {
                                gv->openGroup(g);
                                return;
                            }
                        }
                        std::fprintf(stderr, "irscope: note: --expand: no group matches '%s'\n",
                                     qPrintable(re.pattern()));
                    }, Qt::SingleShotConnection);
                }
                QObject::connect(&window, &irscope::ui::MainWindow::loadFinished, &window,
                                 [&window, out = parser.value(screenshot), comparing,
                                  settingsChoice, passName = parser.value(pass),
                                  findFirst = parser.isSet(firstDifference)](bool ok) {
                                     selectPass(window, passName);
                                     if (comparing) {
                                         window.outputDock()->hide();  // room for both panes
                                         window.statisticsDock()->hide();
                                         window.executionDock()->hide();
                                         if (settingsChoice && window.session() != nullptr) {
                                             if (findFirst) {
                                                 auto* sc = window.settingsCompareView();
                                                 QObject::connect(
                                                     sc,
                                                     &irscope::ui::SettingsCompareView::finished,
                                                     sc, [sc] { sc->findFirstDifference(); },
                                                     Qt::SingleShotConnection);
                                             }
                                             window.compareSettings(*settingsChoice);
                                         } else {
                                             window.viewTabs()->setCurrentWidget(window.compareView());
                                         }
                                     }
                                     screenshotWhenIdle(window, out, ok);
                                 });
            }
            window.openFile(files.first());
        }
    }
    return QApplication::exec();
}
