// The graph compiler as a script sees it: GRAPH_MODE Cells and @jit functions compile
// (parse, symbol_resolve, type_inference) and run on the CPU kernels, print what MindSpore
// prints, update Parameters in place, compile once per signature, record every compile in
// the session, and report compile errors as the Python exception MindSpore raises.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "script_fixture.h"

using namespace irscope;

namespace {

using script_test::Run;
using script_test::runScript;

const char* const kHeader =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter\n"
    "from mindspore.ops import functional as F\n";

}  // namespace

class TestGraphCompiler : public QObject {
    Q_OBJECT

private slots:
    void graphModeNetRuns() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x, y):\n"
                                "        a = ops.add(x, y)\n"
                                "        return ops.mul(a, 2)\n"
                                "net = Net()\n"
                                "out = net(Tensor([1.0, 2.0, 3.0]), Tensor([1.0, 1.0, 1.0]))\n"
                                "print(out)\n"
                                "print(type(out).__name__, out.dtype, out.shape)\n");
        EXPECT_OUTPUT(r, "[4. 6. 8.]\nTensor Float32 (3,)\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
        const auto& rec = r.session->compiles[0];
        QCOMPARE(QString::fromStdString(rec.graphName), QString("Net_construct"));
        QVERIFY2(rec.trigger.find("net.py:11") != std::string::npos, rec.trigger.c_str());
        QVERIFY(rec.find("parse") && rec.find("symbol_resolve") && rec.find("type_inference"));
    }

    void outputsComeBackAsPythonValues() {
        const Run r =
            runScript(std::string(kHeader) +
                      "ms.set_context(mode=ms.GRAPH_MODE)\n"
                      "class Net(nn.Cell):\n"
                      "    def construct(self, x, k):\n"
                      "        return x, [x + 1, k], k * 2.5, None, 'a', x.shape\n"
                      "o = Net()(Tensor([1.0]), 2)\n"
                      "print(type(o).__name__, type(o[0]).__name__, type(o[1]).__name__)\n"
                      "print(o[1][0], o[1][1], o[2], o[3], o[4], o[5])\n");
        EXPECT_OUTPUT(r, "tuple Tensor list\n[2.] 2 5.0 None a (1,)\n");
    }

    void ifOnATensorPicksTheBranchAtRunTime() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        if x.sum() > 0:\n"
                                "            y = x * 10\n"
                                "        else:\n"
                                "            y = -x\n"
                                "        return y + 1\n"
                                "net = Net()\n"
                                "print(net(Tensor([1.0, 2.0])))\n"
                                "print(net(Tensor([-1.0, -2.0])))\n");
        EXPECT_OUTPUT(r, "[11. 21.]\n[2. 3.]\n");
        // Same shapes and dtypes: compiled once.
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
    }

    // Loops on tensor conditions nested in each other (the inner loop's exit continues the
    // outer body): type inference reaches the fixed point of both recursions.
    void nestedWhileLoopsOnTensorConditions() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x, n):\n"
                                "        i = Tensor(0, ms.int32)\n"
                                "        while i < n:\n"
                                "            j = Tensor(0, ms.int32)\n"
                                "            while j < i:\n"
                                "                x = x + j\n"
                                "                j = j + 1\n"
                                "            i = i + 1\n"
                                "        return x\n"
                                "print(Net()(Tensor([0.5]), Tensor(4, ms.int32)))\n");
        // i = 1: + 0; i = 2: + 0 + 1; i = 3: + 0 + 1 + 2.
        EXPECT_OUTPUT(r, "[4.5]\n");
    }

    // A loop variable (an integer scalar tensor) inside a tuple index reads (StridedSlice,
    // then Gather on its axis) and writes (a run-time mask and Select) in graph mode.
    void tensorItemsInTupleIndices() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, idx, end, x):\n"
                                "        out = x * 0\n"
                                "        while idx < end:\n"
                                "            part = x[idx, :, 1]\n"
                                "            x[idx, :, 0:1] = part.max()\n"
                                "            out = out + x\n"
                                "            idx = idx + 1\n"
                                "        return out, x[..., end - 1, 0]\n"
                                "x = Tensor(np.arange(8).reshape(2, 2, 2).astype(np.float32))\n"
                                "out, last = Net()(Tensor(0, ms.int32), Tensor(2, ms.int32), x)\n"
                                "print(out.asnumpy().tolist(), last.asnumpy().tolist())\n");
        // idx 0: x[0] = [[3, 1], [3, 3]]; idx 1: x[1] = [[7, 5], [7, 7]]; out sums both.
        EXPECT_OUTPUT(r, "[[[6.0, 2.0], [6.0, 6.0]], [[11.0, 10.0], [13.0, 14.0]]] [3.0, 7.0]\n");
    }

    void whileOnPythonIntsWithAssign() {
        // The seed's ForwardNet without the gradient.
        const Run r = runScript(
            std::string(kHeader) +
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "class ForwardNet(nn.Cell):\n"
            "    def __init__(self):\n"
            "        super(ForwardNet, self).__init__()\n"
            "        self.weight = Parameter(Tensor(np.array(0), ms.int32), name='param')\n"
            "    def construct(self, x):\n"
            "        out = 0\n"
            "        i = 0\n"
            "        while i < 3:\n"
            "            F.assign(self.weight, i)\n"
            "            out = x * self.weight + out\n"
            "            i = i + 1\n"
            "        return out\n"
            "net = ForwardNet()\n"
            "print(net(Tensor(np.array(1), ms.int32)))\n"
            "print(net.weight.asnumpy())\n");
        // The last F.assign wrote 2 into the host's Parameter.
        EXPECT_OUTPUT(r, "3\n2\n");
    }

    void unrolledForKeepsSideEffectsInSourceOrder() {
        // Each iteration's assign must come before that iteration's read, not all the
        // assigns first: x * 1 * 2 * 3.
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def __init__(self):\n"
                                "        super().__init__()\n"
                                "        self.w = Parameter(Tensor(0, ms.int32), name='w')\n"
                                "    def construct(self, x):\n"
                                "        out = x\n"
                                "        for i in range(3):\n"
                                "            F.assign(self.w, i + 1)\n"
                                "            out = out * self.w\n"
                                "        return out\n"
                                "print(Net()(Tensor(5, ms.int32)))\n");
        EXPECT_OUTPUT(r, "30\n");
    }

    void cachedGraphSeesParameterSetData() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def __init__(self):\n"
                                "        super().__init__()\n"
                                "        self.w = Parameter(Tensor([2.0]), name='w')\n"
                                "    def construct(self, x):\n"
                                "        return x * self.w\n"
                                "net = Net()\n"
                                "print(net(Tensor([1.0])))\n"
                                "net.w.set_data(Tensor([5.0]))\n"
                                "print(net(Tensor([1.0])))\n");
        EXPECT_OUTPUT(r, "[2.]\n[5.]\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
    }

    void jitForLoopCompilesOncePerSignature() {
        const Run r = runScript(std::string(kHeader) +
                                "@ms.jit\n"
                                "def func(input_x, input_y):\n"
                                "    output = input_x\n"
                                "    for _ in range(200):\n"
                                "        output = input_x + input_x * input_y + output\n"
                                "    return output\n"
                                "x = ms.Tensor([1], ms.float32)\n"
                                "y = ms.Tensor([2], ms.float32)\n"
                                "print(func(x, y))\n"
                                "print(func(y, x))\n");
        EXPECT_OUTPUT(r, "[601.]\n[802.]\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
        QCOMPARE(r.cachedGraphs, std::size_t(1));
    }

    void everyNewCellCompilesAgain() {
        // Each Net is a new object (its attribute is a compile-time constant): no call may
        // reuse another instance's graph, even where the allocator reuses an address.
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def __init__(self, k):\n"
                                "        super().__init__()\n"
                                "        self.k = k\n"
                                "    def construct(self, x):\n"
                                "        return x * self.k\n"
                                "for k in range(1, 4):\n"
                                "    print(Net(k)(Tensor([1.0])))\n");
        EXPECT_OUTPUT(r, "[1.]\n[2.]\n[3.]\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(3));
        // The same with a @jit construct: `self` is an argument of the compiled function.
        const Run j = runScript(std::string(kHeader) +
                                "class Net(nn.Cell):\n"
                                "    def __init__(self, k):\n"
                                "        super().__init__()\n"
                                "        self.k = k\n"
                                "    @ms.jit\n"
                                "    def construct(self, x):\n"
                                "        return x * self.k\n"
                                "for k in range(1, 4):\n"
                                "    print(Net(k)(Tensor([1.0])))\n");
        EXPECT_OUTPUT(j, "[1.]\n[2.]\n[3.]\n");
        QCOMPARE(j.session->compiles.size(), std::size_t(3));
    }

    void scalarArgumentsAreSpecialized() {
        const Run r = runScript(std::string(kHeader) +
                                "@ms.jit\n"
                                "def scale(x, k):\n"
                                "    return x * k\n"
                                "x = Tensor([1.0, 2.0])\n"
                                "print(scale(x, 2))\n"
                                "print(scale(x, 2))\n"
                                "print(scale(x, 3))\n"
                                "print(scale(Tensor([1.0, 2.0, 3.0]), 3))\n");
        EXPECT_OUTPUT(r, "[2. 4.]\n[2. 4.]\n[3. 6.]\n[3. 6. 9.]\n");
        // (Tensor(2), 2), (Tensor(2), 3), (Tensor(3), 3).
        QCOMPARE(r.session->compiles.size(), std::size_t(3));
    }

    void printInConstructAndCellCompile() {
        // Seed 003: model.compile(x) compiles; the call reuses that graph and prints.
        const Run r =
            runScript(std::string(kHeader) +
                      "ms.set_context(mode=ms.GRAPH_MODE)\n"
                      "class Network(nn.Cell):\n"
                      "    def __init__(self):\n"
                      "        super().__init__()\n"
                      "        self.w = Parameter(Tensor(np.ones((5, 3)), ms.float32), name='w')\n"
                      "        self.b = Parameter(Tensor(np.ones((3,)), ms.float32), name='b')\n"
                      "    def construct(self, x):\n"
                      "        out = ops.matmul(x, self.w)\n"
                      "        print('matmul: ', out)\n"
                      "        out = out + self.b\n"
                      "        print('add bias: ', out)\n"
                      "        return out\n"
                      "model = Network()\n"
                      "x = ops.ones(5, ms.float32)\n"
                      "model.compile(x)\n"
                      "print('compiled')\n"
                      "out = model(x)\n"
                      "print('out: ', out)\n");
        EXPECT_OUTPUT(r,
                      "compiled\n"
                      "matmul: \n"
                      "Tensor(shape=[3], dtype=Float32, value=[ 5.00000000e+00  5.00000000e+00  "
                      "5.00000000e+00])\n"
                      "add bias: \n"
                      "Tensor(shape=[3], dtype=Float32, value=[ 6.00000000e+00  6.00000000e+00  "
                      "6.00000000e+00])\n"
                      "out:  [6. 6. 6.]\n");
        QCOMPARE(r.session->compiles.size(), std::size_t(1));
    }

    void compileErrorIsAPythonException() {
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE)\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return ops.add(x, 'text')\n"
                                "net = Net()\n"
                                "try:\n"
                                "    net(Tensor([1.0]))\n"
                                "except TypeError as e:\n"
                                "    print('caught TypeError')\n"
                                "net(Tensor([1.0]))\n");
        QCOMPARE(r.result.status, interp::RunResult::Status::Exception);
        const QString out = QString::fromStdString(r.out);
        QVERIFY2(out.startsWith("caught TypeError\nTraceback (most recent call last):\n"),
                 r.out.c_str());
        // The host line, then the construct line, then MindSpore's message and block.
        QVERIFY2(out.contains("File \"net.py\", line 14, in <module>"), r.out.c_str());
        QVERIFY2(
            out.contains("File \"net.py\", line 8, in construct\n    return ops.add(x, 'text')"),
            r.out.c_str());
        QVERIFY2(out.contains("\nTypeError: "), r.out.c_str());
        QVERIFY2(out.contains("- The Traceback of Net Construct Code:"), r.out.c_str());
        QCOMPARE(r.session->compiles.size(), std::size_t(2));  // not cached
        QCOMPARE(r.session->compiles[0].status, passes::PipelineStatus::Error);
    }

    void saveGraphsWritesParsableFiles() {
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() / "irscope_test_graph_compiler_dumps";
        std::filesystem::remove_all(dir);
        const Run r = runScript(std::string(kHeader) +
                                "ms.set_context(mode=ms.GRAPH_MODE, save_graphs=True, "
                                "save_graphs_path='" +
                                dir.string() +
                                "')\n"
                                "class Net(nn.Cell):\n"
                                "    def construct(self, x):\n"
                                "        return x + 1\n"
                                "print(Net()(Tensor([1.0])))\n");
        EXPECT_OUTPUT(r, "[2.]\n");
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            names.push_back(e.path().filename().string());
            std::ifstream in(e.path());
            std::stringstream buf;
            buf << in.rdbuf();
            QVERIFY(ir::parseIr(buf.str(), names.back()) != nullptr);
        }
        std::sort(names.begin(), names.end());
        QCOMPARE(names.front(), std::string("00_parse_0000.ir"));
        QVERIFY(std::find(names.begin(), names.end(), "03_type_inference_0003.ir") != names.end());
        QVERIFY(std::find(names.begin(), names.end(), "10_task_emit_0010.ir") != names.end());
        std::filesystem::remove_all(dir);
    }

    void settingsComeFromTheEnvironmentAndContextWins() {
        qputenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM", "2");
        qputenv("MS_DEV_SAVE_GRAPHS", "1");
        compiler::CompilerOptions options;
        const std::string script = std::string(kHeader) +
                                   "ms.set_context(mode=ms.GRAPH_MODE, save_graphs=False)\n"
                                   "class Net(nn.Cell):\n"
                                   "    def construct(self, x):\n"
                                   "        return x * 2\n"
                                   "print(Net()(Tensor([1.0])))\n";
        Run r;
        {
            interp::Interpreter I;
            I.setOutputSink([&](std::string_view s) { r.out += s; });
            modules::registerBuiltinModules(I);
            auto compiler = compiler::GraphCompilerImpl::install(I, options);  // reads the env
            r.result = I.runScript(script, "net.py");
            r.session = compiler->sharedSession();
        }
        qunsetenv("MS_DEV_SIDE_EFFECT_LOAD_ELIM");
        qunsetenv("MS_DEV_SAVE_GRAPHS");
        EXPECT_OUTPUT(r, "[2.]\n");
        const passes::Settings& s = r.session->compiles.at(0).settings;
        QCOMPARE(s.getInt(passes::kSideEffectLoadElim), std::int64_t(2));
        QCOMPARE(s.getInt(passes::kSaveGraphs, -1), std::int64_t(0));  // set_context wins
    }

    void endlessGraphLoopStopsAtTheStepBudget() {
        const Run r = runScript(std::string(kHeader) +
                                    "@ms.jit\n"
                                    "def f(x):\n"
                                    "    i = 0\n"
                                    "    while x.sum() > 0:\n"
                                    "        x = x + 1\n"
                                    "    return x\n"
                                    "f(Tensor([1.0]))\n",
                                {}, 100000);
        // An endless loop stops at the step budget with an error instead of hanging.
        QCOMPARE(r.result.status, interp::RunResult::Status::Exception);
        QVERIFY2(QString::fromStdString(r.out).contains(
                     "RuntimeError: The graph evaluation exceeded 100000 steps"),
                 r.out.c_str());
        // The loop's line is the innermost traceback entry, as for a compile error.
        QVERIFY2(QString::fromStdString(r.out).contains(
                     "File \"net.py\", line 8, in f\n    while x.sum() > 0:\n"),
                 r.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGraphCompiler)
#include "test_graph_compiler.moc"
