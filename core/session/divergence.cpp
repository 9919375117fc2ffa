#include "session/divergence.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <stdexcept>

#include "frontend/modules/modules.h"
#include "ir/ir_diff.h"
#include "ir/ir_text.h"
#include "runtime/plugin_loader.h"
#include "runtime/print_format.h"
#include "session/divergence_impl.h"
#include "session/kernel_trace.h"
#include "session/line_trace.h"

namespace irscope::session {

// --- sides -----------------------------------------------------------------------------------

namespace {

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return std::string(s);
}

std::optional<std::int64_t> readLevel(const std::string& v, std::int64_t max) {
    if (v.empty() || v.size() > 2 ||
        !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    const std::int64_t n = std::stoll(v);
    if (n > max) {
        return std::nullopt;
    }
    return n;
}

}  // namespace

std::optional<RunSide> parseRunSide(std::string_view spec, std::string* error) {
    auto fail = [&](const std::string& message) -> std::optional<RunSide> {
        if (error != nullptr) {
            *error = message;
        }
        return std::nullopt;
    };
    RunSide side;
    side.label = trim(spec);
    if (side.label.empty()) {
        return fail(
            "an empty setting (expected load-elim=N, cell-reuse=N, device=NAME, "
            "mode=graph|pynative or MS_DEV_...=VALUE)");
    }
    std::string_view rest = spec;
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string item = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos) {
            return fail("'" + item + "' is not KEY=VALUE");
        }
        const std::string key = trim(std::string_view(item).substr(0, eq));
        const std::string value = trim(std::string_view(item).substr(eq + 1));
        if (key == "load-elim" || key == "cell-reuse") {
            const std::int64_t max = key == "load-elim" ? 3 : 2;
            const std::optional<std::int64_t> level = readLevel(value, max);
            if (!level) {
                return fail(fmt::format("{}: '{}' is not a level from 0 to {}", key, value, max));
            }
            side.overrides.set(
                std::string(key == "load-elim" ? passes::kSideEffectLoadElim : passes::kCellReuse),
                *level);
        } else if (key == "device") {
            if (value.empty()) {
                return fail("device: a device name is needed (cpu, opencl, ...)");
            }
            side.device = value;
        } else if (key == "mode") {
            if (value == "graph" || value == "GRAPH_MODE" || value == "0") {
                side.mode = modules::MsContext::kGraphMode;
            } else if (value == "pynative" || value == "PYNATIVE_MODE" || value == "1") {
                side.mode = modules::MsContext::kPynativeMode;
            } else {
                return fail("mode: '" + value + "' is not graph or pynative");
            }
        } else if (key.starts_with("MS_")) {
            side.overrides.set(key, value);
        } else {
            return fail("unknown setting '" + key +
                        "' (expected load-elim, cell-reuse, device, mode or an MS_* name)");
        }
    }
    return side;
}

// --- values ----------------------------------------------------------------------------------

namespace {

std::string elementText(double v) {
    return fmt::format("{:g}", v);
}

bool tensorsAgree(const ir::Tensor& a, const ir::Tensor& b, const Tolerance& tol,
                  std::string* why) {
    if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
        if (why != nullptr) {
            *why =
                fmt::format("Tensor[{}]{} vs Tensor[{}]{}", ir::dtypeName(a.dtype()),
                            a.shape().toString(), ir::dtypeName(b.dtype()), b.shape().toString());
        }
        return false;
    }
    const bool floating = ir::isFloat(a.dtype());
    std::size_t differing = 0;
    std::size_t first = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        bool same = true;
        double diff = 0.0;
        if (floating) {
            const double x = a.getDouble(i);
            const double y = b.getDouble(i);
            if (std::isnan(x) || std::isnan(y)) {
                same = std::isnan(x) && std::isnan(y);
                diff = same ? 0.0 : INFINITY;
            } else if (std::isinf(x) || std::isinf(y)) {
                same = x == y;
                diff = same ? 0.0 : INFINITY;
            } else {
                diff = std::fabs(x - y);
                same = diff <= tol.atol + tol.rtol * std::fabs(y);
            }
        } else {
            const std::int64_t x = a.getInt(i);
            const std::int64_t y = b.getInt(i);
            same = x == y;
            diff = std::fabs(static_cast<double>(x) - static_cast<double>(y));
        }
        if (!same) {
            if (differing == 0) {
                first = i;
            }
            ++differing;
            worst = std::max(worst, diff);
        }
    }
    if (differing == 0) {
        return true;
    }
    if (why != nullptr) {
        *why = fmt::format("{} of {} elements differ, max |a - b| = {}; element {}: {} vs {}",
                           differing, a.size(), elementText(worst), first,
                           elementText(a.getDouble(first)), elementText(b.getDouble(first)));
    }
    return false;
}

}  // namespace

