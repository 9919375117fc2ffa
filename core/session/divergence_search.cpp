// The walk of the first-divergence search and the description of what it finds
// (session/divergence.h).
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <unordered_set>

#include "ir/prim_names.h"
#include "runtime/print_format.h"
#include "session/divergence_impl.h"

namespace irscope::session::detail {

namespace {

ir::SourceLocation innermost(const ir::Node& n) {
    const auto& trace = n.debug().trace;
    for (auto it = trace.rbegin(); it != trace.rend(); ++it) {
        if (it->line > 0) {
            return *it;
        }
    }
    return {};
}

std::string opOf(const ir::CNode& c) {
    if (const ir::PrimitiveData* p = c.primitive()) {
        return p->name;
    }
    return "call";
}

bool isAssign(const ir::CNode& c) {
    return c.isPrimitive(ir::prim::kAssign) || c.isPrimitive(ir::prim::kAssignAdd) ||
           c.isPrimitive(ir::prim::kAssignSub);
}

// Whether `user` hands its input at `index` on as it is (the value stays an alias).
bool forwards(const ir::CNode& user, std::size_t index) {
    return user.isPrimitive(ir::prim::kMakeTuple) || user.isPrimitive(ir::prim::kTupleGetItem) ||
           (user.isPrimitive(ir::prim::kDepend) && index == 1);
}

// Nodes that compute nothing: they hand on (MakeTuple, TupleGetItem, Depend), alias (Load:
// virtual, it aliases its Parameter) or order (UpdateState) values; the memory plan gives
// them no buffer. Their consumers are compared instead.
bool computesNothing(const ir::CNode& c) {
    return c.isPrimitive(ir::prim::kMakeTuple) || c.isPrimitive(ir::prim::kTupleGetItem) ||
           c.isPrimitive(ir::prim::kDepend) || c.isPrimitive(ir::prim::kUpdateState) ||
           c.isPrimitive(ir::prim::kLoad);
}

// A node's line for a view: CNodes as printed, parameters by their printed name.
std::string lineOf(const TracedModule& tm, const ir::Node& n) {
    if (const auto* c = ir::nodeCast<ir::CNode>(&n)) {
        return tm.lines->line(*c);
    }
    return tm.index->names().of(n);
}

const std::string& settingLabel(const std::array<std::string, 2>& labels, int side) {
    return labels[static_cast<std::size_t>(side)];
}

}  // namespace

std::string valueText(const std::optional<ops::KernelArg>& v) {
    if (!v) {
        return {};
    }
    return runtime::formatPrintInput(*v);
}

std::string shortValue(const std::optional<ops::KernelArg>& v) {
    if (v && v->isTensor() && v->tensor().size() == 1) {
        const ir::Tensor& t = v->tensor();
        return ir::isFloat(t.dtype()) ? fmt::format("{:g}", t.getDouble(0))
                                      : std::to_string(t.getInt(0));
    }
    return valueText(v);
}

std::optional<std::size_t> lastRunBefore(const TracedRun& run, KernelKey key,
                                         std::uint64_t before) {
    std::optional<std::size_t> last;
    for (std::uint32_t occ = 0;; ++occ) {
        const std::optional<std::size_t> k = run.find(key, occ);
        if (!k || run.kernels[*k].step >= before) {
            return last;
        }
        last = k;
    }
}

std::vector<StaleLoad> staleLoads(const TracedRun& run, const KernelIndex& index,
                                  const ir::CNode& node, std::uint64_t step) {
    std::vector<StaleLoad> out;
    std::vector<const ir::CNode*> work{&node};
    std::unordered_set<const ir::Node*> seen{&node};
    std::vector<const ir::CNode*> loads;
    while (!work.empty()) {
        const ir::CNode* c = work.back();
        work.pop_back();
        for (std::size_t i = 1; i < c->size(); ++i) {
            const auto* in = ir::nodeCast<ir::CNode>(c->input(i));
            if (in == nullptr || !seen.insert(in).second) {
                continue;
            }
            if (in->isPrimitive(ir::prim::kLoad) && in->size() >= 2) {
                loads.push_back(in);
            } else if (c == &node || forwards(*c, i)) {
                if (in->isPrimitive(ir::prim::kMakeTuple) ||
                    in->isPrimitive(ir::prim::kTupleGetItem) ||
                    in->isPrimitive(ir::prim::kDepend)) {
                    work.push_back(in);
                }
            }
        }
    }
    for (const ir::CNode* load : loads) {
        const ir::Node* param = load->input(1);
        const std::optional<KernelKey> key = index.key(load);
        if (!key) {
            continue;
        }
        const std::optional<std::size_t> at = lastRunBefore(run, *key, step);
        if (!at) {
            continue;
        }
        const std::uint64_t loaded = run.kernels[*at].step;
        std::optional<std::size_t> assign;
        for (std::size_t j = 0; j < run.kernels.size(); ++j) {
            const TracedKernel& k = run.kernels[j];
            if (k.step <= loaded || k.step >= step) {
                continue;
            }
            const ir::CNode* c = index.node(k.key);
            if (c != nullptr && isAssign(*c) && c->size() >= 2 && c->input(1) == param &&
                (!assign || run.kernels[*assign].step < k.step)) {
                assign = j;
            }
        }
        if (assign) {
            out.push_back(StaleLoad{load, index.node(run.kernels[*assign].key), *at, *assign});
        }
    }
    return out;
}

TraceComparison::TraceComparison(const KernelTrace& a, const KernelTrace& b, const store::Session& sa,
                                 const store::Session& sb, const Tolerance& tol)
    : traces_{&a, &b}, sessions_{&sa, &sb}, tol_(tol) {
    for (std::size_t side = 0; side < 2; ++side) {
        for (const std::string& text : traces_[side]->modules()) {
            TracedModule tm;
            tm.module = ir::parseIr(text, "<traced module>");
            tm.index = std::make_unique<KernelIndex>(*tm.module);
            tm.lines = std::make_unique<ir::NodeLines>(*tm.module);
            modules_[side].push_back(std::move(tm));
        }
    }
}

const ir::NodeMatching& TraceComparison::matching(std::size_t ma, std::size_t mb) const {
    const auto key = std::make_pair(ma, mb);
    auto it = matchings_.find(key);
    if (it == matchings_.end()) {
        it = matchings_
                 .emplace(key, ir::matchModules(*modules_[0][ma].module, *modules_[1][mb].module))
                 .first;
    }
    return it->second;
}

DivergentKernel TraceComparison::describe(int side, std::size_t run, std::size_t k) const {
    const auto s = static_cast<std::size_t>(side);
    const TracedRun& tr = traces_[s]->runs()[run];
    const TracedKernel& tk = tr.kernels[k];
    const TracedModule& tm = modules_[s][tr.module];
    DivergentKernel d;
    d.run = run;
    if (run < sessions_[s]->runs.size()) {
        d.compile = sessions_[s]->runs[run].compile;
    }
    d.step = tk.step;
    d.occurrence = tk.occurrence;
    d.placement = tk.placement;
    d.value = valueText(tk.value);
    const ir::CNode* n = tm.index->node(tk.key);
    if (n == nullptr) {
        return d;
    }
    d.graph = tm.lines->graphName(*n->graph());
    d.node = tm.index->names().of(*n);
    d.line = tm.lines->line(*n);
    d.op = opOf(*n);
    d.scope = n->debug().scope;
    d.source = innermost(*n);

    // Its neighbourhood: the nodes it reads, itself, the nodes reading it.
    for (std::size_t i = 1; i < n->size(); ++i) {
        if (const auto* in = ir::nodeCast<ir::CNode>(n->input(i))) {
            d.neighbourhood.push_back(tm.lines->line(*in));
        }
    }
    d.neighbourhood.push_back("> " + d.line);
    std::size_t users = 0;
    for (const ir::Use& u : n->users()) {
        if (++users > 8) {
            d.neighbourhood.push_back("  ...");
            break;
        }
        d.neighbourhood.push_back(tm.lines->line(*u.user));
    }

    // Upstream: breadth-first over the inputs (not the state chain), nearest first.
    const std::vector<StaleLoad> stale = staleLoads(tr, *tm.index, *n, tk.step);
    std::deque<std::pair<const ir::Node*, int>> work;
    std::unordered_set<const ir::Node*> seen{n};
    auto push = [&](const ir::CNode& c, int depth) {
        for (std::size_t i = 1; i < c.size(); ++i) {
            const ir::Node* in = c.input(i);
            const auto* ic = ir::nodeCast<ir::CNode>(in);
            const bool keep = ir::nodeCast<ir::Parameter>(in) != nullptr ||
                              (ic != nullptr && !ic->isPrimitive(ir::prim::kUpdateState));
            if (keep && seen.insert(in).second) {
                work.emplace_back(in, depth);
            }
        }
    };
    push(*n, 1);
    constexpr std::size_t kMaxUpstream = 12;
    constexpr int kMaxDepth = 4;
    while (!work.empty() && d.upstream.size() < kMaxUpstream) {
        const auto [node, depth] = work.front();
        work.pop_front();
        UpstreamNode u;
        u.line = lineOf(tm, *node);
        u.depth = depth;
        if (const auto* c = ir::nodeCast<ir::CNode>(node)) {
            if (const std::optional<KernelKey> key = tm.index->key(c)) {
                if (const std::optional<std::size_t> at = lastRunBefore(tr, *key, tk.step)) {
                    u.value = valueText(tr.kernels[*at].value);
                }
            }
            for (const StaleLoad& sl : stale) {
                if (sl.load == c) {
                    u.readAs = valueText(tr.kernels[sl.assignKernel].value);
                }
            }
            if (depth < kMaxDepth) {
                push(*c, depth + 1);
            }
        }
        d.upstream.push_back(std::move(u));
    }
    return d;
}

std::string TraceComparison::explain(const Divergence& d, std::size_t run,
                                     const std::array<std::size_t, 2>& kernels,
                                     const std::array<std::string, 2>& labels) const {
    for (int side = 0; side < 2; ++side) {
        const auto s = static_cast<std::size_t>(side);
        const TracedRun& tr = traces_[s]->runs()[run];
        const TracedKernel& tk = tr.kernels[kernels[s]];
        const TracedModule& tm = modules_[s][tr.module];
        const ir::CNode* n = tm.index->node(tk.key);
        if (n == nullptr) {
            continue;
        }
        const std::vector<StaleLoad> stale = staleLoads(tr, *tm.index, *n, tk.step);
        if (stale.empty()) {
            continue;
        }
        const StaleLoad& first = stale.front();
        const auto* param = ir::nodeCast<ir::Parameter>(first.load->input(1));
        const std::string paramName =
            param != nullptr ? param->name() : lineOf(tm, *first.load->input(1));
        // The other side: does the counterpart of the Load have a TensorMove copying it?
        const std::size_t o = 1 - s;
        const TracedRun& otherRun = traces_[o]->runs()[run];
        const ir::NodeMatching& m =
            matching(s == 0 ? tr.module : otherRun.module, s == 0 ? otherRun.module : tr.module);
        const ir::Node* counterpart = s == 0 ? m.after(first.load) : m.before(first.load);
        std::string other;
        if (counterpart != nullptr) {
            for (const ir::Use& u : counterpart->users()) {
                if (u.user->isPrimitive(ir::prim::kTensorMove)) {
                    other = fmt::format(" On {}, TensorMove {} copies that Load.",
                                        settingLabel(labels, 1 - side),
                                        modules_[o][otherRun.module].index->names().of(*u.user));
                    break;
                }
            }
        }
        std::string hint;
        const store::Session& ss = *sessions_[s];
        const std::size_t compile = d.sides[s].compile;
        if (compile < ss.compiles.size() &&
            ss.compiles[compile].settings.getInt(passes::kSideEffectLoadElim, 1) == 3) {
            hint =
                " (MS_DEV_SIDE_EFFECT_LOAD_ELIM=3 inserts no TensorMove; levels 0-2 copy "
                "such Loads.)";
        }
        const std::string loaded = shortValue(tr.kernels[first.loadKernel].value);
        const std::string read = shortValue(tr.kernels[first.assignKernel].value);
        const std::string more =
            stale.size() > 1 ? fmt::format(" ({} such Loads)", stale.size()) : std::string();
        return fmt::format(
            "On {}, {} {} reads Load {} of Parameter '{}'{} after Assign {} overwrote it: a "
            "Load aliases its Parameter and no TensorMove copied it, so {} read {} where the "
            "Load saw {}.{}{}",
            settingLabel(labels, side), opOf(*n), tm.index->names().of(*n),
            tm.index->names().of(*first.load), paramName, more, tm.index->names().of(*first.assign),
            opOf(*n), read, loaded, other, hint);
    }
    return {};
}

namespace {

// A kernel by what it is rather than where: its op and its innermost source location. Lazy
// inline keeps one CR_ graph whose kernels run once per layer where the inlined program has a
// copy per layer; both run the same (op, source) kernels in the same order.
std::string sourceKey(const ir::CNode& c) {
    const ir::SourceLocation s = innermost(c);
    return fmt::format("{}@{}:{}:{}:{}", opOf(c), s.file, s.line, s.col, s.colEnd);
}

// Each (op, source) key's executions in a graph run, in execution order.
std::unordered_map<std::string, std::vector<std::size_t>> bySource(const TracedRun& run,
                                                                   const KernelIndex& index) {
    std::unordered_map<std::string, std::vector<std::size_t>> out;
    for (std::size_t i = 0; i < run.kernels.size(); ++i) {
        if (const ir::CNode* c = index.node(run.kernels[i].key)) {
            out[sourceKey(*c)].push_back(i);
        }
    }
    return out;
}

}  // namespace

void TraceComparison::search(DivergenceResult& r) const {
    const auto& ta = traces_[0]->runs();
    const auto& tb = traces_[1]->runs();
    const std::size_t common = std::min(ta.size(), tb.size());
    for (std::size_t run = 0; run < common; ++run) {
        ++r.graphRuns;
        const TracedModule& mb = modules_[1][tb[run].module];
        const TracedModule& ma = modules_[0][ta[run].module];
        const ir::NodeMatching& m = matching(ta[run].module, tb[run].module);
        std::optional<std::unordered_map<std::string, std::vector<std::size_t>>> sourcesB;
        std::unordered_map<std::string, std::size_t> seenA;  // executions per source key
        for (std::size_t i = 0; i < ta[run].kernels.size(); ++i) {
            const TracedKernel& ka = ta[run].kernels[i];
            const ir::CNode* na = ma.index->node(ka.key);
            if (na == nullptr) {
                ++r.unmatched;
                continue;
            }
            const std::string source = sourceKey(*na);
            const std::size_t nth = seenA[source]++;
            if (computesNothing(*na)) {
                continue;
            }
            const ir::Node* nb = m.after(na);
            const std::optional<KernelKey> keyB = nb != nullptr ? mb.index->key(nb) : std::nullopt;
            std::optional<std::size_t> j;
            if (keyB) {
                j = tb[run].find(*keyB, ka.occurrence);
            } else {
                // No counterpart node (the graphs differ, e.g. lazy inline's CR_ graph against
                // its inlined copies): the same execution of the same (op, source) kernel.
                if (!sourcesB) {
                    sourcesB = bySource(tb[run], *mb.index);
                }
                const auto it = sourcesB->find(source);
                if (it == sourcesB->end() || nth >= it->second.size() ||
                    mb.index->node(tb[run].kernels[it->second[nth]].key) == nullptr ||
                    innermost(*na).line <= 0) {
                    ++r.unmatched;
                    continue;
                }
                j = it->second[nth];
                nb = mb.index->node(tb[run].kernels[*j].key);
            }
            Divergence d;
            if (!j) {
                d.kind = Divergence::Kind::Missing;
                d.sides[0] = describe(0, run, i);
                const std::string& error =
                    run < sessions_[1]->runs.size() ? sessions_[1]->runs[run].error : std::string();
                d.detail = fmt::format(
                    "{} ran {} time{} on {}; its counterpart {} did not run as often on {}{}",
                    d.sides[0].node, ka.occurrence + 1, ka.occurrence == 0 ? "" : "s", r.labels[0],
                    mb.index->names().of(*nb), r.labels[1],
                    error.empty() ? std::string() : " (that run failed: " + error + ")");
                r.first = std::move(d);
                return;
            }
            const TracedKernel& kb = tb[run].kernels[*j];
            std::string why;
            if (ka.value && kb.value && !valuesAgree(*ka.value, *kb.value, tol_, &why)) {
                d.kind = Divergence::Kind::Value;
                d.sides[0] = describe(0, run, i);
                d.sides[1] = describe(1, run, *j);
                d.detail = why;
                d.explanation = explain(d, run, {i, *j}, r.labels);
                r.first = std::move(d);
                return;
            }
            ++r.compared;
        }
    }
    if (ta.size() != tb.size()) {
        Divergence d;
        d.kind = Divergence::Kind::Runs;
        d.detail = fmt::format("{} ran {} compiled graph{}, {} ran {}", r.labels[0], ta.size(),
                               ta.size() == 1 ? "" : "s", r.labels[1], tb.size());
        r.first = std::move(d);
        return;
    }
    // Every kernel agrees: do the graphs' returned values and the scripts' ends? (What host
    // code prints is not compared: it may be timings.)
    const std::vector<store::RunRecord>& ra = sessions_[0]->runs;
    const std::vector<store::RunRecord>& rb = sessions_[1]->runs;
    for (std::size_t k = 0; k < std::min(ra.size(), rb.size()); ++k) {
        if (ra[k].values != rb[k].values || ra[k].error != rb[k].error) {
            Divergence d;
            d.kind = Divergence::Kind::Output;
            d.detail =
                fmt::format("no kernel differs, but graph run {} (@{}) returned {} vs {}", k + 1,
                            ra[k].graphName, ra[k].error.empty() ? ra[k].values : ra[k].error,
                            rb[k].error.empty() ? rb[k].values : rb[k].error);
            r.first = std::move(d);
            return;
        }
    }
    if (r.results[0].exitStatus != r.results[1].exitStatus) {
        Divergence d;
        d.kind = Divergence::Kind::Output;
        d.detail = fmt::format("no kernel differs, but the script exits with {} vs {}",
                               r.results[0].exitStatus, r.results[1].exitStatus);
        r.first = std::move(d);
    }
}

}  // namespace irscope::session::detail
