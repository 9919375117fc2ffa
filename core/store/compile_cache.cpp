#include "store/compile_cache.h"

#include <fmt/chrono.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <system_error>

#include "irscope_version.h"
#include "store/db.h"
#include "util/sha256.h"

namespace irscope::store {

namespace {

// 'IRCC' in PRAGMA application_id: an irscope compile cache.
constexpr std::int32_t kCompileCacheAppId = 0x49524343;

const Schema& cacheSchema() {
    static const Schema schema{
        "irscope compile cache",
        kCompileCacheAppId,
        {
            [](Database& db) {
                db.exec(
                    "CREATE TABLE entries ("
                    "  key TEXT PRIMARY KEY,"          // CompileCacheKey::digest()
                    "  script TEXT NOT NULL,"          // the script's path
                    "  ordinal INTEGER NOT NULL,"      // the compile's position in the run
                    "  graph TEXT NOT NULL,"           // entry graph name
                    "  signature TEXT NOT NULL,"       // input signature
                    "  irscope_version TEXT NOT NULL,"
                    "  created_at TEXT NOT NULL,"      // UTC, ISO 8601
                    "  ir TEXT NOT NULL,"              // .ir text after validate
                    "  binding TEXT NOT NULL"          // JSON: how a call feeds the graph
                    ");"
                    "CREATE INDEX entries_slot ON entries(script, ordinal);");
            },
        }};
    return schema;
}

std::string nowUtc() {
    return fmt::format("{:%FT%TZ}", fmt::gmtime(std::time(nullptr)));
}

}  // namespace

std::filesystem::path compileCacheFile(const CompileCacheConfig& config) {
    const std::filesystem::path base = config.path.empty() ? "." : config.path;
    return base / "rank_0" / "graph_cache" / "compile_cache.sqlite";
}

std::string CompileCacheKey::digest() const {
    util::Sha256 h;
    h.add("irscope compile cache key v1").add(IRSCOPE_VERSION);
    h.add(std::to_string(dependencies.size()));
    for (const auto& [name, text] : dependencies) {
        h.add(util::sha256Hex(text));  // the contents, as MindSpore hashes its dependency files
    }
    passes::Settings compileSettings = settings;
    // Dump switches write files; they do not change what is compiled.
    for (std::string_view k :
         {passes::kSaveGraphs, passes::kSaveGraphsPath, passes::kDumpIrPasses}) {
        compileSettings.erase(k);
    }
    h.add(compileSettings.toString());
    h.add(std::to_string(ordinal)).add(target).add(signature);
    return h.hex();
}

CompileCache::CompileCache(const std::filesystem::path& file) : file_(file) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
        throw CompileCacheError(file.parent_path().string() +
                                ": cannot create the folder: " + ec.message());
    }
    try {
        db_ = std::make_unique<Database>(
            Database::open(file.string(), cacheSchema(), OpenMode::ReadWriteCreate));
    } catch (const DbError& e) {
        throw CompileCacheError(e.what());
    }
}

CompileCache::~CompileCache() = default;

std::optional<CachedCompile> CompileCache::find(const CompileCacheKey& key) {
    try {
        Statement q = db_->prepare(
            "SELECT graph, signature, ir, binding FROM entries WHERE key = ?1");
        q.bind(1, key.digest());
        if (!q.step()) {
            return std::nullopt;
        }
        CachedCompile c;
        c.graphName = q.getText(0);
        c.signature = q.getText(1);
        c.irText = q.getText(2);
        const nlohmann::json b = nlohmann::json::parse(q.getText(3));
        c.function = b.at("function").get<std::string>();
        c.source = b.at("source").get<std::vector<int>>();
        c.constants = b.at("constants").get<std::vector<std::string>>();
        c.used = b.at("used").get<std::vector<bool>>();
        c.weights = b.at("weights").get<std::vector<std::string>>();
        if (c.constants.size() != c.source.size()) {
            throw CompileCacheError(file_.string() + ": entry " + key.digest().substr(0, 12) +
                                    " is inconsistent (inputs and constants differ in number)");
        }
        return c;
    } catch (const DbError& e) {
        throw CompileCacheError(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw CompileCacheError(file_.string() + ": entry " + key.digest().substr(0, 12) +
                                " is unreadable: " + e.what());
    }
}

void CompileCache::store(const CompileCacheKey& key, const CachedCompile& entry) {
    nlohmann::json b;
    b["function"] = entry.function;
    b["source"] = entry.source;
    b["constants"] = entry.constants;
    b["used"] = entry.used;
    b["weights"] = entry.weights;
    try {
        Transaction t(*db_);
        db_->prepare("DELETE FROM entries WHERE script = ?1 AND ordinal = ?2")
            .bindAll(key.scriptPath, key.ordinal)
            .run();
        db_->prepare(
               "INSERT OR REPLACE INTO entries (key, script, ordinal, graph, signature, "
               "irscope_version, created_at, ir, binding) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
            .bindAll(key.digest(), key.scriptPath, key.ordinal, entry.graphName, entry.signature,
                     std::string(IRSCOPE_VERSION), nowUtc(), entry.irText, b.dump())
            .run();
        t.commit();
    } catch (const DbError& e) {
        throw CompileCacheError(e.what());
    }
}

std::int64_t CompileCache::size() {
    try {
        Statement q = db_->prepare("SELECT COUNT(*) FROM entries");
        q.step();
        return q.getInt(0);
    } catch (const DbError& e) {
        throw CompileCacheError(e.what());
    }
}

}  // namespace irscope::store
