#include "ir/ir_diff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <functional>
#include <map>
#include <utility>

#include "ir/ir_text.h"
#include "ir/local_names.h"

namespace irscope::ir {

const char* diffKindName(DiffKind k) {
    switch (k) {
    case DiffKind::Same:
        return "same";
    case DiffKind::Changed:
        return "changed";
    case DiffKind::Added:
        return "added";
    case DiffKind::Removed:
        return "removed";
    }
    return "same";
}

const Node* NodeMatching::after(const Node* beforeNode) const {
    auto it = toAfter_.find(beforeNode);
    return it == toAfter_.end() ? nullptr : it->second;
}

const Node* NodeMatching::before(const Node* afterNode) const {
    auto it = toBefore_.find(afterNode);
    return it == toBefore_.end() ? nullptr : it->second;
}

const FuncGraph* NodeMatching::afterGraph(const FuncGraph* beforeGraph) const {
    auto it = graphToAfter_.find(beforeGraph);
    return it == graphToAfter_.end() ? nullptr : it->second;
}

const FuncGraph* NodeMatching::beforeGraph(const FuncGraph* afterGraph) const {
    auto it = graphToBefore_.find(afterGraph);
    return it == graphToBefore_.end() ? nullptr : it->second;
}

DiffKind NodeMatching::kind(const Node* n) const {
    auto it = kind_.find(n);
    return it == kind_.end() ? DiffKind::Same : it->second;
}

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

std::uint64_t hashText(std::string_view s) { return std::hash<std::string_view>{}(s); }

// "Net_construct.3" -> "Net_construct": the printer's suffix for duplicate names.
std::string_view baseName(std::string_view name) {
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot + 1 == name.size()) {
        return name;
    }
    for (std::size_t i = dot + 1; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') {
            return name;
        }
    }
    return name.substr(0, dot);
}

// What a CNode calls, independent of numbering: "P:Load", "G:Net_construct", ...
std::string calleeKey(const CNode& c) {
    const Node* callee = c.callee();
    if (callee == nullptr) {
        return "?";
    }
    if (const auto* v = nodeCast<ValueNode>(callee)) {
        const Value& val = *v->value();
        if (val.kind == Value::Kind::Primitive) {
            return "P:" + val.prim->name;
        }
        if (val.kind == Value::Kind::Graph && val.graph != nullptr) {
            return "G:" + std::string(baseName(val.graph->name()));
        }
        return "V:" + formatValue(val);
    }
    if (const auto* p = nodeCast<Parameter>(callee)) {
        return "A:" + p->name();
    }
    const auto* cc = nodeCast<CNode>(callee);
    const PrimitiveData* prim = cc != nullptr ? cc->primitive() : nullptr;
    return "N:" + (prim != nullptr ? prim->name : std::string());
}

std::string abstractText(const Node& n) {
    return n.abstract() ? formatAbstract(*n.abstract()) : std::string("<null>");
}

// One module's classified nodes, in print order, with their structural hashes.
struct Side {
    explicit Side(const Module& m) {
        for (const FuncGraph* g : localNames(m).order) {
            graphs.push_back(g);
            for (const Parameter* p : g->parameters()) {
                params.push_back(p);
            }
            for (const CNode* c : g->topoOrder()) {
                pos.emplace(c, cnodes.size());
                cnodes.push_back(c);
            }
        }
        for (const CNode* c : cnodes) {
            std::uint64_t h = mix(hashText(baseName(c->graph()->name())), hashText(calleeKey(*c)));
            for (std::size_t i = 1; i < c->size(); ++i) {
                h = mix(h, inputHash(c->input(i), c->graph()));
            }
            hash.emplace(c, h);
        }
    }

    std::uint64_t inputHash(const Node* in, const FuncGraph* g) const {
        if (const auto* v = nodeCast<ValueNode>(in)) {
            return mix(1, hashText(formatValue(*v->value())));
        }
        if (const auto* p = nodeCast<Parameter>(in)) {
            return mix(2, mix(hashText(baseName(p->graph()->name())), hashText(p->name())));
        }
        const auto* c = nodeCast<CNode>(in);
        if (c->graph() == g) {
            auto it = hash.find(c);
            if (it != hash.end()) {
                return it->second;
            }
        }
        // A free variable: its graph, callee and debug name (the same on both sides).
        return mix(3, mix(hashText(baseName(c->graph()->name())),
                          mix(hashText(calleeKey(*c)), hashText(c->debug().name))));
    }

