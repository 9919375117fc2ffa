#include "session_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

#include "session_io.h"

namespace irscope::ui {

SessionController::SessionController(QObject* parent) : QObject(parent) {
    progressTimer_ = new QTimer(this);
    progressTimer_->setInterval(250);
    connect(progressTimer_, &QTimer::timeout, this, [this] {
        if (runner_ && state_ == State::Running) {
            emit scriptProgress(runner_->stepsTaken(),
                                static_cast<double>(clock_.elapsed()) / 1000.0);
        }
    });
    connect(&scriptWatcher_, &QFutureWatcher<LoadedScript>::finished, this,
            &SessionController::onScriptDone);
    connect(&folderWatcher_, &QFutureWatcher<session::DumpFolder>::finished, this,
            &SessionController::onFolderDone);
    connect(&snapshotWatcher_, &QFutureWatcher<LoadedIr>::finished, this,
            &SessionController::onSnapshotDone);
    connect(&irWatcher_, &QFutureWatcher<LoadedIr>::finished, this, [this] {
        LoadedIr r = irWatcher_.result();
        end();
        if (!r.ok()) {
            emit failed(r.error);
        }
        emit irLoaded(r);
    });
}

// The one wait on the UI thread: longWork_'s destructor waits for a script run or folder
// read, but only after its stop was requested, so for one interpreter step, pass, kernel or
// dump file (time.sleep wakes every 10 ms). The jobs own what they use, so the global
// pool's .ir and snapshot parses (bounded by their file) are left to finish on their own.
// Detaching the long jobs instead would let a run outlive the application's statics.
SessionController::~SessionController() {
    stop_.request_stop();
}

const passes::CompileRecord* SessionController::compile(int index) const {
    if (session_ == nullptr || index < 0 || index >= static_cast<int>(session_->compiles.size())) {
        return nullptr;
    }
    return &session_->compiles[static_cast<std::size_t>(index)];
}

void SessionController::setState(State s) {
    if (state_ != s) {
        state_ = s;
        emit stateChanged(s);
    }
}

bool SessionController::begin(Job job) {
    if (job_ != Job::None) {
        return false;
    }
    job_ = job;
    stop_ = std::stop_source();
    clock_.start();
    setState(State::Running);
    return true;
}

void SessionController::end() {
    job_ = Job::None;
    runner_.reset();
    progressTimer_->stop();
    setState(State::Idle);
}

void SessionController::adopt(std::shared_ptr<const store::Session> s) {
    session_ = std::move(s);
    ++generation_;
    pendingSnapshot_.reset();  // of the older session
}

void SessionController::cancel() {
    if (state_ == State::Running) {
        stop_.request_stop();
        setState(State::Cancelling);
    }
}

bool SessionController::runScript(const QString& path, std::optional<QByteArray> source,
                                  session::ScriptOptions options) {
    if (!begin(Job::Script)) {
        return false;
    }
    runner_ = std::make_shared<session::ScriptRunner>();
    options.stop = stop_.get_token();
    script_ = LoadedScript();  // the one running, until its result replaces it
    script_.path = path;
    // Printed text reaches scriptOutput as it is printed (queued onto the UI thread).
    QPointer<SessionController> self = this;
    auto output = [self](const QString& text) {
        QMetaObject::invokeMethod(
            self,
            [self, text] {
                if (self) {
                    emit self->scriptOutput(text);
                }
            },
            Qt::QueuedConnection);
    };
    // A saved session shows what its run showed, through the same path, without running.
    const bool saved = isSessionFile(path);
    if (!saved) {
        progressTimer_->start();
    }
    scriptWatcher_.setFuture(
        QtConcurrent::run(&longWork_, [path, source = std::move(source), runner = runner_, output,
                                       saved, options = std::move(options)] {
            if (saved) {
                return loadSessionFile(path, output);
            }
            return source ? runScriptSource(path, *source, runner, output, options)
                          : runScriptFile(path, runner, output, options);
        }));
    return true;
}

void SessionController::onScriptDone() {
    LoadedScript r = scriptWatcher_.result();
    end();
    if (r.session != nullptr) {
        adopt(r.session);
    }
    script_ = std::move(r);
    if (!script_.error.isEmpty()) {
        const QString where =
            script_.errorLine > 0
                ? QStringLiteral("%1:%2").arg(script_.errorFile).arg(script_.errorLine)
                : QString();
        // A traceback gets its innermost location on top; a diagnostic starts with it.
        const QString text = script_.error.trimmed();
        emit failed(where.isEmpty() || text.startsWith(where)
                        ? text
                        : tr("%1: error\n%2").arg(where, text));
    }
    emit scriptFinished(script_);
}

bool SessionController::loadIr(const QString& path, const MindirKey& key) {
    if (!begin(Job::Ir)) {
        return false;
    }
    irWatcher_.setFuture(QtConcurrent::run(&loadIrFile, path, key));
    return true;
}

bool SessionController::readFolder(const QString& dir) {
    if (!begin(Job::Folder)) {
        return false;
    }
    folderPath_ = dir;
    QPointer<SessionController> self = this;
    auto progress = [self](int done, int total) {
        QMetaObject::invokeMethod(
            self,
            [self, done, total] {
                if (self) {
                    emit self->folderProgress(done, total);
                }
            },
            Qt::QueuedConnection);
    };
    folderWatcher_.setFuture(
        QtConcurrent::run(&longWork_, [dir, progress, stop = stop_.get_token()] {
            return session::loadDumpFolder(QDir(dir).filesystemAbsolutePath(), progress, stop);
        }));
    return true;
}

void SessionController::onFolderDone() {
    session::DumpFolder r = folderWatcher_.result();
    end();
    if (r.session == nullptr || r.session->compiles.empty()) {
        emit failed(QString::fromStdString(r.error));
    } else {
        adopt(r.session);
        script_ = LoadedScript();
        script_.path = folderPath_;
        script_.session = session_;
        if (r.failed > 0) {
            emit failed(
                tr("%n of %1 file(s) could not be read; their rows in the Pass timeline say why. "
                   "The first:\n%2",
                   nullptr, r.failed)
                    .arg(r.files)
                    .arg(QString::fromStdString(r.error)));
        }
    }
    emit folderRead(folderPath_, r);
}

bool SessionController::requestSnapshot(const SnapshotRef& ref) {
    const passes::CompileRecord* c =
        ref.generation == generation_ ? compile(ref.compile) : nullptr;
    if (c == nullptr || ref.pass < 0 || ref.pass >= static_cast<int>(c->snapshots.size())) {
        return false;
    }
    if (snapshotRunning_) {
        pendingSnapshot_ = ref;
        return true;
    }
    snapshotRunning_ = true;
    snapshotRef_ = ref;
    pendingSnapshot_.reset();
    const passes::PassSnapshot& s = c->snapshots[static_cast<std::size_t>(ref.pass)];
    // A dump folder's snapshot is named by its file, so its errors point into it.
    const QString name =
        !s.sourceFile.empty()
            ? QString::fromStdString(s.sourceFile)
            : QStringLiteral("%1@%2.ir")
                  .arg(QString::fromStdString(c->graphName),
                       QString::fromStdString(s.pass).replace(QLatin1Char('/'), QLatin1Char('.')));
    // The session (kept alive by the lambda) owns the compressed text.
    snapshotWatcher_.setFuture(QtConcurrent::run([owner = session_, compressed = s.compressed(),
                                                  name] {
        if (!compressed) {
            LoadedIr failed;
            failed.path = name;
            failed.error =
                QStringLiteral("%1: error: the IR could not be printed after this pass").arg(name);
            return failed;
        }
        return loadIrText(compressed->text(), name);
    }));
    return true;
}

void SessionController::onSnapshotDone() {
    snapshotRunning_ = false;
    LoadedIr r = snapshotWatcher_.result();
    if (pendingSnapshot_) {
        // A newer pass was selected meanwhile: parse that one instead.
        const SnapshotRef next = *pendingSnapshot_;
        pendingSnapshot_.reset();
        requestSnapshot(next);
        return;
    }
    if (snapshotRef_.generation != generation_) {
        return;  // of a session replaced meanwhile
    }
    if (!r.ok()) {
        emit failed(r.error);
    }
    emit snapshotLoaded(snapshotRef_, r);
}

}  // namespace irscope::ui
