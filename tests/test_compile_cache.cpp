// The compile cache as a user meets it: `irscope-cli run` twice on a script with
// set_context(enable_compile_cache=True) or MS_COMPILER_CACHE_ENABLE=1. The first run misses
// (MindSpore's "Check the consistency of dependency files hash failed" warning) and stores
// its compiles; the second hits ("Use the compilation cache and execute the backend actions
// only") and prints the same. Editing the script or a setting is a miss again; the context
// beats the environment; a corrupt or foreign cache file is reported, never written, and the
// script still runs. (The interpreter imports no local modules, so the script is the only
// dependency file.)
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "cli_runner.h"
#include "store/compile_cache.h"
#include "store/db.h"

namespace {

constexpr const char* kMiss =
    "[WARNING] PIPELINE: Check the consistency of dependency files hash failed. Execute all "
    "the compilation actions.";
constexpr const char* kHit =
    "[WARNING] PIPELINE: Use the compilation cache and execute the backend actions only. Be "
    "aware of correctness risks.";

// A weight updated in place (the cached graph must write the script's Parameter), a default
// argument parse binds itself (scale), and two instances of one Cell whose constant differs
// (two compiles, told apart by their position in the run).
const char* const kScript = R"(# compile cache test
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor

ms.set_context(mode=ms.GRAPH_MODE)
CONTEXT_LINE


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def construct(self, x, scale=3):
        ops.assign(self.w, self.w + x)
        return self.w * scale


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


net = Net()
x = Tensor(np.array([1.0, 1.0], np.float32))
print(net(x))
print(net(x))
print(net.w.asnumpy())
print(Scale(2)(x))
print(Scale(5)(x))
)";

const char* const kExpected = "[6. 9.]\n[ 9. 12.]\n[3. 4.]\n[2. 2.]\n[5. 5.]\n";

class Workspace {
public:
    explicit Workspace(const QString& contextLine = QStringLiteral(
                           "ms.set_context(enable_compile_cache=True, "
                           "compile_cache_path=\"my_compile_cache\")")) {
        writeScript(contextLine);
    }

    void writeScript(const QString& contextLine, const QString& extra = {}) {
        QString text = QString::fromUtf8(kScript);
        text.replace(QStringLiteral("CONTEXT_LINE"), contextLine);
        QFile f(dir.filePath(QStringLiteral("net.py")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write((text + extra).toUtf8());
    }

    cli_test::CliRun run(QStringList extraArgs = {}, QMap<QString, QString> env = {}) const {
        cli_test::CliOptions o;
        o.workingDirectory = dir.path();
        o.env = std::move(env);
        QStringList args{QStringLiteral("run"), QStringLiteral("net.py")};
        args << extraArgs;
        return cli_test::runCli(args, o);
    }

    QString cacheFile(const QString& folder = QStringLiteral("my_compile_cache")) const {
        return dir.filePath(folder + QStringLiteral("/rank_0/graph_cache/compile_cache.sqlite"));
    }

    QTemporaryDir dir;
};

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The script ran, printed what a fresh compile prints, and logged `misses` and `hits`.
void checkRun(const cli_test::CliRun& r, int misses, int hits) {
    QVERIFY2(r.finished, "crashed or did not finish");
    QCOMPARE(r.status, 0);
    QCOMPARE(r.outText(), QString::fromUtf8(kExpected));
    QCOMPARE(r.err.count(kMiss), misses);
    QCOMPARE(r.err.count(kHit), hits);
}

}  // namespace

class TestCompileCache : public QObject {
    Q_OBJECT

private slots:
    void missThenHit() {
        Workspace w;
        checkRun(w.run(), 3, 0);  // Net, Scale(2), Scale(5)
        QVERIFY(QFile::exists(w.cacheFile()));
        checkRun(w.run(), 0, 3);
        // --pass-stats says where the compile came from, and lists only the backend actions.
        const cli_test::CliRun r = w.run({QStringLiteral("--pass-stats")});
        checkRun(r, 0, 3);
        QCOMPARE(r.err.count("from the compile cache: loaded in"), 3);
        QVERIFY(r.err.contains("\ntask_emit "));
        QVERIFY(!r.err.contains("\ntype_inference "));
    }

    // Editing the script (a comment is enough: MindSpore hashes the file) is a miss.
    void editingTheScriptInvalidates() {
        Workspace w;
        checkRun(w.run(), 3, 0);
        w.writeScript(QStringLiteral("ms.set_context(enable_compile_cache=True, "
                                     "compile_cache_path=\"my_compile_cache\")"),
                      QStringLiteral("# edited\n"));
        checkRun(w.run(), 3, 0);
        checkRun(w.run(), 0, 3);
    }

    // A setting that changes compiles is a miss (and replaces the entries); the dump
    // switches are not.
    void changingASettingInvalidates() {
        Workspace w;
        checkRun(w.run(), 3, 0);
        const QStringList elim1{QStringLiteral("--load-elim"), QStringLiteral("1")};
        checkRun(w.run(elim1), 3, 0);
        checkRun(w.run(elim1), 0, 3);
        checkRun(w.run({}, {{QStringLiteral("MS_DEV_SIDE_EFFECT_LOAD_ELIM"),
                             QStringLiteral("1")}}),
                 0, 3);
        checkRun(w.run(), 3, 0);
        const QString dumps = w.dir.filePath(QStringLiteral("ir"));
        checkRun(w.run({QStringLiteral("--save-graphs"), dumps}), 0, 3);
        QVERIFY(!QDir(dumps).entryList({QStringLiteral("*task_emit*.ir")}).isEmpty());
    }