    std::vector<const FuncGraph*> graphs;
    std::vector<const Parameter*> params;
    std::vector<const CNode*> cnodes;  // graph bodies in print order, Returns included
    std::unordered_map<const CNode*, std::size_t> pos;
    std::unordered_map<const CNode*, std::uint64_t> hash;
};

class Matcher {
public:
    Matcher(const Module& before, const Module& after,
            std::unordered_map<const Node*, const Node*>& toAfter,
            std::unordered_map<const Node*, const Node*>& toBefore,
            std::unordered_map<const FuncGraph*, const FuncGraph*>& graphToAfter,
            std::unordered_map<const FuncGraph*, const FuncGraph*>& graphToBefore)
        : a_(before), b_(after), toAfter_(toAfter), toBefore_(toBefore),
          graphToAfter_(graphToAfter), graphToBefore_(graphToBefore) {}

    void run() {
        matchGraphs();
        matchParametersAndReturns();
        matchByHash();
        matchByDebugName();
        for (int round = 0; round < 100; ++round) {
            const bool down = propagateDown();
            const bool up = propagateUp();
            if (!down && !up) {
                break;
            }
        }
        matchLeftovers();
    }

    const Side& a() const { return a_; }
    const Side& b() const { return b_; }

private:
    void pairGraphs(const FuncGraph* x, const FuncGraph* y) {
        graphToAfter_[x] = y;
        graphToBefore_[y] = x;
    }

    void matchGraphs() {
        // Exact names first, then names without the duplicate suffix; unique ones only.
        for (int pass = 0; pass < 2; ++pass) {
            std::map<std::string, std::pair<std::vector<const FuncGraph*>, std::vector<const FuncGraph*>>> byName;
            auto key = [pass](const FuncGraph* g) {
                return pass == 0 ? g->name() : std::string(baseName(g->name()));
            };
            for (const FuncGraph* g : a_.graphs) {
                if (graphToAfter_.count(g) == 0) {
                    byName[key(g)].first.push_back(g);
                }
            }
            for (const FuncGraph* g : b_.graphs) {
                if (graphToBefore_.count(g) == 0) {
                    byName[key(g)].second.push_back(g);
                }
            }
            for (const auto& [name, sides] : byName) {
                if (sides.first.size() == 1 && sides.second.size() == 1) {
                    pairGraphs(sides.first[0], sides.second[0]);
                }
            }
        }
    }

    bool matched(const Node* n) const { return toAfter_.count(n) != 0 || toBefore_.count(n) != 0; }

    bool sameGraphs(const Node* x, const Node* y) const {
        auto it = graphToAfter_.find(x->graph());
        return it != graphToAfter_.end() && it->second == y->graph();
    }

    // Pairs x (before) with y (after) when both are free and in matched graphs.
    bool pair(const Node* x, const Node* y) {
        if (matched(x) || matched(y) || !sameGraphs(x, y) || x->kind() != y->kind()) {
            return false;
        }
        toAfter_[x] = y;
        toBefore_[y] = x;
        return true;
    }

    void matchParametersAndReturns() {
        for (const auto& [ga, gb] : graphToAfter_) {
            // Parameters by name, when the name is unique in both graphs.
            std::unordered_map<std::string_view, std::pair<int, const Parameter*>> theirs;
            for (const Parameter* q : gb->parameters()) {
                auto& [count, param] = theirs[q->name()];
                ++count;
                param = q;
            }
            std::unordered_map<std::string_view, int> ours;
            for (const Parameter* p : ga->parameters()) {
                ++ours[p->name()];
            }
            for (const Parameter* p : ga->parameters()) {
                auto it = theirs.find(p->name());
                if (it != theirs.end() && it->second.first == 1 && ours[p->name()] == 1) {
                    pair(p, it->second.second);
                }
            }
            if (ga->returnNode() != nullptr && gb->returnNode() != nullptr) {
                pair(ga->returnNode(), gb->returnNode());
            }
        }
    }

