// The interpreter's extension points, exercised the way the mindspore/numpy modules and the
// graph builder will use them: a test-only native module "fakems" with a Cell base class
// carrying native state (setattr/getattr/call hooks), a Tensor with operators that work both
// ways with Python scalars, a Parameter subclass, callable primitives, and the decorators
// jit / lazy_inline / jit_class that introspect script functions and classes from C++.
#include <QtTest>

#include <new>
#include <stdexcept>

#include "frontend/interp/interpreter.h"
#include "frontend/interp/native.h"
#include "frontend/interp/scope.h"
#include "ops/op_registry.h"

using namespace irscope;
using namespace irscope::interp;

namespace {

int gLiveTensors = 0;

// A tensor reduced to one double: enough to prove operator dispatch.
class TensorObject : public Object {
public:
    explicit TensorObject(Type* t) : Object(t, ObjKind::Native) { ++gLiveTensors; }
    ~TensorObject() override { --gLiveTensors; }
    double v = 0;
    std::string name;  // Parameters only
};

// nn.Cell's native state: sub-cells and parameters in registration order.
class NetCell : public Object {
public:
    explicit NetCell(Type* t) : Object(t, ObjKind::Native) {}
    std::vector<std::string> registered;
    std::vector<std::pair<std::string, Value>> params;  // kept natively, not in __dict__
    bool autoPrefix = true;
    int calls = 0;
    std::string initArgs;  // what @lazy_inline recorded
    void clearRefs() override {
        params.clear();
        Object::clearRefs();
    }
};

struct FakeMs {
    Ref<Type> tensor, parameter, cell, primitive;
    std::vector<std::string> jitLog;  // what the jit decorator saw
    int jitCalls = 0;
};

double num(Interpreter& I, const Value& v) {
    if (auto* t = v.as<TensorObject>()) {
        return t->v;
    }
    return toDouble(I, v);
}

Value makeTensor(Interpreter& I, FakeMs& ms, double v) {
    Ref<TensorObject> t = I.make<TensorObject>(ms.tensor.get());
    t->v = v;
    return Value(t);
}

// Binary operators: NotImplemented for operands that are neither tensors nor numbers.
NativeFn tensorOp(FakeMs& ms, char op, bool reflected) {
    return [&ms, op, reflected](Interpreter& I, CallArgs& a) -> Value {
        const Value& other = a.pos.at(1);
        if (!other.is<TensorObject>() && !other.isNumber()) {
            return I.notImplemented();
        }
        double x = num(I, a.pos[0]), y = num(I, other);
        if (reflected) {
            std::swap(x, y);
        }
        switch (op) {
            case '+':
                return makeTensor(I, ms, x + y);
            case '-':
                return makeTensor(I, ms, x - y);
            case '*':
                return makeTensor(I, ms, x * y);
            case '@':
                return makeTensor(I, ms, x * y * 10);
            case '<':
                return Value::boolean(x < y);
            default:
                return Value::boolean(x == y);
        }
    };
}

void initFakeMs(Interpreter& I, ModuleObject& m, FakeMs& ms) {
    ms.tensor =
        ClassBuilder(I, "Tensor", "fakems")
            .layout<TensorObject>()
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) {
                        static const Signature sig =
                            Signature("Tensor").arg("self").arg("value", Value::real(0));
                        auto v = sig.bind(J, a);
                        v[0].as<TensorObject>()->v = num(J, v[1]);
                        return Value::none();
                    })
            .method("__add__", tensorOp(ms, '+', false))
            .method("__radd__", tensorOp(ms, '+', true))
            .method("__sub__", tensorOp(ms, '-', false))
            .method("__rsub__", tensorOp(ms, '-', true))
            .method("__mul__", tensorOp(ms, '*', false))
            .method("__rmul__", tensorOp(ms, '*', true))
            .method("__matmul__", tensorOp(ms, '@', false))
            .method("__lt__", tensorOp(ms, '<', false))
            .method("__eq__", tensorOp(ms, '=', false))
            .attr("__hash__", Value::none())
            .method(
                "__repr__",
                [](Interpreter& J, CallArgs& a) {
                    return Value(J.newStr(
                        "Tensor(" + J.repr(Value::real(a.pos.at(0).as<TensorObject>()->v)) + ")"));
                })
            .method(
                "__str__",
                [](Interpreter& J, CallArgs& a) {
                    return Value(J.newStr(J.repr(Value::real(a.pos.at(0).as<TensorObject>()->v))));
                })
            .method("__len__", [](Interpreter&, CallArgs&) { return Value::integer(1); })
            .method("__getitem__",
                    [&ms](Interpreter& J, CallArgs& a) {
                        if (J.toIndex(a.pos.at(1)) != 0) {
                            throw PyError(Exc::IndexError, "index out of bounds");
                        }
                        return makeTensor(J, ms, a.pos[0].as<TensorObject>()->v);
                    })
            .method("sum",
                    [&ms](Interpreter& J, CallArgs& a) {
                        static const Signature sig =
                            Signature("sum").arg("self").arg("axis", Value());
                        auto v = sig.bind(J, a);
                        return makeTensor(J, ms, v[0].as<TensorObject>()->v);
                    })
            .property("shape", [](Interpreter& J, const Value&) { return Value(J.newTuple({})); })
            .property(
                "value",
                [](Interpreter&, const Value& s) { return Value::real(s.as<TensorObject>()->v); },
                [](Interpreter& J, const Value& s, const Value& v) {
                    s.as<TensorObject>()->v = num(J, v);
                })
            .build();
    ms.parameter = ClassBuilder(I, "Parameter", "fakems", {ms.tensor})
                       .method("__init__",
                               [](Interpreter& J, CallArgs& a) {
                                   static const Signature sig = Signature("Parameter")
                                                                    .arg("self")
                                                                    .arg("default_input")
                                                                    .kwOnly("name", Value());
                                   auto v = sig.bind(J, a);
                                   auto* t = v[0].as<TensorObject>();
                                   t->v = num(J, v[1]);
                                   t->name = v[2].isNull() ? "Parameter" : toStr(J, v[2], "name");
                                   return Value::none();
                               })
                       .property("name",
                                 [](Interpreter& J, const Value& s) {
                                     return Value(J.newStr(s.as<TensorObject>()->name));
                                 })
                       .build();
    ms.cell =
        ClassBuilder(I, "Cell", "fakems.nn")
            .layout<NetCell>()
            .method("__init__",
                    [](Interpreter& J, CallArgs& a) {
                        static const Signature sig = Signature("Cell.__init__")
                                                         .arg("self")
                                                         .arg("auto_prefix", Value::boolean(true))
                                                         .varKw("flags");
                        auto v = sig.bind(J, a);
                        v[0].as<NetCell>()->autoPrefix = J.truthy(v[1]);
                        return Value::none();
                    })
            .method("__setattr__",
                    [&ms](Interpreter& J, CallArgs& a) {
                        auto* self = a.pos.at(0).as<NetCell>();
                        const std::string& name = toStr(J, a.pos.at(1), "attribute name");
                        const Value& v = a.pos.at(2);
                        if (J.isInstance(v, ms.parameter.get())) {
                            self->registered.push_back("param:" + name);
                            self->params.emplace_back(name, v);  // not in __dict__
                            return Value::none();
                        }
                        if (J.isInstance(v, ms.cell.get())) {
                            self->registered.push_back("cell:" + name);
                        }
                        J.genericSetAttr(a.pos[0], J.intern(name), v);
                        return Value::none();
                    })
            .method("__getattr__",
                    [](Interpreter& J, CallArgs& a) -> Value {
                        auto* self = a.pos.at(0).as<NetCell>();
                        const std::string& name = toStr(J, a.pos.at(1), "attribute name");
                        for (auto& [n, v] : self->params) {
                            if (n == name) {
                                return v;
                            }
                        }
                        throw PyError(Exc::AttributeError, "'" + J.typeName(a.pos[0]) +
                                                               "' object has no attribute '" +
                                                               name + "'");
                    })
            .method("__call__",
                    [](Interpreter& J, CallArgs& a) {
                        Value self = a.pos.at(0);
                        ++self.as<NetCell>()->calls;
                        CallArgs rest(std::vector<Value>(a.pos.begin() + 1, a.pos.end()), a.kw);
                        return J.callMethod(self, "construct", std::move(rest));
                    })
            .method("parameters_and_names",
                    [](Interpreter& J, CallArgs& a) {
                        std::vector<Value> out;
                        for (auto& [n, v] : a.pos.at(0).as<NetCell>()->params) {
                            out.push_back(Value(J.newTuple({Value(J.newStr(n)), v})));
                        }
                        return Value(J.newList(std::move(out)));
                    })
            .build();
    ms.primitive = ClassBuilder(I, "Add", "fakems.ops")
                       .method("__call__",
                               [](Interpreter& J, CallArgs& a) {
                                   static const Signature sig =
                                       Signature("Add.__call__").arg("self").arg("x").arg("y");
                                   auto v = sig.bind(J, a);
                                   return J.binaryOp(ast::Operator::Add, v[1], v[2]);
                               })
                       .build();
    addToModule(I, m, "Tensor", Value(ms.tensor));
    addToModule(I, m, "Parameter", Value(ms.parameter));
    addToModule(I, m, "float32", Value(I.newStr("Float32")));
    // @jit: what the graph builder needs from a function, read from C++.
    addFunction(I, m, "jit", [&ms](Interpreter& J, CallArgs& a) -> Value {
        Value fn = a.pos.at(0);
        auto* f = fn.as<FunctionObject>();
        if (!f) {
            throw PyError(Exc::TypeError, "jit expects a function, got " + J.typeName(fn));
        }
        std::string free;
        for (const std::string& n : f->code->freeNames) {
            free += n + "=" + J.repr(f->resolveFreeName(J, n)) + ",";
        }
        ms.jitLog.push_back(f->def->name + "|" + f->qualname + "|" + f->fileName() + ":" +
                            std::to_string(f->firstLine()) +
                            "|params=" + std::to_string(f->code->paramCount()) +
                            "|defaults=" + std::to_string(f->defaults.size()) + "|free=" + free +
                            "|global_scale=" + J.repr(f->resolveFreeName(J, "SCALE")));
        auto wrapper = J.newNative(f->name, [&ms, fn](Interpreter& K, CallArgs& args) {
            ++ms.jitCalls;
            return K.call(fn, args);
        });
        return Value(wrapper);
    });
    addFunction(I, m, "lazy_inline", [](Interpreter& J, CallArgs& a) -> Value {
        Value init = a.pos.at(0);
        return Value(J.newNative("__init__", [init](Interpreter& K, CallArgs& args) {
            std::string rec;
            for (std::size_t i = 1; i < args.pos.size(); ++i) {
                rec += K.repr(args.pos[i]) + ";";
            }
            args.pos.at(0).as<NetCell>()->initArgs = rec;
            return K.call(init, args);
        }));
    });
    addFunction(I, m, "jit_class", [&ms](Interpreter&, CallArgs& a) -> Value {
        auto* t = a.pos.at(0).as<Type>();
        if (!t) {
            throw PyError(Exc::TypeError, "jit_class expects a class");
        }
        if (t->isSubtypeOf(ms.cell.get())) {
            throw PyError(
                Exc::TypeError,
                "Decorator jit_class is used for user-defined classes and cannot be used for "
                "nn.Cell: " +
                    t->name + "<>.");
        }
        if (!t->classDef || t->classDef->name != t->name) {
            throw PyError(Exc::RuntimeError, "class AST missing");
        }
        t->nativeData = std::make_shared<int>(42);
        return a.pos[0];
    });
    addFunction(I, m, "raise_cpp", [](Interpreter& J, CallArgs& a) -> Value {
        const std::string& kind = toStr(J, a.pos.at(0));
        if (kind == "runtime") {
            throw std::runtime_error("C++ failure");
        }
        if (kind == "op") {
            throw ops::OpError(ops::ErrorKind::ValueError,
                               "For 'Add', x.shape and y.shape need to broadcast.");
        }
        if (kind == "alloc") {
            throw std::bad_alloc();
        }
        throw PyError(J.getAttr(Value(J.importModule("fakems")), "CustomError"), "raised by type");
    });
    Ref<Type> custom = I.newClass("CustomError", {Ref<Type>(I.types().exception(Exc::ValueError))},
                                  I.newDict(), "fakems");
    addToModule(I, m, "CustomError", Value(custom));
}

