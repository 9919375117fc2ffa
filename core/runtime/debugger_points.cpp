// The debugger's locations and watch conditions: parsing what the user typed, resolving it
// against a module's graphs, and evaluating watch conditions on kernel outputs.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "runtime/debugger_impl.h"

namespace irscope::runtime::debug {

namespace {

std::string_view trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) {
        return {};
    }
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

bool allDigits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::size_t parseIndex(std::string_view digits, std::string_view whole) {
    std::size_t n = 0;
    const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || p != digits.data() + digits.size()) {
        throw DebugError("Bad node '" + std::string(whole) +
                         "': expected %N as the .ir listing prints it, e.g. %12.");
    }
    return n;
}

Location parseNode(std::string_view s, std::string_view whole, bool allowParams) {
    // s starts with '%'
    const std::string_view rest = s.substr(1);
    if (rest.starts_with("para")) {
        if (!allowParams) {
            throw DebugError("'" + std::string(whole) +
                             "' is a parameter: it is not a kernel, so nothing runs there.");
        }
        std::string_view body = rest.substr(4);
        std::size_t digits = 0;
        while (digits < body.size() && body[digits] >= '0' && body[digits] <= '9') {
            ++digits;
        }
        Location loc;
        loc.kind = Location::Kind::Parameter;
        if (digits == 0) {
            throw DebugError("Bad parameter '" + std::string(whole) +
                             "': expected %para<k>_name as the .ir listing prints it.");
        }
        loc.number = parseIndex(body.substr(0, digits), whole);
        body = body.substr(digits);
        if (body.starts_with("_")) {
            loc.text = std::string(body.substr(1));
        }
        return loc;
    }
    if (!allDigits(rest)) {
        throw DebugError("Bad node '" + std::string(whole) +
                         "': expected %N as the .ir listing prints it, e.g. %12.");
    }
    Location loc;
    loc.kind = Location::Kind::Node;
    loc.number = parseIndex(rest, whole);
    return loc;
}

}  // namespace

Location parseLocation(std::string_view text, bool allowParams) {
    const std::string_view s = trim(text);
    if (s.empty()) {
        throw DebugError(
            "A location is needed: %N, @GRAPH:%N, an op type (AddN), FILE:LINE "
            "or a node name.");
    }
    if (s.find_first_of(" \t") != std::string_view::npos) {
        throw DebugError("Bad location '" + std::string(s) + "': it has spaces.");
    }
    if (s.front() == '%') {
        return parseNode(s, s, allowParams);
    }
    if (s.front() == '@') {
        const auto sep = s.rfind(":%");
        if (sep == std::string_view::npos || sep <= 1) {
            throw DebugError("Bad location '" + std::string(s) +
                             "': expected @GRAPH:%N, e.g. @Net_construct:%3.");
        }
        Location loc = parseNode(s.substr(sep + 1), s, allowParams);
        loc.graph = std::string(s.substr(1, sep - 1));
        return loc;
    }
    const auto colon = s.rfind(':');
    if (colon != std::string_view::npos) {
        const std::string_view file = s.substr(0, colon);
        const std::string_view line = s.substr(colon + 1);
        if (file.empty()) {
            throw DebugError("Bad location '" + std::string(s) + "': no file before ':'.");
        }
        if (!allDigits(line)) {
            throw DebugError("Bad line number '" + std::string(line) + "' in '" + std::string(s) +
                             "': expected FILE:LINE, e.g. net.py:12.");
        }
        int n = 0;
        const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
        if (ec != std::errc() || p != line.data() + line.size() || n <= 0) {
            throw DebugError("Line number " + std::string(line) + " out of range in '" +
                             std::string(s) + "'.");
        }
        Location loc;
        loc.kind = Location::Kind::SourceLine;
        loc.text = std::string(file);
        loc.line = n;
        return loc;
    }
    Location loc;
    loc.kind = Location::Kind::Word;
    loc.text = std::string(s);
    return loc;
}

