// irscope: the desktop app. `irscope [FILE]` opens FILE (.py script, .ir file or a
// save_graphs dump folder) at start.
// `irscope --screenshot OUT.png [--view graph|compare|stats|execution] FILE` opens FILE,
// waits until every piece of work (script run, snapshot parsing, layout) is done, saves the
// main window as a PNG and exits (0 when FILE opened, 1 otherwise); it works with
// `-platform offscreen`. A screenshot uses the default window layout and saves no settings.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "irscope_version.h"
#include "main_window.h"
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
                                 QStringLiteral("A .py script to run, an .ir file or a save_graphs folder to open"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Open FILE, wait until all work is done, save the window to OUT.png, exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  QStringLiteral("View to screenshot: graph (default), compare, "
                                                 "stats or execution."),
                                  QStringLiteral("VIEW"), QStringLiteral("graph"));
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    const bool shooting = parser.isSet(screenshot);
    if (shooting) {
        const QString v = parser.value(view);
        static const QStringList known = {QStringLiteral("graph"), QStringLiteral("compare"),
                                          QStringLiteral("stats"), QStringLiteral("execution")};
        if (!known.contains(v)) {
            std::fprintf(stderr, "irscope: error: --view: unknown view '%s' (graph, compare, stats, execution)\n",
                         qPrintable(v));
            return 2;
        }
        if (v != QStringLiteral("graph") && v != QStringLiteral("stats")) {
            std::fprintf(stderr, "irscope: note: the %s view is not built yet; showing the graph view\n",
                         qPrintable(v));
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
            window.viewTabs()->setCurrentIndex(0);
            if (parser.value(view) == QStringLiteral("stats")) {
                // The Statistics dock in front, tall enough for its charts to be read.
                window.statisticsDock()->raise();
                window.resizeDocks({window.statisticsDock()}, {window.height() * 2 / 3}, Qt::Vertical);
            }
            QObject::connect(&window, &irscope::ui::MainWindow::loadFinished, &window,
                             [&window, out = parser.value(screenshot)](bool ok) {
                                 screenshotWhenIdle(window, out, ok);
                             });
            window.openFile(files.first());
        }
    }
    return QApplication::exec();
}
