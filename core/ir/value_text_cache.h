// ValueTextCache: the printed text of tensor constants, kept across the printing of the
// several states of one compile. A compile's snapshots print every weight's value in every
// state's header (4.9 MB of the 25 MB text of a 384-block training step), and a weight's
// default value does not change while the compile runs. The cache is keyed by the Value
// object, which it keeps alive so that no other value can take its address. It belongs to
// one compile: a value the executor updates in place later must not be printed from it.
// Thread-safe: the snapshot printer and the compile's thread may print at once.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "ir/ir_text.h"
#include "ir/value.h"

namespace irscope::ir {

class ValueTextCache {
public:
    // The text of `v`, formatted by `format` the first time it is asked for.
    std::string text(const ValuePtr& v, const std::function<std::string(const Value&)>& format);

private:
    std::mutex mutex_;
    std::unordered_map<const Value*, std::pair<ValuePtr, std::string>> texts_;
};

// printIr, formatting tensor constants through `cache`.
std::string printIr(const Module& m, const PrintOptions& opts, ValueTextCache& cache);

}  // namespace irscope::ir
