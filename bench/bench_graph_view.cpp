// Graph view benchmark on the GPT-like training step of bench/gpt_train_step.py at
// --blocks N (default: 16, 64 and 384 in turn): the script is compiled as the app does,
// the IR after the last pass is parsed back (what the app shows), then, timed:
//   first view   the view's model (names, groups, series, placements), the layout plan,
//                the per-group layouts and the scene's items (offscreen), as opened;
//   expand       one block: the series of blocks opened to its list, then one block of it;
//   expand all   every group on the way to one block of the backward pass opened (the
//                forward block stays open too): what a user reaches by double-clicks.
// Each expand lays out only the groups that changed (the others come from the layout cache);
// the counts of dot layouts and cache hits are printed.
//
// Pan/zoom is the time to paint a window's worth of the first view's scene.
// --save-ir writes the compiled IR (one size) to a file; --ir reads one instead of compiling.
//
//   bench_graph_view [--blocks N] [--script PATH] [--ir FILE] [--save-ir FILE]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <QApplication>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "graph_layout.h"
#include "graph_model.h"
#include "graph_scene.h"
#include "ir/ir_text.h"
#include "ir/module.h"

using namespace irscope;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Step {
    double planMs = 0;
    double layoutMs = 0;
    double sceneMs = 0;
    std::size_t items = 0;
    std::size_t groups = 0;
    std::size_t dotMisses = 0;
    std::size_t dotHits = 0;
    double total() const { return planMs + layoutMs + sceneMs; }
};

Step layOut(const ui::GraphModel& model, ui::LayoutCache& cache, ui::BoxSizes& sizes,
            QGraphicsScene& scene) {
    Step s;
    auto t0 = std::chrono::steady_clock::now();
    ui::LayoutPlan plan = ui::makePlan(
        model, [&](ui::VisibleRef r, const ui::GroupPorts& p) { return sizes(model, r, p); });
    s.planMs = msSince(t0);
    const std::size_t misses = cache.misses();
    const std::size_t hits = cache.hits();
    t0 = std::chrono::steady_clock::now();
    const auto geometry = ui::layOutPlan(plan, cache);
    s.layoutMs = msSince(t0);
    s.dotMisses = cache.misses() - misses;
    s.dotHits = cache.hits() - hits;
    t0 = std::chrono::steady_clock::now();
    s.items = ui::populateScene(scene, model, plan, geometry).size();
    s.sceneMs = msSince(t0);
    s.groups = plan.groups.size();
    return s;
}

