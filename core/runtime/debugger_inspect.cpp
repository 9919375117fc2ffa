// What the debugger shows at a stop: tensor summaries and values, the stop's position (node,
// graph, call stack, source line) and listings of the execution order and the source.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "ir/ir_text.h"
#include "runtime/debugger_impl.h"
#include "runtime/tensor_format.h"

namespace irscope::runtime {

TensorSummary summarize(const Tensor& t) {
    TensorSummary s;
    s.dtype = t.dtype();
    s.shape = t.shape();
    s.elements = t.size();
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    double sum = 0.0;
    std::size_t finite = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const double v = t.getDouble(i);
        if (std::isnan(v)) {
            ++s.nan;
            continue;
        }
        if (std::isinf(v)) {
            ++(v > 0 ? s.posInf : s.negInf);
            continue;
        }
        s.zeros += v == 0.0 ? 1 : 0;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
        ++finite;
    }
    if (finite != 0) {
        s.min = lo;
        s.max = hi;
        s.mean = sum / static_cast<double>(finite);
    }
    return s;
}

std::string ValueInfo::text() const {
    std::string out;
    if (!node.empty()) {
        out += node + "\n";
    }
    switch (kind) {
        case Kind::Tensor:
            out += header + "\n" + values + "\n";
            break;
        case Kind::Scalar:
        case Kind::None:
            out += header + "\n";
            break;
        case Kind::Tuple:
            out += header + "\n";
            for (std::size_t i = 0; i < elements.size(); ++i) {
                std::string sub = elements[i].text();
                // Indent each element's lines under its name.
                std::string indented;
                std::istringstream in(sub);
                for (std::string line; std::getline(in, line);) {
                    indented += "  " + line + "\n";
                }
                out += "[" + std::to_string(i) + "]" +
                       (elements[i].name.empty() ? "" : " " + elements[i].name) + "\n" + indented;
            }
            break;
    }
    return out;
}

namespace debug {

std::string formatNumber(double v) {
    if (std::isnan(v)) {
        return "nan";
    }
    if (std::isinf(v)) {
        return v > 0 ? "inf" : "-inf";
    }
    return fmt::format("{:.6g}", v);
}

ValueInfo describeValue(const ops::KernelArg& a, std::string name) {
    ValueInfo info;
    info.name = std::move(name);
    if (a.isTensor()) {
        const Tensor& t = a.tensor();
        info.kind = ValueInfo::Kind::Tensor;
        info.summary = summarize(t);
        const TensorSummary& s = info.summary;
        info.header =
            fmt::format("Tensor[{}] shape={}", ir::dtypeName(t.dtype()), t.shape().toString());
        if (s.elements > s.nan + s.posInf + s.negInf) {
            info.header += " min=" + formatNumber(s.min) + " max=" + formatNumber(s.max) +
                           " mean=" + formatNumber(s.mean);
        }
        if (s.nan != 0) {
            info.header += fmt::format(" nan={}", s.nan);
        }
        if (s.posInf + s.negInf != 0) {
            info.header += fmt::format(" inf={}", s.posInf + s.negInf);
        }
        info.values = formatGraphPrint(t);
        info.tensor = t;
        return info;
    }
    if (a.isTuple()) {
        info.kind = ValueInfo::Kind::Tuple;
        info.header = fmt::format("Tuple of {}", a.elements().size());
        for (const ops::KernelArg& e : a.elements()) {
            info.elements.push_back(describeValue(e, {}));
        }
        return info;
    }
    if (a.isValue() && a.value()) {
        info.kind = ValueInfo::Kind::Scalar;
        info.header = ir::formatValue(*a.value());
        return info;
    }
    info.kind = ValueInfo::Kind::None;
    info.header = "None";
    return info;
}

}  // namespace debug

// --- the stop ----------------------------------------------------------------------------

StopInfo Debugger::Impl::makeStop(StopReason reason, const KernelEvent& e,
                                  const ExecInspector& ex) {
    debug::ModuleIndex& idx = *index;
    StopInfo s;
    s.reason = reason;
    s.node = e.node;
    s.nodeName = idx.nameOf(*e.node);
    s.nodeLine = idx.lineOf(*e.node, 200);
    if (const ir::PrimitiveData* p = e.node->primitive()) {
        s.op = p->name;
    } else {
        s.op = "call";
    }
    s.graph = idx.graphName(e.node->graph());
    s.index = e.index;
    s.orderSize = ex.order(e.node->graph()).size();
    s.step = e.step;
    s.run = runCount;
    s.entryGraph = idx.module.entry() != nullptr ? idx.graphName(idx.module.entry()) : s.graph;
    s.placement = std::string(e.placement);
    s.source = debug::innermostSource(*e.node);
    for (const StackFrame& f : e.stack) {
        FrameInfo fi;
        fi.graph = idx.graphName(f.graph);
        if (f.callSite != nullptr) {
            fi.callSite = idx.lineOf(*f.callSite, 200);
            fi.where = debug::innermostSource(*f.callSite);
        }
        s.stack.push_back(std::move(fi));
    }
    if (s.stack.empty()) {
        s.stack.push_back({s.graph, {}, {}});
    }
    return s;
}

