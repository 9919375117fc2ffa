// Scripts in the desktop app: the Compilations and Pass timeline models over a real Session
// (built by session::ScriptRunner, the code path `irscope-cli run` uses), then the real main
// window offscreen: open a script, wait for its session, step passes with the keyboard,
// hide unchanged passes, see a located syntax error, and `irscope --screenshot`.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>

#include <fstream>
#include <iterator>

#include "compilations_dock.h"
#include "compilations_model.h"
#include "gui_fixture.h"
#include "ir/ir_text.h"
#include "main_window.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "pass_timeline_model.h"
#include "script_loader.h"
#include "session/pass_stats.h"
#include "session/run_script.h"

using gui_test::openAndWait;
using gui_test::waitIdle;
using gui_test::writeScript;
using irscope::ui::CompilationsModel;
using irscope::ui::MainWindow;
using irscope::ui::PassTimelineModel;
namespace session = irscope::session;
namespace passes = irscope::passes;
namespace store = irscope::store;

namespace {

const QString kExample =
    QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");

std::shared_ptr<const store::Session> runExample() {
    std::ifstream in(kExample.toStdString());
    const std::string source((std::istreambuf_iterator<char>(in)), {});
    session::ScriptRunner runner;
    session::ScriptOutcome r = runner.run(source, kExample.toStdString(), {});
    if (r.result.exitStatus != 0) {
        qWarning("%s", r.result.error.c_str());
    }
    return r.session;
}

}  // namespace

class TestAppSession : public QObject {
    Q_OBJECT

private:
    // Shows `w`, opens `path` and waits: true when the open finished and reported failure.
    static bool opensWithAnError(MainWindow& w, const QString& path) {
        w.show();
        bool ok = true;
        return openAndWait(w, path, &ok) && !ok;
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_app_session"));
    }

    void runnerFillsTheSession() {
        const auto s = runExample();
        QVERIFY(s != nullptr);
        QCOMPARE(QString::fromStdString(s->scriptPath), kExample);
        QVERIFY(s->scriptText.find("class ForwardNet") != std::string::npos);
        QVERIFY(!s->compiles.empty());
        QVERIFY(!s->runs.empty());
    }

    void compilationsModelListsEveryCompile() {
        const auto s = runExample();
        CompilationsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setSession(s);
        QCOMPARE(m.rowCount(), static_cast<int>(s->compiles.size()));
        const passes::CompileRecord& c = s->compiles.front();
        QVERIFY(m.data(m.index(0, CompilationsModel::Graph))
                    .toString()
                    .contains(QString::fromStdString(c.graphName)));
        QCOMPARE(m.data(m.index(0, CompilationsModel::Signature)).toString(),
                 QString::fromStdString(c.signature));
        QCOMPARE(m.data(m.index(0, CompilationsModel::Nodes)).toULongLong(),
                 static_cast<qulonglong>(c.snapshots.back().counts().nodes));
        QCOMPARE(m.data(m.index(0, CompilationsModel::Status)).toString(), QStringLiteral("ok"));
        m.setSession(nullptr);
        QCOMPARE(m.rowCount(), 0);
    }

