// Compile settings: the environment variables and set_context options MindSpore reads
// while compiling, as a small ordered map of string or integer values with typed getters.
// The script's `os.environ[...] = ...` and `set_context(...)` fill it; passes read it
// through their PassContext; every CompileRecord keeps the settings it was compiled with.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace irscope::passes {

// Setting names, spelled as MindSpore's environment variables. set_context(save_graphs=N,
// save_graphs_path=DIR) sets the same two keys as MS_DEV_SAVE_GRAPHS(_PATH).
inline constexpr std::string_view kSideEffectLoadElim = "MS_DEV_SIDE_EFFECT_LOAD_ELIM";  // 0-3
inline constexpr std::string_view kCellReuse = "MS_DEV_CELL_REUSE";                      // 0-2
inline constexpr std::string_view kSaveGraphs = "MS_DEV_SAVE_GRAPHS";  // 0 off, 1-3 more files
inline constexpr std::string_view kSaveGraphsPath = "MS_DEV_SAVE_GRAPHS_PATH";  // dump folder
// Comma-separated sub-pass names whose IR is dumped below save-graphs level 3.
inline constexpr std::string_view kDumpIrPasses = "MS_DEV_DUMP_IR_PASSES";

class Settings {
public:
    using Value = std::variant<std::int64_t, std::string>;
    using Map = std::map<std::string, Value, std::less<>>;

    void set(std::string key, std::int64_t value);
    void set(std::string key, std::string value);
    bool erase(std::string_view key);

    bool has(std::string_view key) const { return items_.find(key) != items_.end(); }
    const Value* find(std::string_view key) const;

    // An integer setting. Strings are read as environment variables are: optional spaces
    // around a decimal integer, or True/False (any case) as 1/0. `fallback` when absent or
    // unreadable.
    std::int64_t getInt(std::string_view key, std::int64_t fallback = 0) const;
    // A string setting; integers are formatted in decimal. `fallback` when absent.
    std::string getString(std::string_view key, std::string fallback = {}) const;
    // getInt(key) != 0, with the same reading of strings.
    bool getBool(std::string_view key, bool fallback = false) const;

    const Map& items() const { return items_; }
    bool empty() const { return items_.empty(); }
    // "KEY=value KEY2=value2" in key order, for logs and record headers.
    std::string toString() const;

    bool operator==(const Settings&) const = default;

private:
    Map items_;
};

}  // namespace irscope::passes
