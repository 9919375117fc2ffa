// parse: small MindSpore scripts compiled through `parse` (and `symbol_resolve`): graph
// names and counts for if/while/for (nested, with break/continue/return), Switch/Partial
// shapes, entry parameters, constant folding, unrolling and its limit, branch graphs of
// and/or/comprehensions, lambdas and inner functions, and the errors graph mode reports
// (Python type, MindSpore's message, line).
#include <regex>

#include "graph_builder_fixture.h"

using namespace gbtest;

class TestGraphBuilder : public QObject {
    Q_OBJECT

private slots:
    void straightLine() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, y):
        a = ops.sub(x, 1)
        b = ops.add(a, y)
        return b
target = Net()
args = (Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 1);
        QVERIFY(hasGraph(c.parsed, "Net_construct"));
        QVERIFY(c.parsed.find("%para1_x") != std::string::npos);
        QVERIFY(c.parsed.find("%para2_y") != std::string::npos);
        QVERIFY(c.parsed.find("resolve(NameSpace[SymbolStr: 'Namespace:__main__'], \"ops\")") != std::string::npos);
        QVERIFY(c.parsed.find("a = ops.sub(x, 1)") != std::string::npos);  // the source line
        QVERIFY(std::regex_search(c.parsed, std::regex(R"(%\d+\(CNode_\d+\$a\) = )")));  // MindSpore's debug name
        QCOMPARE(compiler::entryInputs(*c.state).size(), std::size_t{2});
        QVERIFY(c.resolved.find("resolve") == std::string::npos);
        QVERIFY(c.resolved.find("Sub(%para1_x, I64(1))") != std::string::npos);
        QVERIFY(c.resolved.find("Add(") != std::string::npos);
        QVERIFY(c.resolved.find("Default") != std::string::npos);
    }

    void ifElseMakesBranchGraphs() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x + 1
        else:
            y = x - 1
        return y * 2
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 4);
        QVERIFY(hasGraph(c.parsed, "✓Net_construct"));
        QVERIFY(hasGraph(c.parsed, "✗Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QCOMPARE(count(c.parsed, "= Switch("), 1);
        QVERIFY(c.parsed.find("Partial(@✓Net_construct, %para1_x)") != std::string::npos);
        QVERIFY(c.parsed.find("bool_(") != std::string::npos);
        QCOMPARE(graphCount(c.resolved), 4);
    }

    void constantConditionsFold() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = False
    def construct(self, x, y=None):
        if self.flag:
            x = x + 1
        if y is None:
            x = x * 2
        else:
            x = x * 3
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 1);
        QCOMPARE(count(c.parsed, "mul("), 1);
        QCOMPARE(count(c.parsed, "add("), 0);
        QVERIFY(c.parsed.find("%para2_y") != std::string::npos);
    }

    void whileLoop() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, n):
        i = 0
        while i < n:
            x = x + 1
            i = i + 1
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)), 3)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(graphCount(c.parsed), 4);
        QVERIFY(hasGraph(c.parsed, "↵Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↻Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QVERIFY(c.parsed.find("call @↵Net_construct(") != std::string::npos);
    }

    void forUnrollsAndBreaks() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(3):
            x = x + i
        for v in (1, 2, 3, 4):
            if v == 3:
                break
            x = x * v
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "add("), 3);
        QCOMPARE(graphCount(c.parsed), 1);  // v == 3 is a constant: break folds
        QCOMPARE(count(c.parsed, "mul("), 2);
    }

    void forBreakOnRuntimeCondition() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(2):
            if x.sum() > 3:
                break
            x = x + 1
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "= Switch("), 2);
        QVERIFY(graphCount(c.parsed) >= 5);
    }

    void unrollLimit() {
        compiler::CompileLimits limits;
        limits.maxUnroll = 5;
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        for i in range(10):
            x = x + i
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"),
                             limits);
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QVERIFY(c.errorMessage.find("more than 5 iterations") != std::string::npos);
        QCOMPARE(c.errorLine, 8);
    }

    void unsupportedSyntax() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QCOMPARE(QString::fromStdString(c.errorMessage), QString("Unsupported statement 'Try'."));
        QCOMPARE(c.errorLine, 8);
    }

    void undefinedName() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        return x + undefined_thing
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("NameError"));
        QCOMPARE(QString::fromStdString(c.errorMessage),
                 QString("The name 'undefined_thing' is not defined, or not supported in graph mode."));
        QCOMPARE(c.errorLine, 8);
    }

    void jitFunctionWithStarArgs() {
        Compiled c = compile(script(R"(
@ms.jit
def target(*inputs):
    out = inputs[0]
    for t in inputs:
        out = out + t
    return out
x = Tensor(np.ones(3, np.float32))
args = (x, x, x)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "target"));
        QVERIFY(c.parsed.find("%para1_inputs0") != std::string::npos);
        QVERIFY(c.parsed.find("%para3_inputs2") != std::string::npos);
        QCOMPARE(count(c.parsed, "add("), 3);
    }

    void lambdasAndNestedFunctions() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        k = 2
        def inner(y):
            return y * k
        f = lambda z: z + 1
        g = lambda a, b=5: a - b
        return inner(y=g(f(x))) if k > 1 else x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "inner"));
        QVERIFY(hasGraph(c.parsed, "lambda"));
        QVERIFY(hasGraph(c.parsed, "lambda_1"));
        QVERIFY(c.parsed.find("call @lambda_1(%") != std::string::npos);
        QVERIFY(c.parsed.find(", I64(5))") != std::string::npos);  // the default, bound at parse
        QVERIFY(c.parsed.find("keywords") == std::string::npos);
    }

    void andOrAndComprehensions() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x, y):
        t = [x * i for i in range(3)]
        ok = x.sum() > 0 and y.sum() > 0
        return t[2], ok
