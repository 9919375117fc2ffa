// irscope-cli and session files: `run SCRIPT --session FILE` saves the run (also a failed,
// stopped or interrupted one, and says so); `session FILE` lists it and prints its IR,
// statistics, output and script; foreign, damaged and newer files are refused with a clear
// error and left as they were.
#include <QtTest>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>

#include "cli_runner.h"
#include "irscope_version.h"
#include "store/session_file.h"

using cli_test::runCli;
namespace store = irscope::store;

namespace {

QString example(const char* name) {
    return QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/") + QLatin1String(name);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestCliSession : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString file(const char* name) const { return dir_.filePath(QLatin1String(name)); }

private slots:
    void runSavesAndSessionLists() {
        const QString f = file("grad.irscope");
        const auto run = runCli({"run", example("load_elim_fwd_bwd.py"), "--session", f});
        QVERIFY2(run.finished && run.status == 0, run.err.constData());
        const store::LoadedSession saved = store::loadSession(f.toStdString());
        const auto& s = *saved.session;
        QVERIFY(!s.compiles.empty());
        QVERIFY(!s.runs.empty());
        QCOMPARE(run.errText(),
                 QString("irscope-cli: session saved to %1 (%2 compile%3, %4 graph run%5)\n")
                     .arg(f)
                     .arg(s.compiles.size())
                     .arg(s.compiles.size() == 1 ? "" : "s")
                     .arg(s.runs.size())
                     .arg(s.runs.size() == 1 ? "" : "s"));
        // What the script printed is kept as printed.
        QCOMPARE(QString::fromStdString(s.output), run.outText());
        QCOMPARE(saved.info.runStatus, std::string("ok"));

        const auto list = runCli({"session", f});
        QVERIFY2(list.finished && list.status == 0, list.err.constData());
        const QString text = list.outText();
        QVERIFY(text.startsWith("irscope session: " + f + "\n"));
        QVERIFY(text.contains("  script:   " + example("load_elim_fwd_bwd.py")));
        QVERIFY(text.contains(QString("by irscope %1 (schema %2)")
                                  .arg(IRSCOPE_VERSION)
                                  .arg(store::sessionSchema().version())));
        QVERIFY(text.contains("  ended:    ok\n"));
        QVERIFY(text.contains(QString("\nCompiles (%1)\n").arg(s.compiles.size())));
        QVERIFY(text.contains(QString("\nRuns (%1)\n").arg(s.runs.size())));
        for (const auto& c : s.compiles) {
            QVERIFY(text.contains("@" + QString::fromStdString(c.graphName)));
        }
        QVERIFY(text.contains(QString::fromStdString(s.runs.front().outputs)));

        // One pass's IR, byte for byte as saved.
        const auto dump = runCli({"session", f, "--compile", "1", "--dump-pass", "type_inference"});
        QVERIFY2(dump.finished && dump.status == 0, dump.err.constData());
        QCOMPARE(dump.out, QByteArray::fromStdString(s.compiles[0].find("type_inference")->text()));
        const auto bad = runCli({"session", f, "--dump-pass", "no_such_pass"});
        QCOMPARE(bad.status, 1);
        QVERIFY2(bad.errText().contains("has no pass 'no_such_pass' (passes: parse"),
                 bad.err.constData());
        const auto far = runCli({"session", f, "--compile", "99", "--dump-pass", "parse"});
        QCOMPARE(far.status, 1);
        QVERIFY2(far.errText().contains("no compile 99"), far.err.constData());

        // Statistics, output and script as saved.
        const auto stats = runCli({"session", f, "--pass-stats", "--run-stats"});
        QCOMPARE(stats.status, 0);
        QVERIFY(stats.outText().contains("Pass statistics, compile 1: @"));
        QVERIFY(stats.outText().contains("run 1: @"));
        QCOMPARE(runCli({"session", f, "--output"}).out, run.out);
        QCOMPARE(runCli({"session", f, "--script"}).out, readAll(example("load_elim_fwd_bwd.py")));
        // Listing never changes the file.
        const QByteArray before = readAll(f);
        QCOMPARE(runCli({"session", f}).status, 0);
        QCOMPARE(readAll(f), before);
    }

    void failedRunIsSavedAndSaysSo() {
        const QString f = file("failed.irscope");
        const auto run = runCli({"run", example("jit_class_no_call.py"), "--session", f});
        QCOMPARE(run.status, 1);
        QVERIFY2(run.errText().contains(
                     "irscope-cli: the script ended early (error); session saved to " + f +
                     " with what ran before it stopped"),
                 run.err.constData());
        const auto list = runCli({"session", f});
        QCOMPARE(list.status, 0);
        QVERIFY2(list.outText().contains("  ended:    error: ValueError"), list.out.constData());

        const QString g = file("steps.irscope");
        const QString loop = file("loop.py");
        QVERIFY(writeFile(loop, "print('start')\nn = 0\nwhile True:\n    n += 1\n"));
        const auto stopped = runCli({"run", loop, "--max-steps", "1000", "--session", g});
        QCOMPARE(stopped.status, 1);
        QVERIFY(stopped.errText().contains("ended early (step limit); session saved to " + g));
        const store::LoadedSession steps = store::loadSession(g.toStdString());
        QCOMPARE(steps.info.runStatus, std::string("step limit"));
        QCOMPARE(steps.session->output.substr(0, 6), std::string("start\n"));
    }

    void interruptedRunIsSaved() {
        // A script that compiles a graph and prints its result, then compiles it again for
        // another signature (the second compile's save_graphs files show the print is done),
        // then loops.
        const QString script = file("forever.py");
        QVERIFY(writeFile(script,
                          "import mindspore as ms\n"
                          "from mindspore import nn, Tensor\n"
                          "ms.set_context(mode=ms.GRAPH_MODE)\n"
                          "class Net(nn.Cell):\n"
                          "    def construct(self, x):\n"
                          "        return x + 1\n"
                          "print(Net()(Tensor(1)))\n"
                          "Net()(Tensor(1.5))\n"
                          "n = 0\n"
                          "while True:\n"
                          "    n += 1\n"));
        const QString f = file("interrupted.irscope");
        const QString dumps = file("dumps");
        QProcess p;
        p.start(QStringLiteral(IRSCOPE_CLI),
                {"run", script, "--max-steps", "0", "--save-graphs", dumps, "--session", f});
        QVERIFY(p.waitForStarted());
        QVERIFY(
            QTest::qWaitFor([&] { return QDir(dumps).entryList({"00_parse_*"}, QDir::Files).size() >= 2; },
                            60000));
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY(p.exitCode() != 0);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("ended early (cancelled); session saved to " + f), qPrintable(err));
        const store::LoadedSession s = store::loadSession(f.toStdString());
        QCOMPARE(s.info.runStatus, std::string("cancelled"));
        QVERIFY(!s.session->compiles.empty());
        QVERIFY2(s.session->output.find('2') != std::string::npos, s.session->output.c_str());
    }

