#include "script_loader.h"

#include <QFile>
#include <QRegularExpression>

#include <utility>

namespace irscope::ui {

bool locateError(const QString& error, QString* file, int* line) {
    static const QRegularExpression frame(QStringLiteral("File \"([^\"]+)\", line (\\d+)"));
    QRegularExpressionMatch last;
    for (auto it = frame.globalMatch(error); it.hasNext();) {
        last = it.next();
    }
    if (last.hasMatch()) {
        *file = last.captured(1);
        *line = last.captured(2).toInt();
        return true;
    }
    static const QRegularExpression diag(QStringLiteral("^([^\\s:][^:\\n]*):(\\d+):(\\d+:)?"),
                                         QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = diag.match(error);
    if (m.hasMatch()) {
        *file = m.captured(1);
        *line = m.captured(2).toInt();
        return true;
    }
    return false;
}

LoadedScript runScriptFile(const QString& path, const std::shared_ptr<session::ScriptRunner>& runner,
                           const std::function<void(const QString&)>& output,
                           session::ScriptOptions options) {
    LoadedScript out;
    out.path = path;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.status = interp::RunResult::Status::Exception;
        out.error = QStringLiteral("%1: error: cannot open file: %2").arg(path, f.errorString());
        return out;
    }
    return runScriptSource(path, f.readAll(), runner, output, std::move(options));
}

LoadedScript runScriptSource(const QString& path, const QByteArray& bytes,
                             const std::shared_ptr<session::ScriptRunner>& runner,
                             const std::function<void(const QString&)>& output,
                             session::ScriptOptions options) {
    LoadedScript out;
    out.path = path;
    try {
        auto sink = [&output](std::string_view s) {
            if (output) {
                output(QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())));
            }
        };
        session::ScriptOutcome r = runner->run(bytes.toStdString(), path.toStdString(), std::move(options), sink, sink);
        out.session = std::move(r.session);
        if (out.session) {
            // The snapshots finish printing after their compiles: here, off the GUI thread,
            // so that the views never wait for them.
            for (const passes::CompileRecord& c : out.session->compiles) {
                c.settleSnapshots();
            }
        }
        out.status = r.result.status;
        out.error = QString::fromStdString(r.result.error);
    } catch (const std::exception& e) {
        out.status = interp::RunResult::Status::Exception;
        out.error = QStringLiteral("%1: error: %2").arg(path, QString::fromUtf8(e.what()));
    }
    if (!out.error.isEmpty()) {
        locateError(out.error, &out.errorFile, &out.errorLine);
    }
    return out;
}

}  // namespace irscope::ui
