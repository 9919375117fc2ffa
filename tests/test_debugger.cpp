// The debugger API (runtime/debugger.h) on real scripts: their compiled graphs run on the
// executor with the debugger as observer, the script on the debugger's worker thread, and
// the test as the controller (breakpoints, steps, watchpoints, inspection, cancel).
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <limits>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "passes/settings.h"
#include "runtime/debugger.h"

using namespace irscope;
using runtime::DebugError;
using runtime::Debugger;
using runtime::StopReason;
using Mode = Debugger::Mode;

namespace {

constexpr auto kTimeout = std::chrono::seconds(60);

std::string dataPath(const char* name) {
    return std::string(IRSCOPE_TEST_DATA) + "/debug/" + name;
}

std::string readText(const std::string& path) {
    std::ifstream f(path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// A script whose every graph run reports to `dbg`, run by dbg.start().
class DebuggedScript {
public:
    explicit DebuggedScript(const char* file, bool cellReuse = false)
        : path_(dataPath(file)), source_(readText(path_)) {
        modules::registerBuiltinModules(I_);
        compiler::CompilerOptions options;
        options.readEnvironment = false;
        options.observer = &dbg;
        if (cellReuse) {
            options.overrides.set(std::string(passes::kCellReuse), std::int64_t(1));
        }
        compiler::GraphCompilerImpl::install(I_, std::move(options));
        I_.setStopToken(stop_.get_token());
        I_.setOutputSink([this](std::string_view s) {
            std::lock_guard lk(mu_);
            out_ += s;
        });
        I_.setErrorSink([this](std::string_view s) {
            std::lock_guard lk(mu_);
            err_ += s;
        });
        const std::string path = path_;
        const std::string text = source_;
        dbg.setSourceLookup([path, text](std::string_view f) -> std::optional<std::string> {
            if (runtime::sourceFileMatches(path, f)) {
                return text;
            }
            return std::nullopt;
        });
    }
    ~DebuggedScript() {
        stop_.request_stop();  // the script and, through the job's token, a stopped run
        dbg.join();
    }

    void start(Debugger::Resume first = {Mode::Continue, {}}) {
        dbg.start([this] { status_ = I_.runScript(source_, path_).exitStatus; }, first,
                  stop_.get_token());
    }
    // What a UI's Stop does: one request on the job's source.
    void stopJob() { stop_.request_stop(); }
    // Waits for the next stop (fails the test on the job's end or a timeout).
    runtime::StopInfo nextStop() {
        const Debugger::State st = dbg.wait(kTimeout);
        if (st != Debugger::State::Stopped) {
            QTest::qFail(("expected a stop; state " + std::to_string(int(st)) + "; output:\n" +
                          output() + "\nerrors:\n" + errors())
                             .c_str(),
                         __FILE__, __LINE__);
            throw std::runtime_error("no stop");
        }
        return *dbg.stopInfo();
    }
    bool finishes() {
        const bool done = dbg.wait(kTimeout) == Debugger::State::Finished;
        dbg.join();
        return done;
    }
    std::string output() {
        std::lock_guard lk(mu_);
        return out_;
    }
    std::string errors() {
        std::lock_guard lk(mu_);
        return err_;
    }
    int status() const { return status_; }

    Debugger dbg;  // declared before the interpreter: the compiler refers to it

private:
    std::stop_source stop_;  // the job's: the script's token and the debugger's
    std::string path_;
    std::string source_;
    interp::Interpreter I_;
    std::mutex mu_;
    std::string out_, err_;
    int status_ = -1;
};

#define STOP(script) (script).nextStop()

}  // namespace

class TestDebugger : public QObject {
    Q_OBJECT

private slots:
    // A breakpoint on an op type stops before the kernel; continue runs to the end, and the
    // script's own prints still come out.
    void breakOnOpType() {
        DebuggedScript s("lazy_blocks.py");
        const int id = s.dbg.addBreakpoint("AddN");
        s.start();
        const runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Breakpoint);
        QCOMPARE(stop.breakpoint, id);
        QCOMPARE(stop.op, std::string("AddN"));
        QVERIFY(!stop.afterKernel);
        QCOMPARE(stop.source.line, 30);
        QVERIFY(stop.nodeLine.find("AddN(") != std::string::npos);
        QCOMPARE(s.dbg.breakpoints().front().hits, std::uint64_t(1));
        QCOMPARE(s.output(), std::string("before the graph\n"));
        // AddN has not run: its output is not there yet, but its input is.
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.inspect(stop.nodeName));
        const runtime::ValueInfo inputs = s.dbg.inspect("");
        QCOMPARE(inputs.kind, runtime::ValueInfo::Kind::Tuple);
        QCOMPARE(inputs.elements.size(), std::size_t(1));
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        QCOMPARE(s.status(), 0);
        QCOMPARE(s.output(), std::string("before the graph\n[     nan 4.394449]\n"));
    }

