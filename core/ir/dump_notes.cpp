#include "ir/dump_notes.h"

#include <algorithm>

#include "ir/ir_text.h"

namespace irscope::ir {

std::optional<DeviceTensor> parseDeviceTensor(std::string_view text) {
    if (text.size() < 3 || text.front() != '<' || text.back() != '>') {
        return std::nullopt;
    }
    const std::string_view inner = text.substr(1, text.size() - 2);
    DeviceTensor t;
    const std::size_t bracket = inner.find('[');
    const std::string_view head = inner.substr(0, bracket);
    if (bracket == std::string_view::npos) {
        t.type = std::string(head);  // no format: only the type is printed
    } else {
        // Formats (DefaultFormat, NC1HWC0, FRACTAL_NZ, ...) have no lower-case 'x'; type
        // names (Float32, kTypeUnknown, ...) neither, so the last 'x' separates them.
        const std::size_t x = head.rfind('x');
        if (x == std::string_view::npos || x == 0 || x + 1 == head.size()) {
            return std::nullopt;
        }
        t.type = std::string(head.substr(0, x));
        t.format = std::string(head.substr(x + 1));
        t.shape = std::string(inner.substr(bracket));
    }
    if (t.type.empty() || t.type.find_first_of("<>(), ") != std::string::npos ||
        t.format.find_first_of("<>(), ") != std::string::npos || formatDeviceTensor(t) != text) {
        return std::nullopt;
    }
    return t;
}

std::string formatDeviceTensor(const DeviceTensor& t) {
    std::string s = "<" + t.type;
    if (!t.format.empty()) {
        s += "x" + t.format + t.shape;
    }
    return s + ">";
}

namespace {

bool isRule(const std::string& l) {
    return l.size() >= 8 && l.find_first_not_of('-') == std::string::npos;
}

void trimBlank(std::vector<std::string>& lines) {
    while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string::npos) {
        lines.pop_back();
    }
    while (!lines.empty() && lines.front().find_first_not_of(" \t") == std::string::npos) {
        lines.erase(lines.begin());
    }
}

}  // namespace

AnalyzeFailure analyzeFailure(const Module& m) {
    AnalyzeFailure f;
    // The banner: `# ===` notice lines, then sections framed by dashed rules:
    // `----` / `- Title:` / `----` / text ... up to the next section.
    const std::vector<std::string>& pre = m.preamble();
    std::vector<std::string>* section = nullptr;
    std::vector<std::string> exception;
    std::vector<std::string> other;
    for (std::size_t i = 0; i < pre.size(); ++i) {
        if (isRule(pre[i]) && i + 2 < pre.size() && pre[i + 1].rfind("- ", 0) == 0 &&
            isRule(pre[i + 2])) {
            const std::string& title = pre[i + 1];
            section = title.rfind("- Caught exception", 0) == 0       ? &exception
                      : title.rfind("- C++ Call Stack", 0) == 0       ? &f.cppStack
                      : title.rfind("- The Traceback of Net", 0) == 0 ? &f.traceback
                                                                      : &other;
            i += 2;
            continue;
        }
        if (section != nullptr) {
            section->push_back(pre[i]);
        } else if (pre[i].rfind("#", 0) == 0) {
            f.notice.push_back(pre[i]);
        }
    }
    trimBlank(exception);
    trimBlank(f.cppStack);
    trimBlank(f.traceback);
    for (const std::string& l : exception) {
        f.exception += (f.exception.empty() ? "" : "\n") + l;
    }
    m.forEachNode([&](const Node* n) {
        const auto* c = nodeCast<CNode>(n);
        if (c != nullptr && c->debug().dump && c->debug().dump->stackFrame >= 0) {
            f.frames.push_back({c->debug().dump->stackFrame, c});
        }
    });
    std::stable_sort(f.frames.begin(), f.frames.end(),
                     [](const StackFrame& a, const StackFrame& b) { return a.index < b.index; });
    return f;
}

std::string formatFailure(const Module& m, const AnalyzeFailure& f) {
    std::string out;
    if (!f.present()) {
        return "no analyze_fail trace in this file (no failure banner and no "
               "'#------------------------> N' markers)\n";
    }
    out += "Caught exception:\n";
    if (f.exception.empty()) {
        out +=
            "  (not in this file: MindSpore before 2.2.1x writes the exception to the log "
            "only)\n";
    } else {
        std::size_t b = 0;
        while (b <= f.exception.size()) {
            std::size_t e = f.exception.find('\n', b);
            if (e == std::string::npos) {
                e = f.exception.size();
            }
            out += "  " + f.exception.substr(b, e - b) + "\n";
            b = e + 1;
        }
    }
    if (!f.cppStack.empty()) {
        out += "C++ call stack:\n";
        for (const std::string& l : f.cppStack) {
            out += "  " + l + "\n";
        }
    }
    out += "Traced call stack: " + std::to_string(f.frames.size()) +
           " frames, outermost first; inference failed in the last\n";
    const NodeLines lines(m);
    for (std::size_t k = 0; k < f.frames.size(); ++k) {
        const StackFrame& fr = f.frames[k];
        const bool last = k + 1 == f.frames.size();
        out += (last ? "> #" : "  #") + std::to_string(fr.index) + " @" +
               (fr.node->graph() != nullptr ? lines.graphName(*fr.node->graph()) : "?") + "\n";
        out += "      " + lines.line(*fr.node) + "\n";
        const auto& trace = fr.node->debug().trace;
        if (!trace.empty()) {
            const SourceLocation& loc = trace.back();
            std::string text = loc.text;
            text.erase(0, text.find_first_not_of(" \t"));
            out += "      at " + loc.file + ":" + std::to_string(loc.line) + ": " + text + "\n";
        }
    }
    if (f.frames.empty()) {
        out += "  (no '#------------------------> N' markers in the IR)\n";
    }
    return out;
}

}  // namespace irscope::ir
