// irscope: the desktop app. `irscope [FILE]` opens FILE at start.
#include <QApplication>
#include <QCommandLineParser>

#include "irscope_version.h"
#include "main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("irscope"));
    QApplication::setApplicationName(QStringLiteral("irscope"));
    QApplication::setApplicationVersion(QStringLiteral(IRSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("IR visualizer and debugger for static computation graphs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("An .ir file to open"));
    parser.process(app);

    irscope::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty()) {
        window.openFile(parser.positionalArguments().first());
    }
    return QApplication::exec();
}