    void timelineModelFollowsThePipeline() {
        const auto s = runExample();
        const passes::CompileRecord& c = s->compiles.front();
        PassTimelineModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setCompile(s, &c);
        QCOMPARE(m.rowCount(), static_cast<int>(c.snapshots.size()));
        // Every pass of the default pipeline appears, in pipeline order, top-level rows
        // unindented and opt_a's sub-passes indented under opt_a.
        QStringList top;
        int optA = -1;
        for (int r = 0; r < m.rowCount(); ++r) {
            const passes::PassSnapshot* snap = m.snapshot(r);
            QVERIFY(snap != nullptr);
            if (snap->depth == 0) {
                top << QString::fromStdString(snap->pass);
                if (snap->pass == "opt_a") {
                    optA = r;
                }
            } else {
                QVERIFY(optA >= 0 && optA < r);
                QVERIFY(m.data(m.index(r, PassTimelineModel::Pass))
                            .toString()
                            .startsWith(QStringLiteral("    ")));
            }
        }
        QStringList expected;
        for (const passes::PassSnapshot& snap : c.snapshots) {
            if (snap.depth == 0) {
                expected << QString::fromStdString(snap.pass);
            }
        }
        QCOMPARE(top, expected);
        QVERIFY(top.contains(QStringLiteral("opt_a")));
        QVERIFY(optA >= 0);
        // Δnodes matches the pass statistics; the changed mark matches the record.
        for (int r = 0; r < m.rowCount(); ++r) {
            const int i = m.snapshotIndex(r);
            const auto d = session::nodeDelta(c, static_cast<std::size_t>(i));
            const QString shown = m.data(m.index(r, PassTimelineModel::Delta)).toString();
            if (d) {
                QCOMPARE(shown.toLongLong(), *d);
            }
            QCOMPARE(!m.data(m.index(r, PassTimelineModel::Changed)).toString().isEmpty(),
                     c.snapshots[static_cast<std::size_t>(i)].changed());
        }
        // Hiding unchanged passes keeps exactly the changed ones.
        int changed = 0;
        for (const passes::PassSnapshot& snap : c.snapshots) {
            changed += snap.changed() || !snap.failure().empty() ? 1 : 0;
        }
        QVERIFY(changed > 0 && changed < m.rowCount());
        m.setHideUnchanged(true);
        QCOMPARE(m.rowCount(), changed);
        for (int r = 0; r < m.rowCount(); ++r) {
            QVERIFY(m.snapshot(r)->changed());
        }
        QCOMPARE(m.rowOfSnapshot(-5), -1);
    }

    // A compile loaded from the compile cache says so in both models.
    void modelsMarkACompileFromTheCache() {
        QTemporaryDir dir;
        const std::string source =
            "import numpy as np\nimport mindspore as ms\n"
            "ms.set_context(enable_compile_cache=True, compile_cache_path='" +
            dir.path().toStdString() +
            "')\n@ms.jit\ndef f(x):\n    return x * 2\n"
            "print(f(ms.Tensor(np.ones(2, np.float32))))\n";
        std::shared_ptr<const store::Session> runs[2];
        for (auto& s : runs) {
            session::ScriptRunner runner;
            session::ScriptOptions options;
            options.compiler.readEnvironment = false;
            s = runner.run(source, "cached.py", options).session;
            QCOMPARE(s->compiles.size(), std::size_t{1});
        }
        QVERIFY(!runs[0]->compiles[0].fromCache);
        QVERIFY(runs[1]->compiles[0].fromCache);
        CompilationsModel compiles;
        compiles.setSession(runs[1]);
        QCOMPARE(compiles.data(compiles.index(0, CompilationsModel::Status)).toString(),
                 QStringLiteral("ok (compile cache)"));
        PassTimelineModel timeline;
        timeline.setCompile(runs[1], &runs[1]->compiles[0]);
        QCOMPARE(timeline.rowCount(), 1);  // only the backend actions ran
        QCOMPARE(timeline.data(timeline.index(0, PassTimelineModel::Pass)).toString(),
                 QStringLiteral("task_emit  (from the compile cache)"));
        QVERIFY(timeline.data(timeline.index(0, PassTimelineModel::Pass), Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("The compile cache held this graph")));
        timeline.setCompile(runs[0], &runs[0]->compiles[0]);
        QVERIFY(!timeline.data(timeline.index(0, PassTimelineModel::Pass))
                     .toString()
                     .contains(QStringLiteral("cache")));
    }

    void locatesErrors() {
        QString file;
        int line = 0;
        QVERIFY(irscope::ui::locateError(
            QStringLiteral(
                "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n"
                "  File \"b.py\", line 7, in f\nValueError: x"),
            &file, &line));
        QCOMPARE(file, QStringLiteral("b.py"));
        QCOMPARE(line, 7);
        QVERIFY(irscope::ui::locateError(QStringLiteral("net.py:12:5: error: invalid syntax"),
                                         &file, &line));
        QCOMPARE(file, QStringLiteral("net.py"));
        QCOMPARE(line, 12);
        QVERIFY(!irscope::ui::locateError(QStringLiteral("no location here"), &file, &line));
    }

