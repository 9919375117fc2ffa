// Compare benchmark: the before/after diff of a pass on a generated network (N dense
// blocks, 4 CNodes each; the "pass" puts a TensorMove after every 10th ReLU, renumbering
// every node below it). Prints the time to parse both snapshots' text (as the compare view
// does), to match the nodes (ir::matchModules) and to diff the text (ir::diffIrText), and
// what the diff found.
//
//   bench_ir_diff [--blocks N]...   (default: 1000 5000 20000)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ir/ir_diff.h"
#include "ir/ir_text.h"
#include "network_module.h"

using namespace irscope;

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Inserts TensorMove(x) between every 10th ReLU x and its users; returns how many.
int insertMoves(ir::Module& m) {
    ir::FuncGraph* g = m.entry();
    std::vector<ir::CNode*> relus;
    for (ir::CNode* c : g->topoOrder()) {
        if (c->isPrimitive("ReLU")) {
            relus.push_back(c);
        }
    }
    int added = 0;
    for (std::size_t i = 0; i < relus.size(); i += 10) {
        ir::CNode* x = relus[i];
        const std::vector<ir::Use> uses = x->users();
        ir::CNode* move = m.addCNode(g, {m.addValue(g, ir::Value::primitive("TensorMove")), x});
        move->setAbstract(x->abstract());
        for (const ir::Use& u : uses) {
            m.setInput(u.user, u.index, move);
        }
        ++added;
    }
    return added;
}

void run(int blocks) {
    auto before = testing::networkModule(blocks, 0);
    const std::string textA = ir::printIr(*before);
    const int moves = insertMoves(*before);
    const std::string textB = ir::printIr(*before);

    auto t0 = std::chrono::steady_clock::now();
    auto a = ir::parseIr(textA, "before.ir");
    auto b = ir::parseIr(textB, "after.ir");
    const double parseMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    const ir::NodeMatching matching = ir::matchModules(*a, *b);
    const double matchMs = msSince(t0);
    t0 = std::chrono::steady_clock::now();
    const ir::TextDiff diff = ir::diffIrText(textA, textB, *a, *b, matching);
    const double diffMs = msSince(t0);
    const ir::DiffCounts& n = matching.counts();
    std::printf("%6d blocks %7zu cnodes  parse both %7.1f ms  match %7.1f ms  text diff %7.1f ms  "
                "nodes +%zu -%zu ~%zu (%d moves inserted)  lines +%zu -%zu ~%zu\n",
                blocks, a->counts().cnodes, parseMs, matchMs, diffMs, n.added, n.removed, n.changed, moves,
                diff.lines.added, diff.lines.removed, diff.lines.changed);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--blocks") == 0) {
            sizes.push_back(std::atoi(argv[i + 1]));
        }
    }
    if (sizes.empty()) {
        sizes = {1000, 5000, 20000};
    }
    for (int blocks : sizes) {
        run(blocks);
    }
    return 0;
}
