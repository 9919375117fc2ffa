#include "store/session_file.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <zlib.h>

#include <array>
#include <chrono>
#include <fstream>
#include <map>
#include <unordered_map>
#include <utility>
#include <variant>

#include "irscope_version.h"

namespace irscope::store {

namespace {

constexpr std::int32_t kSessionAppId = 0x49525353;  // "IRSS"

// Schema 1. Settings: scope 0 is the session's, scope N the settings of compile N - 1. IR
// text: one row per distinct compressed text; snapshots that share a text share its row.
constexpr const char* kSchema1 = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE setting (
    scope INTEGER NOT NULL, key TEXT NOT NULL, int_value INTEGER, text_value TEXT,
    PRIMARY KEY (scope, key)) WITHOUT ROWID;
CREATE TABLE compile (
    seq INTEGER PRIMARY KEY, graph_name TEXT NOT NULL, signature TEXT NOT NULL,
    trigger TEXT NOT NULL, status TEXT NOT NULL, failed_pass TEXT NOT NULL,
    error TEXT NOT NULL, total_ms REAL NOT NULL);
CREATE TABLE compile_warning (
    compile INTEGER NOT NULL REFERENCES compile (seq), seq INTEGER NOT NULL,
    text TEXT NOT NULL, PRIMARY KEY (compile, seq)) WITHOUT ROWID;
CREATE TABLE ir_text (
    id INTEGER PRIMARY KEY, raw_size INTEGER NOT NULL, crc32 INTEGER NOT NULL,
    zstd BLOB NOT NULL);
CREATE TABLE snapshot (
    compile INTEGER NOT NULL REFERENCES compile (seq), seq INTEGER NOT NULL,
    pass TEXT NOT NULL, description TEXT NOT NULL, depth INTEGER NOT NULL,
    round INTEGER NOT NULL, millis REAL NOT NULL, graphs INTEGER NOT NULL,
    nodes INTEGER NOT NULL, cnodes INTEGER NOT NULL, changed INTEGER NOT NULL,
    reported_change INTEGER NOT NULL, peak_bytes INTEGER, error TEXT NOT NULL,
    ir INTEGER REFERENCES ir_text (id), PRIMARY KEY (compile, seq)) WITHOUT ROWID;
CREATE TABLE run (
    seq INTEGER PRIMARY KEY, graph_name TEXT NOT NULL, compile INTEGER NOT NULL,
    device TEXT NOT NULL, millis REAL NOT NULL, kernels INTEGER NOT NULL,
    kernels_on_device INTEGER NOT NULL, fallbacks INTEGER NOT NULL,
    copies_to_device INTEGER NOT NULL, copies_to_host INTEGER NOT NULL,
    bytes_copied INTEGER NOT NULL, peak_bytes INTEGER NOT NULL,
    planned_peak_bytes INTEGER NOT NULL, outputs TEXT NOT NULL, error TEXT NOT NULL);
CREATE TABLE run_message (
    run INTEGER NOT NULL REFERENCES run (seq), seq INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (run, seq)) WITHOUT ROWID;
CREATE TABLE run_op (
    run INTEGER NOT NULL REFERENCES run (seq), on_device INTEGER NOT NULL, op TEXT NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (run, on_device, op)) WITHOUT ROWID;
)sql";

// Schema 2: whether each compile came from the compile cache and the time it took to load;
// each run's output values as Print writes them.
constexpr const char* kSchema2 = R"sql(
ALTER TABLE compile ADD COLUMN from_cache INTEGER NOT NULL DEFAULT 0;
ALTER TABLE compile ADD COLUMN cache_load_ms REAL NOT NULL DEFAULT 0;
ALTER TABLE run ADD COLUMN output_values TEXT NOT NULL DEFAULT '';
)sql";

constexpr std::array<const char*, 9> kTables = {"meta",     "setting", "compile_warning",
                                                "snapshot", "ir_text", "run_message",
                                                "run_op",   "run",     "compile"};

std::uint32_t crc32Of(std::string_view text) {
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0L, nullptr, 0), reinterpret_cast<const Bytef*>(text.data()), text.size()));
}

std::string nowUtc() {
    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now);
}

