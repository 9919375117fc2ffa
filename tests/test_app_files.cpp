// The desktop app's files, examples and settings, driven offscreen through the real main
// window: open a dump folder written by `irscope-cli run --save-graphs` and step its passes;
// a hand-made MindSpore-style folder with a broken file; File ▸ Export (SVG, PNG, DOT, IR,
// CSV) through the real actions and file dialog; Help ▸ Examples; the Run menu's settings
// reaching the compile; View ▸ Theme; settings persisting across a new MainWindow.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QXmlStreamReader>

#include "cli_runner.h"
#include "compilations_dock.h"
#include "gui_fixture.h"
#include "main_window.h"
#include "pass_timeline_dock.h"
#include "session/dump_folder.h"
#include "statistics_dock.h"

using gui_test::openAndWait;
using gui_test::waitIdle;
using irscope::ui::ExampleInfo;
using irscope::ui::ExportKind;
using irscope::ui::MainWindow;
using irscope::ui::RunSettings;
using irscope::ui::Theme;
namespace session = irscope::session;
namespace passes = irscope::passes;

namespace {

QString example(const char* name) {
    return QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool copyAs(const QString& from, const QString& to) { return QFile::copy(from, to); }

}  // namespace

class TestAppFiles : public QObject {
    Q_OBJECT

    QTemporaryDir settingsDir_;

    static QAction* action(MainWindow& w, const QString& name) { return w.findChild<QAction*>(name); }

    // Exports with exportTo and waits; returns the error ("" on success).
    static QString exportAndWait(MainWindow& w, ExportKind kind, const QString& path) {
        QSignalSpy spy(&w, &MainWindow::exportFinished);
        w.exportTo(kind, path);
        if (spy.isEmpty() && !spy.wait(120000)) {
            return QStringLiteral("timed out");
        }
        return spy.takeFirst().at(1).toString();
    }

private slots:
    void initTestCase() {
        QVERIFY(settingsDir_.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_app_files"));
        // A temporary settings scope: nothing of the user's is read or written.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    }

    void init() { QSettings().clear(); }

    // `irscope-cli run --save-graphs DIR` then File ▸ Open on DIR: one compile per compile of
    // the run, every file a pass, stepping shows each file's IR.
    void opensAFolderWrittenByTheCli() {
        QTemporaryDir dumps;
        QVERIFY(dumps.isValid());
        cli_test::CliOptions o;
        o.env.insert(QStringLiteral("MS_DEV_SAVE_GRAPHS"), QStringLiteral("2"));
        const cli_test::CliRun run = cli_test::runCli(
            {QStringLiteral("run"), example("load_elim_fwd_bwd.py"), QStringLiteral("--save-graphs"), dumps.path()}, o);
        QVERIFY2(run.finished && run.status == 0, run.err.constData());
        const QStringList files = QDir(dumps.path()).entryList({QStringLiteral("*.ir")}, QDir::Files);
        QVERIFY(files.size() > 10);

        MainWindow w;
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, dumps.path(), &ok));
        QVERIFY(ok);
        QVERIFY(!w.errorBanner()->isVisible());
        QVERIFY(w.session() != nullptr);
        const auto& compiles = w.session()->compiles;
        QVERIFY(!compiles.empty());
        QCOMPARE(w.compilationsDock()->model()->rowCount(), static_cast<int>(compiles.size()));
        int total = 0;
        for (const passes::CompileRecord& c : compiles) {
            total += static_cast<int>(c.snapshots.size());
        }
        QCOMPARE(total, static_cast<int>(files.size()));
        QVERIFY(w.windowTitle().startsWith(QFileInfo(dumps.path()).fileName()));

        // The first compile's passes are in the timeline; step through them from the top.
        auto* timeline = w.passTimelineDock();
        const passes::CompileRecord* c = timeline->model()->compile();
        QCOMPARE(c, &compiles.front());
        QCOMPARE(timeline->model()->rowCount(), static_cast<int>(c->snapshots.size()));
        QCOMPARE(QString::fromStdString(timeline->model()->snapshot(0)->pass), QStringLiteral("parse"));
        QVERIFY(waitIdle(w));
        {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->selectRow(0);
            QVERIFY(shown.wait(20000));
            QVERIFY(shown.takeFirst().at(0).toBool());
        }
        const QString parseText = w.irTextView()->toPlainText();
        QVERIFY(parseText.contains(QStringLiteral("subgraph @")));
        int changedSteps = 0;
        for (int step = 0; step < 6; ++step) {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->nextAction()->trigger();
            QVERIFY(shown.wait(20000));
            QVERIFY(shown.takeFirst().at(0).toBool());
            QCOMPARE(timeline->currentRow(), step + 1);
            const passes::PassSnapshot* snap = timeline->model()->snapshot(step + 1);
            QVERIFY(w.errorBanner()->isHidden());
            changedSteps += snap->changed() ? 1 : 0;
            QVERIFY(!timeline->descriptionLabel()->text().isEmpty());
        }
        QVERIFY(changedSteps > 0);
        QVERIFY(w.irTextView()->toPlainText() != parseText);
        // The Statistics dock totals the folder's compiles.
        QCOMPARE(w.statisticsDock()->totalsTable()->rowCount(), static_cast<int>(compiles.size()));
        QVERIFY(waitIdle(w));
    }