void initNn(Interpreter& I, ModuleObject& m, FakeMs& ms) {
    I.importModule("fakems");
    addToModule(I, m, "Cell", Value(ms.cell));
}

void initOps(Interpreter& I, ModuleObject& m, FakeMs& ms) {
    I.importModule("fakems");
    addToModule(I, m, "Add", Value(ms.primitive));
    addFunction(I, m, "add", [](Interpreter& J, CallArgs& a) {
        static const Signature sig =
            Signature("add").arg("input").arg("other").kwOnly("alpha", Value::integer(1));
        auto v = sig.bind(J, a);
        return J.binaryOp(ast::Operator::Add, v[0], J.binaryOp(ast::Operator::Mult, v[1], v[2]));
    });
}

struct Env {
    Interpreter I;
    FakeMs ms;
    std::string out;
    Env() {
        I.setOutputSink([this](std::string_view s) { out += s; });
        I.registerModule("fakems",
                         [this](Interpreter& J, ModuleObject& m) { initFakeMs(J, m, ms); });
        I.registerModule("fakems.nn",
                         [this](Interpreter& J, ModuleObject& m) { initNn(J, m, ms); });
        I.registerModule("fakems.ops",
                         [this](Interpreter& J, ModuleObject& m) { initOps(J, m, ms); });
    }
    RunResult run(const std::string& src) { return I.runScript(src, "net.py"); }
};