    void environmentAlone() {
        Workspace w(QStringLiteral("pass"));
        const QString folder = w.dir.filePath(QStringLiteral("env_cache"));
        const QMap<QString, QString> env{{QStringLiteral("MS_COMPILER_CACHE_ENABLE"), "1"},
                                         {QStringLiteral("MS_COMPILER_CACHE_PATH"), folder}};
        checkRun(w.run({}, env), 3, 0);
        QVERIFY(QFile::exists(folder + QStringLiteral("/rank_0/graph_cache/compile_cache.sqlite")));
        checkRun(w.run({}, env), 0, 3);
        // Without the switch the cache is off; MindSpore's default folder is the current one.
        checkRun(w.run(), 0, 0);
        checkRun(w.run({}, {{QStringLiteral("MS_COMPILER_CACHE_ENABLE"), "1"}}), 3, 0);
        QVERIFY(QFile::exists(w.cacheFile(QStringLiteral("."))));
    }

    // set_context wins over the environment, for the switch and for the folder.
    void contextBeatsEnvironment() {
        Workspace off(QStringLiteral("ms.set_context(enable_compile_cache=False)"));
        const QString envFolder = off.dir.filePath(QStringLiteral("env_cache"));
        const QMap<QString, QString> env{{QStringLiteral("MS_COMPILER_CACHE_ENABLE"), "1"},
                                         {QStringLiteral("MS_COMPILER_CACHE_PATH"), envFolder}};
        checkRun(off.run({}, env), 0, 0);
        QVERIFY(!QFile::exists(envFolder));

        Workspace on;  // compile_cache_path="my_compile_cache"
        checkRun(on.run({}, env), 3, 0);
        QVERIFY(QFile::exists(on.cacheFile()));
        QVERIFY(!QFile::exists(on.dir.filePath(QStringLiteral("env_cache"))));
        checkRun(on.run({}, env), 0, 3);
    }

    // A file that is not an irscope compile cache: the run reports it, compiles everything
    // and leaves the file exactly as it was.
    void corruptOrForeignFileIsReportedAndKept_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("garbage") << QByteArray("this is not a database\n").repeated(100);
        QTest::newRow("truncated") << QByteArray("truncated");
        QTest::newRow("foreign sqlite") << QByteArray("sqlite");
    }

    void corruptOrForeignFileIsReportedAndKept() {
        QFETCH(QByteArray, content);
        Workspace w;
        QVERIFY(QDir().mkpath(QFileInfo(w.cacheFile()).path()));
        if (content == "truncated") {
            checkRun(w.run(), 3, 0);  // a good cache, then cut in half
            QFile f(w.cacheFile());
            QVERIFY(f.size() > 4096);
            QVERIFY(f.resize(f.size() / 2));
        } else if (content == "sqlite") {
            // Another application's SQLite file (its own application_id and table).
            irscope::store::Schema other{"other app file", 0x12345678,
                                         {[](irscope::store::Database& db) {
                                             db.exec("CREATE TABLE t (x INTEGER);");
                                         }}};
            irscope::store::Database::open(w.cacheFile().toStdString(), other,
                                           irscope::store::OpenMode::ReadWriteCreate);
        } else {
            QFile f(w.cacheFile());
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        const QByteArray before = readAll(w.cacheFile());
        for (int i = 0; i < 2; ++i) {
            const cli_test::CliRun r = w.run();
            checkRun(r, 0, 0);
            // The file as the script names it, then why it cannot be used.
            QVERIFY2(r.err.contains("[ERROR] irscope: compile cache "
                                    "my_compile_cache/rank_0/graph_cache/compile_cache.sqlite: "),
                     qPrintable(r.errText()));
            QVERIFY(r.err.contains("Execute all the compilation actions."));
            QCOMPARE(r.err.count("[ERROR]"), 1);  // once per run, not per compile
        }
        QCOMPARE(readAll(w.cacheFile()), before);
    }

    // The key: what decides a compile changes it, the dump switches do not.
    void keyDigest() {
        using irscope::store::CompileCacheKey;
        CompileCacheKey a;
        a.scriptPath = "net.py";
        a.dependencies = {{"net.py", "x = 1\n"}};
        a.target = "<Net>";
        a.signature = "(Tensor[Float32](2))";
        const std::string base = a.digest();
        QCOMPARE(base.size(), std::size_t{64});
        CompileCacheKey b = a;
        b.settings.set("MS_DEV_SAVE_GRAPHS", std::int64_t{2});
        b.settings.set("MS_DEV_SAVE_GRAPHS_PATH", std::string("/tmp/ir"));
        QCOMPARE(b.digest(), base);
        b.settings.set("MS_DEV_SIDE_EFFECT_LOAD_ELIM", std::int64_t{1});
        QVERIFY(b.digest() != base);
        CompileCacheKey c = a;
        c.dependencies[0].second += "# edit\n";
        QVERIFY(c.digest() != base);
        CompileCacheKey d = a;
        d.ordinal = 1;
        QVERIFY(d.digest() != base);
        CompileCacheKey e = a;
        e.signature = "(Tensor[Float32](3))";
        QVERIFY(e.digest() != base);
        CompileCacheKey f = a;
        f.dependencies[0].first = "elsewhere/net.py";  // the same text elsewhere: the same compile
        QCOMPARE(f.digest(), base);
    }
};

QTEST_GUILESS_MAIN(TestCompileCache)
#include "test_compile_cache.moc"