// --- writing ---------------------------------------------------------------------------------

void writeSettings(Database& db, std::int64_t scope, const passes::Settings& settings) {
    Statement ins = db.prepare(
        "INSERT INTO setting (scope, key, int_value, text_value) VALUES (?1, ?2, ?3, ?4)");
    for (const auto& [key, value] : settings.items()) {
        ins.bind(1, scope).bind(2, key);
        if (const auto* i = std::get_if<std::int64_t>(&value)) {
            ins.bind(3, *i).bind(4, std::nullopt);
        } else {
            ins.bind(3, std::nullopt).bind(4, std::get<std::string>(value));
        }
        ins.run();
    }
}

void writeSession(Database& db, const Session& s, const SaveOptions& options) {
    for (const char* table : kTables) {
        db.exec(fmt::format("DELETE FROM {}", table));
    }
    Statement meta = db.prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)");
    const std::pair<const char*, std::string> metas[] = {
        {"irscope_version", IRSCOPE_VERSION},
        {"saved_at", nowUtc()},
        {"script_path", s.scriptPath},
        {"script_text", s.scriptText},
        {"output", s.output},
        {"run_status", options.runStatus},
        {"run_error", options.runError},
    };
    for (const auto& [key, value] : metas) {
        meta.bindAll(key, value).run();
    }
    writeSettings(db, 0, s.settings);

    const std::size_t total = s.compiles.size() + s.runs.size();
    std::size_t done = 0;
    Statement compile = db.prepare(
        "INSERT INTO compile (seq, graph_name, signature, trigger, status, failed_pass, error, "
        "total_ms, from_cache, cache_load_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    Statement warning =
        db.prepare("INSERT INTO compile_warning (compile, seq, text) VALUES (?1, ?2, ?3)");
    Statement irText =
        db.prepare("INSERT INTO ir_text (raw_size, crc32, zstd) VALUES (?1, ?2, ?3)");
    Statement snapshot = db.prepare(
        "INSERT INTO snapshot (compile, seq, pass, description, depth, round, millis, graphs, "
        "nodes, cnodes, changed, reported_change, peak_bytes, error, ir) VALUES (?1, ?2, ?3, "
        "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    // Shared texts are written once (the same object in memory is the same row).
    std::unordered_map<const util::CompressedText*, std::int64_t> textIds;
    for (std::size_t c = 0; c < s.compiles.size(); ++c) {
        const passes::CompileRecord& rec = s.compiles[c];
        compile
            .bindAll(c, rec.graphName, rec.signature, rec.trigger,
                     std::string(passes::statusName(rec.status)), rec.failedPass, rec.error,
                     rec.totalMillis, rec.fromCache, rec.cacheLoadMillis)
            .run();
        writeSettings(db, static_cast<std::int64_t>(c) + 1, rec.settings);
        for (std::size_t w = 0; w < rec.warnings.size(); ++w) {
            warning.bindAll(c, w, rec.warnings[w]).run();
        }
        for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
            const passes::PassSnapshot& snap = rec.snapshots[i];
            std::optional<std::int64_t> ir;
            if (const util::CompressedText* t = snap.compressed().get()) {
                auto [it, fresh] = textIds.try_emplace(t, 0);
                if (fresh) {
                    // The CRC is of the text: it catches damage that still decompresses.
                    irText.bindAll(t->rawSize(), std::int64_t{crc32Of(t->text())}, Blob{t->bytes()})
                        .run();
                    it->second = db.lastInsertRowId();
                }
                ir = it->second;
            }
            std::optional<std::int64_t> peak;
            if (snap.peakBytes) {
                peak = static_cast<std::int64_t>(*snap.peakBytes);
            }
            snapshot
                .bindAll(c, i, snap.pass, snap.description, snap.depth, snap.round, snap.millis,
                         snap.counts().graphs, snap.counts().nodes, snap.counts().cnodes, snap.changed(),
                         snap.reportedChange, peak, snap.failure(), ir)
                .run();
        }
        if (options.progress) {
            options.progress(++done, total);
        }
    }

    Statement run = db.prepare(
        "INSERT INTO run (seq, graph_name, compile, device, millis, kernels, kernels_on_device, "
        "fallbacks, copies_to_device, copies_to_host, bytes_copied, peak_bytes, "
        "planned_peak_bytes, outputs, error, output_values) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
        "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    Statement message = db.prepare("INSERT INTO run_message (run, seq, text) VALUES (?1, ?2, ?3)");
    Statement op =
        db.prepare("INSERT INTO run_op (run, on_device, op, count) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t r = 0; r < s.runs.size(); ++r) {
        const RunRecord& rec = s.runs[r];
        const runtime::RunStats& st = rec.stats;
        run.bindAll(r, rec.graphName, rec.compile, st.device, st.millis, st.kernels,
                    st.kernelsOnDevice, st.fallbacks, st.copiesToDevice, st.copiesToHost,
                    st.bytesCopied, st.peakBytes, st.plannedPeakBytes, rec.outputs, rec.error,
                    rec.values)
            .run();
        for (std::size_t m = 0; m < st.messages.size(); ++m) {
            message.bindAll(r, m, st.messages[m]).run();
        }
        for (const auto& [name, n] : st.opsOnDevice) {
            op.bindAll(r, true, name, n).run();
        }
        for (const auto& [name, n] : st.opsOnCpu) {
            op.bindAll(r, false, name, n).run();
        }
        if (options.progress) {
            options.progress(++done, total);
        }
    }
}

// --- reading ---------------------------------------------------------------------------------

// Errors in content the file's own rules forbid.
[[noreturn]] void invalid(const std::string& path, const std::string& what) {
    throw DbError(DbError::Kind::Invalid, path, "invalid session file: " + what);
}

std::size_t toSize(const Statement& s, int col) {
    return static_cast<std::size_t>(s.getUInt(col));
}

std::map<std::int64_t, passes::Settings> readSettings(const Database& db) {
    std::map<std::int64_t, passes::Settings> out;
    Statement s = db.prepare("SELECT scope, key, int_value, text_value FROM setting");
    while (s.step()) {
        passes::Settings& settings = out[s.getInt(0)];
        if (!s.isNull(2)) {
            settings.set(s.getText(1), s.getInt(2));
        } else {
            settings.set(s.getText(1), s.getText(3));
        }
    }
    return out;
}

passes::PipelineStatus statusFrom(const std::string& name, const std::string& path,
                                  std::size_t compile) {
    for (auto st : {passes::PipelineStatus::Ok, passes::PipelineStatus::Error,
                    passes::PipelineStatus::Cancelled}) {
        if (passes::statusName(st) == name) {
            return st;
        }
    }
    invalid(path, fmt::format("compile {} has the unknown status '{}'", compile + 1, name));
}

void readCompiles(const Database& db, Session& s,
                  std::map<std::int64_t, passes::Settings>& settings) {
    const std::string& path = db.path();
    Statement c = db.prepare(
        "SELECT seq, graph_name, signature, trigger, status, failed_pass, error, total_ms, "
        "from_cache, cache_load_ms FROM compile ORDER BY seq");
    while (c.step()) {
        const std::size_t seq = toSize(c, 0);
        if (seq != s.compiles.size()) {
            invalid(path, fmt::format("compile {} is missing", s.compiles.size() + 1));
        }
        passes::CompileRecord& rec = s.compiles.emplace_back();
        rec.graphName = c.getText(1);
        rec.signature = c.getText(2);
        rec.trigger = c.getText(3);
        rec.status = statusFrom(c.getText(4), path, seq);
        rec.failedPass = c.getText(5);
        rec.error = c.getText(6);
        rec.totalMillis = c.getDouble(7);
        rec.fromCache = c.getInt(8) != 0;
        rec.cacheLoadMillis = c.getDouble(9);
        rec.settings = std::move(settings[static_cast<std::int64_t>(seq) + 1]);
    }
    Statement w = db.prepare("SELECT compile, text FROM compile_warning ORDER BY compile, seq");
    while (w.step()) {
        const std::size_t compile = toSize(w, 0);
        if (compile >= s.compiles.size()) {
            invalid(path,
                    fmt::format("a warning of compile {}, which is not in the file", compile + 1));
        }
        s.compiles[compile].warnings.push_back(w.getText(1));
    }

    // Texts are loaded (and checked) when a snapshot first uses them, so that a damaged one
    // is reported with the compile and pass that show it.
    std::unordered_map<std::int64_t, std::shared_ptr<const util::CompressedText>> texts;
    Statement text = db.prepare("SELECT raw_size, crc32, zstd FROM ir_text WHERE id = ?1");
    Statement snap = db.prepare(
        "SELECT compile, seq, pass, description, depth, round, millis, graphs, nodes, cnodes, "
        "changed, reported_change, peak_bytes, error, ir FROM snapshot ORDER BY compile, seq");
    while (snap.step()) {
        const std::size_t compile = toSize(snap, 0);
        if (compile >= s.compiles.size()) {
            invalid(path,
                    fmt::format("a snapshot of compile {}, which is not in the file", compile + 1));
        }
        passes::CompileRecord& rec = s.compiles[compile];
        passes::PassSnapshot& p = rec.snapshots.emplace_back();
        p.pass = snap.getText(2);
        p.description = snap.getText(3);
        p.depth = static_cast<int>(snap.getInt(4));
        p.round = static_cast<int>(snap.getInt(5));
        p.millis = snap.getDouble(6);
        p.setCounts({toSize(snap, 7), toSize(snap, 8), toSize(snap, 9)});
        p.setChanged(snap.getInt(10) != 0);
        p.reportedChange = snap.getInt(11) != 0;
        if (!snap.isNull(12)) {
            p.peakBytes = snap.getUInt(12);
        }
        p.error = snap.getText(13);
        if (snap.isNull(14)) {
            continue;
        }
        const std::int64_t id = snap.getInt(14);
        auto [it, fresh] = texts.try_emplace(id);
        if (fresh) {
            const std::string where =
                fmt::format("compile {} ({}), pass {}", compile + 1, rec.graphName, p.pass);
            text.bind(1, id);
            if (!text.step()) {
                text.reset();
                invalid(path, where + ": its IR text is missing");
            }
            const std::size_t rawSize = toSize(text, 0);
            const auto crc = static_cast<std::uint32_t>(text.getInt(1));
            std::string bytes = text.getBlob(2);
            text.reset();
            std::string plain;
            try {
                it->second = std::make_shared<const util::CompressedText>(
                    util::CompressedText::fromBytes(std::move(bytes), rawSize, &plain));
            } catch (const std::runtime_error& e) {
                throw DbError(DbError::Kind::Corrupt, path,
                              "file is corrupt (" + where + ": " + e.what() + ")");
            }
            if (crc32Of(plain) != crc) {
                throw DbError(
                    DbError::Kind::Corrupt, path,
                    "file is corrupt (" + where + ": the IR text does not match its checksum)");
            }
        }
        p.setCompressed(it->second);
    }
}

void readRuns(const Database& db, Session& s) {
    const std::string& path = db.path();
    Statement r = db.prepare(
        "SELECT seq, graph_name, compile, device, millis, kernels, kernels_on_device, fallbacks, "
        "copies_to_device, copies_to_host, bytes_copied, peak_bytes, planned_peak_bytes, "
        "outputs, error, output_values FROM run ORDER BY seq");
    while (r.step()) {
        if (toSize(r, 0) != s.runs.size()) {
            invalid(path, fmt::format("run {} is missing", s.runs.size() + 1));
        }
        RunRecord& rec = s.runs.emplace_back();
        rec.graphName = r.getText(1);
        rec.compile = toSize(r, 2);
        if (rec.compile >= s.compiles.size()) {
            invalid(path, fmt::format("run {} refers to compile {}, which is not in the file",
                                      s.runs.size(), rec.compile + 1));
        }
        runtime::RunStats& st = rec.stats;
        st.device = r.getText(3);
        st.millis = r.getDouble(4);
        st.kernels = r.getUInt(5);
        st.kernelsOnDevice = r.getUInt(6);
        st.fallbacks = r.getUInt(7);
        st.copiesToDevice = r.getUInt(8);
        st.copiesToHost = r.getUInt(9);
        st.bytesCopied = r.getUInt(10);
        st.peakBytes = r.getUInt(11);
        st.plannedPeakBytes = r.getUInt(12);
        rec.outputs = r.getText(13);
        rec.values = r.getText(15);
        rec.error = r.getText(14);
    }
    auto runAt = [&](const Statement& st, const char* what) -> runtime::RunStats& {
        const std::size_t run = toSize(st, 0);
        if (run >= s.runs.size()) {
            invalid(path, fmt::format("{} of run {}, which is not in the file", what, run + 1));
        }
        return s.runs[run].stats;
    };
    Statement m = db.prepare("SELECT run, text FROM run_message ORDER BY run, seq");
    while (m.step()) {
        runAt(m, "a message").messages.push_back(m.getText(1));
    }
    Statement o = db.prepare("SELECT run, on_device, op, count FROM run_op");
    while (o.step()) {
        runtime::RunStats& st = runAt(o, "an op count");
        (o.getInt(1) != 0 ? st.opsOnDevice : st.opsOnCpu)[o.getText(2)] = o.getUInt(3);
    }
}

}  // namespace

