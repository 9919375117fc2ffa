// auto_monad on IR as type_inference leaves it (tests/data/auto_monad/*.ir, taken from
// scripts with the statements in source order): Assign and Print on U and IO chains in the
// user's order, Loads of Parameters at the state of their first reader, monad parameters
// through calls, Partials and Switch branches, the parser's isolated-statement wrapper
// dissolved, a user's Depend kept. Each result is also evaluated: the chains must not
// change what the program prints or writes. Scripts at the end run the whole pipeline.
#include <QtTest>

#include <fstream>
#include <sstream>

#include "compiler/graph_compiler.h"
#include "frontend/interp/interpreter.h"
#include "frontend/modules/modules.h"
#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"
#include "script_fixture.h"

using namespace irscope;
using ops::KernelArg;
using ir::Tensor;
using Weights = std::map<std::string, Tensor, std::less<>>;

namespace {

std::string readData(const std::string& path) {
    std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/" + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::unique_ptr<ir::Module> load(const std::string& path) {
    return ir::parseIr(readData(path), path);
}

bool autoMonad(ir::Module& m) {
    passes::PassContext ctx;
    const bool changed = passes::makeAutoMonadPass()->run(m, ctx);
    const std::string problem = m.verify();
    if (!problem.empty()) {
        throw std::runtime_error("Module::verify after auto_monad: " + problem);
    }
    return changed;
}

// The body of graph `name` as printed, without the type lines: one line per node.
std::string body(const ir::Module& m, const std::string& name) {
    ir::PrintOptions opts;
    opts.debugInfo = false;
    std::istringstream in(ir::printIr(m, opts));
    std::string line;
    std::string out;
    bool inside = false;
    while (std::getline(in, line)) {
        if (!inside) {
            inside = line.rfind("subgraph @" + name + "(", 0) == 0;
            if (inside) {
                out += line + "\n";
            }
            continue;
        }
        if (line.rfind("      :", 0) == 0) {
            continue;
        }
        out += line + "\n";
        if (line == "}") {
            break;
        }
    }
    return out;
}

std::size_t count(const ir::Module& m, std::string_view prim) {
    std::size_t n = 0;
    for (ir::FuncGraph* g : m.reachableGraphs()) {
        for (ir::CNode* c : g->topoOrder()) {
            n += c->isPrimitive(prim) ? 1 : 0;
        }
    }
    return n;
}

Tensor f32(std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return Tensor::fromDoubles(ir::DType::Float32, ir::Shape{n}, v);
}

std::vector<double> values(const Tensor& t) {
    std::vector<double> out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        out.push_back(t.getDouble(i));
    }
    return out;
}

struct Eval {
    std::vector<double> out;
    std::vector<double> weight;
    std::string printed;
};

// Runs the entry on x with a fresh weight `name` = w0.
Eval evaluate(const ir::Module& m, const Tensor& x, const std::string& name, const Tensor& w0) {
    Eval e;
    const Tensor w = w0.clone();
    const Weights weights{{name, w}};
    runtime::ExecOptions opts;
    opts.print = [&](std::string_view s) { e.printed += std::string(s) + "\n"; };
    const KernelArg in[] = {KernelArg(x)};
    const KernelArg out = runtime::Executor(m, opts).run(in, weights);
    e.out = values(out.tensor());
    e.weight = values(w);
    return e;
}

void sameRun(const Eval& a, const Eval& b) {
    QCOMPARE(a.printed, b.printed);
    QCOMPARE(a.out, b.out);
    QCOMPARE(a.weight, b.weight);
}

using script_test::Run;
using script_test::runScript;

const char* const kNet =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import nn, ops, Tensor, Parameter\n"
    "ms.set_context(mode=ms.GRAPH_MODE)\n"
    "class Net(nn.Cell):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.p = Parameter(Tensor(np.array([1.0, 2.0]), ms.float32), name='p')\n";

}  // namespace

