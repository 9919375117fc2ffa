// Runs irscope-cli (the build's IRSCOPE_CLI) in a child process as a user runs it, for the
// suites that check what it prints and how it exits. The child gets the test's environment
// without the developer's own switches (MS_DEV_*, MS_COMPILER_*, IRSCOPE_PLUGIN_PATH), so a
// shell's settings never change a result, plus CliOptions::env.
#pragma once

#include <QtTest>

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace cli_test {

struct CliOptions {
    QMap<QString, QString> env;  // set in the child's environment
    QString workingDirectory;    // empty: the test's
    QByteArray input;            // written to stdin, which is then closed
    bool mergeChannels = false;  // stderr into `out`, interleaved as a terminal shows it
    int timeoutMs = 120000;
    QString program;             // empty: the build's irscope-cli
};

struct CliRun {
    bool finished = false;  // ended on its own (no crash, no signal) within the timeout
    int status = -1;
    QByteArray out;
    QByteArray err;
    QString outText() const { return QString::fromUtf8(out); }
    QString errText() const { return QString::fromUtf8(err); }
};

inline CliRun runCli(const QStringList& args, const CliOptions& o = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& key : env.keys()) {
        if (key.startsWith(QLatin1String("MS_DEV_")) ||
            key.startsWith(QLatin1String("MS_COMPILER_")) ||
            key == QLatin1String("IRSCOPE_PLUGIN_PATH")) {
            env.remove(key);
        }
    }
    for (auto it = o.env.begin(); it != o.env.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    p.setProcessEnvironment(env);
    if (!o.workingDirectory.isEmpty()) {
        p.setWorkingDirectory(o.workingDirectory);
    }
    if (o.mergeChannels) {
        p.setProcessChannelMode(QProcess::MergedChannels);
    }
    const QString program = o.program.isEmpty() ? QStringLiteral(IRSCOPE_CLI) : o.program;
    p.start(program, args);
    if (!p.waitForStarted(30000)) {
        qWarning() << "cannot start" << program;
        return {};
    }
    if (!o.input.isEmpty()) {
        p.write(o.input);
    }
    p.closeWriteChannel();
    CliRun r;
    r.finished = p.waitForFinished(o.timeoutMs) && p.exitStatus() == QProcess::NormalExit;
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.status = r.finished ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The KEY=VALUE lines of `path` (an example's tests/data/examples/NAME.env); empty when the
// file does not exist.
inline QMap<QString, QString> readEnvFile(const QString& path) {
    QMap<QString, QString> vars;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return vars;
    }
    for (const QByteArray& line : f.readAll().split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (eq > 0) {
            vars.insert(QString::fromUtf8(line.left(eq)).trimmed(),
                        QString::fromUtf8(line.mid(eq + 1)).trimmed());
        }
    }
    return vars;
}

}  // namespace cli_test