const char* const kNetScript = R"(import fakems as ms
from fakems import nn, ops, Tensor, Parameter
SCALE = 3

class Dense(nn.Cell):
    def __init__(self, k):
        super(Dense, self).__init__(auto_prefix=False)
        self.weight = Parameter(Tensor(k), name="weight")
        self.k = k

    def construct(self, x):
        return x * self.weight

class Net(nn.Cell):
    @ms.lazy_inline
    def __init__(self, n):
        super().__init__()
        self.fc = Dense(2)
        self.add = ops.Add()
        self.bias = Parameter(Tensor(0.5), name="bias")
        self.layers = [Dense(i) for i in range(n)]

    def construct(self, x):
        y = self.fc(x)
        return self.add(y, self.bias) + 1

net = Net(2)
x = Tensor(3.0)
out = net(x)
print(out, type(out).__name__, net.fc.k, net.weight if False else net.bias.name, net.fc.weight.value)
print(2 * x, x * 2, x + 1.0, 1 - x, x @ x, x < 4, x == 3.0, x.shape, x.sum(axis=0), x[0], len(x))
print(isinstance(net, nn.Cell), isinstance(net.bias, Tensor), type(net.bias).__mro__)
print(ops.add(x, 2, alpha=10), [k for k, _ in net.parameters_and_names()])
x.value = 7
print(x)
try:
    net.missing
