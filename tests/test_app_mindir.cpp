// The desktop app on MindIR files (read in place from ../shared/mindir): File ▸ Open shows the
// graph, the normalised IR and the counts; the inspector shows a primitive's attributes
// (MaxPool's kernel_size as a tuple); an encrypted file is refused saying so; a truncated
// file is an error banner, the window keeps going.
#include <QtTest>

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "cli_runner.h"
#include "execution_dock.h"
#include "gui_fixture.h"
#include "main_window.h"
#include "mindir_key_dialog.h"
#include "node_inspector_dock.h"
#include "output_dock.h"

using gui_test::openAndWait;
using gui_test::waitIdle;
using irscope::ui::ExecutionDock;
using irscope::ui::MainWindow;
using irscope::ui::MindirKeyDialog;

namespace {

QString mindir(const char* name) {
    return QStringLiteral(IRSCOPE_SHARED_DIR "/mindir/") + QLatin1String(name);
}

const irscope::ir::CNode* firstOp(const irscope::ir::Module& m, std::string_view op) {
    const irscope::ir::CNode* found = nullptr;
    m.forEachNode([&](const irscope::ir::Node* n) {
        const auto* c = irscope::ir::nodeCast<irscope::ir::CNode>(n);
        if (found == nullptr && c != nullptr && c->isPrimitive(op)) {
            found = c;
        }
    });
    return found;
}

}  // namespace

class TestAppMindir : public QObject {
    Q_OBJECT

    QTemporaryDir settingsDir_;

private slots:
    void initTestCase() {
        QVERIFY(settingsDir_.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("irscope-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_app_mindir"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    }

    void opensLeNetWithAttributes() {
        MainWindow w;
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, mindir("04_ms2.0.0a0_lenet_ori_net.mindir"), &ok));
        QVERIFY2(ok, qPrintable(w.errorBanner()->text()));
        QVERIFY(!w.errorBanner()->isVisible());
        QCOMPARE(w.graphList()->count(), 1);
        QVERIFY(w.irTextView()->toPlainText().contains(QStringLiteral("MaxPool(")));
        QVERIFY(w.irTextView()->toPlainText().contains(QStringLiteral("_conv1.weight")));
        QVERIFY(waitIdle(w));
        const auto* pool = firstOp(*w.document().module, "MaxPool");
        QVERIFY(pool != nullptr);
        w.nodeInspectorDock()->showNode(pool, *w.document().graph);
        QTreeWidgetItem* attrs = w.nodeInspectorDock()->section(QStringLiteral("Attributes"));
        QVERIFY(attrs != nullptr);
        bool kernel = false;
        for (int i = 0; i < attrs->childCount(); ++i) {
            const QTreeWidgetItem* row = attrs->child(i);
            if (row->text(0) == QLatin1String("kernel_size")) {
                kernel = true;
                QCOMPARE(row->text(1), QStringLiteral("(I64(1), I64(1), I64(2), I64(2))"));
            }
        }
        QVERIFY(kernel);
    }

