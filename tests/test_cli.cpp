// irscope-cli as a user runs it: exit statuses, messages on stderr, and what the export
// subcommands write.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "irscope_version.h"

namespace {

struct Result {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

Result runCli(const QStringList& args, const QByteArray& stdinData = {}) {
    QProcess p;
    p.start(QStringLiteral(IRSCOPE_CLI), args);
    if (!p.waitForStarted(30000)) {
        qWarning() << "cannot start" << IRSCOPE_CLI;
        return {};
    }
    if (!stdinData.isEmpty()) {
        p.write(stdinData);
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

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
        const Result again = runCli({QStringLiteral("dump"), QStringLiteral("-")}, r.out);
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
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
