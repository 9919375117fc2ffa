// The desktop app on real MindSpore dumps (IRSCOPE_SHARED_DIR/realdumps): an analyze_fail.ir
// shows its failure and traced call stack in the Failure dock, the failed frame selected and
// its node marked; clicking a frame selects its node in the graph, the IR text and the
// inspector. A kernel graph's node shows its device types in the inspector. Every real dump
// opens in the app, its IR text shown and its graph laid out.
#include <QtTest>

#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTreeWidget>

#include "analyze_fail_dock.h"
#include "graph_view.h"
#include "gui_fixture.h"
#include "main_window.h"
#include "node_inspector_dock.h"

using namespace irscope;
using namespace irscope::ui;

namespace {

QString realDump(const char* name) {
    return QStringLiteral(IRSCOPE_SHARED_DIR "/realdumps/") + QLatin1String(name);
}

QString textLineOfCursor(const MainWindow& w) {
    return w.irTextView()->textCursor().block().text();
}

}  // namespace

class TestAnalyzeFailDock : public QObject {
    Q_OBJECT

private slots:
    void framesOfARealFailure();
    void oldDumpWithoutException();
    void kernelGraphInInspector();
    void plainFileHasNoFailure();
    void everyRealDumpOpens_data();
    void everyRealDumpOpens();
};

void TestAnalyzeFailDock::framesOfARealFailure() {
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    bool ok = false;
    QVERIFY(gui_test::openAndWait(w, realDump("21_ms24_analyze_fail_segnet.ir"), &ok));
    QVERIFY2(ok, qPrintable(w.errorBanner()->text()));
    QVERIFY(gui_test::waitIdle(w));
    AnalyzeFailDock* dock = w.failureDock();
    QVERIFY(dock->isVisible());
    QVERIFY(dock->exception()->toPlainText().startsWith(
        "Labels shape value must be equal to the Features except the last dimension"));
    QVERIFY(
        dock->exception()->toPlainText().contains("SparseSoftmaxCrossEntropyWithLogitsInferShape"));
    QListWidget* frames = dock->frames();
    QCOMPARE(frames->count(), 16);
    // On opening, the failed frame is current and its node selected everywhere.
    QCOMPARE(frames->currentRow(), 15);
    QVERIFY(frames->item(15)->text().startsWith(QStringLiteral("✗ #15")));
    QVERIFY(frames->item(15)->font().bold());
    QVERIFY(!frames->item(0)->font().bold());
    const ir::Node* failed = dock->failure().failed();
    QVERIFY(failed != nullptr);
    QCOMPARE(w.nodeInspectorDock()->node(), failed);
    QVERIFY(QTest::qWaitFor([&] { return w.graphView()->selectedNode() == failed; }, 60000));

    // Clicking frame 0 selects its node in the graph, the text and the inspector.
    const ir::Node* first = dock->nodeOfRow(0);
    QVERIFY(first != nullptr && first != failed);
    QListWidgetItem* item = frames->item(0);
    const QRect r = frames->visualItemRect(item);
    frames->scrollToItem(item);
    QTest::mouseClick(frames->viewport(), Qt::LeftButton, {},
                      frames->visualItemRect(item).center());
    QVERIFY(r.isValid());
    QCOMPARE(w.nodeInspectorDock()->node(), first);
    QVERIFY(QTest::qWaitFor([&] { return w.graphView()->selectedNode() == first; }, 60000));
    // The text cursor is on the node's line, which the marker line precedes.
    QVERIFY2(textLineOfCursor(w).contains("(CNode_50) = DoUnpackCall("),
             qPrintable(textLineOfCursor(w)));
    const QTextBlock marker = w.irTextView()->textCursor().block().previous();
    QCOMPARE(marker.text(), QStringLiteral("#------------------------> 0"));
    QCOMPARE(w.nodeInspectorDock()->section("Dump")->child(0)->text(1),
             QStringLiteral("#0 of the traced call stack (analyze_fail.ir)"));
}

void TestAnalyzeFailDock::oldDumpWithoutException() {
    MainWindow w;
    w.show();
    bool ok = false;
    QVERIFY(gui_test::openAndWait(w, realDump("14_ms20_analyze_fail_ptcr.ir"), &ok));
    QVERIFY(ok);
    QVERIFY(gui_test::waitIdle(w));
    QVERIFY(w.failureDock()->isVisible());
    QCOMPARE(w.failureDock()->frames()->count(), 4);
    QVERIFY(w.failureDock()->exception()->toPlainText().contains("does not contain the exception"));
}

