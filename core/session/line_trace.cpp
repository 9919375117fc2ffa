#include "session/line_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ir/module.h"
#include "ir/prim_names.h"
#include "session/divergence.h"
#include "session/kernel_trace.h"

namespace irscope::session {

namespace {

std::int64_t lineKey(int line, bool backward) {
    return (static_cast<std::int64_t>(line) << 1) | (backward ? 1 : 0);
}

// The innermost place of the node's debug trace in `file`, or 0.
int lineIn(const ir::Node& n, const std::string& file) {
    const auto& trace = n.debug().trace;
    for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
        if (it->line > 0 && it->file == file) {
            return it->line;
        }
    }
    return 0;
}

bool isGradient(const ir::Node& n) {
    return n.debug().scope.starts_with("Gradients/") || n.debug().scope == "Gradients";
}

}  // namespace

bool LineTrace::transparent(std::string_view op) {
    using namespace ir::prim;
    static constexpr std::array<std::string_view, 9> kNames{
        kLoad,       kUpdateState, kDepend, kMakeTuple,   kTupleGetItem,
        kTensorMove, kPrint,       kReturn, kStopGradient};
    return std::find(kNames.begin(), kNames.end(), op) != kNames.end();
}

std::optional<ops::KernelArg> LineTrace::copy(const ops::KernelArg& v) {
    const std::size_t bytes = valueBytes(v);
    if (truncated_ || bytes_ + bytes > maxBytes_) {
        truncated_ = true;
        return std::nullopt;
    }
    bytes_ += bytes;
    return deepCopy(v);
}

void LineTrace::record(int line, bool backward, std::string_view op, const ops::KernelArg& output,
                       std::optional<std::size_t> join) {
    const std::int64_t key = lineKey(line, backward);
    if (!join && last_ && results_[*last_].line == line && results_[*last_].backward == backward &&
        results_[*last_].compiled == (kernel_ != nullptr) &&
        (kernel_ == nullptr || results_[*last_].graphRun == graphRuns_)) {
        join = last_;  // the line's ops running one after the other
    }
    std::size_t index = 0;
    if (join) {
        index = *join;
        LineResult& r = results_[index];
        if (r.value) {
            bytes_ -= valueBytes(*r.value);
        }
        r.value = copy(output);
        r.op = std::string(op);
        ++r.ops;
    } else {
        auto& [count, latest] = visits_[key];
        LineResult r;
        r.line = line;
        r.backward = backward;
        r.occurrence = count++;
        r.op = std::string(op);
        r.ops = 1;
        r.value = copy(output);
        r.compiled = kernel_ != nullptr;
        r.graphRun = graphRuns_;
        index = results_.size();
        latest = index;
        results_.push_back(std::move(r));
    }
    if (kernel_ != nullptr) {
        LineResult& r = results_[index];
        r.graph = kernel_->graph() != nullptr ? kernel_->graph()->name() : std::string();
        r.scope = kernel_->debug().scope;
        resultOf_[kernel_] = index;
    }
    last_ = index;
}

void LineTrace::afterOp(interp::Interpreter& I, const ops::OpDef& op,
                        const ops::KernelArg& output) {
    if (transparent(op.name)) {
        return;
    }
    const int line = I.currentLineIn(path_);
    if (line <= 0) {
        return;
    }
    kernel_ = nullptr;
    record(line, false, op.name, output, std::nullopt);
}

void LineTrace::printed(interp::Interpreter& I, std::string_view text) {
    const bool compiled = printing_ != nullptr;
    const int line = compiled ? printLine_ : I.currentLineIn(path_);
    if (!prints_.empty() && prints_.back().line == line && prints_.back().compiled == compiled) {
        prints_.back().text += text;  // one print() writes its pieces separately
        return;
    }
    prints_.push_back({line, compiled, std::string(text)});
}

void LineTrace::runStarted(const ir::Module& m, const runtime::ExecInspector& ex) {
    (void)m;
    (void)ex;
    ++graphRuns_;
    resultOf_.clear();
    last_.reset();
}

