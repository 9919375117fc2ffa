// type_inference on IR as symbol_resolve leaves it (written as .ir text): what the user sees in
// the inferred IR — dtypes after MindSpore's promotion, broadcast shapes, folded Python
// scalars, tuple operations, indexing shapes, one graph per distinct signature, constant
// branches and loops resolved, tensor-condition loops kept with a fixed point, and errors
// with their Python exception type and source line.
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/type_inference.h"

using namespace irscope;
using namespace irscope::ir;
using irscope::passes::CompileError;
using irscope::passes::InferenceLimits;

namespace {

AbstractPtr tensor(DType t, Shape s) {
    return Abstract::tensor(t, std::move(s));
}

std::string readData(const std::string& name) {
    std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/infer/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::unique_ptr<Module> infer(const std::string& text, std::vector<AbstractPtr> inputs,
                              InferenceLimits limits = {}) {
    auto m = parseIr(text, "test.ir");
    passes::PassContext ctx;
    passes::makeTypeInferencePass(std::move(inputs), limits)->run(*m, ctx);
    return m;
}

// A one-graph program `subgraph @f(params) { body }` with the given entry parameters.
std::string program(const std::string& params, const std::string& body) {
    return "# IR entry: @f\n# Params:\n" + params + "\nsubgraph @f() {\n" + body + "}\n";
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

const Node* output(const Module& m) {
    return m.entry()->output();
}

QString absText(const Node* n) {
    return QString::fromStdString(formatAbstract(*n->abstract()));
}

QString valueText(const Node* n) {
    const auto* v = nodeCast<ValueNode>(n);
    return v ? QString::fromStdString(formatValue(*v->value())) : QString("<not a constant>");
}

// The error a compile throws, as "TypeError: message @line".
QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return QString::fromStdString(e.pyType() + ": " + e.message() + " @" +
                                      std::to_string(e.where().line));
    }
    return "no error";
}

std::vector<std::string> graphNames(const Module& m) {
    std::vector<std::string> names;
    for (FuncGraph* g : m.reachableGraphs()) {
        names.push_back(g->name());
    }
    return names;
}

}  // namespace