    void otherFilesAreRefused() {
        const QString png = file("picture.png");
        QVERIFY(writeFile(png, QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(500, 'p')));
        const auto run = runCli({"run", example("jit_class_attr.py"), "--session", png});
        QCOMPARE(run.status, 1);
        QVERIFY2(run.errText().contains("irscope-cli: error: " + png +
                                        ": not an irscope session file (not an SQLite database)"),
                 run.err.constData());
        QCOMPARE(readAll(png), QByteArray("\x89PNG\r\n\x1a\n", 8) + QByteArray(500, 'p'));

        const auto list = runCli({"session", png});
        QCOMPARE(list.status, 1);
        QCOMPARE(list.errText(), "irscope-cli: error: " + png +
                                     ": not an irscope session file (not an SQLite database)\n");
        const auto missing = runCli({"session", file("missing.irscope")});
        QCOMPARE(missing.status, 1);
        QVERIFY(missing.errText().contains("missing.irscope: no such file"));
        QVERIFY(!QFile::exists(file("missing.irscope")));

        const QString good = file("good.irscope");
        QCOMPARE(runCli({"run", example("jit_class_attr.py"), "--session", good}).status, 0);
        const QByteArray bytes = readAll(good);
        const QString cut = file("cut.irscope");
        QVERIFY(writeFile(cut, bytes.left(bytes.size() / 2)));
        const auto truncated = runCli({"session", cut});
        QCOMPARE(truncated.status, 1);
        QVERIFY2(truncated.errText().contains(cut + ": file is truncated"),
                 truncated.err.constData());
        QCOMPARE(readAll(cut), bytes.left(bytes.size() / 2));
    }
};

QTEST_GUILESS_MAIN(TestCliSession)
#include "test_cli_session.moc"
