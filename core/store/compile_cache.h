// The compilation cache (MindSpore's enable_compile_cache / MS_COMPILER_CACHE_ENABLE): the
// result of every compile, stored in one SQLite file under the cache folder, so that the next
// run of an unchanged script skips the front end and the optimizer and runs only the backend
// actions (task_emit) on the stored IR.
//
//   set_context(enable_compile_cache=True, compile_cache_path="my_compile_cache")
//   -> my_compile_cache/rank_0/graph_cache/compile_cache.sqlite
//
// An entry is found by a key that hashes (SHA-256) everything that decides a compile: the
// script's text and the local modules it imports (MindSpore's "dependency files"), the
// settings that change compiles (MS_DEV_SIDE_EFFECT_LOAD_ELIM, MS_DEV_CELL_REUSE...; not the
// dump switches), irscope's version, and the compile's identity: its position in the run
// (MindSpore's compile_cache_id), the compiled function and the input signature. Editing
// any of them makes another key: a miss, which compiles and replaces the entry of the same
// script and position.
//
// What an entry holds: the IR as `validate` left it (the .ir text), and how a call feeds it
// (which call argument each entry input comes from, constants parse bound itself, the names
// of the weights, bound to the script's Parameters by name when the entry is used).
//
// The file is an irscope compile cache (store/db.h checks it); a corrupt, truncated,
// foreign or newer-schema file is reported (CompileCacheError) and never written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "passes/settings.h"

namespace irscope::store {

class Database;

// Whether the cache is on and its folder, from the environment (MS_COMPILER_CACHE_ENABLE,
// MS_COMPILER_CACHE_PATH) and set_context (enable_compile_cache, compile_cache_path), the
// context winning, as in MindSpore. An empty path is MindSpore's default: the current folder.
struct CompileCacheConfig {
    bool enabled = false;
    std::string path;
};

// <path>/rank_0/graph_cache/compile_cache.sqlite (MindSpore's layout: rank 0 of a
// single-process run, then graph_cache).
std::filesystem::path compileCacheFile(const CompileCacheConfig& config);

// Everything that decides one compile's result; digest() is the entry's key.
struct CompileCacheKey {
    std::string scriptPath;  // as the run names it (to replace the entry of an edited script)
    std::vector<std::pair<std::string, std::string>> dependencies;  // (file name, text)
    passes::Settings settings;  // the compile's settings (dump switches are left out)
    int ordinal = 0;            // the compile's position in the run, from 0
    std::string target;         // the compiled function: "Net.construct", "func"
    std::string signature;      // input signature, without object addresses

    std::string digest() const;
};

// How a call feeds a stored graph (GraphCompilerImpl's input binding).
struct CachedCompile {
    std::string graphName;
    std::string signature;
    std::string function;  // the Python function compiled ("construct", "func")
    std::string irText;    // the module after validate
    // Per entry input: the index in the call's flattened arguments, or -1 for a constant
    // parse bound itself, kept in `constants` (.ir value text) at the same index.
    std::vector<int> source;
    std::vector<std::string> constants;
    std::vector<bool> used;  // per flattened argument: some entry input comes from it
    std::vector<std::string> weights;  // entry parameters bound to host Parameters by name
};

// A cache file that cannot be used (unreadable, corrupt, foreign, newer schema, locked).
class CompileCacheError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class CompileCache {
public:
    // Opens `file`, creating it and its folders when missing. Throws CompileCacheError.
    explicit CompileCache(const std::filesystem::path& file);
    ~CompileCache();
    CompileCache(const CompileCache&) = delete;
    CompileCache& operator=(const CompileCache&) = delete;

    const std::filesystem::path& file() const { return file_; }

    // The entry stored under key.digest(), or nullopt. Throws CompileCacheError when the
    // entry cannot be read back.
    std::optional<CachedCompile> find(const CompileCacheKey& key);
    // Stores `entry` under `key`, replacing the entry of the same script and position (an
    // edited script's stale result). Throws CompileCacheError.
    void store(const CompileCacheKey& key, const CachedCompile& entry);

    // Entries in the file (tests, `irscope-cli` diagnostics).
    std::int64_t size();

private:
    std::filesystem::path file_;
    std::unique_ptr<Database> db_;
};

}  // namespace irscope::store