void LineTrace::beforeKernel(const runtime::KernelEvent& e, const runtime::ExecInspector& ex) {
    (void)ex;
    if (e.node != nullptr && e.node->isPrimitive(ir::prim::kPrint)) {
        printing_ = e.node;
        printLine_ = lineIn(*e.node, path_);
        // A new Print kernel starts its own entry even on the line of the previous one.
        prints_.push_back({printLine_, true, std::string()});
    }
}

void LineTrace::afterKernel(const runtime::KernelEvent& e, const ops::KernelArg& output,
                            const runtime::ExecInspector& ex) {
    (void)ex;
    if (e.node == nullptr) {
        return;
    }
    if (e.node == printing_) {
        printing_ = nullptr;
        return;
    }
    const ir::PrimitiveData* prim = e.node->primitive();
    if (e.callsGraph || prim == nullptr || transparent(prim->name)) {
        return;
    }
    const int line = lineIn(*e.node, path_);
    if (line <= 0) {
        return;
    }
    const bool backward = isGradient(*e.node);
    // A kernel of the line reading a kernel of the line's latest visit in this run extends it.
    std::optional<std::size_t> join;
    const auto latest = visits_.find(lineKey(line, backward));
    if (latest != visits_.end()) {
        const std::size_t visit = latest->second.second;
        for (const ir::Node* in : e.node->inputs()) {
            const auto it = resultOf_.find(in);
            if (it != resultOf_.end() && it->second == visit) {
                join = visit;
                break;
            }
        }
    }
    kernel_ = e.node;
    record(line, backward, prim->name, output, join);
    kernel_ = nullptr;
}

std::string sourceLine(const std::string& source, int line) {
    std::size_t start = 0;
    for (int i = 1; i < line && start != std::string::npos; ++i) {
        start = source.find('\n', start);
        start = start == std::string::npos ? start : start + 1;
    }
    if (line <= 0 || start == std::string::npos || start >= source.size()) {
        return {};
    }
    const std::size_t end = source.find('\n', start);
    return source.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

LineComparison compareLines(const LineTrace& a, const LineTrace& b, const Tolerance& tol,
                            const std::string& source) {
    LineComparison c;
    std::array<std::map<std::int64_t, std::vector<const LineResult*>>, 2> byKey;
    const std::array<const LineTrace*, 2> traces{&a, &b};
    for (std::size_t s = 0; s < 2; ++s) {
        for (const LineResult& r : traces[s]->results()) {
            byKey[s][lineKey(r.line, r.backward)].push_back(&r);
        }
    }
    // Every difference, by where a met it; the earliest is reported.
    std::optional<std::pair<const LineResult*, LineDivergence>> best;
    auto consider = [&](const LineResult* x, const LineResult* y,
                        const std::vector<const LineResult*>& xs,
                        const std::vector<const LineResult*>& ys, bool finalOnly) {
        if (!x->value || !y->value) {
            return;
        }
        ++c.compared;
        std::string why;
        if (valuesAgree(*x->value, *y->value, tol, &why)) {
            return;
        }
        ++c.differing;
        if (best && best->first <= x) {
            return;  // a reached an earlier difference
        }
        LineDivergence d;
        d.line = x->line;
        d.text = sourceLine(source, x->line);
        d.text.erase(0, std::min(d.text.size(), d.text.find_first_not_of(" \t")));
        d.backward = x->backward;
        d.occurrence = x->occurrence;
        d.sides = {x, y};
        d.visits = {xs.size(), ys.size()};
        d.finalOnly = finalOnly;
        d.detail = why;
        best.emplace(x, std::move(d));
    };
    for (const auto& [key, xs] : byKey[0]) {
        const auto other = byKey[1].find(key);
        if (other == byKey[1].end()) {
            ++c.oneSided;
            continue;
        }
        ++c.lines;
        const std::vector<const LineResult*>& ys = other->second;
        if (xs.size() == ys.size()) {
            for (std::size_t i = 0; i < xs.size(); ++i) {
                consider(xs[i], ys[i], xs, ys, false);
            }
        } else {
            consider(xs.back(), ys.back(), xs, ys, true);
        }
    }
    for (const auto& [key, ys] : byKey[1]) {
        if (!byKey[0].contains(key)) {
            ++c.oneSided;
        }
    }
    if (best) {
        c.first = std::move(best->second);
    }
    return c;
}

}  // namespace irscope::session