except AttributeError as e:
    print("AttributeError:", e)
)";

}  // namespace

class TestInterpNative : public QObject {
    Q_OBJECT

private slots:
    void cellSubclassWithNativeState() {
        Env env;
        RunResult r = env.run(kNetScript);
        QVERIFY2(r.exitStatus == 0, r.error.c_str());
        QCOMPARE(QString::fromStdString(env.out),
                 QString("7.5 Tensor 2 bias 2.0\n"
                         "6.0 6.0 4.0 -2.0 90.0 True True () 3.0 3.0 1\n"
                         "True True (<class 'fakems.Parameter'>, <class 'fakems.Tensor'>, <class "
                         "'object'>)\n"
                         "23.0 ['bias']\n"
                         "7.0\n"
                         "AttributeError: 'Net' object has no attribute 'missing'\n"));
        // The native state the hooks recorded, read the way the graph builder will.
        Value net = env.I.mainModule()->dict()->getStr("net");
        auto* cell = net.as<NetCell>();
        QVERIFY(cell);
        QCOMPARE(cell->calls, 1);
        QVERIFY(cell->autoPrefix);
        QCOMPARE(cell->registered, (std::vector<std::string>{"cell:fc", "param:bias"}));
        QCOMPARE(QString::fromStdString(cell->initArgs), QString("2;"));  // @lazy_inline saw n=2
        auto* fc = env.I.getAttr(net, "fc").as<NetCell>();
        QVERIFY(fc && !fc->autoPrefix);
        QCOMPARE(fc->registered, (std::vector<std::string>{"param:weight"}));
        QVERIFY(env.I.getAttrOrNull(net, "weight").isNull());  // bias is on net, weight on fc
        // The class and its construct function, introspected from C++.
        Type* netType = env.I.typeOf(net);
        QCOMPARE(QString::fromStdString(netType->name), QString("Net"));
        QVERIFY(netType->classDef != nullptr);
        QCOMPARE(netType->classDef->span.line, 14);
        auto* construct = netType->lookup("construct").as<FunctionObject>();
        QVERIFY(construct);
        QCOMPARE(QString::fromStdString(construct->qualname), QString("Net.construct"));
        QCOMPARE(construct->def->body.size(), std::size_t{2});
        QCOMPARE(construct->code->varNames, (std::vector<std::string>{"self", "x", "y"}));
        QVERIFY(construct->resolveFreeName(env.I, "ops").is<ModuleObject>());
        QCOMPARE(construct->resolveFreeName(env.I, "SCALE").asInt(), std::int64_t{3});
        QVERIFY(construct->resolveFreeName(env.I, "len").is<NativeFunctionObject>());  // builtins
        QVERIFY(construct->resolveFreeName(env.I, "nope").isNull());
        QCOMPARE(env.I.getAttr(env.I.getAttr(net, "fc"), "k").asInt(), std::int64_t{2});
    }

