// The Script editor and Node inspector docks in the real main window, offscreen: the opened
// script's text in the editor, editing, saving and re-running it (Ctrl+R), errors marked on
// their lines, and one selection across graph view, IR text, inspector and source lines.
// Also: every pass of a compile keeps the nodes' source locations through the snapshot text.
#include <QtTest>

#include <QFile>
#include <QGraphicsScene>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTreeWidget>

#include <Qsci/qscilexer.h>
#include <Qsci/qsciscintilla.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "graph_scene.h"
#include "gui_fixture.h"
#include "ir/func_graph.h"
#include "main_window.h"
#include "node_inspector_dock.h"
#include "pass_timeline_dock.h"
#include "script_editor_dock.h"
#include "script_problems.h"
#include "session/run_script.h"

using gui_test::openAndWait;
using gui_test::waitIdle;
using gui_test::writeScript;
using irscope::ui::GraphView;
using irscope::ui::MainWindow;
using irscope::ui::NodeInspectorDock;
using irscope::ui::NodeItem;
using irscope::ui::ScriptEditorDock;
using irscope::ui::ScriptProblem;
namespace ir = irscope::ir;

namespace {

const QString kExample = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");

QString readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The 1-based line of the first line of `text` containing `needle`, or 0.
int lineOf(const QString& text, const QString& needle) {
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(needle)) {
            return i + 1;
        }
    }
    return 0;
}

// The printed names (%N) of the nodes whose `# In file` comment in `irText` names `line` of
// a file ending in `fileName`, in print order: what the IR itself says that line created.
QStringList nodesOfLineInText(const QString& irText, const QString& fileName, int line) {
    static const QRegularExpression nodeLine(QStringLiteral("^  (%\\d+)(?:\\([^)]*\\))? = "));
    const QRegularExpression loc(QStringLiteral("^      # In file .*%1:%2[,~ ]")
                                     .arg(QRegularExpression::escape(fileName))
                                     .arg(line));
    QStringList out;
    QString current;
    for (const QString& l : irText.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = nodeLine.match(l);
        if (m.hasMatch()) {
            current = m.captured(1);
        } else if (l.startsWith(QLatin1String("  Return(")) || l.startsWith(QLatin1Char('}'))) {
            current.clear();
        } else if (!current.isEmpty() && loc.match(l).hasMatch()) {
            out << current;
            current.clear();
        }
    }
    return out;
}

// The names (second label line) of the selected node items.
QStringList selectedNames(GraphView* view) {
    QStringList out;
    for (QGraphicsItem* it : view->scene()->selectedItems()) {
        if (it->type() == irscope::ui::kNodeItemType) {
            const auto* item = static_cast<NodeItem*>(it);
            out << item->label().section(QLatin1Char('\n'), 1, 1);
        }
    }
    out.sort();
    return out;
}

NodeItem* itemLabelled(GraphView* view, const QString& label) {
    for (NodeItem* item : view->nodeItems()) {
        if (item != nullptr && item->label() == label) {
            return item;
        }
    }
    return nullptr;
}

// Clicks 1-based `line` of the editor (at its first non-blank character) with the mouse.
void clickLine(QsciScintilla* editor, int line) {
    editor->ensureLineVisible(line - 1);
    const QString text = editor->text(line - 1);
    const int indent = static_cast<int>(text.size() - QString(text).remove(QRegularExpression(QStringLiteral("^\\s+"))).size());
    const long pos = editor->positionFromLineIndex(line - 1, indent + 1);
    const int x = static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_POINTYFROMPOSITION, 0UL, pos));
    const int h = static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, line - 1));
    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(x + 1, y + h / 2));
}

// Types `text` and Return at the start of 1-based `line`, as a user would.
void typeLine(QsciScintilla* editor, int line, const QString& text) {
    editor->setFocus();
    editor->setCursorPosition(line - 1, 0);
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
}