bool valuesAgree(const ops::KernelArg& a, const ops::KernelArg& b, const Tolerance& tol,
                 std::string* why) {
    if (a.isTensor() && b.isTensor()) {
        return tensorsAgree(a.tensor(), b.tensor(), tol, why);
    }
    if (a.isTuple() && b.isTuple()) {
        if (a.elements().size() != b.elements().size()) {
            if (why != nullptr) {
                *why = fmt::format("tuples of {} vs {} elements", a.elements().size(),
                                   b.elements().size());
            }
            return false;
        }
        for (std::size_t i = 0; i < a.elements().size(); ++i) {
            std::string inner;
            if (!valuesAgree(a.elements()[i], b.elements()[i], tol, &inner)) {
                if (why != nullptr) {
                    *why = fmt::format("tuple element {}: {}", i, inner);
                }
                return false;
            }
        }
        return true;
    }
    // Scalars, monads, None: as Print writes them.
    const std::string x = runtime::formatPrintInput(a);
    const std::string y = runtime::formatPrintInput(b);
    if (x == y && a.isTensor() == b.isTensor() && a.isTuple() == b.isTuple()) {
        return true;
    }
    if (why != nullptr) {
        *why = fmt::format("{} vs {}", x, y);
    }
    return false;
}

// --- the search ------------------------------------------------------------------------------

namespace {

// One side's run: its session and trace (kernel by kernel, or by line).
struct SideRun {
    ScriptOutcome outcome;
    KernelTrace trace;
    LineTrace lines;
    SideRun(const std::string& path, std::size_t maxBytes)
        : trace(maxBytes), lines(path, maxBytes) {}
};

DivergentKernel lineSide(const LineResult& x, const std::string& path, const std::string& source) {
    DivergentKernel k;
    k.run = x.compiled && x.graphRun > 0 ? x.graphRun - 1 : 0;
    k.graph = x.graph;
    k.op = x.op;
    k.scope = x.scope;
    k.source.file = path;
    k.source.line = x.line;
    k.source.lineEnd = x.line;
    k.source.text = sourceLine(source, x.line);
    k.occurrence = x.occurrence;
    k.placement = x.compiled ? "graph" : "pynative";
    k.value = detail::valueText(x.value);
    return k;
}

// Sides in different modes: the first line whose values differ, and what each side printed
// where the two differ.
void compareByLine(DivergenceResult& r, const LineTrace& a, const LineTrace& b,
                   const Tolerance& tol, const std::string& source, const std::string& path) {
    const LineComparison c = compareLines(a, b, tol, source);
    r.lines = c.lines;
    r.oneSided = c.oneSided;
    r.compared = c.compared - c.differing;
    r.differing = c.differing;
    if (c.first) {
        Divergence d;
        d.kind = Divergence::Kind::Line;
        for (std::size_t i = 0; i < 2; ++i) {
            d.sides[i] = lineSide(*c.first->sides[i], path, source);
        }
        d.visits = c.first->visits;
        d.finalOnly = c.first->finalOnly;
        d.detail = c.first->detail;
        r.first = std::move(d);
    } else if (r.results[0].exitStatus != r.results[1].exitStatus) {
        Divergence d;
        d.kind = Divergence::Kind::Output;
        d.detail = fmt::format("no line computes other values, but the script exits with {} vs {}",
                               r.results[0].exitStatus, r.results[1].exitStatus);
        r.first = std::move(d);
    }
    // What each side printed, line by line.
    std::map<int, PrintedLine> printed;
    const std::array<const LineTrace*, 2> traces{&a, &b};
    for (std::size_t i = 0; i < 2; ++i) {
        for (const LinePrint& p : traces[i]->prints()) {
            PrintedLine& l = printed[p.line];
            l.line = p.line;
            l.printed[i] += p.text;
            l.compiled[i] = l.compiled[i] || p.compiled;
        }
    }
    for (auto& [line, l] : printed) {
        if (l.printed[0] != l.printed[1]) {
            l.text = line > 0 ? trim(sourceLine(source, line)) : std::string();
            r.prints.push_back(std::move(l));
        }
    }
}

}  // namespace

