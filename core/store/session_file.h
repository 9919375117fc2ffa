// Session files (.irscope): one whole Session in one SQLite file — the script and
// its path, the settings, every compile with every pass snapshot (the zstd bytes exactly as
// kept in memory, shared between passes that changed nothing as in memory) and its
// statistics, every run with its device, outputs, timings and peak memory, and what the
// script printed. Written in one transaction; read back into an identical Session.
//
// Loading checks what it reads: each snapshot's text is decompressed and compared with the
// size and CRC-32 stored beside it, and every index and enumeration is range-checked, so a
// damaged file gives a DbError naming the compile and the pass, never a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "frontend/interp/interpreter.h"
#include "store/session.h"
#include "store/db.h"

namespace irscope::store {

// The session file's kind: application_id "IRSS", the schema version and its migrations.
const Schema& sessionSchema();

// How a script run ended, as session files keep it: "ok", "error", "cancelled", "step limit".
std::string runStatusName(interp::RunResult::Status status);
// The status a saved name stands for; an empty or unknown name reads as Ok.
interp::RunResult::Status runStatusFromName(std::string_view name);

// What a session file says about itself and about how the run that filled it ended.
struct SessionFileInfo {
    std::string irscopeVersion;  // of the irscope that saved it
    std::string savedAt;         // UTC, ISO 8601: "2026-11-25T15:30:00Z"
    std::string runStatus;       // runStatusName(), or empty when not known
    std::string runError;        // the error that ended the run, when there was one
    int schemaVersion = 0;       // of the file as it was opened
};

struct SaveOptions {
    std::string runStatus;  // runStatusName() of how the run ended; saved in SessionFileInfo
    std::string runError;
    // Called after each compile and run is written (done of total, in items): progress.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// Writes `session` to `path` in one transaction. A missing file is created; an existing
// irscope session file is replaced (atomically: a failure or a kill midway leaves the old
// one); any other existing file is refused (DbError, the file untouched).
void saveSession(const std::string& path, const Session& session,
                 const SaveOptions& options = {});

struct LoadedSession {
    std::shared_ptr<Session> session;
    SessionFileInfo info;
};

// Reads the session in `path` (read-only; the file is never changed). Throws DbError.
LoadedSession loadSession(const std::string& path);

// The file name extension of session files, dot included.
inline constexpr std::string_view kSessionExtension = ".irscope";

// True when `path` starts like an irscope session file (an SQLite file with its
// application_id): a cheap test for front ends choosing how to open a file.
bool looksLikeSessionFile(const std::string& path);

}  // namespace irscope::store