std::pair<WatchCondition, double> parseWatchCondition(std::string_view text) {
    const std::string_view s = trim(text);
    const auto sp = s.find_first_of(" \t");
    const std::string_view word = s.substr(0, sp);
    const std::string_view arg =
        sp == std::string_view::npos ? std::string_view{} : trim(s.substr(sp));
    static constexpr std::pair<std::string_view, WatchCondition> kNames[] = {
        {"nan", WatchCondition::Nan},     {"inf", WatchCondition::Inf},
        {"zero", WatchCondition::Zero},   {"changed", WatchCondition::Changed},
        {"above", WatchCondition::Above}, {"below", WatchCondition::Below},
    };
    const auto* it = std::find_if(std::begin(kNames), std::end(kNames),
                                  [&](const auto& p) { return p.first == word; });
    if (it == std::end(kNames)) {
        throw DebugError("Unknown watch condition '" + std::string(s) +
                         "': expected nan, inf, zero, changed, above V or below V.");
    }
    const bool needsValue =
        it->second == WatchCondition::Above || it->second == WatchCondition::Below;
    if (!needsValue) {
        if (!arg.empty()) {
            throw DebugError("The watch condition '" + std::string(word) +
                             "' takes no value (got '" + std::string(arg) + "').");
        }
        return {it->second, 0.0};
    }
    double v = 0.0;
    const auto [p, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
    if (arg.empty() || ec != std::errc() || p != arg.data() + arg.size() || std::isnan(v)) {
        throw DebugError("The watch condition '" + std::string(word) + "' needs a number, e.g. '" +
                         std::string(word) + " 100'" +
                         (arg.empty() ? std::string(".") : " (got '" + std::string(arg) + "')."));
    }
    return {it->second, v};
}

// --- module index ----------------------------------------------------------------------

ModuleIndex::ModuleIndex(const ir::Module& m) : module(m), names(ir::localNames(m)), lines(m) {
    graphs.assign(names.order.begin(), names.order.end());
}

const ir::FuncGraph* ModuleIndex::graph(std::string_view name) const {
    if (name.starts_with("@")) {
        name.remove_prefix(1);
    }
    for (const ir::FuncGraph* g : graphs) {
        if (lines.graphName(*g) == name) {
            return g;
        }
    }
    for (const ir::FuncGraph* g : graphs) {
        if (g->name() == name) {
            return g;
        }
    }
    return nullptr;
}

std::string ModuleIndex::graphName(const ir::FuncGraph* g) const {
    return g == nullptr ? std::string("?") : lines.graphName(*g);
}

std::string ModuleIndex::nameOf(const ir::Node& n) const {
    if (const auto* c = ir::nodeCast<ir::CNode>(&n);
        c != nullptr && c->graph() != nullptr && c->graph()->returnNode() == c) {
        return "Return";
    }
    const std::string s = names.of(n);
    return s.empty() ? std::string("%?") : s;
}

std::string ModuleIndex::lineOf(const ir::CNode& c, std::size_t width) const {
    std::string s = lines.line(c);
    if (width != 0 && s.size() > width) {
        // Cut on a UTF-8 boundary.
        std::size_t cut = width - 3;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) {
            --cut;
        }
        s = s.substr(0, cut) + "...";
    }
    return s;
}

ir::SourceLocation innermostSource(const ir::Node& n) {
    const auto& trace = n.debug().trace;
    for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
        if (it->line > 0) {
            return *it;
        }
    }
    return {};
}

}  // namespace irscope::runtime::debug

namespace irscope::runtime {

bool sourceFileMatches(std::string_view nodeFile, std::string_view wanted) {
    auto strip = [](std::string_view s) {
        while (s.starts_with("./")) {
            s.remove_prefix(2);
        }
        return s;
    };
    nodeFile = strip(nodeFile);
    wanted = strip(wanted);
    if (nodeFile.empty() || wanted.empty()) {
        return false;
    }
    auto suffixOf = [](std::string_view whole, std::string_view part) {
        return whole.size() > part.size() && whole.ends_with(part) &&
               whole[whole.size() - part.size() - 1] == '/';
    };
    return nodeFile == wanted || suffixOf(nodeFile, wanted) || suffixOf(wanted, nodeFile);
}

}  // namespace irscope::runtime

