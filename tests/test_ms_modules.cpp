// The built-in mindspore / numpy / time modules: every tests/data/ms/NAME.py script is run
// with registerBuiltinModules and its output (stdout, then the traceback of an uncaught
// exception) must equal NAME.out exactly. Plus the GraphCompiler hook, the shared context,
// Parameter storage and the CLI's `run` path.
#include <QProcess>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "frontend/interp/interpreter.h"
#include "frontend/interp/native.h"
#include "frontend/modules/modules.h"
#include "test_files.h"

using namespace irscope;
using namespace irscope::interp;

namespace {

using test_files::readFile;

struct Run {
    std::string out;
    RunResult result;
};

Run runScript(const std::string& source, const std::string& name,
              const std::function<void(Interpreter&, modules::MsContext&)>& setup = {}) {
    Interpreter I;
    Run r;
    I.setOutputSink([&](std::string_view s) { r.out += s; });
    auto ctx = modules::registerBuiltinModules(I);
    if (setup) {
        setup(I, *ctx);
    }
    r.result = I.runScript(source, name);
    r.out += r.result.error;
    return r;
}

// A stand-in compiler: records the call and runs the target eagerly.
class FakeCompiler : public modules::GraphCompiler {
public:
    int calls = 0;
    std::string lastTarget;
    Value call(Interpreter& I, const Value& target, CallArgs& args) override {
        ++calls;
        lastTarget = I.typeName(target);
        if (I.typeOf(target)->lookup("construct").isNull()) {
            return I.call(target, args);
        }
        return I.callMethod(target, "construct", args);
    }
};

}  // namespace

class TestMsModules : public QObject {
    Q_OBJECT

private slots:
    void scripts_data() {
        QTest::addColumn<QString>("script");
        const std::filesystem::path dir = std::filesystem::path(IRSCOPE_TEST_DATA) / "ms";
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.path().extension() == ".py") {
                names.push_back(e.path().stem().string());
            }
        }
        std::sort(names.begin(), names.end());
        QVERIFY(names.size() >= 6);
        for (const auto& n : names) {
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
        }
    }

    void scripts() {
        QFETCH(QString, script);
        const std::filesystem::path dir = std::filesystem::path(IRSCOPE_TEST_DATA) / "ms";
        const std::string name = script.toStdString();
        Run r = runScript(readFile(dir / (name + ".py")), name + ".py");
        const std::string expected = readFile(dir / (name + ".out"));
        if (r.out != expected) {
            std::ofstream(std::filesystem::temp_directory_path() / (name + ".actual")) << r.out;
        }
        QCOMPARE(QString::fromStdString(r.out), QString::fromStdString(expected));
    }

    void graphCompilerHook() {
        const char* src = R"(import mindspore as ms
from mindspore import nn, Tensor
ms.set_context(mode=ms.GRAPH_MODE, save_graphs=True, enable_compile_cache=True, compile_cache_path="cache")
class Net(nn.Cell):
    def construct(self, x):
        return x + 1
@ms.jit
def f(x):
    return x * 2
print(Net()(Tensor(1)), f(Tensor(3)))
)";
        auto fake = std::make_shared<FakeCompiler>();
        std::shared_ptr<modules::MsContext> seen;
        Run r = runScript(src, "hook.py", [&](Interpreter& I, modules::MsContext& ctx) {
            ctx.compiler = fake;
            seen = modules::msContext(I);
        });
        QCOMPARE(QString::fromStdString(r.out), QString("2 6\n"));
        QCOMPARE(fake->calls, 2);
        QCOMPARE(QString::fromStdString(fake->lastTarget), QString("function"));
        QVERIFY(seen);
        QCOMPARE(seen->mode, modules::MsContext::kGraphMode);
        QVERIFY(std::get<bool>(seen->settings.at("save_graphs")));
        QCOMPARE(QString::fromStdString(std::get<std::string>(seen->settings.at("compile_cache_path"))), QString("cache"));
    }

    void bareInterpreterHasNoModules() {
        Interpreter I;
        RunResult r = I.runScript("import numpy\n", "bare.py");
        QCOMPARE(r.exitStatus, 1);
    }

    void cliRunImportsModules() {
        QProcess p;
        const QString script = QString(IRSCOPE_TEST_DATA) + "/ms/depend.py";
        p.start(IRSCOPE_CLI, {"run", script});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString(p.readAllStandardOutput()).startsWith("[[10. 10. 10.]\n [10. 10. 10.]]\n"));
    }

    void sleepIsBounded() {
        Interpreter I;
        auto ctx = modules::registerBuiltinModules(I);
        ctx->sleepCapSeconds = 0.05;
        QElapsedTimer t;
        t.start();
        RunResult r = I.runScript("import time\ntime.sleep(100)\nprint('ok')\n", "s.py");
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(t.elapsed() < 5000);
    }

    void sleepIsCancellable() {
        Interpreter I;
        modules::registerBuiltinModules(I);
        QElapsedTimer t;
        t.start();
        std::stop_source stop;
        I.setStopToken(stop.get_token());
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            stop.request_stop();
        });
        RunResult r = I.runScript("import time\ntime.sleep(5)\nprint('not reached')\n", "c.py");
        canceller.join();
        QCOMPARE(r.status, RunResult::Status::Cancelled);
        QVERIFY(t.elapsed() < 3000);
    }
};

QTEST_GUILESS_MAIN(TestMsModules)
#include "test_ms_modules.moc"
