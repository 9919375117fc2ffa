#include "examples_catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace irscope::ui {

namespace {

QString readText(const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("%1: error: cannot open file: %2").arg(path, f.errorString());
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

// README.md's table rows: | `name` | shows | prints |
QMap<QString, QString> readmeTitles(const QString& readme) {
    QMap<QString, QString> out;
    static const QRegularExpression row(QStringLiteral("^\\|\\s*`([^`]+)`\\s*\\|\\s*(.*?)\\s*\\|"),
                                        QRegularExpression::MultilineOption);
    for (auto it = row.globalMatch(readme); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out.insert(m.captured(1), m.captured(2));
    }
    return out;
}

}  // namespace

QString examplesDir() {
    const QString env = qEnvironmentVariable("IRSCOPE_EXAMPLES_DIR");
    if (!env.isEmpty()) {
        return env;
    }
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("../share/irscope/examples"));
    if (QFileInfo::exists(installed + QStringLiteral("/examples.json"))) {
        return QDir::cleanPath(installed);
    }
    return QStringLiteral(IRSCOPE_EXAMPLES_SOURCE_DIR);
}

QString openingComment(const QString& scriptText) {
    QStringList lines;
    for (const QString& line : scriptText.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char('#'))) {
            break;
        }
        QString text = line.mid(1);
        if (text.startsWith(QLatin1Char(' '))) {
            text.remove(0, 1);
        }
        if (text.endsWith(QLatin1Char('\r'))) {
            text.chop(1);
        }
        lines << text;
    }
    return lines.join(QLatin1Char('\n'));
}

QList<ExampleInfo> loadExamples(const QString& dir, QString* error) {
    QList<ExampleInfo> out;
    error->clear();
    const QString manifestPath = QDir(dir).filePath(QStringLiteral("examples.json"));
    const QString manifest = readText(manifestPath, error);
    if (!error->isEmpty()) {
        return out;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(manifest.toUtf8(), &parseError);
    if (doc.isNull()) {
        // Qt reports a byte offset: say which line it is on.
        const int line = manifest.toUtf8().left(parseError.offset).count('\n') + 1;
        *error = QObject::tr("%1:%2: error: %3").arg(manifestPath).arg(line).arg(parseError.errorString());
        return out;
    }
    QString readmeError;
    const QMap<QString, QString> titles =
        readmeTitles(readText(QDir(dir).filePath(QStringLiteral("README.md")), &readmeError));
    for (const QJsonValue& v : doc.object().value(QStringLiteral("examples")).toArray()) {
        const QJsonObject o = v.toObject();
        ExampleInfo e;
        e.name = o.value(QStringLiteral("file")).toString();
        e.file = QDir(dir).filePath(e.name);
        if (e.name.isEmpty() || !QFileInfo::exists(e.file)) {
            if (error->isEmpty()) {
                *error = QObject::tr("%1: error: example '%2' does not exist").arg(manifestPath, e.name);
            }
            continue;
        }
        e.title = titles.value(e.name, e.name);
        e.title.remove(QLatin1Char('`'));
        e.compile = o.value(QStringLiteral("compile")).toInt(-1);
        e.pass = o.value(QStringLiteral("pass")).toString();
        const QJsonObject settings = o.value(QStringLiteral("settings")).toObject();
        for (auto it = settings.begin(); it != settings.end(); ++it) {
            e.settings.insert(it.key(), it.value().toInt());
        }
        if (o.contains(QStringLiteral("note"))) {
            e.explanation = o.value(QStringLiteral("note")).toString();
        } else {
            QString ignored;
            e.explanation = openingComment(readText(e.file, &ignored));
        }
        out.push_back(e);
    }
    if (error->isEmpty() && !readmeError.isEmpty()) {
        *error = readmeError;
    }
    return out;
}

QString guideHtml(const ExampleInfo& e) {
    QString text =
        QStringLiteral("<b>%1</b> — %2<br>").arg(e.name.toHtmlEscaped(), e.title.toHtmlEscaped());
    text += e.explanation.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    if (!e.settings.isEmpty()) {
        QStringList set;
        for (auto it = e.settings.begin(); it != e.settings.end(); ++it) {
            set << QStringLiteral("%1=%2").arg(it.key()).arg(it.value());
        }
        text += QStringLiteral("<br><i>%1</i>")
                    .arg(QObject::tr("Run settings for this example: %1")
                             .arg(set.join(QStringLiteral(", "))));
    }
    return text;
}

}  // namespace irscope::ui
