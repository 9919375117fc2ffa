// The device plugin loader: the install's plugin folder, IRSCOPE_PLUGIN_PATH (directories,
// files, colon lists), findDevice's answers, and the deliberately broken plugins of
// plugins/broken giving clear messages naming their file (wrong ABI, missing entry point,
// not a library, launches that fail) instead of a crash. Also `irscope-cli devices`.
#include <QtTest>

#include <QTemporaryDir>

#include "cli_runner.h"
#include "runtime/plugin_loader.h"

using namespace irscope;
using runtime::DevicePtr;
using runtime::PluginScan;

namespace {

const QString kBroken = QStringLiteral(IRSCOPE_BROKEN_PLUGIN_DIR);
const QString kLaunchDir = kBroken + "/launch";
const QString kAbiFile = kBroken + "/abi/libirscope_broken_abi.so";
const QString kNoSymDir = kBroken + "/nosym";

QString joined(const std::vector<std::string>& v) {
    QStringList l;
    for (const auto& s : v) {
        l << QString::fromStdString(s);
    }
    return l.join("\n");
}

bool hasDevice(const PluginScan& s, const std::string& name) {
    return std::any_of(s.devices.begin(), s.devices.end(),
                       [&](const DevicePtr& d) { return d->info().name == name; });
}

// Sets IRSCOPE_PLUGIN_PATH for one scope.
struct PluginPath {
    explicit PluginPath(const QString& v) { qputenv("IRSCOPE_PLUGIN_PATH", v.toUtf8()); }
    ~PluginPath() { qunsetenv("IRSCOPE_PLUGIN_PATH"); }
    PluginPath(const PluginPath&) = delete;
    PluginPath& operator=(const PluginPath&) = delete;
};

}  // namespace

class TestDevicePlugins : public QObject {
    Q_OBJECT

private slots:
    void init() { qunsetenv("IRSCOPE_PLUGIN_PATH"); }
    void installFolderIsSearchedLast();
    void installFolderAlone();
    void pathDirectoriesFilesAndLists();
    void wrongAbiIsRejected();
    void missingEntryPointAndNonLibraries();
    void missingPathEntries();
    void findDeviceAnswers();
    void brokenLaunchFailsWithItsMessage();
    void aPluginFoundTwiceLoadsOnce();
    void cliListsDevicesAndErrors();
};

void TestDevicePlugins::installFolderIsSearchedLast() {
    PluginPath env(kLaunchDir + ":" + kAbiFile);
    const auto path = runtime::pluginSearchPath();
    QCOMPARE(path.size(), std::size_t{3});
    QCOMPARE(QString::fromStdString(path[0].string()), kLaunchDir);
    QCOMPARE(QString::fromStdString(path[1].string()), kAbiFile);
    QCOMPARE(QString::fromStdString(std::filesystem::weakly_canonical(path[2]).string()),
             QString::fromStdString(
                 std::filesystem::weakly_canonical(IRSCOPE_INSTALL_PLUGIN_DIR).string()));
}

void TestDevicePlugins::installFolderAlone() {
    const PluginScan s = runtime::scanDevicePlugins();
    // The broken plugins are not installed: a plain scan has no errors.
    QVERIFY2(s.errors.empty(), qPrintable(joined(s.errors)));
    QVERIFY(!hasDevice(s, "broken"));
#ifdef IRSCOPE_HAVE_OPENCL_PLUGIN
    QVERIFY2(hasDevice(s, "opencl"), "the OpenCL plugin is in build/lib/irscope/plugins");
#endif
}

void TestDevicePlugins::pathDirectoriesFilesAndLists() {
    {
        PluginPath env(kLaunchDir);  // a directory
        const PluginScan s = runtime::scanDevicePlugins();
        QVERIFY(hasDevice(s, "broken"));
        QVERIFY2(s.errors.empty(), qPrintable(joined(s.errors)));
        // Plugin devices come first, then the installed ones.
        QCOMPARE(s.devices.front()->info().name, std::string("broken"));
        QVERIFY(QString::fromStdString(s.devices.front()->info().plugin)
                    .endsWith("libirscope_broken_launch.so"));
    }
    {
        PluginPath env(kLaunchDir + "/libirscope_broken_launch.so::" + kAbiFile);  // files
        const PluginScan s = runtime::scanDevicePlugins();
        QVERIFY(hasDevice(s, "broken"));
        QCOMPARE(s.errors.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(s.errors[0]).contains("libirscope_broken_abi.so"));
    }
}

void TestDevicePlugins::wrongAbiIsRejected() {
    const PluginScan s = runtime::loadDevicePlugin(kAbiFile.toStdString());
    QVERIFY(s.devices.empty());
    QCOMPARE(s.errors.size(), std::size_t{1});
    const QString msg = QString::fromStdString(s.errors[0]);
    QVERIFY2(msg.contains(kAbiFile) && msg.contains("incompatible ABI") &&
                 msg.contains("99.0") && msg.contains("irscope has 1."),
             qPrintable(msg));
}

void TestDevicePlugins::missingEntryPointAndNonLibraries() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile fake(dir.filePath("libfake.so"));
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write("this is not an ELF file\n");
    fake.close();
    PluginPath env(kNoSymDir + ":" + dir.path());
    const PluginScan s = runtime::scanDevicePlugins();
    QCOMPARE(s.errors.size(), std::size_t{2});
    const QString all = joined(s.errors);
    QVERIFY2(all.contains("libirscope_broken_nosym.so: is not an irscope device plugin: it does "
                          "not export irscope_device_plugin_init()"),
             qPrintable(all));
    QVERIFY2(all.contains(dir.filePath("libfake.so") + ": cannot be loaded"), qPrintable(all));
}

