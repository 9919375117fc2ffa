// formatDivergence: the text irscope-cli diverge prints (session/divergence.h).
#include <fmt/format.h>

#include "session/divergence.h"

namespace irscope::session {

namespace {

std::string sourceText(const ir::SourceLocation& s) {
    if (s.line <= 0) {
        return "(no source line)";
    }
    std::string t = fmt::format("{}:{}", s.file, s.line);
    const std::size_t start = s.text.find_first_not_of(" \t");
    if (start != std::string::npos) {
        t += "  " + s.text.substr(start);
    }
    return t;
}

// A multi-line value indented under its label.
std::string indented(const std::string& text, const std::string& pad) {
    std::string out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t nl = text.find('\n', start);
        const std::string line =
            text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        if (!out.empty()) {
            out += "\n" + pad;
        }
        out += line;
        if (nl == std::string::npos) {
            break;
        }
        start = nl + 1;
    }
    return out;
}

void side(std::string& out, const DivergenceResult& r, std::size_t s) {
    const DivergentKernel& k = r.first->sides[s];
    const std::string& label = r.labels[s];
    out += fmt::format("  {} ({}): {} in @{}, graph run {}, step {}{}{}\n", s == 0 ? "a" : "b",
                       label, k.line, k.graph, k.run + 1, k.step,
                       k.occurrence > 0 ? fmt::format(", its run {}", k.occurrence + 1) : "",
                       k.placement != "cpu" && !k.placement.empty() ? ", on " + k.placement : "");
    out += fmt::format("     value: {}\n",
                       k.value.empty() ? "(not recorded)" : indented(k.value, "            "));
}

void neighbourhood(std::string& out, const DivergenceResult& r, std::size_t s) {
    const DivergentKernel& k = r.first->sides[s];
    if (k.line.empty()) {
        return;
    }
    out += fmt::format("\n{} ({}), the IR around it (@{}):\n", s == 0 ? "a" : "b", r.labels[s],
                       k.graph);
    for (const std::string& l : k.neighbourhood) {
        out += (l.starts_with("> ") ? "  " : "    ") + l + "\n";
    }
    if (k.upstream.empty()) {
        return;
    }
    out += "  the nodes feeding it, with the values they computed:\n";
    for (const UpstreamNode& u : k.upstream) {
        out += fmt::format("    {}{}",
                           std::string(static_cast<std::size_t>(2 * (u.depth - 1)), ' '), u.line);
        if (!u.value.empty()) {
            out += "  = " + indented(u.value, "        ");
        }
        if (!u.readAs.empty()) {
            out += "  (read later as " + u.readAs + ")";
        }
        out += "\n";
    }
}

std::string ordinal(std::size_t n) {
    const std::size_t tens = n % 100;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                         : n % 10 == 1              ? "st"
                         : n % 10 == 2              ? "nd"
                         : n % 10 == 3              ? "rd"
                                                    : "th";
    return std::to_string(n) + suffix;
}

// Sides in different modes: the divergent line, each side's visit of it.
void lineDivergence(std::string& out, const DivergenceResult& r) {
    const Divergence& d = *r.first;
    out += fmt::format("first divergent line: {}{}\n", sourceText(d.sides[0].source),
                       d.sides[0].scope.starts_with("Gradients") ? " (in the gradient)" : "");
    for (std::size_t s = 0; s < 2; ++s) {
        const DivergentKernel& k = d.sides[s];
        const std::string where =
            k.placement == "graph"
                ? fmt::format("a kernel of @{}, graph run {}", k.graph, k.run + 1)
                : std::string("run eagerly");
        out += fmt::format("  {} ({}): {}, {} visit of the line of {}, {}\n", s == 0 ? "a" : "b",
                           r.labels[s], k.op, ordinal(k.occurrence + 1), d.visits[s], where);
        out += fmt::format("     value: {}\n",
                           k.value.empty() ? "(not recorded)" : indented(k.value, "            "));
    }
    out += "  difference: " + d.detail + "\n";
    if (d.finalOnly) {
        out += fmt::format(
            "  (the sides visit the line {} and {} times: their final values were compared)\n",
            d.visits[0], d.visits[1]);
    }
}

// What the sides printed differently, line by line, and why a compiled print differs.
void printedLines(std::string& out, const DivergenceResult& r) {
    if (r.prints.empty()) {
        return;
    }
    constexpr std::size_t kMaxText = 2000;
    out += "printed differently:\n";
    for (const PrintedLine& p : r.prints) {
        out += p.line > 0 ? fmt::format("  line {}  {}\n", p.line, p.text)
                          : std::string("  outside the script's lines\n");
        for (std::size_t s = 0; s < 2; ++s) {
            std::string text = p.printed[s];
            while (!text.empty() && text.back() == '\n') {
                text.pop_back();
            }
            if (text.size() > kMaxText) {
                text = text.substr(0, kMaxText) + " ...";
            }
            out += fmt::format(
                "    {} ({}, {}): {}\n", s == 0 ? "a" : "b", r.labels[s],
                p.compiled[s] ? "Print operator, when the graph ran" : "print, as the line ran",
                text.empty() ? "(nothing)" : indented(text, "        "));
        }
    }
    if (const std::string why = explainPrints(r); !why.empty()) {
        out += "  why: " + why + "\n";
    }
}

}  // namespace