    // An encrypted file is refused with what it is and how to open it.
    void encryptedIsRefused() {
        MainWindow w;
        w.show();
        bool ok = true;
        QVERIFY(openAndWait(
            w, mindir("10_encrypted_aesgcm_add_encrpty_key_0123456789ABCDEF.mindir"), &ok));
        QVERIFY(!ok);
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("encrypted (AES-GCM)")),
                 qPrintable(w.errorBanner()->text()));
    }

    // Without its key the window asks for it (MindirKeyDialog): a wrong key asks again with
    // the reason, the right one opens the graph, Cancel keeps the refusal.
    void encryptedAsksForTheKey() {
        MainWindow w;
        w.show();
        bool ok = true;
        const QString file = mindir("10_encrypted_aesgcm_add_encrpty_key_0123456789ABCDEF.mindir");
        QVERIFY(openAndWait(w, file, &ok));
        QVERIFY(!ok);
        auto visibleDialog = [&w]() -> MindirKeyDialog* {
            for (MindirKeyDialog* d : w.findChildren<MindirKeyDialog*>()) {
                if (d->isVisible()) {
                    return d;
                }
            }
            return nullptr;
        };
        QTRY_VERIFY(visibleDialog() != nullptr);
        MindirKeyDialog* d = visibleDialog();
        QCOMPARE(d->file(), file);
        QVERIFY2(d->reasonLabel()->text().contains(QStringLiteral("encrypted (AES-GCM)")),
                 qPrintable(d->reasonLabel()->text()));
        QVERIFY(!d->openButton()->isEnabled());  // nothing typed yet
        QCOMPARE(d->keyEdit()->echoMode(), QLineEdit::Password);

        // A wrong key of the right length: refused, and asked again saying why.
        QTest::keyClicks(d->keyEdit(), QStringLiteral("0123456789ABCDEX"));
        QVERIFY(d->openButton()->isEnabled());
        QSignalSpy spy(&w, &MainWindow::loadFinished);
        QTest::mouseClick(d->openButton(), Qt::LeftButton);
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.takeFirst().at(0).toBool(), false);
        QTRY_VERIFY(visibleDialog() != nullptr && visibleDialog() != d);
        d = visibleDialog();
        QVERIFY2(d->reasonLabel()->text().contains(QStringLiteral("decrypt")) ||
                     d->reasonLabel()->text().contains(QStringLiteral("key")),
                 qPrintable(d->reasonLabel()->text()));
        QVERIFY(w.errorBanner()->isVisible());

        // The key in the file's name opens the one-node Add graph.
        QTest::keyClicks(d->keyEdit(), QStringLiteral("0123456789ABCDEF"));
        QTest::mouseClick(d->openButton(), Qt::LeftButton);
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.takeFirst().at(0).toBool(), true);
        QVERIFY(!w.errorBanner()->isVisible());
        QVERIFY(firstOp(*w.document().module, "Add") != nullptr);
        QVERIFY(w.irTextView()->toPlainText().contains(QStringLiteral("Add(")));
        QTRY_VERIFY(visibleDialog() == nullptr);

        // Cancel: no second load, the refusal stays.
        QVERIFY(openAndWait(w, file, &ok));
        QVERIFY(!ok);
        QTRY_VERIFY(visibleDialog() != nullptr);
        visibleDialog()->reject();
        QVERIFY(!spy.wait(500));
        QVERIFY(w.errorBanner()->isVisible());
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("encrypted (AES-GCM)")),
                 qPrintable(w.errorBanner()->text()));
    }

    // A file a script exported with mindspore.export opens in the app.
    void exportedFileOpens() {
        QTemporaryDir dir;
        const QString script = gui_test::writeScript(
            dir, QStringLiteral("export.py"),
            "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super().__init__()\n"
            "        self.conv = nn.Conv2d(1, 2, 3, pad_mode='valid')\n"
            "        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)\n"
            "    def construct(self, x):\n"
            "        return self.pool(self.conv(x))\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "ms.export(Net(), ms.Tensor(np.ones((1, 1, 6, 6), np.float32)), file_name='net',"
            " file_format='MINDIR')\n");
        QVERIFY(!script.isEmpty());
        cli_test::CliOptions o;
        o.workingDirectory = dir.path();
        const auto r = cli_test::runCli({QStringLiteral("run"), QStringLiteral("export.py")}, o);
        QVERIFY2(r.status == 0, qPrintable(r.errText()));
        MainWindow w;
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, dir.filePath(QStringLiteral("net.mindir")), &ok));
        QVERIFY2(ok, qPrintable(w.errorBanner()->text()));
        QVERIFY(firstOp(*w.document().module, "Conv2D") != nullptr);
        QVERIFY(firstOp(*w.document().module, "MaxPool") != nullptr);
        QVERIFY(w.irTextView()->toPlainText().contains(QStringLiteral("_conv.weight")));
    }

    // A script that runs the MNIST file through nn.GraphCell, in the Execution dock: a
    // watchpoint on Conv2D stops in the loaded graph, and the run ends with the class of the
    // drawn "1" in the Output dock.
    void executionDockRunsALoadedGraph() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(mindir("07_ms2.2.10_mnist.mindir"),
                            dir.filePath(QStringLiteral("mnist.mindir"))));
        const QString script = gui_test::writeScript(
            dir, QStringLiteral("classify.py"),
            "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
            "net = nn.GraphCell(ms.load('mnist.mindir'))\n"
            "x = np.zeros((1, 1, 32, 32), np.float32)\n"
            "x[0, 0, 4:28, 14:18] = 1.0\n"
            "print('class', int(net(ms.Tensor(x)).asnumpy().argmax()))\n");
        MainWindow w;
        w.show();
        bool ok = false;
        QVERIFY(openAndWait(w, script, &ok));
        ExecutionDock* dock = w.executionDock();
        QVERIFY(dock->addWatchpoint(QStringLiteral("Conv2D"), QStringLiteral("above 0")));
        QSignalSpy paused(dock, &ExecutionDock::paused);
        QSignalSpy finished(dock, &ExecutionDock::finished);
        dock->continueAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!paused.isEmpty() || !finished.isEmpty(), 60000);
        QVERIFY2(!paused.isEmpty(), "the watchpoint did not stop the run");
        QCOMPARE(paused.first().at(0).toString(),
                 QStringLiteral("206_135___main___mnist_construct_22"));
        QCOMPARE(dock->stopInfo()->reason, irscope::runtime::StopReason::Watchpoint);
        while (finished.isEmpty()) {  // the file's second Conv2D stops too
            QVERIFY(paused.size() < 5);
            const auto before = paused.size();
            dock->continueAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || paused.size() > before, 60000);
        }
        QCOMPARE(paused.size(), 2);
        QVERIFY(finished.first().at(0).toBool());
        const QString out = w.outputDock()->findChild<QPlainTextEdit*>()->toPlainText();
        QVERIFY2(out.contains(QStringLiteral("class 1")), qPrintable(out));
    }

    void truncatedIsAnError() {
        QTemporaryDir dir;
        QFile in(mindir("07_ms2.2.10_mnist.mindir"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        QFile out(dir.filePath(QStringLiteral("cut.mindir")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes.left(bytes.size() / 3));
        out.close();
        MainWindow w;
        w.show();
        bool ok = true;
        QVERIFY(openAndWait(w, out.fileName(), &ok));
        QVERIFY(!ok);
        QVERIFY2(w.errorBanner()->text().contains(QStringLiteral("truncated")),
                 qPrintable(w.errorBanner()->text()));
    }
};

QTEST_MAIN(TestAppMindir)
#include "test_app_mindir.moc"
