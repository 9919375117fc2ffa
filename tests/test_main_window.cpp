// The main window, driven as a user would: open files, pick a graph, see errors.
#include <QtTest>

#include <QGraphicsScene>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTextBlock>

#include "graph_scene.h"
#include "main_window.h"

using irscope::ui::GraphView;
using irscope::ui::MainWindow;
using irscope::ui::NodeItem;

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

    static bool waitForGraph(MainWindow& w) {
        if (w.graphView()->hasGraph() && !w.graphView()->isLayoutRunning()) {
            return true;
        }
        QSignalSpy spy(w.graphView(), &GraphView::layoutFinished);
        return spy.wait(60000) && spy.takeFirst().at(0).toBool();
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
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir")));
        QVERIFY(!w.errorBanner()->isVisible());
        QCOMPARE(w.graphList()->count(), 1);
        QVERIFY(w.graphList()->item(0)->text().contains(QStringLiteral("@BackwardNet_construct")));
        const QString text = w.irTextView()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("subgraph @BackwardNet_construct()")));
        QCOMPARE(text.count(QStringLiteral("= Load(")), 3);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("load_elim_level3.ir")));
        // The graph view lays the graph out and draws its nodes, Loads included.
        QVERIFY(waitForGraph(w));
        int loads = 0;
        for (const NodeItem* item : w.graphView()->nodeItems()) {
            loads += item != nullptr && item->label().startsWith(QStringLiteral("Load\n")) ? 1 : 0;
        }
        QCOMPARE(loads, 3);
    }

    void selectingAGraphMovesTheTextCursorToIt() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level0.ir")));
        w.graphList()->setCurrentRow(0);
        const QString line = w.irTextView()->textCursor().block().text();
        QVERIFY2(line.startsWith(QStringLiteral("subgraph @BackwardNet_construct(")),
                 qPrintable(line));
    }

    void graphSelectionAndIrTextFollowEachOther() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir")));
        QVERIFY(waitForGraph(w));
        // Selecting a node in the graph moves the text cursor to its line.
        NodeItem* addn = nullptr;
        for (NodeItem* item : w.graphView()->nodeItems()) {
            if (item != nullptr && item->label() == QStringLiteral("AddN\n%14")) {
                addn = item;
            }
        }
        QVERIFY(addn != nullptr);
        addn->setSelected(true);
        QCOMPARE(w.irTextView()->textCursor().block().text().trimmed().left(12),
                 QStringLiteral("%14 = AddN(%"));
        // Putting the cursor on a line selects its node.
        const QTextBlock block = w.irTextView()->document()->findBlockByNumber(
            w.irTextView()->document()->find(QStringLiteral("%6 = Load(")).blockNumber());
        w.irTextView()->setTextCursor(QTextCursor(block));
        const auto selected = w.graphView()->scene()->selectedItems();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(static_cast<NodeItem*>(selected.front())->label(), QStringLiteral("Load\n%6"));
        // Search from the toolbar field.
        w.graphSearch()->setText(QStringLiteral("^UpdateState$"));
        QCOMPARE(static_cast<int>(w.graphView()->searchMatches().size()), 6);
    }

    void malformedFileShowsLocatedErrorAndKeepsDocument() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString bad = dir.filePath(QStringLiteral("bad.ir"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // `%0 Add(...)`: no '=' (an undefined %7 alone would only be a warning).
        f.write("# IR entry: @g\nsubgraph @g() {\n  %0 Add(%7, %7)\n  Return(%0)\n}\n");
        f.close();

        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_level3.ir")));
        const QString before = w.irTextView()->toPlainText();
        QVERIFY(waitForGraph(w));
        QVERIFY(!openAndWait(w, bad));
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("bad.ir:3:")),
                 qPrintable(w.errorBanner()->text()));
        QCOMPARE(w.irTextView()->toPlainText(), before);
        QVERIFY(w.graphView()->hasGraph());
    }

    void missingFileIsAnErrorNotACrash() {
        MainWindow w;
        QVERIFY(!openAndWait(w, QStringLiteral("/nonexistent/file.ir")));
        QVERIFY(w.errorBanner()->text().contains(QStringLiteral("cannot open")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