    // Buckets of free CNodes by a key; buckets holding as many nodes on each side (at most
    // `maxBucket`) are paired in print order.
    template <typename Key, typename KeyFn>
    bool pairBuckets(KeyFn&& keyOf, std::size_t maxBucket) {
        std::map<Key, std::pair<std::vector<const CNode*>, std::vector<const CNode*>>> buckets;
        for (const CNode* c : a_.cnodes) {
            if (!matched(c)) {
                if (auto k = keyOf(c, true)) {
                    buckets[*k].first.push_back(c);
                }
            }
        }
        for (const CNode* c : b_.cnodes) {
            if (!matched(c)) {
                if (auto k = keyOf(c, false)) {
                    buckets[*k].second.push_back(c);
                }
            }
        }
        bool any = false;
        for (auto& [k, sides] : buckets) {
            if (sides.first.size() == sides.second.size() && sides.first.size() <= maxBucket) {
                for (std::size_t i = 0; i < sides.first.size(); ++i) {
                    any = pair(sides.first[i], sides.second[i]) || any;
                }
            }
        }
        return any;
    }

    void matchByHash() {
        const Side& sa = a_;
        const Side& sb = b_;
        pairBuckets<std::uint64_t>(
            [&](const CNode* c, bool isA) -> std::optional<std::uint64_t> {
                return (isA ? sa : sb).hash.at(c);
            },
            SIZE_MAX);
    }

    void matchByDebugName() {
        pairBuckets<std::string>(
            [](const CNode* c, bool) -> std::optional<std::string> {
                if (c->debug().name.empty()) {
                    return std::nullopt;
                }
                return std::string(baseName(c->graph()->name())) + '\x1f' + calleeKey(*c) + '\x1f' +
                       c->debug().name;
            },
            1);
    }

    // Inputs at the same position of matched nodes, visiting users before inputs.
    bool propagateDown() {
        bool any = false;
        for (auto it = a_.cnodes.rbegin(); it != a_.cnodes.rend(); ++it) {
            const CNode* x = *it;
            const auto* y = nodeCast<CNode>(counterpart(x));
            if (y == nullptr) {
                continue;
            }
            const std::size_t n = std::min(x->size(), y->size());
            for (std::size_t i = 0; i < n; ++i) {
                const auto* ix = nodeCast<CNode>(x->input(i));
                const auto* iy = nodeCast<CNode>(y->input(i));
                if (ix != nullptr && iy != nullptr && !matched(ix) && !matched(iy) &&
                    calleeKey(*ix) == calleeKey(*iy)) {
                    any = pair(ix, iy) || any;
                }
            }
        }
        return any;
    }

    const Node* counterpart(const Node* x) const {
        auto it = toAfter_.find(x);
        return it == toAfter_.end() ? nullptr : it->second;
    }

    const FuncGraph* graphToBeforeOrNull(const FuncGraph* g) const {
        auto it = graphToBefore_.find(g);
        return it == graphToBefore_.end() ? nullptr : it->second;
    }

    // Whether free before-node p and free after-node q have the same callee and inputs:
    // constants equal, matched inputs each other's counterparts, free inputs free.
    bool sameShape(const CNode* p, const CNode* q) const {
        if (p->size() != q->size() || calleeKey(*p) != calleeKey(*q)) {
            return false;
        }
        for (std::size_t i = 1; i < p->size(); ++i) {
            const Node* x = p->input(i);
            const Node* y = q->input(i);
            const auto* vx = nodeCast<ValueNode>(x);
            const auto* vy = nodeCast<ValueNode>(y);
            if (vx != nullptr || vy != nullptr) {
                if (vx == nullptr || vy == nullptr || formatValue(*vx->value()) != formatValue(*vy->value())) {
                    return false;
                }
            } else if (const Node* cx = counterpart(x)) {
                if (cx != y) {
                    return false;
                }
            } else if (matched(y)) {
                return false;
            }
        }
        return true;
    }

