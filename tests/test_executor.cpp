// The executor on typed .ir text: what a compiled graph computes (arithmetic,
// tuples, branches chosen at run time, loops as recursive graphs), what it does to the
// weights it is given (Assign writes into the host's storage), what it prints and in which
// order, and the errors a user sees (depth limit, a weight with no value, a bad kernel call).
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "ir/ir_text.h"
#include "runtime/executor.h"
#include "runtime/executor_values.h"
#include "runtime/print_format.h"
#include "test_device.h"

using namespace irscope;
using ops::KernelArg;
using runtime::EvalError;
using runtime::ExecOptions;
using ir::Tensor;
using Weights = std::map<std::string, Tensor, std::less<>>;

namespace {

std::unique_ptr<ir::Module> load(const std::string& name) {
    const std::string path = std::string(IRSCOPE_TEST_DATA) + "/eval/" + name;
    std::ifstream in(path);
    std::stringstream buf;
    buf << in.rdbuf();
    return ir::parseIr(buf.str(), name);
}

Tensor f32(std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return Tensor::fromDoubles(ir::DType::Float32, ir::Shape{n}, v);
}

Tensor i32(std::int64_t v) {
    const std::int64_t vals[] = {v};
    return Tensor::fromInts(ir::DType::Int32, ir::Shape{}, vals);
}

std::vector<double> values(const Tensor& t) {
    std::vector<double> out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        out.push_back(t.getDouble(i));
    }
    return out;
}

KernelArg run(const ir::Module& m, std::vector<KernelArg> inputs, const Weights& w = {},
              ExecOptions opts = {}) {
    return runtime::Executor(m, opts).run(inputs, w);
}

std::unique_ptr<ir::Module> loadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream buf;
    buf << in.rdbuf();
    return ir::parseIr(buf.str(), path);
}

const ir::CNode* findNode(const ir::Module& m, std::string_view prim) {
    for (const ir::CNode* c : m.entry()->topoOrder()) {
        if (c->isPrimitive(prim)) {
            return c;
        }
    }
    return nullptr;
}

// Records what an observer sees.
class Recorder : public runtime::ExecObserver {
public:
    std::vector<std::string> before, after;
    std::vector<std::size_t> depths;
    int started = 0, finished = 0;
    std::optional<KernelArg> seenInput;  // the value of Mul's first input, at the Mul
    bool stopAtMul = false;

    void runStarted(const ir::Module&, const runtime::ExecInspector&) override { ++started; }
    void runFinished() override { ++finished; }
    void beforeKernel(const runtime::KernelEvent& e,
                      const runtime::ExecInspector& ex) override {
        const ir::PrimitiveData* p = e.node->primitive();
        const std::string name = p ? p->name : "call";
        before.push_back(name);
        depths.push_back(e.stack.size());
        QVERIFY(e.stack.back().graph == e.node->graph());
        QVERIFY(ex.order(e.node->graph())[e.index] == e.node);
        if (name == "Mul") {
            seenInput = ex.valueOf(e.node->input(1));
            if (stopAtMul) {
                throw runtime::ExecCancelled();
            }
        }
    }
    void afterKernel(const runtime::KernelEvent& e, const KernelArg&,
                     const runtime::ExecInspector&) override {
        const ir::PrimitiveData* p = e.node->primitive();
        after.push_back(p ? p->name : "call");
    }
};

}  // namespace

class TestExecutor : public QObject {
    Q_OBJECT

private slots:
    void arithmeticAndTuples() {
        const auto m = load("arith.ir");
        const KernelArg out = run(*m, {f32({1, 2, 3}), f32({10, 20, 30})});
        QVERIFY(out.isTuple());
        QCOMPARE(out.elements().size(), std::size_t(3));
        // c = (x + y) * 2 - 0.5, then TupleGetItem(.., 1) = a, then the constant 7.
        QCOMPARE(values(out.elements()[0].tensor()), (std::vector<double>{21.5, 43.5, 65.5}));
        QCOMPARE(values(out.elements()[1].tensor()), (std::vector<double>{11, 22, 33}));
        QVERIFY(out.elements()[2].isValue());
        QCOMPARE(out.elements()[2].value()->i, std::int64_t(7));
    }

