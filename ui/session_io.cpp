#include "session_io.h"

#include <QFileInfo>
#include <QtConcurrent>

#include "store/session_file.h"

namespace irscope::ui {

bool isSessionFile(const QString& path) {
    const QString ext = QString::fromUtf8(store::kSessionExtension.data(),
                                          static_cast<qsizetype>(store::kSessionExtension.size()));
    return path.endsWith(ext, Qt::CaseInsensitive) ||
           store::looksLikeSessionFile(QFile::encodeName(path).toStdString());
}

LoadedScript loadSessionFile(const QString& path,
                             const std::function<void(const QString&)>& output) {
    LoadedScript out;
    out.path = path;
    out.fromSessionFile = true;
    try {
        store::LoadedSession loaded = store::loadSession(QFile::encodeName(path).toStdString());
        out.status = store::runStatusFromName(loaded.info.runStatus);
        out.error = QString::fromStdString(loaded.info.runError);
        if (output && !loaded.session->output.empty()) {
            output(QString::fromStdString(loaded.session->output));
        }
        out.session = std::move(loaded.session);
    } catch (const std::exception& e) {
        out.status = interp::RunResult::Status::Exception;
        out.error = QStringLiteral("%1: error: %2")
                        .arg(path, QString::fromUtf8(e.what()).remove(path + QStringLiteral(": ")));
        return out;
    }
    if (!out.error.isEmpty()) {
        locateError(out.error, &out.errorFile, &out.errorLine);
    }
    return out;
}

SessionSaver::SessionSaver(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<QString>::finished, this, [this] {
        saving_ = false;
        emit finished(path_, watcher_.result());
    });
}

SessionSaver::~SessionSaver() {
    watcher_.waitForFinished();
}

bool SessionSaver::save(const QString& path, const LoadedScript& script) {
    if (saving_ || script.session == nullptr) {
        return false;
    }
    saving_ = true;
    path_ = path;
    store::SaveOptions options;
    options.runStatus = store::runStatusName(script.status);
    options.runError = script.error.toStdString();
    watcher_.setFuture(QtConcurrent::run(
        [file = QFile::encodeName(path).toStdString(), session = script.session, options] {
            try {
                store::saveSession(file, *session, options);
                return QString();
            } catch (const std::exception& e) {
                return QString::fromUtf8(e.what());
            }
        }));
    return true;
}

}  // namespace irscope::ui
