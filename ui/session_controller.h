// The desktop app's session controller: everything the main window starts and waits for,
// without a widget. It owns
//   - the current Session (the last script run, saved session or dump folder read) and its
//     generation, a number bumped each time another session replaces it;
//   - one job at a time: a script run (session::ScriptRunner) or a saved session's load, an
//     .ir / .mindir load, or a save_graphs dump folder's read;
//   - the pass snapshot loads (one at a time; a newer request waits, older ones drop), each
//     addressed by a SnapshotRef{generation, compile, pass} of indices into the session.
// Every job has one std::stop_source: cancel() asks it to stop (the script's interpreter,
// compiler, passes and executor, or the folder reader, see the token) and the state goes
// Running → Cancelling → Idle when the job's result comes back. A result of a job the user
// superseded (a snapshot of an older generation) is dropped by its generation.
//
// Threads: the controller lives on the UI thread and emits every signal there. Script runs
// and folder reads run on a thread pool of its own (Qt's raster painting waits on the global
// pool, so long jobs there would freeze the window); .ir loads and snapshot parses run on
// the global pool. The jobs own what they use (never the controller). Nothing waits on the
// UI thread but the destructor, after asking the job to stop (see ~SessionController).
#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>

#include "ir_loader.h"
#include "script_loader.h"
#include "session/dump_folder.h"

class QTimer;

namespace irscope::ui {

// A pass snapshot: compile `compile` of the session of generation `generation`, its
// snapshot `pass` (an index into CompileRecord::snapshots).
struct SnapshotRef {
    int generation = -1;
    int compile = -1;
    int pass = -1;
    friend bool operator==(const SnapshotRef&, const SnapshotRef&) = default;
};

class SessionController : public QObject {
    Q_OBJECT

public:
    // Idle: no job. Running: a job runs. Cancelling: its stop was requested; it has not
    // ended yet. (A debugged run, paused at breakpoints, is the Execution dock's job:
    // ExecutionDock has its own Idle/Running/Paused states over runtime::Debugger.)
    enum class State { Idle, Running, Cancelling };
    Q_ENUM(State)
    enum class Job { None, Script, Ir, Folder };

    explicit SessionController(QObject* parent = nullptr);
    ~SessionController() override;

    State state() const { return state_; }
    Job job() const { return job_; }
    bool isBusy() const { return job_ != Job::None; }
    bool isLoadingSnapshot() const { return snapshotRunning_; }
    int generation() const { return generation_; }
    // The current session (null before a script ran or a folder was read).
    std::shared_ptr<const store::Session> session() const { return session_; }
    // The last script run (or saved session, or dump folder) and how it ended; while a
    // script runs, only its path.
    const LoadedScript& script() const { return script_; }
    // The current session's compile `index`, or null.
    const passes::CompileRecord* compile(int index) const;

    // Each starts a job and returns true, or returns false (and emits nothing) while one runs.
    // runScript: `path` (a .py file, or a saved .irscope session, which is read, not run),
    // or `source` named `path` when given (the editor's text).
    bool runScript(const QString& path, std::optional<QByteArray> source,
                   session::ScriptOptions options);
    bool loadIr(const QString& path, const MindirKey& key = {});
    bool readFolder(const QString& dir);
    // Asks the job to stop (state Cancelling until its result arrives); no-op when idle.
    void cancel();

    // Parses the snapshot `ref` off the UI thread; snapshotLoaded follows. False (and
    // nothing happens) when `ref` is not of the current generation or out of range.
    bool requestSnapshot(const SnapshotRef& ref);

signals:
    void stateChanged(irscope::ui::SessionController::State state);
    // A script run's statements and loop iterations so far and its time, every 250 ms.
    void scriptProgress(std::uint64_t steps, double seconds);
    // A folder read: files read of all.
    void folderProgress(int done, int total);
    // What the running script printed (or the saved session's output), as it comes.
    void scriptOutput(const QString& text);
    // A job's error (the script's located error, the file's parse error, ...).
    void failed(const QString& message);
    // A script ended (script() is it; a new generation when it made a session).
    void scriptFinished(const irscope::ui::LoadedScript& script);
    // An .ir / .mindir load ended (ok or with its error; needsKey for an encrypted MindIR).
    void irLoaded(const irscope::ui::LoadedIr& ir);
    // A folder read ended; its session (if any) is the current one.
    void folderRead(const QString& dir, const irscope::session::DumpFolder& folder);
    // The snapshot `ref` of the current generation was parsed (ir.ok() or its error).
    void snapshotLoaded(const irscope::ui::SnapshotRef& ref, const irscope::ui::LoadedIr& ir);

private:
    bool begin(Job job);
    void end();
    void setState(State s);
    void adopt(std::shared_ptr<const store::Session> s);
    void onScriptDone();
    void onFolderDone();
    void onSnapshotDone();

    State state_ = State::Idle;
    Job job_ = Job::None;
    int generation_ = 0;
    std::shared_ptr<const store::Session> session_;
    LoadedScript script_;
    std::stop_source stop_;  // the current job's
    std::shared_ptr<session::ScriptRunner> runner_;
    QElapsedTimer clock_;
    QTimer* progressTimer_ = nullptr;
    QString folderPath_;
    QFutureWatcher<LoadedScript> scriptWatcher_;
    QFutureWatcher<LoadedIr> irWatcher_;
    QFutureWatcher<session::DumpFolder> folderWatcher_;
    QFutureWatcher<LoadedIr> snapshotWatcher_;
    bool snapshotRunning_ = false;
    SnapshotRef snapshotRef_;
    std::optional<SnapshotRef> pendingSnapshot_;
    // Declared after the watchers: destroyed (and its jobs waited for) first.
    QThreadPool longWork_;
};

}  // namespace irscope::ui
