// validate on small .ir programs: a well-formed program passes untouched; each kind of bad
// IR (an untyped node, a meta operation, an unexpanded gradient, unbound keywords, a side
// effect off the monad chain, a malformed UpdateState/Load) is a CompileError naming the
// problem and the node's source line.
#include <QtTest>

#include <string>

#include "ir/ir_text.h"
#include "ir/module.h"
#include "passes/compile_error.h"
#include "passes/pipeline.h"

using namespace irscope;
using namespace irscope::ir;

namespace {

const char* kT = "<Tensor[Float32], (2)>";
const char* kU = "<UMonad, NoShape>";

// `%N = expr` typed as `type`, at line `line` of net.py.
std::string node(const std::string& lhs, const std::string& expr, const std::string& type,
                 int line = 0) {
    std::string s = "  " + lhs + " = " + expr + "\n      : () -> (" + type + ")\n";
    if (line > 0) {
        s += "      # In file net.py:" + std::to_string(line) + "/        stmt/\n";
    }
    return s;
}

std::string program(const std::string& body) {
    return std::string("# IR entry: @f\n# Params:\n%para1_x : ") + kT +
           "\n%para2_w : <Ref[Tensor[Float32]], (2), ref_key=:w>  :  has_default\n"
           "subgraph @f() {\n" +
           body + "}\n";
}

// The post-auto_monad shape: assign, then load at the new state, then return the load.
std::string goodBody(const std::string& assign = "Assign(%para2_w, %para1_x, U)") {
    return node("%0", assign, kT, 5) + node("%1", "UpdateState(U, %0)", kU, 5) +
           node("%2", "Load(%para2_w, %1)", kT, 6) + node("%3", "UpdateState(%1, %2)", kU, 6) +
           node("%4", "Mul(%2, %para1_x)", kT, 6) + node("%5", "Depend(%4, %3)", kT, 7) +
           "  Return(%5)\n      : (" + kT + ")\n";
}

// The error validate throws, as "message @line", or "ok".
QString validate(const std::string& text) {
    auto m = parseIr(text, "net.ir");
    const std::string before = printIr(*m);
    passes::PassContext ctx;
    try {
        if (passes::makeValidatePass()->run(*m, ctx)) {
            return "claims a change";
        }
    } catch (const passes::CompileError& e) {
        if (printIr(*m) != before) {
            return "changed the IR";
        }
        return QString::fromStdString(e.pyType() + ": " + e.message() + " @" +
                                      std::to_string(e.where().line));
    }
    return printIr(*m) == before ? "ok" : "changed the IR";
}

}  // namespace

class TestValidate : public QObject {
    Q_OBJECT

private slots:
    void wellFormedProgramPasses() { QCOMPARE(validate(program(goodBody())), QString("ok")); }

    void beforeAutoMonadSideEffectsNeedNoMonad() {
        // No state anywhere: the front end's isolated-statement Depend keeps the assign.
        const std::string body =
            node("%0", "Assign(%para2_w, %para1_x)", kT, 5) + node("%1", "MakeTuple(%0)", kT) +
            node("%2", "StopGradient(%1)", kT) + node("%3", "Depend(%para1_x, %2)", kT) +
            "  Return(%3)\n      : (" + kT + ")\n";
        QCOMPARE(validate(program(body)), QString("ok"));
    }

    void untypedNodeIsAnError() {
        std::string body = goodBody();
        body.replace(body.find("      : () -> (<Tensor[Float32], (2)>)\n      # In file net.py:6/"),
                     std::string("      : () -> (<Tensor[Float32], (2)>)\n").size(), "");
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: the node has no type in @f. @6"));
    }

