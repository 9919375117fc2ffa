// inline on small .ir programs: direct calls become copies of the callee (one per call),
// closures over the callee's nodes are copied with it, loops, no_inline graphs and Switch
// branches stay graphs, monad parameters are bound like any other, the copies keep debug
// info, statements keep their order, and a bad call is a CompileError with its line.
#include <QtTest>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/inline.h"
#include "passes/pipeline.h"
#include "runtime/executor.h"

using namespace irscope;
using namespace irscope::ir;

namespace {

bool runInline(Module& m) {
    passes::PassContext ctx;
    return passes::makeInlinePass()->run(m, ctx);
}

std::vector<std::string> graphNames(const Module& m) {
    std::vector<std::string> names;
    for (FuncGraph* g : m.reachableGraphs()) {
        names.push_back(g->name());
    }
    return names;
}

std::size_t countCalls(const Module& m) {
    std::size_t n = 0;
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            n += c->calledGraph() != nullptr ? 1 : 0;
        }
    }
    return n;
}

std::size_t countPrim(const Module& m, std::string_view name) {
    std::size_t n = 0;
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            n += c->isPrimitive(name) ? 1 : 0;
        }
    }
    return n;
}

ir::Tensor f32(std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return ir::Tensor::fromDoubles(DType::Float32, Shape{n}, v);
}

const char* kTwoCalls =
    "# IR entry: @Net_construct\n"
    "# Params:\n"
    "%para1_x : <Tensor[Float32], (2)>\n"
    "subgraph @Net_construct() {\n"
    "  %0 = call @double(%para1_x)\n"
    "      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
    "      # In file net.py:9/        a = double(x)/\n"
    "  %1 = call @double(%0)\n"
    "      : (<Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
    "      # In file net.py:10/        b = double(a)/\n"
    "  Return(%1)\n"
    "}\n"
    "subgraph @double(%para2_a) {\n"
    "  %0(CNode_7$y) = Add(%para2_a, %para2_a)\n"
    "      : (<Tensor[Float32], (2)>, <Tensor[Float32], (2)>) -> (<Tensor[Float32], (2)>)\n"
    "      # Fullname with scope: (Default/Add-op0)\n"
    "      # In file net.py:3/    y = a + a/\n"
    "  Return(%0)\n"
    "}\n";

// A random program over Float32 tensors of shape (3): the entry and helper graphs compute
// with Add/Sub/Mul/Neg, constants, identities (x*1, x+0), MakeTuple/TupleGetItem, direct
// calls of later helpers and Switches on constant conditions between two helpers.
class RandomProgram {
public:
    explicit RandomProgram(unsigned seed) : rng_(seed) {}

    std::string build() {
        const int helpers = 1 + pick(4);
        std::string text = "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (3)>\n";
        text += graph("f", {"%para1_x"}, 0, helpers, true);
        for (int h = 1; h <= helpers; ++h) {
            std::vector<std::string> params;
            if (!arity_.count(h)) {
                arity_[h] = 1 + pick(2);  // no caller fixed it
            }
            for (int i = 0; i < arity_[h]; ++i) {
                params.push_back("%para" + std::to_string(++para_) + "_a");
            }
            text += graph("h" + std::to_string(h), params, h, helpers, false);
        }
        return text;
    }

private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

    std::string constant() {
        return "Tensor(shape=[3], dtype=Float32, value=[" + std::to_string(pick(5) - 2) + ", " +
               std::to_string(pick(5)) + ", " + std::to_string(pick(3) + 1) + "])";
    }

    std::string scalar() {
        return "Tensor(shape=[], dtype=Float32, value=" + std::to_string(pick(3)) + ")";
    }

    // Arguments for helper h (arity known once h was generated: helpers are generated
    // after their callers, so the arity is fixed here and remembered).
    std::string args(int h, const std::vector<std::string>& vals) {
        if (!arity_.count(h)) {
            arity_[h] = 1 + pick(2);
        }
        std::string a;
        for (int i = 0; i < arity_[h]; ++i) {
            a += (i ? ", " : "") +
                 vals[static_cast<std::size_t>(pick(static_cast<int>(vals.size())))];
        }
        return a;
    }