std::string runStatusName(interp::RunResult::Status status) {
    using S = interp::RunResult::Status;
    switch (status) {
        case S::Ok:
            return "ok";
        case S::Cancelled:
            return "cancelled";
        case S::StepLimit:
            return "step limit";
        case S::Exception:
        case S::SyntaxError:
        case S::SystemExit:
            return "error";
    }
    return "error";
}

interp::RunResult::Status runStatusFromName(std::string_view name) {
    using S = interp::RunResult::Status;
    if (name == "cancelled") {
        return S::Cancelled;
    }
    if (name == "step limit") {
        return S::StepLimit;
    }
    return name == "error" ? S::Exception : S::Ok;
}

const Schema& sessionSchema() {
    static const Schema schema{
        "irscope session file",
        kSessionAppId,
        {[](Database& db) { db.exec(kSchema1); }, [](Database& db) { db.exec(kSchema2); }}};
    return schema;
}

void saveSession(const std::string& path, const Session& session,
                 const SaveOptions& options) {
    Database db = Database::open(path, sessionSchema(), OpenMode::ReadWriteCreate);
    {
        Transaction t(db);
        writeSession(db, session, options);
        t.commit();
    }
    // Give back the pages of a replaced, larger session.
    db.exec("PRAGMA incremental_vacuum");
}