    void opensAScriptAndStepsPasses() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool ok = false;
        QVERIFY(openAndWait(w, kExample, &ok));
        QVERIFY(ok);
        QVERIFY(w.session() != nullptr);
        QVERIFY(!w.busyIndicator()->isVisible());
        QVERIFY(waitIdle(w));
        // The compilations list has the compile.
        const auto* compiles = w.compilationsDock()->model();
        QVERIFY(compiles->rowCount() >= 1);
        QVERIFY(compiles->data(compiles->index(0, CompilationsModel::Graph))
                    .toString()
                    .contains(QStringLiteral("BackwardNet_construct")));
        // The timeline lists the pipeline's passes, the last one selected and shown.
        auto* timeline = w.passTimelineDock();
        const passes::CompileRecord* c = timeline->model()->compile();
        QVERIFY(c != nullptr);
        QCOMPARE(timeline->model()->rowCount(), static_cast<int>(c->snapshots.size()));
        QCOMPARE(timeline->currentRow(), timeline->model()->rowCount() - 1);
        QCOMPARE(w.irTextView()->toPlainText(),
                 QString::fromStdString(irscope::ir::printIr(*c->snapshots.back().module())));
        QVERIFY(!timeline->descriptionLabel()->text().isEmpty());
        // The script's print()s reach the Output dock.
        QCOMPARE(w.outputDock()->text(), QString::fromStdString(w.session()->output));

        // Step back with Alt+Left until the text changes: the shown IR is that pass's.
        timeline->view()->setFocus();
        const QString last = w.irTextView()->toPlainText();
        int steps = 0;
        while (w.irTextView()->toPlainText() == last && timeline->currentRow() > 0) {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            QTest::keyClick(&w, Qt::Key_Left, Qt::AltModifier);
            QVERIFY(shown.wait(20000));
            QVERIFY(waitIdle(w));
            ++steps;
        }
        QVERIFY(w.irTextView()->toPlainText() != last);
        const int row = timeline->currentRow();
        QCOMPARE(row, timeline->model()->rowCount() - 1 - steps);
        const passes::PassSnapshot* snap = timeline->model()->snapshot(row);
        QCOMPARE(w.irTextView()->toPlainText(),
                 QString::fromStdString(irscope::ir::printIr(*snap->module())));
        QVERIFY(timeline->descriptionLabel()->text().contains(QString::fromStdString(snap->pass)));
        QVERIFY(w.graphView()->hasGraph() || w.graphView()->isLayoutRunning());
        // Alt+Right steps forward again.
        QSignalSpy shown(&w, &MainWindow::snapshotShown);
        QTest::keyClick(&w, Qt::Key_Right, Qt::AltModifier);
        QVERIFY(shown.wait(20000));
        QCOMPARE(timeline->currentRow(), row + 1);

