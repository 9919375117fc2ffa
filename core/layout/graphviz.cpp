#include "layout/graphviz.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace irscope::layout {

namespace {

// dot's rank assignment and mincross recurse per node; 512 MiB of (lazily committed)
// stack keeps 100k-node graphs from overflowing.
constexpr std::size_t kLayoutStackBytes = std::size_t{512} << 20;

std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

// One context for the process: creating one loads the plugin configuration. Only used
// with graphvizMutex() held.
GVC_t* context() {
    static GVC_t* gvc = gvContext();
    return gvc;
}

// Messages Graphviz reports while a call runs (guarded by graphvizMutex()).
std::string* g_messages = nullptr;

int collectMessage(char* text) {
    if (g_messages != nullptr && text != nullptr) {
        g_messages->append(text);
    }
    return 0;
}

// Routes Graphviz's error and warning text into `messages` for the lifetime of the object.
class MessageCapture {
public:
    explicit MessageCapture(std::string& messages) {
        g_messages = &messages;
        previous_ = agseterrf(collectMessage);
        previousLevel_ = agseterr(AGWARN);
        agreseterrors();
    }
    ~MessageCapture() {
        agseterr(previousLevel_);
        agseterrf(previous_);
        g_messages = nullptr;
    }
    MessageCapture(const MessageCapture&) = delete;
    MessageCapture& operator=(const MessageCapture&) = delete;

private:
    agusererrf previous_;
    agerrlevel_t previousLevel_;
};

// The error lines of the captured text ("Error: ..." and their continuations), without
// the prefix; all of it when no line is marked as an error.
std::string errorText(const std::string& messages, const std::string& fallback) {
    std::string out;
    bool inError = false;
    std::size_t pos = 0;
    while (pos < messages.size()) {
        std::size_t end = messages.find('\n', pos);
        if (end == std::string::npos) {
            end = messages.size();
        }
        std::string line = messages.substr(pos, end - pos);
        pos = end + 1;
        if (line.rfind("Error: ", 0) == 0) {
            inError = true;
            line.erase(0, 7);
        } else if (line.rfind("Warning: ", 0) == 0) {
            inError = false;
        }
        if (inError && !line.empty()) {
            out += (out.empty() ? "" : "\n") + line;
        }
    }
    if (out.empty()) {
        out = messages;
        while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) {
            out.pop_back();
        }
    }
    return "graphviz: " + (out.empty() ? fallback : out);
}

char* cstr(const char* s) {
    return const_cast<char*>(s);
}

// dot's cost grows with the nodes of its position graph: real nodes plus one virtual node
// per rank an edge crosses. Estimates that count with a cheap ranking: longest path from
// the sources (back edges of a DFS ignored), then every node moved as far down as its
// successors allow, as dot's balancing does for sources such as weights and constants.
std::size_t estimatedLayoutNodes(Agraph_t* g) {
    std::unordered_map<Agnode_t*, std::size_t> index;
    std::vector<Agnode_t*> nodes;
    for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) {
        index.emplace(n, nodes.size());
        nodes.push_back(n);
    }
    const std::size_t count = nodes.size();
    std::vector<std::vector<std::size_t>> succ(count);
    for (std::size_t i = 0; i < count; ++i) {
        for (Agedge_t* e = agfstout(g, nodes[i]); e != nullptr; e = agnxtout(g, e)) {
            succ[i].push_back(index.at(aghead(e)));
        }
    }
    // Iterative DFS: post-order, and which edges close a cycle (those are ignored).
    enum : std::uint8_t { kNew, kActive, kDone };
    std::vector<std::uint8_t> state(count, kNew);
    std::vector<std::vector<bool>> forward(count);
    std::vector<std::size_t> post;
    post.reserve(count);
    for (std::size_t root = 0; root < count; ++root) {
        if (state[root] != kNew) {
            continue;
        }
        std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
        state[root] = kActive;
        forward[root].assign(succ[root].size(), true);
        while (!stack.empty()) {
            const std::size_t v = stack.back().first;
            if (stack.back().second < succ[v].size()) {
                const std::size_t k = stack.back().second++;
                const std::size_t w = succ[v][k];
                if (state[w] == kActive) {
                    forward[v][k] = false;
                } else if (state[w] == kNew) {
                    state[w] = kActive;
                    forward[w].assign(succ[w].size(), true);
                    stack.emplace_back(w, 0);
                }
                continue;
            }
            state[v] = kDone;
            post.push_back(v);
            stack.pop_back();
        }
    }
    // Reverse post-order is topological for the forward edges.
    std::vector<long> rank(count, 0);
    for (auto it = post.rbegin(); it != post.rend(); ++it) {
        for (std::size_t k = 0; k < succ[*it].size(); ++k) {
            if (forward[*it][k]) {
                rank[succ[*it][k]] = std::max(rank[succ[*it][k]], rank[*it] + 1);
            }
        }
    }
    for (std::size_t v : post) {  // successors before their predecessors
        long lowest = -1;
        for (std::size_t k = 0; k < succ[v].size(); ++k) {
            if (forward[v][k] && (lowest < 0 || rank[succ[v][k]] - 1 < lowest)) {
                lowest = rank[succ[v][k]] - 1;
            }
        }
        rank[v] = std::max(rank[v], lowest);
    }
    std::size_t total = count;
    for (std::size_t v = 0; v < count; ++v) {
        for (std::size_t w : succ[v]) {
            const long span = std::labs(rank[w] - rank[v]);
            total += span > 1 ? static_cast<std::size_t>(span - 1) : 0;
        }
    }
    return total;
}

