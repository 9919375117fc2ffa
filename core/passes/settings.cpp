#include "passes/settings.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace irscope::passes {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
        s.remove_suffix(1);
    }
    return s;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

std::optional<std::int64_t> readInt(std::string_view text) {
    text = trim(text);
    if (equalsIgnoringCase(text, "true")) {
        return 1;
    }
    if (equalsIgnoringCase(text, "false")) {
        return 0;
    }
    if (!text.empty() && text.front() == '+') {
        text.remove_prefix(1);
    }
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return v;
}

}  // namespace

void Settings::set(std::string key, std::int64_t value) {
    items_.insert_or_assign(std::move(key), Value(value));
}

void Settings::set(std::string key, std::string value) {
    items_.insert_or_assign(std::move(key), Value(std::move(value)));
}

bool Settings::erase(std::string_view key) {
    const auto it = items_.find(key);
    if (it == items_.end()) {
        return false;
    }
    items_.erase(it);
    return true;
}

const Settings::Value* Settings::find(std::string_view key) const {
    const auto it = items_.find(key);
    return it == items_.end() ? nullptr : &it->second;
}

std::int64_t Settings::getInt(std::string_view key, std::int64_t fallback) const {
    const Value* v = find(key);
    if (v == nullptr) {
        return fallback;
    }
    if (const auto* i = std::get_if<std::int64_t>(v)) {
        return *i;
    }
    return readInt(std::get<std::string>(*v)).value_or(fallback);
}

std::string Settings::getString(std::string_view key, std::string fallback) const {
    const Value* v = find(key);
    if (v == nullptr) {
        return fallback;
    }
    if (const auto* i = std::get_if<std::int64_t>(v)) {
        return std::to_string(*i);
    }
    return std::get<std::string>(*v);
}

bool Settings::getBool(std::string_view key, bool fallback) const {
    return getInt(key, fallback ? 1 : 0) != 0;
}

std::string Settings::toString() const {
    std::string out;
    for (const auto& [key, value] : items_) {
        if (!out.empty()) {
            out += ' ';
        }
        out += key + "=" + getString(key);
    }
    return out;
}

}  // namespace irscope::passes