    void branchIsChosenAtRunTime() {
        const auto m = load("if_branch.ir");
        // sum > 0: x * 10 + 1; otherwise -x + 1.
        QCOMPARE(values(run(*m, {f32({1, 2, 3})}).tensor()), (std::vector<double>{11, 21, 31}));
        QCOMPARE(values(run(*m, {f32({-1, -2, 0})}).tensor()), (std::vector<double>{2, 3, 1}));
    }

    void whileLoopRunsInConstantDepth() {
        // Header and body graphs call each other 2 * 3000 times: more than the depth limit,
        // which only counts calls that are not the graph's last action.
        const auto m = load("while_loop.ir");
        ExecOptions opts;
        opts.maxCallDepth = 100;
        const KernelArg out = run(*m, {i32(3000), i32(7)}, {}, opts);
        QCOMPARE(out.tensor().getInt(0), std::int64_t(7 + 3000 * 2999 / 2));
        QCOMPARE(run(*m, {i32(0), i32(7)}).tensor().getInt(0), std::int64_t(7));
    }

    void recursionWithinLimitAndBeyond() {
        const auto m = load("recursion.ir");
        // count(n) = count(n - 1) + 1 down to -1: n + 1 - 1 + ... = n.
        QCOMPARE(run(*m, {i32(20)}).tensor().getInt(0), std::int64_t(20));
        ExecOptions opts;
        opts.maxCallDepth = 50;
        try {
            run(*m, {i32(500)}, {}, opts);
            QFAIL("expected the call depth limit");
        } catch (const EvalError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("Exceed function call depth limit 50"), e.what());
            QVERIFY2(msg.contains("rec.py:3: if n > 0:"), e.what());
            QCOMPARE(QString::fromStdString(e.pyType()), QString("RuntimeError"));
        }
    }

    void deepRecursionStopsBeforeTheStackEnds() {
        // max_call_depth far beyond what the C++ stack holds: the run still ends with the
        // depth error, not a crash.
        const auto m = load("recursion.ir");
        ExecOptions opts;
        opts.maxCallDepth = std::size_t(1) << 40;
        try {
            run(*m, {i32(100'000'000)}, {}, opts);
            QFAIL("expected the call depth limit");
        } catch (const EvalError& e) {
            QVERIFY2(QString(e.what()).contains("Exceed function call depth limit"), e.what());
        }
    }

    void assignWritesTheBoundWeightAndPrintKeepsOrder() {
        const auto m = load("assign_print.ir");
        Tensor weight = i32(3);
        const Weights w{{"param", weight}};
        std::vector<std::string> lines;
        ExecOptions opts;
        opts.print = [&](std::string_view s) { lines.emplace_back(s); };
        const KernelArg out = run(*m, {i32(4)}, w, opts);
        // Print, Assign(5), x * param = 20, Print, AssignAdd(2): in source order.
        QCOMPARE(out.tensor().getInt(0), std::int64_t(20));
        QCOMPARE(weight.getInt(0), std::int64_t(7));  // the host's storage saw both writes
        const std::vector<std::string> expected = {
            "before:",  "Tensor(shape=[], dtype=Int32, value=3)",
            "after:",   "Tensor(shape=[], dtype=Int32, value=20)",
            "(1, 's')", "1.5",
        };
        QCOMPARE(lines, expected);
    }

    void onePlanServesEveryRunOfItsModule() {
        // A compiled graph keeps its plan across calls: runs that share it see each other's
        // weight writes and take each branch and loop length afresh.
        const auto loop = load("while_loop.ir");
        const auto branch = load("if_branch.ir");
        const auto assign = load("assign_print.ir");
        const auto loopPlan = runtime::planExecution(*loop);
        const auto branchPlan = runtime::planExecution(*branch);
        const auto assignPlan = runtime::planExecution(*assign);
        for (const std::int64_t n : {5, 0, 40}) {
            const KernelArg out =
                runtime::Executor(*loop, {}, loopPlan).run(std::vector{KernelArg(i32(n)),
                                                                       KernelArg(i32(1))},
                                                           {});
            QCOMPARE(out.tensor().getInt(0), 1 + n * (n - 1) / 2);
        }
        const auto runBranch = [&](std::vector<double> x) {
            return values(runtime::Executor(*branch, {}, branchPlan)
                              .run(std::vector{KernelArg(f32(std::move(x)))}, {})
                              .tensor());
        };
        QCOMPARE(runBranch({-1, -2, 0}), (std::vector<double>{2, 3, 1}));
        QCOMPARE(runBranch({1, 2, 3}), (std::vector<double>{11, 21, 31}));
        QCOMPARE(runBranch({-1, -2, 0}), (std::vector<double>{2, 3, 1}));
        Tensor weight = i32(3);
        const Weights w{{"param", weight}};
        std::vector<std::string> before;  // what each run's first Print saw
        for (int k = 0; k < 3; ++k) {
            // Print, Assign(5), x * param, AssignAdd(2): each run after the first starts
            // from the last one's 7.
            ExecOptions opts;
            opts.print = [&](std::string_view s) {
                if (s.starts_with("Tensor") && before.size() == static_cast<std::size_t>(k)) {
                    before.emplace_back(s);
                }
            };
            const KernelArg out = runtime::Executor(*assign, opts, assignPlan)
                                      .run(std::vector{KernelArg(i32(4))}, w);
            QCOMPARE(out.tensor().getInt(0), std::int64_t(20));
            QCOMPARE(weight.getInt(0), std::int64_t(7));
        }
        QCOMPARE(before, (std::vector<std::string>{"Tensor(shape=[], dtype=Int32, value=3)",
                                                   "Tensor(shape=[], dtype=Int32, value=7)",
                                                   "Tensor(shape=[], dtype=Int32, value=7)"}));
        // A plan is of one module: another module's graphs are not in it.
        try {
            runtime::Executor(*branch, {}, loopPlan).run(std::vector{KernelArg(f32({1}))}, {});
            QFAIL("expected an error for a plan of another module");
        } catch (const EvalError& e) {
            QVERIFY2(QString(e.what()).contains("which is not in the module it runs"), e.what());
        }
    }

    void outputNeverAliasesAWeight() {
        const auto m = ir::parseIr(
            "# IR entry: @g\n# Params:\n"
            "%para1_w : <Ref[Tensor[Int32]], (), ref_key=:w>  :  has_default\n"
            "subgraph @g() {\n  %0 = Load(%para1_w, U)\n  Return(%0)\n}\n");
        Tensor weight = i32(3);
        const KernelArg out = run(*m, {}, {{"w", weight}});
        QCOMPARE(out.tensor().getInt(0), std::int64_t(3));
        QVERIFY(!out.tensor().sharesStorageWith(weight));
    }

    void missingWeightIsAnError() {
        const auto m = load("assign_print.ir");
        try {
            run(*m, {i32(4)});
            QFAIL("expected an error for the unbound weight");
        } catch (const EvalError& e) {
            QVERIFY2(QString(e.what()).contains("'param'"), e.what());
        }
    }

    void kernelErrorNamesTheNodeAndLine() {
        const auto m = load("arith.ir");
        try {
            run(*m, {f32({1, 2, 3}), f32({1, 2})});
            QFAIL("expected a broadcast error");
        } catch (const EvalError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.contains("For 'Add'"), e.what());
            QVERIFY2(msg.contains("net.py:10") && msg.contains("a = ops.add(x, y)"), e.what());
            QCOMPARE(QString::fromStdString(e.pyType()), QString("ValueError"));
        }
    }

    void wrongInputCountIsAnError() {
        const auto m = load("arith.ir");
        QVERIFY_THROWS_EXCEPTION(EvalError, run(*m, {f32({1})}));
    }

    void stepLimitAndCancelStopTheRun() {
        const auto m = load("while_loop.ir");
        ExecOptions opts;
        opts.maxSteps = 1000;
        try {
            run(*m, {i32(100000), i32(0)}, {}, opts);
            QFAIL("expected the step limit");
        } catch (const EvalError& e) {
            QVERIFY2(QString(e.what()).contains("1000 steps"), e.what());
        }
        std::stop_source stop;
        stop.request_stop();
        ExecOptions cancelled;
        cancelled.cancel = stop.get_token();
        QVERIFY_THROWS_EXCEPTION(EvalError, run(*m, {i32(10), i32(0)}, {}, cancelled));
    }

    void realDumpWithFreeVariables() {
        // A MindSpore 2.0 dump: the branches read the enclosing graph's node and the
        // wrapper's weight as free variables.
        std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/ms20_if_branch.ir");
        std::stringstream buf;
        buf << in.rdbuf();
        const auto m = ir::parseIr(buf.str(), "ms20_if_branch.ir");
        const ir::Shape s{2, 3};
        const std::vector<double> xs = {1, -2, 3, 4, 5, -6};
        const std::vector<double> ys = {1, 1, 1, 1, 1, 1};
        const std::vector<double> eye = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        const Weights w{
            {"fc.weight", Tensor::fromDoubles(ir::DType::Float32, ir::Shape{3, 3}, eye)}};
        const KernelArg out = run(*m,
                                  {Tensor::fromDoubles(ir::DType::Float32, s, xs),
                                   Tensor::fromDoubles(ir::DType::Float32, s, ys)},
                                  w);
        QVERIFY(out.isTensor());
        QCOMPARE(out.tensor().shape(), s);
    }

    void realMindSpore23DumpRunsWithItsSideEffect() {
        // ctrl_net.py: a = x * 2; b = a + y; c = -a; if b.sum() > 1: self.w = self.w + a;
        // out = b - self.w + c. PrimFunc_ names, attributes as inputs, and a U monad passed
        // to branch graphs without a parameter for it.
        std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/ms23_if_side_effect.ir");
        std::stringstream buf;
        buf << in.rdbuf();
        const auto m = ir::parseIr(buf.str(), "ms23_if_side_effect.ir");
        Tensor w = f32({0.5, 0.5});
        const KernelArg out = run(*m, {f32({1, 2}), f32({1, 1})}, {{"w", w}});
        QCOMPARE(values(out.tensor()), (std::vector<double>{-1.5, -3.5}));
        QCOMPARE(values(w), (std::vector<double>{2.5, 4.5}));
    }

    void noFrameOutlivesItsRun() {
        // The branch chosen by the Switch is kept in its caller's frame as a closure over that
        // frame while it runs as a tail call: a reference cycle. Those frames used to stay
        // alive after the run (leaking what they held); the run's end now frees them, with
        // and without the debugger's keepValues, and also when the run fails.
        std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/ms23_if_side_effect.ir");
        std::stringstream buf;
        buf << in.rdbuf();
        const auto m = ir::parseIr(buf.str(), "ms23_if_side_effect.ir");
        const std::size_t before = runtime::detail::Frame::alive();
        for (const bool keep : {false, true}) {
            ExecOptions opts;
            opts.keepValues = keep;
            Tensor w = f32({0.5, 0.5});
            run(*m, {f32({1, 2}), f32({1, 1})}, {{"w", w}}, opts);
            QCOMPARE(runtime::detail::Frame::alive(), before);
        }
        Tensor w = f32({0.5, 0.5});
        QVERIFY_THROWS_EXCEPTION(EvalError, run(*m, {f32({1, 2, 3}), f32({1, 1})}, {{"w", w}}));
        QCOMPARE(runtime::detail::Frame::alive(), before);
    }

    void observerSeesEveryKernelInOrder() {
        const auto m = load("arith.ir");
        Recorder rec;
        ExecOptions opts;
        opts.observer = &rec;
        run(*m, {f32({1, 2, 3}), f32({10, 20, 30})}, {}, opts);
        const std::vector<std::string> kernels = {"Add", "Mul", "Sub", "MakeTuple",
                                                  "TupleGetItem", "TupleGetItem", "MakeTuple"};
        QCOMPARE(rec.before, kernels);
        QCOMPARE(rec.after, kernels);
        QCOMPARE(rec.started, 1);
        QCOMPARE(rec.finished, 1);
        QVERIFY(rec.seenInput.has_value());
        QCOMPARE(values(rec.seenInput->tensor()), (std::vector<double>{11, 22, 33}));
        // An observer stops the run: an EvalError for the host, and runFinished still comes.
        rec.stopAtMul = true;
        QVERIFY_THROWS_EXCEPTION(EvalError, run(*m, {f32({1, 2, 3}), f32({10, 20, 30})}, {},
                                                opts));
        QCOMPARE(rec.finished, 2);
    }

    void graphCallsNestOnTheStack() {
        // if_branch: %5 = %4() calls the chosen branch (a nested call: its kernels run one
        // level deeper and its afterKernel comes after them); the last call is a tail call.
        const auto m = load("if_branch.ir");
        struct Calls : runtime::ExecObserver {
            std::vector<std::string> log;
            std::optional<KernelArg> sumAfterRun, branchArg;
            const ir::Node* sum = nullptr;
            void beforeKernel(const runtime::KernelEvent& e,
                              const runtime::ExecInspector& ex) override {
                const ir::PrimitiveData* p = e.node->primitive();
                log.push_back("> " + (p ? p->name : std::string("call")) + " @" +
                              e.node->graph()->name() + " " + std::to_string(e.stack.size()) +
                              (e.callsGraph ? " calls" : ""));
                if (p && p->name == "ReduceSum") {
                    sum = e.node;
                }
                if (p && p->name == "Mul") {
                    branchArg = ex.valueOf(e.node->input(1));  // the branch's parameter
                    sumAfterRun = ex.valueOf(sum);             // an outer frame's value
                }
            }
            void afterKernel(const runtime::KernelEvent& e, const KernelArg&,
                             const runtime::ExecInspector&) override {
                if (e.callsGraph && !e.node->primitive()) {
                    log.push_back("< call " + std::to_string(e.stack.size()));
                }
            }
        } calls;
        ExecOptions opts;
        opts.observer = &calls;
        opts.keepValues = true;
        const KernelArg out = run(*m, {f32({1, 2, 3})}, {}, opts);
        QCOMPARE(values(out.tensor()), (std::vector<double>{11, 21, 31}));
        const std::vector<std::string> expected = {
            "> ReduceSum @Net_construct 1",
            "> Greater @Net_construct 1",
            "> Partial @Net_construct 1 calls",
            "> Partial @Net_construct 1 calls",
            "> Switch @Net_construct 1 calls",
            "> call @Net_construct 1 calls",
            "> Mul @\u2713Net_construct 2",
            "< call 1",
            "> call @Net_construct 1 calls",
            "> Add @\u2193Net_construct 1",
        };
        QCOMPARE(calls.log, expected);
        QVERIFY(calls.branchArg && calls.sumAfterRun);
        QCOMPARE(values(calls.branchArg->tensor()), (std::vector<double>{1, 2, 3}));
        QCOMPARE(values(calls.sumAfterRun->tensor()), (std::vector<double>{6}));
        // Without keepValues the sum is released after its last reader (Greater).
        opts.keepValues = false;
        calls.log.clear();
        run(*m, {f32({1, 2, 3})}, {}, opts);
        QVERIFY(!calls.sumAfterRun.has_value());
    }

    void loopFramesReplaceEachOtherOnTheStack() {
        const auto m = load("while_loop.ir");
        Recorder rec;
        ExecOptions opts;
        opts.observer = &rec;
        run(*m, {i32(50), i32(0)}, {}, opts);
        QVERIFY(!rec.depths.empty());
        QVERIFY(*std::max_element(rec.depths.begin(), rec.depths.end()) <= 3);
    }

    void valuesAreReleasedAfterTheirLastUse() {
        // A chain of four Adds on 1 MiB tensors: without keepValues at most two are alive
        // at once (an input and the output of the kernel running), as the plan says.
        const auto m = ir::parseIr(
            "# IR entry: @g\n# Params:\n%para1_x : <Tensor[Float32], (262144)>\n"
            "subgraph @g() {\n"
            "  %0 = Add(%para1_x, %para1_x)\n      : (<Tensor[Float32], (262144)>, "
            "<Tensor[Float32], (262144)>) -> (<Tensor[Float32], (262144)>)\n"
            "  %1 = Add(%0, %0)\n      : (<Tensor[Float32], (262144)>, "
            "<Tensor[Float32], (262144)>) -> (<Tensor[Float32], (262144)>)\n"
            "  %2 = Add(%1, %1)\n      : (<Tensor[Float32], (262144)>, "
            "<Tensor[Float32], (262144)>) -> (<Tensor[Float32], (262144)>)\n"
            "  %3 = Add(%2, %2)\n      : (<Tensor[Float32], (262144)>, "
            "<Tensor[Float32], (262144)>) -> (<Tensor[Float32], (262144)>)\n"
            "  Return(%3)\n}\n");
        const Tensor x(ir::DType::Float32, ir::Shape{262144});
        const std::uint64_t mib = 262144 * 4;
        runtime::RunStats stats;
        runtime::Executor(*m, {}).run(std::vector<KernelArg>{x}, {}, &stats);
        QCOMPARE(stats.peakBytes, 2 * mib);
        QCOMPARE(stats.plannedPeakBytes, 2 * mib);
        QCOMPARE(stats.kernels, std::uint64_t(4));
        // keepValues: everything stays for the inspector, and the run holds all four.
        ExecOptions keep;
        keep.keepValues = true;
        runtime::Executor(*m, keep).run(std::vector<KernelArg>{x}, {}, &stats);
        QCOMPARE(stats.peakBytes, 4 * mib);
    }

    void deviceRunsWhatItSupportsAndFallsBack() {
        const auto m = load("arith.ir");
        auto dev = std::make_shared<testing::TestDevice>();
        std::vector<std::string> warnings;
        ExecOptions opts;
        opts.device = dev;
        opts.warn = [&](std::string_view s) { warnings.emplace_back(s); };
        struct Placements : runtime::ExecObserver {
            std::vector<std::string> log;
            void beforeKernel(const runtime::KernelEvent& e,
                              const runtime::ExecInspector&) override {
                log.push_back(e.node->primitive()->name + " " + std::string(e.placement));
            }
            void afterKernel(const runtime::KernelEvent& e, const KernelArg&,
                             const runtime::ExecInspector&) override {
                log.back() += " " + std::string(e.placement);
            }
        } placements;
        opts.observer = &placements;
        runtime::Executor ex(*m, opts);
        QCOMPARE(ex.placementOf(*findNode(*m, "Add")), std::string("testdev"));
        QCOMPARE(ex.placementOf(*findNode(*m, "MakeTuple")), std::string("cpu"));
        runtime::RunStats stats;
        const KernelArg out = ex.run(std::vector<KernelArg>{f32({1, 2, 3}), f32({10, 20, 30})},
                                     {}, &stats);
        QCOMPARE(values(out.elements()[0].tensor()), (std::vector<double>{21.5, 43.5, 65.5}));
        QCOMPARE(values(out.elements()[1].tensor()), (std::vector<double>{11, 22, 33}));
        QCOMPARE(dev->launched, (std::vector<std::string>{"Add", "Mul"}));
        const std::vector<std::string> where = {
            "Add testdev testdev", "Mul testdev testdev", "Sub testdev cpu",
            "MakeTuple cpu cpu",   "TupleGetItem cpu cpu", "TupleGetItem cpu cpu",
            "MakeTuple cpu cpu"};
        QCOMPARE(placements.log, where);
        QCOMPARE(stats.device, std::string("testdev"));
        QCOMPARE(stats.kernelsOnDevice, std::uint64_t(2));
        // Sub(%1, 0.5) gets one tensor: the device refuses it, the CPU runs it.
        QCOMPARE(stats.fallbacks, std::uint64_t(1));
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].starts_with("[WARNING] irscope: device 'testdev' failed to run Sub "
                                         "(c): "),
                 warnings[0].c_str());
        QVERIFY(warnings[0].ends_with("; running it on the CPU"));
        // x, y and the constant 2 go to the device once each; Mul's result comes back for
        // Sub, Add's for the output.
        QCOMPARE(stats.copiesToDevice, std::uint64_t(3));
        QCOMPARE(stats.copiesToHost, std::uint64_t(2));
        QCOMPARE(stats.opsOnDevice.at("Add"), std::uint64_t(1));
        QCOMPARE(stats.opsOnDevice.at("Mul"), std::uint64_t(1));
        QCOMPARE(stats.opsOnCpu.at("Sub"), std::uint64_t(1));
    }

    void brokenDeviceFallsBackToTheCpu() {
        const auto m = load("arith.ir");
        auto dev = std::make_shared<testing::TestDevice>();
        dev->failing = {"Add", "Mul"};
        std::vector<std::string> warnings;
        ExecOptions opts;
        opts.device = dev;
        opts.warn = [&](std::string_view s) { warnings.emplace_back(s); };
        runtime::Executor ex(*m, opts);
        runtime::RunStats stats;
        for (int i = 0; i < 2; ++i) {
            const KernelArg out = ex.run(
                std::vector<KernelArg>{f32({1, 2, 3}), f32({10, 20, 30})}, {}, &stats);
            QCOMPARE(values(out.elements()[0].tensor()), (std::vector<double>{21.5, 43.5, 65.5}));
        }
        QCOMPARE(stats.kernelsOnDevice, std::uint64_t(0));
        QCOMPARE(stats.fallbacks, std::uint64_t(3));
        QCOMPARE(warnings.size(), std::size_t(3));  // once per op: Add, Mul, Sub
        QCOMPARE(stats.messages.size(), std::size_t(3));
        QCOMPARE(dev->launches, 0);
    }

    void deviceWritesAWeightInPlace() {
        // ms23_if_side_effect: the Assign of w runs on the device; the caller's tensor sees
        // it once the run is over, and the result is the CPU's.
        const auto m = loadFile(std::string(IRSCOPE_TEST_DATA) + "/ms23_if_side_effect.ir");
        auto dev = std::make_shared<testing::TestDevice>();
        ExecOptions opts;
        opts.device = dev;
        opts.warn = [](std::string_view) {};
        Tensor w = f32({0.5, 0.5});
        runtime::RunStats stats;
        const KernelArg out = runtime::Executor(*m, opts).run(
            std::vector<KernelArg>{f32({1, 2}), f32({1, 1})}, {{"w", w}}, &stats);
        QCOMPARE(values(out.tensor()), (std::vector<double>{-1.5, -3.5}));
        QCOMPARE(values(w), (std::vector<double>{2.5, 4.5}));
        QVERIFY(stats.kernelsOnDevice > 0);
        QVERIFY2(std::find(dev->launched.begin(), dev->launched.end(), "Assign") !=
                     dev->launched.end(),
                 "Assign did not run on the device");
    }

    // Every dtype the kernels support, with broadcasting: (2, 3) + (3) and a comparison
    // (2, 3) < (1) selecting between the two operands.
    void dtypesAndBroadcasting_data() {
        QTest::addColumn<int>("dtype");
        for (ir::DType d : {ir::DType::Bool, ir::DType::Int32, ir::DType::Int64,
                            ir::DType::Float16, ir::DType::Float32, ir::DType::Float64}) {
            QTest::newRow(std::string(ir::dtypeName(d)).c_str()) << int(d);
        }
    }

    void dtypesAndBroadcasting() {
        QFETCH(int, dtype);
        const auto d = static_cast<ir::DType>(dtype);
        const std::string t = "Tensor[" + std::string(ir::dtypeName(d)) + "]";
        const std::string text =
            "# IR entry: @g\n# Params:\n%para1_x : <" + t + ", (2, 3)>\n%para2_y : <" + t +
            ", (3)>\n%para3_z : <" + t + ", (1)>\n"
            "subgraph @g() {\n"
            "  %0 = Add(%para1_x, %para2_y)\n      : (<" + t + ", (2, 3)>, <" + t + ", (3)>) -> (<" +
            t + ", (2, 3)>)\n"
            "  %1 = Less(%para1_x, %para3_z)\n      : (<" + t + ", (2, 3)>, <" + t +
            ", (1)>) -> (<Tensor[Bool], (2, 3)>)\n"
            "  %2 = Select(%1, %para1_x, %0)\n      : (<Tensor[Bool], (2, 3)>, <" + t +
            ", (2, 3)>, <" + t + ", (2, 3)>) -> (<" + t + ", (2, 3)>)\n"
            "  Return(%2)\n}\n";
        const auto m = ir::parseIr(text, "dtypes.ir");
        const std::vector<double> xs = {0, 1, 2, 3, 0, 1};
        const std::vector<double> ys = {1, 0, 1};
        const std::vector<double> zs = {1};
        const Tensor x = Tensor::fromDoubles(d, ir::Shape{2, 3}, xs);
        const Tensor y = Tensor::fromDoubles(d, ir::Shape{3}, ys);
        const Tensor z = Tensor::fromDoubles(d, ir::Shape{1}, zs);
        const KernelArg out = run(*m, {x, y, z});
        QCOMPARE(out.tensor().dtype(), d);
        QCOMPARE(out.tensor().shape(), (ir::Shape{2, 3}));
        // x < 1 keeps x (0 where x is 0), else x + y; Bool adds as logical or.
        const std::vector<double> expected =
            d == ir::DType::Bool ? std::vector<double>{0, 1, 1, 1, 0, 1}
                                 : std::vector<double>{0, 1, 3, 4, 0, 2};
        QCOMPARE(values(out.tensor()), expected);
    }

    void printFormats() {
        QCOMPARE(runtime::formatPrintValue(*ir::Value::string("matmul: ")),
                 std::string("matmul: "));
        QCOMPARE(runtime::formatPrintInput(KernelArg(f32({1.5, 2}))),
                 std::string(
                     "Tensor(shape=[2], dtype=Float32, value=[ 1.50000000e+00  2.00000000e+00])"));
        QCOMPARE(runtime::formatPrintValue(*ir::Value::boolean(true)), std::string("True"));
        QCOMPARE(runtime::formatPrintValue(*ir::Value::floating(0.1)), std::string("0.1"));
        QCOMPARE(runtime::formatPrintValue(*ir::Value::floating(3)), std::string("3.0"));
        QVERIFY(runtime::isPrintSkipped(KernelArg(ir::Value::monadValue(ir::MonadKind::IO))));
        // Tuples: one element keeps Python's trailing comma; nested tuples are formatted alike.
        const KernelArg one = KernelArg::tuple({KernelArg(ir::Value::integer(7))});
        QCOMPARE(runtime::formatPrintInput(one), std::string("(7,)"));
        QCOMPARE(runtime::formatPrintInput(KernelArg::tuple({})), std::string("()"));
        std::vector<KernelArg> many;
        for (int i = 0; i < 500; ++i) {
            many.push_back(i % 2 ? KernelArg(f32({1.5, 2})) : KernelArg::tuple({one, one}));
        }
        const KernelArg big = KernelArg::tuple(many);
        const std::string full = runtime::formatPrintInput(big);
        QVERIFY(full.size() > 20000);
        QVERIFY(full.starts_with("(((7,), (7,)), Tensor(shape=[2]"));
        QVERIFY(full.ends_with(")"));
        // The bounded form: the whole text when it fits, else a prefix just past the limit.
        QCOMPARE(runtime::formatPrintInputPrefix(big, full.size()), full);
        for (std::size_t limit : {0, 1, 5, 100, 2000}) {
            const std::string prefix = runtime::formatPrintInputPrefix(big, limit);
            QVERIFY(prefix.size() > limit && prefix.size() < limit + 200);
            QVERIFY(full.starts_with(prefix));
        }
    }
};

QTEST_GUILESS_MAIN(TestExecutor)
#include "test_executor.moc"
