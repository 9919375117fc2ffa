// The install: `cmake --install` into a fresh prefix lays out everything a user runs, and the
// installed programs work from there alone (their plugins and examples found next to them, not
// in the build tree), as they do when the Debian package is installed under /usr.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include "cli_runner.h"

using cli_test::CliOptions;
using cli_test::runCli;

class TestInstall : public QObject {
    Q_OBJECT

    QTemporaryDir prefixDir_;
    QString prefix_;

    QString installed(const QString& rel) const { return prefix_ + QLatin1Char('/') + rel; }

    // Runs an installed program with no hint of the build tree in its environment.
    cli_test::CliRun runInstalled(const QString& program, const QStringList& args,
                                  const QString& cwd) const {
        CliOptions o;
        o.program = installed(program);
        o.workingDirectory = cwd;
        o.env.insert(QStringLiteral("IRSCOPE_EXAMPLES_DIR"), QString());
        return runCli(args, o);
    }

private slots:
    void initTestCase() {
        QVERIFY(prefixDir_.isValid());
        prefix_ = prefixDir_.path() + QStringLiteral("/prefix");
        QProcess install;
        install.setProcessChannelMode(QProcess::MergedChannels);
        install.start(QStringLiteral(IRSCOPE_CMAKE),
                      {QStringLiteral("--install"), QStringLiteral(IRSCOPE_BINARY_DIR),
                       QStringLiteral("--prefix"), prefix_});
        QVERIFY(install.waitForFinished(300000));
        QVERIFY2(install.exitStatus() == QProcess::NormalExit && install.exitCode() == 0,
                 install.readAll().constData());
    }

    void laysOutEveryPart() {
        const QStringList files = {
            QStringLiteral("bin/irscope-cli"),
#ifdef IRSCOPE_HAVE_GUI
            QStringLiteral("bin/irscope"),
            QStringLiteral("share/applications/irscope.desktop"),
            QStringLiteral("share/icons/hicolor/scalable/apps/irscope.svg"),
#endif
#ifdef IRSCOPE_HAVE_OPENCL_PLUGIN
            QStringLiteral("lib/irscope/plugins/libirscope_opencl.so"),
#endif
            QStringLiteral("share/irscope/examples/examples.json"),
            QStringLiteral("share/irscope/examples/load_elim_fwd_bwd.py"),
            QStringLiteral("include/irscope/irscope_device.h"),
            QStringLiteral("include/irscope/README.md"),
        };
        for (const QString& f : files) {
            QVERIFY2(QFileInfo(installed(f)).isFile(), qPrintable(f + QStringLiteral(" is not installed")));
        }
        QVERIFY(QFileInfo(installed(QStringLiteral("bin/irscope-cli"))).isExecutable());
        // The test plugins that are broken on purpose stay in the build tree.
        QVERIFY(!QFileInfo::exists(installed(QStringLiteral("lib/irscope/plugins/broken"))));
        QFile desktop(installed(QStringLiteral("share/applications/irscope.desktop")));
#ifdef IRSCOPE_HAVE_GUI
        QVERIFY(desktop.open(QIODevice::ReadOnly));
        const QByteArray entry = desktop.readAll();
        QVERIFY(entry.contains("\nExec=irscope %f\n"));
        QVERIFY(entry.contains("\nIcon=irscope\n"));
#endif
    }

    void installedCliRunsAnInstalledExample() {
        QTemporaryDir cwd;
        const auto r = runInstalled(QStringLiteral("bin/irscope-cli"),
                                    {QStringLiteral("run"),
                                     installed(QStringLiteral("share/irscope/examples/load_elim_fwd_bwd.py"))},
                                    cwd.path());
        QVERIFY2(r.finished && r.status == 0, r.err.constData());
        QFile expected(QStringLiteral(IRSCOPE_TEST_DATA "/examples/load_elim_fwd_bwd.out"));
        QVERIFY(expected.open(QIODevice::ReadOnly));
        QCOMPARE(r.outText(), QString::fromUtf8(expected.readAll()));
    }

#ifdef IRSCOPE_HAVE_OPENCL_PLUGIN
    void installedCliFindsItsInstalledPlugin() {
        QTemporaryDir cwd;
        const auto r = runInstalled(QStringLiteral("bin/irscope-cli"), {QStringLiteral("devices")}, cwd.path());
        QVERIFY2(r.finished && r.status == 0, r.err.constData());
        const QString plugin = QDir::cleanPath(installed(QStringLiteral("lib/irscope/plugins/libirscope_opencl.so")));
        QVERIFY2(r.outText().contains(QStringLiteral("plugin: ") + plugin), qPrintable(r.outText()));
        // ... and runs an example on it.
        const auto run = runInstalled(
            QStringLiteral("bin/irscope-cli"),
            {QStringLiteral("run"), installed(QStringLiteral("share/irscope/examples/load_elim_fwd_bwd.py")),
             QStringLiteral("--device"), QStringLiteral("opencl")},
            cwd.path());
        QVERIFY2(run.finished && run.status == 0, run.err.constData());
        QVERIFY(run.outText().startsWith(QStringLiteral("(Tensor(shape=[], dtype=Int32, value= 3),)")));
    }
#endif

#ifdef IRSCOPE_HAVE_GUI
    void installedAppOpensAnInstalledExample() {
        QTemporaryDir cwd;
        const QString png = cwd.filePath(QStringLiteral("shot.png"));
        CliOptions o;
        o.program = installed(QStringLiteral("bin/irscope"));
        o.workingDirectory = cwd.path();
        o.env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        o.env.insert(QStringLiteral("XDG_CONFIG_HOME"), cwd.path());
        o.timeoutMs = 240000;
        const auto r = runCli({QStringLiteral("--screenshot"), png,
                               installed(QStringLiteral("share/irscope/examples/if_vs_select.py"))},
                              o);
        QVERIFY2(r.finished && r.status == 0, r.err.constData());
        QFile shot(png);
        QVERIFY(shot.open(QIODevice::ReadOnly));
        const QByteArray bytes = shot.readAll();
        QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
        QVERIFY(bytes.size() > 10000);  // a whole window, not an empty image
    }
#endif

    // A plugin author compiles against the installed header alone.
    void pluginHeaderCompilesOnItsOwn() {
        QTemporaryDir dir;
        QFile src(dir.filePath(QStringLiteral("p.c")));
        QVERIFY(src.open(QIODevice::WriteOnly));
        src.write("#include <irscope_device.h>\nint main(void) { return IRSCOPE_DEVICE_ABI_MAJOR > 0 ? 0 : 1; }\n");
        src.close();
        QProcess cc;
        cc.setProcessChannelMode(QProcess::MergedChannels);
        cc.start(QStringLiteral("cc"), {QStringLiteral("-std=c99"), QStringLiteral("-Wall"), QStringLiteral("-Werror"),
                                         QStringLiteral("-fsyntax-only"),
                                         QStringLiteral("-I") + installed(QStringLiteral("include/irscope")),
                                         src.fileName()});
        QVERIFY(cc.waitForFinished(60000));
        QVERIFY2(cc.exitCode() == 0, cc.readAll().constData());
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "test_install.moc"