    void metaOperationLeftIsAnError() {
        const std::string body = node("%0", "add(%para1_x, %para1_x)", kT, 3) + "  Return(%0)\n" +
                                 "      : (" + kT + ")\n";
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: the operation 'add' is not a primitive the "
                         "backend can run (a meta operation left after type_inference) in @f. @3"));
    }

    void gradientLeftIsAnError() {
        const std::string body = node("%0", "GradOperation(@g)", "<Func, NoShape>", 4) +
                                 node("%1", "%0(%para1_x)", kT, 4) + "  Return(%1)\n      : (" +
                                 kT + ")\n";
        const std::string more =
            "subgraph @g(%para3_x) {\n  Return(%para3_x)\n      : (" + std::string(kT) + ")\n}\n";
        QCOMPARE(validate(program(body) + more),
                 QString("RuntimeError: validate: the gradient operation 'GradOperation' was "
                         "not expanded in @f. @4"));
    }

    void unboundKeywordsAreAnError() {
        const std::string body =
            "  %0 = ReduceSum(%para1_x) cnode_attrs: {keywords: (\"axis\")}\n"
            "      : () -> (<Tensor[Float32], ()>)\n"
            "      # In file net.py:8/        y = x.sum(axis=0)/\n"
            "  Return(%0)\n      : (<Tensor[Float32], ()>)\n";
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: keyword arguments were not bound in @f. @8"));
    }

    void sideEffectOffTheChainIsAnError() {
        QCOMPARE(validate(program(goodBody("Assign(%para2_w, %para1_x)"))),
                 QString("RuntimeError: validate: 'Assign' writes memory but has no U monad "
                         "input in @f. @5"));
        const std::string print = node("%6", "Print(\"x\", %para1_x)", kT, 9);
        std::string body = goodBody();
        body.insert(body.find("  Return"), print);
        QCOMPARE(validate(program(body)),
                 QString("ok"));  // unreachable from Return: not part of the program
        body = goodBody();
        body.insert(body.find("  Return"), print + node("%7", "Depend(%5, %6)", kT));
        body.replace(body.find("Return(%5)"), 10, "Return(%7)");
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: 'Print' does IO but has no IO monad input "
                         "in @f. @9"));
    }

    void malformedStateNodesAreErrors() {
        std::string body = goodBody();
        body.replace(body.find("UpdateState(%1, %2)"), 19, "UpdateState(%2, %1)");
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: 'UpdateState' must take a state first: "
                         "UpdateState(U, node...) in @f. @6"));
        body = goodBody();
        body.replace(body.find("Load(%para2_w, %1)"), 18, "Load(%para2_w, %para1_x)");
        QCOMPARE(validate(program(body)),
                 QString("RuntimeError: validate: 'Load' must read a parameter at a state: "
                         "Load(param, U) in @f. @6"));
    }

    void unresolvedHostObjectIsAnError() {
        // A host object cannot be written in .ir text: build the call through the API.
        struct Obj : HostObject {
            std::string text() const override { return "NameSpace[ClassMember: 'Net']"; }
        };
        auto m = parseIr(program(goodBody()), "net.ir");
        FuncGraph* f = m->entry();
        CNode* ret = f->returnNode();
        ValueNode* host = m->addValue(f, Value::hostObject(std::make_shared<Obj>()));
        CNode* tuple =
            m->addCNode(f, {m->addValue(f, Value::primitive("MakeTuple")), ret->input(1), host});
        tuple->setAbstract(Abstract::opaque("tuple"));
        tuple->mutableDebug().trace.push_back(SourceLocation{"net.py", 12, 12});
        m->setInput(ret, 1, tuple);
        passes::PassContext ctx;
        try {
            passes::makeValidatePass()->run(*m, ctx);
            QFAIL("no error");
        } catch (const passes::CompileError& e) {
            QCOMPARE(QString::fromStdString(e.message()),
                     QString("validate: the host object NameSpace[ClassMember: 'Net'] was not "
                             "resolved in @f."));
            QCOMPARE(e.where().line, 12);
        }
    }

    void missingInputsAreAnError() {
        const std::string body =
            node("%0", "Mul(%para1_x)", kT, 2) + "  %1 = UpdateState(U, %0)\n" +
            "      : () -> (<UMonad, NoShape>)\n" + node("%2", "Depend(%0, %1)", kT) +
            "  Return(%2)\n      : (" + kT + ")\n";
        QCOMPARE(
            validate(program(body)),
            QString("RuntimeError: validate: 'Mul' takes at least 2 inputs but has 1 in @f. @2"));
    }
};

QTEST_APPLESS_MAIN(TestValidate)
#include "test_validate.moc"