    // A source-line breakpoint stops once where execution arrives at the line (Sub, not again
    // at Log on the same line); FILE matches by basename. Bad lines and files are errors.
    void breakOnSourceLine() {
        DebuggedScript s("lazy_blocks.py");
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addBreakpoint("lazy_blocks.py:999"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addBreakpoint("nosuch.py:3"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addBreakpoint("lazy_blocks.py:x"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addBreakpoint("%x"));
        QVERIFY(s.dbg.breakpoints().empty());
        std::string note;
        s.dbg.addBreakpoint("lazy_blocks.py:29", &note);
        QVERIFY(note.find("pending") != std::string::npos);
        s.start();
        const runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.op, std::string("Sub"));
        QCOMPARE(stop.source.line, 29);
        QVERIFY(stop.source.text.find("ops.log(x - 10)") != std::string::npos);
        // The value flowing into Sub: [7, 19] after the two blocks.
        const runtime::ValueInfo inputs = s.dbg.inspect("");
        QCOMPARE(inputs.elements.size(), std::size_t(1));
        const runtime::ValueInfo& in = inputs.elements[0];
        QCOMPARE(in.kind, runtime::ValueInfo::Kind::Tensor);
        QCOMPARE(in.summary.min, 7.0);
        QCOMPARE(in.summary.max, 19.0);
        QCOMPARE(in.summary.mean, 13.0);
        QCOMPARE(in.summary.shape, ir::Shape({2}));
        QVERIFY(in.values.find("Tensor(shape=[2], dtype=Float32") != std::string::npos);
        // an unknown node of this graph is an error now that a graph is known
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addBreakpoint("%99"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.inspect("%99"));
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        QCOMPARE(s.dbg.breakpoints().front().hits, std::uint64_t(1));
    }

    // stepi enters a graph call (lazy inline keeps CR_Block_construct as a call), finish
    // returns to the caller with the call's value, next steps over the second call.
    void stepIntoAndOverCalls() {
        DebuggedScript s("lazy_blocks.py", true);
        s.start({Mode::StepInstruction, {}});
        runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Step);
        QCOMPARE(stop.op, std::string("call"));
        QCOMPARE(stop.stack.size(), std::size_t(1));
        QCOMPARE(stop.source.line, 28);
        s.dbg.resume({Mode::StepInstruction, {}});
        stop = STOP(s);
        QCOMPARE(stop.op, std::string("Mul"));
        QCOMPARE(stop.stack.size(), std::size_t(2));
        QCOMPARE(stop.graph, std::string("CR_Block_construct"));
        QVERIFY(stop.stack[1].callSite.find("call @CR_Block_construct") != std::string::npos);
        QCOMPARE(stop.source.line, 17);
        // step (by source line) goes to line 18
        s.dbg.resume({Mode::Step, {}});
        stop = STOP(s);
        QCOMPARE(stop.op, std::string("Add"));
        QCOMPARE(stop.source.line, 18);
        const runtime::ValueInfo h = s.dbg.inspect("%0");
        QCOMPARE(h.summary.min, 2.0);
        QCOMPARE(h.summary.max, 8.0);
        // finish: back in the entry graph, after the first call, with its value [3, 9]
        s.dbg.resume({Mode::Finish, {}});
        stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Finish);
        QVERIFY(stop.afterKernel);
        QCOMPARE(stop.stack.size(), std::size_t(1));
        QCOMPARE(stop.op, std::string("call"));
        const runtime::ValueInfo ret = s.dbg.inspect("");
        QCOMPARE(ret.summary.min, 3.0);
        QCOMPARE(ret.summary.max, 9.0);
        // finish is meaningless in the outermost graph
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.resume({Mode::Finish, {}}));
        // stepi reaches the second call; next steps over it to Sub
        s.dbg.resume({Mode::StepInstruction, {}});
        stop = STOP(s);
        QCOMPARE(stop.op, std::string("call"));
        QCOMPARE(stop.index, std::size_t(1));
        s.dbg.resume({Mode::Next, {}});
        stop = STOP(s);
        QCOMPARE(stop.op, std::string("Sub"));
        QCOMPARE(stop.stack.size(), std::size_t(1));
        QCOMPARE(s.dbg.inspect("%1").summary.max, 19.0);
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
    }

    // A NaN watchpoint on Log stops after it ran, with the count; the value is inspectable.
    void watchNan() {
        DebuggedScript s("lazy_blocks.py");
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addWatchpoint("Log", "bogus"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addWatchpoint("Log", "above"));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.addWatchpoint("Log", "nan 3"));
        const int sub = s.dbg.addWatchpoint("Sub", "nan");  // Sub's output has no NaN
        const int id = s.dbg.addWatchpoint("Log", "nan");
        s.start();
        const runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Watchpoint);
        QCOMPARE(stop.breakpoint, id);
        QVERIFY(stop.afterKernel);
        QCOMPARE(stop.op, std::string("Log"));
        QCOMPARE(stop.detail, std::string("has NaN (1 of 2 elements)"));
        const runtime::ValueInfo v = s.dbg.inspect("");
        QCOMPARE(v.summary.nan, std::size_t(1));
        QVERIFY(v.header.find("nan=1") != std::string::npos);
        QVERIFY(std::abs(v.summary.max - std::log(9.0)) < 1e-6);
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        for (const runtime::Breakpoint& b : s.dbg.breakpoints()) {
            QCOMPARE(b.hits, std::uint64_t(b.id == sub ? 0 : 1));
        }
    }

    // changed: the loop body's Mul gives a new value every iteration but the first; above
    // and below compare with a threshold; a disabled watchpoint does not stop.
    void watchChangedAndThresholds() {
        DebuggedScript s("loop.py");
        const int changed = s.dbg.addWatchpoint("Mul", "changed");
        s.start();
        runtime::StopInfo stop = STOP(s);  // iteration 2: [4, -8] after [2, -4]
        QCOMPARE(stop.breakpoint, changed);
        QCOMPARE(stop.op, std::string("Mul"));
        QCOMPARE(s.dbg.inspect("").summary.max, 4.0);
        s.dbg.resume({Mode::Continue, {}});
        stop = STOP(s);  // iteration 3
        QCOMPARE(s.dbg.inspect("").summary.max, 8.0);
        s.dbg.setEnabled(changed, false);
        const int above = s.dbg.addWatchpoint("Sub", "above 6.5");
        s.dbg.resume({Mode::Continue, {}});
        stop = STOP(s);
        QCOMPARE(stop.breakpoint, above);
        QCOMPARE(stop.detail, std::string("has values above 6.5, max 7 (1 of 2 elements)"));
        QCOMPARE(stop.run, std::uint64_t(1));
        s.dbg.remove(above);
        s.dbg.addWatchpoint("Sub", "below -4");
        s.dbg.resume({Mode::Continue, {}});
        stop = STOP(s);  // second run: x - 1 = [1, -5]
        QCOMPARE(stop.run, std::uint64_t(2));
        QCOMPARE(stop.detail, std::string("has values below -4, min -5 (1 of 2 elements)"));
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        QCOMPARE(s.output(), std::string("[  7. -17.]\n[ 1. -5.]\n[ 0.5 -1. ]\n"));
        QCOMPARE(s.dbg.runs(), std::uint64_t(3));  // two runs of Net, one of halve
        QCOMPARE(s.dbg.breakpoints().front().hits, std::uint64_t(2));
    }

    // Cancelling at a stop ends the run with ExecCancelled: the script sees a RuntimeError.
    void cancelMidRun() {
        DebuggedScript s("loop.py");
        s.dbg.addBreakpoint("Mul");
        s.start();
        STOP(s);
        s.dbg.resume({Mode::Continue, {}});
        STOP(s);  // second iteration
        s.dbg.cancel();
        QVERIFY(s.finishes());
        QCOMPARE(s.status(), 1);
        QVERIFY2(s.errors().find("The run was stopped.") != std::string::npos, s.errors().c_str());
        QCOMPARE(s.output(), std::string());
        QCOMPARE(s.dbg.breakpoints().front().hits, std::uint64_t(2));
    }

    // Stopping the job's token (the one its script runs with) wakes a run stopped at a
    // breakpoint and ends the whole script as cancelled, with no call on the debugger.
    void jobStopWakesAStoppedRun() {
        DebuggedScript s("loop.py");
        s.dbg.addBreakpoint("Mul");
        s.start();
        STOP(s);
        s.stopJob();
        QVERIFY(s.finishes());
        QCOMPARE(s.status(), 1);
        QVERIFY2(s.errors().find("cancelled") != std::string::npos, s.errors().c_str());
        QCOMPARE(s.dbg.breakpoints().front().hits, std::uint64_t(1));
    }

    // %N names a node of the graph the run is stopped in; @GRAPH:%N any graph; advance runs
    // to a location; the listing marks the current kernel and breakpoints.
    void nodesAdvanceAndListing() {
        DebuggedScript s("loop.py");
        s.start({Mode::StepInstruction, {}});
        runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.stack.size(), std::size_t(1));
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.resume({Mode::Advance, "NoSuchOp"}));
        s.dbg.resume({Mode::Advance, "Add"});
        stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Advance);
        QCOMPARE(stop.op, std::string("Add"));
        QCOMPARE(stop.source.line, 15);
        // the loop iterates by tail calls: each replaces its caller's frame
        QCOMPARE(stop.stack.size(), std::size_t(1));
        QCOMPARE(stop.graph, std::string("↻Net_construct"));
        // %0 here is the Mul of the loop body, computed: [2, -4]
        const runtime::ValueInfo mul = s.dbg.inspect("%0");
        QVERIFY(mul.node.find("Mul(") != std::string::npos);
        QCOMPARE(mul.summary.min, -4.0);
        // a breakpoint on %0 of this graph, shown in the listing
        const int id = s.dbg.addBreakpoint("%0");
        QCOMPARE(s.dbg.breakpoints().back().graph, stop.graph);
        const auto list = s.dbg.listing();
        QVERIFY(list.size() >= 2);
        QVERIFY(list[0].breakpoint);
        QVERIFY(list[stop.index].current);
        QVERIFY(list[stop.index].line.find("Add(") != std::string::npos);
        s.dbg.resume({Mode::Continue, {}});
        stop = STOP(s);
        QCOMPARE(stop.breakpoint, id);
        QCOMPARE(stop.op, std::string("Mul"));
        s.dbg.remove(id);
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        QVERIFY_THROWS_EXCEPTION(DebugError, s.dbg.inspect("%0"));
    }

    // pause() stops a running script at its next kernel.
    void pauseAndParameters() {
        DebuggedScript s("lazy_blocks.py");
        s.dbg.pause();
        s.start();
        const runtime::StopInfo stop = STOP(s);
        QCOMPARE(stop.reason, StopReason::Pause);
        const runtime::ValueInfo x = s.dbg.inspect("%para1_x");
        QCOMPARE(x.summary.min, 1.0);
        QCOMPARE(x.summary.max, 4.0);
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
    }

    // The GUI's path: the stop callback runs on the executing thread (where inspection is
    // direct), run callbacks report each graph run; the controller resumes.
    void callbacks() {
        DebuggedScript s("loop.py");
        std::mutex mu;
        std::vector<std::string> seen;
        std::vector<std::uint64_t> started, finished;
        s.dbg.setStopCallback([&](const runtime::StopInfo& stop) {
            const runtime::ValueInfo v = s.dbg.inspect("");  // the Sub's input, on this thread
            std::lock_guard lk(mu);
            seen.push_back(stop.op + " " + std::to_string(v.elements.size()));
        });
        s.dbg.setRunCallbacks(
            [&](std::uint64_t run, const std::string& entry) {
                std::lock_guard lk(mu);
                started.push_back(run);
                QVERIFY(!entry.empty());
            },
            [&](std::uint64_t run, bool cancelled) {
                std::lock_guard lk(mu);
                finished.push_back(run);
                QVERIFY(!cancelled);
            });
        s.dbg.addBreakpoint("Sub");
        s.start();
        STOP(s);
        s.dbg.resume({Mode::Continue, {}});
        STOP(s);
        s.dbg.resume({Mode::Continue, {}});
        QVERIFY(s.finishes());
        std::lock_guard lk(mu);
        QCOMPARE(seen, (std::vector<std::string>{"Sub 1", "Sub 1"}));
        QCOMPARE(started, (std::vector<std::uint64_t>{1, 2, 3}));
        QCOMPARE(finished, (std::vector<std::uint64_t>{1, 2, 3}));
    }

    void summaries() {
        const ir::Tensor t = ir::Tensor::fromDoubles(
            ir::DType::Float32, ir::Shape({4}),
            std::vector<double>{1.0, std::nan(""), -std::numeric_limits<double>::infinity(), 3.0});
        const runtime::TensorSummary s = runtime::summarize(t);
        QCOMPARE(s.nan, std::size_t(1));
        QCOMPARE(s.negInf, std::size_t(1));
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 3.0);
        QCOMPARE(s.mean, 2.0);
        QVERIFY(runtime::sourceFileMatches("/a/b/net.py", "net.py"));
        QVERIFY(runtime::sourceFileMatches("b/net.py", "/a/b/net.py"));
        QVERIFY(!runtime::sourceFileMatches("/a/b/mynet.py", "net.py"));
    }
};

QTEST_GUILESS_MAIN(TestDebugger)
#include "test_debugger.moc"