void clickRow(QTreeWidget* tree, QTreeWidgetItem* row) {
    tree->scrollToItem(row);
    const QRect r = tree->visualItemRect(row);  // all columns: may be wider than the viewport
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, QPoint(r.left() + 8, r.center().y()));
}

}  // namespace

class TestScriptEditor : public QObject {
    Q_OBJECT

private:
    // Shows `w` and opens `path`: the result it reported, or nullopt when it did not finish.
    static std::optional<bool> openShown(MainWindow& w, const QString& path) {
        w.show();
        bool ok = false;
        if (!QTest::qWaitForWindowExposed(&w) || !openAndWait(w, path, &ok)) {
            return std::nullopt;
        }
        return ok;
    }

    // Opens the example and waits until its final IR is laid out.
    static bool openExample(MainWindow& w) {
        return openShown(w, kExample) == true && waitIdle(w) && w.graphView()->hasGraph();
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_script_editor"));
    }

    void problemsAreReadFromRealErrors() {
        // A traceback: every frame, the innermost raised, the exception as the message.
        irscope::session::ScriptRunner runner;
        const auto r = runner.run("def g(a):\n    return a / 0\n\nprint(g(1))\n", "t.py", {});
        const QList<ScriptProblem> p = irscope::ui::scriptProblems(QString::fromStdString(r.result.error));
        QCOMPARE(p.size(), 2);
        QCOMPARE(p[0].line, 4);
        QVERIFY(!p[0].raised);
        QCOMPARE(p[1].line, 2);
        QVERIFY(p[1].raised);
        QCOMPARE(p[1].function, QStringLiteral("g"));
        QVERIFY2(p[1].message.startsWith(QStringLiteral("ZeroDivisionError")), qPrintable(p[1].message));
        // A syntax error: its line and column.
        irscope::session::ScriptRunner runner2;
        const auto s = runner2.run("x = 1\ny = (2,\n", "s.py", {});
        const QList<ScriptProblem> q = irscope::ui::scriptProblems(QString::fromStdString(s.result.error));
        QCOMPARE(q.size(), 1);
        QCOMPARE(q[0].file, QStringLiteral("s.py"));
        QCOMPARE(q[0].line, 2);
        QVERIFY(q[0].column > 0);
        QVERIFY(q[0].message.startsWith(QStringLiteral("SyntaxError")));
        QVERIFY(irscope::ui::scriptProblems(QStringLiteral("no location here")).isEmpty());
    }

    void opensTheScriptInTheEditor() {
        MainWindow w;
        QVERIFY(openExample(w));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QCOMPARE(dock->text(), readFile(kExample));
        QCOMPARE(dock->path(), kExample);
        QVERIFY(!dock->isModified());
        QCOMPARE(dock->windowTitle(), QStringLiteral("Script — load_elim_fwd_bwd.py"));
        QVERIFY(dock->runAction()->isEnabled());
        QVERIFY(dock->errorLines().isEmpty());
        QVERIFY(dock->problemList()->isHidden());
    }

    void editsAreMarkedAndSavedWithCtrlS() {
        QTemporaryDir dir;
        const QString path = writeScript(dir, QStringLiteral("edit.py"), "x = 1\nprint(x)\n");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        QCOMPARE(openShown(w, path), std::optional<bool>(true));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QsciScintilla* editor = dock->editor();
        typeLine(editor, 2, QStringLiteral("y = 2"));
        QVERIFY(dock->isModified());
        QVERIFY2(dock->windowTitle().endsWith(QStringLiteral(" *")), qPrintable(dock->windowTitle()));
        QCOMPARE(readFile(path), QStringLiteral("x = 1\nprint(x)\n"));  // not saved yet
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(readFile(path), QStringLiteral("x = 1\ny = 2\nprint(x)\n"));
        QVERIFY(!dock->isModified());
        QVERIFY(!dock->windowTitle().endsWith(QStringLiteral(" *")));
    }

