// The first divergent kernel between two runs of a script (session/divergence.h): the seed's
// load-elimination network at MS_DEV_SIDE_EFFECT_LOAD_ELIM 1 vs 3 diverges at the AddN that
// sums the first two terms of the gradient from the construct's `out = x * self.weight + out` line,
// reading Loads an Assign overwrote (no TensorMove at level 3); levels 1 vs 2 agree; an op computed
// differently by a device (the deliberately wrong "wrong" test plugin, whose Mul is off by
// one) is found at the first Mul; the settings, tolerance and value comparison rules.
#include <QtTest>

#include <fstream>
#include <sstream>

#include "ir/tensor.h"
#include "session/divergence.h"
#include "session/kernel_trace.h"
#include "test_files.h"

using namespace irscope;

namespace {

using test_files::readFile;

const std::string kLoadElim =
    std::string(IRSCOPE_SOURCE_DIR) + "/resources/examples/load_elim_fwd_bwd.py";

session::RunSide side(const std::string& spec) {
    std::string error;
    auto s = session::parseRunSide(spec, &error);
    if (!s) {
        qFatal("bad side %s: %s", spec.c_str(), error.c_str());
    }
    return *s;
}

session::DivergenceResult diverge(const std::string& source, const std::string& path,
                                  const std::string& a, const std::string& b,
                                  session::Tolerance tol = {}) {
    session::DivergenceOptions o;
    o.script.compiler.readEnvironment = false;
    o.script.statsHistory = "off";
    o.tolerance = tol;
    session::DivergenceFinder finder;
    return finder.run(source, path, {side(a), side(b)}, o);
}

// A float32 network whose second kernel is a Mul: computed on the "wrong" device, it is off
// by one; the Add before it is right.
const char* const kMulNet = R"(import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, context

context.set_context(mode=context.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x, y):
        s = x + y
        p = s * y
        return p - x


net = Net()
x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
y = Tensor(np.array([0.5, 0.25, 2.0], np.float32))
print(net(x, y))
)";

}  // namespace

