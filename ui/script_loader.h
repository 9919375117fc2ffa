// Runs a .py script off the UI thread into a Session (session::ScriptRunner, the same code
// path as `irscope-cli run`), and locates its error for the UI.
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>

#include "session/run_script.h"

namespace irscope::ui {

struct LoadedScript {
    QString path;
    std::shared_ptr<const store::Session> session;  // null when the file could not be read
    interp::RunResult::Status status = interp::RunResult::Status::Ok;
    QString error;      // syntax error, traceback, or why the file could not be read
    QString errorFile;  // where the error is (the innermost frame in the script), if known
    int errorLine = 0;  // 1-based; 0 when unknown
    bool fromSessionFile = false;  // `path` is a saved session, read (not run) by loadSessionFile
    bool ok() const { return session != nullptr && status == interp::RunResult::Status::Ok; }
    bool cancelled() const { return status == interp::RunResult::Status::Cancelled; }
};

// Blocking; call it on a worker thread. `output` receives printed text as it is printed
// (on the worker thread); `options` override settings (the settings compare, the Run menu). Never throws.
LoadedScript runScriptFile(const QString& path, const std::shared_ptr<session::ScriptRunner>& runner,
                           const std::function<void(const QString&)>& output,
                           session::ScriptOptions options = {});
// The same for `source` (the editor's text, saved or not) named `path`.
LoadedScript runScriptSource(const QString& path, const QByteArray& source,
                             const std::shared_ptr<session::ScriptRunner>& runner,
                             const std::function<void(const QString&)>& output,
                             session::ScriptOptions options = {});

// The location an error text names: a diagnostic's leading `file:line:col:` or the last
// `File "file", line N` of a traceback. Returns false when there is none.
bool locateError(const QString& error, QString* file, int* line);

}  // namespace irscope::ui
