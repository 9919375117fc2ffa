#include "session/stats_csv.h"

#include <fmt/format.h>

#include <optional>

#include "session/pass_stats.h"

namespace irscope::session {

namespace {

std::string number(double v) { return fmt::format("{:.3f}", v); }

template <typename T>
std::string optionalNumber(const std::optional<T>& v) {
    return v ? fmt::format("{}", *v) : std::string();
}

}  // namespace

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') {
            out += '"';
        }
        out += c;
    }
    return out + "\"";
}

std::string passStatsCsv(const passes::CompileRecord& rec) {
    std::string out =
        "index,pass,depth,round,wall_ms,graphs,nodes,cnodes,delta_nodes,changed,peak_bytes,error\r\n";
    int index = 0;
    for (std::size_t i : passDisplayOrder(rec)) {
        const passes::PassSnapshot& s = rec.snapshots[i];
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\r\n", index++, csvField(s.pass), s.depth,
                           s.depth > 0 ? std::to_string(s.round) : std::string(), number(s.millis),
                           s.counts().graphs, s.counts().nodes, s.counts().cnodes,
                           optionalNumber(nodeDelta(rec, i)), s.changed() ? 1 : 0,
                           optionalNumber(s.peakBytes), csvField(s.failure()));
    }
    return out;
}

std::string compileTotalsCsv(const store::Session& s) {
    std::string out =
        "index,graph,signature,status,failed_pass,total_ms,passes,nodes_parse,nodes_opt_a,"
        "nodes_final,cnodes_final,graphs_final,peak_bytes\r\n";
    int index = 0;
    for (const passes::CompileRecord& rec : s.compiles) {
        auto nodesAfter = [&rec](std::string_view pass) {
            const passes::PassSnapshot* p = rec.find(pass);
            return p != nullptr ? std::to_string(p->counts().nodes) : std::string();
        };
        std::optional<std::uint64_t> peak;
        for (const passes::PassSnapshot& snap : rec.snapshots) {
            if (snap.peakBytes && (!peak || *snap.peakBytes > *peak)) {
                peak = snap.peakBytes;
            }
        }
        const passes::PassSnapshot* last = rec.snapshots.empty() ? nullptr : &rec.snapshots.back();
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", index++, csvField(rec.graphName),
                           csvField(rec.signature), passes::statusName(rec.status),
                           csvField(rec.failedPass), number(rec.totalMillis), rec.snapshots.size(),
                           nodesAfter("parse"), nodesAfter("opt_a"),
                           last != nullptr ? std::to_string(last->counts().nodes) : std::string(),
                           last != nullptr ? std::to_string(last->counts().cnodes) : std::string(),
                           last != nullptr ? std::to_string(last->counts().graphs) : std::string(),
                           optionalNumber(peak));
    }
    return out;
}

}  // namespace irscope::session