    std::string graph(const std::string& name, const std::vector<std::string>& params, int self,
                      int helpers, bool entry) {
        std::string body =
            entry ? "subgraph @" + name + "() {\n" : "subgraph @" + name + "(" + [&] {
                std::string p;
                for (const auto& x : params) {
                    p += (p.empty() ? "" : ", ") + x;
                }
                return p;
            }() + ") {\n";
        std::vector<std::string> vals = params;
        std::vector<std::string> prints;
        int id = 0;
        auto any = [&] {
            return vals[static_cast<std::size_t>(pick(static_cast<int>(vals.size())))];
        };
        auto add = [&](const std::string& expr) {
            const std::string n = "%" + std::to_string(id++);
            body += "  " + n + " = " + expr + "\n";
            return n;
        };
        const int statements = 2 + pick(6);
        for (int i = 0; i < statements; ++i) {
            const int later = self < helpers ? self + 1 + pick(helpers - self) : 0;
            if (pick(6) == 0) {
                // An isolated statement, kept as the front end does before auto_monad.
                prints.push_back(add("Print(\"" + name + ":" + std::to_string(i) + "\")"));
                continue;
            }
            switch (pick(9)) {
                case 0:
                    vals.push_back(add("Add(" + any() + ", " + any() + ")"));
                    break;
                case 1:
                    vals.push_back(add("Sub(" + any() + ", " + constant() + ")"));
                    break;
                case 2:
                    vals.push_back(add("Mul(" + any() + ", " + any() + ")"));
                    break;
                case 3:
                    vals.push_back(add("Neg(" + any() + ")"));
                    break;
                case 4:
                    vals.push_back(add("Mul(" + any() + ", F32(1))"));
                    break;
                case 5:
                    vals.push_back(add("Add(" + constant() + ", " + constant() + ")"));
                    break;
                case 6: {
                    // One value twice: an element TupleGetItem drops must not hold a print
                    // (before auto_monad nothing else keeps it, as for unused arguments).
                    const std::string v = any();
                    const std::string t = add("MakeTuple(" + v + ", " + v + ")");
                    vals.push_back(
                        add("TupleGetItem(" + t + ", I64(" + std::to_string(pick(2)) + "))"));
                    break;
                }
                case 7:
                    if (later > 0) {
                        vals.push_back(
                            add("call @h" + std::to_string(later) + "(" + args(later, vals) + ")"));
                    }
                    break;
                default:
                    if (later > 0) {
                        const int other = self + 1 + pick(helpers - self);
                        if (arity_.count(later) && arity_.count(other) &&
                            arity_[later] != arity_[other]) {
                            break;
                        }
                        const int n = arity_.count(later)   ? arity_[later]
                                      : arity_.count(other) ? arity_[other]
                                                            : 1 + pick(2);
                        arity_[later] = arity_[other] = n;
                        const std::string c = add("Less(" + scalar() + ", " + scalar() + ")");
                        const std::string sw = add("Switch(" + c + ", @h" + std::to_string(later) +
                                                   ", @h" + std::to_string(other) + ")");
                        vals.push_back(add(sw + "(" + args(later, vals) + ")"));
                    }
                    break;
            }
        }
        std::string out = vals.back();
        if (!entry) {
            // Every argument is used: before auto_monad a call evaluates its arguments even
            // when the callee ignores them, and prints inside an argument it ignores would
            // be lost once inlined (auto_monad's IO chain is what keeps them).
            for (const auto& p : params) {
                out = add("Add(" + out + ", " + p + ")");
            }
        }
        if (!prints.empty()) {
            // Not Depend(call, ...): the evaluator runs a call in that tail position after
            // the isolated statements, whatever their order (before auto_monad), which
            // inlining rightly does not reproduce.
            out = add("Neg(" + out + ")");
            std::string list;
            for (const auto& p : prints) {
                list += (list.empty() ? "" : ", ") + p;
            }
            const std::string keep = add("StopGradient(" + add("MakeTuple(" + list + ")") + ")");
            out = add("Depend(" + out + ", " + keep + ")");
        }
        body += "  Return(" + out + ")\n}\n";
        return body;
    }

    std::mt19937 rng_;
    int para_ = 1;
    std::map<int, int> arity_;
};

}  // namespace