    // Among the free users of `input` in graph `g`, the one node of shape `like` (compared
    // with `like` on the other side), or nullptr if none or several.
    const CNode* uniqueUser(const Node* input, const FuncGraph* g, const CNode* like, bool usersAreAfter) const {
        const CNode* found = nullptr;
        for (const Use& u : input->users()) {
            const CNode* c = u.user;
            if (c == found || matched(c) || c->graph() != g ||
                !(usersAreAfter ? sameShape(like, c) : sameShape(c, like))) {
                continue;
            }
            if (found != nullptr) {
                return nullptr;
            }
            found = c;
        }
        return found;
    }

    // Bottom-up, in one forward sweep (a pair found is used by the nodes after it): a free
    // node matches the one free node on the other side with its callee whose inputs are
    // the counterparts of its matched inputs, when the choice is unique both ways. The
    // candidates are the users of the counterpart of its least-used matched input.
    bool propagateUp() {
        bool any = false;
        for (const CNode* x : a_.cnodes) {
            if (matched(x)) {
                continue;
            }
            auto g = graphToAfter_.find(x->graph());
            if (g == graphToAfter_.end()) {
                continue;
            }
            const Node* anchor = nullptr;
            for (std::size_t i = 1; i < x->size(); ++i) {
                const Node* in = x->input(i);
                if (!in->isValue() && counterpart(in) != nullptr &&
                    (anchor == nullptr || in->users().size() < anchor->users().size())) {
                    anchor = in;
                }
            }
            if (anchor == nullptr) {
                continue;
            }
            const CNode* y = uniqueUser(counterpart(anchor), g->second, x, true);
            if (y != nullptr && uniqueUser(anchor, x->graph(), y, false) == x) {
                any = pair(x, y) || any;
            }
        }
        return any;
    }

    void matchLeftovers() {
        pairBuckets<std::string>(
            [this](const CNode* c, bool isA) -> std::optional<std::string> {
                const FuncGraph* g = isA ? c->graph() : graphToBeforeOrNull(c->graph());
                if (g == nullptr) {
                    return std::nullopt;
                }
                return std::to_string(reinterpret_cast<std::uintptr_t>(g)) + '\x1f' + calleeKey(*c);
            },
            SIZE_MAX);
    }

    Side a_;
    Side b_;
    std::unordered_map<const Node*, const Node*>& toAfter_;
    std::unordered_map<const Node*, const Node*>& toBefore_;
    std::unordered_map<const FuncGraph*, const FuncGraph*>& graphToAfter_;
    std::unordered_map<const FuncGraph*, const FuncGraph*>& graphToBefore_;
};

bool sameInput(const Node* x, const Node* y, const std::unordered_map<const Node*, const Node*>& toAfter) {
    const auto* vx = nodeCast<ValueNode>(x);
    const auto* vy = nodeCast<ValueNode>(y);
    if (vx != nullptr || vy != nullptr) {
        return vx != nullptr && vy != nullptr && formatValue(*vx->value()) == formatValue(*vy->value());
    }
    auto it = toAfter.find(x);
    return it != toAfter.end() && it->second == y;
}

bool sameNode(const Node& x, const Node& y, const std::unordered_map<const Node*, const Node*>& toAfter) {
    if (abstractText(x) != abstractText(y)) {
        return false;
    }
    if (const auto* px = nodeCast<Parameter>(&x)) {
        const auto* py = nodeCast<Parameter>(&y);
        return px->name() == py->name() && px->hasDefault() == py->hasDefault();
    }
    const auto* cx = nodeCast<CNode>(&x);
    const auto* cy = nodeCast<CNode>(&y);
    if (cx->size() != cy->size() || !(cx->attrs() == cy->attrs()) || calleeKey(*cx) != calleeKey(*cy)) {
        return false;
    }
    for (std::size_t i = 0; i < cx->size(); ++i) {
        if (!sameInput(cx->input(i), cy->input(i), toAfter)) {
            return false;
        }
    }
    return true;
}

}  // namespace

