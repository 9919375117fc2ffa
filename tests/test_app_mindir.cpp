// The desktop app on MindIR files (read in place from ../shared/mindir): File ▸ Open shows the
// graph, the normalised IR and the counts; the inspector shows a primitive's attributes
// (MaxPool's kernel_size as a tuple); an encrypted file is refused saying so; a truncated
// file is an error banner, the window keeps going.
#include <QtTest>

#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "gui_fixture.h"
#include "main_window.h"
#include "node_inspector_dock.h"

using gui_test::openAndWait;
using gui_test::waitIdle;
using irscope::ui::MainWindow;

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
