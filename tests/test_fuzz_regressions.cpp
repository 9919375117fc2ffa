// The fuzzers' kept inputs (tests/data/fuzz/<target>/: the crashes, hangs and sanitizer
// reports the fuzzers found, each fixed, and small corpus inputs that reached new code) fed
// to the same checks the libFuzzer targets run (tests/fuzz/fuzz_entries.cpp): each must be
// handled cleanly (accepted, or refused with a located error). Also: the script target's
// bounds hold (an endless loop ends at the fuzzing step limit, endless recursion in
// RecursionError), so a fuzzed script cannot hang the fuzzer.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_entries.h"

namespace fs = std::filesystem;
namespace fuzz = irscope::fuzz;

namespace {

std::vector<fs::path> inputsOf(const char* target) {
    std::vector<fs::path> files;
    const fs::path dir = fs::path(IRSCOPE_TEST_DATA) / "fuzz" / target;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file()) {
            files.push_back(e.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

template <class Check>
void runAll(const char* target, Check check) {
    const auto files = inputsOf(target);
    QVERIFY2(!files.empty(), target);
    for (const auto& f : files) {
        const std::string problem = check(readBytes(f));
        QVERIFY2(problem.empty(), (f.filename().string() + ": " + problem).c_str());
    }
}

}  // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void irInputs() {
        runAll("ir", [](const std::string& s) { return fuzz::checkIrText(s); });
    }

    void pyInputs() {
        runAll("py", [](const std::string& s) { return fuzz::checkPyScript(s); });
    }

    void sessionInputs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = (fs::path(dir.path().toStdString()) / "fuzz.irscope").string();
        runAll("session", [&](const std::string& s) { return fuzz::checkSessionFile(s, path); });
    }

    void mindirInputs() {
        runAll("mindir", [](const std::string& s) { return fuzz::checkMindir(s); });
    }

    // The script check bounds what a fuzzed script can do: an endless loop stops at the
    // fuzzing step limit (not the interpreter's default of 50 million steps), endless
    // recursion ends in RecursionError; both are clean results for the check.
    void fuzzedScriptsAreBounded() {
        using Status = irscope::interp::RunResult::Status;
        const auto loop = fuzz::runFuzzScript("while True:\n    pass\n");
        QCOMPARE(loop.status, Status::StepLimit);
        QVERIFY2(loop.error.find("more than " + std::to_string(fuzz::kScriptSteps) + " steps") !=
                     std::string::npos,
                 loop.error.c_str());
        const auto rec = fuzz::runFuzzScript("def f(n):\n    return f(n + 1)\nf(0)\n");
        QCOMPARE(rec.status, Status::Exception);
        QVERIFY2(rec.error.find("RecursionError") != std::string::npos, rec.error.c_str());
        QCOMPARE(QString::fromStdString(fuzz::checkPyScript("while True:\n    pass\n")), QString());
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "test_fuzz_regressions.moc"
