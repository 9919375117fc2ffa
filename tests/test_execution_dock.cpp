// The Execution dock, driven as a user would: run a script under the debugger, set a
// breakpoint by selecting a node in the graph view and pressing the toggle action, hit it,
// step into a graph call, read a value in the tensor viewer, run on the OpenCL device, stop.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>

#include "execution_dock.h"
#include "graph_scene.h"
#include "main_window.h"
#include "output_dock.h"
#include "tensor_viewer.h"

using irscope::ui::ExecutionDock;
using irscope::ui::GraphView;
using irscope::ui::MainWindow;
using irscope::ui::NodeItem;
using irscope::ui::TensorViewer;

namespace {

// A @jit function on a (2, 3, 4) float32 tensor: Mul then Add.
const char* const kScript = R"(import numpy as np
import mindspore as ms
from mindspore import Tensor


@ms.jit
def f(x):
    y = x * 2
    return y + 1


x = Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32))
print(f(x))
)";

}  // namespace

class TestExecutionDock : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString script_;

    static bool openAndWait(MainWindow& w, const QString& path) {
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        w.openFile(path);
        return spy.wait(60000) && spy.takeFirst().at(0).toBool();
    }

    static bool waitForGraph(MainWindow& w) {
        for (int i = 0; i < 600 && (!w.graphView()->hasGraph() || w.isBusy()); ++i) {
            QSignalSpy spy(w.graphView(), &GraphView::layoutFinished);
            spy.wait(100);
        }
        return w.graphView()->hasGraph() && !w.isBusy();
    }

    // Triggers `action` and waits until the run pauses (true) or ends (false).
    // Waits for the run `action` starts to pause. A run that ends without pausing stops the
    // wait; one that ends because `action` restarts it (Run while paused) does not, since the
    // next run is already going (however long the restart takes: under a sanitizer the new
    // run pauses well after the old one's `finished`).
    static bool triggerAndPause(ExecutionDock* dock, QAction* action) {
        QSignalSpy paused(dock, &ExecutionDock::paused);
        QSignalSpy finished(dock, &ExecutionDock::finished);
        action->trigger();
        auto ended = [&] {
            return !finished.isEmpty() && dock->state() != ExecutionDock::State::Running;
        };
        for (int i = 0; i < 600 && paused.isEmpty() && !ended(); ++i) {
            paused.wait(100);
        }
        return !paused.isEmpty();
    }

    static bool triggerAndFinish(ExecutionDock* dock, QAction* action, bool* ok) {
        QSignalSpy finished(dock, &ExecutionDock::finished);
        action->trigger();
        if (!finished.wait(60000)) {
            return false;
        }
        *ok = finished.takeFirst().at(0).toBool();
        return true;
    }

    static void waitForDevices(ExecutionDock* dock) {
        if (!dock->devicesScanned()) {
            QSignalSpy spy(dock, &ExecutionDock::devicesReady);
            QVERIFY(spy.wait(60000));
        }
    }

    static const irscope::runtime::ValueInfo* shown(ExecutionDock* dock) {
        return dock->tensorViewer()->shownValue();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_execution_dock"));
        QVERIFY(dir_.isValid());
        script_ = dir_.filePath(QStringLiteral("jit_add.py"));
        QFile f(script_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kScript);
    }

    void init() { QSettings().clear(); }

    void runsAnExampleToTheEnd() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py")));
        ExecutionDock* dock = w.executionDock();
        waitForDevices(dock);
        QCOMPARE(dock->deviceBox()->currentText(), QStringLiteral("cpu"));
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY2(ok, qPrintable(dock->stateLabel()->text()));
        QCOMPARE(dock->state(), ExecutionDock::State::Finished);
        QVERIFY(dock->stateLabel()->text().startsWith(QStringLiteral("Finished")));
        // What the debugged script printed reaches the Output dock: the right gradient.
        const QString out = w.outputDock()->findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(out.contains(QStringLiteral("[debugging load_elim_fwd_bwd.py on cpu]")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("value= 3)")), qPrintable(out));
    }

    void breakpointOnASelectedNodeIsHit() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py")));
        QVERIFY(waitForGraph(w));
        ExecutionDock* dock = w.executionDock();
        GraphView* view = w.graphView();
        // The final IR's second AddN (the graph view shows the last pass of the compile).
        const irscope::ir::Node* target = nullptr;
        int seen = 0;
        for (const auto& mn : view->model().nodes()) {
            if (mn.label.startsWith(QStringLiteral("AddN\n")) && ++seen == 2) {
                target = mn.node;
            }
        }
        QVERIFY(target != nullptr);
        const QString location = ExecutionDock::locationOf(view->model(), target);
        QVERIFY2(location.startsWith(QStringLiteral("@BackwardNet_construct:%")),
                 qPrintable(location));
        // Select it by clicking it, then press the toggle action (F9).
        view->selectNode(target);
        QVERIFY(waitForGraph(w));
        NodeItem* item = view->itemFor(view->model().indexOf(target));
        QVERIFY(item != nullptr);
        const QPoint at = view->mapFromScene(item->sceneBoundingRect().center());
        view->scene()->clearSelection();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->selectedNode(), target);
        dock->toggleBreakpointAction()->trigger();
        QCOMPARE(dock->breakpointList()->topLevelItemCount(), 1);
        QVERIFY(dock->breakpointList()->topLevelItem(0)->text(1).contains(location));
        QVERIFY(item->hasBreakpointMark());

        QVERIFY(triggerAndPause(dock, dock->runAction()));
        QCOMPARE(dock->state(), ExecutionDock::State::Paused);
        const auto stop = dock->stopInfo();
        QVERIFY(stop.has_value());
        QCOMPARE(stop->reason, irscope::runtime::StopReason::Breakpoint);
        QCOMPARE(stop->op, std::string("AddN"));
        QCOMPARE(QStringLiteral("@%1:%2").arg(QString::fromStdString(stop->graph),
                                              QString::fromStdString(stop->nodeName)),
                 location);
        // The paused node is drawn as current in the graph view (the executed IR).
        QVERIFY(waitForGraph(w));
        const irscope::ir::Node* shownNode =
            ExecutionDock::findNode(view->model(), QString::fromStdString(stop->graph),
                                    QString::fromStdString(stop->nodeName));
        QVERIFY(shownNode != nullptr);
        NodeItem* current = view->itemFor(view->model().indexOf(shownNode));
        QVERIFY(current != nullptr);
        QVERIFY(current->isCurrentMark());
        QVERIFY(current->hasBreakpointMark());
        QCOMPARE(view->selectedNode(), shownNode);
        // ... and in the IR text (the cursor is on its line) and the execution order.
        QVERIFY(w.irTextView()->textCursor().block().text().trimmed().startsWith(
            QString::fromStdString(stop->nodeName)));
        QListWidgetItem* row = dock->orderList()->currentItem();
        QVERIFY(row != nullptr);
        QCOMPARE(row->data(Qt::UserRole).toInt(), static_cast<int>(stop->index));
        QVERIFY(row->font().bold());
        QVERIFY(dock->orderList()->item(0)->data(Qt::UserRole + 2).toBool());  // executed: dimmed
        QVERIFY(!dock->orderList()
                     ->item(dock->orderList()->count() - 1)
                     ->data(Qt::UserRole + 2)
                     .toBool());

        // Toggling again removes it; the run then continues to its end.
        view->selectNode(shownNode);
        dock->toggleBreakpointAction()->trigger();
        QCOMPARE(dock->breakpointList()->topLevelItemCount(), 0);
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(ok);
    }

    void stepIntoALazyInlineCall() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/lazy_inline_nested.py")));
        ExecutionDock* dock = w.executionDock();
        dock->cellReuseBox()->setCurrentIndex(2);                // MS_DEV_CELL_REUSE=1: CR_ graphs
        QVERIFY(triggerAndPause(dock, dock->stepIntoAction()));  // stops at the first kernel
        QCOMPARE(dock->stopInfo()->index, std::size_t{0});
        // Step over kernels until the next one is a graph call, then step into it.
        for (int i = 0; i < 200 && dock->stopInfo()->op != "call"; ++i) {
            QVERIFY(triggerAndPause(dock, dock->stepOverAction()));
        }
        QCOMPARE(dock->stopInfo()->op, std::string("call"));
        const auto before = *dock->stopInfo();
        QVERIFY(triggerAndPause(dock, dock->stepIntoAction()));
        const auto inside = *dock->stopInfo();
        QCOMPARE(inside.stack.size(), before.stack.size() + 1);
        QVERIFY2(QString::fromStdString(inside.graph).startsWith(QStringLiteral("CR_OuterBlock")),
                 inside.graph.c_str());
        QCOMPARE(inside.index, std::size_t{0});
        QCOMPARE(dock->stackList()->count(), static_cast<int>(inside.stack.size()));
        QVERIFY(dock->stackList()->item(1)->text().contains(QString::fromStdString(before.graph)));
        // Finish returns to the caller, after the call ran.
        QVERIFY(triggerAndPause(dock, dock->finishAction()));
        QCOMPARE(dock->stopInfo()->graph, before.graph);
        QCOMPARE(dock->stopInfo()->stack.size(), before.stack.size());
        QVERIFY(dock->stopInfo()->afterKernel);
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->stopAction(), &ok));
        QVERIFY(!ok);
    }

    void tensorViewerShowsAKnownValue() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, script_));
        ExecutionDock* dock = w.executionDock();
        QVERIFY(dock->addBreakpoint(QStringLiteral("Add")));
        QSignalSpy located(dock, &ExecutionDock::locationReached);
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        QCOMPARE(dock->stopInfo()->op, std::string("Add"));
        // The script editor can follow: Add is `return y + 1`, line 9 of the script.
        QCOMPARE(located.count(), 1);
        QCOMPARE(QFileInfo(located.at(0).at(0).toString()).fileName(),
                 QStringLiteral("jit_add.py"));
        QCOMPARE(located.at(0).at(1).toInt(), 9);
        // Before Add runs: its tensor input, x * 2 = 0, 2, ..., 46 of shape (2, 3, 4).
        QCOMPARE(dock->valueBox()->count(), 1);
        const irscope::runtime::ValueInfo* v = shown(dock);
        QVERIFY(v != nullptr);
        QCOMPARE(v->summary.min, 0.0);
        QCOMPARE(v->summary.max, 46.0);
        QCOMPARE(v->summary.mean, 23.0);
        TensorViewer* viewer = dock->tensorViewer();
        const QString summary = viewer->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("min 0")) &&
                     summary.contains(QStringLiteral("max 46")) &&
                     summary.contains(QStringLiteral("mean 23")) &&
                     summary.contains(QStringLiteral("(2, 3, 4)")) &&
                     summary.contains(QStringLiteral("Float32")) &&
                     summary.contains(QStringLiteral("on cpu")),
                 qPrintable(summary));
        // A 2-D slice of the 3-D tensor, picked by one index selector.
        QCOMPARE(viewer->model()->rowCount(), 3);
        QCOMPARE(viewer->model()->columnCount(), 4);
        QCOMPARE(static_cast<int>(viewer->indexSelectors().size()), 1);
        QCOMPARE(viewer->model()->index(1, 2).data().toString(), QStringLiteral("12"));
        viewer->indexSelectors()[0]->setValue(1);
        QCOMPARE(viewer->model()->index(0, 0).data().toString(), QStringLiteral("24"));
        QCOMPARE(viewer->model()->index(2, 3).data().toString(), QStringLiteral("46"));
        // Any computed value can be inspected: the parameter x = 0, 1, ..., 23.
        QVERIFY(dock->inspect(QStringLiteral("%para1_x")));
        QCOMPARE(dock->valueBox()->count(), 2);
        v = shown(dock);
        QCOMPARE(v->summary.min, 0.0);
        QCOMPARE(v->summary.max, 23.0);
        QCOMPARE(v->summary.mean, 11.5);
        QCOMPARE(viewer->model()->index(0, 1).data().toString(), QStringLiteral("1"));
        // Activating an executed kernel in the execution order shows its value: Mul's output.
        QListWidgetItem* mul = dock->orderList()->item(0);
        QVERIFY(mul->text().contains(QStringLiteral("Mul")));
        QSignalSpy shownNode(dock, &ExecutionDock::nodeReached);
        dock->orderList()->setCurrentItem(mul);
        QTest::keyClick(dock->orderList(), Qt::Key_Return);
        QCOMPARE(shownNode.count(), 1);
        QCOMPARE(dock->valueBox()->currentText(), QStringLiteral("@f:%0"));
        QCOMPARE(shown(dock)->summary.max, 46.0);
        // A value that does not exist says why.
        QVERIFY(!dock->inspect(QStringLiteral("%99")));
        QVERIFY(!dock->noteLabel()->text().isEmpty());
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(ok);
    }

    void tensorTableFormatsEveryDtype() {
        using irscope::ir::DType;
        using irscope::ir::Tensor;
        using irscope::ui::TensorTableModel;
        const std::vector<double> vals = {1.5, -2.0, 0.0};
        QCOMPARE(TensorTableModel::formatElement(Tensor::fromDoubles(DType::Bool, {{3}}, vals), 1),
                 QStringLiteral("True"));
        QCOMPARE(TensorTableModel::formatElement(Tensor::fromDoubles(DType::Bool, {{3}}, vals), 2),
                 QStringLiteral("False"));
        QCOMPARE(TensorTableModel::formatElement(Tensor::fromDoubles(DType::Int32, {{3}}, vals), 1),
                 QStringLiteral("-2"));
        QCOMPARE(TensorTableModel::formatElement(Tensor::fromDoubles(DType::Int64, {{3}}, vals), 0),
                 QStringLiteral("1"));
        QCOMPARE(
            TensorTableModel::formatElement(Tensor::fromDoubles(DType::Float16, {{3}}, vals), 0),
            QStringLiteral("1.5"));
        QCOMPARE(
            TensorTableModel::formatElement(Tensor::fromDoubles(DType::Float32, {{3}}, vals), 1),
            QStringLiteral("-2"));
        const std::vector<double> third = {1.0 / 3.0};
        QCOMPARE(
            TensorTableModel::formatElement(Tensor::fromDoubles(DType::Float64, {{1}}, third), 0),
            QStringLiteral("0.333333333333333"));
        const std::vector<double> odd = {std::nan(""), INFINITY};
        QCOMPARE(
            TensorTableModel::formatElement(Tensor::fromDoubles(DType::Float32, {{2}}, odd), 0),
            QStringLiteral("nan"));
        QCOMPARE(
            TensorTableModel::formatElement(Tensor::fromDoubles(DType::Float32, {{2}}, odd), 1),
            QStringLiteral("inf"));
        // Scalars are one cell, 1-D tensors one column.
        TensorTableModel model;
        model.setTensor(Tensor::scalar(DType::Float32, 2.5));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), 1);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("2.5"));
        model.setTensor(Tensor::fromDoubles(DType::Int32, {{3}}, vals));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 1);
        QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("0"));
    }

    void watchpointStopsAfterTheKernel() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, script_));
        ExecutionDock* dock = w.executionDock();
        QVERIFY(dock->addWatchpoint(QStringLiteral("Add"), QStringLiteral("above 46")));
        QVERIFY(!dock->addWatchpoint(QStringLiteral("Add"), QStringLiteral("bigger 3")));
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        QCOMPARE(dock->stopInfo()->reason, irscope::runtime::StopReason::Watchpoint);
        QVERIFY(dock->stopInfo()->afterKernel);
        QCOMPARE(dock->valueBox()->itemText(0), QStringLiteral("output of %1"));
        QCOMPARE(shown(dock)->summary.max, 47.0);
        QVERIFY(dock->stateLabel()->text().contains(QStringLiteral("watchpoint 1")));
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(ok);
    }

    void openclGivesTheSameValues() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, script_));
        ExecutionDock* dock = w.executionDock();
        waitForDevices(dock);
        const int opencl = dock->deviceBox()->findText(QStringLiteral("opencl"));
        if (opencl < 0) {
            QSKIP("no OpenCL device plugin found");
        }
        QVERIFY(dock->addWatchpoint(QStringLiteral("Add"), QStringLiteral("above 0")));
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        const irscope::runtime::ValueInfo cpu = *shown(dock);
        QCOMPARE(dock->stopInfo()->placement, std::string("cpu"));
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->stopAction(), &ok));

        dock->deviceBox()->setCurrentIndex(opencl);
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        QCOMPARE(dock->stopInfo()->placement, std::string("opencl"));
        QVERIFY(dock->tensorViewer()->summaryLabel()->text().contains(QStringLiteral("on opencl")));
        const irscope::runtime::ValueInfo* dev = shown(dock);
        QCOMPARE(dev->summary.min, cpu.summary.min);
        QCOMPARE(dev->summary.max, cpu.summary.max);
        QCOMPARE(dev->summary.mean, cpu.summary.mean);
        QVERIFY(dev->tensor && cpu.tensor);
        for (std::size_t i = 0; i < cpu.tensor->size(); ++i) {
            QCOMPARE(dev->tensor->getDouble(i), cpu.tensor->getDouble(i));
        }
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(ok);
        const QString out = w.outputDock()->findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(out.contains(QStringLiteral("[debugging jit_add.py on opencl]")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("[41. 43. 45. 47.]")), qPrintable(out));
        // The choice is remembered.
        QCOMPARE(QSettings().value(QStringLiteral("execution/device")).toString(),
                 QStringLiteral("opencl"));
    }

    void stopMidRun() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, script_));
        ExecutionDock* dock = w.executionDock();
        QVERIFY(dock->addBreakpoint(QStringLiteral("Mul")));
        QVERIFY(triggerAndPause(dock, dock->runAction()));
        QVERIFY(dock->stopAction()->isEnabled());
        bool ok = true;
        QVERIFY(triggerAndFinish(dock, dock->stopAction(), &ok));
        QVERIFY(!ok);
        QCOMPARE(dock->state(), ExecutionDock::State::Finished);
        QVERIFY2(dock->stateLabel()->text().startsWith(QStringLiteral("Stopped")),
                 qPrintable(dock->stateLabel()->text()));
        QVERIFY(!dock->stopAction()->isEnabled());
        // Run again: the breakpoint still holds.
        QVERIFY(triggerAndPause(dock, dock->runAction()));
        QCOMPARE(dock->stopInfo()->op, std::string("Mul"));
        // Run to a node selected in the graph view (the executed IR is shown now).
        QVERIFY(waitForGraph(w));
        GraphView* view = w.graphView();
        const irscope::ir::Node* add =
            ExecutionDock::findNode(view->model(), QStringLiteral("f"), QStringLiteral("%1"));
        QVERIFY(add != nullptr);
        view->selectNode(add);
        QVERIFY(dock->runToNodeAction()->isEnabled());
        QVERIFY(triggerAndPause(dock, dock->runToNodeAction()));
        QCOMPARE(dock->stopInfo()->op, std::string("Add"));
        QCOMPARE(dock->stopInfo()->reason, irscope::runtime::StopReason::Advance);
        // Run while paused starts over: the run is stopped and begins again.
        QVERIFY(triggerAndPause(dock, dock->runAction()));
        QCOMPARE(dock->stopInfo()->run, std::uint64_t{1});
        QCOMPARE(dock->stopInfo()->op, std::string("Mul"));
    }

    void disabledBreakpointsDoNotStop() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(w, script_));
        ExecutionDock* dock = w.executionDock();
        QVERIFY(waitForGraph(w));
        QVERIFY(dock->addBreakpoint(QStringLiteral("jit_add.py:8")));  // y = x * 2
        // The line's kernel (Mul) is marked in the graph view, not the next line's Add.
        const GraphView* view = w.graphView();
        const auto* mulNode =
            ExecutionDock::findNode(view->model(), QStringLiteral("f"), QStringLiteral("%0"));
        const auto* addNode =
            ExecutionDock::findNode(view->model(), QStringLiteral("f"), QStringLiteral("%1"));
        QVERIFY(mulNode != nullptr && addNode != nullptr);
        QVERIFY(view->itemFor(view->model().indexOf(mulNode))->hasBreakpointMark());
        QVERIFY(!view->itemFor(view->model().indexOf(addNode))->hasBreakpointMark());
        QVERIFY(!dock->addBreakpoint(QStringLiteral("jit_add.py:99")));
        QVERIFY(dock->noteLabel()->text().contains(QStringLiteral("99")));
        QCOMPARE(dock->breakpointList()->topLevelItemCount(), 1);
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        QCOMPARE(dock->stopInfo()->op, std::string("Mul"));
        QCOMPARE(dock->breakpointList()->topLevelItem(0)->text(2), QStringLiteral("1"));  // hits
        bool ok = false;
        QVERIFY(triggerAndFinish(dock, dock->stopAction(), &ok));
        // Unchecked in the list: the next run goes to its end.
        dock->breakpointList()->topLevelItem(0)->setCheckState(0, Qt::Unchecked);
        QVERIFY(!dock->debugger().breakpoints().front().enabled);
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(ok);
        // Removed with the Remove button.
        dock->breakpointList()->topLevelItem(0)->setSelected(true);
        QTest::mouseClick(dock->findChild<QPushButton*>(QStringLiteral("removeBreakpoint")),
                          Qt::LeftButton);
        QCOMPARE(dock->breakpointList()->topLevelItemCount(), 0);
        QVERIFY(dock->debugger().breakpoints().empty());
    }

    void pauseAndStopARunningLoop() {
        // A tensor while loop: many kernels, so the run is still going when Pause comes.
        const QString path = dir_.filePath(QStringLiteral("loop.py"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "import numpy as np\n"
            "import mindspore as ms\n"
            "from mindspore import Tensor\n\n\n"
            "@ms.jit\n"
            "def loop(x, n):\n"
            "    i = Tensor(0, ms.int32)\n"
            "    while i < n:\n"
            "        x = x + 1\n"
            "        i = i + 1\n"
            "    return x\n\n\n"
            "print(loop(Tensor(0, ms.int32), Tensor(10000000, ms.int32)))\n");
        f.close();
        MainWindow w;
        w.show();
        ExecutionDock* dock = w.executionDock();
        dock->setScriptPath(path);  // not opened: its normal run would take long
        QSignalSpy paused(dock, &ExecutionDock::paused);
        dock->continueAction()->trigger();
        QCOMPARE(dock->state(), ExecutionDock::State::Running);
        QVERIFY(dock->pauseAction()->isEnabled());
        dock->pauseAction()->trigger();
        QVERIFY(paused.wait(60000));
        QCOMPARE(dock->stopInfo()->reason, irscope::runtime::StopReason::Pause);
        // Continue, then Stop while it runs.
        dock->continueAction()->trigger();
        QCOMPARE(dock->state(), ExecutionDock::State::Running);
        bool ok = true;
        QVERIFY(triggerAndFinish(dock, dock->stopAction(), &ok));
        QVERIFY(!ok);
        QVERIFY2(dock->stateLabel()->text().startsWith(QStringLiteral("Stopped")),
                 qPrintable(dock->stateLabel()->text()));
    }

    void aFailingRunSaysWhere() {
        MainWindow w;
        w.show();
        QVERIFY(openAndWait(
            w, QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py")));
        ExecutionDock* dock = w.executionDock();
        dock->loadElimBox()->setCurrentIndex(
            4);  // MS_DEV_SIDE_EFFECT_LOAD_ELIM=3: the wrong gradient
        QSignalSpy located(dock, &ExecutionDock::locationReached);
        bool ok = true;
        QVERIFY(triggerAndFinish(dock, dock->continueAction(), &ok));
        QVERIFY(!ok);
        QCOMPARE(dock->state(), ExecutionDock::State::Failed);
        QVERIFY2(dock->stateLabel()->text().startsWith(
                     QStringLiteral("Error at load_elim_fwd_bwd.py:51: AssertionError")),
                 qPrintable(dock->stateLabel()->text()));
        QCOMPARE(located.count(), 1);
        QCOMPARE(located.at(0).at(1).toInt(), 51);
        QCOMPARE(QSettings().value(QStringLiteral("execution/loadElim")).toInt(), 4);
    }

    void graphContextMenuSetsBreakpoints() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndWait(w, script_));
        QVERIFY(waitForGraph(w));
        ExecutionDock* dock = w.executionDock();
        GraphView* view = w.graphView();
        const irscope::ir::Node* mul =
            ExecutionDock::findNode(view->model(), QStringLiteral("f"), QStringLiteral("%0"));
        QVERIFY(mul != nullptr);
        view->selectNode(mul);
        QVERIFY(waitForGraph(w));
        NodeItem* item = view->itemFor(view->model().indexOf(mul));
        QVERIFY(item != nullptr);
        QVERIFY(item->label().startsWith(QStringLiteral("Mul")));
        view->scene()->clearSelection();
        // Right-click the node: its menu offers the debugger's entries; pick "break on op".
        const QPoint at = view->mapFromScene(item->sceneBoundingRect().center());
        QStringList offered;
        QTimer::singleShot(0, this, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            if (menu == nullptr) {
                return;
            }
            for (QAction* a : menu->actions()) {
                offered << a->text();
            }
            menu->close();
            dock->breakOnOpAction()->trigger();  // as the menu would, once closed
        });
        QContextMenuEvent click(QContextMenuEvent::Mouse, at, view->viewport()->mapToGlobal(at));
        QApplication::sendEvent(view->viewport(), &click);
        QVERIFY2(offered.contains(dock->toggleBreakpointAction()->text()),
                 qPrintable(offered.join(QLatin1Char('|'))));
        QVERIFY(offered.contains(dock->breakOnOpAction()->text()));
        QVERIFY(offered.contains(dock->runToNodeAction()->text()));
        QCOMPARE(view->selectedNode(), mul);  // the right-clicked node was selected
        QCOMPARE(dock->breakpointList()->topLevelItemCount(), 1);
        QVERIFY(dock->breakpointList()->topLevelItem(0)->text(1).endsWith(QStringLiteral("Mul")));
        QVERIFY(item->hasBreakpointMark());  // every Mul is marked
        QVERIFY(triggerAndPause(dock, dock->continueAction()));
        QCOMPARE(dock->stopInfo()->op, std::string("Mul"));
    }

    void debugShortcutsAreUnique() {
        MainWindow w;
        QMap<QString, QString> seen;
        for (QAction* a : w.findChildren<QAction*>()) {
            for (const QKeySequence& k : a->shortcuts()) {
                const QString key = k.toString();
                QVERIFY2(!seen.contains(key) || seen[key] == a->text(),
                         qPrintable(key + ": " + seen[key] + " and " + a->text()));
                seen[key] = a->text();
            }
        }
        const ExecutionDock* dock = w.executionDock();
        QCOMPARE(dock->continueAction()->shortcut(), QKeySequence(Qt::Key_F5));
        QCOMPARE(dock->stepOverAction()->shortcut(), QKeySequence(Qt::Key_F10));
        QCOMPARE(dock->stepIntoAction()->shortcut(), QKeySequence(Qt::Key_F11));
        QCOMPARE(dock->finishAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F11));
        QCOMPARE(dock->stopAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F5));
        QCOMPARE(dock->toggleBreakpointAction()->shortcut(), QKeySequence(Qt::Key_F9));
    }
};

QTEST_MAIN(TestExecutionDock)
#include "test_execution_dock.moc"