namespace irscope::runtime::debug {

namespace {

std::span<const ir::CNode* const> kernelsOf(const ir::FuncGraph* g, const ModuleIndex& idx,
                                            const ExecInspector& ex) {
    const auto order = ex.order(g);
    if (!order.empty()) {
        return order;
    }
    const auto& body = idx.names.body(g);
    return {body.data(), body.size()};
}

bool onLine(const ir::CNode& c, const Location& loc) {
    const auto& trace = c.debug().trace;
    return std::any_of(trace.begin(), trace.end(), [&](const ir::SourceLocation& s) {
        return s.line == loc.line && sourceFileMatches(s.file, loc.text);
    });
}

bool wordMatches(const ir::CNode& c, std::string_view word) {
    if (const ir::PrimitiveData* p = c.primitive(); p != nullptr && p->name == word) {
        return true;
    }
    return c.debug().name == word || c.debug().scope == word;
}

const ir::FuncGraph* graphFor(const Location& loc, const std::string& graphHint,
                              const ModuleIndex& idx, std::string* error) {
    const std::string& wanted = !loc.graph.empty() ? loc.graph : graphHint;
    const ir::FuncGraph* g = wanted.empty() ? idx.module.entry() : idx.graph(wanted);
    if (g == nullptr && error != nullptr) {
        *error = wanted.empty() ? "The module has no entry graph."
                                : "No graph @" + wanted + " in the running module.";
    }
    return g;
}

}  // namespace

std::vector<const ir::CNode*> resolveKernels(const Location& loc, const std::string& graphHint,
                                             const ModuleIndex& idx, const ExecInspector& ex,
                                             bool firstOfLine, std::string* error) {
    std::vector<const ir::CNode*> out;
    switch (loc.kind) {
        case Location::Kind::Node: {
            const ir::FuncGraph* g = graphFor(loc, graphHint, idx, error);
            if (g == nullptr) {
                return out;
            }
            const auto& body = idx.names.body(g);
            if (loc.number >= body.size()) {
                if (error != nullptr) {
                    *error = "No node %" + std::to_string(loc.number) + " in @" + idx.graphName(g) +
                             (body.empty() ? std::string(" (it has no nodes).")
                                           : " (its nodes are %0 to %" +
                                                 std::to_string(body.size() - 1) + ").");
                }
                return out;
            }
            out.push_back(body[loc.number]);
            return out;
        }
        case Location::Kind::Parameter:
            if (error != nullptr) {
                *error = "A parameter is not a kernel.";
            }
            return out;
        case Location::Kind::Word:
            for (const ir::FuncGraph* g : idx.graphs) {
                for (const ir::CNode* c : kernelsOf(g, idx, ex)) {
                    if (wordMatches(*c, loc.text)) {
                        out.push_back(c);
                    }
                }
            }
            return out;
        case Location::Kind::SourceLine:
            for (const ir::FuncGraph* g : idx.graphs) {
                bool previous = false;
                for (const ir::CNode* c : kernelsOf(g, idx, ex)) {
                    const bool here = onLine(*c, loc);
                    if (here && (!firstOfLine || !previous)) {
                        out.push_back(c);
                    }
                    previous = here;
                }
            }
            return out;
    }
    return out;
}

const ir::Node* resolveNode(const Location& loc, const std::string& graphHint,
                            const ModuleIndex& idx, std::string* error) {
    switch (loc.kind) {
        case Location::Kind::Node: {
            const ir::FuncGraph* g = graphFor(loc, graphHint, idx, error);
            if (g == nullptr) {
                return nullptr;
            }
            const auto& body = idx.names.body(g);
            if (loc.number < body.size()) {
                return body[loc.number];
            }
            *error =
                "No node %" + std::to_string(loc.number) + " in @" + idx.graphName(g) +
                (body.empty() ? std::string(" (it has no nodes).")
                              : " (its nodes are %0 to %" + std::to_string(body.size() - 1) + ").");
            return nullptr;
        }
        case Location::Kind::Parameter:
            for (const auto& [p, k] : idx.names.para) {
                if (k == loc.number && (loc.text.empty() || p->name() == loc.text)) {
                    return p;
                }
            }
            *error = "No parameter %para" + std::to_string(loc.number) +
                     (loc.text.empty() ? "" : "_" + loc.text) + " in the running module.";
            return nullptr;
        case Location::Kind::Word: {
            for (const ir::FuncGraph* g : idx.graphs) {
                for (const ir::CNode* c : idx.names.body(g)) {
                    if (c->debug().name == loc.text || c->debug().scope == loc.text) {
                        return c;
                    }
                }
            }
            *error = "No node named '" + loc.text + "' in the running module.";
            return nullptr;
        }
        case Location::Kind::SourceLine:
            *error = "A source line is not a node: name one with %N.";
            return nullptr;
    }
    return nullptr;
}

// --- watch conditions ------------------------------------------------------------------

namespace {

void collectTensors(const ops::KernelArg& a, std::vector<Tensor>& out) {
    if (a.isTensor()) {
        out.push_back(a.tensor());
    } else if (a.isTuple()) {
        for (const ops::KernelArg& e : a.elements()) {
            collectTensors(e, out);
        }
    } else if (a.isValue() && a.value()) {
        const ir::Value& v = *a.value();
        switch (v.kind) {
            case ir::Value::Kind::Bool:
                out.push_back(Tensor::scalar(DType::Bool, v.b ? 1.0 : 0.0));
                break;
            case ir::Value::Kind::Int:
                out.push_back(Tensor::scalar(DType::Int64, static_cast<double>(v.i)));
                break;
            case ir::Value::Kind::Float:
                out.push_back(Tensor::scalar(DType::Float64, v.f));
                break;
            case ir::Value::Kind::Tensor:
                if (v.tensor) {
                    out.push_back(Tensor::fromValueData(*v.tensor));
                }
                break;
            case ir::Value::Kind::Tuple:
            case ir::Value::Kind::List:
                for (const ir::ValuePtr& e : v.elements) {
                    collectTensors(ops::KernelArg(e), out);
                }
                break;
            default:
                break;
        }
    }
}

bool sameContents(const Tensor& a, const Tensor& b) {
    return a.dtype() == b.dtype() && a.shape() == b.shape() &&
           (a.nbytes() == 0 || std::memcmp(a.bytes(), b.bytes(), a.nbytes()) == 0);
}

}  // namespace

std::optional<std::string> checkWatch(WatchCondition c, double threshold,
                                      const ops::KernelArg& output, std::vector<Tensor>* previous) {
    std::vector<Tensor> tensors;
    collectTensors(output, tensors);
    if (c == WatchCondition::Changed) {
        std::vector<Tensor> now;
        now.reserve(tensors.size());
        for (const Tensor& t : tensors) {
            now.push_back(t.clone());
        }
        const bool first = previous->empty() && !now.empty();
        bool changed = !first && previous->size() != now.size();
        for (std::size_t i = 0; !first && !changed && i < now.size(); ++i) {
            changed = !sameContents((*previous)[i], now[i]);
        }
        *previous = std::move(now);
        if (!changed) {
            return std::nullopt;
        }
        return std::string("changed");
    }
    if (tensors.empty()) {
        return std::nullopt;
    }
    std::size_t total = 0, count = 0;
    double extreme = std::nan("");
    for (const Tensor& t : tensors) {
        total += t.size();
        for (std::size_t i = 0; i < t.size(); ++i) {
            const double v = t.getDouble(i);
            bool hit = false;
            switch (c) {
                case WatchCondition::Nan:
                    hit = std::isnan(v);
                    break;
                case WatchCondition::Inf:
                    hit = std::isinf(v);
                    break;
                case WatchCondition::Zero:
                    hit = v == 0.0;
                    break;
                case WatchCondition::Above:
                    hit = v > threshold;
                    break;
                case WatchCondition::Below:
                    hit = v < threshold;
                    break;
                case WatchCondition::Changed:
                    break;
            }
            if (hit) {
                ++count;
                if (std::isnan(extreme) || (c == WatchCondition::Above && v > extreme) ||
                    (c == WatchCondition::Below && v < extreme)) {
                    extreme = v;
                }
            }
        }
    }
    const std::string ofAll =
        " (" + std::to_string(count) + " of " + std::to_string(total) + " elements)";
    switch (c) {
        case WatchCondition::Nan:
            return count == 0 ? std::nullopt : std::optional<std::string>("has NaN" + ofAll);
        case WatchCondition::Inf:
            return count == 0 ? std::nullopt : std::optional<std::string>("has Inf" + ofAll);
        case WatchCondition::Zero:
            return total == 0 || count != total
                       ? std::nullopt
                       : std::optional<std::string>("is all zeros" + ofAll);
        case WatchCondition::Above:
            return count == 0
                       ? std::nullopt
                       : std::optional<std::string>("has values above " + formatNumber(threshold) +
                                                    ", max " + formatNumber(extreme) + ofAll);
        case WatchCondition::Below:
            return count == 0
                       ? std::nullopt
                       : std::optional<std::string>("has values below " + formatNumber(threshold) +
                                                    ", min " + formatNumber(extreme) + ofAll);
        case WatchCondition::Changed:
            break;
    }
    return std::nullopt;
}

}  // namespace irscope::runtime::debug

namespace irscope::runtime {

std::string_view watchConditionName(WatchCondition c) {
    switch (c) {
        case WatchCondition::Nan:
            return "nan";
        case WatchCondition::Inf:
            return "inf";
        case WatchCondition::Zero:
            return "zero";
        case WatchCondition::Changed:
            return "changed";
        case WatchCondition::Above:
            return "above";
        case WatchCondition::Below:
            return "below";
    }
    return "?";
}

std::string Breakpoint::describe() const {
    std::string where = location;
    if (!graph.empty() && location.starts_with("%")) {
        where += " in @" + graph;
    }
    if (!watch) {
        return "breakpoint " + std::to_string(id) + " at " + where;
    }
    std::string cond(watchConditionName(condition));
    if (condition == WatchCondition::Above || condition == WatchCondition::Below) {
        cond += " " + debug::formatNumber(threshold);
    }
    return "watchpoint " + std::to_string(id) + " on " + where + " (" + cond + ")";
}

}  // namespace irscope::runtime
