// irscope-cli debug SCRIPT.py driven through standard input, as a user at a terminal would
// (commands are echoed after the prompt when stdin is not a terminal, so the transcript
// reads like a session). The scripts are tests/data/debug/*.py, run from that folder so the
// transcript's paths are stable.
#include <QtTest/QtTest>

#include "cli_runner.h"

namespace {

struct Session {
    QString text;  // stdout and stderr as they interleave
    int exitCode = -1;
};

// `script` is relative to tests/data/debug, or to the source tree when it starts with
// "resources/". `loadElim`: MS_DEV_SIDE_EFFECT_LOAD_ELIM ("" leaves it unset); `options`
// follow the script on the command line.
Session debugScript(const QString& script, const QString& commands, bool cellReuse,
                    const QString& loadElim, const QStringList& options = {}) {
    cli_test::CliOptions o;
    o.workingDirectory = script.startsWith("resources/")
                             ? QStringLiteral(IRSCOPE_SOURCE_DIR)
                             : QStringLiteral(IRSCOPE_TEST_DATA) + "/debug";
    if (!loadElim.isEmpty()) {
        o.env.insert(QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM"), loadElim);
    }
    if (cellReuse) {
        o.env.insert(QStringLiteral("MS_DEV_CELL_REUSE"), QStringLiteral("1"));
    }
    o.input = commands.toUtf8();
    o.mergeChannels = true;
    const cli_test::CliRun r =
        cli_test::runCli(QStringList{QStringLiteral("debug"), script} + options, o);
    if (!r.finished) {
        return {r.outText() + "\n<timed out>", -1};
    }
    return {r.outText(), r.status};
}

QString golden(const QString& name) {
    QFile f(QStringLiteral(IRSCOPE_TEST_DATA) + "/debug/" + name + ".transcript");
    if (!f.open(QIODevice::ReadOnly)) {
        return QStringLiteral("<missing golden file %1>").arg(f.fileName());
    }
    return QString::fromUtf8(f.readAll());
}

}  // namespace

class TestCliDebug : public QObject {
    Q_OBJECT

private slots:
    // Each row is a scripted session whose whole transcript (prompts, echoed commands, the
    // script's prints, stops, values and error messages in the order a user sees them) must
    // equal tests/data/debug/<row>.transcript.
    void sessions_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<bool>("cellReuse");
        QTest::addColumn<QString>("commands");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("loadElim");
        QTest::addColumn<QStringList>("options");
        // Breakpoints on an op type and on a source line (stopping once where execution
        // reaches the line), a NaN watchpoint on Log, where/print/list, hit counts.
        QTest::newRow("breakAndWatch")
            << "lazy_blocks.py" << false
            << "break AddN\nbreak lazy_blocks.py:29\nwatch Log nan\ninfo breakpoints\nrun\n"
               "where\nprint\nlist\ncontinue\nprint\ncontinue\ninfo breakpoints\n"
            << 0 << QString() << QStringList();
        // Lazy inline keeps the Block graph as a call: stepi into it, step by line, finish
        // back with the returned value, next over the second call; kill stops the run (the
        // script gets RuntimeError, exit status 1).
        QTest::newRow("stepping")
            << "lazy_blocks.py" << true
            << "stepi\nwhere\nstepi\nwhere\nprint %para2_h\nstep\nprint %0\nfinish\nfinish\n"
               "stepi\nnext\nprint @CR_Block_construct:%0\nnexti\nkill\nprint\n"
            << 1 << QString() << QStringList();
        // Clear messages for bad commands, locations, lines, files and conditions; a %N that
        // names nothing in the run's graph is reported when the run starts.
        QTest::newRow("errors")
            << "lazy_blocks.py" << false
            << "print %1\nfinish\nbreak %x\nbreak lazy_blocks.py:999\nbreak nosuch.py:1\n"
               "break lazy_blocks.py:abc\nwatch Log purple\nwatch Log\nwatch Log above x\n"
               "frobnicate\ndelete 7\ninfo frobs\nbreak\nbreak %99\nwatch %3 above 2\nrun\n"
               "break %99\nprint %5\nbreak NoSuchName\nadvance Nothing\ncontinue\ncontinue\n"
            << 0 << QString() << QStringList();
        // A while loop (its body a graph entered by tail calls): a 'changed' watchpoint hits
        // from the second iteration; the same compiled graph runs twice and a @jit function
        // once, every run debuggable; list source; delete all.
        QTest::newRow("loops")
            << "loop.py" << false
            << "watch Mul changed\nbreak loop.py:16\nrun\nprint\ncontinue\ncontinue\nwhere\n"
               "info breakpoints\ndisable 1\ncontinue\nprint %para1_x\nlist source\ndelete\n"
               "continue\nnext\n"
            << 0 << QString() << QStringList();
        // NaN (0/0), Inf (1/0) and all-zeros watchpoints; two watchpoints met by one kernel
        // both count a hit, the first reports.
        QTest::newRow("watchConditions")
            << "ratios.py" << false
            << "watch RealDiv nan\nwatch RealDiv inf\nwatch Mul zero\nwatch Mul nan\nrun\n"
               "print\ncontinue\ninfo breakpoints\ncontinue\n"
            << 0 << QString() << QStringList();
        // End of input while stopped quits without a traceback.
        QTest::newRow("eofWhileStopped") << "loop.py" << false << "break Mul\nrun\n"
                                         << 0 << QString() << QStringList();
        // The seed's load elimination at level 3: the Loads that feed AddN alias the
        // Parameter, so both inputs hold its last value (2), where levels 0-2 copy each read.
        QTest::newRow("loadElimAliasing")
            << "resources/examples/load_elim_fwd_bwd.py" << false << "break AddN\nrun\nprint\n"
            << 0 << QStringLiteral("3") << QStringList();
        // --load-elim 3 on the command line does the same over MS_DEV_SIDE_EFFECT_LOAD_ELIM=0
        // (the option wins, as for `run`): the same aliased values.
        QTest::newRow("loadElimOption")
            << "resources/examples/load_elim_fwd_bwd.py" << false << "break AddN\nrun\nprint\n"
            << 0 << QStringLiteral("0") << QStringList{"--load-elim", "3"};
        // At level 0 each read is copied: AddN adds the values read before each write.
        QTest::newRow("loadElimOption0")
            << "resources/examples/load_elim_fwd_bwd.py" << false << "break AddN\nrun\nprint\n"
            << 0 << QStringLiteral("3") << QStringList{"--load-elim", "0"};
    }