class TestDivergence : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("IRSCOPE_PLUGIN_PATH", IRSCOPE_BROKEN_PLUGIN_DIR "/wrong"); }

    void loadElim1Against3FindsTheAddNReadingStaleLoads() {
        const std::string source = readFile(kLoadElim);
        QVERIFY(!source.empty());
        const session::DivergenceResult r =
            diverge(source, kLoadElim, "load-elim=1", "load-elim=3");
        QVERIFY(r.sessions[0] && r.sessions[1]);
        QCOMPARE(r.results[0].exitStatus, 0);
        QCOMPARE(r.results[1].exitStatus, 1);  // the script's assert fails at level 3
        QVERIFY(r.first.has_value());
        const session::Divergence& d = *r.first;
        QCOMPARE(int(d.kind), int(session::Divergence::Kind::Value));
        QCOMPARE(QString::fromStdString(d.sides[0].op), QStringLiteral("AddN"));
        QCOMPARE(QString::fromStdString(d.sides[1].op), QStringLiteral("AddN"));
        // The construct's line the gradient comes from.
        QVERIFY2(d.sides[0].source.text.find("out = x * self.weight + out") != std::string::npos,
                 d.sides[0].source.text.c_str());
        QVERIFY2(d.sides[0].value.find("value=3)") != std::string::npos, d.sides[0].value.c_str());
        QVERIFY2(d.sides[1].value.find("value=4)") != std::string::npos, d.sides[1].value.c_str());
        QVERIFY2(d.detail.find("element 0: 3 vs 4") != std::string::npos, d.detail.c_str());
        // The known pattern: on b, Loads of `param` that an Assign overwrote, no TensorMove.
        QVERIFY2(d.explanation.find("On load-elim=3, AddN") != std::string::npos,
                 d.explanation.c_str());
        QVERIFY2(d.explanation.find("Parameter 'param'") != std::string::npos,
                 d.explanation.c_str());
        QVERIFY2(d.explanation.find("so AddN read 2 where the Load saw 1") != std::string::npos,
                 d.explanation.c_str());
        QVERIFY2(d.explanation.find("TensorMove") != std::string::npos, d.explanation.c_str());
        QVERIFY2(d.explanation.find("On load-elim=1, TensorMove") != std::string::npos,
                 d.explanation.c_str());
        // b's upstream shows what the stale Loads were read as; a's has none.
        int staleB = 0;
        for (const session::UpstreamNode& u : d.sides[1].upstream) {
            if (!u.readAs.empty()) {
                ++staleB;
                QVERIFY2(u.line.find("Load(") != std::string::npos, u.line.c_str());
                QVERIFY2(u.readAs.find("value=2)") != std::string::npos, u.readAs.c_str());
            }
        }
        QCOMPARE(staleB, 1);  // the Load of the first state; the second read 2 anyway
        for (const session::UpstreamNode& u : d.sides[0].upstream) {
            QVERIFY2(u.readAs.empty(), u.line.c_str());
        }
        QVERIFY(!d.sides[0].neighbourhood.empty());
        QVERIFY(r.compared > 0);
        QVERIFY(r.unmatched >= 3);  // a's three TensorMoves have no counterpart at level 3
        const std::string report = session::formatDivergence(r);
        QVERIFY2(report.find("first divergent kernel: AddN") != std::string::npos, report.c_str());
        QVERIFY2(report.find("why: ") != std::string::npos, report.c_str());
    }

    void loadElim1Against2Agree() {
        const std::string source = readFile(kLoadElim);
        const session::DivergenceResult r =
            diverge(source, kLoadElim, "load-elim=1", "load-elim=2");
        QVERIFY2(!r.first.has_value(), session::formatDivergence(r).c_str());
        QVERIFY(r.compared >= 5);  // Assigns, Muls, Adds and AddNs
        QCOMPARE(r.graphRuns, std::size_t{1});
        QVERIFY(session::formatDivergence(r).find("no difference") != std::string::npos);
    }

    void aDeviceThatComputesAnOpDifferentlyIsFound() {
        const session::DivergenceResult r =
            diverge(kMulNet, "mul_net.py", "device=cpu", "device=wrong");
        QVERIFY(r.first.has_value());
        const session::Divergence& d = *r.first;
        QCOMPARE(int(d.kind), int(session::Divergence::Kind::Value));
        QCOMPARE(QString::fromStdString(d.sides[0].op), QStringLiteral("Mul"));
        QCOMPARE(QString::fromStdString(d.sides[0].placement), QStringLiteral("cpu"));
        QCOMPARE(QString::fromStdString(d.sides[1].placement), QStringLiteral("wrong"));
        QCOMPARE(d.sides[0].source.line, 11);  // p = s * y
        QVERIFY2(d.detail.find("3 of 3 elements differ") != std::string::npos, d.detail.c_str());
        QVERIFY(d.explanation.empty());
        QCOMPARE(r.compared, std::size_t{1});  // the Add before it agreed
        // The same device on both sides: nothing differs.
        const session::DivergenceResult same =
            diverge(kMulNet, "mul_net.py", "device=wrong", "device=wrong");
        QVERIFY2(!same.first.has_value(), session::formatDivergence(same).c_str());
    }

    void anUnknownDeviceIsRefused() {
        session::DivergenceFinder finder;
        session::DivergenceOptions o;
        o.script.compiler.readEnvironment = false;
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            finder.run(kMulNet, "m.py", {side("device=cpu"), side("device=nosuch")}, o));
    }

    // PyNative against GRAPH_MODE on the seed's print example: both modes compute the same
    // values line by line; the two print lines differ in when and how they print.
    void pynativeAgainstGraphOnThePrintExample() {
        const std::string path =
            std::string(IRSCOPE_SOURCE_DIR) + "/resources/examples/graph_mode_print.py";
        const std::string source = readFile(path);
        const session::DivergenceResult r = diverge(source, path, "mode=pynative", "mode=graph");
        const std::string report = session::formatDivergence(r);
        QVERIFY(r.byLine);
        QVERIFY2(!r.first.has_value(), report.c_str());
        QVERIFY2(r.lines >= 2 && r.compared >= 2, report.c_str());  // the matmul and add lines
        // The pynative side ran construct eagerly (model.compile(x) still compiles it, as in
        // MindSpore); the graph side ran the compiled graph once.
        QCOMPARE(r.sessions[0]->runs.size(), std::size_t{0});
        QCOMPARE(r.sessions[1]->runs.size(), std::size_t{1});
        QCOMPARE(r.prints.size(), std::size_t{2});
        const session::PrintedLine& p = r.prints[0];
        QCOMPARE(p.line, 26);
        QVERIFY2(p.text == "print('matmul: ', out)", p.text.c_str());
        QVERIFY(!p.compiled[0] && p.compiled[1]);
        QVERIFY2(p.printed[0].starts_with("matmul:  ["), p.printed[0].c_str());
        QVERIFY2(p.printed[1].find("Tensor(shape=[3], dtype=Float32") != std::string::npos,
                 p.printed[1].c_str());
        QCOMPARE(r.prints[1].line, 28);
        QVERIFY2(report.find("why: in GRAPH_MODE a print inside construct is compiled into a Print "
                             "operator") != std::string::npos,
                 report.c_str());
        QVERIFY2(report.find("no difference") != std::string::npos, report.c_str());
    }

    // PyNative against GRAPH_MODE at LOAD_ELIM 3: PyNative's gradient is right, graph mode's
    // AddN reads Loads an Assign overwrote; the line whose values differ first is found.
    void pynativeAgainstGraphAtLoadElim3FindsTheLine() {
        const std::string source = readFile(kLoadElim);
        const session::DivergenceResult r =
            diverge(source, kLoadElim, "mode=pynative", "mode=graph,load-elim=3");
        const std::string report = session::formatDivergence(r);
        QVERIFY(r.byLine);
        QVERIFY2(r.first.has_value(), report.c_str());
        const session::Divergence& d = *r.first;
        QCOMPARE(int(d.kind), int(session::Divergence::Kind::Line));
        QCOMPARE(d.sides[0].source.line, 30);
        QVERIFY2(d.sides[0].source.text.find("out = x * self.weight + out") != std::string::npos,
                 d.sides[0].source.text.c_str());
        QVERIFY2(report.find("first divergent line: ") != std::string::npos, report.c_str());
        QVERIFY2(report.find("(in the gradient)") != std::string::npos, report.c_str());
        QCOMPARE(r.results[0].exitStatus, 0);
        QCOMPARE(r.results[1].exitStatus, 1);  // the script's assert fails at level 3
        // At LOAD_ELIM 1 the two modes agree.
        const session::DivergenceResult same =
            diverge(source, kLoadElim, "mode=pynative", "mode=graph,load-elim=1");
        QVERIFY2(!same.first.has_value(), session::formatDivergence(same).c_str());
        QVERIFY(same.compared >= 3);
    }

    // A line of two ops is one visit whose value is the last op's: on a device whose Mul is
    // off by one, `p = s * y + x` differs (the Add of a wrong product) and `s = x + y` does not.
    void aLineIsComparedByItsLastOp() {
        const std::string net = std::string(kMulNet);
        const session::DivergenceResult r =
            diverge(net, "mul_net.py", "mode=pynative", "mode=graph,device=wrong");
        const std::string report = session::formatDivergence(r);
        QVERIFY2(r.first.has_value(), report.c_str());
        const session::Divergence& d = *r.first;
        QCOMPARE(d.sides[0].source.line, 11);  // p = s * y
        QCOMPARE(QString::fromStdString(d.sides[0].placement), QStringLiteral("pynative"));
        QCOMPARE(QString::fromStdString(d.sides[1].placement), QStringLiteral("graph"));
        QCOMPARE(QString::fromStdString(d.sides[0].op), QStringLiteral("Mul"));
        QVERIFY2(report.find("1st visit of the line of 1, run eagerly") != std::string::npos,
                 report.c_str());
        const std::string twoOps = R"(import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, context

context.set_context(mode=context.GRAPH_MODE)


class Net(nn.Cell):
    def construct(self, x, y):
        s = x + y
        p = s * y + x
        return p


net = Net()
print(net(Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))))
)";
        const session::DivergenceResult two =
            diverge(twoOps, "two_ops.py", "mode=pynative", "mode=graph,device=wrong");
        QVERIFY2(two.first.has_value(), session::formatDivergence(two).c_str());
        QCOMPARE(two.first->sides[0].source.line, 11);
        QCOMPARE(QString::fromStdString(two.first->sides[0].op), QStringLiteral("Add"));
        QCOMPARE(QString::fromStdString(two.first->sides[1].op), QStringLiteral("Add"));
        QCOMPARE(two.first->visits[0], std::size_t{1});
        QCOMPARE(two.first->visits[1], std::size_t{1});
        // The Add's values: (4 * 3 + 1, 6 * 4 + 2) against the wrong device's (4 * 3 + 1 + 1, ...).
        QVERIFY2(two.first->sides[0].value.find("value=[ 1.30000000e+01  2.60000000e+01]") !=
                     std::string::npos,
                 two.first->sides[0].value.c_str());
        QVERIFY2(two.first->sides[1].value.find("value=[ 1.40000000e+01  2.70000000e+01]") !=
                     std::string::npos,
                 two.first->sides[1].value.c_str());
        QCOMPARE(two.lines, std::size_t{2});  // lines 10 and 11
    }

    void parsesSides() {
        std::string error;
        auto s = session::parseRunSide("load-elim=3, device=opencl", &error);
        QVERIFY(s.has_value());
        QCOMPARE(s->overrides.getInt("MS_DEV_SIDE_EFFECT_LOAD_ELIM"), std::int64_t{3});
        QCOMPARE(QString::fromStdString(s->device), QStringLiteral("opencl"));
        QCOMPARE(QString::fromStdString(s->label), QStringLiteral("load-elim=3, device=opencl"));
        s = session::parseRunSide("cell-reuse=2", &error);
        QVERIFY(s.has_value());
        QCOMPARE(s->overrides.getInt("MS_DEV_CELL_REUSE"), std::int64_t{2});
        QVERIFY(session::parseRunSide("MS_DEV_CELL_REUSE=1", &error).has_value());
        QVERIFY(!session::parseRunSide("load-elim=4", &error));
        QVERIFY2(error.find("0 to 3") != std::string::npos, error.c_str());
        QVERIFY(!session::parseRunSide("speed=fast", &error));
        QVERIFY2(error.find("unknown setting 'speed'") != std::string::npos, error.c_str());
        QVERIFY(!session::parseRunSide("load-elim", &error));
        QVERIFY(!session::parseRunSide("", &error));
        QVERIFY(!session::parseRunSide("device=", &error));
        s = session::parseRunSide("mode=pynative", &error);
        QVERIFY(s.has_value() && s->mode == std::int64_t{1});
        s = session::parseRunSide("mode=GRAPH_MODE,load-elim=3", &error);
        QVERIFY(s.has_value() && s->mode == std::int64_t{0});
        QVERIFY(!session::parseRunSide("mode=eager", &error));
        QVERIFY2(error.find("'eager' is not graph or pynative") != std::string::npos,
                 error.c_str());
    }

    void valuesAgreeWithinTheTolerance() {
        using ir::Tensor;
        const std::vector<double> a{1.0, 2.0, 1000.0};
        const std::vector<double> b{1.0, 2.0 + 1e-9, 1000.0 + 5e-3};
        const Tensor ta = Tensor::fromDoubles(ir::DType::Float32, ir::Shape{3}, a);
        const Tensor tb = Tensor::fromDoubles(ir::DType::Float64, ir::Shape{3}, b);
        std::string why;
        QVERIFY(!session::valuesAgree(ta, tb, {}, &why));  // dtypes differ
        QVERIFY2(why.find("Float32") != std::string::npos, why.c_str());
        const Tensor tb32 = Tensor::fromDoubles(ir::DType::Float64, ir::Shape{3}, a);
        const Tensor tc = Tensor::fromDoubles(ir::DType::Float64, ir::Shape{3}, b);
        QVERIFY(!session::valuesAgree(tb32, tc, {1e-6, 0.0}, &why));  // 5e-3 > 1e-6 * 1000
        QVERIFY2(why.find("1 of 3 elements differ") != std::string::npos, why.c_str());
        QVERIFY(session::valuesAgree(tb32, tc, {1e-5, 0.0}, &why));  // 5e-3 <= 1e-5 * 1000
        // NaN agrees with NaN, not with a number; integers compare exactly.
        const std::vector<double> n1{std::nan(""), 1.0};
        const std::vector<double> n2{std::nan(""), 1.0};
        const std::vector<double> n3{0.0, 1.0};
        QVERIFY(session::valuesAgree(Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2}, n1),
                                     Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2}, n2),
                                     {}));
        QVERIFY(!session::valuesAgree(Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2}, n1),
                                      Tensor::fromDoubles(ir::DType::Float32, ir::Shape{2}, n3),
                                      {}));
        const std::vector<std::int64_t> i1{5, 7};
        const std::vector<std::int64_t> i2{5, 8};
        QVERIFY(!session::valuesAgree(Tensor::fromInts(ir::DType::Int32, ir::Shape{2}, i1),
                                      Tensor::fromInts(ir::DType::Int32, ir::Shape{2}, i2),
                                      {1.0, 1.0}));
        // Shapes and tuple lengths.
        QVERIFY(!session::valuesAgree(Tensor::fromInts(ir::DType::Int32, ir::Shape{2}, i1),
                                      Tensor::fromInts(ir::DType::Int32, ir::Shape{2, 1}, i1), {}));
        const ops::KernelArg t1 =
            ops::KernelArg::tuple({Tensor::fromInts(ir::DType::Int32, ir::Shape{2}, i1)});
        const ops::KernelArg t2 = ops::KernelArg::tuple({});
        QVERIFY(!session::valuesAgree(t1, t2, {}, &why));
        QVERIFY2(why.find("tuples of 1 vs 0") != std::string::npos, why.c_str());
    }

    void deepCopiesDoNotAlias() {
        const std::vector<std::int64_t> v{1, 2};
        ir::Tensor t = ir::Tensor::fromInts(ir::DType::Int32, ir::Shape{2}, v);
        const ops::KernelArg copy = session::deepCopy(ops::KernelArg::tuple({t}));
        t.setInt(0, 9);
        QCOMPARE(copy.elements()[0].tensor().getInt(0), std::int64_t{1});
        QCOMPARE(session::valueBytes(copy), std::size_t{8});
    }
};

QTEST_GUILESS_MAIN(TestDivergence)
#include "test_divergence.moc"
