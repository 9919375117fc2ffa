// Pass bisection: OptBisect (passes/opt_bisect.h) numbers the skippable passes over every
// pipeline run and skips those past the limit, printing LLVM's BISECT lines; bisectPasses
// (session/opt_bisect_search.h) finds a deliberately broken pass injected into opt_a of a
// real compile, finds nothing without it, and reports a check that fails with every pass off;
// every bundled example prints the same with every skippable pass off (they may be skipped).
#include <QtTest>

#include <QRegularExpression>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/graph_compiler.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/opt_bisect.h"
#include "passes/pass_manager.h"
#include "session/opt_bisect_search.h"
#include "test_files.h"

using namespace irscope;

namespace {

const char* const kSubNet = R"(import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, context

context.set_context(mode=context.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x, y):
        s = x * y
        s = s + 0
        return s - x


net = Net()
print(net(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))))
)";

// A deliberately broken pass: every Sub becomes an Add.
bool breakSubs(ir::Module& m, passes::PassContext&) {
    bool changed = false;
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::CNode* c : g->topoOrder()) {
            if (c->isPrimitive("Sub")) {
                m.setInput(c, 0, m.addValue(g, ir::Value::primitive("Add")));
                changed = true;
            }
        }
    }
    return changed;
}

std::unique_ptr<passes::Pass> skippable(std::unique_ptr<passes::Pass> p) {
    p->setSkippable();
    return p;
}

void injectBrokenPass(passes::PassManager& pm) {
    for (const auto& p : pm.passes()) {
        if (p->name() == "opt_a") {
            auto* group = dynamic_cast<passes::PassGroup*>(p.get());
            QVERIFY(group != nullptr);
            auto broken =
                passes::makePass("broken_sub", "turns Sub into Add (a test's bug)", breakSubs);
            broken->setSkippable();
            group->add(std::move(broken));
        }
    }
}

session::BisectOptions options() {
    session::BisectOptions o;
    o.script.compiler.readEnvironment = false;
    o.script.statsHistory = "off";
    return o;
}

using test_files::readFile;