DivergenceResult DivergenceFinder::run(const std::string& source, const std::string& path,
                                       const std::array<RunSide, 2>& sides,
                                       const DivergenceOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    std::array<ScriptOptions, 2> scriptOptions;
    for (std::size_t i = 0; i < 2; ++i) {
        ScriptOptions& o = scriptOptions[i];
        o = options.script;
        for (const auto& [key, value] : sides[i].overrides.items()) {
            if (const auto* n = std::get_if<std::int64_t>(&value)) {
                o.compiler.overrides.set(key, *n);
            } else {
                o.compiler.overrides.set(key, std::get<std::string>(value));
            }
        }
        if (sides[i].device != "cpu") {
            std::vector<std::string> errors;
            o.compiler.device = runtime::findDevice(sides[i].device, &errors);
            if (!o.compiler.device) {
                throw std::invalid_argument(
                    errors.empty() ? "no device named '" + sides[i].device + "'" : errors.front());
            }
        }
    }
    // Sides in different modes cannot be matched kernel by kernel: PyNative runs ops eagerly.
    const bool byLine = sides[0].mode != sides[1].mode;
    std::array<std::unique_ptr<SideRun>, 2> runs{
        std::make_unique<SideRun>(path, options.maxTraceBytes),
        std::make_unique<SideRun>(path, options.maxTraceBytes)};
    auto runSide = [&](std::size_t i) {
        ScriptRunner runner;
        ScriptOptions o = scriptOptions[i];
        o.mode = sides[i].mode;
        if (byLine) {
            o.compiler.observer = &runs[i]->lines;
            o.eagerObserver = &runs[i]->lines;
        } else {
            o.compiler.observer = &runs[i]->trace;
        }
        runs[i]->outcome = runner.run(source, path, std::move(o));
    };
    // The sides run at once, unless both use a device: one device is not shared between two
    // runs at a time.
    if (sides[0].device != "cpu" && sides[1].device != "cpu") {
        runSide(0);
        runSide(1);
    } else {
        auto other = std::async(std::launch::async, runSide, 1);
        runSide(0);
        other.get();
    }

    DivergenceResult r;
    for (std::size_t i = 0; i < 2; ++i) {
        r.sessions[i] = runs[i]->outcome.session;
        r.results[i] = runs[i]->outcome.result;
        r.labels[i] = sides[i].label;
        r.truncated = r.truncated || runs[i]->trace.truncated() || runs[i]->lines.truncated();
    }
    r.cancelled = options.script.stop.stop_requested();
    r.byLine = byLine;
    if (!r.cancelled && byLine) {
        compareByLine(r, runs[0]->lines, runs[1]->lines, options.tolerance, source, path);
    } else if (!r.cancelled) {
        const detail::TraceComparison cmp(runs[0]->trace, runs[1]->trace, *r.sessions[0],
                                          *r.sessions[1], options.tolerance);
        cmp.search(r);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace irscope::session
