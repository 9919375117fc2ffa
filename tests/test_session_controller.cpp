// The session controller without a widget (a QCoreApplication: no QWidget can exist): its
// states, its jobs (scripts, .ir files, dump folders, snapshots) and their cancellation,
// driven and observed through its signals as the main window does.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "session_controller.h"

using namespace irscope;
using namespace irscope::ui;
using State = SessionController::State;

namespace {

const QString kExamples = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/");

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
        return {};
    }
    return path;
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QList<State> states(const QSignalSpy& spy) {
    QList<State> out;
    for (const QList<QVariant>& args : spy) {
        out << args.at(0).value<State>();
    }
    return out;
}

bool runAndWait(SessionController& c, const QString& path) {
    QSignalSpy done(&c, &SessionController::scriptFinished);
    return c.runScript(path, std::nullopt, {}) && done.wait(120000);
}

}  // namespace

class TestSessionController : public QObject {
    Q_OBJECT

private slots:
    // A script runs into a session: Running, then Idle; its output and its compiles come back
    // and the session is a new generation.
    void runsAScript() {
        SessionController c;
        QSignalSpy state(&c, &SessionController::stateChanged);
        QSignalSpy output(&c, &SessionController::scriptOutput);
        QSignalSpy failed(&c, &SessionController::failed);
        QCOMPARE(c.generation(), 0);
        QVERIFY(runAndWait(c, kExamples + QStringLiteral("jit_decorator.py")));
        QCOMPARE(states(state), (QList<State>{State::Running, State::Idle}));
        QCOMPARE(c.state(), State::Idle);
        QVERIFY(!c.isBusy());
        QVERIFY2(c.script().ok(), qPrintable(c.script().error));
        QVERIFY(failed.isEmpty());
        QVERIFY(c.session() != nullptr);
        QVERIFY(c.session()->compiles.size() >= 2);
        QCOMPARE(c.generation(), 1);
        QVERIFY(c.compile(0) == &c.session()->compiles[0]);
        QVERIFY(c.compile(-1) == nullptr);
        QVERIFY(c.compile(static_cast<int>(c.session()->compiles.size())) == nullptr);
        QString printed;
        for (const QList<QVariant>& args : output) {
            printed += args.at(0).toString();
        }
        QCOMPARE(printed.toStdString(), c.session()->output);
    }

    // `while True: pass` stops when cancelled: Running → Cancelling → Idle in bounded time,
    // reported as cancelled; a second job is refused while one runs.
    void cancelsALongScript() {
        QTemporaryDir dir;
        const QString spin =
            writeFile(dir, QStringLiteral("spin.py"), "print('start')\nwhile True:\n    pass\n");
        SessionController c;
        QSignalSpy state(&c, &SessionController::stateChanged);
        QSignalSpy progress(&c, &SessionController::scriptProgress);
        QSignalSpy done(&c, &SessionController::scriptFinished);
        session::ScriptOptions options;
        options.maxSteps = 0;  // no step limit: only the cancel ends it
        QVERIFY(c.runScript(spin, std::nullopt, options));
        QCOMPARE(c.state(), State::Running);
        QVERIFY(!c.runScript(spin, std::nullopt, options));  // one job at a time
        QVERIFY(!c.loadIr(kExamples + QStringLiteral("load_elim_level3.ir")));
        QVERIFY(progress.wait(20000));  // it is running: steps are counted
        QVERIFY(progress.last().at(0).value<std::uint64_t>() > 0);
        c.cancel();
        QCOMPARE(c.state(), State::Cancelling);
        QElapsedTimer t;
        t.start();
        QVERIFY(done.wait(10000));
        QVERIFY2(t.elapsed() < 10000, "the run did not stop in bounded time");
        QCOMPARE(states(state), (QList<State>{State::Running, State::Cancelling, State::Idle}));
        QVERIFY(c.script().cancelled());
        QVERIFY(c.script().error.contains(QStringLiteral("cancelled")));
        QVERIFY(c.session() != nullptr);  // what ran so far is kept
        c.cancel();                       // idle: nothing to stop
        QCOMPARE(c.state(), State::Idle);
    }

    // An .ir file loads off the UI thread; it does not replace the session.
    void loadsAnIrFile() {
        SessionController c;
        QSignalSpy loaded(&c, &SessionController::irLoaded);
        QSignalSpy state(&c, &SessionController::stateChanged);
        QVERIFY(c.loadIr(kExamples + QStringLiteral("load_elim_level3.ir")));
        QVERIFY(loaded.wait(60000));
        const LoadedIr ir = loaded.first().at(0).value<LoadedIr>();
        QVERIFY2(ir.ok(), qPrintable(ir.error));
        QVERIFY(ir.counts.cnodes > 0);
        QVERIFY(!ir.graphs.isEmpty());
        QCOMPARE(states(state), (QList<State>{State::Running, State::Idle}));
        QCOMPARE(c.generation(), 0);
        QVERIFY(c.session() == nullptr);
    }