    void jitDecoratorSeesTheFunction() {
        Env env;
        RunResult r = env.run(R"(import fakems as ms
SCALE = 2.5

def make(k):
    offset = 10

    @ms.jit
    def step(x, y=1):
        return x * k + y + offset + SCALE

    return step

f = make(3)
print(f(2), f(2, y=0), f.__name__)

class M:
    @ms.jit
    def construct(self, x):
        return x + 1

print(M().construct(41))
)");
        QVERIFY2(r.exitStatus == 0, r.error.c_str());
        QCOMPARE(QString::fromStdString(env.out), QString("19.5 18.5 step\n42\n"));
        QCOMPARE(env.ms.jitCalls, 3);
        QCOMPARE(env.ms.jitLog.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(env.ms.jitLog[0]),
                 QString("step|make.<locals>.step|net.py:7|params=2|defaults=1|free=k=3,offset=10,|"
                         "global_scale=2.5"));
        QCOMPARE(
            QString::fromStdString(env.ms.jitLog[1]),
            QString("construct|M.construct|net.py:17|params=2|defaults=0|free=|global_scale=2.5"));
    }

    void jitClassDecorator() {
        Env env;
        RunResult r = env.run(R"(import fakems as ms
from fakems import nn

@ms.jit_class
class InnerNet:
    def __init__(self, val):
        self.number = val + 3

print(InnerNet(2).number)

@ms.jit_class
class Net(nn.Cell):
    def construct(self, x):
        return x
)");
        QCOMPARE(QString::fromStdString(env.out), QString("5\n"));
        QCOMPARE(QString::fromStdString(r.error),
                 QString("Traceback (most recent call last):\n"
                         "  File \"net.py\", line 11, in <module>\n"
                         "    @ms.jit_class\n"
                         "TypeError: Decorator jit_class is used for user-defined classes and "
                         "cannot be used for "
                         "nn.Cell: Net<>.\n"));
        auto* inner = env.I.mainModule()->dict()->getStr("InnerNet").as<Type>();
        QVERIFY(inner && inner->nativeData);
    }

