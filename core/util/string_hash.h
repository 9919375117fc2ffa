#pragma once
// A transparent string hash: an unordered container keyed by std::string can be searched
// with a std::string_view (or a literal) without building a std::string for the key.
//   std::unordered_map<std::string, T, util::StringHash, std::equal_to<>>
#include <cstddef>
#include <functional>
#include <string_view>

namespace irscope::util {

struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept {
        return std::hash<std::string_view>{}(s);
    }
};

}  // namespace irscope::util
