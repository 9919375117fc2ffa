// irscope-cli diverge, bisect and run --opt-bisect-limit as a user runs them: the first
// divergent kernel of the seed's load-elimination network at LOAD_ELIM 1 vs 3 (AddN, the
// stale Loads explained) and none at 1 vs 2; LLVM-style BISECT lines under a limit (the
// program's result kept); bisect with the built-in check and with a --check command; every
// exit status (0 nothing differs, 1 found, 2 usage, 3 bisect's check failing without passes);
// at LOAD_ELIM=3 bisect blames arithmetic_simplify for the wrong gradient (it folds the bprop's
// Mul(1, Load), the copy that kept the gradient right).
#include <QtTest>

#include <QTemporaryDir>

#include "cli_runner.h"

using cli_test::runCli;

namespace {

const QString kLoadElim =
    QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");
const QString kSelect = QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/if_vs_select.py");

}  // namespace

class TestCliDiverge : public QObject {
    Q_OBJECT

private slots:
    void divergeFindsTheAddNAtLoadElim3() {
        const auto r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                               QStringLiteral("load-elim=1"), QStringLiteral("--b"),
                               QStringLiteral("load-elim=3")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 1);
        const QString out = r.outText();
        QVERIFY2(out.contains(QStringLiteral("first divergent kernel: AddN at ")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("out = x * self.weight + out")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("why: On load-elim=3, AddN")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("(read later as ")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("b (load-elim=3): the script failed: AssertionError")),
                 qPrintable(out));
        QVERIFY2(r.errText().isEmpty(), qPrintable(r.errText()));
    }

    void divergeFindsNothingAtLoadElim1Against2() {
        const auto r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                               QStringLiteral("load-elim=1"), QStringLiteral("--b"),
                               QStringLiteral("load-elim=2")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 0);
        QVERIFY2(r.outText().contains(QStringLiteral("no difference")), qPrintable(r.outText()));
    }

    void divergePynativeAgainstGraphByLine() {
        const QString print =
            QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/graph_mode_print.py");
        auto r = runCli({QStringLiteral("diverge"), print, QStringLiteral("--a"),
                         QStringLiteral("mode=pynative"), QStringLiteral("--b"),
                         QStringLiteral("mode=graph")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 0);
        QString out = r.outText();
        QVERIFY2(out.contains(QStringLiteral("compared by source line")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("printed differently:")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("line 26  print('matmul: ', out)")), qPrintable(out));
        r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                    QStringLiteral("mode=pynative"), QStringLiteral("--b"),
                    QStringLiteral("mode=graph,load-elim=3")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 1);
        out = r.outText();
        QVERIFY2(out.contains(QStringLiteral("first divergent line: ")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral(":30  out = x * self.weight + out (in the gradient)")),
                 qPrintable(out));
    }

    void divergeUsageErrors() {
        // A bad setting, a missing side, an unknown device, a missing or unparsable script.
        auto r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                         QStringLiteral("load-elim=7"), QStringLiteral("--b"),
                         QStringLiteral("load-elim=3")});
        QCOMPARE(r.status, 2);
        QVERIFY2(
            r.errText().contains(QStringLiteral("--a: load-elim: '7' is not a level from 0 to 3")),
            qPrintable(r.errText()));
        r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                    QStringLiteral("load-elim=1")});
        QCOMPARE(r.status, 2);
        r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                    QStringLiteral("device=cpu"), QStringLiteral("--b"),
                    QStringLiteral("device=nosuchdevice")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.errText().contains(QStringLiteral("nosuchdevice")), qPrintable(r.errText()));
        r = runCli({QStringLiteral("diverge"), QStringLiteral("/nonexistent/net.py"),
                    QStringLiteral("--a"), QStringLiteral("load-elim=1"), QStringLiteral("--b"),
                    QStringLiteral("load-elim=3")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.errText().contains(QStringLiteral("cannot open /nonexistent/net.py")),
                 qPrintable(r.errText()));
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.py"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x = (1,\n");
        f.close();
        r = runCli({QStringLiteral("diverge"), bad, QStringLiteral("--a"),
                    QStringLiteral("load-elim=1"), QStringLiteral("--b"),
                    QStringLiteral("load-elim=3")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.errText().contains(QStringLiteral("bad.py:")), qPrintable(r.errText()));
        r = runCli({QStringLiteral("diverge"), kLoadElim, QStringLiteral("--a"),
                    QStringLiteral("load-elim=1"), QStringLiteral("--b"),
                    QStringLiteral("load-elim=3"), QStringLiteral("--rtol"), QStringLiteral("-1")});
        QCOMPARE(r.status, 2);
    }

    void runWithAnOptBisectLimitPrintsLlvmStyleDecisions() {
        const auto r = runCli({QStringLiteral("run"), kLoadElim,
                               QStringLiteral("--opt-bisect-limit"), QStringLiteral("3")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 0);  // the program's result holds with passes skipped
        QVERIFY2(r.outText().contains(QStringLiteral("value= 3)")), qPrintable(r.outText()));
        const QString err = r.errText();
        QVERIFY2(err.contains(QStringLiteral(
                     "BISECT: running pass (1) opt_a/switch_simplify on @BackwardNet_construct\n")),
                 qPrintable(err));
        QVERIFY2(err.contains(
                     QStringLiteral("BISECT: running pass (3) opt_a/updatestate_eliminate on @")),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("BISECT: NOT running pass (4) ")), qPrintable(err));
        QVERIFY(!err.contains(QStringLiteral("BISECT: running pass (4) ")));
        const auto bad = runCli({QStringLiteral("run"), kLoadElim,
                                 QStringLiteral("--opt-bisect-limit"), QStringLiteral("-2")});
        QCOMPARE(bad.status, 2);
    }

    void bisectWithTheBuiltInCheckFindsNoPassOnTheExamples() {
        const auto r = runCli({QStringLiteral("bisect"), kSelect});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 0);
        QVERIFY2(r.outText().contains(QStringLiteral("no pass changes the result")),
                 qPrintable(r.outText()));
        QVERIFY2(r.outText().contains(QStringLiteral("BISECT: no skippable pass ran: good")),
                 qPrintable(r.outText()));
    }

    void bisectWithACheckCommand() {
        // A check that calls a run bad from the 5th skippable pass on: pass (5) is found,
        // with the IR before and after it.
        const auto r =
            runCli({QStringLiteral("bisect"), kLoadElim, QStringLiteral("--check"),
                    QStringLiteral(
                        "cat >/dev/null; test \"$IRSCOPE_OPT_BISECT_LIMIT\" -ge 0 -a "
                        "\"$IRSCOPE_OPT_BISECT_LIMIT\" -lt 5 -a \"$IRSCOPE_SCRIPT_STATUS\" = 0")});
        QVERIFY(r.finished);
        QCOMPARE(r.status, 1);
        const QString out = r.outText();
        QVERIFY2(out.contains(QStringLiteral(
                     "irscope: the first pass that changes the result: pass (5) opt_a/")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("IR before (-) and after (+) it:")), qPrintable(out));
        // The check's input is the run's output: grep for the right gradient. At LOAD_ELIM=3
        // the gradient is right while the bprop's Mul(1, Load) copies each Load's value when
        // it runs; arithmetic_simplify folds it to the Load itself, which AddN then reads after
        // the last Assign: bisect blames that pass.
        const auto g = runCli({QStringLiteral("bisect"), kLoadElim, QStringLiteral("--load-elim"),
                               QStringLiteral("3"), QStringLiteral("--check"),
                               QStringLiteral("grep -q 'value= 3)'")});
        QCOMPARE(g.status, 1);
        QVERIFY2(g.outText().contains(
                     QStringLiteral("the first pass that changes the result: pass (4) "
                                    "opt_a/arithmetic_simplify on @BackwardNet_construct")),
                 qPrintable(g.outText()));
        QVERIFY2(g.outText().contains(
                     QStringLiteral("-   %11 = Mul(Tensor(shape=[], dtype=Int32, value=1), %10)")),
                 qPrintable(g.outText()));
        // A check that fails with every pass off: not a pass's doing.
        const auto n = runCli({QStringLiteral("bisect"), kLoadElim, QStringLiteral("--check"),
                               QStringLiteral("grep -q 'value= 7)'")});
        QCOMPARE(n.status, 3);
        QVERIFY2(n.outText().contains(QStringLiteral("fails even with every skippable pass off")),
                 qPrintable(n.outText()));
        // A command that does not read its input does not kill irscope.
        const auto q = runCli({QStringLiteral("bisect"), kLoadElim, QStringLiteral("--check"),
                               QStringLiteral("true")});
        QCOMPARE(q.status, 0);
    }

    void bisectUsageErrors() {
        auto r = runCli({QStringLiteral("bisect"), QStringLiteral("/nonexistent.py")});
        QCOMPARE(r.status, 2);
        r = runCli({QStringLiteral("bisect")});
        QCOMPARE(r.status, 2);
        r = runCli({QStringLiteral("bisect"), kLoadElim, QStringLiteral("--device"),
                    QStringLiteral("nosuch")});
        QCOMPARE(r.status, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliDiverge)
#include "test_cli_diverge.moc"