    void sessions() {
        QFETCH(QString, script);
        QFETCH(bool, cellReuse);
        QFETCH(QString, commands);
        QFETCH(int, exitCode);
        QFETCH(QString, loadElim);
        QFETCH(QStringList, options);
        const Session s = debugScript(script, commands, cellReuse, loadElim, options);
        const QString expected = golden(QString::fromLatin1(QTest::currentDataTag()));
        if (s.text != expected) {
            qWarning().noquote() << "actual transcript:\n" << s.text;
        }
        QCOMPARE(s.text, expected);
        QCOMPARE(s.exitCode, exitCode);
    }

    // The usage line lists debug; a missing script is a usage error; an unreadable one an
    // input error.
    void usage() {
        const cli_test::CliRun noScript = cli_test::runCli({QStringLiteral("debug")});
        QVERIFY(noScript.finished);
        QCOMPARE(noScript.status, 2);
        const cli_test::CliRun missing =
            cli_test::runCli({QStringLiteral("debug"), QStringLiteral("/no/such.py")});
        QVERIFY(missing.finished);
        QCOMPARE(missing.status, 1);
        QVERIFY(missing.errText().contains("cannot open /no/such.py"));
    }
};

QTEST_GUILESS_MAIN(TestCliDebug)
#include "test_cli_debug.moc"
