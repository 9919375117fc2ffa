// The layers of core/ as the build enforces them. Each layer is a library whose sources see
// only its own include root and its dependencies' (core/CMakeLists.txt writes each layer's
// include directories to build/layers/<layer>.includes). This suite preprocesses one header
// of every layer with the flags of every other layer: a header of a layer that may be used
// must be found, and a header of any other layer (above, or beside) must not, so that a
// wrong-way include such as "session/..." in ir/ fails the build.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QtTest>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

// What each layer may use directly: the README's layer diagram. The build's DEPS in
// core/CMakeLists.txt must give exactly its transitive closure.
const std::map<std::string, std::vector<std::string>>& layerUses() {
    static const std::map<std::string, std::vector<std::string>> uses = {
        {"util", {}},
        {"ir", {"util"}},
        {"ops", {"ir"}},
        {"passes", {"ops"}},
        {"runtime", {"passes"}},
        {"mindir", {"ir"}},
        {"frontend", {"runtime", "mindir"}},
        {"store", {"frontend"}},
        {"compiler", {"store"}},
        {"session", {"compiler"}},
        {"layout", {}},
    };
    return uses;
}

std::set<std::string> reachable(const std::string& layer) {
    std::set<std::string> seen{layer};
    std::vector<std::string> todo{layer};
    while (!todo.empty()) {
        const std::string l = todo.back();
        todo.pop_back();
        for (const std::string& dep : layerUses().at(l)) {
            if (seen.insert(dep).second) todo.push_back(dep);
        }
    }
    return seen;
}

// A header standing for the layer: its first public header by name (internal `_impl.h`
// headers may use private dependencies such as Eigen).
QString representativeHeader(const QString& layer) {
    const QDir dir(QStringLiteral(IRSCOPE_SOURCE_DIR "/core/") + layer);
    for (const QString& name : dir.entryList({QStringLiteral("*.h")}, QDir::Files, QDir::Name)) {
        if (!name.endsWith(QStringLiteral("_impl.h"))) return layer + QLatin1Char('/') + name;
    }
    return {};
}

QStringList includeFlags(const QString& layer) {
    QFile f(QStringLiteral(IRSCOPE_LAYER_ROOTS "/") + layer + QStringLiteral(".includes"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList flags;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.trimmed().isEmpty()) flags << QStringLiteral("-I") + QString::fromUtf8(line.trimmed());
    }
    return flags;
}

struct Preprocessed {
    bool ok = false;
    QString errors;
};

Preprocessed preprocess(const QStringList& flags, const QString& header) {
    QProcess cc;
    QStringList args = flags;
    args << QStringLiteral("-std=c++20") << QStringLiteral("-E") << QStringLiteral("-x")
         << QStringLiteral("c++") << QStringLiteral("-o") << QStringLiteral("/dev/null")
         << QStringLiteral("-");
    cc.start(QStringLiteral(IRSCOPE_CXX), args);
    if (!cc.waitForStarted()) return {false, QStringLiteral("cannot start " IRSCOPE_CXX)};
    cc.write(QStringLiteral("#include \"%1\"\n").arg(header).toUtf8());
    cc.closeWriteChannel();
    if (!cc.waitForFinished(120000)) return {false, QStringLiteral("timed out")};
    return {cc.exitStatus() == QProcess::NormalExit && cc.exitCode() == 0,
            QString::fromUtf8(cc.readAllStandardError())};
}

}  // namespace

class TestLayering : public QObject {
    Q_OBJECT

private slots:
    // Every folder of core/ holding sources is a layer the diagram places, and each writes
    // its include list: a new folder cannot escape the order.
    void everyFolderIsALayer() {
        const QDir core(QStringLiteral(IRSCOPE_SOURCE_DIR "/core"));
        for (const QString& folder : core.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            QVERIFY2(layerUses().count(folder.toStdString()) == 1,
                     qPrintable(QStringLiteral("core/%1 is not in the layer diagram").arg(folder)));
            QVERIFY2(!includeFlags(folder).isEmpty(),
                     qPrintable(QStringLiteral("no include list for layer %1").arg(folder)));
        }
    }

    void headersReachableExactlyDownward_data() {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("header");
        QTest::addColumn<bool>("allowed");
        for (const auto& [layer, deps] : layerUses()) {
            const std::set<std::string> ok = reachable(layer);
            for (const auto& [other, otherDeps] : layerUses()) {
                const QString header = representativeHeader(QString::fromStdString(other));
                const bool allowed = ok.count(other) == 1;
                QTest::addRow("%s includes %s", layer.c_str(), other.c_str())
                    << QString::fromStdString(layer) << header << allowed;
            }
        }
    }

    void headersReachableExactlyDownward() {
        QFETCH(QString, layer);
        QFETCH(QString, header);
        QFETCH(bool, allowed);
        QVERIFY2(!header.isEmpty(), "the layer has no header");
        const QStringList flags = includeFlags(layer);
        QVERIFY(!flags.isEmpty());
        const Preprocessed r = preprocess(flags, header);
        if (allowed) {
            QVERIFY2(r.ok, qPrintable(QStringLiteral("%1 cannot include %2:\n%3")
                                          .arg(layer, header, r.errors)));
        } else {
            QVERIFY2(!r.ok, qPrintable(QStringLiteral("%1 can include %2, a layer it must not use")
                                           .arg(layer, header)));
            // It fails because the header is out of reach, not for another reason (gcc's and
            // clang's words for it; `make sanitize` builds with clang).
            const bool notFound =
                r.errors.contains(header + QStringLiteral(": No such file or directory")) ||
                r.errors.contains(QLatin1Char('\'') + header + QStringLiteral("' file not found"));
            QVERIFY2(notFound, qPrintable(r.errors));
        }
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "test_layering.moc"
