// Lazy inline on a training step (issue 16): the GPT-like training step of
// tests/training_step_script.h, with @lazy_inline and MS_DEV_CELL_REUSE=1 or 2, computes the
// same gradients as without lazy inline at several block counts; meta_fg_expand
// differentiates the CR_ graph once (one fprop ▸ and one bprop ◂ graph whatever the number of
// blocks, each called once per block), so the lazy compile has fewer nodes than the plain one.
#include <QtTest>

#include "passes/settings.h"
#include "script_fixture.h"
#include "store/session.h"
#include "training_step_script.h"

using namespace irscope;

namespace {

script_test::Run run(int blocks, bool lazy, int cellReuse) {
    compiler::CompilerOptions options;
    if (cellReuse >= 0) {
        options.overrides.set(std::string(passes::kCellReuse), std::int64_t{cellReuse});
    }
    return script_test::runScript(testing::trainingStepScript(blocks, lazy), std::move(options), 0,
                                  "training_step.py");
}

const passes::PassSnapshot& after(const script_test::Run& r, const char* pass) {
    const passes::PassSnapshot* s = r.session->compiles.back().find(pass);
    if (s == nullptr) {
        throw std::runtime_error(std::string("no snapshot of ") + pass);
    }
    return *s;
}

// How many lines of `text` start a graph whose name begins with `prefix`.
int graphsNamed(const std::string& text, const std::string& prefix) {
    int n = 0;
    const std::string head = "subgraph @" + prefix;
    for (std::size_t p = text.find(head); p != std::string::npos; p = text.find(head, p + 1)) {
        ++n;
    }
    return n;
}

}  // namespace

class TestLazyInlineTraining : public QObject {
    Q_OBJECT

private slots:
    void gradientsMatchThePlainRun_data() {
        QTest::addColumn<int>("blocks");
        QTest::addColumn<int>("cellReuse");
        for (int blocks : {1, 2, 5}) {
            for (int level : {1, 2}) {
                QTest::addRow("%d blocks, MS_DEV_CELL_REUSE=%d", blocks, level) << blocks << level;
            }
        }
    }
    void gradientsMatchThePlainRun() {
        QFETCH(int, blocks);
        QFETCH(int, cellReuse);
        const script_test::Run plain = run(blocks, false, -1);
        const script_test::Run lazy = run(blocks, true, cellReuse);
        QVERIFY2(plain.result.status == interp::RunResult::Status::Ok, plain.out.c_str());
        QVERIFY2(lazy.result.status == interp::RunResult::Status::Ok, lazy.out.c_str());
        // 16 weights per block, the embedding table and the last LayerNorm's two.
        QVERIFY(plain.out.rfind(std::to_string(16 * blocks + 3) + " gradients; sum", 0) == 0);
        QCOMPARE(QString::fromStdString(lazy.out), QString::fromStdString(plain.out));
        QVERIFY(after(lazy, "graph_reusing").changed());
    }

    void crGraphIsDifferentiatedOnce() {
        const script_test::Run two = run(2, true, 1);
        const script_test::Run six = run(6, true, 1);
        for (const script_test::Run* r : {&two, &six}) {
            QVERIFY2(r->result.status == interp::RunResult::Status::Ok, r->out.c_str());
            const std::string text = after(*r, "meta_fg_expand").text();
            QCOMPARE(graphsNamed(text, "\u25b8CR_"), 1);
            QCOMPARE(graphsNamed(text, "\u25c2CR_"), 1);
        }
        // The shared graphs do not grow with the calls: 4 more blocks cost the entry's calls
        // and the weights, not 4 more differentiated blocks (before: 2 graphs more per block,
        // and more nodes than the plain run).
        const auto graphs2 = after(two, "meta_fg_expand").counts().graphs;
        QCOMPARE(after(six, "meta_fg_expand").counts().graphs, graphs2);
        const std::size_t plain6 = after(run(6, false, -1), "task_emit").counts().nodes;
        QVERIFY2(after(six, "task_emit").counts().nodes < plain6,
                 qPrintable(QString("lazy %1 vs plain %2 nodes")
                                .arg(after(six, "task_emit").counts().nodes)
                                .arg(plain6)));
    }
};

QTEST_APPLESS_MAIN(TestLazyInlineTraining)
#include "test_lazy_inline_training.moc"