class TestInline : public QObject {
    Q_OBJECT

private slots:
    void eachCallGetsItsOwnCopy() {
        auto m = parseIr(kTwoCalls, "net.ir");
        QVERIFY(runInline(*m));
        QCOMPARE(graphNames(*m), std::vector<std::string>{"Net_construct"});
        QCOMPARE(m->graphs().size(), std::size_t(1));  // @double is erased
        QCOMPARE(countPrim(*m, "Add"), std::size_t(2));
        const std::string text = printIr(*m);
        QVERIFY2(text.find("Add(%para1_x, %para1_x)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("Add(%0, %0)") != std::string::npos, text.c_str());
        // Copies keep the callee's debug info: name, scope, source line, abstract.
        for (CNode* c : m->entry()->topoOrder()) {
            if (c->isPrimitive("Add")) {
                QCOMPARE(QString::fromStdString(c->debug().scope), QString("Default/Add-op0"));
                QCOMPARE(c->debug().trace.back().line, 3);
                QCOMPARE(QString::fromStdString(formatAbstract(*c->abstract())),
                         QString("<Tensor[Float32], (2)>"));
            }
        }
        QVERIFY2(m->verify().empty(), m->verify().c_str());
        // A second run has nothing left to do.
        QVERIFY(!runInline(*m));
    }

    void nestedCallsAreFlattened() {
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n  %0 = call @g(%para1_x)\n  Return(%0)\n}\n"
            "subgraph @g(%para2_a) {\n  %0 = call @h(%para2_a, %para2_a)\n"
            "  %1 = Mul(%0, %para2_a)\n  Return(%1)\n}\n"
            "subgraph @h(%para3_a, %para4_b) {\n  %0 = Sub(%para3_a, %para4_b)\n"
            "  Return(%0)\n}\n");
        QVERIFY(runInline(*m));
        QCOMPARE(countCalls(*m), std::size_t(0));
        QCOMPARE(m->graphs().size(), std::size_t(1));
        QVERIFY(printIr(*m).find("Mul(%0, %para1_x)") != std::string::npos);
        // The result is still computed the same: (x - x) * x = 0.
        const ir::Tensor x = f32({2, 3});
        const auto out = runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{x}, {});
        QCOMPARE(out.tensor().getDouble(1), 0.0);
    }

    void closuresOverTheCalleeAreCopied() {
        // @make returns a closure @inner using make's parameter as a free variable; the
        // entry calls make twice with different arguments and calls each closure.
        const char* text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @make(%para1_x)\n"
            "  %1 = call @make(Tensor(shape=[2], dtype=Float32, value=[10 20]))\n"
            "  %2 = %0(%para1_x)\n"
            "  %3 = %1(%para1_x)\n"
            "  %4 = MakeTuple(%2, %3)\n"
            "  Return(%4)\n}\n"
            "subgraph @make(%para2_k) {\n"
            "  %0 = Mul(%para2_k, F32(2))\n"
            "  %1 = Partial(@inner)\n"
            "  Return(%1)\n}\n"
            "subgraph @inner(%para3_y) {\n"
            "  %0 = Add(%para3_y, $(@make:%0))\n"
            "  Return(%0)\n}\n";
        auto m = parseIr(text, "closure.ir");
        QVERIFY(runInline(*m));
        // Each call got its own copy of @inner, bound to its own copy of make's node;
        // @make and the original @inner are gone.
        std::vector<std::string> names = graphNames(*m);
        std::sort(names.begin(), names.end());
        QCOMPARE(names, (std::vector<std::string>{"f", "inner_1", "inner_2"}));
        QCOMPARE(m->graphs().size(), std::size_t(3));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
        const std::string printed = printIr(*m);
        QVERIFY2(printed.find("$(@f:%") != std::string::npos, printed.c_str());
        const auto out = runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({1, 2})}, {});
        QCOMPARE(out.elements()[0].tensor().getDouble(1), 2.0 + 4.0);   // y + 2x
        QCOMPARE(out.elements()[1].tensor().getDouble(1), 2.0 + 40.0);  // y + 2*20
    }

    void loopsInsideAnInlinedFunctionAreCopiedWithIt() {
        // @g runs a while loop whose body reads g's node %0 as a free variable; each call
        // of g gets its own loop graphs bound to its own copy of %0.
        const char* text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @g(%para1_x, F32(1))\n"
            "  %1 = call @g(%para1_x, F32(10))\n"
            "  %2 = MakeTuple(%0, %1)\n"
            "  Return(%2)\n}\n"
            "subgraph @g(%para2_x, %para3_k) {\n"
            "  %0 = Mul(%para3_k, F32(2))\n"
            "  %1 = call @↵g(%para2_x)\n"
            "  Return(%1)\n}\n"
            "subgraph @↵g(%para4_x) {\n"
            "  %0 = ReduceSum(%para4_x)\n"
            "  %1 = Less(%0, F32(50))\n"
            "  %2 = Partial(@↻g, %para4_x)\n"
            "  %3 = Partial(@↓g, %para4_x)\n"
            "  %4 = Switch(%1, %2, %3)\n"
            "  %5 = %4()\n"
            "  Return(%5)\n}\n"
            "subgraph @↻g(%para5_x) {\n"
            "  %0 = Add(%para5_x, $(@g:%0))\n"
            "  %1 = call @↵g(%0)\n"
            "  Return(%1)\n}\n"
            "subgraph @↓g(%para6_x) {\n  Return(%para6_x)\n}\n";
        auto m = parseIr(text, "closure_loop.ir");
        auto run = [&] {
            const auto out =
                runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({1, 2})}, {});
            return std::vector<double>{out.elements()[0].tensor().getDouble(0),
                                       out.elements()[1].tensor().getDouble(0)};
        };
        const std::vector<double> before = run();
        QCOMPARE(before, (std::vector<double>{25, 41}));  // 12 steps of +2, 2 steps of +20
        QVERIFY(runInline(*m));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
        QCOMPARE(run(), before);
        QCOMPARE(m->findGraph("g"), static_cast<FuncGraph*>(nullptr));
        std::vector<std::string> names = graphNames(*m);
        std::sort(names.begin(), names.end());
        QCOMPARE(names, (std::vector<std::string>{"f", "↓g", "↵g_1", "↵g_2", "↻g_1", "↻g_2"}));
    }

    void loopsNoInlineGraphsAndBranchesStay() {
        const char* text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @CR_Block(%para1_x)\n"
            "  %1 = call @↵f(%0)\n"
            "  Return(%1)\n}\n"
            "subgraph attr:\nno_inline: Bool(1)\n"
            "subgraph @CR_Block(%para2_a) {\n  %0 = Neg(%para2_a)\n  Return(%0)\n}\n"
            "subgraph @↵f(%para3_x) {\n"
            "  %0 = ReduceSum(%para3_x)\n"
            "  %1 = Less(%0, F32(10))\n"
            "  %2 = Partial(@↻f, %para3_x)\n"
            "  %3 = Partial(@↓f, %para3_x)\n"
            "  %4 = Switch(%1, %2, %3)\n"
            "  %5 = %4()\n"
            "  Return(%5)\n}\n"
            "subgraph @↻f(%para4_x) {\n"
            "  %0 = Add(%para4_x, F32(1))\n"
            "  %1 = call @↵f(%0)\n"
            "  Return(%1)\n}\n"
            "subgraph @↓f(%para5_x) {\n  Return(%para5_x)\n}\n";
        auto m = parseIr(text, "loop.ir");
        const std::string before = printIr(*m);
        QVERIFY2(!runInline(*m), printIr(*m).c_str());
        QCOMPARE(printIr(*m), before);
        QCOMPARE(countCalls(*m), std::size_t(3));
    }

    void weightsStayFreeVariablesOfTheCaller() {
        // @branch (a Switch branch, so it stays a graph) calls @scale, which reads the
        // entry's weight: after inlining, @branch reads the weight itself.
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "%para2_w : <Ref[Tensor[Float32]], (2), ref_key=:w>  :  has_default\n"
            "subgraph @f() {\n"
            "  %0 = ReduceSum(%para1_x)\n"
            "  %1 = Less(%0, F32(0))\n"
            "  %2 = Switch(%1, @branch, @other)\n"
            "  %3 = %2(%para1_x)\n"
            "  Return(%3)\n}\n"
            "subgraph @branch(%para3_a) {\n  %0 = call @scale(%para3_a)\n  Return(%0)\n}\n"
            "subgraph @other(%para4_a) {\n  Return(%para4_a)\n}\n"
            "subgraph @scale(%para5_a) {\n  %0 = Mul(%para5_a, %para2_w)\n  Return(%0)\n}\n",
            "weights.ir");
        QVERIFY(runInline(*m));
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "branch", "other"}));
        FuncGraph* branch = m->findGraph("branch");
        const Node* mul = branch->output();
        QVERIFY(nodeCast<CNode>(mul) != nullptr && nodeCast<CNode>(mul)->isPrimitive("Mul"));
        QCOMPARE(nodeCast<CNode>(mul)->input(2), static_cast<Node*>(m->entry()->parameters()[1]));
        ir::Tensor w = f32({3, 4});
        const auto out =
            runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({-1, -2})}, {{"w", w}});
        QCOMPARE(out.tensor().getDouble(1), -8.0);
    }

    void aGraphAlsoUsedAsAValueIsKept() {
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @g(%para1_x)\n"
            "  %1 = Partial(@g, %0)\n"
            "  %2 = %1()\n"
            "  Return(%2)\n}\n"
            "subgraph @g(%para2_a) {\n  %0 = Neg(%para2_a)\n  Return(%0)\n}\n",
            "value.ir");
        QVERIFY(runInline(*m));
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "g"}));
        QCOMPARE(countPrim(*m, "Neg"), std::size_t(2));  // the copy and g's own body
        QVERIFY(printIr(*m).find("Partial(@g, %0)") != std::string::npos);
    }

    void monadParametersAreBound() {
        // After auto_monad: g takes the state and returns Depend(out, new state).
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "%para2_w : <Ref[Tensor[Float32]], (2), ref_key=:w>  :  has_default\n"
            "subgraph @f() {\n"
            "  %0 = call @g(%para1_x, U)\n"
            "  %1 = UpdateState(U, %0)\n"
            "  %2 = Load(%para2_w, %1)\n"
            "  %3 = UpdateState(%1, %2)\n"
            "  %4 = Depend(%2, %3)\n"
            "  Return(%4)\n}\n"
            "subgraph @g(%para3_x, %para4_u) {\n"
            "  %0 = Assign(%para2_w, %para3_x, %para4_u)\n"
            "  %1 = UpdateState(%para4_u, %0)\n"
            "  %2 = Depend(%para3_x, %1)\n"
            "  Return(%2)\n}\n",
            "monad.ir");
        QVERIFY(runInline(*m));
        const std::string text = printIr(*m);
        QVERIFY2(text.find("Assign(%para2_w, %para1_x, U)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("UpdateState(U, %") != std::string::npos, text.c_str());
        ir::Tensor w = f32({0, 0});
        const auto out =
            runtime::Executor(*m, {}).run(std::vector<ops::KernelArg>{f32({5, 6})}, {{"w", w}});
        QCOMPARE(out.tensor().getDouble(0), 5.0);  // the Load reads the assigned value
    }

    void statementsKeepTheirOrder() {
        // Before auto_monad the evaluator orders isolated statements by node id: the
        // callee's print must still come before the caller's later print.
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @g(%para1_x)\n"
            "  %1 = Print(\"second\")\n"
            "  %2 = MakeTuple(%0, %1)\n"
            "  %3 = StopGradient(%2)\n"
            "  %4 = Depend(%para1_x, %3)\n"
            "  Return(%4)\n}\n"
            "subgraph @g(%para2_a) {\n"
            "  %0 = Print(\"first\")\n"
            "  %1 = MakeTuple(%0)\n"
            "  %2 = StopGradient(%1)\n"
            "  %3 = Depend(%para2_a, %2)\n"
            "  Return(%3)\n}\n",
            "order.ir");
        QVERIFY(runInline(*m));
        QCOMPARE(countCalls(*m), std::size_t(0));
        std::vector<std::string> lines;
        runtime::ExecOptions opts;
        opts.print = [&](std::string_view s) { lines.emplace_back(s); };
        runtime::Executor(*m, opts).run(std::vector<ops::KernelArg>{f32({1, 2})}, {});
        QCOMPARE(lines, (std::vector<std::string>{"first", "second"}));
        QVERIFY2(m->verify().empty(), m->verify().c_str());
    }

    void randomProgramsComputeTheSameAfterInlineAndOptA() {
        // inline, then opt_a (constant Switches chosen, identities, folding, cse, dce):
        // no call is left and every program computes exactly what it did and prints the
        // same lines in the same order (isolated prints, ordered by node id before
        // auto_monad).
        int inlined = 0;
        int switches = 0;
        for (unsigned seed = 1; seed <= 500; ++seed) {
            const std::string text = RandomProgram(seed).build();
            switches += text.find("Switch(") != std::string::npos ? 1 : 0;
            auto m = parseIr(text, "random.ir");
            const ir::Tensor x = f32({1.5, -2, 3});
            auto run = [&] {
                runtime::ExecOptions opts;
                std::string printed;
                opts.print = [&](std::string_view line) { printed += std::string(line) + ","; };
                const auto out =
                    runtime::Executor(*m, opts).run(std::vector<ops::KernelArg>{x}, {});
                std::vector<double> v{static_cast<double>(std::hash<std::string>{}(printed))};
                for (std::int64_t i = 0; i < 3; ++i) {
                    v.push_back(out.tensor().getDouble(i));
                }
                return v;
            };
            const std::vector<double> before = run();
            passes::PassContext ctx;
            inlined += runInline(*m) ? 1 : 0;
            passes::makeOptAPass()->run(*m, ctx);
            QVERIFY2(m->verify().empty(), text.c_str());
            QVERIFY2(run() == before,
                     (std::to_string(seed) + "\n" + text + "\n" + printIr(*m)).c_str());
            QCOMPARE(countCalls(*m), std::size_t(0));
        }
        QVERIFY(inlined > 250);
        QVERIFY(switches > 125);
    }

    void wrongArgumentCountIsACompileError() {
        auto m = parseIr(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = call @g(%para1_x, %para1_x)\n"
            "      # In file net.py:12/        y = g(x, x)/\n"
            "  Return(%0)\n}\n"
            "subgraph @g(%para2_a) {\n  Return(%para2_a)\n}\n",
            "arity.ir");
        try {
            runInline(*m);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QCOMPARE(QString::fromStdString(e.pyType()), QString("TypeError"));
            QCOMPARE(QString::fromStdString(e.message()),
                     QString("The function 'g' takes 1 positional arguments but 2 were given."));
            QCOMPARE(e.where().line, 12);
        }
    }

    void growthIsBounded() {
        // A call tree that doubles at each level: flattening it is refused with an error.
        std::string text = "# IR entry: @g0\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n";
        int para = 2;
        text += "subgraph @g0() {\n  %0 = call @g1(%para1_x)\n  Return(%0)\n}\n";
        for (int i = 1; i < 12; ++i) {
            const std::string p = "%para" + std::to_string(para++) + "_a";
            const std::string next = "@g" + std::to_string(i + 1);
            text += "subgraph @g" + std::to_string(i) + "(" + p + ") {\n  %0 = call " + next + "(" +
                    p + ")\n  %1 = call " + next + "(%0)\n  Return(%1)\n}\n";
        }
        text += "subgraph @g12(%para" + std::to_string(para) + "_a) {\n  %0 = Neg(%para" +
                std::to_string(para) + "_a)\n  Return(%0)\n}\n";
        auto m = parseIr(text, "grow.ir");
        try {
            passes::inlineAll(*m, 2000);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QVERIFY2(QString::fromStdString(e.message()).contains("grows beyond 2000 nodes"),
                     e.what());
        }
        auto ok = parseIr(text, "grow.ir");
        QVERIFY(passes::inlineAll(*ok) > 0);
        QCOMPARE(countCalls(*ok), std::size_t(0));
        QCOMPARE(countPrim(*ok, "Neg"), std::size_t(2048));  // 2^11 paths to @g12
    }
};

QTEST_APPLESS_MAIN(TestInline)
#include "test_inline.moc"