    // Errors come back located, through failed() and the job's own result; the controller
    // is idle and usable again.
    void errorsAreReported() {
        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("bad.ir"), "subgraph @g(\n  %0 = Add(\n");
        SessionController c;
        QSignalSpy failed(&c, &SessionController::failed);
        QSignalSpy loaded(&c, &SessionController::irLoaded);
        QVERIFY(c.loadIr(bad));
        QVERIFY(loaded.wait(60000));
        QVERIFY(!loaded.first().at(0).value<LoadedIr>().ok());
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.first().at(0).toString().startsWith(bad + QStringLiteral(":")),
                 qPrintable(failed.first().at(0).toString()));
        QVERIFY(failed.first().at(0).toString().contains(QStringLiteral("error")));
        QCOMPARE(c.state(), State::Idle);

        // A script that raises: its error with the script's line on top.
        const QString raises =
            writeFile(dir, QStringLiteral("raises.py"), "x = 1\nraise ValueError('boom')\n");
        QVERIFY(runAndWait(c, raises));
        QCOMPARE(failed.size(), 2);
        const QString error = failed.last().at(0).toString();
        QVERIFY2(error.startsWith(raises + QStringLiteral(":2")), qPrintable(error));
        QVERIFY(error.contains(QStringLiteral("ValueError: boom")));
        QVERIFY(!c.script().ok());

        // A missing folder.
        QSignalSpy read(&c, &SessionController::folderRead);
        QVERIFY(c.readFolder(dir.filePath(QStringLiteral("nope"))));
        QVERIFY(read.wait(60000));
        QVERIFY(failed.last().at(0).toString().contains(QStringLiteral("not a folder")));
    }

    // A folder read stops when cancelled, with the files read so far as the session.
    void cancelsAFolderRead() {
        QTemporaryDir dir;
        const QByteArray ir = readFile(kExamples + QStringLiteral("load_elim_level0.ir"));
        QVERIFY(!ir.isEmpty());
        constexpr int kFiles = 60;
        for (int i = 0; i < kFiles; ++i) {
            QVERIFY(!writeFile(dir,
                               QStringLiteral("%1_p%1_%2.ir")
                                   .arg(i, 2, 10, QLatin1Char('0'))
                                   .arg(i, 4, 10, QLatin1Char('0')),
                               ir)
                         .isEmpty());
        }
        SessionController c;
        QSignalSpy read(&c, &SessionController::folderRead);
        QSignalSpy state(&c, &SessionController::stateChanged);
        QVERIFY(c.readFolder(dir.path()));
        c.cancel();
        QVERIFY(read.wait(60000));
        const session::DumpFolder folder = read.first().at(1).value<session::DumpFolder>();
        QVERIFY(folder.cancelled);
        QVERIFY(folder.session != nullptr);
        QVERIFY(folder.session->compiles.size() == 1);
        QVERIFY(folder.session->compiles[0].snapshots.size() < std::size_t{kFiles});
        QCOMPARE(states(state), (QList<State>{State::Running, State::Cancelling, State::Idle}));
        QVERIFY(c.session() == folder.session);
        QCOMPARE(c.generation(), 1);
    }

    // Snapshots are addressed by (generation, compile, pass): the one asked for comes back
    // under its indices; one of an older generation or out of range is refused.
    void snapshotsByIndices() {
        SessionController c;
        QVERIFY(runAndWait(c, kExamples + QStringLiteral("jit_decorator.py")));
        const int gen = c.generation();
        const passes::CompileRecord* first = c.compile(0);
        QVERIFY(first != nullptr && first->snapshots.size() > 1);
        QSignalSpy loaded(&c, &SessionController::snapshotLoaded);
        const SnapshotRef ref{gen, 0, 1};
        QVERIFY(c.requestSnapshot(ref));
        QVERIFY(c.isLoadingSnapshot());
        QVERIFY(loaded.wait(60000));
        QCOMPARE(loaded.size(), 1);
        QVERIFY(loaded.first().at(0).value<SnapshotRef>() == ref);
        const LoadedIr ir = loaded.first().at(1).value<LoadedIr>();
        QVERIFY2(ir.ok(), qPrintable(ir.error));
        QVERIFY(ir.path.contains(QString::fromStdString(first->snapshots[1].pass)
                                     .replace(QLatin1Char('/'), QLatin1Char('.'))));
        QVERIFY(!c.isLoadingSnapshot());

        QVERIFY(!c.requestSnapshot({gen, 0, static_cast<int>(first->snapshots.size())}));
        QVERIFY(!c.requestSnapshot({gen, 99, 0}));
        QVERIFY(!c.requestSnapshot({gen + 1, 0, 0}));

        // Requests made while one is parsed: only the newest is parsed next.
        loaded.clear();
        QVERIFY(c.requestSnapshot({gen, 0, 0}));
        QVERIFY(c.requestSnapshot({gen, 1, 0}));
        QVERIFY(c.requestSnapshot({gen, 0, 1}));
        QVERIFY(
            QTest::qWaitFor([&] { return !c.isLoadingSnapshot() && !loaded.isEmpty(); }, 60000));
        QTest::qWait(50);
        QCOMPARE(loaded.size(), 1);
        QVERIFY((loaded.first().at(0).value<SnapshotRef>() == SnapshotRef{gen, 0, 1}));
    }

    // A request that names the previous session (its generation) after another script ran
    // is dropped, even though the same indices exist in the new one.
    void staleSnapshotRequestIsDropped() {
        SessionController c;
        QVERIFY(runAndWait(c, kExamples + QStringLiteral("jit_decorator.py")));
        const int old = c.generation();
        const std::shared_ptr<const store::Session> before = c.session();
        QVERIFY(runAndWait(c, kExamples + QStringLiteral("jit_decorator.py")));
        QCOMPARE(c.generation(), old + 1);
        QVERIFY(c.session() != before);
        QSignalSpy loaded(&c, &SessionController::snapshotLoaded);
        QVERIFY(!c.requestSnapshot({old, 0, 0}));
        QVERIFY(!c.isLoadingSnapshot());
        QTest::qWait(100);
        QVERIFY(loaded.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSessionController)
#include "test_session_controller.moc"