class TestTypeInference : public QObject {
    Q_OBJECT

private slots:
    void tensorPromotionAndBroadcasting() {
        // int32 tensor + Python float -> Float32 (the constant becomes a Float32 tensor, as
        // MindSpore's implicit conversion shows it); Tensor(2) is Int64 and wins over Int32.
        auto m = infer(program("%para1_x : <Tensor[Int32], (2, 3)>",
                               "  %0 = add(%para1_x, F32(1.5))\n"
                               "  %1 = add(Tensor(shape=[], dtype=Int64, value=2), %para1_x)\n"
                               "  %2 = mul(%0, Tensor(shape=[3], dtype=Float32, value=[1 2 3]))\n"
                               "  %3 = MakeTuple(%0, %1, %2)\n"
                               "  Return(%3)\n"),
                       {tensor(DType::Int32, Shape{2, 3})});
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Float32], Tensor[Int64], Tensor[Float32]], "
                         "TupleShape((2, 3), (2, 3), (2, 3))>"));
        QCOMPARE(countPrim(*m, "Add"), std::size_t(2));
        QCOMPARE(countPrim(*m, "Mul"), std::size_t(1));
        QVERIFY(printIr(*m).find("Add(%para1_x, Tensor(shape=[], dtype=Float32, value=1.5))") !=
                std::string::npos);
        QVERIFY(m->verify().empty());
    }

    void broadcastErrorNamesTheLine() {
        const std::string text =
            program("%para1_x : <Tensor[Float32], (2, 3)>",
                    "  %0 = add(%para1_x, %para1_x)\n"
                    "  %1 = sub(%0, Tensor(shape=[4], dtype=Float32, value=[1 2 3 4]))\n"
                    "      # In file net.py:7/        y = x - w/\n"
                    "  Return(%1)\n");
        QCOMPARE(errorOf([&] {
                     infer(text, {tensor(DType::Float32, Shape{2, 3})});
                 }),
                 QString("ValueError: For 'Sub', x.shape and y.shape need to broadcast, but got "
                         "x.shape: [2, 3], y.shape: [4]. @7"));
    }

    void scalarArithmeticFolds() {
        auto m = infer(program("",
                               "  %0 = add(I64(1), I64(2))\n"
                               "  %1 = floordiv(I64(7), I64(2))\n"
                               "  %2 = floordiv(I64(-7), I64(2))\n"
                               "  %3 = div(I64(7), I64(2))\n"
                               "  %4 = mod(I64(-7), I64(3))\n"
                               "  %5 = less(%0, F32(3.5))\n"
                               "  %6 = pow(I64(2), I64(10))\n"
                               "  %7 = MakeTuple(%0, %1, %2, %3, %4, %5, %6)\n"
                               "  Return(%7)\n"),
                       {});
        QCOMPARE(valueText(output(*m)),
                 QString("(I64(3), I64(3), I64(-4), F32(3.5), I64(2), Bool(1), I64(1024))"));
        QCOMPARE(m->entry()->topoOrder().size(), std::size_t(1));  // only Return is left
        QCOMPARE(errorOf([&] {
                     infer(program("",
                                   "  %0 = floordiv(I64(1), I64(0))\n"
                                   "      # In file z.py:3/    return 1 // 0/\n"
                                   "  Return(%0)\n"),
                           {});
                 }),
                 QString("ZeroDivisionError: integer division or modulo by zero @3"));
    }

    void tupleOperations() {
        auto m = infer(program("%para1_x : <Tensor[Float32], (2)>",
                               "  %0 = MakeTuple(I64(1), I64(2))\n"
                               "  %1 = add(%0, (I64(3)))\n"
                               "  %2 = len(%1)\n"
                               "  %3 = getitem(%1, I64(-1))\n"
                               "  %4 = make_slice(I64(0), I64(2), None)\n"
                               "  %5 = getitem(%1, %4)\n"
                               "  %6 = in_(I64(2), %1)\n"
                               "  %7 = mul(%0, I64(2))\n"
                               "  %8 = MakeTuple(%para1_x, I64(5))\n"
                               "  %9 = getitem(%8, I64(0))\n"
                               "  %10 = MakeTuple(%2, %3, %5, %6, %7, %9)\n"
                               "  Return(%10)\n"),
                       {tensor(DType::Float32, Shape{2})});
        const auto* mk = nodeCast<CNode>(output(*m));
        QVERIFY(mk && mk->isPrimitive("MakeTuple"));
        QCOMPARE(valueText(mk->input(1)), QString("I64(3)"));
        QCOMPARE(valueText(mk->input(2)), QString("I64(3)"));
        QCOMPARE(valueText(mk->input(3)), QString("(I64(1), I64(2))"));
        QCOMPARE(valueText(mk->input(4)), QString("Bool(1)"));
        QCOMPARE(valueText(mk->input(5)), QString("(I64(1), I64(2), I64(1), I64(2))"));
        QCOMPARE(mk->input(6), static_cast<const Node*>(m->entry()->parameters()[0]));
        QCOMPARE(errorOf([&] {
                     infer(program("",
                                   "  %0 = getitem((I64(1), I64(2)), I64(5))\n"
                                   "      # In file t.py:2/    return t[5]/\n"
                                   "  Return(%0)\n"),
                           {});
                 }),
                 QString("IndexError: tuple index out of range @2"));
    }

    void tensorIndexingShapes() {
        auto m = infer(program("%para1_x : <Tensor[Float32], (2, 3, 4)>\n"
                               "%para2_i : <Tensor[Int32], (5)>",
                               "  %0 = getitem(%para1_x, I64(0))\n"
                               "  %1 = make_slice(None, None, None)\n"
                               "  %2 = MakeTuple(%1, I64(1))\n"
                               "  %3 = getitem(%para1_x, %2)\n"
                               "  %4 = make_slice(I64(1), I64(3), None)\n"
                               "  %5 = MakeTuple(None, ..., %4)\n"
                               "  %6 = getitem(%para1_x, %5)\n"
                               "  %7 = getitem(%para1_x, %para2_i)\n"
                               "  %8 = getattr(%para1_x, \"shape\")\n"
                               "  %9 = getattr(%para1_x, \"T\")\n"
                               "  %10 = MakeTuple(%0, %3, %6, %7, %8, %9)\n"
                               "  Return(%10)\n"),
                       {tensor(DType::Float32, Shape{2, 3, 4}), tensor(DType::Int32, Shape{5})});
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Float32], Tensor[Float32], Tensor[Float32], "
                         "Tensor[Float32], Tuple[Int64*3], Tensor[Float32]], TupleShape((3, 4), "
                         "(2, 4), (1, 2, 3, 2), (5, 3, 4), TupleShape(NoShape, NoShape, NoShape), "
                         "(4, 3, 2))>"));
        QCOMPARE(countPrim(*m, "StridedSlice"), std::size_t(3));
        QCOMPARE(countPrim(*m, "Gather"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Transpose"), std::size_t(1));
    }

    void methodsAndAttributes() {
        auto m = infer(program("%para1_x : <Tensor[Int32], (2, 3)>",
                               "  %0 = getattr(%para1_x, \"sum\")\n"
                               "  %1 = %0(I64(1))\n"
                               "  %2 = getattr(%para1_x, \"astype\")\n"
                               "  %3 = %2(Float32)\n"
                               "  %4 = getattr(%para1_x, \"ndim\")\n"
                               "  %5 = MakeTuple(%1, %3, %4)\n"
                               "  Return(%5)\n"),
                       {tensor(DType::Int32, Shape{2, 3})});
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Int32], Tensor[Float32], Int64], TupleShape((2), (2, 3), "
                         "NoShape)>"));
        QCOMPARE(countPrim(*m, "ReduceSum"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Cast"), std::size_t(1));
        QCOMPARE(countPrim(*m, "getattr"), std::size_t(0));
    }

    void oneGraphPerSignature() {
        auto m = infer(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "%para2_y : <Tensor[Int32], (3)>\n"
            "subgraph @f() {\n"
            "  %0 = call @double(%para1_x)\n"
            "  %1 = call @double(%para2_y)\n"
            "  %2 = call @double(%para1_x)\n"
            "  %3 = MakeTuple(%0, %1, %2)\n"
            "  Return(%3)\n}\n"
            "subgraph @double(%para3_a) {\n"
            "  %0 = add(%para3_a, %para3_a)\n"
            "  Return(%0)\n}\n",
            {tensor(DType::Float32, Shape{2}), tensor(DType::Int32, Shape{3})});
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "double", "double_1"}));
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Float32], Tensor[Int32], Tensor[Float32]], "
                         "TupleShape((2), (3), (2))>"));
        QVERIFY(m->verify().empty());
    }

    void functionValuesAsArguments() {
        auto m = infer(readData("higher_order.ir"), {tensor(DType::Float32, Shape{2})});
        QCOMPARE(graphNames(*m),
                 (std::vector<std::string>{"f", "apply", "double", "scale", "apply_1"}));
        const std::string text = printIr(*m);
        // A known graph called through a parameter becomes a direct call; a Partial whose
        // bound argument lives in the caller stays a call of the parameter.
        QVERIFY(text.find("call @double(%para3_v)") != std::string::npos);
        QVERIFY(text.find("%0 = %para7_fn(%para8_v)") != std::string::npos);
        QCOMPARE(absText(output(*m)), QString("<Tuple[Tensor[Float32]*2], TupleShape((2), (2))>"));
        QVERIFY(m->verify().empty());
    }

    void keywordArgumentsOfMethods() {
        // x.sum(axis=1): symbol_resolve leaves the keyword names on the call (cnode attr).
        auto m = parseIr(program("%para1_x : <Tensor[Float32], (2, 3)>",
                                 "  %0 = getattr(%para1_x, \"sum\")\n"
                                 "  %1 = %0(I64(1))\n"
                                 "  Return(%1)\n"),
                         "kw.ir");
        auto* call = nodeCast<CNode>(m->entry()->output());
        call->attrs().set("keywords", Value::tuple({Value::string("axis")}));
        passes::PassContext ctx;
        passes::makeTypeInferencePass({tensor(DType::Float32, Shape{2, 3})})->run(*m, ctx);
        QCOMPARE(absText(output(*m)), QString("<Tensor[Float32], (2)>"));
        call = nodeCast<CNode>(m->entry()->output());
        QVERIFY(call->isPrimitive("ReduceSum"));
        QVERIFY(!call->attrs().get("keywords"));
    }

    void constantSwitchIsFolded() {
        // if 1 < 2: (a Python condition) -> the true branch is called directly, the false
        // branch graph disappears.
        auto m = infer(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = less(I64(1), I64(2))\n"
            "  %1 = bool_(%0)\n"
            "  %2 = Partial(@✓f, %para1_x)\n"
            "  %3 = Partial(@✗f, %para1_x)\n"
            "  %4 = Switch(%1, %2, %3)\n"
            "  %5 = %4()\n"
            "  Return(%5)\n}\n"
            "subgraph @✓f(%para2_x) {\n"
            "  %0 = mul(%para2_x, I64(2))\n"
            "  Return(%0)\n}\n"
            "subgraph @✗f(%para3_x) {\n"
            "  %0 = negative(%para3_x)\n"
            "  Return(%0)\n}\n",
            {tensor(DType::Float32, Shape{2})});
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "✓f"}));
        QCOMPARE(m->findGraph("✗f"), nullptr);
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(0));
        QVERIFY(printIr(*m).find("call @✓f(%para1_x)") != std::string::npos);
    }

    void whileOnConstantsUnrolls() {
        // The seed's ForwardNet: `while i < 3` on Python ints unrolls into 3 iterations, each
        // assigning the loop index (an Int32 tensor constant, as the seed's IR shows).
        auto m = infer(readData("forward_net_while.ir"), {tensor(DType::Int32, Shape{})});
        QCOMPARE(countPrim(*m, "Assign"), std::size_t(3));
        const std::string text = printIr(*m);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(text.find("Assign($(@ForwardNet_construct:%para2_param), Tensor(shape=[], "
                              "dtype=Int32, value=" +
                              std::to_string(i) + "))") != std::string::npos);
        }
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(0));
        QCOMPARE(absText(output(*m)), QString("<Tensor[Int32], ()>"));
        QCOMPARE(QString::fromStdString(formatAbstract(*m->entry()->parameters()[1]->abstract())),
                 QString("<Ref[Tensor[Int32]], (), ref_key=:param>"));
        QVERIFY(m->verify().empty());
    }

    void whileOnTensorKeepsTheLoop() {
        auto m = infer(readData("while_tensor_cond.ir"), {tensor(DType::Float32, Shape{2})});
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"Net_construct", "↵Net_construct",
                                                           "↻Net_construct", "↓Net_construct"}));
        QCOMPARE(countPrim(*m, "Switch"), std::size_t(1));
        QCOMPARE(countPrim(*m, "ScalarAdd"), std::size_t(1));  // i = i + 1 on an unknown int
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Float32], Int64], TupleShape((2), NoShape)>"));
        // Every node is typed, including the recursive call.
        for (FuncGraph* g : m->reachableGraphs()) {
            for (CNode* c : g->topoOrder()) {
                QVERIFY(c->abstract() != nullptr);
            }
        }
    }

    void loopVariableMustKeepItsType() {
        // out = 0; while x.sum() < 10: out = out + x  -- out goes from an int to a tensor
        // across iterations of a loop that cannot be unrolled.
        std::string text = readData("while_tensor_cond.ir");
        text.replace(text.find("%1 = add(%para5_i, I64(1))"), 26, "%1 = add(%para5_i, %para4_x)");
        QCOMPARE(errorOf([&] { infer(text, {tensor(DType::Float32, Shape{2})}); }),
                 QString("TypeError: The loop variable 'i' of '↵Net_construct' changes its type "
                         "from Int64 to Tensor[Float32] between iterations of a loop whose "
                         "condition is a Tensor. @0"));
    }

    void unrollLimitIsAnError() {
        std::string text = readData("forward_net_while.ir");
        text.replace(text.find("I64(3)"), 6, "I64(100000)");
        InferenceLimits limits;
        limits.maxCallDepth = 50;
        const QString err = errorOf([&] { infer(text, {tensor(DType::Int32, Shape{})}, limits); });
        QVERIFY2(err.startsWith("RuntimeError: Exceed function call depth limit 50 while "
                                "inferring '"),
                 qPrintable(err));
        QVERIFY2(err.contains("ForwardNet_construct"), qPrintable(err));
    }

    void branchesMustJoin() {
        const std::string text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "subgraph @f() {\n"
            "  %0 = getattr(%para1_x, \"sum\")\n"
            "  %1 = %0()\n"
            "  %2 = greater(%1, I64(0))\n"
            "  %3 = bool_(%2)\n"
            "  %4 = Switch(%3, @✓f, @✗f)\n"
            "  %5 = %4()\n"
            "      # In file j.py:4/        if x.sum() > 0:/\n"
            "  Return(%5)\n}\n"
            "subgraph @✓f() {\n"
            "  Return(Tensor(shape=[2], dtype=Float32, value=[1 2]))\n}\n"
            "subgraph @✗f() {\n"
            "  Return(I64(0))\n}\n";
        QCOMPARE(errorOf([&] { infer(text, {tensor(DType::Float32, Shape{2})}); }),
                 QString("TypeError: Cannot join the return values of different branches, "
                         "perhaps you need to make them equal.\nType Join Failed: The branches "
                         "of if/else (or while) have different types: Tensor[Float32] and "
                         "Int64. @4"));
    }

    void typeErrorHasItsLine() {
        const std::string text = program("%para1_x : <Tensor[Float32], (2, 3)>",
                                         "  %0 = MatMul(%para1_x, %para1_x)\n"
                                         "      # In file m.py:9/        return ops.matmul(x, x)/\n"
                                         "  Return(%0)\n");
        const QString err = errorOf([&] { infer(text, {tensor(DType::Float32, Shape{2, 3})}); });
        QVERIFY2(err.startsWith("ValueError: For 'MatMul'"), qPrintable(err));
        QVERIFY2(err.endsWith("@9"), qPrintable(err));
        QCOMPARE(errorOf([&] {
                     infer(program("%para1_x : <Tensor[Float32], (2)>",
                                   "  %0 = add(%para1_x, \"a\")\n"
                                   "      # In file s.py:3/    return x + 'a'/\n"
                                   "  Return(%0)\n"),
                           {tensor(DType::Float32, Shape{2})});
                 }),
                 QString("TypeError: For operation 'add', current input arguments types are "
                         "<Tensor[Float32], String>. The 2-th argument type 'String' is not "
                         "supported now. @3"));
    }

    void multitypeDispatch() {
        // add_fn = MultitypeFuncGraph("add_fn") with ("Tensor", "Tensor") then ("Number",
        // "Number") registered: the first matching signature wins, in registration order.
        auto build = [](const std::string& call) {
            auto m = parseIr(
                "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
                "subgraph @f() {\n"
                "  %0 = MultitypeFuncGraph(" +
                    call +
                    ")\n"
                    "      # In file mt.py:11/    return add_fn(a, b)/\n"
                    "  Return(%0)\n}\n"
                    "subgraph @add_tensor(%para2_a, %para3_b) {\n"
                    "  %0 = add(%para2_a, %para3_b)\n  Return(%0)\n}\n"
                    "subgraph @add_number(%para4_a, %para5_b) {\n"
                    "  %0 = mul(%para4_a, %para5_b)\n  Return(%0)\n}\n",
                "mt.ir");
            AttrMap attrs;
            attrs.set("name", Value::string("add_fn"));
            attrs.set(
                "signatures",
                Value::tuple({Value::tuple({Value::string("Tensor"), Value::string("Tensor")}),
                              Value::tuple({Value::string("Number"), Value::string("Number")})}));
            attrs.set("graphs", Value::tuple({Value::graphRef(m->findGraph("add_tensor")),
                                              Value::graphRef(m->findGraph("add_number"))}));
            auto* c = nodeCast<CNode>(m->entry()->output());
            m->setInput(c, 0,
                        m->addValue(m->entry(), Value::primitive("MultitypeFuncGraph", attrs)));
            return m;
        };
        auto run = [](Module& m) {
            passes::PassContext ctx;
            passes::makeTypeInferencePass({tensor(DType::Float32, Shape{2})})->run(m, ctx);
        };
        auto m = build("%para1_x, %para1_x");
        run(*m);
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "add_tensor"}));
        QCOMPARE(absText(output(*m)), QString("<Tensor[Float32], (2)>"));
        m = build("I64(3), I64(4)");
        run(*m);
        // add_number(3, 4) is a side-effect-free call with a constant result: folded away.
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f"}));
        QCOMPARE(valueText(output(*m)), QString("I64(12)"));
        m = build("%para1_x, I64(4)");
        QCOMPARE(errorOf([&] { run(*m); }),
                 QString("TypeError: The 'add_fn' operation does not support the type "
                         "[Tensor[Float32], Int64].\nThe supported types of overload function "
                         "`add_fn` is: [Tensor, Tensor], [Number, Number]. @11"));
    }

    void hyperMapCallsPerElement() {
        auto m = infer(
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (2)>\n"
            "%para2_y : <Tensor[Int32], (3)>\n"
            "subgraph @f() {\n"
            "  %0 = MakeTuple(%para1_x, %para2_y)\n"
            "  %1 = MakeTuple(I64(1), I64(2))\n"
            "  %2 = hyper_map(@scale, %0, %1)\n"
            "  Return(%2)\n}\n"
            "subgraph @scale(%para3_a, %para4_k) {\n"
            "  %0 = mul(%para3_a, %para4_k)\n  Return(%0)\n}\n",
            {tensor(DType::Float32, Shape{2}), tensor(DType::Int32, Shape{3})});
        QCOMPARE(graphNames(*m), (std::vector<std::string>{"f", "scale", "scale_1"}));
        QCOMPARE(absText(output(*m)),
                 QString("<Tuple[Tensor[Float32], Tensor[Int32]], TupleShape((2), (3))>"));
        QCOMPARE(countPrim(*m, "hyper_map"), std::size_t(0));
    }

    void vmapBatchesElementwiseAndUnrollsTheRest() {
        const std::string text =
            "# IR entry: @f\n# Params:\n%para1_x : <Tensor[Float32], (4, 2)>\n"
            "subgraph @f() {\n"
            "  %0 = vmap(@fn, %para1_x) primitive_attrs: {in_axes: I64(0), out_axes: I64(0)}\n"
            "  Return(%0)\n}\n"
            "subgraph @fn(%para2_a) {\n"
            "  %0 = HSwish(%para2_a)\n  Return(%0)\n}\n";
        auto m = infer(text, {tensor(DType::Float32, Shape{4, 2})});
        QCOMPARE(countPrim(*m, "HSwish"), std::size_t(1));  // batched: one call on (4, 2)
        QCOMPARE(countPrim(*m, "Stack"), std::size_t(0));
        QCOMPARE(absText(output(*m)), QString("<Tensor[Float32], (4, 2)>"));
        std::string reduce = text;
        reduce.replace(reduce.find("HSwish(%para2_a)"), 16, "ReduceSum(%para2_a, ())");
        m = infer(reduce, {tensor(DType::Float32, Shape{4, 2})});
        // Unrolled over the batch: four slices, four calls of one specialization of fn.
        QCOMPARE(countPrim(*m, "Gather"), std::size_t(4));
        QCOMPARE(countPrim(*m, "ReduceSum"), std::size_t(1));
        QCOMPARE(countPrim(*m, "Stack"), std::size_t(1));
        QCOMPARE(absText(output(*m)), QString("<Tensor[Float32], (4)>"));
        std::string badAxis = text;
        badAxis.replace(badAxis.find("in_axes: I64(0)"), 15, "in_axes: I64(5)");
        const QString err = errorOf([&] { infer(badAxis, {tensor(DType::Float32, Shape{4, 2})}); });
        QVERIFY2(err.startsWith("ValueError: For 'vmap', the 'in_axes' must be in range"),
                 qPrintable(err));
    }

    void statementsKeepSourceOrder() {
        // `y = x + w; F.assign(w, 1); z = x + w`: the evaluator orders independent statements
        // by node id, so the Add nodes that replace the `add` meta operations must keep
        // their statement's place around the Assign: y reads w before it, z after it.
        auto m = infer(program("%para1_x : <Tensor[Int32], ()>\n"
                               "%para2_w : <Ref[Tensor[Int32]], (), ref_key=:w> : has_default",
                               "  %0 = add(%para1_x, %para2_w)\n"
                               "      # In file o.py:3/        y = x + self.w/\n"
                               "  %1 = Assign(%para2_w, I64(1))\n"
                               "      # In file o.py:4/        F.assign(self.w, 1)/\n"
                               "  %2 = add(%para1_x, %para2_w)\n"
                               "      # In file o.py:5/        z = x + self.w/\n"
                               "  %3 = MakeTuple(%0, %2)\n"
                               "  %4 = MakeTuple(%1)\n"
                               "  %5 = StopGradient(%4)\n"
                               "  %6 = Depend(%3, %5)\n"
                               "  Return(%6)\n"),
                       {tensor(DType::Int32, Shape{})});
        std::map<int, std::uint64_t> idByLine;
        for (CNode* c : m->entry()->topoOrder()) {
            if (!c->debug().trace.empty()) {
                idByLine[c->debug().trace.back().line] = c->id();
            }
        }
        QCOMPARE(idByLine.size(), std::size_t(3));
        QCOMPARE(countPrim(*m, "Add"), std::size_t(2));
        QVERIFY(idByLine[3] < idByLine[4]);
        QVERIFY(idByLine[4] < idByLine[5]);
    }

    void tensorSetItemIsFunctional() {
        auto m = infer(program("%para1_x : <Tensor[Float32], (2, 3)>",
                               "  %0 = setitem(%para1_x, I64(0), F32(5))\n"
                               "  Return(%0)\n"),
                       {tensor(DType::Float32, Shape{2, 3})});
        QCOMPARE(absText(output(*m)), QString("<Tensor[Float32], (2, 3)>"));
        QCOMPARE(countPrim(*m, "setitem"), std::size_t(0));
        QCOMPARE(countPrim(*m, "Gather"), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestTypeInference)
#include "test_type_inference.moc"