    void runtimeErrorIsMarkedOnItsLine() {
        QTemporaryDir dir;
        const QString path = writeScript(dir, QStringLiteral("boom.py"),
                                         "import mindspore as ms\n"
                                         "\n"
                                         "def g(a):\n"
                                         "    return a / 0\n"
                                         "\n"
                                         "print(g(1))\n");
        MainWindow w;
        QCOMPARE(openShown(w, path), std::optional<bool>(false));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QCOMPARE(dock->errorLines(), QList<int>{4});
        QCOMPARE(dock->frameLines(), QList<int>{6});
        QVERIFY2(dock->annotationAt(4).startsWith(QStringLiteral("ZeroDivisionError: division by zero")),
                 qPrintable(dock->annotationAt(4)));
        QVERIFY(dock->annotationAt(6).isEmpty());
        QCOMPARE(dock->cursorLine(), 4);  // scrolled to the error
        QVERIFY(dock->problemList()->isVisible());
        QCOMPARE(dock->problemList()->count(), 2);
    }

    void syntaxAndCompileErrorsAreMarked() {
        QTemporaryDir dir;
        const QString syntax = writeScript(dir, QStringLiteral("syntax.py"),
                                           "import mindspore as ms\nx = 1\ndef f(:\n    return x\n");
        const QString compile = writeScript(dir, QStringLiteral("reshape.py"),
                                            "import numpy as np\n"
                                            "import mindspore as ms\n"
                                            "from mindspore import ops\n"
                                            "\n"
                                            "@ms.jit\n"
                                            "def f(x):\n"
                                            "    y = x + 1\n"
                                            "    z = ops.reshape(y, (5, 7))\n"
                                            "    return z\n"
                                            "\n"
                                            "print(f(ms.Tensor(np.ones((2, 3), np.float32))))\n");
        MainWindow w;
        QCOMPARE(openShown(w, syntax), std::optional<bool>(false));
        QCOMPARE(w.scriptEditorDock()->errorLines(), QList<int>{3});
        QVERIFY(w.scriptEditorDock()->annotationAt(3).startsWith(QStringLiteral("SyntaxError")));
        QCOMPARE(openShown(w, compile), std::optional<bool>(false));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QCOMPARE(dock->text(), readFile(compile));
        // The compile error is marked on the construct line that failed, not on the call.
        QCOMPARE(dock->errorLines(), QList<int>{8});
        QCOMPARE(dock->frameLines(), QList<int>{11});
        QVERIFY2(dock->annotationAt(8).contains(QStringLiteral("For 'Reshape'")), qPrintable(dock->annotationAt(8)));
        QCOMPARE(dock->cursorLine(), 8);
    }