        // Hide passes that changed nothing: fewer rows, all changed.
        const int all = timeline->model()->rowCount();
        timeline->hideUnchangedBox()->setChecked(true);
        QVERIFY(timeline->model()->rowCount() < all);
        QVERIFY(timeline->model()->rowCount() > 0);
        QVERIFY(timeline->currentRow() >= 0);
        timeline->hideUnchangedBox()->setChecked(false);
        QCOMPARE(timeline->model()->rowCount(), all);
        QVERIFY(waitIdle(w));
    }

    void showsALocatedSyntaxError() {
        QTemporaryDir dir;
        const QString path = writeScript(dir, QStringLiteral("broken.py"),
                                         "import mindspore as ms\nx = 1\ndef f(:\n    return x\n");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QVERIFY(opensWithAnError(w, path));
        QVERIFY(w.errorBanner()->isVisible());
        QCOMPARE(w.script().errorLine, 3);
        QVERIFY(w.errorBanner()->text().contains(QStringLiteral("broken.py:3")));
        QCOMPARE(w.compilationsDock()->model()->rowCount(), 0);
        QVERIFY(waitIdle(w));
    }

    void showsACompileErrorOnItsPass() {
        QTemporaryDir dir;
        const QString path = writeScript(dir, QStringLiteral("bad_add.py"),
                                         "import mindspore as ms\n"
                                         "from mindspore import nn, ops, Tensor\n"
                                         "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                         "class Net(nn.Cell):\n"
                                         "    def construct(self, x):\n"
                                         "        return ops.add(x, 'text')\n"
                                         "net = Net()\n"
                                         "print('before')\n"
                                         "net(Tensor([1.0]))\n");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QVERIFY(opensWithAnError(w, path));
        // The traceback's innermost frame: the construct line that failed to compile.
        QCOMPARE(w.script().errorLine, 6);
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY(w.errorBanner()->text().startsWith(path + QStringLiteral(":6: error")));
        QVERIFY(w.outputDock()->text().startsWith(QStringLiteral("before\n")));
        // The failed compile is listed, and its timeline ends on the failing pass.
        const auto* compiles = w.compilationsDock()->model();
        QCOMPARE(compiles->rowCount(), 1);
        QVERIFY(compiles->data(compiles->index(0, CompilationsModel::Status))
                    .toString()
                    .startsWith(QStringLiteral("failed at ")));
        auto* timeline = w.passTimelineDock();
        QVERIFY(timeline->model()->rowCount() > 0);
        const int last = timeline->model()->rowCount() - 1;
        QCOMPARE(timeline->model()
                     ->data(timeline->model()->index(last, PassTimelineModel::Changed))
                     .toString(),
                 QStringLiteral("error"));
        timeline->hideUnchangedBox()->setChecked(true);
        QCOMPARE(timeline->model()
                     ->data(timeline->model()->index(timeline->model()->rowCount() - 1,
                                                     PassTimelineModel::Changed))
                     .toString(),
                 QStringLiteral("error"));
        QVERIFY(waitIdle(w));
    }

    void cancelStopsALongScript() {
        QTemporaryDir dir;
        const QString path =
            // Sleeps between steps: a bare `while True: pass` reaches the 50,000,000-step limit
            // in about 0.3 s, and ending by the limit raced the cancel.
            writeScript(dir, QStringLiteral("forever.py"),
                        "import time\nprint('start')\nwhile True:\n    time.sleep(0.01)\n");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.show();
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openFile(path);
        QVERIFY(w.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(w.outputDock()->text().contains(QStringLiteral("start")), 20000);
        QVERIFY(w.busyIndicator()->isVisible());
        // The status bar counts the steps the script has run.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.statusBar()->currentMessage().contains(QStringLiteral(" steps, ")), 20000);
        w.cancelScript();
        QVERIFY(spy.wait(20000));
        QVERIFY(w.script().cancelled());
        QVERIFY(!w.busyIndicator()->isVisible());
    }

    void droppingAScriptRunsIt() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kExample)});
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(spy.wait(120000));
        QVERIFY(spy.takeFirst().at(0).toBool());
        QVERIFY(w.compilationsDock()->model()->rowCount() >= 1);
        QVERIFY(waitIdle(w));
    }

    void docksAreRestoredAndScriptsAreRecent() {
        QSettings().clear();
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.passTimelineDock()->isVisible());
            w.passTimelineDock()->hide();
            w.outputDock()->setFloating(true);
            bool ok = false;
            QVERIFY(openAndWait(w, kExample, &ok));
            QVERIFY(waitIdle(w));
            w.close();
        }
        QVERIFY(QSettings()
                    .value(QStringLiteral("recentFiles"))
                    .toStringList()
                    .contains(QFileInfo(kExample).absoluteFilePath()));
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(!again.passTimelineDock()->isVisible());
        QVERIFY(again.outputDock()->isFloating());
        QVERIFY(again.compilationsDock()->isVisible());
        QSettings().clear();
    }

    void screenshotWritesAPng() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start(QStringLiteral(IRSCOPE_GUI),
                {QStringLiteral("-platform"), QStringLiteral("offscreen"),
                 QStringLiteral("--screenshot"), out, kExample});
        QVERIFY(p.waitForFinished(180000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() > 200 && img.height() > 200);
    }
};

QTEST_MAIN(TestAppSession)
#include "test_app_session.moc"