NodeMatching matchModules(const Module& before, const Module& after) {
    NodeMatching out;
    Matcher m(before, after, out.toAfter_, out.toBefore_, out.graphToAfter_, out.graphToBefore_);
    m.run();
    auto classify = [&](const Node* n) {
        const Node* y = out.after(n);
        DiffKind k = DiffKind::Removed;
        if (y != nullptr) {
            k = sameNode(*n, *y, out.toAfter_) ? DiffKind::Same : DiffKind::Changed;
            out.kind_[y] = k;
            (k == DiffKind::Same ? out.counts_.same : out.counts_.changed) += 1;
        } else {
            ++out.counts_.removed;
        }
        out.kind_[n] = k;
    };
    for (const Parameter* p : m.a().params) {
        classify(p);
    }
    for (const CNode* c : m.a().cnodes) {
        classify(c);
    }
    auto added = [&](const Node* n) {
        if (out.before(n) == nullptr) {
            out.kind_[n] = DiffKind::Added;
            ++out.counts_.added;
        }
    };
    for (const Parameter* p : m.b().params) {
        added(p);
    }
    for (const CNode* c : m.b().cnodes) {
        added(c);
    }
    return out;
}

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

namespace {

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.';
}

// Rewrites the before text's local names into the after text's (see the file comment).
class Renamer {
public:
    Renamer(const Module& before, const Module& after, const NodeMatching& matching) {
        const LocalNames la = localNames(before);
        const LocalNames lb = localNames(after);
        const NodeLines printed(before);
        for (const FuncGraph* g : la.order) {
            graphs_.emplace(printed.graphName(*g), g);
            auto& names = locals_[g];
            for (const CNode* c : la.body(g)) {
                const auto* y = nodeCast<CNode>(matching.after(c));
                const std::string other = y != nullptr ? lb.of(*y) : std::string();
                names.emplace(la.number.at(c), other.empty() ? "%?" + std::to_string(la.number.at(c)) : other);
            }
            for (const Parameter* p : g->parameters()) {
                const Node* y = matching.after(p);
                const std::string own = la.of(*p);
                const std::string other = y != nullptr ? lb.of(*y) : std::string();
                params_.emplace(own, other.empty() ? "%?" + own.substr(1) : other);
            }
        }
    }

    std::string rewrite(std::string_view line) {
        if (line.rfind("subgraph @", 0) == 0) {
            std::size_t end = line.find('(');
            const std::string name(line.substr(10, end == std::string_view::npos ? line.npos : end - 10));
            auto it = graphs_.find(name);
            current_ = it == graphs_.end() ? nullptr : it->second;
        } else if (line.rfind('}', 0) == 0) {
            current_ = nullptr;
        }
        std::string out;
        out.reserve(line.size());
        std::size_t i = 0;
        while (i < line.size()) {
            if (line[i] != '%') {
                out += line[i++];
                continue;
            }
            std::size_t j = i + 1;
            while (j < line.size() && isNameChar(line[j])) {
                ++j;
            }
            const std::string_view token = line.substr(i, j - i);
            out += replacement(token);
            i = j;
        }
        return out;
    }

private:
    std::string replacement(std::string_view token) const {
        if (token.size() > 1 && token[1] >= '0' && token[1] <= '9') {
            std::size_t k = 1;
            std::size_t number = 0;
            while (k < token.size() && token[k] >= '0' && token[k] <= '9') {
                number = number * 10 + static_cast<std::size_t>(token[k] - '0');
                ++k;
            }
            auto g = locals_.find(current_);
            if (g != locals_.end()) {
                auto it = g->second.find(number);
                if (it != g->second.end()) {
                    return it->second + std::string(token.substr(k));
                }
            }
            return std::string(token);
        }
        // A parameter: the longest known name the token starts with.
        for (std::size_t len = token.size(); len > 1; --len) {
            auto it = params_.find(std::string(token.substr(0, len)));
            if (it != params_.end()) {
                return it->second + std::string(token.substr(len));
            }
        }
        return std::string(token);
    }

    std::unordered_map<std::string, const FuncGraph*> graphs_;
    std::unordered_map<const FuncGraph*, std::unordered_map<std::size_t, std::string>> locals_;
    std::unordered_map<std::string, std::string> params_;
    const FuncGraph* current_ = nullptr;
};

// Runs of changed lines longer than this (removed x added) are paired in order.
constexpr std::size_t kMaxPairingCells = 4'000'000;

// The node a line defines ("%3" of `  %3(CNode_5) = Add(...)`), or "" for other lines.
std::string_view definedName(std::string_view line) {
    std::size_t i = line.find_first_not_of(' ');
    if (i == std::string_view::npos || line[i] != '%') {
        return {};
    }
    std::size_t j = i + 1;
    while (j < line.size() && line[j] != '(' && line[j] != ' ' && line[j] != ':') {
        ++j;
    }
    return line.substr(i, j - i);
}