void TestAnalyzeFailDock::kernelGraphInInspector() {
    MainWindow w;
    w.show();
    bool ok = false;
    QVERIFY(gui_test::openAndWait(w, realDump("11_ms1x_lenet_graph_build_0.ir"), &ok));
    QVERIFY(ok);
    QVERIFY(gui_test::waitIdle(w));
    QVERIFY(!w.failureDock()->isVisible());
    const ir::Module& m = *w.document().module;
    const ir::CNode* conv = nullptr;
    m.forEachNode([&](const ir::Node* n) {
        const auto* c = ir::nodeCast<ir::CNode>(n);
        if (c != nullptr && c->isPrimitive("Conv2D") && conv == nullptr) {
            conv = c;
        }
    });
    QVERIFY(conv != nullptr);
    QVERIFY(gui_test::clickNode(w, conv));
    QCOMPARE(w.nodeInspectorDock()->node(), conv);
    QTreeWidgetItem* kernel = w.nodeInspectorDock()->section("Kernel");
    QVERIFY(kernel != nullptr);
    QCOMPARE(kernel->childCount(), 3);
    QCOMPARE(kernel->child(0)->text(0), QStringLiteral("input 0"));
    QCOMPARE(kernel->child(0)->text(1),
             QStringLiteral("Float32 · DefaultFormat · [const vector][32, 1, 32, 32]"));
    QCOMPARE(kernel->child(2)->text(0), QStringLiteral("output 0"));
    QCOMPARE(
        w.nodeInspectorDock()->property("Scope"),
        QStringLiteral("Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op77"));
    // A weight parameter: its device type and IsWeight.
    const ir::Parameter* weight = m.entry()->parameters().front();
    // Weights are drawn as rows inside their users' boxes: the inspector shows one as the
    // click on its row (or its input link in the inspector) does.
    w.nodeInspectorDock()->showNode(weight, w.graphView()->model());
    QCOMPARE(w.nodeInspectorDock()->node(), weight);
    kernel = w.nodeInspectorDock()->section("Kernel");
    QVERIFY(kernel != nullptr);
    QCOMPARE(kernel->child(kernel->childCount() - 1)->text(0), QStringLiteral("IsWeight"));
    QCOMPARE(kernel->child(kernel->childCount() - 1)->text(1), QStringLiteral("true"));
}

void TestAnalyzeFailDock::plainFileHasNoFailure() {
    MainWindow w;
    w.show();
    bool ok = false;
    QVERIFY(gui_test::openAndWait(w, realDump("13_ms24_mstt_18_validate.ir"), &ok));
    QVERIFY(ok);
    QVERIFY(gui_test::waitIdle(w));
    QVERIFY(!w.failureDock()->isVisible());
    QCOMPARE(w.failureDock()->frames()->count(), 0);
}

void TestAnalyzeFailDock::everyRealDumpOpens_data() {
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(IRSCOPE_SHARED_DIR "/realdumps"));
    const QStringList files = dir.entryList({QStringLiteral("*.ir")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 24);
    for (const QString& f : files) {
        QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
}

void TestAnalyzeFailDock::everyRealDumpOpens() {
    QFETCH(QString, path);
    MainWindow w;
    w.show();
    bool ok = false;
    QVERIFY(gui_test::openAndWait(w, path, &ok));
    QVERIFY2(ok, qPrintable(w.errorBanner()->text()));
    QVERIFY(gui_test::waitIdle(w));
    QVERIFY(!w.errorBanner()->isVisible());
    QVERIFY(w.document().module != nullptr);
    QVERIFY(w.irTextView()->toPlainText().contains(QStringLiteral("subgraph @")));
    QVERIFY(QTest::qWaitFor(
        [&] { return w.graphView()->hasGraph() && !w.graphView()->isLayoutRunning(); }, 120000));
    QVERIFY(!w.graphView()->model().nodes().empty());
}

QTEST_MAIN(TestAnalyzeFailDock)
#include "test_analyze_fail_dock.moc"