class TestAutoMonad : public QObject {
    Q_OBJECT

private slots:
    // print(w); assign(w, 5); out = x * w; print(out); assign_add(w, 2): one U chain
    // through the Loads and the writes, one IO chain through the prints, in that order.
    void assignThenReadAndPrintsInOrder() {
        auto m = load("eval/assign_print.ir");
        const Tensor x =
            Tensor::fromInts(ir::DType::Int32, ir::Shape{}, std::vector<std::int64_t>{3});
        const Tensor w =
            Tensor::fromInts(ir::DType::Int32, ir::Shape{}, std::vector<std::int64_t>{1});
        const Eval before = evaluate(*m, x, "param", w);
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "ForwardNet_construct"),
                 std::string("subgraph @ForwardNet_construct() {\n"
                             "  %0 = Load(%para2_param, U)\n"
                             "  %1 = UpdateState(U, %0)\n"
                             "  %2 = Assign(%para2_param, I64(5), %1)\n"
                             "  %3 = UpdateState(%1, %2)\n"
                             "  %4 = Load(%para2_param, %3)\n"
                             "  %5 = Mul(%para1_x, %4)\n"
                             "  %6 = UpdateState(%3, %4)\n"
                             "  %7 = AssignAdd(%para2_param, Tensor(shape=[], dtype=Int32, "
                             "value=2), %6)\n"
                             "  %8 = UpdateState(%6, %7)\n"
                             "  %9 = Depend(%5, %8)\n"
                             "  %10 = Print(\"before:\", %0, IO)\n"
                             "  %11 = UpdateState(IO, %10)\n"
                             "  %12 = Print(\"after:\", %5, (I64(1), \"s\"), F32(1.5), %11)\n"
                             "  %13 = UpdateState(%11, %12)\n"
                             "  %14 = Depend(%9, %13)\n"
                             "  Return(%14)\n"
                             "}\n"));
        const Eval after = evaluate(*m, x, "param", w);
        sameRun(before, after);
        QCOMPARE(after.weight, std::vector<double>{7});
        QCOMPARE(after.out, std::vector<double>{15});
        // Every new node has an abstract; Loads hold the tensor, not the Ref.
        for (ir::CNode* c : m->entry()->topoOrder()) {
            QVERIFY(c->abstract() != nullptr);
            if (c->isPrimitive("Load")) {
                QCOMPARE(c->abstract()->kind, ir::Abstract::Kind::Tensor);
            }
        }
        // Already threaded: a second run changes nothing.
        QVERIFY(!autoMonad(*m));
    }

    // Assigns in the body of a while loop on a tensor: the header, body and exit graphs take
    // %u, the branch Partials bind it, the body passes the state after its assign to the
    // next iteration as a tail call.
    void whileLoopThreadsTheState() {
        auto m = load("auto_monad/while.ir");
        const Eval before = evaluate(*m, f32({1, 2}), "p", f32({0, 0}));
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "Net_construct"),
                 std::string("subgraph @Net_construct() {\n"
                             "  %0 = call @↵Net_construct(%para1_x, Tensor(shape=[], "
                             "dtype=Int32, value=0), U)\n"
                             "  Return(%0)\n"
                             "}\n"));
        QCOMPARE(body(*m, "↵Net_construct"),
                 std::string("subgraph @↵Net_construct(%para3_x, %para4_i, %para5_u) {\n"
                             "  %0 = Less(%para4_i, Tensor(shape=[], dtype=Int32, value=3))\n"
                             "  %1 = Partial(@↻Net_construct, %para3_x, %para4_i, %para5_u)\n"
                             "  %2 = Partial(@↓Net_construct, %para5_u)\n"
                             "  %3 = Switch(%0, %1, %2)\n"
                             "  %4 = %3()\n"
                             "  Return(%4)\n"
                             "}\n"));
        QCOMPARE(body(*m, "↻Net_construct"),
                 std::string("subgraph @↻Net_construct(%para6_x, %para7_i, %para8_u) {\n"
                             "  %0(CNode_45$i) = Add(%para7_i, Tensor(shape=[], dtype=Int32, "
                             "value=1))\n"
                             "  %1 = AssignAdd($(@Net_construct:%para2_p), %para6_x, %para8_u)\n"
                             "  %2 = UpdateState(%para8_u, %1)\n"
                             "  %3 = call @↵Net_construct(%para6_x, %0, %2)\n"
                             "  Return(%3)\n"
                             "}\n"));
        QCOMPARE(body(*m, "↓Net_construct"),
                 std::string("subgraph @↓Net_construct(%para9_u) {\n"
                             "  %0 = Load($(@Net_construct:%para2_p), %para9_u)\n"
                             "  %1 = Mul(%0, Tensor(shape=[], dtype=Float32, value=1))\n"
                             "  %2 = UpdateState(%para9_u, %0)\n"
                             "  %3 = Depend(%1, %2)\n"
                             "  Return(%3)\n"
                             "}\n"));
        const Eval after = evaluate(*m, f32({1, 2}), "p", f32({0, 0}));
        sameRun(before, after);
        QCOMPARE(after.weight, (std::vector<double>{3, 6}));
    }

    // An assign in one branch and a print in the other: both branches take the same monad
    // parameters (u and io), bound by the Partials from the caller's states, and return
    // them (a state a branch does not use still flows out: inlined, the chain stays whole).
    void ifBranchesTakeTheSameMonads() {
        auto m = load("auto_monad/if.ir");
        const Eval posBefore = evaluate(*m, f32({1, 2}), "p", f32({0, 0}));
        const Eval negBefore = evaluate(*m, f32({-1, -2}), "p", f32({0, 0}));
        QVERIFY(autoMonad(*m));
        const std::string entry = body(*m, "Net_construct");
        QVERIFY2(entry.find("Partial(@✓Net_construct, %para1_x, U, IO)") != std::string::npos,
                 entry.c_str());
        QVERIFY2(entry.find("Partial(@✗Net_construct, %para1_x, U, IO)") != std::string::npos,
                 entry.c_str());
        QCOMPARE(body(*m, "✓Net_construct"),
                 std::string("subgraph @✓Net_construct(%para3_x, %para4_u, %para5_io) {\n"
                             "  %0 = call @↓Net_construct(%para3_x)\n"
                             "  %1 = Assign($(@Net_construct:%para2_p), %para3_x, %para4_u)\n"
                             "  %2 = UpdateState(%para4_u, %1)\n"
                             "  %3 = Depend(%0, %2)\n"
                             "  %4 = Depend(%3, %para5_io)\n"
                             "  Return(%4)\n"
                             "}\n"));
        QCOMPARE(body(*m, "✗Net_construct"),
                 std::string("subgraph @✗Net_construct(%para7_x, %para8_u, %para9_io) {\n"
                             "  %0 = call @↓Net_construct(%para7_x)\n"
                             "  %1 = Depend(%0, %para8_u)\n"
                             "  %2 = Print(\"neg\", %para9_io)\n"
                             "  %3 = UpdateState(%para9_io, %2)\n"
                             "  %4 = Depend(%1, %3)\n"
                             "  Return(%4)\n"
                             "}\n"));
        // The continuation has no effects: no monad parameter.
        QCOMPARE(m->findGraph("↓Net_construct")->parameters().size(), std::size_t(1));
        sameRun(posBefore, evaluate(*m, f32({1, 2}), "p", f32({0, 0})));
        const Eval neg = evaluate(*m, f32({-1, -2}), "p", f32({0, 0}));
        sameRun(negBefore, neg);
        QCOMPARE(neg.printed, std::string("neg\n"));
    }

    // `self.helper(x)` whose result is unused: the call assigns, so it is on the chain and
    // reachable from Return (dead-code elimination keeps it); the callee takes %u.
    void unusedCallThatAssignsSurvives() {
        auto m = load("auto_monad/unused.ir");
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "Net_construct"),
                 std::string("subgraph @Net_construct() {\n"
                             "  %0(CNode_9$y) = Add(%para1_x, Tensor(shape=[], dtype=Float32, "
                             "value=1))\n"
                             "  %1 = call @Net_helper(%para1_x, U)\n"
                             "  %2 = UpdateState(U, %1)\n"
                             "  %3 = Depend(%0, %2)\n"
                             "  Return(%3)\n"
                             "}\n"));
        QCOMPARE(body(*m, "Net_helper"),
                 std::string("subgraph @Net_helper(%para3_v, %para4_u) {\n"
                             "  %0 = Mul(%para3_v, Tensor(shape=[], dtype=Float32, value=2))\n"
                             "  %1 = Assign($(@Net_construct:%para2_p), %para3_v, %para4_u)\n"
                             "  %2 = UpdateState(%para4_u, %1)\n"
                             "  %3 = Depend(%0, %2)\n"
                             "  Return(%3)\n"
                             "}\n"));
        const Eval e = evaluate(*m, f32({1, 2}), "p", f32({0, 0}));
        QCOMPARE(e.weight, (std::vector<double>{1, 2}));
        QCOMPARE(e.out, (std::vector<double>{2, 3}));
    }

    // ops.depend(x * 2, ops.assign(p, x)): the user's Depend stays as written, and the
    // output also waits for the assign's state.
    void userDependIsKept() {
        auto m = load("auto_monad/depend.ir");
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "Net_construct"),
                 std::string("subgraph @Net_construct() {\n"
                             "  %0 = Mul(%para1_x, Tensor(shape=[], dtype=Float32, value=2))\n"
                             "  %1 = Assign(%para2_p, %para1_x, U)\n"
                             "  %2(CNode_24$y) = Depend(%0, %1)\n"
                             "  %3 = UpdateState(U, %1)\n"
                             "  %4 = Depend(%2, %3)\n"
                             "  Return(%4)\n"
                             "}\n"));
        const Eval e = evaluate(*m, f32({1, 2}), "p", f32({0, 0}));
        QCOMPARE(e.weight, (std::vector<double>{1, 2}));
    }

    // A pure isolated statement (`x + x` on a line of its own) is dropped with the wrapper;
    // a graph without effects gets no monads at all.
    void pureIsolatedStatementIsDropped() {
        auto m = ir::parseIr(
            "# IR entry: @f\n# Params:\n%para1_x: <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = Add(%para1_x, %para1_x)\n"
            "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
            "  %1 = MakeTuple(%0)\n"
            "      : (<Tensor[Float32], (2)>) -> (<Tuple[Tensor[Float32]], TupleShape((2))>)\n"
            "  %2 = StopGradient(%1)\n"
            "      : (<Tuple[Tensor[Float32]], TupleShape((2))>) -> (<Tuple[Tensor[Float32]], "
            "TupleShape((2))>)\n"
            "  %3 = Depend(%para1_x, %2)\n"
            "      : (<Tensor[Float32], (2)>, <Tuple[Tensor[Float32]], TupleShape((2))>) -> "
            "(<Tensor[Float32], (2)>)\n"
            "  Return(%3)\n"
            "      : (<Tensor[Float32], (2)>)\n"
            "}\n",
            "pure.ir");
        const std::size_t live = m->liveNodeCount();
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "f"), std::string("subgraph @f() {\n  Return(%para1_x)\n}\n"));
        QVERIFY(m->liveNodeCount() < live);
        QCOMPARE(count(*m, "UpdateState"), std::size_t(0));
    }

    // A grad transform's call and a closure called with arguments take the states as
    // trailing call arguments (the monad parameters come after the ones a call passes).
    void gradTargetAndClosureTakeStatesAsArguments() {
        auto m = ir::parseIr(
            "# IR entry: @f\n# Params:\n%para1_x: <Tensor[Float32], (2)>\n"
            "%para2_p: <Ref[Tensor[Float32]], (2), ref_key=:p> : has_default\n"
            "subgraph @f() {\n"
            "  %0 = GradOperation(@fwd) primitive_attrs: {get_all: Bool(1)}\n"
            "  %1 = %0(%para1_x)\n"
            "  %2 = Partial(@show, %para1_x)\n"
            "  %3 = %2(%para1_x)\n"
            "  %4 = MakeTuple(%1, %3)\n"
            "  Return(%4)\n"
            "}\n"
            "subgraph @fwd(%para3_y) {\n"
            "  %0 = Mul(%para3_y, $(@f:%para2_p))\n"
            "  Return(%0)\n"
            "}\n"
            "subgraph @show(%para4_a, %para5_b) {\n"
            "  %0 = Print(%para4_a, %para5_b)\n"
            "  %1 = MakeTuple(%0)\n"
            "  %2 = StopGradient(%1)\n"
            "  %3 = Depend(%para5_b, %2)\n"
            "  Return(%3)\n"
            "}\n",
            "grad.ir");
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "f"),
                 std::string("subgraph @f() {\n"
                             "  %0 = GradOperation(@fwd) primitive_attrs: {get_all: Bool(1)}\n"
                             "  %1 = %0(%para1_x, U)\n"
                             "  %2 = Partial(@show, %para1_x)\n"
                             "  %3 = %2(%para1_x, IO)\n"
                             "  %4 = MakeTuple(%1, %3)\n"
                             "  %5 = UpdateState(U, %1)\n"
                             "  %6 = Depend(%4, %5)\n"
                             "  %7 = UpdateState(IO, %3)\n"
                             "  %8 = Depend(%6, %7)\n"
                             "  Return(%8)\n"
                             "}\n"));
        QCOMPARE(body(*m, "fwd"), std::string("subgraph @fwd(%para3_y, %para4_u) {\n"
                                              "  %0 = Load($(@f:%para2_p), %para4_u)\n"
                                              "  %1 = Mul(%para3_y, %0)\n"
                                              "  %2 = UpdateState(%para4_u, %0)\n"
                                              "  %3 = Depend(%1, %2)\n"
                                              "  Return(%3)\n"
                                              "}\n"));
        QCOMPARE(m->findGraph("show")->parameters().back()->name(), std::string("io"));
    }

    // A dump that wrote a side effect's monad but no chain: the monad is replaced by the
    // current state, not doubled.
    void writtenMonadIsNotDoubled() {
        auto m = ir::parseIr(
            "# IR entry: @f\n# Params:\n%para1_x: <Tensor[Float32], (2)>\n"
            "%para2_p: <Ref[Tensor[Float32]], (2), ref_key=:p> : has_default\n"
            "subgraph @f() {\n"
            "  %0 = Assign(%para2_p, %para1_x, U)\n"
            "  %1 = Print(\"x\", %para1_x, IO)\n"
            "  %2 = MakeTuple(%0, %1)\n"
            "  %3 = StopGradient(%2)\n"
            "  %4 = Depend(%para1_x, %3)\n"
            "  Return(%4)\n"
            "}\n",
            "dump.ir");
        QVERIFY(autoMonad(*m));
        QCOMPARE(body(*m, "f"), std::string("subgraph @f() {\n"
                                            "  %0 = Assign(%para2_p, %para1_x, U)\n"
                                            "  %1 = UpdateState(U, %0)\n"
                                            "  %2 = Depend(%para1_x, %1)\n"
                                            "  %3 = Print(\"x\", %para1_x, IO)\n"
                                            "  %4 = UpdateState(IO, %3)\n"
                                            "  %5 = Depend(%2, %4)\n"
                                            "  Return(%5)\n"
                                            "}\n"));
    }

    // --- through the whole pipeline ----------------------------------------------------

    // Prints between assigns print the values of their moment; the IR after auto_monad
    // has one UpdateState per write, Load and print.
    void scriptPrintsBetweenAssigns() {
        const Run r = runScript(std::string(kNet) +
                                "    def construct(self, x):\n"
                                "        print('a', self.p)\n"
                                "        ops.assign(self.p, x)\n"
                                "        print('b', self.p)\n"
                                "        ops.assign_add(self.p, x)\n"
                                "        y = self.p * 1\n"
                                "        print('c', y)\n"
                                "        return y\n"
                                "net = Net()\n"
                                "out = net(Tensor(np.array([5.0, 6.0]), ms.float32))\n"
                                "print(out, net.p.asnumpy())\n");
        QVERIFY2(r.result.status == interp::RunResult::Status::Ok, r.out.c_str());
        QCOMPARE(QString::fromStdString(r.out),
                 QString("a\nTensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  "
                         "2.00000000e+00])\n"
                         "b\nTensor(shape=[2], dtype=Float32, value=[ 5.00000000e+00  "
                         "6.00000000e+00])\n"
                         "c\nTensor(shape=[2], dtype=Float32, value=[ 1.00000000e+01  "
                         "1.20000000e+01])\n"
                         "[10. 12.] [10. 12.]\n"));
        const auto* snap = r.session->compiles.at(0).find("auto_monad");
        QVERIFY(snap != nullptr && snap->changed());
        const auto m = snap->module();
        QCOMPARE(count(*m, "Load"), std::size_t(3));
        QCOMPARE(count(*m, "UpdateState"), std::size_t(8));  // 2 writes, 3 Loads, 3 prints
    }

    // Assigns in a tensor-condition while loop and in an if on a tensor, and an unused
    // call of a method that assigns.
    void scriptLoopsIfsAndUnusedCall() {
        const Run r = runScript(std::string(kNet) +
                                "    def reset(self, v):\n"
                                "        ops.assign(self.p, v)\n"
                                "        return v\n"
                                "    def construct(self, x):\n"
                                "        self.reset(x)\n"
                                "        i = Tensor(0, ms.int32)\n"
                                "        while i < 3:\n"
                                "            ops.assign_add(self.p, x)\n"
                                "            print('step', i)\n"
                                "            i = i + 1\n"
                                "        if self.p.sum() > 10:\n"
                                "            ops.assign(self.p, self.p * 2)\n"
                                "        else:\n"
                                "            print('small')\n"
                                "        return self.p + 0\n"
                                "net = Net()\n"
                                "print(net(Tensor(np.array([1.0, 2.0]), ms.float32)))\n"
                                "print(net(Tensor(np.array([0.5, 0.5]), ms.float32)))\n"
                                "print(net.p.asnumpy())\n");
        QVERIFY2(r.result.status == interp::RunResult::Status::Ok, r.out.c_str());
        const std::string steps =
            "step\nTensor(shape=[], dtype=Int32, value=0)\n"
            "step\nTensor(shape=[], dtype=Int32, value=1)\n"
            "step\nTensor(shape=[], dtype=Int32, value=2)\n";
        QCOMPARE(
            QString::fromStdString(r.out),
            QString::fromStdString(steps + "[ 8. 16.]\n" + steps + "small\n[2. 2.]\n[2. 2.]\n"));
    }

    // A while loop whose body prints: the loop graphs take %io, and the exit graph, which
    // prints nothing, still returns it (Depend(x, %io)), so once opt_a unrolls and inlines
    // the loop the prints stay reachable from the output.
    void loopExitCarriesTheState() {
        const Run r = runScript(
            "import numpy as np\n"
            "import mindspore as ms\n"
            "from mindspore import nn, Tensor\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "class Net(nn.Cell):\n"
            "    def construct(self, x):\n"
            "        i = Tensor(0, ms.int32)\n"
            "        while i < 2:\n"
            "            x = x * 2\n"
            "            print('iter', i)\n"
            "            i = i + 1\n"
            "        return x\n"
            "print(Net()(Tensor(np.array([1.0, 2.0], np.float32))))\n");
        QVERIFY2(r.result.status == interp::RunResult::Status::Ok, r.out.c_str());
        QCOMPARE(QString::fromStdString(r.out),
                 QString("iter\nTensor(shape=[], dtype=Int32, value=0)\n"
                         "iter\nTensor(shape=[], dtype=Int32, value=1)\n[4. 8.]\n"));
        const auto m = r.session->compiles.at(0).find("auto_monad")->module();
        const ir::FuncGraph* exit = m->findGraph("↓Net_construct");
        QVERIFY(exit != nullptr);
        const auto* out = ir::nodeCast<ir::CNode>(exit->output());
        QVERIFY(out != nullptr && out->isPrimitive("Depend"));
        QCOMPARE(out->input(2), static_cast<ir::Node*>(exit->parameters().back()));
        QCOMPARE(exit->parameters().back()->name(), std::string("io"));
        // The body's tail call carries the state on: no Depend around it.
        const ir::FuncGraph* body = m->findGraph("↻Net_construct");
        QVERIFY(body->output()->isCNode() &&
                static_cast<const ir::CNode*>(body->output())->calledGraph() != nullptr);
    }
};

QTEST_GUILESS_MAIN(TestAutoMonad)
#include "test_auto_monad.moc"
