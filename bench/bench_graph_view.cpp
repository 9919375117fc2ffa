// Graph view benchmark: the first view of a generated 5,000-CNode network (dense residual
// blocks under a scope tree, plus a helper graph with an unscoped body). Prints the time to
// build the view's model, to write the DOT of the collapsed first view, and dot's layout of
// it, then creating the scene's items from the layout (offscreen), then the same for
// expanding one scope group, and the items drawn each time. Then what the Execution dock
// does off the UI thread at the first stop in a module: print the executed IR, parse it
// back and build the view's model of it.
//
//   bench_graph_view [--blocks N] [--helper M] [--budget B]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <QApplication>
#include <QGraphicsScene>

#include "graph_model.h"
#include "graph_scene.h"
#include "ir/ir_text.h"
#include "ir_loader.h"
#include "layout/graphviz.h"
#include "network_module.h"

using namespace irscope;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Step {
    double dotMs = 0;
    double layoutMs = 0;
    double sceneMs = 0;
    std::size_t items = 0;
    std::size_t edges = 0;
};

Step layOut(const ui::GraphModel& model) {
    Step s;
    auto t0 = std::chrono::steady_clock::now();
    const ui::DotScene dot = model.makeDot();
    s.dotMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    const layout::Layout l = layout::layoutDot(dot.dot);
    s.layoutMs = msSince(t0);
    s.items = l.nodes.size();
    s.edges = l.edges.size();
    QGraphicsScene scene;
    t0 = std::chrono::steady_clock::now();
    ui::populateScene(scene, model, dot, l);
    s.sceneMs = msSince(t0);
    return s;
}

void print(const char* what, const Step& s) {
    std::printf("%-30s %5zu items %5zu edges  dot text %6.1f ms  layout %7.1f ms  items %6.1f ms\n",
                what, s.items, s.edges, s.dotMs, s.layoutMs, s.sceneMs);
}

}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int blocks = 1150;
    int helper = 400;
    int budget = ui::kDefaultNodeBudget;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--blocks") == 0) {
            blocks = std::atoi(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--helper") == 0) {
            helper = std::atoi(argv[i + 1]);
        } else if (std::strcmp(argv[i], "--budget") == 0) {
            budget = std::atoi(argv[i + 1]);
        } else {
            std::fprintf(stderr, "usage: bench_graph_view [--blocks N] [--helper M] [--budget B]\n");
            return 2;
        }
    }
    const auto module = testing::networkModule(blocks, helper);
    std::printf("graph view, first view of a generated network: %zu CNodes, %zu nodes, budget %d\n",
                module->counts().cnodes, module->counts().nodes, budget);

    auto t0 = std::chrono::steady_clock::now();
    ui::GraphModel model(*module);
    model.expandWithin(budget);
    const double modelMs = msSince(t0);
    std::printf("%-30s %5zu entries %4zu groups %34.1f ms\n", "model (names, styles, groups)",
                model.nodes().size(), model.groups().size(), modelMs);
    const Step first = layOut(model);
    print("first view (collapsed)", first);
    std::printf("%-30s %67.1f ms\n", "first view total",
                modelMs + first.dotMs + first.layoutMs + first.sceneMs);

    // Expand the first collapsed group that is visible, as a double-click would.
    for (int g = 0; g < static_cast<int>(model.groups().size()); ++g) {
        const ui::ModelGroup& grp = model.group(g);
        if (!grp.expanded && (grp.parent < 0 || model.group(grp.parent).expanded)) {
            model.setExpanded(g, true);
            char what[64];
            std::snprintf(what, sizeof what, "expand %.20s", grp.title.toUtf8().constData());
            print(what, layOut(model));
            break;
        }
    }

    t0 = std::chrono::steady_clock::now();
    const std::string text = ir::printIr(*module);
    const double printMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    const ui::LoadedIr executed = ui::loadIrText(text, QStringLiteral("executed.ir"));
    const double loadMs = msSince(t0);
    std::printf("%-30s %5.1f MB of .ir  print %6.1f ms  parse + model %7.1f ms%s\n",
                "execution stop, new module", static_cast<double>(text.size()) / 1e6, printMs,
                loadMs, executed.ok() ? "" : "  (FAILED)");
    return executed.ok() ? 0 : 1;
}