void print(const char* what, const Step& s, double extraMs = 0) {
    std::printf(
        "  %-12s %8.1f ms  (model %.1f, plan %.1f, layout %.1f, items %.1f)  %zu boxes in %zu "
        "groups, dot %zu, cached %zu\n",
        what, s.total() + extraMs, extraMs, s.planMs, s.layoutMs, s.sceneMs, s.items, s.groups,
        s.dotMisses, s.dotHits);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The first group titled like `pattern` (a regex) under `within` (-1: anywhere).
int findGroup(const ui::GraphModel& m, const std::regex& pattern, int within = -1) {
    for (int g = 0; g < static_cast<int>(m.groups().size()); ++g) {
        if (!std::regex_search(m.group(g).title.toStdString(), pattern)) {
            continue;
        }
        for (int p = g; p >= 0; p = m.group(p).parent) {
            if (within < 0 || p == within) {
                return g;
            }
        }
    }
    return -1;
}

void openPath(ui::GraphModel& m, int g) {
    for (int p = g; p >= 0; p = m.group(p).parent) {
        m.setExpanded(p, true);
    }
}

// The module the view shows: the IR after the last pass of the script at `blocks` blocks
// (written to `saveIr` when given), or the .ir file `irPath` when given.
std::unique_ptr<ir::Module> loadModule(int blocks, const std::string& scriptPath,
                                       const std::string& irPath, const std::string& saveIr) {
    if (!irPath.empty()) {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_ptr<ir::Module> module = ir::parseIr(readFile(irPath), irPath);
        std::printf("%s: %zu nodes, %zu CNodes, %zu graphs; parse %.0f ms\n", irPath.c_str(),
                    module->counts().nodes, module->counts().cnodes, module->counts().graphs,
                    msSince(t0));
        return module;
    }
    std::string source = readFile(scriptPath);
    source = std::regex_replace(source, std::regex("\nNUM_LAYERS = [0-9]+"),
                                "\nNUM_LAYERS = " + std::to_string(blocks));
    interp::Interpreter I;
    std::string printed;
    I.setOutputSink([&](std::string_view s) { printed += s; });
    modules::registerBuiltinModules(I);
    compiler::CompilerOptions copts;
    copts.readEnvironment = false;
    auto compiler = compiler::GraphCompilerImpl::install(I, std::move(copts));
    auto t0 = std::chrono::steady_clock::now();
    const interp::RunResult r = I.runScript(source, "gpt_train_step.py");
    const double compileMs = msSince(t0);
    const auto session = compiler->sharedSession();
    if (r.status != interp::RunResult::Status::Ok || session->compiles.empty() ||
        session->compiles.back().snapshots.empty()) {
        std::fprintf(stderr, "bench_graph_view: the script failed:\n%s%s\n", printed.c_str(),
                     r.error.c_str());
        return nullptr;
    }
    if (!saveIr.empty()) {
        std::ofstream(saveIr) << session->compiles.back().snapshots.back().text();
    }
    t0 = std::chrono::steady_clock::now();
    std::unique_ptr<ir::Module> module = session->compiles.back().snapshots.back().module();
    const double parseMs = msSince(t0);
    std::printf(
        "%d blocks: %zu nodes, %zu CNodes, %zu graphs; script run and compile %.0f ms, parse of "
        "the last snapshot %.0f ms\n",
        blocks, module->counts().nodes, module->counts().cnodes, module->counts().graphs, compileMs,
        parseMs);
    return module;
}

// Pan/zoom: painting a 1600x1000 viewport of the scene at 1:1 (around the middle of the
// drawing) and with all of it fitted (the furthest zoom), as a QGraphicsView paints it.
void printPaint(QGraphicsScene& scene) {
    QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    const QRectF all = scene.sceneRect();
    auto paint = [&](const QRectF& source) {
        const auto t0 = std::chrono::steady_clock::now();
        image.fill(Qt::white);
        QPainter p(&image);
        p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene.render(&p, QRectF(image.rect()), source, Qt::KeepAspectRatio);
        p.end();
        return msSince(t0);
    };
    const QRectF near(all.center() - QPointF(800, 500), QSizeF(1600, 1000));
    const double nearMs = paint(near);
    const double farMs = paint(all);
    std::printf("  paint        %8.1f ms at 1:1, %.1f ms fitted (%.0f x %.0f scene)\n", nearMs,
                farMs, all.width(), all.height());
}

int run(int blocks, const std::string& scriptPath, const std::string& irPath,
        const std::string& saveIr) {
    const std::unique_ptr<ir::Module> module = loadModule(blocks, scriptPath, irPath, saveIr);
    if (!module) {
        return 1;
    }
    std::chrono::steady_clock::time_point t0;

    ui::LayoutCache cache;
    ui::BoxSizes sizes;  // as the view keeps them
    QGraphicsScene scene;
    t0 = std::chrono::steady_clock::now();
    ui::GraphModel model(*module);
    const double modelMs = msSince(t0);
    int series = 0;
    for (const ui::ModelGroup& g : model.groups()) {
        series += g.kind == ui::GroupKind::Series ? 1 : 0;
    }
    std::printf("  model: %zu entries, %zu groups, %d series, state %s\n", model.nodes().size(),
                model.groups().size(), series, model.stateHidden() ? "hidden" : "dimmed");
    print("first view", layOut(model, cache, sizes, scene), modelMs);
    printPaint(scene);

    // Expand a block: the forward series to its list, then its first block.
    const int fwdSeries = findGroup(model, std::regex("Block.*×"));
    if (fwdSeries < 0) {
        std::printf("  no series of blocks found\n");
        return 1;
    }
    openPath(model, fwdSeries);
    print("expand list", layOut(model, cache, sizes, scene));
    const int block = model.group(fwdSeries).children.front();
    model.setExpanded(block, true);
    print("expand block", layOut(model, cache, sizes, scene));
    // Down to one block of the backward pass too: every group on the way.
    int bwd = -1;
    const int gradients = findGroup(model, std::regex("^Gradients$"));
    if (gradients >= 0) {
        const int bwdSeries = findGroup(model, std::regex("Block.*×"), gradients);
        if (bwdSeries >= 0) {
            bwd = model.group(bwdSeries).children.front();
        }
    }
    if (bwd >= 0) {
        openPath(model, bwd);
        for (int c : model.group(bwd).children) {
            model.setExpanded(c, true);
        }
        print("expand all", layOut(model, cache, sizes, scene));
    }
    // Collapsing the backward block again: everything left comes from the cache.
    if (bwd >= 0) {
        model.setExpanded(bwd, false);
        print("collapse", layOut(model, cache, sizes, scene));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<int> sizes{16, 64, 384};
    std::string script = IRSCOPE_SOURCE_DIR "/bench/gpt_train_step.py";
    std::string irPath;
    std::string saveIr;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--blocks") == 0) {
            sizes = {std::atoi(argv[i + 1])};
        } else if (std::strcmp(argv[i], "--script") == 0) {
            script = argv[i + 1];
        } else if (std::strcmp(argv[i], "--ir") == 0) {
            irPath = argv[i + 1];
            sizes = {0};
        } else if (std::strcmp(argv[i], "--save-ir") == 0) {
            saveIr = argv[i + 1];
        } else {
            std::fprintf(stderr,
                         "usage: bench_graph_view [--blocks N] [--script PATH] [--ir FILE] "
                         "[--save-ir FILE]\n");
            return 2;
        }
    }
    for (int n : sizes) {
        if (const int rc = run(n, script, irPath, saveIr); rc != 0) {
            return rc;
        }
    }
    return 0;
}