    void editorFollowsADarkPalette() {
        MainWindow w;
        QVERIFY(openExample(w));
        QsciLexer* lexer = w.scriptEditorDock()->editor()->lexer();
        QVERIFY(lexer != nullptr);
        QCOMPARE(lexer->language(), "Python");
        const int keyword = 5;  // QsciLexerPython::Keyword
        QVERIFY(lexer->paper(keyword).lightness() > 128);
        QCOMPARE(lexer->color(keyword), lexer->defaultColor(keyword));
        QPalette dark = w.palette();
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Window, QColor(0x2d, 0x2d, 0x2d));
        dark.setColor(QPalette::Text, QColor(0xdd, 0xdd, 0xdd));
        const QPalette light = w.palette();
        w.setPalette(dark);
        QVERIFY(lexer->paper(keyword).lightness() < 128);
        QVERIFY(lexer->color(keyword).lightness() > 128);
        QVERIFY(lexer->color(0).lightness() > 128);  // Default text
        w.setPalette(light);
        QVERIFY(lexer->paper(keyword).lightness() > 128);
        QCOMPARE(lexer->color(keyword), lexer->defaultColor(keyword));
    }

    void problemsInOtherFilesAreListedWithoutMarker() {
        MainWindow w;
        QVERIFY(openExample(w));
        ScriptEditorDock* dock = w.scriptEditorDock();
        ScriptProblem other;
        other.file = QStringLiteral("/elsewhere/helper.py");
        other.line = 3;
        other.message = QStringLiteral("ValueError: bad");
        other.raised = true;
        dock->setProblems({other});
        QVERIFY(dock->errorLines().isEmpty());
        QVERIFY(dock->frameLines().isEmpty());
        QCOMPARE(dock->problemList()->count(), 1);
        QVERIFY(dock->problemList()->item(0)->text().contains(QStringLiteral("helper.py:3")));
        QVERIFY(dock->problemList()->item(0)->text().contains(QStringLiteral("ValueError: bad")));
        // The same problem in the script is marked.
        other.file = kExample;
        dock->setProblems({other});
        QCOMPARE(dock->errorLines(), QList<int>{3});
    }

    void f5RunsTheEditedBuffer() {
        QTemporaryDir dir;
        const QString path = writeScript(dir, QStringLiteral("rerun.py"), "x = 1\nprint(x)\n");
        MainWindow w;
        QCOMPARE(openShown(w, path), std::optional<bool>(true));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QsciScintilla* editor = dock->editor();
        typeLine(editor, 2, QStringLiteral("print(undefined_name)"));
        QSignalSpy done(&w, &MainWindow::loadFinished);
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(done.wait(60000));
        QVERIFY(!done.takeFirst().at(0).toBool());
        // The unsaved buffer ran: its new line 2 failed; the file is untouched.
        QCOMPARE(readFile(path), QStringLiteral("x = 1\nprint(x)\n"));
        QVERIFY(dock->isModified());
        QCOMPARE(dock->errorLines(), QList<int>{2});
        QVERIFY2(dock->annotationAt(2).contains(QStringLiteral("NameError")), qPrintable(dock->annotationAt(2)));
        // Fix it and run again: the markers go.
        editor->setSelection(1, 0, 2, 0);
        editor->removeSelectedText();
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(done.wait(60000));
        QVERIFY(done.takeFirst().at(0).toBool());
        QVERIFY(dock->errorLines().isEmpty());
        QCOMPARE(w.session()->output, std::string("1\n"));
    }

    void selectingANodeShowsItsSourceLineAndAbstract() {
        MainWindow w;
        QVERIFY(openExample(w));
        const QString script = readFile(kExample);
        const int readLine = lineOf(script, QStringLiteral("out = x * self.weight + out"));
        QVERIFY(readLine > 0);
        // The first Load in the final IR reads the weight on that line.
        const QString ir = w.irTextView()->toPlainText();
        static const QRegularExpression firstLoad(QStringLiteral("\\n  (%\\d+) = Load\\("));
        const QString load = firstLoad.match(ir).captured(1);
        QVERIFY(!load.isEmpty());
        NodeItem* item = itemLabelled(w.graphView(), QStringLiteral("Load\n") + load);
        QVERIFY(item != nullptr);
        w.graphView()->centerOn(item);
        QTest::mouseClick(w.graphView()->viewport(), Qt::LeftButton, {},
                          w.graphView()->mapFromScene(item->sceneBoundingRect().center()));
        QVERIFY(item->isSelected());
        ScriptEditorDock* dock = w.scriptEditorDock();
        QCOMPARE(dock->cursorLine(), readLine);
        QCOMPARE(dock->highlightedLine(), readLine);
        NodeInspectorDock* inspector = w.nodeInspectorDock();
        QCOMPARE(inspector->property(QStringLiteral("Name")), load);
        QCOMPARE(inspector->property(QStringLiteral("Op")), QStringLiteral("Load"));
        QCOMPARE(inspector->property(QStringLiteral("Abstract")), QStringLiteral("<Tensor[Int32], ()>"));
        QCOMPARE(inspector->property(QStringLiteral("DType")), QStringLiteral("Int32"));
        QCOMPARE(inspector->property(QStringLiteral("Shape")), QStringLiteral("()"));
        QCOMPARE(inspector->property(QStringLiteral("Graph")), QStringLiteral("@BackwardNet_construct"));
        QCOMPARE(inspector->property(QStringLiteral("Scope")), QStringLiteral("Default/forward_net-ForwardNet"));
        QTreeWidgetItem* source = inspector->section(QStringLiteral("Source"));
        QVERIFY(source != nullptr && source->childCount() == 1);
        QVERIFY(source->child(0)->text(0).endsWith(QStringLiteral(":%1, 18~33").arg(readLine)));
        QCOMPARE(source->child(0)->text(1), QStringLiteral("out = x * self.weight + out"));
        // Clicking the location shows its line in the script again.
        dock->editor()->setCursorPosition(0, 0);
        dock->clearLocation();
        clickRow(inspector->tree(), source->child(0));
        QCOMPARE(dock->highlightedLine(), readLine);
        QCOMPARE(dock->cursorLine(), readLine);
        // The IR text follows too.
        QVERIFY(w.irTextView()->textCursor().block().text().startsWith(QStringLiteral("  ") + load + QStringLiteral(" = Load(")));
    }

    void clickingASourceLineSelectsItsNodes() {
        MainWindow w;
        QVERIFY(openExample(w));
        const QString script = readFile(kExample);
        const int assignLine = lineOf(script, QStringLiteral("F.assign(self.weight, i)"));
        QVERIFY(assignLine > 0);
        const QStringList expected = nodesOfLineInText(w.irTextView()->toPlainText(),
                                                       QStringLiteral("load_elim_fwd_bwd.py"), assignLine);
        QCOMPARE(expected.size(), 6);  // three Assigns and their UpdateStates (the loop is unrolled)
        ScriptEditorDock* dock = w.scriptEditorDock();
        dock->editor()->setFocus();
        QSignalSpy lines(dock, &ScriptEditorDock::lineSelected);
        clickLine(dock->editor(), assignLine);
        QCOMPARE(lines.count(), 1);
        QCOMPARE(lines.takeFirst().at(0).toInt(), assignLine);
        QVERIFY(QTest::qWaitFor([&] { return !w.isBusy(); }, 60000));
        QStringList sortedExpected = expected;
        sortedExpected.sort();
        QCOMPARE(selectedNames(w.graphView()), sortedExpected);
        // The first one is current: in the inspector and the IR text.
        QCOMPARE(w.nodeInspectorDock()->property(QStringLiteral("Name")), expected.front());
        QVERIFY(w.irTextView()->textCursor().block().text().startsWith(QStringLiteral("  ") + expected.front() +
                                                                       QStringLiteral(" = Assign(")));
        // Stepping to an earlier pass selects that line's nodes in its IR.
        const QString finalIr = w.irTextView()->toPlainText();
        irscope::ui::PassTimelineDock* timeline = w.passTimelineDock();
        while (w.irTextView()->toPlainText() == finalIr && timeline->currentRow() > 0) {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->previousAction()->trigger();
            QVERIFY(shown.wait(20000));
            QVERIFY(waitIdle(w));
        }
        const QString earlierIr = w.irTextView()->toPlainText();
        QVERIFY(earlierIr != finalIr);
        QStringList earlier = nodesOfLineInText(earlierIr, QStringLiteral("load_elim_fwd_bwd.py"), assignLine);
        QVERIFY(!earlier.isEmpty());
        QCOMPARE(w.nodeInspectorDock()->property(QStringLiteral("Name")), earlier.front());
        earlier.sort();
        QCOMPARE(selectedNames(w.graphView()), earlier);
        while (w.irTextView()->toPlainText() != finalIr) {
            QSignalSpy shown(&w, &MainWindow::snapshotShown);
            timeline->nextAction()->trigger();
            QVERIFY(shown.wait(20000));
            QVERIFY(waitIdle(w));
        }
        QCOMPARE(selectedNames(w.graphView()), sortedExpected);
        // Clicking the same line again (after another selection) selects them again.
        const int returnLine = lineOf(script, QStringLiteral("return grads"));
        clickLine(dock->editor(), returnLine);
        QCOMPARE(w.nodeInspectorDock()->property(QStringLiteral("Name")), QStringLiteral("Return"));
        clickLine(dock->editor(), assignLine);
        clickLine(dock->editor(), assignLine);
        QCOMPARE(selectedNames(w.graphView()), sortedExpected);
        // A line that made no node changes nothing.
        clickLine(dock->editor(), lineOf(script, QStringLiteral("import numpy as np")));
        QCOMPARE(selectedNames(w.graphView()), sortedExpected);
        // Once the script is edited its lines no longer match the IR: nothing is selected
        // by line until it runs again.
        typeLine(dock->editor(), 1, QStringLiteral("# edited"));
        clickLine(dock->editor(), returnLine + 1);
        QCOMPARE(selectedNames(w.graphView()), sortedExpected);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("edited")));
    }

    void aLineInAnUnrolledLoopSelectsEveryIteration() {
        // if_net's loop is unrolled 100 times; `x = x - y` made one Sub in each ✓ branch graph.
        const QString path = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/if_vs_select.py");
        MainWindow w;
        QCOMPARE(openShown(w, path), std::optional<bool>(true));
        QVERIFY(waitIdle(w));
        const int line = lineOf(readFile(path), QStringLiteral("x = x - y"));
        QVERIFY(line > 0);
        ScriptEditorDock* dock = w.scriptEditorDock();
        dock->editor()->setFocus();
        clickLine(dock->editor(), line);
        QVERIFY(QTest::qWaitFor([&] { return !w.isBusy(); }, 60000));
        QCOMPARE(w.nodeInspectorDock()->property(QStringLiteral("Op")), QStringLiteral("Sub"));
        // Every one is selected: the current one's box (its graph expanded), the others' boxes
        // or, inside collapsed graphs, their graph's box.
        const irscope::ui::GraphModel& model = w.graphView()->model();
        const QString where = QStringLiteral("if_vs_select.py:%1 ").arg(line);
        int subs = 0;
        for (int k = 0; k < static_cast<int>(model.nodes().size()); ++k) {
            const irscope::ui::ModelNode& mn = model.nodes()[static_cast<std::size_t>(k)];
            if (mn.user != nullptr || !model.tooltip(k).contains(where)) {
                continue;
            }
            ++subs;
            QVERIFY(mn.label.startsWith(QStringLiteral("Sub\n")));
            NodeItem* item = w.graphView()->itemFor(k);
            QVERIFY(item != nullptr && item->isSelected());
        }
        QCOMPARE(subs, 100);
        const NodeItem* current = w.graphView()->itemFor(model.indexOf(w.nodeInspectorDock()->node()));
        QVERIFY(current != nullptr && !current->isGroup() && current->isSelected());
    }

    void clickingAnInputRowMovesTheSelection() {
        MainWindow w;
        QVERIFY(openExample(w));
        const QString ir = w.irTextView()->toPlainText();
        // A TensorMove copies a Load: its input row leads to the Load.
        static const QRegularExpression move(QStringLiteral("\\n  (%\\d+) = TensorMove\\((%\\d+)\\)"));
        const QRegularExpressionMatch m = move.match(ir);
        QVERIFY(m.hasMatch());
        NodeItem* item = itemLabelled(w.graphView(), QStringLiteral("TensorMove\n") + m.captured(1));
        QVERIFY(item != nullptr);
        item->setSelected(true);
        NodeInspectorDock* inspector = w.nodeInspectorDock();
        QCOMPARE(inspector->property(QStringLiteral("Name")), m.captured(1));
        QTreeWidgetItem* inputs = inspector->section(QStringLiteral("Inputs"));
        QVERIFY(inputs != nullptr);
        QCOMPARE(inputs->childCount(), 1);
        QVERIFY(inputs->child(0)->text(1).startsWith(m.captured(2) + QStringLiteral(" = Load")));
        QSignalSpy activated(inspector, &NodeInspectorDock::nodeActivated);
        clickRow(inspector->tree(), inputs->child(0));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(inspector->property(QStringLiteral("Name")), m.captured(2));
        QCOMPARE(inspector->property(QStringLiteral("Op")), QStringLiteral("Load"));
        QCOMPARE(selectedNames(w.graphView()), QStringList{m.captured(2)});
        QVERIFY(w.irTextView()->textCursor().block().text().startsWith(QStringLiteral("  ") + m.captured(2) +
                                                                       QStringLiteral(" = Load(")));
        // Its users list the TensorMove; clicking it goes back.
        QTreeWidgetItem* users = inspector->section(QStringLiteral("Users"));
        QVERIFY(users != nullptr);
        QTreeWidgetItem* back = nullptr;
        for (int i = 0; i < users->childCount(); ++i) {
            if (users->child(i)->text(1).startsWith(m.captured(1) + QStringLiteral(" = TensorMove"))) {
                back = users->child(i);
            }
        }
        QVERIFY(back != nullptr);
        clickRow(inspector->tree(), back);
        QCOMPARE(inspector->property(QStringLiteral("Name")), m.captured(1));
        QCOMPARE(selectedNames(w.graphView()), QStringList{m.captured(1)});
    }

    void anIrFileOpensTheScriptItsNodesNameOnSelection() {
        // The final IR of the example, saved as an .ir file (its locations name the script).
        irscope::session::ScriptRunner runner;
        const auto r = runner.run(readFile(kExample).toStdString(), kExample.toStdString(), {});
        QVERIFY(r.session != nullptr && !r.session->compiles.empty());
        QTemporaryDir dir;
        const QString irPath = writeScript(dir, QStringLiteral("final.ir"),
                                           QByteArray::fromStdString(r.session->compiles.front().snapshots.back().text()));
        QVERIFY(!irPath.isEmpty());
        MainWindow w;
        QCOMPARE(openShown(w, irPath), std::optional<bool>(true));
        QVERIFY(waitIdle(w));
        ScriptEditorDock* dock = w.scriptEditorDock();
        QVERIFY(dock->path().isEmpty());
        static const QRegularExpression firstLoad(QStringLiteral("\\n  (%\\d+) = Load\\("));
        const QString load = firstLoad.match(w.irTextView()->toPlainText()).captured(1);
        NodeItem* item = itemLabelled(w.graphView(), QStringLiteral("Load\n") + load);
        QVERIFY(item != nullptr);
        item->setSelected(true);
        QCOMPARE(dock->path(), kExample);
        QCOMPARE(dock->text(), readFile(kExample));
        QCOMPARE(dock->highlightedLine(), lineOf(readFile(kExample), QStringLiteral("out = x * self.weight + out")));
    }

    void everyPassKeepsSourceLocations() {
        // Each snapshot is re-parsed from its .ir text: every CNode must still say where in
        // the script it came from, after inline, opt_a and the rest.
        std::ifstream in(kExample.toStdString());
        const std::string source((std::istreambuf_iterator<char>(in)), {});
        irscope::session::ScriptRunner runner;
        const auto r = runner.run(source, kExample.toStdString(), {});
        QVERIFY(r.session != nullptr && !r.session->compiles.empty());
        std::set<std::string> passes;
        for (const auto& compile : r.session->compiles) {
            for (const auto& snap : compile.snapshots) {
                const auto m = snap.module();
                for (const ir::FuncGraph* g : m->graphs()) {
                    for (const ir::CNode* c : g->topoOrder()) {
                        QVERIFY2(!c->debug().trace.empty() && c->debug().trace.back().file == kExample.toStdString() &&
                                     c->debug().trace.back().line > 0,
                                 qPrintable(QStringLiteral("a node of @%1 after %2 has no script location")
                                                .arg(QString::fromStdString(g->name()),
                                                     QString::fromStdString(snap.pass))));
                    }
                }
                passes.insert(snap.pass);
            }
        }
        QVERIFY(passes.count("inline") == 1 && passes.count("opt_a") == 1 && passes.count("task_emit") == 1);
    }
};

QTEST_MAIN(TestScriptEditor)
#include "test_script_editor.moc"
