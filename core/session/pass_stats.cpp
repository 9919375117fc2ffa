#include "session/pass_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

namespace irscope::session {

namespace {

// A formatted table row without trailing blanks.
template <typename... Args>
std::string row(fmt::format_string<Args...> f, Args&&... args) {
    std::string s = fmt::format(f, std::forward<Args>(args)...);
    s.erase(s.find_last_not_of(' ') + 1);
    return s + "\n";
}

}  // namespace

std::vector<std::size_t> passDisplayOrder(const passes::CompileRecord& rec) {
    const auto& snaps = rec.snapshots;
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < snaps.size(); ++i) {
        if (snaps[i].depth > 0 && (i == 0 || snaps[i - 1].depth == 0)) {
            std::size_t group = i;
            while (group < snaps.size() && snaps[group].depth > 0) {
                ++group;
            }
            if (group < snaps.size()) {
                rows.push_back(group);
            }
        }
        if (snaps[i].depth > 0 || rows.empty() || rows.back() != i) {
            rows.push_back(i);
        }
    }
    std::vector<std::size_t> order;
    std::set<std::size_t> shown;
    for (std::size_t i : rows) {
        if (shown.insert(i).second) {
            order.push_back(i);
        }
    }
    return order;
}

std::optional<std::size_t> previousSnapshot(const passes::CompileRecord& rec, std::size_t i) {
    const auto& snaps = rec.snapshots;
    if (i >= snaps.size()) {
        return std::nullopt;
    }
    std::size_t j = i;
    if (snaps[i].depth == 0) {
        while (j > 0 && snaps[j - 1].depth > 0) {
            --j;
        }
    }
    if (j == 0) {
        return std::nullopt;
    }
    return j - 1;
}

std::optional<long long> nodeDelta(const passes::CompileRecord& rec, std::size_t i) {
    const std::optional<std::size_t> before = previousSnapshot(rec, i);
    if (!before) {
        return std::nullopt;
    }
    return static_cast<long long>(rec.snapshots[i].counts().nodes) -
           static_cast<long long>(rec.snapshots[*before].counts().nodes);
}

std::string formatPassStats(const passes::CompileRecord& rec, std::size_t index) {
    std::ostringstream os;
    const std::string rule(104, '-');
    os << rule << "\n"
       << fmt::format("Pass statistics, compile {}: @{} {}\n", index + 1, rec.graphName,
                      rec.signature);
    if (!rec.trigger.empty()) {
        os << "  trigger:  " << rec.trigger << "\n";
    }
    if (!rec.settings.empty()) {
        os << "  settings: " << rec.settings.toString() << "\n";
    }
    if (rec.fromCache) {
        os << fmt::format(
            "  from the compile cache: loaded in {:.3f} ms; front end and optimizer skipped\n",
            rec.cacheLoadMillis);
    }
    os << rule << "\n"
       << fmt::format("{:<34} {:>5} {:>10} {:>7} {:>6} {:>7} {:>7} {:>8} {:>7} {:>10}\n", "pass",
                      "round", "wall ms", "%", "graphs", "nodes", "cnodes", "delta", "changed",
                      "peak bytes");
    const double total = rec.totalMillis > 0.0 ? rec.totalMillis : 1.0;
    const auto& snaps = rec.snapshots;
    for (std::size_t i : passDisplayOrder(rec)) {
        const passes::PassSnapshot& s = snaps[i];
        const std::string indent(static_cast<std::size_t>(s.depth) * 2, ' ');
        std::string name = s.pass;
        if (s.depth > 0) {
            name = name.substr(name.rfind('/') + 1);
        }
        const std::optional<long long> change = nodeDelta(rec, i);
        const std::string delta = change ? fmt::format("{:+}", *change) : std::string("-");
        os << row("{:<34} {:>5} {:>10.3f} {:>6.1f}% {:>6} {:>7} {:>7} {:>8} {:>7} {:>10}",
                  indent + name, s.depth > 0 ? std::to_string(s.round) : std::string(), s.millis,
                  100.0 * s.millis / total, s.counts().graphs, s.counts().nodes, s.counts().cnodes, delta,
                  !s.failure().empty() ? "error" : (s.changed() ? "*" : ""),
                  s.peakBytes ? std::to_string(*s.peakBytes) : std::string());
    }
    // What the top-level passes do not account for: snapshots, change detection and
    // save_graphs dumps around every pass (a group's children's included).
    double passMillis = 0.0;
    for (const passes::PassSnapshot& s : snaps) {
        passMillis += s.depth == 0 ? s.millis : 0.0;
    }
    const double instrumentation = std::max(0.0, rec.totalMillis - passMillis);
    os << row("{:<34} {:>5} {:>10.3f} {:>6.1f}%", "(snapshots, dumps)", "", instrumentation,
              100.0 * instrumentation / total);
    const passes::PassSnapshot* last = snaps.empty() ? nullptr : &snaps.back();
    os << row("{:<34} {:>5} {:>10.3f} {:>6.1f}% {:>6} {:>7} {:>7} {:>8} {:>7} {:>10}", "total", "",
              rec.totalMillis, 100.0, last ? last->counts().graphs : 0, last ? last->counts().nodes : 0,
              last ? last->counts().cnodes : 0, "", "",
              last && last->peakBytes ? std::to_string(*last->peakBytes) : std::string());
    if (rec.status != passes::CompileStatus::Ok) {
        os << "  compile stopped at " << (rec.failedPass.empty() ? "?" : rec.failedPass) << ": "
           << rec.error << "\n";
    }
    for (const std::string& w : rec.warnings) {
        os << "  warning: " << w << "\n";
    }
    return os.str();
}

}  // namespace irscope::session
