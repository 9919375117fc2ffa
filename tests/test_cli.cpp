// irscope-cli as a user runs it: exit statuses, messages on stderr, and what the export
// subcommands write.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_runner.h"
#include "irscope_version.h"

namespace {

using Result = cli_test::CliRun;
using cli_test::runCli;

// The seed's LOAD_ELIM=3 listing (static_graph_expert_programming, the first IR shown).
QString seedListing() {
    return QStringLiteral(IRSCOPE_TEST_DATA "/seed_load_elim_level3.ir");
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

const char* const kSeedOps[] = {"Assign", "UpdateState", "Load",  "MakeTuple",
                                "AddN",   "Depend",      "Return"};

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpAndVersion() {
        Result r = runCli({QStringLiteral("--help")});
        QCOMPARE(r.status, 0);
        for (const char* cmd : {"dump", "dot", "svg", "json"}) {
            QVERIFY2(r.out.contains(cmd), cmd);
        }
        r = runCli({QStringLiteral("svg"), QStringLiteral("--help")});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("--output"));
        r = runCli({QStringLiteral("--version")});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains(IRSCOPE_VERSION));
    }

    void usageErrorsExitTwo() {
        const QList<QStringList> cases = {
            {},                                             // no subcommand
            {QStringLiteral("frobnicate"), seedListing()},  // unknown subcommand
            {QStringLiteral("dump")},                       // missing FILE
            {QStringLiteral("dot"), QStringLiteral("--bogus"), seedListing()},  // unknown option
            {QStringLiteral("dot"), QStringLiteral("--rankdir"), QStringLiteral("XY"),
             seedListing()},                                               // bad value
            {QStringLiteral("svg"), seedListing(), QStringLiteral("-o")},  // -o without a value
        };
        for (const auto& args : cases) {
            const Result r = runCli(args);
            QVERIFY2(r.status == 2, qPrintable(args.join(' ') + ": " + QString::number(r.status)));
            QVERIFY2(r.err.contains("usage: irscope-cli"), r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
    }

    void unreadableFilesExitOne() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no_such.ir"));
        Result r = runCli({QStringLiteral("dump"), missing});
        QCOMPARE(r.status, 1);
        QCOMPARE(QString::fromUtf8(r.err).trimmed(),
                 QStringLiteral("irscope-cli: error: cannot open %1: No such file or directory")
                     .arg(missing));
        r = runCli({QStringLiteral("json"), dir.path()});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.startsWith("irscope-cli: error: cannot open " + dir.path().toUtf8()));
    }

    void malformedIrExitsOneWithLocatedDiagnostic() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.ir"));
        QVERIFY(writeFile(path, "subgraph @g() {\n  %0 = Add(%1,\n}\n"));
        for (const char* cmd : {"dump", "dot", "svg", "json"}) {
            const Result r = runCli({QString::fromLatin1(cmd), path});
            QCOMPARE(r.status, 1);
            const QString err = QString::fromUtf8(r.err);
            const QRegularExpression located(QStringLiteral("^") +
                                             QRegularExpression::escape(path) +
                                             QStringLiteral(":\\d+:\\d+: error: "));
            QVERIFY2(located.match(err).hasMatch(), qPrintable(err));
            QVERIFY2(err.contains(QLatin1Char('^')), qPrintable(err));  // the caret line
            QVERIFY(r.out.isEmpty());
        }
    }

    void dumpPrintsNormalizedIr() {
        const Result r = runCli({QStringLiteral("dump"), seedListing()});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QVERIFY(r.out.contains("@BackwardNet_construct"));
        QVERIFY(r.out.contains("Assign(%para2_param"));
        QVERIFY(r.out.contains("= Depend(%15, %16)"));
        QVERIFY(r.out.contains("Return(%17)"));
        // Normalized: dumping the dump changes nothing; "-" reads standard input.
        const Result again = runCli({QStringLiteral("dump"), QStringLiteral("-")}, {.input = r.out});
        QCOMPARE(again.status, 0);
        QCOMPARE(again.out, r.out);
    }

    void dotAndJsonExports() {
        QTemporaryDir dir;
        const QString dotPath = dir.filePath(QStringLiteral("seed.dot"));
        Result r = runCli({QStringLiteral("dot"), seedListing(), QStringLiteral("-o"), dotPath});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.isEmpty());
        const QByteArray dot = readAll(dotPath);
        QVERIFY(dot.startsWith("digraph"));
        QVERIFY(dot.contains("subgraph cluster_0"));
        QVERIFY(dot.contains("style=dashed"));
        const QRegularExpression constantNode(QStringLiteral("\\bc\\d+_\\d+ \\["));
        QVERIFY(QString::fromUtf8(dot).contains(constantNode));
        r = runCli({QStringLiteral("dot"), QStringLiteral("--no-constants"),
                    QStringLiteral("--rankdir"), QStringLiteral("LR"), seedListing()});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("rankdir=LR"));
        // No per-use constant nodes (`c<user>_<index> [...]`).
        QVERIFY(!QString::fromUtf8(r.out).contains(constantNode));

        r = runCli(
            {QStringLiteral("svg"), QStringLiteral("-g"), QStringLiteral("nope"), seedListing()});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.startsWith("irscope-cli: error: no graph named 'nope'"), r.err.constData());
        r = runCli({QStringLiteral("dot"), QStringLiteral("-g"),
                    QStringLiteral("BackwardNet_construct"), seedListing()});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("subgraph cluster_0"));

        r = runCli({QStringLiteral("json"), seedListing()});
        QCOMPARE(r.status, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc[QStringLiteral("entry")].toString(), QStringLiteral("BackwardNet_construct"));
        QCOMPARE(doc[QStringLiteral("graphs")].toArray().size(), 1);

        const QString outDir = dir.filePath(QStringLiteral("missing_dir/x.json"));
        r = runCli({QStringLiteral("json"), seedListing(), QStringLiteral("-o"), outDir});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.startsWith("irscope-cli: error: cannot write"));
    }

    void svgShowsTheGraph() {
        QTemporaryDir dir;
        const QString svgPath = dir.filePath(QStringLiteral("seed.svg"));
        const Result r =
            runCli({QStringLiteral("svg"), seedListing(), QStringLiteral("-o"), svgPath});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        const QByteArray svg = readAll(svgPath);
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("BackwardNet_construct"));
        for (const char* op : kSeedOps) {
            QVERIFY2(svg.contains(op), op);
        }
        QVERIFY(svg.contains("stroke-dasharray"));
    }

    // `run` compiles GRAPH_MODE Cells and @jit functions and runs them; graph prints and
    // host prints come out in the order they happen.
    void runCompilesGraphModeScripts() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("net.py"));
        QVERIFY(writeFile(script, "import mindspore as ms\n"
                                  "from mindspore import nn, ops, Tensor\n"
                                  "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                  "class Net(nn.Cell):\n"
                                  "    def construct(self, x):\n"
                                  "        print('in graph:', x)\n"
                                  "        return ops.mul(x, 2)\n"
                                  "print('before')\n"
                                  "print(Net()(Tensor([1, 2], ms.int32)))\n"));
        const Result r = runCli({QStringLiteral("run"), script});
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.status, 0);
        QCOMPARE(QString::fromUtf8(r.out),
                 QStringLiteral("before\nin graph:\nTensor(shape=[2], dtype=Int32, value=[1 2])\n"
                                "[2 4]\n"));
    }

    void runSaveGraphsWritesEveryPassAsIr() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("jit.py"));
        QVERIFY(writeFile(script, "import mindspore as ms\n"
                                  "@ms.jit\n"
                                  "def f(x, y):\n"
                                  "    return x * y + x\n"
                                  "print(f(ms.Tensor([3.0]), ms.Tensor([2.0])))\n"));
        const QString dumps = dir.filePath(QStringLiteral("graphs"));
        const Result r = runCli({QStringLiteral("run"), script, QStringLiteral("--save-graphs"), dumps});
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(r.status, 0);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("[9.]\n"));
        for (const char* name : {"00_parse_0000.ir", "01_symbol_resolve_0001.ir",
                                 "03_type_inference_0003.ir", "10_task_emit_0010.ir"}) {
            const QByteArray text = readAll(dumps + "/" + name);
            QVERIFY2(!text.isEmpty(), name);
            // Every dump is a .ir file the CLI itself reads back.
            const Result back = runCli({QStringLiteral("dump"), dumps + "/" + name});
            QVERIFY2(back.status == 0, back.err.constData());
            QVERIFY(back.out.contains("subgraph @f("));
        }
    }

    void runReportsCompileErrorsLikePython() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("bad.py"));
        QVERIFY(writeFile(script, "import mindspore as ms\n"
                                  "from mindspore import ops\n"
                                  "@ms.jit\n"
                                  "def f(x):\n"
                                  "    return ops.add(x, 'text')\n"
                                  "print('start')\n"
                                  "f(ms.Tensor([1.0]))\n"
                                  "print('not reached')\n"));
        const Result r = runCli({QStringLiteral("run"), script});
        QCOMPARE(r.status, 1);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("start\n"));
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith("Traceback (most recent call last):\n"), r.err.constData());
        QVERIFY2(err.contains("line 7, in <module>\n    f(ms.Tensor([1.0]))\n"), r.err.constData());
        QVERIFY2(err.contains("line 5, in f\n    return ops.add(x, 'text')\n"), r.err.constData());
        QVERIFY2(err.contains("\nTypeError: For 'Add'"), r.err.constData());
        QVERIFY2(err.contains("# 0 In file " + script + ":5"), r.err.constData());
    }

    // Keyword arguments of a tensor method inside construct reach type_inference's binding.
    void runGraphModeMethodKeywords() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("kw.py"));
        QVERIFY(writeFile(script, "import numpy as np\n"
                                  "import mindspore as ms\n"
                                  "from mindspore import nn, Tensor\n"
                                  "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                  "class Net(nn.Cell):\n"
                                  "    def construct(self, x):\n"
                                  "        return x.sum(axis=1, keepdims=True)\n"
                                  "print(Net()(Tensor(np.ones((2, 3), np.float32))))\n"));
        const Result r = runCli({QStringLiteral("run"), script});
        QCOMPARE(QString::fromUtf8(r.err), QString());
        QCOMPARE(r.status, 0);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("[[3.]\n [3.]]\n"));
    }

    // Compile-time unrolling is bounded: --max-unroll turns a long for loop into a located error.
    void runBoundsForUnrolling() {
        QTemporaryDir dir;
        const QString script = dir.filePath(QStringLiteral("long.py"));
        QVERIFY(writeFile(script, "import mindspore as ms\n"
                                  "@ms.jit\n"
                                  "def f(x):\n"
                                  "    for _ in range(50):\n"
                                  "        x = x + 1\n"
                                  "    return x\n"
                                  "print(f(ms.Tensor([1.0])))\n"));
        const Result ok = runCli({QStringLiteral("run"), script});
        QCOMPARE(ok.status, 0);
        QCOMPARE(QString::fromUtf8(ok.out), QStringLiteral("[51.]\n"));
        const Result r = runCli({QStringLiteral("run"), QStringLiteral("--max-unroll"),
                                 QStringLiteral("20"), script});
        QCOMPARE(r.status, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains("RuntimeError: The for loop unrolls more than 20 iterations"),
                 r.err.constData());
        QVERIFY2(err.contains("# 0 In file " + script + ":"), r.err.constData());
    }

    // --load-elim overrides MS_DEV_SIDE_EFFECT_LOAD_ELIM for one run: the seed's net gets
    // its gradient right at 1 and fails its assert at 3; --run-stats reports the run.
    void runLoadElimOverrideAndRunStats() {
        const QString script =
            QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/load_elim_fwd_bwd.py");
        const Result ok = runCli({QStringLiteral("run"), script, QStringLiteral("--load-elim"),
                                  QStringLiteral("1"), QStringLiteral("--run-stats")});
        QCOMPARE(ok.status, 0);
        QVERIFY2(ok.out.contains("value= 3)"), ok.out.constData());
        const QString stats = QString::fromUtf8(ok.err);
        QVERIFY2(stats.contains("run 1: @BackwardNet_construct on cpu"), ok.err.constData());
        QVERIFY2(stats.contains(QRegularExpression("memory:   peak \\d+ bytes \\(planned \\d+\\)")),
                 ok.err.constData());
        QVERIFY2(stats.contains("kernels:"), ok.err.constData());
        const Result bad = runCli({QStringLiteral("run"), script, QStringLiteral("--load-elim"),
                                   QStringLiteral("3")});
        QCOMPARE(bad.status, 1);
        QVERIFY2(bad.err.contains("AssertionError"), bad.err.constData());
        const Result usage = runCli({QStringLiteral("run"), script, QStringLiteral("--load-elim"),
                                     QStringLiteral("4")});
        QCOMPARE(usage.status, 2);
        // --cell-reuse reaches the compile's settings (the pass-stats header shows them).
        const QString gpt =
            QStringLiteral(IRSCOPE_SOURCE_DIR "/resources/examples/lazy_inline_gpt.py");
        for (const char* level : {"0", "2"}) {
            const Result r = runCli({QStringLiteral("run"), gpt, QStringLiteral("--cell-reuse"),
                                     QString::fromLatin1(level), QStringLiteral("--pass-stats")});
            QCOMPARE(r.status, 0);
            QVERIFY2(r.err.contains(QByteArray("settings: MS_DEV_CELL_REUSE=") + level),
                     r.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