target = Net()
args = (Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "mul("), 3);
        QCOMPARE(count(c.parsed, "= Switch("), 1);
        QVERIFY(c.parsed.find("make_list(") != std::string::npos);
    }

    void whileWithBreakContinueReturn() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        i = 0
        while i < 10:
            i = i + 1
            if x.sum() > 100:
                break
            if x.sum() < -100:
                return x
            if i == 2:
                continue
            x = x + 1
        return x * i
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(hasGraph(c.parsed, "↵Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↻Net_construct"));
        QVERIFY(hasGraph(c.parsed, "↓Net_construct"));
        QCOMPARE(count(c.parsed, "= Switch("), 4);  // the loop and three ifs
        QCOMPARE(count(c.parsed, "call @↵Net_construct("), 3);  // enter, continue, next iteration
    }

    void raiseAndAssert() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 3:
            raise ValueError("x must have 3 rows")
        assert len(x.shape) == 1, "rank 1"
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        Compiled bad = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 4:
            raise ValueError("x must have 4 rows")
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(bad.errorType), QString("ValueError"));
        QCOMPARE(QString::fromStdString(bad.errorMessage), QString("x must have 4 rows"));
        QCOMPARE(bad.errorLine, 9);
    }

    void assigningSelfAttributeIsAnError() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        self.last = x
        return x
target = Net()
args = (Tensor(np.ones(3, np.float32)),)
)"));
        QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
        QVERIFY(c.errorMessage.find("'last'") != std::string::npos);
        QCOMPARE(c.errorLine, 8);
    }

    void unsupportedConstructsNameThemselves() {
        const std::pair<const char*, const char*> cases[] = {
            {"        global g\n", "Unsupported statement 'Global'."},
            {"        del x\n", "Unsupported statement 'Delete'."},
            {"        y = {1, 2}\n", "Unsupported syntax 'Set' in graph mode."},
            {"        a, *b = (1, 2, 3)\n", "Unsupported syntax 'Starred' in an assignment target."},
            {"        class Inner:\n            pass\n", "Unsupported statement 'ClassDef'."},
        };
        for (const auto& [body, message] : cases) {
            Compiled c = compile(script(std::string("class Net(nn.Cell):\n    def construct(self, x):\n") + body +
                                        "        return x\ntarget = Net()\nargs = (Tensor(np.ones(3, np.float32)),)\n"));
            QCOMPARE(QString::fromStdString(c.errorType), QString("RuntimeError"));
            QCOMPARE(QString::fromStdString(c.errorMessage), QString(message));
            QCOMPARE(c.errorLine, 7);
        }
    }

    void forOverInputTensorRowsAndShape() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def construct(self, x):
        out = []
        for row in x:
            out.append(row * 2)
        for i in range(x.shape[1]):
            out.append(x[0][i])
        return out