    void cppExceptionsAreConverted() {
        Env env;
        RunResult r = env.run(R"(import fakems as ms
for kind in ["runtime", "op", "alloc", "type"]:
    try:
        ms.raise_cpp(kind)
    except Exception as e:
        print(type(e).__name__, e)
ms.raise_cpp("op")
)");
        QCOMPARE(QString::fromStdString(env.out),
                 QString("RuntimeError C++ failure\n"
                         "ValueError For 'Add', x.shape and y.shape need to broadcast.\n"
                         "MemoryError \n"
                         "CustomError raised by type\n"));
        QCOMPARE(QString::fromStdString(r.error),
                 QString("Traceback (most recent call last):\n"
                         "  File \"net.py\", line 7, in <module>\n"
                         "    ms.raise_cpp(\"op\")\n"
                         "ValueError: For 'Add', x.shape and y.shape need to broadcast.\n"));
    }

    void signatureMessages() {
        Env env;
        RunResult r = env.run(R"(from fakems import ops, Tensor
for call in [lambda: ops.add(1), lambda: ops.add(1, 2, 3), lambda: ops.add(1, 2, beta=1),
             lambda: ops.add(1, input=2), lambda: Tensor(1, 2), lambda: ops.Add()(1)]:
    try:
        call()
    except TypeError as e:
        print(e)
print(ops.add(other=2, input=1))
)");
        QVERIFY2(r.exitStatus == 0, r.error.c_str());
        QCOMPARE(QString::fromStdString(env.out),
                 QString("add() missing 1 required positional argument: 'other'\n"
                         "add() takes 2 positional arguments but 3 were given\n"
                         "add() got an unexpected keyword argument 'beta'\n"
                         "add() got multiple values for argument 'input'\n"
                         "Tensor() takes from 1 to 2 positional arguments but 3 were given\n"
                         "Add.__call__() missing 1 required positional argument: 'y'\n"
                         "3\n"));
    }

    void bindingOrderWithVarargs() {
        Interpreter I;
        Signature sig = Signature("f")
                            .arg("a")
                            .arg("b", Value::integer(2))
                            .varArgs("rest")
                            .kwOnly("k", Value())
                            .varKw("kw");
        CallArgs args({Value::integer(1), Value::integer(5), Value::integer(6)},
                      {KwArg{"z", Value::integer(9)}});
        std::vector<Value> v = sig.bind(I, args);
        QCOMPARE(v.size(), std::size_t{5});
        QCOMPARE(v[0].asInt(), std::int64_t{1});
        QCOMPARE(v[1].asInt(), std::int64_t{5});
        QCOMPARE(QString::fromStdString(I.repr(v[2])), QString("(6,)"));
        QVERIFY(v[3].isNull());  // optional keyword-only, not passed
        QCOMPARE(QString::fromStdString(I.repr(v[4])), QString("{'z': 9}"));
    }

    void teardownFreesCycles() {
        gLiveTensors = 0;
        {
            Env env;
            RunResult r = env.run(R"(from fakems import nn, Tensor, Parameter
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.me = self
        self.p = Parameter(Tensor(1), name="p")
        self.keep = [Tensor(i) for i in range(10)]
    def construct(self):
        return self
net = Net()
net()
def f():
    return f
g = f
)");
            QVERIFY2(r.exitStatus == 0, r.error.c_str());
            QVERIFY(gLiveTensors >= 11);
            QVERIFY(env.I.heap().liveObjects() > 100);
        }
        QCOMPARE(gLiveTensors, 0);
    }
};

QTEST_APPLESS_MAIN(TestInterpNative)
#include "test_interp_native.moc"