std::string formatDivergence(const DivergenceResult& r) {
    if (r.byLine) {
        return formatLineDivergence(r);
    }
    std::string out = fmt::format(
        "irscope: a = {}, b = {}: {} graph run{} compared, {} kernel "
        "pair{} equal{}",
        r.labels[0], r.labels[1], r.graphRuns, r.graphRuns == 1 ? "" : "s", r.compared,
        r.compared == 1 ? "" : "s",
        r.unmatched > 0 ? fmt::format(", {} kernel{} of a without a counterpart", r.unmatched,
                                      r.unmatched == 1 ? "" : "s")
                        : std::string());
    out += fmt::format(" ({:.2f} s)\n", r.seconds);
    if (r.cancelled) {
        return out + "cancelled\n";
    }
    if (r.truncated) {
        out += "warning: a trace ran out of memory for values; later kernels were not compared\n";
    }
    if (!r.first) {
        return out +
               "no difference: every matched kernel computed the same values, the graphs "
               "returned the same and the scripts ended the same way\n";
    }
    const Divergence& d = *r.first;
    switch (d.kind) {
        case Divergence::Kind::Runs:
            return out + "first difference: " + d.detail + "\n";
        case Divergence::Kind::Output:
            return out + "first difference: " + d.detail + "\n";
        case Divergence::Kind::Line:  // only when the sides run in different modes
            lineDivergence(out, r);
            return out;
        case Divergence::Kind::Missing:
            out += fmt::format("first difference: {} {} at {}\n", d.sides[0].op, d.sides[0].node,
                               sourceText(d.sides[0].source));
            out += "  " + d.detail + "\n";
            side(out, r, 0);
            neighbourhood(out, r, 0);
            return out;
        case Divergence::Kind::Value:
            break;
    }
    out +=
        fmt::format("first divergent kernel: {} at {}\n", d.sides[0].op,
                    sourceText(d.sides[0].source.line > 0 ? d.sides[0].source : d.sides[1].source));
    if (!d.sides[0].scope.empty()) {
        out += "  scope: " + d.sides[0].scope + "\n";
    }
    side(out, r, 0);
    side(out, r, 1);
    out += "  difference: " + d.detail + "\n";
    if (!d.explanation.empty()) {
        out += "  why: " + d.explanation + "\n";
    }
    neighbourhood(out, r, 0);
    neighbourhood(out, r, 1);
    return out;
}

std::string explainPrints(const DivergenceResult& r) {
    for (const PrintedLine& p : r.prints) {
        if (p.compiled[0] != p.compiled[1]) {
            return "in GRAPH_MODE a print inside construct is compiled into a Print operator: it "
                   "prints when the compiled graph runs, after the whole graph is compiled, each "
                   "tensor as Tensor(shape=..., dtype=..., value=...); PyNative runs Python's "
                   "print "
                   "while the line runs, tensors in numpy's format.";
        }
    }
    return {};
}

// The sides ran in different modes: the report by source line.
std::string formatLineDivergence(const DivergenceResult& r) {
    std::string out = fmt::format(
        "irscope: a = {}, b = {}: compared by source line (the sides run in different modes): "
        "{} line{} computed on both sides, {} value pair{} equal, {} differ{} ({:.2f} s)\n",
        r.labels[0], r.labels[1], r.lines, r.lines == 1 ? "" : "s", r.compared,
        r.compared == 1 ? "" : "s", r.differing,
        r.oneSided > 0 ? fmt::format(", {} line{} computed on one side only (folded or eliminated)",
                                     r.oneSided, r.oneSided == 1 ? "" : "s")
                       : std::string(),
        r.seconds);
    if (r.cancelled) {
        return out + "cancelled\n";
    }
    if (r.truncated) {
        out += "warning: a trace ran out of memory for values; later lines were not compared\n";
    }
    if (!r.first) {
        out +=
            "no difference: every line computed on both sides gave the same values and the "
            "scripts ended the same way\n";
    } else if (r.first->kind == Divergence::Kind::Line) {
        lineDivergence(out, r);
    } else {
        out += "first difference: " + r.first->detail + "\n";
    }
    printedLines(out, r);
    return out;
}

}  // namespace irscope::session