target = Net()
args = (Tensor(np.ones((2, 3), np.float32)),)
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QCOMPARE(count(c.parsed, "mul("), 2);          // two rows
        QCOMPARE(count(c.parsed, "make_list("), 6);    // 2 + 3 appends, and the empty list
        QCOMPARE(graphCount(c.parsed), 1);
    }

    void ternaryDictFStringAndChainedCompare() {
        Compiled c = compile(script(R"(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = 3
    def construct(self, x, y):
        label = f"n={self.n:02d}"
        d = {"a": x, "b": y}
        z = x if y.sum() > 0 else y
        ok = 0 < y.sum() < 10
        print(label)
        return d["a"] + z, ok
target = Net()
args = (Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32)))
)"));
        QVERIFY2(c.problem.empty() && c.errorType.empty(), (c.problem + c.errorMessage).c_str());
        QVERIFY(c.parsed.find("\"n=03\"") != std::string::npos);
        QVERIFY(c.parsed.find("make_dict(") != std::string::npos);
        QCOMPARE(count(c.parsed, "= Switch("), 2);  // the ternary, and `0 < s` guarding `s < 10`
        QVERIFY(c.resolved.find("Print(\"n=03\")") != std::string::npos);
    }

    // Odd but valid Python: every snippet compiles to IR that verifies and round-trips, or
    // fails with a CompileError; nothing else escapes and nothing crashes.
    void oddSnippetsNeverCrash() {
        const char* bodies[] = {
            "        return\n",
            "        return x[1:2, ..., None]\n",
            "        a = b = x\n        a, b = b, a\n        return a\n",
            "        return [[i * j for j in range(2)] for i in range(2)]\n",
            "        return {k: v for k, v in zip(('a', 'b'), (1, 2))}\n",
            "        return (y := x + 1) * y\n",
            "        return x @ x, -x, ~x, x ** 2, x // 2, x % 2, not not x\n",
            "        return x << 1\n",
            "        return x if None else x * 2\n",
            "        while False:\n            x = x + 1\n        for i in range(0):\n            x = x + 1\n        return x\n",
            "        if x is not None:\n            pass\n        assert True\n        ...\n        return x\n",
            "        f = lambda a, b=1: a + b\n        return f(x)\n",
            "        def g(*a):\n            return a\n        return g(x)\n",
            "        for i in x.sum():\n            pass\n        return x\n",
            "        return undefined.attr\n",
            "        return self.missing\n",
            "        return ops.not_an_op(x)\n",
            "        x[0] += 1\n        x[1] = 2\n        return x\n",
            "        self.thing[0] = 1\n        return x\n",
            "        if x.sum() > 0:\n            return x\n        else:\n            return -x\n",
            "        for i in range(3):\n            if x.sum() > i:\n                continue\n            x = x + i\n        return x\n",
        };
        for (const char* body : bodies) {
            Compiled c = compile(script(std::string("class Net(nn.Cell):\n    def construct(self, x):\n") + body +
                                        "target = Net()\nargs = (Tensor(np.ones(3, np.float32)),)\n"));
            QVERIFY2(c.problem.empty(), (std::string(body) + c.problem).c_str());
            if (!c.errorType.empty()) {
                QVERIFY2(c.errorLine > 0, (std::string(body) + c.errorMessage).c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestGraphBuilder)
#include "test_graph_builder.moc"
