// Session files in the desktop app: run an example, File ▸ Save Session… (the real action and
// its dialog), then open the .irscope file in a fresh window and see exactly what the run
// showed (compilations, pass timeline, IR text of the selected pass, statistics, output,
// the error banner of a failed run) without re-running; damaged and foreign files give a
// clear error and stay untouched; `irscope --screenshot` opens a session.
#include <QtTest>

#include <QAction>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

#include "compilations_dock.h"
#include "compilations_model.h"
#include "main_window.h"
#include "output_dock.h"
#include "pass_timeline_dock.h"
#include "pass_timeline_model.h"
#include "script_editor_dock.h"
#include "session_io.h"
#include "statistics_dock.h"
#include "store/session_file.h"

using irscope::ui::MainWindow;
using irscope::ui::SessionSaver;

namespace {

QString example(const char* name) {
    return QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

bool openAndWait(MainWindow& w, const QString& path, bool* ok) {
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    w.openFile(path);
    if (!spy.wait(120000)) {
        return false;
    }
    *ok = spy.takeFirst().at(0).toBool();
    return QTest::qWaitFor([&] { return !w.isBusy(); }, 120000);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Everything a window shows of its session, as text.
QStringList shown(const MainWindow& w) {
    QStringList out;
    const auto* compiles = w.compilationsDock()->model();
    for (int r = 0; r < compiles->rowCount(); ++r) {
        for (int c = 0; c < compiles->columnCount(); ++c) {
            out << compiles->data(compiles->index(r, c)).toString();
        }
    }
    const auto* timeline = w.passTimelineDock()->model();
    for (int r = 0; r < timeline->rowCount(); ++r) {
        for (int c = 0; c < timeline->columnCount(); ++c) {
            out << timeline->data(timeline->index(r, c)).toString();
        }
    }
    out << QString::number(w.passTimelineDock()->currentRow());
    const QTableWidget* totals = w.statisticsDock()->totalsTable();
    for (int r = 0; r < totals->rowCount(); ++r) {
        for (int c = 0; c < totals->columnCount(); ++c) {
            out << (totals->item(r, c) != nullptr ? totals->item(r, c)->text() : QString());
        }
    }
    out << w.irTextView()->toPlainText() << w.outputDock()->text()
        << (w.errorBanner()->isVisible() ? w.errorBanner()->text() : QString());
    return out;
}

// Answers the next file dialog with `path`.
void answerFileDialog(const QString& path) {
    QTimer::singleShot(0, [path] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (dialog == nullptr) {
            answerFileDialog(path);  // not shown yet
            return;
        }
        // Typed into the dialog's file name field and confirmed, as a user does.
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        QVERIFY(name != nullptr);
        name->setText(path);
        QTest::keyClick(name, Qt::Key_Return);
    });
}

}  // namespace

class TestSessionWindow : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    // Runs `script` in a window, saves its session through the menu action, opens the
    // file in a second window and compares what both show.
    void saveAndReopen(const QString& script, bool runOk) {
        MainWindow ran;
        ran.show();
        bool ok = false;
        QVERIFY(openAndWait(ran, script, &ok));
        QCOMPARE(ok, runOk);
        QVERIFY(ran.session() != nullptr);

        const QString file = dir_.filePath(QFileInfo(script).completeBaseName() + ".irscope");
        auto* save = ran.findChild<QAction*>(QStringLiteral("saveSessionAction"));
        QVERIFY(save != nullptr);
        QCOMPARE(save->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
        QVERIFY(save->isEnabled());
        QSignalSpy saved(ran.sessionSaver(), &SessionSaver::finished);
        answerFileDialog(file);
        save->trigger();
        QVERIFY(saved.count() == 1 || saved.wait(60000));
        QCOMPARE(saved.first().at(0).toString(), file);
        QCOMPARE(saved.first().at(1).toString(), QString());

        MainWindow opened;
        opened.show();
        QVERIFY(openAndWait(opened, file, &ok));
        QCOMPARE(ok, runOk);
        QCOMPARE(opened.script().status, ran.script().status);
        QCOMPARE(opened.session()->compiles.size(), ran.session()->compiles.size());
        const QStringList a = shown(ran);
        const QStringList b = shown(opened);
        QCOMPARE(b.size(), a.size());
        for (int i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i], a[i]);
        }
        QVERIFY(opened.windowTitle().contains(QFileInfo(file).fileName()));
        // The editor shows the script as the session saved it, under its own path.
        QCOMPARE(opened.scriptEditorDock()->path(), script);
        QCOMPARE(opened.scriptEditorDock()->text(), QString::fromStdString(ran.session()->scriptText));
        QVERIFY(!opened.scriptEditorDock()->isModified());
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_session_window"));
    }

    void savedSessionShowsTheRun() { saveAndReopen(example("load_elim_fwd_bwd.py"), true); }

    void savedFailedRunShowsItsError() { saveAndReopen(example("jit_class_no_call.py"), false); }

    void nothingToSaveBeforeARun() {
        MainWindow w;
        QVERIFY(!w.findChild<QAction*>(QStringLiteral("saveSessionAction"))->isEnabled());
        QVERIFY(!w.saveSession(dir_.filePath(QStringLiteral("none.irscope"))));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("none.irscope"))));
    }

    void damagedAndForeignFilesAreRefused() {
        // A foreign file named like a session, and a session with a broken IR blob.
        const QString png = dir_.filePath(QStringLiteral("picture.irscope"));
        {
            QFile f(png);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(300, 'p'));
        }
        const QByteArray pngBytes = readAll(png);
        MainWindow w;
        w.show();
        bool ok = true;
        QVERIFY(openAndWait(w, png, &ok));
        QVERIFY(!ok);
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("not an irscope session file")),
                 qPrintable(w.errorBanner()->text()));
        QVERIFY(w.errorBanner()->text().contains(QStringLiteral("picture.irscope")));
        QCOMPARE(readAll(png), pngBytes);
        // Saving over it is refused too.
        QVERIFY(openAndWait(w, example("jit_class_attr.py"), &ok));
        QVERIFY(ok);
        QSignalSpy saved(w.sessionSaver(), &SessionSaver::finished);
        QVERIFY(w.saveSession(png));
        QVERIFY(saved.wait(60000));
        QVERIFY(
            saved.first().at(1).toString().contains(QStringLiteral("not an irscope session file")));
        QVERIFY(w.errorBanner()->text().contains(QStringLiteral("Could not save the session")));
        QCOMPARE(readAll(png), pngBytes);

        // Truncated session.
        const QString good = dir_.filePath(QStringLiteral("good.irscope"));
        QSignalSpy saved2(w.sessionSaver(), &SessionSaver::finished);
        QVERIFY(w.saveSession(good));
        QVERIFY(saved2.wait(60000));
        QCOMPARE(saved2.first().at(1).toString(), QString());
        QByteArray bytes = readAll(good);
        const QString cut = dir_.filePath(QStringLiteral("cut.irscope"));
        {
            QFile f(cut);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes.left(bytes.size() - 4096));
        }
        QVERIFY(openAndWait(w, cut, &ok));
        QVERIFY(!ok);
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("file is truncated")),
                 qPrintable(w.errorBanner()->text()));
    }

    void screenshotOfASession() {
        const QString file = dir_.filePath(QStringLiteral("shot.irscope"));
        irscope::store::saveSession(file.toStdString(), [] {
            MainWindow w;
            bool ok = false;
            openAndWait(w, example("if_vs_select.py"), &ok);
            return *w.session();
        }());
        const QString png = dir_.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.start(QStringLiteral(IRSCOPE_GUI),
                {QStringLiteral("-platform"), QStringLiteral("offscreen"),
                 QStringLiteral("--screenshot"), png, file});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFileInfo(png).size() > 1000);
    }
};

QTEST_MAIN(TestSessionWindow)
#include "test_session_window.moc"