// One step of the line edit script (0-based line numbers, -1 for none).
struct Edit {
    dtl::edit_t type = dtl::SES_COMMON;
    int before = -1;
    int after = -1;
};

// The edit script turning line ids `a` into `b` (ids < idCount). Patience-style: the lines
// occurring once on each side are anchors, the longest run of them in the same order on
// both sides is kept, and only the gaps between anchors go to dtl. This keeps dtl's inputs
// small on big modules (past about 2 million path coordinates dtl splits the problem and
// its script stops being minimal).
std::vector<Edit> lineEdits(const std::vector<int>& a, const std::vector<int>& b, std::size_t idCount) {
    std::vector<int> countA(idCount, 0);
    std::vector<int> countB(idCount, 0);
    std::vector<int> whereB(idCount, -1);
    for (int id : a) {
        ++countA[static_cast<std::size_t>(id)];
    }
    for (std::size_t j = 0; j < b.size(); ++j) {
        const auto id = static_cast<std::size_t>(b[j]);
        ++countB[id];
        whereB[id] = static_cast<int>(j);
    }
    std::vector<std::pair<int, int>> unique;  // (line in a, line in b), by line in a
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto id = static_cast<std::size_t>(a[i]);
        if (countA[id] == 1 && countB[id] == 1) {
            unique.emplace_back(static_cast<int>(i), whereB[id]);
        }
    }
    // Longest increasing run of b-lines (patience sorting with back links).
    std::vector<std::size_t> tails;  // index into unique of the smallest tail per length
    std::vector<std::ptrdiff_t> back(unique.size(), -1);
    for (std::size_t k = 0; k < unique.size(); ++k) {
        auto it = std::lower_bound(tails.begin(), tails.end(), unique[k].second,
                                   [&unique](std::size_t t, int v) { return unique[t].second < v; });
        if (it != tails.begin()) {
            back[k] = static_cast<std::ptrdiff_t>(*(it - 1));
        }
        if (it == tails.end()) {
            tails.push_back(k);
        } else {
            *it = k;
        }
    }
    std::vector<std::pair<int, int>> anchors;
    for (std::ptrdiff_t k = tails.empty() ? -1 : static_cast<std::ptrdiff_t>(tails.back()); k >= 0;
         k = back[static_cast<std::size_t>(k)]) {
        anchors.push_back(unique[static_cast<std::size_t>(k)]);
    }
    std::reverse(anchors.begin(), anchors.end());

    std::vector<Edit> edits;
    auto gap = [&](int a0, int a1, int b0, int b1) {
        if (a0 == a1 || b0 == b1) {
            for (int i = a0; i < a1; ++i) {
                edits.push_back({dtl::SES_DELETE, i, -1});
            }
            for (int j = b0; j < b1; ++j) {
                edits.push_back({dtl::SES_ADD, -1, j});
            }
            return;
        }
        const std::vector<int> x(a.begin() + a0, a.begin() + a1);
        const std::vector<int> y(b.begin() + b0, b.begin() + b1);
        dtl::Diff<int> diff(x, y);
        diff.onHuge();
        diff.compose();
        for (const auto& [elem, info] : diff.getSes().getSequence()) {
            (void)elem;
            // dtl's indices are 1-based.
            const int i = a0 + static_cast<int>(info.beforeIdx) - 1;
            const int j = b0 + static_cast<int>(info.afterIdx) - 1;
            if (info.type == dtl::SES_COMMON) {
                edits.push_back({dtl::SES_COMMON, i, j});
            } else if (info.type == dtl::SES_DELETE) {
                edits.push_back({dtl::SES_DELETE, i, -1});
            } else {
                edits.push_back({dtl::SES_ADD, -1, j});
            }
        }
    };
    int nextA = 0;
    int nextB = 0;
    for (const auto& [i, j] : anchors) {
        gap(nextA, i, nextB, j);
        edits.push_back({dtl::SES_COMMON, i, j});
        nextA = i + 1;
        nextB = j + 1;
    }
    gap(nextA, static_cast<int>(a.size()), nextB, static_cast<int>(b.size()));
    return edits;
}

}  // namespace