// What a script printed, with the figures of timing lines ("cost time: 0.0123") masked.
QString untimed(const std::string& output) {
    QStringList lines = QString::fromStdString(output).split(QLatin1Char('\n'));
    static const QRegularExpression number(QStringLiteral("[0-9][0-9.e+-]*"));
    for (QString& l : lines) {
        if (l.contains(QLatin1String("time"), Qt::CaseInsensitive)) {
            l.replace(number, QStringLiteral("#"));
        }
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

class TestOptBisect : public QObject {
    Q_OBJECT

private slots:
    void limitSkipsTheSkippablePassesPastIt() {
        std::vector<std::string> ran;
        auto record = [&ran](const char* name) {
            return [&ran, name](ir::Module&, passes::PassContext&) {
                ran.emplace_back(name);
                return false;
            };
        };
        passes::PassManager pm;
        pm.add(passes::makePass("lower", "required", record("lower")));
        auto& group = pm.emplace<passes::PassGroup>("opt", "a group", 1);
        group.add(skippable(passes::makePass("x", "", record("x"))));
        group.add(skippable(passes::makePass("y", "", record("y"))));
        pm.add(passes::makePass("z", "", record("z")));
        pm.passes().back()->setSkippable();
        pm.add(passes::makePass("emit", "required", record("emit")));
        std::vector<std::string> lines;
        auto bisect = std::make_shared<passes::OptBisect>(
            2, [&lines](std::string_view l) { lines.emplace_back(l); });
        pm.addInstrumentation(bisect);
        ir::Module m;
        m.setEntry(m.addGraph("Net_construct"));
        passes::PassContext ctx;
        QCOMPARE(pm.run(m, ctx).status, passes::PipelineStatus::Ok);
        QCOMPARE(ran, (std::vector<std::string>{"lower", "x", "y", "emit"}));
        QCOMPARE(lines,
                 (std::vector<std::string>{"BISECT: running pass (1) opt/x on @Net_construct",
                                           "BISECT: running pass (2) opt/y on @Net_construct",
                                           "BISECT: NOT running pass (3) z on @Net_construct"}));
        // The count goes on over the next pipeline run (the next compile): all past the limit.
        ran.clear();
        QCOMPARE(pm.run(m, ctx).status, passes::PipelineStatus::Ok);
        QCOMPARE(ran, (std::vector<std::string>{"lower", "emit"}));
        QCOMPARE(bisect->count(), 6);
        QCOMPARE(bisect->decisions().back().pipeline, std::size_t{1});
        QCOMPARE(QString::fromStdString(lines.back()),
                 QStringLiteral("BISECT: NOT running pass (6) z on @Net_construct"));
    }

    void limitMinusOneRunsEveryPass() {
        int runs = 0;
        passes::PassManager pm;
        pm.add(passes::makePass("p", "", [&](ir::Module&, passes::PassContext&) {
            ++runs;
            return false;
        }));
        pm.passes().back()->setSkippable();
        auto bisect = std::make_shared<passes::OptBisect>(-1, nullptr);
        pm.addInstrumentation(bisect);
        ir::Module m;
        passes::PassContext ctx;
        pm.run(m, ctx);
        QCOMPARE(runs, 1);
        QCOMPARE(QString::fromStdString(passes::OptBisect::describe(bisect->decisions().at(0))),
                 QStringLiteral("BISECT: running pass (1) p on the module"));
    }

    void findsADeliberatelyBrokenPass() {
        session::BisectOptions o = options();
        o.script.compiler.customizePipeline = injectBrokenPass;
        const session::BisectResult r = session::bisectPasses(kSubNet, "sub_net.py", o);
        QCOMPARE(int(r.outcome), int(session::BisectResult::Outcome::Found));
        QVERIFY(r.culprit.has_value());
        const session::BisectCulprit& c = *r.culprit;
        QCOMPARE(QString::fromStdString(c.decision.pass), QStringLiteral("opt_a/broken_sub"));
        QCOMPARE(QString::fromStdString(c.decision.graph), QStringLiteral("Net_construct"));
        QCOMPARE(c.decision.round, 0);
        QCOMPARE(c.compile, std::size_t{0});
        QVERIFY2(c.before.find("= Sub(") != std::string::npos, c.before.c_str());
        QVERIFY2(c.after.find("= Sub(") == std::string::npos, c.after.c_str());
        QVERIFY2(c.after.find("= Add(") != std::string::npos, c.after.c_str());
        // Binary search: the two ends, then about log2(total) probes.
        QVERIFY(r.total > 7);
        int log2 = 0;
        while ((1 << log2) < r.total) {
            ++log2;
        }
        QVERIFY2(static_cast<int>(r.probes.size()) <= log2 + 2,
                 qPrintable(QString::number(r.probes.size())));
        QCOMPARE(r.probes[0].limit, 0);
        QVERIFY(r.probes[0].good);
        QCOMPARE(r.probes[1].limit, -1);
        QVERIFY(!r.probes[1].good);
        // Every probe below the culprit is good, every one at or above it bad.
        for (const session::BisectProbe& p : r.probes) {
            if (p.limit >= 0) {
                QCOMPARE(p.good, p.limit < c.decision.number);
            }
        }
    }

    void findsNothingWithoutTheBrokenPass() {
        const session::BisectResult r = session::bisectPasses(kSubNet, "sub_net.py", options());
        QCOMPARE(int(r.outcome), int(session::BisectResult::Outcome::NothingFails));
        QVERIFY(!r.culprit.has_value());
        QVERIFY(r.total > 0);
        QCOMPARE(r.probes.size(), std::size_t{2});
    }

    void aCheckFailingWithEveryPassOffBlamesNoPass() {
        session::BisectOptions o = options();
        o.check = [](int, const session::ScriptOutcome&) { return false; };
        const session::BisectResult r = session::bisectPasses(kSubNet, "sub_net.py", o);
        QCOMPARE(int(r.outcome), int(session::BisectResult::Outcome::FailsWithoutPasses));
    }

    void aCustomCheckIsBisectedToItsFirstBadLimit() {
        session::BisectOptions o = options();
        o.check = [](int limit, const session::ScriptOutcome&) { return limit >= 0 && limit < 5; };
        const session::BisectResult r = session::bisectPasses(kSubNet, "sub_net.py", o);
        QCOMPARE(int(r.outcome), int(session::BisectResult::Outcome::Found));
        QCOMPARE(r.culprit->decision.number, 5);
        QVERIFY(r.culprit->decision.ran);
    }

    // The passes marked skippable may really be skipped: every bundled example prints the
    // same with none of them as with all of them.
    void examplesPrintTheSameWithEverySkippablePassOff() {
        const std::filesystem::path dir =
            std::filesystem::path(IRSCOPE_SOURCE_DIR) / "resources/examples";
        int checked = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            if (entry.path().extension() != ".py") {
                continue;
            }
            const std::string source = readFile(entry.path());
            std::array<QString, 2> outputs;
            for (int i = 0; i < 2; ++i) {
                session::ScriptOptions o = options().script;
                o.compiler.optBisect =
                    std::make_shared<passes::OptBisect>(i == 0 ? -1 : 0, nullptr);
                session::ScriptRunner runner;
                const session::ScriptOutcome out =
                    runner.run(source, entry.path().filename().string(), o);
                outputs[static_cast<std::size_t>(i)] = untimed(out.session->output);
            }
            QVERIFY2(outputs[0] == outputs[1],
                     qPrintable(QString::fromStdString(entry.path().filename().string()) +
                                QStringLiteral(":\n") + outputs[0] + QStringLiteral("\nvs\n") +
                                outputs[1]));
            ++checked;
        }
        QVERIFY(checked >= 10);
    }
};

QTEST_GUILESS_MAIN(TestOptBisect)
#include "test_opt_bisect.moc"
