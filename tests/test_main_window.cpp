// The main window, driven as a user would: open files, pick a graph, see errors.
#include <QtTest>

#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTextBlock>

#include "main_window.h"

using irscope::ui::MainWindow;

class TestMainWindow : public QObject {
    Q_OBJECT

private:
    static bool openAndWait(MainWindow& w, const QString& path) {
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openFile(path);
        if (!spy.wait(20000)) {
            return false;
        }
        return spy.takeFirst().at(0).toBool();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
    }

    void opensBundledExample() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir")));
        QVERIFY(!w.errorBanner()->isVisible());
        QCOMPARE(w.graphList()->count(), 1);
        QVERIFY(w.graphList()->item(0)->text().contains(QStringLiteral("@BackwardNet_construct")));
        const QString text = w.irTextView()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("subgraph @BackwardNet_construct()")));
        QCOMPARE(text.count(QStringLiteral("= Load(")), 3);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("load_elim_level3.ir")));
        // The Graphviz drawing of the graph is shown, and it names the ops.
        QVERIFY(w.graphView()->hasDrawing());
        QVERIFY(w.document().svg.contains("Load"));
        QVERIFY(w.document().svg.contains("UpdateState"));
    }

    void selectingAGraphMovesTheTextCursorToIt() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level0.ir")));
        w.graphList()->setCurrentRow(0);
        const QString line = w.irTextView()->textCursor().block().text();
        QVERIFY2(line.startsWith(QStringLiteral("subgraph @BackwardNet_construct(")), qPrintable(line));
    }

    void malformedFileShowsLocatedErrorAndKeepsDocument() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.ir"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# IR entry: @g\nsubgraph @g() {\n  %0 = Add(%7, %7)\n  Return(%0)\n}\n");
        f.close();

        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir")));
        const QString before = w.irTextView()->toPlainText();
        QVERIFY(!openAndWait(w, bad));
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("bad.ir:3:")),
                 qPrintable(w.errorBanner()->text()));
        QCOMPARE(w.irTextView()->toPlainText(), before);
        QVERIFY(w.graphView()->hasDrawing());
    }

    void missingFileIsAnErrorNotACrash() {
        MainWindow w;
        QVERIFY(!openAndWait(w, QStringLiteral("/nonexistent/file.ir")));
        QVERIFY(w.errorBanner()->text().contains(QStringLiteral("cannot open")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
