// inline, opt_a and validate on random input. Random modules (tests/random_module.h) must
// never crash them or leave an inconsistent module. Random programs in the post-auto_monad
// form (the contract's input):
// every graph threads the U state through Assign, Load (followed by TensorMove, as at
// MS_DEV_SIDE_EFFECT_LOAD_ELIM=0, so no value aliases the weight), calls of helpers and
// Switches on constant conditions, and the IO state through Print; it returns
// Depend(Depend(out, u), io). After the passes no call is left, and each program computes
// the same output, leaves the same weight and prints the same lines in the same order.
#include <QtTest>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/opt_a.h"
#include "passes/pipeline.h"
#include "random_module.h"
#include "runtime/executor.h"

using namespace irscope;
using namespace irscope::ir;

namespace {

class MonadProgram {
public:
    explicit MonadProgram(unsigned seed) : rng_(seed) {}

    std::string build() {
        helpers_ = 1 + pick(3);
        std::string text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (3)>\n"
            "%para2_w : <Ref[Tensor[Float32]], (3), ref_key=:w>  :  has_default\n";
        text += graph(0, {"%para1_x"}, "U", "IO");
        for (int h = 1; h <= helpers_; ++h) {
            std::vector<std::string> params;
            for (int i = 0; i < arity(h); ++i) {
                params.push_back("%para" + std::to_string(++para_) + "_a");
            }
            const std::string u = "%para" + std::to_string(++para_) + "_u";
            const std::string io = "%para" + std::to_string(++para_) + "_io";
            text += graph(h, params, u, io);
        }
        return text;
    }

private:
    int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

    int arity(int h) {
        if (!arity_.count(h)) {
            arity_[h] = 1 + pick(2);
        }
        return arity_[h];
    }

    static std::string name(int g) { return g == 0 ? "f" : "h" + std::to_string(g); }

    std::string graph(int self, const std::vector<std::string>& params, std::string u,
                      std::string io) {
        std::string head = "subgraph @" + name(self) + "(";
        if (self != 0) {
            for (const auto& p : params) {
                head += p + ", ";
            }
            head += u + ", " + io;
        }
        std::string body = head + ") {\n";
        std::vector<std::string> vals = params;
        int id = 0;
        auto add = [&](const std::string& expr) {
            const std::string n = "%" + std::to_string(id++);
            body += "  " + n + " = " + expr + "\n";
            return n;
        };
        auto any = [&] {
            return vals[static_cast<std::size_t>(pick(static_cast<int>(vals.size())))];
        };
        auto args = [&](int h) {
            std::string a;
            for (int i = 0; i < arity(h); ++i) {
                a += any() + ", ";
            }
            return a + u + ", " + io;
        };
        const int statements = 2 + pick(7);
        for (int i = 0; i < statements; ++i) {
            const int later = self < helpers_ ? self + 1 + pick(helpers_ - self) : 0;
            switch (pick(9)) {
                case 8: {
                    const std::string p = add("Print(\"" + name(self) + ":" + std::to_string(i) +
                                              "\", " + any() + ", " + io + ")");
                    io = add("UpdateState(" + io + ", " + p + ")");
                    break;
                }
                case 0:
                    vals.push_back(add("Add(" + any() + ", " + any() + ")"));
                    break;
                case 1:
                    vals.push_back(add("Mul(" + any() + ", " + any() + ")"));
                    break;
                case 2:
                    vals.push_back(add("Neg(" + any() + ")"));
                    break;
                case 3: {
                    const std::string s = add("Assign(%para2_w, " + any() + ", " + u + ")");
                    u = add("UpdateState(" + u + ", " + s + ")");
                    break;
                }
                case 4:
                case 5: {
                    const std::string l = add("Load(%para2_w, " + u + ")");
                    const std::string t = add("TensorMove(" + l + ")");
                    u = add("UpdateState(" + u + ", " + t + ")");
                    vals.push_back(t);
                    break;
                }
                case 6:
                    if (later > 0) {
                        const std::string r = add("call @" + name(later) + "(" + args(later) + ")");
                        u = add("UpdateState(" + u + ", " + r + ")");
                        io = add("UpdateState(" + io + ", " + r + ")");
                        vals.push_back(r);
                    }
                    break;
                default:
                    if (later > 0) {
                        const int other = self + 1 + pick(helpers_ - self);
                        if (arity(other) != arity(later)) {
                            break;
                        }
                        const std::string c =
                            add("Less(Tensor(shape=[], dtype=Float32, value=" +
                                std::to_string(pick(3)) + "), Tensor(shape=[], dtype=Float32, " +
                                "value=" + std::to_string(pick(3)) + "))");
                        const std::string sw =
                            add("Switch(" + c + ", @" + name(later) + ", @" + name(other) + ")");
                        const std::string r = add(sw + "(" + args(later) + ")");
                        u = add("UpdateState(" + u + ", " + r + ")");
                        io = add("UpdateState(" + io + ", " + r + ")");
                        vals.push_back(r);
                    }
                    break;
            }
        }
        std::string out = vals.back();
        for (std::size_t i = 1; self != 0 && i < params.size(); ++i) {
            out = add("Add(" + out + ", " + params[i] + ")");
        }
        out = add("Depend(" + add("Depend(" + out + ", " + u + ")") + ", " + io + ")");
        return body + "  Return(" + out + ")\n}\n";
    }