    // MindSpore names, a broken file: the window opens the rest, the broken row says where.
    void opensAHandMadeFolderWithABrokenFile() {
        QTemporaryDir dir;
        QVERIFY(copyAs(example("load_elim_level3.ir"), dir.filePath(QStringLiteral("00_parse_0000.ir"))));
        QVERIFY(copyAs(example("load_elim_level3.ir"), dir.filePath(QStringLiteral("01_symbol_resolve_0001.ir"))));
        QFile broken(dir.filePath(QStringLiteral("02_type_inference_0002.ir")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("# IR entry: @g\nsubgraph @g(\n  %1 = \n");
        broken.close();
        QVERIFY(copyAs(example("load_elim_level0.ir"), dir.filePath(QStringLiteral("15_auto_monad_reorder_0003.ir"))));
        QVERIFY(copyAs(example("if_branch_ms23_dump.ir"), dir.filePath(QStringLiteral("graph_build_0_1.ir"))));

        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Dropped on the window, as a file would be.
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir.path())});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(loaded.wait(120000));
        QVERIFY(loaded.takeFirst().at(0).toBool());
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("02_type_inference_0002.ir:")), qPrintable(w.errorBanner()->text()));
        auto* timeline = w.passTimelineDock();
        QCOMPARE(timeline->model()->rowCount(), 5);
        const QModelIndex mark = timeline->model()->index(2, irscope::ui::PassTimelineModel::Changed);
        QCOMPARE(mark.data().toString(), QStringLiteral("error"));
        // Files carry no times: the column says so instead of 0.
        QCOMPARE(timeline->model()->index(0, irscope::ui::PassTimelineModel::Millis).data().toString(), QStringLiteral("–"));
        QVERIFY(mark.data(Qt::ToolTipRole).toString().contains(QStringLiteral("02_type_inference_0002.ir:")));
        QVERIFY(waitIdle(w));
        // The broken pass shows its located error; the next one its IR.
        {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->selectRow(2);
            QVERIFY(shown.wait(20000));
            QVERIFY(!shown.takeFirst().at(0).toBool());
            QVERIFY(w.errorBanner()->text().contains(QStringLiteral("02_type_inference_0002.ir:3:")));
        }
        {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->selectRow(3);
            QVERIFY(shown.wait(20000));
            QVERIFY(shown.takeFirst().at(0).toBool());
            QCOMPARE(w.irTextView()->toPlainText().count(QStringLiteral("= TensorMove(")), 3);
        }
        QVERIFY(waitIdle(w));

        // `irscope DIR` on the command line: the screenshot hook opens the folder and exits 0.
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start(QStringLiteral(IRSCOPE_GUI), {QStringLiteral("-platform"), QStringLiteral("offscreen"),
                                              QStringLiteral("--screenshot"), shot, dir.path()});
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(shot).isNull());
    }

    void exportsTheGraphTheTextAndStatistics() {
        QTemporaryDir out;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Nothing open: a clear refusal, no file.
        QVERIFY(!exportAndWait(w, ExportKind::Svg, out.filePath(QStringLiteral("none.svg"))).isEmpty());
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("none.svg"))));

        QVERIFY(openAndWait(w, example("load_elim_level3.ir")));
        QVERIFY(QTest::qWaitFor([&] { return w.graphView()->hasGraph() && !w.isBusy(); }, 60000));

        // SVG through the real menu action and its file dialog.
        const QString svg = out.filePath(QStringLiteral("graph.svg"));
        QSignalSpy exported(&w, &MainWindow::exportFinished);
        QTimer::singleShot(0, this, [svg] {
            QTRY_VERIFY(qobject_cast<QFileDialog*>(QApplication::activeModalWidget()) != nullptr);
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            dialog->selectFile(svg);
            QMetaObject::invokeMethod(dialog, "accept");
        });
        action(w, QStringLiteral("actionExportSvg"))->trigger();
        QVERIFY(exported.count() > 0 || exported.wait(60000));
        QCOMPARE(exported.first().at(0).toString(), svg);
        QCOMPARE(exported.first().at(1).toString(), QString());
        const QByteArray svgBytes = readFile(svg);
        QXmlStreamReader xml(svgBytes);
        int elements = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                ++elements;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(elements > 20);
        QVERIFY(svgBytes.contains("<svg"));
        QVERIFY(svgBytes.contains("BackwardNet_construct"));
        QVERIFY(svgBytes.contains("Load"));
        QVERIFY(svgBytes.contains("UpdateState"));
        // No temporary file is left beside it.
        QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("graph.svg")});

        const QString png = out.filePath(QStringLiteral("graph.png"));
        QCOMPARE(exportAndWait(w, ExportKind::Png, png), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        // Not one flat colour: the graph is drawn.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY(colours.size() > 5);

        const QString dot = out.filePath(QStringLiteral("graph.dot"));
        QCOMPARE(exportAndWait(w, ExportKind::Dot, dot), QString());
        const QByteArray dotBytes = readFile(dot);
        QVERIFY(dotBytes.startsWith("digraph"));
        QVERIFY(dotBytes.contains("Load"));

        const QString ir = out.filePath(QStringLiteral("graph.ir"));
        QCOMPARE(exportAndWait(w, ExportKind::Ir, ir), QString());
        QCOMPARE(QString::fromUtf8(readFile(ir)), w.irTextView()->toPlainText());

        // No compile selected (an .ir file): the CSV export says so.
        QVERIFY(!exportAndWait(w, ExportKind::PassCsv, out.filePath(QStringLiteral("p.csv"))).isEmpty());

        // A script's statistics: one row per pass (opt_a's sub-passes included), and totals.
        QVERIFY(openAndWait(w, example("if_vs_select.py")));
        QVERIFY(waitIdle(w));
        const passes::CompileRecord* c = w.passTimelineDock()->model()->compile();
        QVERIFY(c != nullptr);
        const QString passes = out.filePath(QStringLiteral("passes.csv"));
        QCOMPARE(exportAndWait(w, ExportKind::PassCsv, passes), QString());
        QStringList rows = QString::fromUtf8(readFile(passes)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY(rows.first().startsWith(QStringLiteral("index,pass,depth,round,wall_ms,")));
        QCOMPARE(rows.size() - 1, static_cast<int>(c->snapshots.size()));
        QVERIFY(rows.filter(QStringLiteral(",opt_a/cse,")).size() > 0);
        const QString totals = out.filePath(QStringLiteral("totals.csv"));
        QCOMPARE(exportAndWait(w, ExportKind::TotalsCsv, totals), QString());
        rows = QString::fromUtf8(readFile(totals)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(rows.size() - 1, static_cast<int>(w.session()->compiles.size()));

        // A write that cannot happen: the error names the file.
        const QString bad = out.filePath(QStringLiteral("no/such/dir/x.csv"));
        QVERIFY(exportAndWait(w, ExportKind::TotalsCsv, bad).contains(bad));
        // ... and is shown in a dialog.
        auto* box = w.findChild<QMessageBox*>(QStringLiteral("exportErrorBox"));
        QVERIFY(box != nullptr);
        QVERIFY(box->text().contains(bad));
        box->close();
        QVERIFY(waitIdle(w));
    }

    // Every bundled example is in the manifest once, its settings are those its expected
    // output was made with (tests/data/examples/NAME.env) and its pass is a real pass.
    void examplesManifestCoversEveryExample() {
        QString error;
        const QList<ExampleInfo> list = irscope::ui::loadExamples(example(""), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList names;
        for (const ExampleInfo& e : list) {
            names << e.name;
            QVERIFY2(!e.explanation.isEmpty(), qPrintable(e.name));
            QVERIFY2(e.title != e.name || e.name.endsWith(QStringLiteral(".ir")), qPrintable(e.name));
            if (!e.pass.isEmpty()) {
                QVERIFY2(!session::passDescription(e.pass.toStdString()).empty(), qPrintable(e.pass));
            }
            QMap<QString, int> env;
            const QByteArray envText = !e.name.endsWith(QStringLiteral(".py")) ? QByteArray() : readFile(QStringLiteral(IRSCOPE_TEST_DATA "/examples/") +
                                                QFileInfo(e.name).completeBaseName() + QStringLiteral(".env"));
            for (const QByteArray& line : envText.split('\n')) {
                const int eq = line.indexOf('=');
                if (eq > 0) {
                    env.insert(QString::fromUtf8(line.left(eq)), line.mid(eq + 1).trimmed().toInt());
                }
            }
            QCOMPARE(e.settings, env);
        }
        QStringList files = QDir(example("")).entryList({QStringLiteral("*.py"), QStringLiteral("*.ir")}, QDir::Files);
        names.sort();
        files.sort();
        QCOMPARE(names, files);
        QVERIFY(irscope::ui::openingComment(QStringLiteral("# a\n#  b\n#\ncode\n# c")) == QStringLiteral("a\n b\n"));
    }

    // Help ▸ Examples: opening one runs it with its settings, explains it and selects its pass.
    void opensAnExampleFromTheHelpMenu() {
        MainWindow w;
        w.show();
        QCOMPARE(w.examples().size(), 30);
        QAction* a = action(w, QStringLiteral("example:load_elim_level3.py"));
        QVERIFY(a != nullptr);
        QVERIFY(a->text().contains(QStringLiteral("TensorMove")));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        a->trigger();
        QVERIFY(loaded.wait(120000));
        QVERIFY(loaded.takeFirst().at(0).toBool());
        QVERIFY(waitIdle(w));
        QVERIFY(w.guideBanner()->isVisible());
        QVERIFY(w.guideBanner()->text().contains(QStringLiteral("no TensorMove")));
        QVERIFY(w.guideBanner()->text().contains(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM=3")));
        QCOMPARE(w.runSettings().loadElim, 3);
        QVERIFY(w.runSettingsLabel()->text().contains(QStringLiteral("LOAD_ELIM 3")));
        const int snap = w.passTimelineDock()->currentSnapshot();
        QVERIFY(snap >= 0);
        QCOMPARE(QString::fromStdString(w.passTimelineDock()->model()->compile()->snapshots[static_cast<std::size_t>(snap)].pass),
                 QStringLiteral("auto_monad_reorder"));
        QCOMPARE(w.session()->compiles[0].settings.getInt("MS_DEV_SIDE_EFFECT_LOAD_ELIM", -1), 3);
        QVERIFY(QTest::qWaitFor([&] { return w.irTextView()->toPlainText().contains(QStringLiteral("= Load(")); }, 20000));
        QCOMPARE(w.irTextView()->toPlainText().count(QStringLiteral("= TensorMove(")), 0);

        // Another file: the explanation goes away.
        QVERIFY(openAndWait(w, example("load_elim_level0.ir")));
        QVERIFY(w.guideBanner()->isHidden());
        QVERIFY(waitIdle(w));
    }

    // The Run menu's LOAD_ELIM reaches the compile: level 0 copies every Load, 3 none.
    void runSettingsReachTheCompile() {
        MainWindow w;
        w.show();
        auto tensorMoves = [&w] {
            const passes::CompileRecord& c = w.session()->compiles.front();
            return QString::fromStdString(c.snapshots.back().text()).count(QStringLiteral("= TensorMove("));
        };
        w.runSettingsMenu()->loadElimAction(3)->trigger();
        QCOMPARE(w.runSettings().loadElim, 3);
        QVERIFY(openAndWait(w, example("load_elim_fwd_bwd.py")));
        QVERIFY(waitIdle(w));
        QCOMPARE(tensorMoves(), 0);
        w.runSettingsMenu()->loadElimAction(0)->trigger();
        QVERIFY(openAndWait(w, example("load_elim_fwd_bwd.py")));
        QVERIFY(waitIdle(w));
        QCOMPARE(w.session()->compiles.front().settings.getInt("MS_DEV_SIDE_EFFECT_LOAD_ELIM", -1), 0);
        QVERIFY(tensorMoves() >= 3);
        QVERIFY(w.runSettingsLabel()->text().contains(QStringLiteral("LOAD_ELIM 0")));
    }

    // if_vs_select's 301 graphs after parse, all collapsed: a grid, not a strip one box wide.
    void overviewOfManyGraphsIsAGrid() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, example("if_vs_select.py")));
        QVERIFY(waitIdle(w));
        {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            w.passTimelineDock()->selectRow(0);
            QVERIFY(shown.wait(20000));
        }
        QVERIFY(waitIdle(w));
        QCOMPARE(w.document().counts.graphs, std::size_t{301});
        QSignalSpy laidOut(w.graphView(), &irscope::ui::GraphView::layoutFinished);
        w.graphView()->expandWithin(0);
        QVERIFY(laidOut.wait(60000));
        QVERIFY(laidOut.takeFirst().at(0).toBool());
        QCOMPARE(static_cast<int>(w.graphView()->nodeItems().size()), 301);
        const QRectF box = w.graphView()->scene()->itemsBoundingRect();
        const double aspect = box.width() / box.height();
        QVERIFY2(aspect > 0.5 && aspect < 4.0, qPrintable(QString::number(aspect)));
        QVERIFY(waitIdle(w));
    }

    void themeSwitchChangesThePalette() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, example("load_elim_level3.ir")));
        QVERIFY(waitIdle(w));
        action(w, QStringLiteral("actionTheme_dark"))->trigger();
        QCOMPARE(w.theme(), Theme::Dark);
        QVERIFY(irscope::ui::isDark(QApplication::palette()));
        // Widgets receive the new palette through posted events.
        QTRY_VERIFY(irscope::ui::isDark(w.irTextView()->palette()));
        QVERIFY(w.graphView()->backgroundBrush().color().lightness() < 80);
        QVERIFY(irscope::ui::isDark(w.graphView()->scene()->palette()));
        QCOMPARE(w.statisticsDock()->timeChart()->chart()->theme(), QChart::ChartThemeDark);
        QVERIFY(action(w, QStringLiteral("actionTheme_dark"))->isChecked());
        // The graph still renders (a PNG of the dark view is dark around the graph).
        QTemporaryDir out;
        const QString png = out.filePath(QStringLiteral("dark.png"));
        QCOMPARE(exportAndWait(w, ExportKind::Png, png), QString());
        QVERIFY(QColor(QImage(png).pixel(1, 1)).lightness() < 80);

        action(w, QStringLiteral("actionTheme_light"))->trigger();
        QVERIFY(!irscope::ui::isDark(QApplication::palette()));
        QTRY_VERIFY(w.graphView()->backgroundBrush().color().lightness() > 200);
        QTRY_COMPARE(w.statisticsDock()->timeChart()->chart()->theme(), QChart::ChartThemeLight);
        QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("light"));
    }

    void settingsPersistAcrossWindows() {
        {
            MainWindow w;
            action(w, QStringLiteral("actionTheme_dark"))->trigger();
            w.runSettingsMenu()->loadElimAction(2)->trigger();
            w.runSettingsMenu()->cellReuseAction(1)->trigger();
        }
        // Back to the platform's look before the new window reads the settings.
        irscope::ui::applyTheme(Theme::Light);
        QVERIFY(!irscope::ui::isDark(QApplication::palette()));
        {
            MainWindow w;
            QCOMPARE(w.theme(), Theme::Dark);
            QVERIFY(irscope::ui::isDark(QApplication::palette()));
            QCOMPARE(w.runSettings().loadElim, 2);
            QCOMPARE(w.runSettings().cellReuse, 1);
            QVERIFY(w.runSettingsMenu()->loadElimAction(2)->isChecked());
            QVERIFY(w.runSettingsMenu()->cellReuseAction(1)->isChecked());
            QVERIFY(w.runSettingsLabel()->text().contains(QStringLiteral("CELL_REUSE 1")));
            const session::ScriptOptions o = w.runSettings().scriptOptions();
            QCOMPARE(o.compiler.overrides.getInt("MS_DEV_CELL_REUSE", -1), 1);
            QCOMPARE(o.compiler.overrides.getInt("MS_DEV_SIDE_EFFECT_LOAD_ELIM", -1), 2);
            w.setTheme(Theme::Light);
            w.setRunSettings(RunSettings{});
        }
        {
            MainWindow w;
            QCOMPARE(w.theme(), Theme::Light);
            QVERIFY(w.runSettings() == RunSettings{});
            QVERIFY(w.runSettings().scriptOptions().compiler.overrides.empty());
            QVERIFY(w.runSettingsMenu()->loadElimAction(RunSettings::kScript)->isChecked());
        }
    }
};

QTEST_MAIN(TestAppFiles)
#include "test_app_files.moc"