bool isLarge(Agraph_t* g) {
    return static_cast<std::size_t>(agnnodes(g)) > kLargeGraphNodes ||
           estimatedLayoutNodes(g) > kLargeLayoutNodes;
}

// A parsed graph, laid out with dot; freed with its layout on destruction.
class LaidOutGraph {
public:
    LaidOutGraph(const std::string& dot, std::string& messages) {
        graph_ = agmemread(dot.c_str());
        if (graph_ == nullptr) {
            throw std::runtime_error(errorText(messages, "the input is not a DOT graph"));
        }
        if (isLarge(graph_)) {
            setDefault("nslimit", "0.1");
            setDefault("mclimit", "0.1");
            setDefault("splines", "line");
        }
        if (gvLayout(context(), graph_, "dot") != 0) {
            agclose(graph_);
            throw std::runtime_error(errorText(messages, "dot layout failed"));
        }
    }
    ~LaidOutGraph() {
        gvFreeLayout(context(), graph_);
        agclose(graph_);
    }
    LaidOutGraph(const LaidOutGraph&) = delete;
    LaidOutGraph& operator=(const LaidOutGraph&) = delete;

    Agraph_t* get() const { return graph_; }

private:
    void setDefault(const char* name, const char* value) {
        const char* current = agget(graph_, cstr(name));
        if (current == nullptr || *current == '\0') {
            agsafeset(graph_, cstr(name), cstr(value), cstr(""));
        }
    }

    Agraph_t* graph_ = nullptr;
};

// Runs `fn` on a thread with a large stack and waits for it; exceptions propagate.
template <typename F>
void runWithLargeStack(F&& fn) {
    struct Job {
        F* fn;
        std::exception_ptr error;
    };
    Job job{&fn, nullptr};
    auto entry = [](void* p) -> void* {
        auto* j = static_cast<Job*>(p);
        try {
            (*j->fn)();
        } catch (...) {
            j->error = std::current_exception();
        }
        return nullptr;
    };
    bool started = false;
    pthread_t thread{};
    // Fall back to smaller stacks where the address space is restricted.
    for (std::size_t bytes = kLayoutStackBytes; !started && bytes >= (std::size_t{16} << 20);
         bytes /= 4) {
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) != 0) {
            break;
        }
        if (pthread_attr_setstacksize(&attr, bytes) == 0) {
            started = pthread_create(&thread, &attr, entry, &job) == 0;
        }
        pthread_attr_destroy(&attr);
    }
    if (started) {
        pthread_join(thread, nullptr);
    } else {
        entry(&job);
    }
    if (job.error) {
        std::rethrow_exception(job.error);
    }
}

