// The host interpreter as a user running a network script sees it: every golden script in
// tests/data/interp prints exactly what CPython 3.11 prints (and fails with the same
// traceback); scripts are stopped by the step budget, the recursion limit and Cancel; bad
// imports and syntax errors are reported like CPython; nothing crashes on hostile input.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <tuple>

#include "frontend/interp/interpreter.h"
#include "frontend/interp/native.h"
#include "test_files.h"

using namespace irscope::interp;

namespace {

using test_files::readFile;

struct Run {
    std::string out;
    std::string err;
    RunResult result;
};

Run runSource(const std::string& source, const std::string& name = "script.py",
              Limits limits = {}) {
    Run r;
    Interpreter I;
    I.limits() = limits;
    I.setOutputSink([&](std::string_view s) { r.out += s; });
    I.setErrorSink([&](std::string_view s) { r.err += s; });
    r.result = I.runScript(source, name);
    return r;
}

// The last line of a traceback.
std::string lastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && t.back() == '\n') {
        t.pop_back();
    }
    return t.substr(t.rfind('\n') + 1);
}

}  // namespace

class TestInterp : public QObject {
    Q_OBJECT

private slots:
    // --- golden scripts: CPython's output, byte for byte ----------------------------------

    void goldenScripts_data() {
        QTest::addColumn<QString>("name");
        const std::filesystem::path dir = std::filesystem::path(IRSCOPE_TEST_DATA) / "interp";
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.path().extension() == ".py") {
                names.push_back(e.path().stem().string());
            }
        }
        std::sort(names.begin(), names.end());
        QVERIFY(names.size() >= 20);
        for (const std::string& n : names) {
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
        }
    }

    void goldenScripts() {
        QFETCH(QString, name);
        const std::filesystem::path dir = std::filesystem::path(IRSCOPE_TEST_DATA) / "interp";
        const std::string n = name.toStdString();
        Run r = runSource(readFile(dir / (n + ".py")), n + ".py");
        QCOMPARE(QString::fromStdString(r.out),
                 QString::fromStdString(readFile(dir / (n + ".out"))));
        std::string expectedErr;
        if (std::filesystem::exists(dir / (n + ".err"))) {
            expectedErr = readFile(dir / (n + ".err"));
        }
        std::string actualErr = r.err;
        if (!expectedErr.empty()) {
            actualErr += "exit " + std::to_string(r.result.exitStatus) + "\n";
        } else {
            QCOMPARE(r.result.exitStatus, 0);
        }
        QCOMPARE(QString::fromStdString(actualErr), QString::fromStdString(expectedErr));
    }

    // --- the run's result -----------------------------------------------------------------

    void resultStatuses() {
        Run ok = runSource("print('hi')\n");
        QCOMPARE(ok.result.exitStatus, 0);
        QVERIFY(ok.result.status == RunResult::Status::Ok);
        QVERIFY(ok.result.error.empty());

        Run exc = runSource("x = 1\nraise ValueError('bad')\n", "net.py");
        QCOMPARE(exc.result.exitStatus, 1);
        QVERIFY(exc.result.status == RunResult::Status::Exception);
        QCOMPARE(QString::fromStdString(exc.result.error),
                 QString("Traceback (most recent call last):\n"
                         "  File \"net.py\", line 2, in <module>\n"
                         "    raise ValueError('bad')\n"
                         "ValueError: bad\n"));
        QCOMPARE(exc.err, exc.result.error);  // the error sink got the same text

        Run exit0 = runSource("raise SystemExit\n");
        QCOMPARE(exit0.result.exitStatus, 0);
        Run exit2 = runSource("raise SystemExit(2)\n");
        QCOMPARE(exit2.result.exitStatus, 2);
        QVERIFY(exit2.result.status == RunResult::Status::SystemExit);
    }

    void syntaxErrorIsLocated() {
        Run r = runSource("x = 1\nif x\n    pass\n", "net.py");
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY(r.result.status == RunResult::Status::SyntaxError);
        QCOMPARE(QString::fromStdString(r.result.error),
                 QString("net.py:2:5: SyntaxError: expected ':'\nif x\n    ^\n"));
        QVERIFY(r.out.empty());  // nothing ran
    }

    void printGoesToTheOutputSink() {
        Run r = runSource("print('a', 1, sep='-', end='|')\nprint()\nprint(*[1, 2])\n");
        QCOMPARE(QString::fromStdString(r.out), QString("a-1|\n1 2\n"));
        // Without a sink, output is dropped rather than written anywhere.
        Interpreter I;
        QCOMPARE(I.runScript("print('dropped')\n", "s.py").exitStatus, 0);
    }

    void mainNameAndFile() {
        Run r = runSource("if __name__ == '__main__':\n    print('main', __file__)\n", "net.py");
        QCOMPARE(QString::fromStdString(r.out), QString("main net.py\n"));
    }

    // --- imports ---------------------------------------------------------------------------

    void unregisteredImportsFail() {
        Run r = runSource("import os\n", "net.py");
        QCOMPARE(QString::fromStdString(r.result.error),
                 QString("Traceback (most recent call last):\n"
                         "  File \"net.py\", line 1, in <module>\n"
                         "    import os\n"
                         "ModuleNotFoundError: No module named 'os'\n"));
        QCOMPARE(QString::fromStdString(lastLine(runSource("import numpy as np\n").err)),
                 QString("ModuleNotFoundError: No module named 'numpy'"));
        QCOMPARE(QString::fromStdString(lastLine(runSource("from os import path\n").err)),
                 QString("ModuleNotFoundError: No module named 'os'"));
        QCOMPARE(QString::fromStdString(lastLine(runSource("from . import x\n").err)),
                 QString("ImportError: attempted relative import with no known parent package"));
        Run caught = runSource(
            "try:\n    import sys\nexcept ImportError as e:\n    print(type(e).__name__, "
            "e.name)\n");
        QCOMPARE(QString::fromStdString(caught.out), QString("ModuleNotFoundError sys\n"));
    }

    void noFileOrProcessAccess() {
        for (const char* name : {"open", "exec", "eval", "compile", "input", "__import__"}) {
            Run r = runSource(std::string(name) + "('x')\n");
            QCOMPARE(QString::fromStdString(lastLine(r.err)),
                     QString("NameError: name '%1' is not defined").arg(name));
        }
    }

    void registeredModules() {
        Interpreter I;
        std::string out;
        I.setOutputSink([&](std::string_view s) { out += s; });
        int inits = 0;
        I.registerModule("pkg", [&](Interpreter& J, ModuleObject& m) {
            ++inits;
            addToModule(J, m, "VERSION", Value(J.newStr("1.0")));
        });
        I.registerModule("pkg.sub", [](Interpreter& J, ModuleObject& m) {
            addFunction(J, m, "twice", [](Interpreter&, CallArgs& a) {
                return Value::integer(a.pos.at(0).intLike() * 2);
            });
        });
        RunResult r = I.runScript(
            "import pkg\nimport pkg.sub\nimport pkg.sub as s\nfrom pkg.sub import twice\nfrom pkg "
            "import sub, VERSION\n"
            "print(pkg.VERSION, pkg.sub.twice(2), s.twice(3), twice(4), sub is s, VERSION)\n"
            "from pkg import missing\n",
            "m.py");
        QCOMPARE(QString::fromStdString(out), QString("1.0 4 6 8 True 1.0\n"));
        QCOMPARE(inits, 1);
        QCOMPARE(
            QString::fromStdString(lastLine(r.error)),
            QString("ImportError: cannot import name 'missing' from 'pkg' (unknown location)"));
        // A module-level __getattr__ (PEP 562) serves names the dict lacks, for `from` too.
        I.registerModule("lazy", [](Interpreter& J, ModuleObject& m) {
            addFunction(J, m, "__getattr__", [](Interpreter& K, CallArgs& a) -> Value {
                const std::string& n = toStr(K, a.pos.at(0));
                if (n == "secret") {
                    return Value::integer(7);
                }
                throw PyError(Exc::AttributeError, "module 'lazy' has no attribute '" + n + "'");
            });
        });
        r = I.runScript(
            "import lazy\nfrom lazy import secret\nprint(lazy.secret, secret)\nfrom lazy import "
            "other\n",
            "l.py");
        QVERIFY(out.find("7 7\n") != std::string::npos);
        QCOMPARE(QString::fromStdString(lastLine(r.error)),
                 QString("ImportError: cannot import name 'other' from 'lazy' (unknown location)"));
        // A module whose init raises is not cached half-made.
        I.registerModule("broken", [](Interpreter&, ModuleObject&) {
            throw PyError(Exc::RuntimeError, "init failed");
        });
        r = I.runScript("import broken\n", "b.py");
        QCOMPARE(QString::fromStdString(lastLine(r.error)), QString("RuntimeError: init failed"));
        r = I.runScript("import pkg.sub as q\nprint(q.twice(21))\n", "c.py");
        QVERIFY2(r.exitStatus == 0, r.error.c_str());
        QVERIFY(out.find("42\n") != std::string::npos);
    }

    // --- limits and cancellation ----------------------------------------------------------

    void infiniteLoopHitsTheStepLimit() {
        Limits lim;
        lim.maxSteps = 200000;
        Run r = runSource("x = 0\nwhile True:\n    pass\n", "loop.py", lim);
        QCOMPARE(r.result.exitStatus, 1);
        QVERIFY(r.result.status == RunResult::Status::StepLimit);
        QVERIFY2(r.result.error.find("step limit exceeded") != std::string::npos,
                 r.result.error.c_str());
        QVERIFY(r.result.error.find("200000") != std::string::npos);
        QVERIFY(r.result.error.find("--max-steps") != std::string::npos);
        QVERIFY(r.result.error.find("File \"loop.py\", line ") != std::string::npos);
        // `except BaseException` cannot swallow it, `finally` does not run.
        r = runSource(
            "try:\n    while True:\n        pass\nexcept BaseException:\n    print('caught')\n"
            "finally:\n    print('finally')\n",
            "s.py", lim);
        QVERIFY(r.result.status == RunResult::Status::StepLimit);
        QVERIFY(r.out.empty());
    }

    void runawayBuiltinsAreBounded() {
        Limits lim;
        lim.maxSteps = 100000;
        for (const char* src : {"sum(range(10**12))\n", "x = list(range(10**12))\n",
                                "any(x < 0 for x in range(10**12))\n", "sorted(range(10**12))\n",
                                "s = set(range(10**12))\n",
                                "-1 in range(10**12)[::-1] or 5 in iter(range(-10**12, 0))\n"}) {
            Run r = runSource(src, "s.py", lim);
            QVERIFY2(r.result.status == RunResult::Status::StepLimit, src);
        }
        Run r = runSource("x = [0] * 10**9\n");
        QCOMPARE(
            QString::fromStdString(lastLine(r.err)),
            QString(
                "MemoryError: irscope: a list or tuple of more than 2**25 items is not supported"));
        r = runSource("s = 'ab' * 10**9\n");
        QVERIFY(lastLine(r.err).rfind("MemoryError", 0) == 0);
    }

    void defaultStepBudgetIsFiftyMillion() {
        Interpreter I;
        QCOMPARE(I.limits().maxSteps, std::uint64_t{50'000'000});
        QCOMPARE(I.limits().maxRecursion, 1000);
    }

    void infiniteRecursionIsRecursionError() {
        Run r = runSource("def f(n):\n    return f(n + 1)\nf(0)\n", "rec.py");
        QCOMPARE(QString::fromStdString(lastLine(r.err)),
                 QString("RecursionError: maximum recursion depth exceeded"));
        QVERIFY(r.err.find("[Previous line repeated 996 more times]") != std::string::npos);
        // Mutual recursion through methods, __repr__ and a lower limit.
        Limits lim;
        lim.maxRecursion = 50;
        r = runSource("class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())\n",
                      "r.py", lim);
        QCOMPARE(QString::fromStdString(lastLine(r.err)),
                 QString("RecursionError: maximum recursion depth exceeded"));
        // Recursion is catchable and the interpreter keeps working afterwards.
        r = runSource(
            "def f():\n    f()\ntry:\n    f()\nexcept RecursionError as e:\n    print('caught', "
            "e)\n"
            "print(sum(range(10)))\n");
        QCOMPARE(QString::fromStdString(r.out),
                 QString("caught maximum recursion depth exceeded\n45\n"));
    }

    void deepDataDoesNotCrash() {
        // Deeply nested data: repr hits the C++ stack guard (RecursionError), freeing is iterative.
        Run r = runSource(
            "x = []\nfor i in range(300000):\n    x = [x]\ntry:\n    print(len(repr(x)))\n"
            "except RecursionError:\n    print('too deep')\nprint('done')\n");
        QCOMPARE(QString::fromStdString(r.out), QString("too deep\ndone\n"));
        // A deep expression the parser allows.
        std::string expr = "1";
        for (int i = 0; i < 180; ++i) {
            expr = "(" + expr + " + 1)";
        }
        r = runSource("print(" + expr + ")\n");
        QCOMPARE(QString::fromStdString(r.out), QString("181\n"));
    }

    void deepRecursionOnTheCallingThread() {
        // Without the big-stack thread the guard still turns exhaustion into RecursionError.
        Limits lim;
        lim.stackBytes = 0;
        lim.maxRecursion = 100000;
        std::atomic<bool> done{false};
        Run r;
        std::thread t([&] {
            r = runSource("def f(n):\n    return f(n + 1) + 1\nf(0)\n", "deep.py", lim);
            done = true;
        });
        t.join();
        QVERIFY(done);
        QCOMPARE(QString::fromStdString(lastLine(r.err)),
                 QString("RecursionError: maximum recursion depth exceeded"));
    }

    void cancelFromAnotherThread() {
        Interpreter I;
        std::string out;
        I.setOutputSink([&](std::string_view s) { out += s; });
        RunResult r;
        std::stop_source stop;
        I.setStopToken(stop.get_token());
        std::thread worker(
            [&] { r = I.runScript("print('started')\nwhile True:\n    x = 1\n", "spin.py"); });
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (I.stepsTaken() < 1000 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        stop.request_stop();
        worker.join();
        QVERIFY(r.status == RunResult::Status::Cancelled);
        QCOMPARE(r.exitStatus, 1);
        QVERIFY(r.error.find("cancelled") != std::string::npos);
        // The next run starts afresh with the token it is given.
        I.setStopToken({});
        r = I.runScript("print('again')\n", "again.py");
        QCOMPARE(r.exitStatus, 0);
        QVERIFY(out.find("again\n") != std::string::npos);
    }

    // A cancel that arrives before the worker thread starts the run is not lost.
    void cancelBeforeTheRunStarts() {
        Interpreter I;
        std::string out;
        I.setOutputSink([&](std::string_view s) { out += s; });
        I.limits().maxSteps = 100000;  // without the cancel: a step-limit error, not a hang
        std::stop_source stop;
        stop.request_stop();
        I.setStopToken(stop.get_token());
        RunResult r = I.runScript("print('started')\nwhile True:\n    x = 1\n", "spin.py");
        QVERIFY(r.status == RunResult::Status::Cancelled);
        QVERIFY(out.find("started") == std::string::npos);
        I.setStopToken({});
        r = I.runScript("print('again')\n", "again.py");
        QCOMPARE(r.exitStatus, 0);
    }

    // --- numbers -----------------------------------------------------------------------------

    void intOverflowIsOverflowError() {
        Run r = runSource("x = 2 ** 63\n");
        QCOMPARE(QString::fromStdString(lastLine(r.err)),
                 QString("OverflowError: integer out of range: irscope integers are 64-bit"));
        r = runSource("x = 99999999999999999999\n");
        QVERIFY(lastLine(r.err).rfind(
                    "OverflowError: int literal 99999999999999999999 does not fit", 0) == 0);
        r = runSource(
            "print(9223372036854775807, -9223372036854775807 - 1, 2 ** 62 + (2 ** 62 - 1))\n");
        QCOMPARE(QString::fromStdString(r.out),
                 QString("9223372036854775807 -9223372036854775808 9223372036854775807\n"));
    }

    // --- the interpreter between runs -------------------------------------------------------

    void hostCallsScriptFunctions() {
        Interpreter I;
        std::string out;
        I.setOutputSink([&](std::string_view s) { out += s; });
        QCOMPARE(I.runScript("def scale(x, k=2):\n    print('scale', x)\n    return x * k\nclass "
                             "P:\n    w = 3\n",
                             "lib.py")
                     .exitStatus,
                 0);
        ModuleObject* m = I.mainModule();
        QVERIFY(m);
        Value scale = m->dict()->getStr("scale");
        QVERIFY(scale.is<FunctionObject>());
        Value r = I.call(scale, CallArgs({Value::integer(5)}, {KwArg{"k", Value::integer(10)}}));
        QCOMPARE(r.asInt(), std::int64_t{50});
        QCOMPARE(QString::fromStdString(out), QString("scale 5\n"));
        QCOMPARE(I.getAttr(m->dict()->getStr("P"), "w").asInt(), std::int64_t{3});
        try {
            I.call(scale, {});
            QFAIL("expected a TypeError");
        } catch (PyError& e) {
            QCOMPARE(QString::fromStdString(I.formatExceptionOnly(I.exceptionOf(e))),
                     QString("TypeError: scale() missing 1 required positional argument: 'x'"));
        }
    }

    // --- irscope-cli run ----------------------------------------------------------------------

    void cliRun() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto cli = [&](const QString& script, const QStringList& extra = {}) {
            const QString path = dir.filePath("net.py");
            QFile f(path);
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write(script.toUtf8());
            f.close();
            QProcess p;
            p.setWorkingDirectory(dir.path());
            p.start(QStringLiteral(IRSCOPE_CLI), QStringList{"run", "net.py"} + extra);
            p.waitForFinished(60000);
            return std::make_tuple(p.exitCode(), QString(p.readAllStandardOutput()),
                                   QString(p.readAllStandardError()));
        };
        auto [code, out, err] = cli("print('ok', 1 + 1)\n");
        QCOMPARE(code, 0);
        QCOMPARE(out, QString("ok 2\n"));
        QVERIFY(err.isEmpty());
        std::tie(code, out, err) = cli("print('a')\n{}['k']\n");
        QCOMPARE(code, 1);
        QCOMPARE(out, QString("a\n"));
        QCOMPARE(
            err,
            QString("Traceback (most recent call last):\n  File \"net.py\", line 2, in <module>\n"
                    "    {}['k']\nKeyError: 'k'\n"));
        std::tie(code, out, err) = cli("x = (1,\n");
        QCOMPARE(code, 1);
        QCOMPARE(err, QString("net.py:1:5: SyntaxError: '(' was never closed\nx = (1,\n    ^\n"));
        std::tie(code, out, err) = cli("while True:\n    pass\n", {"--max-steps", "5000"});
        QCOMPARE(code, 1);
        QVERIFY2(err.contains("step limit exceeded") && err.contains("5000"), qPrintable(err));
    }

    void manyRunsOnOneInterpreter() {
        Interpreter I;
        std::string out;
        I.setOutputSink([&](std::string_view s) { out += s; });
        for (int i = 0; i < 20; ++i) {
            QCOMPARE(
                I.runScript("class A:\n    def f(self):\n        return self\na = A()\na.me = a\n"
                            "print(len([a.f() for _ in range(3)]))\n",
                            "r.py")
                    .exitStatus,
                0);
        }
        QCOMPARE(out.size(), std::size_t{40});
    }
};

QTEST_APPLESS_MAIN(TestInterp)
#include "test_interp.moc"