TextDiff diffIrText(std::string_view beforeText, std::string_view afterText, const Module& before,
                    const Module& after, const NodeMatching& matching) {
    const std::vector<std::string_view> la = splitLines(beforeText);
    const std::vector<std::string_view> lb = splitLines(afterText);
    // Lines as numbers: equal numbers for equal (renamed) lines.
    std::unordered_map<std::string, int> ids;
    auto idOf = [&ids](std::string s) {
        return ids.emplace(std::move(s), static_cast<int>(ids.size())).first->second;
    };
    Renamer renamer(before, after, matching);
    std::vector<int> sa;
    std::vector<int> sb;
    std::vector<std::string> na;  // the before lines renamed
    sa.reserve(la.size());
    sb.reserve(lb.size());
    na.reserve(la.size());
    for (std::string_view l : la) {
        na.push_back(renamer.rewrite(l));
        sa.push_back(idOf(na.back()));
    }
    for (std::string_view l : lb) {
        sb.push_back(idOf(std::string(l)));
    }
    const std::vector<Edit> edits = lineEdits(sa, sb, ids.size());

    TextDiff out;
    std::vector<int> removed;
    std::vector<int> added;
    auto emit = [&out](int from, int to, DiffKind kind) {
        out.rows.push_back({from, to, kind});
        (kind == DiffKind::Changed ? out.lines.changed : kind == DiffKind::Removed ? out.lines.removed : out.lines.added) += 1;
    };
    // A run of removed and added lines: pairs lines defining the same (renamed) node, and
    // lines that define none, keeping both sides in order (an LCS over the run).
    auto flush = [&] {
        const std::size_t r = removed.size();
        const std::size_t a = added.size();
        auto pairable = [&](std::size_t i, std::size_t j) {
            return definedName(na[static_cast<std::size_t>(removed[i])]) ==
                   definedName(lb[static_cast<std::size_t>(added[j])]);
        };
        if (r == 0 || a == 0 || r * a > kMaxPairingCells) {
            const std::size_t paired = std::min(r, a);
            for (std::size_t i = 0; i < paired; ++i) {
                emit(removed[i], added[i], DiffKind::Changed);
            }
            for (std::size_t i = paired; i < r; ++i) {
                emit(removed[i], -1, DiffKind::Removed);
            }
            for (std::size_t j = paired; j < a; ++j) {
                emit(-1, added[j], DiffKind::Added);
            }
        } else {
            // best[i][j]: most pairs in removed[i..] x added[j..].
            std::vector<std::vector<std::uint32_t>> best(r + 1, std::vector<std::uint32_t>(a + 1, 0));
            for (std::size_t i = r; i-- > 0;) {
                for (std::size_t j = a; j-- > 0;) {
                    best[i][j] = std::max({best[i + 1][j], best[i][j + 1],
                                           pairable(i, j) ? best[i + 1][j + 1] + 1 : 0U});
                }
            }
            std::size_t i = 0;
            std::size_t j = 0;
            while (i < r || j < a) {
                if (i < r && j < a && pairable(i, j) && best[i][j] == best[i + 1][j + 1] + 1) {
                    emit(removed[i++], added[j++], DiffKind::Changed);
                } else if (i < r && (j == a || best[i][j] == best[i + 1][j])) {
                    emit(removed[i++], -1, DiffKind::Removed);
                } else {
                    emit(-1, added[j++], DiffKind::Added);
                }
            }
        }
        removed.clear();
        added.clear();
    };
    for (const Edit& e : edits) {
        if (e.type == dtl::SES_COMMON) {
            flush();
            out.rows.push_back({e.before, e.after, DiffKind::Same});
            ++out.lines.same;
        } else if (e.type == dtl::SES_DELETE) {
            removed.push_back(e.before);
        } else {
            added.push_back(e.after);
        }
    }
    flush();
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
        if (out.rows[i].kind != DiffKind::Same && (i == 0 || out.rows[i - 1].kind == DiffKind::Same)) {
            out.hunks.push_back(i);
        }
    }
    return out;
}

}  // namespace irscope::ir