    std::mt19937 rng_;
    int helpers_ = 0;
    int para_ = 2;
    std::map<int, int> arity_;
};

ir::Tensor f32(std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return ir::Tensor::fromDoubles(DType::Float32, Shape{n}, v);
}

std::vector<double> values(const ir::Tensor& t) {
    std::vector<double> out;
    for (std::int64_t i = 0; i < t.shape().elementCount(); ++i) {
        out.push_back(t.getDouble(i));
    }
    return out;
}

std::size_t count(const Module& m, bool (*pred)(const CNode*)) {
    std::size_t n = 0;
    for (FuncGraph* g : m.reachableGraphs()) {
        for (CNode* c : g->topoOrder()) {
            n += pred(c) ? 1 : 0;
        }
    }
    return n;
}

}  // namespace

class TestOptRandom : public QObject {
    Q_OBJECT

private slots:
    void randomModulesStayConsistent() {
        // Random modules (calls, Switch/Partial of graphs, free variables, node callees,
        // arbitrary values): inline, opt_a and validate either succeed or report a
        // CompileError, never crash, and always leave a consistent module.
        int optimized = 0;
        int validated = 0;
        for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
            auto m = testing::RandomModuleBuilder(seed).build();
            passes::PassContext ctx;
            try {
                passes::makeInlinePass()->run(*m, ctx);
                passes::makeOptAPass()->run(*m, ctx);
                ++optimized;
            } catch (const passes::CompileError&) {
                // a call with the wrong number of arguments, a constant loop...
            }
            std::string problem = m->verify();
            QVERIFY2(problem.empty(), (std::to_string(seed) + ": " + problem).c_str());
            try {
                passes::makeValidatePass()->run(*m, ctx);
                ++validated;
            } catch (const passes::CompileError&) {
                // random primitive names are not in the registry, abstracts are random
            }
        }
        QVERIFY2(optimized > 900, std::to_string(optimized).c_str());
        QVERIFY(validated < optimized);
    }

    void monadProgramsComputeTheSame() {
        std::size_t before = 0;
        std::size_t after = 0;
        for (unsigned seed = 1; seed <= 300; ++seed) {
            const std::string text = MonadProgram(seed).build();
            auto m = parseIr(text, "monad.ir");
            auto run = [&] {
                ir::Tensor w = f32({0.5, 1, -1});
                runtime::ExecOptions opts;
                std::string printed;
                opts.print = [&](std::string_view line) { printed += std::string(line) + "\n"; };
                const auto out = runtime::Executor(*m, opts).run(std::vector<ops::KernelArg>{f32({2, -1, 0.25})}, {{"w", w}});
                std::vector<double> v = values(out.tensor());
                v.push_back(static_cast<double>(std::hash<std::string>{}(printed)));
                const std::vector<double> wv = values(w);
                v.insert(v.end(), wv.begin(), wv.end());
                return v;
            };
            const std::vector<double> expected = run();
            before += m->counts().nodes;
            passes::PassContext ctx;
            passes::makeInlinePass()->run(*m, ctx);
            passes::makeOptAPass()->run(*m, ctx);
            after += m->counts().nodes;
            const std::string printed = printIr(*m);
            QVERIFY2(m->verify().empty(), printed.c_str());
            QVERIFY2(run() == expected,
                     (std::to_string(seed) + "\n" + text + "\n" + printed).c_str());
            QCOMPARE(count(*m, [](const CNode* c) { return c->primitive() == nullptr; }),
                     std::size_t(0));
            QVERIFY(count(*m, [](const CNode* c) { return c->isPrimitive("Switch"); }) == 0);
        }
        QVERIFY2(after < before, (std::to_string(before) + " -> " + std::to_string(after)).c_str());
    }
};

QTEST_APPLESS_MAIN(TestOptRandom)
#include "test_opt_random.moc"