Box toBox(const boxf& b) {
    return Box{b.LL.x, b.LL.y, b.UR.x, b.UR.y};
}

void collectClusters(Agraph_t* g, std::vector<LayoutCluster>& out) {
    for (int i = 1; i <= GD_n_cluster(g); ++i) {
        Agraph_t* sg = GD_clust(g)[i];
        LayoutCluster c;
        c.name = agnameof(sg);
        if (GD_label(sg) != nullptr && GD_label(sg)->text != nullptr) {
            c.label = GD_label(sg)->text;
        }
        c.bbox = toBox(GD_bb(sg));
        out.push_back(std::move(c));
        collectClusters(sg, out);
    }
}

Layout extractLayout(Agraph_t* g) {
    Layout out;
    out.bbox = toBox(GD_bb(g));
    for (Agnode_t* n = agfstnode(g); n != nullptr; n = agnxtnode(g, n)) {
        out.nodes.push_back(LayoutNode{agnameof(n), ND_coord(n).x, ND_coord(n).y,
                                       ND_width(n) * 72.0, ND_height(n) * 72.0});
        for (Agedge_t* e = agfstout(g, n); e != nullptr; e = agnxtout(g, e)) {
            LayoutEdge le;
            le.tail = agnameof(agtail(e));
            le.head = agnameof(aghead(e));
            if (const char* id = agget(e, cstr("id")); id != nullptr) {
                le.id = id;
            }
            if (const splines* spl = ED_spl(e); spl != nullptr) {
                for (int b = 0; b < spl->size; ++b) {
                    const bezier& bz = spl->list[b];
                    for (int k = 0; k < bz.size; ++k) {
                        le.points.push_back(Point{bz.list[k].x, bz.list[k].y});
                    }
                    if (bz.eflag != 0) {
                        le.hasArrowHead = true;
                        le.arrowHead = Point{bz.ep.x, bz.ep.y};
                    }
                }
            }
            out.edges.push_back(std::move(le));
        }
    }
    collectClusters(g, out.clusters);
    return out;
}

bool knownFormat(std::string_view f) {
    return f == "svg" || f == "png" || f == "dot" || f == "plain";
}

}  // namespace

}  // namespace irscope::layout

// LeakSanitizer (IRSCOPE_SANITIZE builds): Graphviz 2.42's dot layout never frees some of
// its virtual edges and nodes, and fontconfig/pango keep caches for the process; neither
// is ours to fix. Without a sanitizer nothing calls this.
extern "C" const char* __lsan_default_suppressions() {
    return "leak:libgvc.so\n"
           "leak:libcgraph.so\n"
           "leak:libgvplugin_\n"
           "leak:libfontconfig.so\n"
           "leak:libpango\n"
           "leak:libcairo.so\n";
}

namespace irscope::layout {

std::string renderDot(const std::string& dot, std::string_view format) {
    if (!knownFormat(format)) {
        throw std::invalid_argument("renderDot: unsupported format '" + std::string(format) +
                                    "' (use svg, png, dot or plain)");
    }
    const std::string fmt(format);
    std::string result;
    std::lock_guard<std::mutex> lock(graphvizMutex());
    std::string messages;
    MessageCapture capture(messages);
    runWithLargeStack([&] {
        LaidOutGraph g(dot, messages);
        char* data = nullptr;
        unsigned int length = 0;
        if (gvRenderData(context(), g.get(), fmt.c_str(), &data, &length) != 0) {
            if (data != nullptr) {
                gvFreeRenderData(data);
            }
            throw std::runtime_error(errorText(messages, "rendering " + fmt + " failed"));
        }
        result.assign(data, length);
        gvFreeRenderData(data);
    });
    return result;
}

Layout layoutDot(const std::string& dot) {
    Layout result;
    std::lock_guard<std::mutex> lock(graphvizMutex());
    std::string messages;
    MessageCapture capture(messages);
    runWithLargeStack([&] {
        LaidOutGraph g(dot, messages);
        result = extractLayout(g.get());
    });
    return result;
}

}  // namespace irscope::layout