LoadedSession loadSession(const std::string& path) {
    Database db = Database::open(path, sessionSchema(), OpenMode::ReadOnly);
    LoadedSession out;
    out.session = std::make_shared<Session>();
    Session& s = *out.session;
    // One read transaction: a consistent view even if a writer commits meanwhile.
    db.exec("BEGIN");
    std::map<std::string, std::string> meta;
    {
        Statement m = db.prepare("SELECT key, value FROM meta");
        while (m.step()) {
            meta[m.getText(0)] = m.getText(1);
        }
    }
    if (!meta.contains("script_path")) {
        invalid(path, "it has no script");
    }
    out.info.irscopeVersion = meta["irscope_version"];
    out.info.savedAt = meta["saved_at"];
    out.info.runStatus = meta["run_status"];
    out.info.runError = meta["run_error"];
    out.info.schemaVersion = db.fileSchemaVersion();
    s.scriptPath = meta["script_path"];
    s.scriptText = meta["script_text"];
    s.output = meta["output"];
    auto settings = readSettings(db);
    s.settings = std::move(settings[0]);
    readCompiles(db, s, settings);
    readRuns(db, s);
    db.exec("COMMIT");
    return out;
}

bool looksLikeSessionFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::array<unsigned char, 100> h{};
    in.read(reinterpret_cast<char*>(h.data()), static_cast<std::streamsize>(h.size()));
    if (in.gcount() != static_cast<std::streamsize>(h.size()) ||
        std::string_view(reinterpret_cast<const char*>(h.data()), 16) !=
            std::string_view("SQLite format 3\0", 16)) {
        return false;
    }
    const std::uint32_t appId = (std::uint32_t{h[68]} << 24U) | (std::uint32_t{h[69]} << 16U) |
                                (std::uint32_t{h[70]} << 8U) | h[71];
    return appId == static_cast<std::uint32_t>(kSessionAppId);
}

}  // namespace irscope::store
