// irscope-cli run --device: an unknown device is a usage error listing the devices found;
// a plugin device whose launches fail (plugins/broken) runs everything on the CPU with one
// warning per op and the same output; the examples print the same on the OpenCL device as
// on the CPU (timings aside), with their kernels on the device (--run-stats).
#include <QtTest>

#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_runner.h"

namespace {

struct Result {
    int status = -1;
    QString out;
    QString err;
};

// `pluginPath`: IRSCOPE_PLUGIN_PATH for the run (none by default: only the build's plugins).
Result runCli(const QStringList& args, const QString& pluginPath = {}) {
    cli_test::CliOptions o;
    if (!pluginPath.isEmpty()) {
        o.env.insert(QStringLiteral("IRSCOPE_PLUGIN_PATH"), pluginPath);
    }
    o.timeoutMs = 600000;  // PoCL compiles a process's kernels on first use
    const cli_test::CliRun r = cli_test::runCli(args, o);
    return {r.status, r.outText(), r.errText()};
}

QString example(const char* name) {
    return QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/") + QString::fromUtf8(name);
}

// The output without the lines that print wall times.
QString withoutTimings(const QString& s) {
    QStringList keep;
    for (const QString& line : s.split('\n')) {
        if (!line.contains(QStringLiteral("time"))) {
            keep << line;
        }
    }
    return keep.join('\n');
}

const QString kLaunchDir = QStringLiteral(IRSCOPE_BROKEN_PLUGIN_DIR "/launch");

}  // namespace

class TestRunDevice : public QObject {
    Q_OBJECT

private slots:
    void unknownDeviceIsAUsageError() {
        const Result r = runCli({QStringLiteral("run"), example("depend_order.py"),
                                 QStringLiteral("--device"), QStringLiteral("nosuch")},
                                kLaunchDir);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("--device: no device named 'nosuch'; the devices found are: "
                                "cpu, broken"),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());  // the script did not run
    }

    void brokenDeviceFallsBackOncePerOp() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("net.py"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import numpy as np\n"
                "import mindspore as ms\n"
                "from mindspore import nn, Tensor\n"
                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                "class Net(nn.Cell):\n"
                "    def construct(self, x, y):\n"
                "        a = x + y\n"
                "        return a * y - x\n"
                "net = Net()\n"
                "x = Tensor(np.array([1.5, 2.0], np.float32))\n"
                "print(net(x, x))\n"
                "print(net(x + 1, x))\n");
        f.close();
        const Result cpu = runCli({QStringLiteral("run"), script});
        QCOMPARE(cpu.status, 0);
        const Result r = runCli({QStringLiteral("run"), script, QStringLiteral("--device"),
                                 QStringLiteral("broken"), QStringLiteral("--run-stats")},
                                kLaunchDir);
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out, cpu.out);
        // The device claims Add and Mul and fails both launches: one warning per op.
        QCOMPARE(r.err.count(QRegularExpression(
                     "\\[WARNING\\] irscope: device 'broken' failed to run Add \\(.*\\): .*; "
                     "running it on the CPU")),
                 1);
        QCOMPARE(r.err.count(QStringLiteral("failed to run Mul")), 1);
        QVERIFY2(r.err.contains("run 1: @Net_construct on broken"), qPrintable(r.err));
        QVERIFY2(r.err.contains("(0 on broken, 3 on the CPU, 2 fallbacks)"), qPrintable(r.err));
    }

#ifdef IRSCOPE_HAVE_OPENCL_PLUGIN
    void examplesPrintTheSameOnOpenCL_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QStringList>("flags");
        for (const char* name : {"if_vs_select.py", "depend_order.py", "hypermap_vs_for.py",
                                 "vmap_vs_for.py", "jit_class_call.py", "load_elim_fwd_bwd.py"}) {
            QTest::newRow(name) << example(name) << QStringList{};
        }
        QTest::newRow("load_elim_fwd_bwd.py level 3")
            << example("load_elim_fwd_bwd.py")
            << QStringList{QStringLiteral("--load-elim"), QStringLiteral("3")};
    }

    void examplesPrintTheSameOnOpenCL() {
        QFETCH(QString, script);
        QFETCH(QStringList, flags);
        const Result cpu = runCli(QStringList{QStringLiteral("run"), script} + flags);
        const Result cl = runCli(QStringList{QStringLiteral("run"), script,
                                             QStringLiteral("--device"), QStringLiteral("opencl"),
                                             QStringLiteral("--run-stats")} +
                                 flags);
        QCOMPARE(cl.status, cpu.status);
        QCOMPARE(withoutTimings(cl.out), withoutTimings(cpu.out));
        QVERIFY2(cl.err.contains(" on opencl"), qPrintable(cl.err));
        // Kernels ran on the device (hypermap_vs_for folds to constants: it runs none).
        long kernels = 0, onDevice = 0;
        auto it = QRegularExpression("kernels:  (\\d+) \\((\\d+) on opencl").globalMatch(cl.err);
        while (it.hasNext()) {
            const auto m = it.next();
            kernels += m.captured(1).toLong();
            onDevice += m.captured(2).toLong();
        }
        QVERIFY2(kernels == 0 || onDevice > 0, qPrintable(cl.err));
        QVERIFY2(!cl.err.contains("[WARNING]"), qPrintable(cl.err));
    }
#endif
};

QTEST_GUILESS_MAIN(TestRunDevice)
#include "test_run_device.moc"