void TestDevicePlugins::missingPathEntries() {
    PluginPath env("/nonexistent/irscope-plugins");
    const PluginScan s = runtime::scanDevicePlugins();
    QCOMPARE(s.errors.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(s.errors[0])
                 .contains("IRSCOPE_PLUGIN_PATH: /nonexistent/irscope-plugins does not exist"),
             s.errors[0].c_str());
}

void TestDevicePlugins::findDeviceAnswers() {
    PluginPath env(kLaunchDir + ":" + kAbiFile);
    std::vector<std::string> errors;
    QVERIFY(!runtime::findDevice("cpu", &errors));
    QVERIFY(errors.empty());
    QVERIFY(runtime::findDevice("broken", &errors));
    QVERIFY(errors.empty());
    QVERIFY(!runtime::findDevice("tpu", &errors));
    QVERIFY(errors.size() >= 2);
    QVERIFY2(QString::fromStdString(errors[0]).startsWith(
                 "no device named 'tpu'; the devices found are: cpu, broken"),
             errors[0].c_str());
    QVERIFY(joined(errors).contains("incompatible ABI"));  // why a device may be missing
    QVERIFY(!runtime::findDevice("tpu", nullptr));         // errors are optional
}

void TestDevicePlugins::brokenLaunchFailsWithItsMessage() {
    PluginPath env(kLaunchDir);
    std::vector<std::string> errors;
    const DevicePtr d = runtime::findDevice("broken", &errors);
    QVERIFY(d);
    QCOMPARE(d->supportedOps(), (std::vector<std::string>{"Add", "Mul"}));
    const ir::DType f[] = {ir::DType::Float32, ir::DType::Float32};
    const ir::DType i[] = {ir::DType::Int32, ir::DType::Int32};
    QVERIFY(d->supports("Add", f, std::span(f, 1)));
    QVERIFY(!d->supports("Add", i, std::span(i, 1)));
    QVERIFY(!d->supports("Sub", f, std::span(f, 1)));
    // Memory works: a round trip.
    const std::vector<float> host{1.5F, -2.0F, 3.25F};
    runtime::DeviceTensor t{ir::DType::Float32, ir::Shape{3}, d->allocate(12)};
    d->copyToDevice(*t.memory, host.data(), 12);
    std::vector<float> back(3);
    d->copyToHost(back.data(), *t.memory, 12);
    QCOMPARE(back, host);
    // Launches fail with the plugin's message, naming the device and its file.
    const runtime::DeviceTensor ins[] = {t, t};
    try {
        d->launch({"Add", ins, std::span(&t, 1), {}});
        QFAIL("the broken plugin launched");
    } catch (const runtime::DeviceError& e) {
        const QString msg = e.what();
        QVERIFY2(msg.contains("device 'broken'") && msg.contains("libirscope_broken_launch.so") &&
                     msg.contains("launch of 'Add'") &&
                     msg.contains("deliberately broken: the launch of 'Add' is refused"),
                 e.what());
    }
    // Memory of another device is refused, not misused.
    const PluginScan all = runtime::scanDevicePlugins();
    for (const DevicePtr& other : all.devices) {
        if (other != d) {
            const auto m = other->allocate(12);
            QVERIFY_THROWS_EXCEPTION(runtime::DeviceError,
                                     d->copyToDevice(*m, host.data(), 12));
        }
    }
}

void TestDevicePlugins::aPluginFoundTwiceLoadsOnce() {
    PluginPath env(kLaunchDir + ":" + kLaunchDir + "/libirscope_broken_launch.so:" + kLaunchDir +
                   "/../launch");
    const PluginScan s = runtime::scanDevicePlugins();
    QCOMPARE(std::count_if(s.devices.begin(), s.devices.end(),
                           [](const DevicePtr& d) { return d->info().name == "broken"; }),
             1);
    QVERIFY2(s.errors.empty(), qPrintable(joined(s.errors)));
    // Scans share the opened devices.
    const PluginScan again = runtime::scanDevicePlugins();
    QCOMPARE(again.devices.front().get(), s.devices.front().get());
}

void TestDevicePlugins::cliListsDevicesAndErrors() {
    const cli_test::CliRun r = cli_test::runCli(
        {"devices", "-v"}, {.env = {{"IRSCOPE_PLUGIN_PATH", kLaunchDir + ":" + kAbiFile}}});
    QVERIFY(r.finished);
    const QString out = r.outText();
    const QString err = r.errText();
    QCOMPARE(r.status, 0);
    QVERIFY2(out.contains("broken") && out.contains("libirscope_broken_launch.so"),
             qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression("ops: 2 of \\d+ registry ops")), qPrintable(out));
    QVERIFY2(out.contains("missing: ") && out.contains("Sub"), qPrintable(out));
    QVERIFY2(out.contains("cpu"), qPrintable(out));
    QVERIFY2((out + err).contains("incompatible ABI"), qPrintable(out + err));
#ifdef IRSCOPE_HAVE_OPENCL_PLUGIN
    QVERIFY2(out.contains("opencl") && out.contains("libirscope_opencl.so"), qPrintable(out));
#endif
}

QTEST_GUILESS_MAIN(TestDevicePlugins)
#include "test_device_plugins.moc"
