// Session files (.irscope) in the desktop app: opening one yields the LoadedScript a run of
// its script would have (the saved session, how the run ended, its located error, its
// output through the same `output` callback), so the main window shows it exactly as it
// showed the run, without re-running anything. Saving runs on a worker thread.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include "script_loader.h"

namespace irscope::ui {

// True for a path the app opens as a session file: the .irscope extension, or an SQLite
// file marked as an irscope session.
bool isSessionFile(const QString& path);

// Blocking (call it on a worker thread); never throws. `output` receives the saved output.
LoadedScript loadSessionFile(const QString& path,
                             const std::function<void(const QString&)>& output);

// Saves sessions off the UI thread, one at a time; finished() reports each.
class SessionSaver : public QObject {
    Q_OBJECT

public:
    explicit SessionSaver(QObject* parent = nullptr);
    ~SessionSaver() override;

    // Starts saving `script`'s session to `path`; false (and nothing started) while a save
    // is in progress or when there is no session.
    bool save(const QString& path, const LoadedScript& script);
    bool isSaving() const { return saving_; }

signals:
    // `error` is empty on success.
    void finished(const QString& path, const QString& error);

private:
    QFutureWatcher<QString> watcher_;
    QString path_;
    bool saving_ = false;
};

}  // namespace irscope::ui