ValueInfo Debugger::inspect(std::string_view location) const {
    ValueInfo result;
    impl_->onStoppedThread([&] {
        Impl& d = *impl_;
        const debug::ModuleIndex& idx = *d.index;
        const StopInfo& stop = *d.stop;
        if (location.find_first_not_of(" \t") == std::string_view::npos) {
            if (d.output) {
                result = debug::describeValue(*d.output, stop.nodeName);
                result.node = stop.nodeLine;
                return;
            }
            // Before the kernel runs: its inputs.
            result.kind = ValueInfo::Kind::Tuple;
            result.name = stop.nodeName;
            result.node = stop.nodeLine;
            result.header = stop.nodeName + " has not run yet; its inputs:";
            for (std::size_t k = 1; k < stop.node->size(); ++k) {
                const ir::Node* in = stop.node->input(k);
                if (in->isValue()) {
                    continue;
                }
                const std::string name = idx.nameOf(*in);
                const auto v = d.inspector->valueOf(in);
                ValueInfo e = v ? debug::describeValue(*v, name) : ValueInfo{};
                e.name = name;
                if (!v) {
                    e.header = "(no value)";
                }
                result.elements.push_back(std::move(e));
            }
            return;
        }
        const debug::Location loc = debug::parseLocation(location, true);
        std::string error;
        const ir::Node* n = debug::resolveNode(loc, d.currentGraphName(), idx, &error);
        if (n == nullptr) {
            throw DebugError(error);
        }
        const std::string name = idx.nameOf(*n);
        const auto* c = ir::nodeCast<ir::CNode>(n);
        std::optional<ops::KernelArg> v;
        if (c == stop.node && d.output) {
            v = d.output;
        } else {
            v = d.inspector->valueOf(n);
        }
        if (!v) {
            const bool active =
                std::any_of(d.event->stack.begin(), d.event->stack.end(),
                            [&](const StackFrame& f) { return f.graph == n->graph(); });
            const std::string graph = "@" + idx.graphName(n->graph());
            throw DebugError(name + " in " + graph + " has no value now: " +
                             (c == stop.node ? std::string("it is the next kernel to run.")
                              : active       ? "it has not run yet in this call of " + graph + "."
                                             : "no active call of " + graph +
                                             " holds it (values live while their graph runs)."));
        }
        result = debug::describeValue(*v, name);
        result.node = c != nullptr ? idx.lineOf(*c, 200)
                                   : name + ": " +
                                         (n->abstract() ? ir::formatAbstract(*n->abstract())
                                                        : std::string("?"));
    });
    return result;
}

std::vector<ListedKernel> Debugger::listing(std::size_t radius) const {
    std::vector<ListedKernel> out;
    impl_->onStoppedThread([&] {
        Impl& d = *impl_;
        const ir::CNode* node = d.stop->node;
        const auto order = d.inspector->order(node->graph());
        std::unordered_set<const ir::CNode*> breaks;
        {
            std::lock_guard lk(d.mu);
            d.ensureResolved(*d.inspector);
            for (const auto& [c, ids] : d.breakAt) {
                for (int id : ids) {
                    const Breakpoint* b = d.find(id);
                    if (b != nullptr && b->enabled) {
                        breaks.insert(c);
                    }
                }
            }
        }
        const std::size_t cur = d.stop->index;
        const std::size_t from = cur > radius ? cur - radius : 0;
        const std::size_t to = std::min(order.size(), cur + radius + 1);
        for (std::size_t i = from; i < to; ++i) {
            ListedKernel k;
            k.index = i;
            k.line = d.index->lineOf(*order[i], 160);
            k.source = debug::innermostSource(*order[i]);
            k.current = i == cur && order[i] == node;
            k.breakpoint = breaks.count(order[i]) != 0;
            out.push_back(std::move(k));
        }
    });
    return out;
}

std::string Debugger::sourceListing(int radius) const {
    std::optional<StopInfo> stop = stopInfo();
    if (!stop) {
        throw DebugError("The program is not stopped.");
    }
    const ir::SourceLocation& where = stop->source;
    if (where.line <= 0) {
        throw DebugError("No source line is known for " + stop->nodeName + ".");
    }
    SourceLookup lookup;
    {
        std::lock_guard lk(impl_->mu);
        lookup = impl_->sourceLookup;
    }
    const std::optional<std::string> text = lookup ? lookup(where.file) : std::nullopt;
    if (!text) {
        return fmt::format("{}\t{}\n", where.line, where.text);
    }
    std::string out;
    std::istringstream in(*text);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (n >= where.line - radius && n <= where.line + radius) {
            out += fmt::format("{}{}\t{}\n", n == where.line ? "=> " : "   ", n, line);
        }
    }
    return out;
}

}  // namespace irscope::runtime
