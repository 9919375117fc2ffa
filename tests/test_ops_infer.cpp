// The primitive registry's type/shape inference: every op's output abstract, broadcasting,
// MindSpore's implicit type conversion, keep_dims and transpose flags, the error messages a
// user sees for bad shapes and axes, constant folding, spellings and flags.
#include <QtTest>

#include <functional>

#include "ops/call_binding.h"
#include "ops/infer_util.h"
#include "ops/op_registry.h"

using namespace irscope;
using namespace irscope::ops;
using ir::Abstract;
using ir::AttrMap;
using ir::DType;
using ir::Shape;
using ir::Value;

namespace {

const OpRegistry& reg() {
    return OpRegistry::instance();
}

InferArg T(DType t, Shape s) {
    return InferArg::of(Abstract::tensor(t, std::move(s)));
}
InferArg Ref(DType t, Shape s) {
    return InferArg::of(Abstract::ref(t, std::move(s), ":param"));
}
InferArg S(DType t) {
    return InferArg::of(Abstract::scalar(t));
}  // unknown Python scalar
InferArg C(ir::ValuePtr v) {
    return InferArg::constant(std::move(v));
}
InferArg I(std::int64_t v) {
    return C(Value::integer(v));
}
InferArg F(double v) {
    return C(Value::floating(v));
}
InferArg Ints(std::vector<std::int64_t> v) {
    std::vector<ir::ValuePtr> e;
    for (auto x : v) {
        e.push_back(Value::integer(x));
    }
    return C(Value::tuple(std::move(e)));
}
InferArg Ty(DType t) {
    return C(Value::type(t));
}
InferArg Tup(std::vector<InferArg> elems) {
    std::vector<ir::AbstractPtr> a;
    for (auto& e : elems) {
        a.push_back(e.abs);
    }
    return InferArg::of(Abstract::tuple(std::move(a)));
}
// A constant tensor.
InferArg K(DType t, Shape s, std::vector<double> v) {
    return C(Value::tensorValue(ir::Tensor::fromDoubles(t, std::move(s), v).toValueData()));
}

AttrMap attrs(std::initializer_list<std::pair<const char*, ir::ValuePtr>> kv) {
    AttrMap m;
    for (const auto& [k, v] : kv) {
        m.set(k, v);
    }
    return m;
}

InferResult inf(const char* op, std::vector<InferArg> args, const AttrMap& a = {}) {
    return reg().infer(op, args, a);
}

ir::AbstractPtr out(const char* op, std::vector<InferArg> args, const AttrMap& a = {}) {
    return inf(op, std::move(args), a).abs;
}

// "Kind: message" of the OpError the call throws, or "" when it does not throw.
QString err(const std::function<void()>& f) {
    try {
        f();
    } catch (const OpError& e) {
        return QString::fromStdString(std::string(errorKindName(e.kind())) + ": " + e.what());
    }
    return {};
}

QString errOf(const char* op, std::vector<InferArg> args, const AttrMap& a = {}) {
    return err([&] { inf(op, std::move(args), a); });
}

bool isTensor(const ir::AbstractPtr& a, DType t, const Shape& s) {
    if (!a || a->kind != Abstract::Kind::Tensor || a->dtype != t || a->shape != s) {
        qWarning() << "got" << (a ? int(a->kind) : -1) << (a ? ir::dtypeName(a->dtype).data() : "")
                   << (a ? a->shape.toString().c_str() : "");
        return false;
    }
    return true;
}

std::vector<double> tensorValues(const ir::ValuePtr& v) {
    std::vector<double> out;
    for (std::int64_t i = 0; v && v->tensor && i < v->tensor->shape.elementCount(); ++i) {
        out.push_back(v->tensor->elementAsDouble(static_cast<std::size_t>(i)));
    }
    return out;
}

DType dt(const QString& name) {
    return *ir::dtypeFromName(name.toStdString());
}

}  // namespace

class TestOpsInfer : public QObject {
    Q_OBJECT

private slots:
    void registryHasEveryPrimitive() {
        const char* names[] = {"Add",
                               "Sub",
                               "Mul",
                               "Div",
                               "RealDiv",
                               "FloorDiv",
                               "Mod",
                               "FloorMod",
                               "Pow",
                               "Neg",
                               "Abs",
                               "Exp",
                               "Log",
                               "Sqrt",
                               "Square",
                               "Maximum",
                               "Minimum",
                               "Less",
                               "LessEqual",
                               "Greater",
                               "GreaterEqual",
                               "Equal",
                               "NotEqual",
                               "LogicalAnd",
                               "LogicalOr", "LogicalXor",
                               "LogicalNot",
                               "Select",
                               "MatMul",
                               "BatchMatMul",
                               "BiasAdd",
                               "AddN",
                               "ReduceSum",
                               "ReduceMean",
                               "ReduceMax",
                               "ReduceMin",
                               "ReduceProd",
                               "Reshape",
                               "Transpose",
                               "Cast",
                               "Concat",
                               "Stack",
                               "Squeeze",
                               "ExpandDims",
                               "Tile",
                               "BroadcastTo",
                               "Softmax",
                               "ReLU",
                               "Sigmoid",
                               "Tanh",
                               "GeLU",
                               "HSwish",
                               "LayerNorm",
                               "Dropout",
                               "OnesLike",
                               "ZerosLike",
                               "Fill",
                               "Ones",
                               "Zeros",
                               "Assign",
                               "AssignAdd",
                               "AssignSub",
                               "Load",
                               "TensorMove",
                               "UpdateState",
                               "Depend",
                               "Print",
                               "MakeTuple",
                               "TupleGetItem",
                               "Switch",
                               "Partial",
                               "Return",
                               "MatMulExt",
                               "StridedSlice",
                               "Gather",
                               "NPUAllocFloatStatus",
                               "NPUGetFloatStatus",
                               "NPUClearFloatStatus",
                               "ScalarAdd",
                               "ScalarSub",
                               "ScalarMul",
                               "ScalarDiv",
                               "ScalarFloorDiv",
                               "ScalarMod",
                               "ScalarPow",
                               "ScalarEq",
                               "ScalarNe",
                               "ScalarLt",
                               "ScalarLe",
                               "ScalarGt",
                               "ScalarGe",
                               "ScalarUsub",
                               "BoolNot",
                               "StopGradient",
                               "CustomBprop",
                               "DType",
                               "Shape",
                               "ReduceAll",
                               "ReduceAny",
                               "Invert",
                               "Identity",
                               // elementwise_math.cpp
                               "Sin", "Cos", "Tan", "Asin", "ACos", "Atan", "Sinh", "Cosh", "Asinh",
                               "Acosh", "Atanh", "Erf", "Erfc", "Log1p", "Expm1", "Rsqrt",
                               "Reciprocal", "Inv", "Rint", "Floor", "Ceil", "Trunc", "Round",
                               "Sign", "Softplus", "Softsign", "ReLU6", "HSigmoid", "SiLU", "Mish",
                               "IsNan", "IsInf", "IsFinite",
                               // optimizer_ops.cpp
                               "Adam", "ApplyAdaMax", "ApplyAdadelta", "ApplyAdagrad",
                               "ApplyAdagradV2", "ApplyAddSign", "ApplyPowerSign",
                               "ApplyCenteredRMSProp", "ApplyRMSProp", "ApplyFtrl",
                               "ApplyGradientDescent", "ApplyMomentum", "ApplyProximalAdagrad",
                               "ApplyProximalGradientDescent", "SGD", "SparseApplyAdagrad",
                               "SparseApplyAdagradV2", "SparseApplyFtrl", "SparseApplyFtrlV2",
                               "SparseApplyProximalAdagrad", "FusedSparseAdam",
                               "FusedSparseLazyAdam", "FusedSparseFtrl",
                               "FusedSparseProximalAdagrad",
                               // conv_ops.cpp
                               "Conv2D",
                               "MaxPool",
                               "AvgPool",
                               "Flatten",
                               // axis_ops.cpp, array_more_ops.cpp, binary_math_ops.cpp, nn_more_ops.cpp
                               "ArgMaxWithValue", "ArgMinWithValue", "Argmax", "Argmin", "CumSum",
                               "CumProd", "Sort", "TopK", "ReverseV2", "Roll", "Slice", "Split",
                               "Unstack", "Tril", "Triu", "Eye", "Range", "OneHot", "Size",
                               "GatherNd", "ScatterNd", "TensorScatterUpdate", "LogSoftmax", "Elu",
                               "L2Loss", "SquaredDifference", "Atan2", "Xdivy", "Xlogy", "DivNoNan",
                               "TruncateDiv", "TruncateMod", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
                               "Lerp", "MaskedFill",
                               // scatter_ops.cpp
                               "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul",
                               "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterNdUpdate",
                               "ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv",
                               "ScatterNdMax", "ScatterNdMin", "ScatterNonAliasingAdd", "TensorScatterAdd",
                               "TensorScatterSub", "TensorScatterMul", "TensorScatterDiv",
                               "TensorScatterMax", "TensorScatterMin", "InplaceAdd", "InplaceSub",
                               "InplaceUpdate", "UnsortedSegmentSum", "GatherD", "GatherDGradV2",
                               // nn_loss_ops.cpp, nn_activation_ops.cpp
                               "SoftmaxCrossEntropyWithLogits",
                               "SparseSoftmaxCrossEntropyWithLogits",
                               "SmoothL1Loss", "SigmoidCrossEntropyWithLogits", "L2Normalize",
                               "BatchNorm",
                               "LeakyReLU", "SeLU", "CeLU", "HShrink", "SoftShrink", "ClipByValue",
                               // pad_select_ops.cpp, elementwise_math.cpp
                               "Pad", "MirrorPad", "MirrorPadGrad", "SpaceToDepth", "DepthToSpace",
                               "Meshgrid", "Diag", "DiagPart", "Cross", "NonZero", "MaskedSelect",
                               "Unique", "ReduceStd", "Erfinv", "Lgamma",
                               // binary_math_ops.cpp: the backward primitives of _grad_ops (G.*)
                               "Conv2DBackpropInput", "Conv2DBackpropFilter", "MaxPoolGrad",
                               "AvgPoolGrad", "MaxPool3D", "AvgPool3D", "MaxPool3DGrad",
                               "AvgPool3DGrad", "SigmoidGrad", "TanhGrad", "SqrtGrad", "RsqrtGrad",
                               "ReciprocalGrad",
                               "InvGrad", "AsinGrad", "ACosGrad", "AtanGrad", "AsinhGrad", "AcoshGrad",
                               "ReluGrad", "ReLU6Grad", "EluGrad", "SoftplusGrad", "SiLUGrad",
                               "HSigmoidGrad", "HSwishGrad", "Real", "Imag", "Conj", "Angle",
                               "Complex"};
        for (const char* n : names) {
            const OpDef* op = reg().find(n);
            QVERIFY2(op, n);
            QCOMPARE(QString::fromStdString(op->name), QString(n));
            QVERIFY2(op->infer, n);
            QVERIFY2(op->structural == !op->cpuKernel, n);  // structural <=> no kernel
            // bprop rules (ops/bprop*.cpp) are tested in test_autodiff.cpp.
        }
        QCOMPARE(reg().size(), std::size(names));
        QVERIFY(!reg().find("NoSuchOp"));
    }

    void sideEffectFlags() {
        for (const char* n : {"Assign", "AssignAdd", "AssignSub"}) {
            QVERIFY(reg().find(n)->sideEffectMem);
            QVERIFY(!reg().find(n)->foldable);
        }
        QVERIFY(reg().find("Print")->sideEffectIo);
        QVERIFY(!reg().find("Print")->sideEffectMem);
        QVERIFY(!reg().find("Add")->sideEffectMem && !reg().find("Add")->sideEffectIo);
        QVERIFY(!reg().find("Load")->sideEffectMem);
        QVERIFY(!reg().find("Dropout")->foldable);
        for (const char* n : {"MakeTuple", "TupleGetItem", "Switch", "Partial", "Return",
                              "UpdateState", "Depend", "Print"}) {
            QVERIFY2(reg().find(n)->structural, n);
        }
    }

    void signatures() {
        const OpDef* rs = reg().find("ReduceSum");
        QCOMPARE(rs->attrs.front().name, std::string("keep_dims"));
        QVERIFY(rs->attrs.front().defaultValue->equals(*Value::boolean(false)));
        QCOMPARE(rs->inputs.size(), std::size_t(2));
        QCOMPARE(rs->requiredInputs(), std::size_t(1));  // axis defaults to ()
        const OpDef* sm = reg().find("Softmax");
        QVERIFY(sm->findAttr("axis")->defaultValue->equals(*Value::integer(-1)));
        const OpDef* mm = reg().find("MatMul");
        QVERIFY(mm->findAttr("transpose_a") && mm->findAttr("transpose_b"));
        const OpDef* ln = reg().find("LayerNorm");
        QVERIFY(ln->findAttr("begin_norm_axis") && ln->findAttr("begin_params_axis") &&
                ln->findAttr("epsilon"));
        QCOMPARE(reg().find("Assign")->inputs.back().kind, ArgKind::Monad);
    }

    void spellings() {
        auto opOf = [](const char* s) {
            auto r = reg().findSpelling(s);
            return r ? QString::fromStdString(r->op->name) : QString();
        };
        QCOMPARE(opOf("ops.Add"), QString("Add"));
        QCOMPARE(opOf("P.Add"), QString("Add"));
        QCOMPARE(opOf("ops.add"), QString("Add"));
        QCOMPARE(opOf("F.tensor_add"), QString("Add"));
        QCOMPARE(opOf("+"), QString("Add"));
        QCOMPARE(opOf("-"), QString("Sub"));
        QCOMPARE(opOf("u-"), QString("Neg"));
        QCOMPARE(opOf("/"), QString("RealDiv"));
        QCOMPARE(opOf("//"), QString("FloorDiv"));
        QCOMPARE(opOf("%"), QString("FloorMod"));
        QCOMPARE(opOf("@"), QString("MatMulExt"));
        QCOMPARE(opOf("ops.sub"), QString("Sub"));
        QCOMPARE(opOf("ops.neg"), QString("Neg"));
        QCOMPARE(opOf("ops.matmul"), QString("MatMulExt"));
        QCOMPARE(opOf("ops.MatMul"), QString("MatMul"));
        QCOMPARE(opOf("ops.NPUAllocFloatStatus"), QString("NPUAllocFloatStatus"));
        QCOMPARE(opOf("ops.strided_slice"), QString("StridedSlice"));
        QCOMPARE(opOf("ops.gather"), QString("Gather"));
        QCOMPARE(opOf("ops.select"), QString("Select"));
        QCOMPARE(opOf("ops.stack"), QString("Stack"));
        QCOMPARE(opOf("ops.ones"), QString("Ones"));
        QCOMPARE(opOf("ops.HSwish"), QString("HSwish"));
        QCOMPARE(opOf("ops.Depend"), QString("Depend"));
        QCOMPARE(opOf("F.assign"), QString("Assign"));
        QCOMPARE(opOf("ops.assign"), QString("Assign"));
        QCOMPARE(opOf("Tensor.sum"), QString("ReduceSum"));
        QCOMPARE(opOf("Tensor.astype"), QString("Cast"));
        QCOMPARE(opOf("mindspore.ops.operations.ReduceSum"), QString("ReduceSum"));
        QCOMPARE(opOf("mindspore.ops.functional.assign"), QString("Assign"));
        QCOMPARE(opOf("mindspore.ops.softmax"), QString("Softmax"));
        QCOMPARE(opOf("F.softmax"), QString("Softmax"));
        QCOMPARE(opOf("ops.nothing_like_this"), QString());

        // Functional parameters map to attrs or inputs.
        auto rs = reg().findSpelling("ops.reduce_sum");
        QCOMPARE(rs->spelling->kind, SpellingKind::Function);
        const auto& p = rs->spelling->params;
        QCOMPARE(p.size(), std::size_t(3));
        QCOMPARE(p[1].name, std::string("axis"));
        QCOMPARE(p[1].to, ParamMap::To::Input);
        QCOMPARE(p[1].input, 1);
        QCOMPARE(p[2].to, ParamMap::To::Attr);
        QCOMPARE(p[2].attr, std::string("keep_dims"));
        auto sm = reg().findSpelling("ops.softmax");
        QCOMPARE(sm->spelling->params[1].to, ParamMap::To::Attr);
        QVERIFY(sm->spelling->params[1].defaultValue->equals(*Value::integer(-1)));
        auto ones = reg().findSpelling("ops.ones");
        QCOMPARE(ones->spelling->params[1].name, std::string("dtype"));
        auto sum = reg().findSpelling("Tensor.sum");
        QCOMPARE(sum->spelling->kind, SpellingKind::Method);
        QCOMPARE(sum->spelling->params[0].input, 1);  // self is input 0
        // Tensor.sum's dtype and initial are the Python-written method's: a call giving them
        // does not bind here.
        QCOMPARE(sum->spelling->params[1].to, ParamMap::To::PythonOnly);
        QCOMPARE(sum->spelling->params[3].to, ParamMap::To::PythonOnly);
        QVERIFY(bindCall(*sum->op, *sum->spelling, 2, {}).inputs.size() == 2);
        const std::string dtypeKw[] = {"dtype"};
        QVERIFY_THROWS_EXCEPTION(OpError, bindCall(*sum->op, *sum->spelling, 1, dtypeKw));
        QVERIFY(!reg().findSpelling("ops.dropout"));  // Python-written: training, seed
        // A parameter's converter: ops.cross's dim None becomes the primitive's default.
        const ParamMap& pp = reg().findSpelling("ops.cross")->spelling->params[2];
        QCOMPARE(pp.attr, std::string("dim"));
        QVERIFY(!pp.convert(Value::none())->equals(*Value::none()));
        QVERIFY(pp.convert(Value::integer(1))->equals(*Value::integer(1)));
        QCOMPARE(reg().findSpelling("P.ReduceSum")->spelling->kind, SpellingKind::Class);
    }

    void callBinding() {
        using K = ArgSource::Kind;
        auto spelled = [](const char* s) { return *reg().findSpelling(s); };
        // ops.reduce_sum(x, 1, keep_dims=True)
        auto rs = spelled("ops.reduce_sum");
        const std::string keepDims[] = {"keep_dims"};
        CallBinding b = bindCall(*rs.op, *rs.spelling, 2, keepDims);
        QCOMPARE(b.inputs.size(), std::size_t(2));
        QCOMPARE(b.inputs[0].kind, K::Arg);
        QCOMPARE(b.inputs[1].args, std::vector<std::size_t>{1});
        QCOMPARE(b.attrs.size(), std::size_t(1));
        QCOMPARE(b.attrs[0].first, std::string("keep_dims"));
        QCOMPARE(b.attrs[0].second.args, std::vector<std::size_t>{2});
        // x.sum(): self is input 0, axis defaults to None, keepdims -> keep_dims False.
        auto sum = spelled("Tensor.sum");
        b = bindCall(*sum.op, *sum.spelling, 1);
        QCOMPARE(b.inputs[0].args, std::vector<std::size_t>{0});
        QCOMPARE(b.inputs[1].kind, K::Default);
        QVERIFY(b.inputs[1].value->kind == Value::Kind::None);
        QCOMPARE(b.attrs[0].first, std::string("keep_dims"));
        QCOMPARE(b.attrs[0].second.kind, K::Default);
        // ops.softmax(x) sets axis=-1; x.reshape(2, 3) packs; ops.cross converts dim.
        auto sm = spelled("ops.softmax");
        b = bindCall(*sm.op, *sm.spelling, 1);
        QVERIFY(b.attrs[0].second.value->equals(*Value::integer(-1)));
        auto rsh = spelled("Tensor.reshape");
        b = bindCall(*rsh.op, *rsh.spelling, 3);
        QCOMPARE(b.inputs[1].kind, K::Pack);
        QCOMPARE(b.inputs[1].args, (std::vector<std::size_t>{1, 2}));
        auto cross = spelled("ops.cross");
        const std::string dim[] = {"dim"};
        b = bindCall(*cross.op, *cross.spelling, 2, dim);
        QCOMPARE(b.attrs[0].first, std::string("dim"));
        QVERIFY(b.attrs[0].second.convert != nullptr);
        // A function spelling that returns one output of a multi-output primitive.
        Spelling first{.kind = SpellingKind::Function, .text = "first_of", .params = {toInput("x", 0)},
                       .outputIndex = 0};
        b = bindCall(*reg().find("Dropout"), first, 1);
        QCOMPARE(b.outputIndex, 0);
        // ops.ones((2, 3)): the dtype defaults to None.
        auto ones = spelled("ops.ones");
        b = bindCall(*ones.op, *ones.spelling, 1);
        QCOMPARE(b.inputs[1].kind, K::Default);
        // Operators and primitive calls; Assign's monad is left for the side-effect pass.
        auto plus = spelled("+");
        QCOMPARE(bindCall(*plus.op, *plus.spelling, 2).inputs.size(), std::size_t(2));
        auto assign = spelled("P.Assign");
        b = bindCall(*assign.op, *assign.spelling, 2);
        QCOMPARE(b.inputs.size(), std::size_t(2));
        auto pr = spelled("ops.Print");
        QCOMPARE(bindCall(*pr.op, *pr.spelling, 3).inputs.size(), std::size_t(3));
        auto pf = spelled("ops.print_");
        QCOMPARE(bindCall(*pf.op, *pf.spelling, 2).inputs.size(), std::size_t(2));
        auto rsum = spelled("ops.ReduceSum");
        b = bindCall(*rsum.op, *rsum.spelling, 1);  // ops.ReduceSum()(x): axis defaults to ()
        QCOMPARE(b.inputs.size(), std::size_t(2));
        QCOMPARE(b.inputs[1].kind, K::Default);
        // Constructors: every attribute, given or defaulted.
        b = bindConstructor(*reg().find("MatMul"), 0, std::vector<std::string>{"transpose_b"});
        QCOMPARE(b.attrs.size(), std::size_t(2));
        QCOMPARE(b.attrs[0].second.kind, K::Default);
        QCOMPARE(b.attrs[1].second.args, std::vector<std::size_t>{0});
        // Python's errors.
        auto add = spelled("ops.add");
        QCOMPARE(err([&] { bindCall(*add.op, *add.spelling, 3); }),
                 QString("TypeError: For 'ops.add', takes 2 positional arguments but 3 were "
                         "given."));
        QCOMPARE(err([&] { bindCall(*add.op, *add.spelling, 1); }),
                 QString("TypeError: For 'ops.add', missing required argument 'other'."));
        const std::string bad[] = {"alpha"};
        QCOMPARE(err([&] { bindCall(*add.op, *add.spelling, 2, bad); }),
                 QString("TypeError: For 'ops.add', got an unexpected keyword argument 'alpha'."));
        const std::string dup[] = {"input"};
        QCOMPARE(err([&] { bindCall(*add.op, *add.spelling, 2, dup); }),
                 QString("TypeError: For 'ops.add', got multiple values for argument 'input'."));
        QCOMPARE(err([&] { bindConstructor(*reg().find("BroadcastTo"), 0); }),
                 QString("TypeError: For 'ops.BroadcastTo', missing required argument 'shape'."));
    }

    void broadcasting_data() {
        QTest::addColumn<QList<qint64>>("x");
        QTest::addColumn<QList<qint64>>("y");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("same") << QList<qint64>{2, 3} << QList<qint64>{2, 3} << QList<qint64>{2, 3};
        QTest::newRow("row") << QList<qint64>{2, 3} << QList<qint64>{3} << QList<qint64>{2, 3};
        QTest::newRow("outer") << QList<qint64>{2, 1} << QList<qint64>{1, 3} << QList<qint64>{2, 3};
        QTest::newRow("rank3") << QList<qint64>{4, 1, 5} << QList<qint64>{3, 1}
                               << QList<qint64>{4, 3, 5};
        QTest::newRow("scalar") << QList<qint64>{} << QList<qint64>{2, 2} << QList<qint64>{2, 2};
        QTest::newRow("dyn-vs-n") << QList<qint64>{-1, 3} << QList<qint64>{4, 3}
                                  << QList<qint64>{4, 3};
        QTest::newRow("dyn-vs-1") << QList<qint64>{-1, 3} << QList<qint64>{1, 3}
                                  << QList<qint64>{-1, 3};
        QTest::newRow("zero") << QList<qint64>{0, 3} << QList<qint64>{1, 3} << QList<qint64>{0, 3};
    }
    void broadcasting() {
        QFETCH(QList<qint64>, x);
        QFETCH(QList<qint64>, y);
        QFETCH(QList<qint64>, expected);
        auto sh = [](const QList<qint64>& l) {
            return Shape(std::vector<std::int64_t>(l.begin(), l.end()));
        };
        for (const char* op : {"Add", "Mul", "Less", "Maximum", "FloorMod"}) {
            const auto a = out(op, {T(DType::Float32, sh(x)), T(DType::Float32, sh(y))});
            QVERIFY(a->shape == sh(expected));
        }
    }

    void broadcastErrors() {
        QCOMPARE(errOf("Add", {T(DType::Float32, {2, 3}), T(DType::Float32, {4})}),
                 QString("ValueError: For 'Add', x.shape and y.shape need to broadcast, but got "
                         "x.shape: [2, 3], y.shape: [4]."));
        QCOMPARE(errOf("Sub", {T(DType::Int32, {2, 3}), T(DType::Int32, {3, 2})}),
                 QString("ValueError: For 'Sub', x.shape and y.shape need to broadcast, but got "
                         "x.shape: [2, 3], y.shape: [3, 2]."));
        const auto dyn = out(
            "Add", {T(DType::Float32, Shape{}), InferArg::of(Abstract::tensor(DType::Float32, [] {
                        Shape s;
                        s.dynamicRank = true;
                        return s;
                    }()))});
        QVERIFY(dyn->shape.dynamicRank);
    }

    void promotion_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("xTensor");
        QTest::addColumn<QString>("x");
        QTest::addColumn<bool>("yTensor");
        QTest::addColumn<QString>("y");
        QTest::addColumn<bool>("outTensor");
        QTest::addColumn<QString>("expected");
        auto row = [](const char* name, const char* op, bool xt, const char* x, bool yt,
                      const char* y, bool ot, const char* e) {
            QTest::newRow(name) << QString(op) << xt << QString(x) << yt << QString(y) << ot
                                << QString(e);
        };
        row("i32+int", "Add", true, "Int32", false, "Int64", true, "Int32");
        row("int+i32", "Add", false, "Int64", true, "Int32", true, "Int32");
        row("i32+float", "Add", true, "Int32", false, "Float32", true, "Float32");
        row("i8*float", "Mul", true, "Int8", false, "Float32", true, "Float32");
        row("u8+int", "Add", true, "UInt8", false, "Int64", true, "UInt8");
        row("f16+float", "Add", true, "Float16", false, "Float32", true, "Float16");
        row("f16+int", "Add", true, "Float16", false, "Int64", true, "Float16");
        row("bool+int", "Add", true, "Bool", false, "Int64", true, "Int32");
        row("bool+float", "Add", true, "Bool", false, "Float32", true, "Float32");
        row("bool+pybool", "Add", true, "Bool", false, "Bool", true, "Bool");
        row("i32+f16", "Add", true, "Int32", true, "Float16", true, "Float16");
        row("f16+f32", "Add", true, "Float16", true, "Float32", true, "Float32");
        row("f32+f64", "Sub", true, "Float32", true, "Float64", true, "Float64");
        row("i32+i64", "Add", true, "Int32", true, "Int64", true, "Int64");
        row("bool+i32", "Add", true, "Bool", true, "Int32", true, "Int32");
        row("bool+bool", "Add", true, "Bool", true, "Bool", true, "Bool");
        row("u8+i8", "Add", true, "UInt8", true, "Int8", true, "Int16");
        row("u8+i16", "Mul", true, "UInt8", true, "Int16", true, "Int16");
        row("i64+f16", "Maximum", true, "Int64", true, "Float16", true, "Float16");
        row("i32/i32", "Div", true, "Int32", true, "Int32", true, "Float32");
        row("i32/int", "RealDiv", true, "Int32", false, "Int64", true, "Float32");
        row("f16/int", "Div", true, "Float16", false, "Int64", true, "Float16");
        row("i32//i32", "FloorDiv", true, "Int32", true, "Int32", true, "Int32");
        row("i32%float", "FloorMod", true, "Int32", false, "Float32", true, "Float32");
        row("i32<float", "Less", true, "Int32", false, "Float32", true, "Bool");
        row("f16==f32", "Equal", true, "Float16", true, "Float32", true, "Bool");
        row("int+int", "Add", false, "Int64", false, "Int64", false, "Int64");
        row("int+float", "Add", false, "Int64", false, "Float32", false, "Float32");
        row("int/int", "Div", false, "Int64", false, "Int64", false, "Float32");
        row("bool+bool-py", "Add", false, "Bool", false, "Bool", false, "Int64");
        row("int<int", "Less", false, "Int64", false, "Int64", false, "Bool");
        row("c64+float", "Add", true, "Complex64", false, "Float32", true, "Complex64");
        row("c64*f32", "Mul", true, "Complex64", true, "Float32", true, "Complex64");
        row("c64*f64", "Mul", true, "Complex64", true, "Float64", true, "Complex128");
        row("c64/c128", "Div", true, "Complex64", true, "Complex128", true, "Complex128");
        row("c128**int", "Pow", true, "Complex128", false, "Int64", true, "Complex128");
        row("c64==c64", "Equal", true, "Complex64", true, "Complex64", true, "Bool");
    }
    void promotion() {
        QFETCH(QString, op);
        QFETCH(bool, xTensor);
        QFETCH(QString, x);
        QFETCH(bool, yTensor);
        QFETCH(QString, y);
        QFETCH(bool, outTensor);
        QFETCH(QString, expected);
        const InferArg xa = xTensor ? T(dt(x), {2}) : S(dt(x));
        const InferArg ya = yTensor ? T(dt(y), {2}) : S(dt(y));
        const auto a = out(op.toLatin1().constData(), {xa, ya});
        QCOMPARE(a->kind, outTensor ? Abstract::Kind::Tensor : Abstract::Kind::Scalar);
        QCOMPARE(QString::fromLatin1(ir::dtypeName(a->dtype).data()), expected);
    }

    void tensorOfPythonIntIsInt64() {
        // Tensor(2) is an Int64 0-d constant: with an Int32 tensor the tensor rule applies.
        const auto a = out("Add", {K(DType::Int64, {}, {2}), T(DType::Int32, {3})});
        QVERIFY(isTensor(a, DType::Int64, {3}));
        // ... while a Python 2 keeps the tensor's Int32.
        QVERIFY(isTensor(out("Add", {T(DType::Int32, {3}), I(2)}), DType::Int32, {3}));
        QVERIFY(isTensor(out("Mul", {T(DType::Int32, {3}), F(0.5)}), DType::Float32, {3}));
    }

    void boolArithmetic() {
        QCOMPARE(errOf("Sub", {T(DType::Bool, {2}), T(DType::Bool, {2})}),
                 QString("TypeError: For 'Sub', the inputs can not both be bool, but got "
                         "Tensor[Bool] and Tensor[Bool]."));
        QVERIFY(isTensor(out("Mul", {T(DType::Bool, {2}), T(DType::Bool, {2})}), DType::Bool, {2}));
        QCOMPARE(errOf("Add", {T(DType::Float32, {2}), InferArg::of(Abstract::tuple({}))}),
                 QString("TypeError: For 'Add', the input 'y' must be a Tensor, a number or a "
                         "bool, but got Tuple."));
    }

    void unaryTypes() {
        QVERIFY(isTensor(out("Neg", {T(DType::Int8, {2})}), DType::Int8, {2}));
        QVERIFY(isTensor(out("Abs", {T(DType::Float16, {2, 2})}), DType::Float16, {2, 2}));
        QVERIFY(isTensor(out("Square", {T(DType::Int64, {})}), DType::Int64, {}));
        QVERIFY(isTensor(out("Exp", {T(DType::Int32, {3})}), DType::Float32, {3}));
        QVERIFY(isTensor(out("Sqrt", {T(DType::Float16, {3})}), DType::Float16, {3}));
        QVERIFY(isTensor(out("Log", {T(DType::Float64, {3})}), DType::Float64, {3}));
        QVERIFY(isTensor(out("ReLU", {T(DType::Int32, {3})}), DType::Int32, {3}));
        QVERIFY(isTensor(out("Sigmoid", {T(DType::Float32, {3})}), DType::Float32, {3}));
        QVERIFY(isTensor(out("Tanh", {T(DType::Float32, {3})}), DType::Float32, {3}));
        QVERIFY(isTensor(out("GeLU", {T(DType::Float32, {3})}), DType::Float32, {3}));
        QVERIFY(isTensor(out("HSwish", {T(DType::Float16, {3})}), DType::Float16, {3}));
        QVERIFY(isTensor(out("LogicalNot", {T(DType::Bool, {3})}), DType::Bool, {3}));
        QCOMPARE(errOf("LogicalNot", {T(DType::Int32, {3})}),
                 QString("TypeError: For 'LogicalNot', the type of 'x' must be Tensor[Bool], "
                         "but got Tensor[Int32]."));
        QCOMPARE(errOf("HSwish", {T(DType::Int32, {3})}),
                 QString("TypeError: For 'HSwish', the type of 'x' must be Tensor[Float16, "
                         "Float32, Float64], but got Tensor[Int32]."));
        QVERIFY(errOf("Neg", {T(DType::Bool, {3})}).startsWith("TypeError: For 'Neg'"));
        QCOMPARE(out("Neg", {S(DType::Int64)})->kind, Abstract::Kind::Scalar);
    }

    void complexTypes() {
        // |z| and the parts of a complex tensor are of its parts' type; Complex pairs them.
        QVERIFY(isTensor(out("Abs", {T(DType::Complex64, {2})}), DType::Float32, {2}));
        QVERIFY(isTensor(out("Neg", {T(DType::Complex128, {2})}), DType::Complex128, {2}));
        QVERIFY(isTensor(out("Real", {T(DType::Complex128, {3})}), DType::Float64, {3}));
        QVERIFY(isTensor(out("Imag", {T(DType::Complex64, {3})}), DType::Float32, {3}));
        QVERIFY(isTensor(out("Conj", {T(DType::Complex64, {3})}), DType::Complex64, {3}));
        QVERIFY(isTensor(out("Angle", {T(DType::Complex128, {})}), DType::Float64, {}));
        QVERIFY(isTensor(out("Complex", {T(DType::Float32, {2, 1}), T(DType::Float32, {3})}),
                         DType::Complex64, {2, 3}));
        QVERIFY(isTensor(out("Cast", {T(DType::Complex64, {2}), Ty(DType::Float32)}), DType::Float32,
                         {2}));
        QVERIFY(isTensor(out("Cast", {T(DType::Int32, {2}), Ty(DType::Complex128)}),
                         DType::Complex128, {2}));
        QCOMPARE(errOf("Complex", {T(DType::Float32, {2}), T(DType::Float64, {2})}),
                 QString("TypeError: For 'Complex', the types of 'real' and 'imag' must be both "
                         "Tensor[Float32] or both Tensor[Float64], but got Tensor[Float32] and "
                         "Tensor[Float64]."));
        QCOMPARE(errOf("ReLU", {T(DType::Complex64, {2})}),
                 QString("TypeError: For 'ReLU', the CPU kernel does not support data type "
                         "Complex64."));
        QCOMPARE(errOf("Maximum", {T(DType::Complex64, {2}), T(DType::Complex64, {2})}),
                 QString("TypeError: For 'Maximum', the CPU kernel does not support data type "
                         "Complex64."));
    }

    void logical() {
        QVERIFY(isTensor(out("LogicalAnd", {T(DType::Bool, {2, 1}), T(DType::Bool, {3})}),
                         DType::Bool, {2, 3}));
        QVERIFY(isTensor(out("LogicalOr", {T(DType::Bool, {2}), C(Value::boolean(true))}),
                         DType::Bool, {2}));
        QCOMPARE(errOf("LogicalAnd", {T(DType::Bool, {2}), T(DType::Int32, {2})}),
                 QString("TypeError: For 'LogicalAnd', the type of 'y' must be Tensor[Bool] or "
                         "bool, but got Tensor[Int32]."));
    }

    void select() {
        QVERIFY(isTensor(out("Select", {T(DType::Bool, {2, 3}), T(DType::Float32, {2, 3}),
                                        T(DType::Float32, {3})}),
                         DType::Float32, {2, 3}));
        QVERIFY(isTensor(out("Select", {T(DType::Bool, {2, 1}), T(DType::Int32, {1, 3}), I(0)}),
                         DType::Int32, {2, 3}));
        QCOMPARE(
            errOf("Select", {T(DType::Int32, {2}), T(DType::Float32, {2}), T(DType::Float32, {2})}),
            QString("TypeError: For 'Select', the type of 'cond' must be Tensor[Bool], but "
                    "got Tensor[Int32]."));
    }

    void reduce_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QVariant>("axis");  // int, QList<qint64>, or invalid for None
        QTest::addColumn<bool>("keep");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::newRow("sum-all-default") << "ReduceSum" << QVariant() << false << QList<qint64>{};
        QTest::newRow("sum-empty")
            << "ReduceSum" << QVariant::fromValue(QList<qint64>{}) << false << QList<qint64>{};
        QTest::newRow("sum-1") << "ReduceSum" << QVariant(1) << false << QList<qint64>{2, 4};
        QTest::newRow("sum-neg") << "ReduceSum" << QVariant(-1) << false << QList<qint64>{2, 3};
        QTest::newRow("sum-keep") << "ReduceSum" << QVariant(1) << true << QList<qint64>{2, 1, 4};
        QTest::newRow("mean-tuple") << "ReduceMean" << QVariant::fromValue(QList<qint64>{0, 2})
                                    << false << QList<qint64>{3};
        QTest::newRow("max-tuple-keep") << "ReduceMax" << QVariant::fromValue(QList<qint64>{0, -1})
                                        << true << QList<qint64>{1, 3, 1};
        QTest::newRow("max-all-keep") << "ReduceMax" << QVariant::fromValue(QList<qint64>{}) << true
                                      << QList<qint64>{1, 1, 1};
        QTest::newRow("min-dup") << "ReduceMin" << QVariant::fromValue(QList<qint64>{1, -2})
                                 << false << QList<qint64>{2, 4};
        QTest::newRow("prod") << "ReduceProd" << QVariant(0) << false << QList<qint64>{3, 4};
    }
    void reduce() {
        QFETCH(QString, op);
        QFETCH(QVariant, axis);
        QFETCH(bool, keep);
        QFETCH(QList<qint64>, expected);
        std::vector<InferArg> args{T(DType::Float32, {2, 3, 4})};
        if (axis.typeId() == QMetaType::Int) {
            args.push_back(I(axis.toInt()));
        } else if (axis.isValid()) {
            const auto l = axis.value<QList<qint64>>();
            args.push_back(Ints(std::vector<std::int64_t>(l.begin(), l.end())));
        }
        const auto a =
            out(op.toLatin1().constData(), args, attrs({{"keep_dims", Value::boolean(keep)}}));
        QVERIFY(isTensor(a, DType::Float32,
                         Shape(std::vector<std::int64_t>(expected.begin(), expected.end()))));
    }

    void reduceEdgeCases() {
        QCOMPARE(errOf("ReduceSum", {T(DType::Float32, {2, 3}), I(2)}),
                 QString("ValueError: For 'ReduceSum', the 'axis' must be in range [-2, 2), but "
                         "got 2."));
        QCOMPARE(errOf("ReduceMean", {T(DType::Float32, {2, 3}), Ints({0, -3})}),
                 QString("ValueError: For 'ReduceMean', the 'axis' must be in range [-2, 2), "
                         "but got -3."));
        // None means all axes (ops.sum(x) passes axis=None).
        QVERIFY(isTensor(out("ReduceSum", {T(DType::Int32, {2, 3}), C(Value::none())}),
                         DType::Int32, {}));
        // An axis only known at run time.
        QVERIFY(out("ReduceSum", {T(DType::Float32, {2, 3}), S(DType::Int64)})->shape.dynamicRank);
        QVERIFY(isTensor(out("ReduceSum", {T(DType::Float32, {2, 3}), S(DType::Int64)},
                             attrs({{"keep_dims", Value::boolean(true)}})),
                         DType::Float32, {-1, -1}));
        // Dynamic dims propagate.
        QVERIFY(
            isTensor(out("ReduceMax", {T(DType::Float32, {-1, 3}), I(1)}), DType::Float32, {-1}));
        QVERIFY(errOf("ReduceSum", {T(DType::Bool, {2})}).startsWith("TypeError"));
        QVERIFY(isTensor(out("ReduceMax", {T(DType::Bool, {2})}), DType::Bool, {}));
    }

    void matmul_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QList<qint64>>("x");
        QTest::addColumn<QList<qint64>>("y");
        QTest::addColumn<bool>("ta");
        QTest::addColumn<bool>("tb");
        QTest::addColumn<QList<qint64>>("expected");
        using L = QList<qint64>;
        QTest::newRow("plain") << "MatMul" << L{2, 3} << L{3, 4} << false << false << L{2, 4};
        QTest::newRow("ta") << "MatMul" << L{3, 2} << L{3, 4} << true << false << L{2, 4};
        QTest::newRow("tb") << "MatMul" << L{2, 3} << L{4, 3} << false << true << L{2, 4};
        QTest::newRow("both") << "MatMul" << L{3, 2} << L{4, 3} << true << true << L{2, 4};
        QTest::newRow("dyn") << "MatMul" << L{-1, 3} << L{3, 5} << false << false << L{-1, 5};
        QTest::newRow("bmm") << "BatchMatMul" << L{5, 2, 3} << L{5, 3, 4} << false << false
                             << L{5, 2, 4};
        QTest::newRow("bmm-bcast")
            << "BatchMatMul" << L{2, 1, 2, 3} << L{4, 3, 5} << false << false << L{2, 4, 2, 5};
        QTest::newRow("bmm-tb") << "BatchMatMul" << L{5, 2, 3} << L{5, 4, 3} << false << true
                                << L{5, 2, 4};
    }
    void matmul() {
        QFETCH(QString, op);
        QFETCH(QList<qint64>, x);
        QFETCH(QList<qint64>, y);
        QFETCH(bool, ta);
        QFETCH(bool, tb);
        QFETCH(QList<qint64>, expected);
        auto sh = [](const QList<qint64>& l) {
            return Shape(std::vector<std::int64_t>(l.begin(), l.end()));
        };
        const auto a =
            out(op.toLatin1().constData(), {T(DType::Float32, sh(x)), T(DType::Float32, sh(y))},
                attrs({{"transpose_a", Value::boolean(ta)}, {"transpose_b", Value::boolean(tb)}}));
        QVERIFY(isTensor(a, DType::Float32, sh(expected)));
    }

    void matmulErrors() {
        QCOMPARE(errOf("MatMul", {T(DType::Float32, {2, 3}), T(DType::Float32, {4, 5})}),
                 QString("ValueError: For 'MatMul', the input dimensions must be equal, but got "
                         "'x1_col': 3 and 'x2_row': 4. And 'x' shape [2, 3](transpose_a=False), "
                         "'y' shape [4, 5](transpose_b=False)."));
        QCOMPARE(errOf("MatMul", {T(DType::Float32, {2, 3, 4}), T(DType::Float32, {4, 5})}),
                 QString("ValueError: For 'MatMul', the input 'x' must be a 2-D Tensor, but got a "
                         "3-D Tensor with shape [2, 3, 4]."));
        QCOMPARE(errOf("MatMul", {T(DType::Float32, {2, 3}), T(DType::Int32, {3, 5})}),
                 QString("TypeError: For 'MatMul', the dtypes of 'x' and 'y' must be the same, "
                         "but got Tensor[Float32] and Tensor[Int32]."));
        QVERIFY(errOf("BatchMatMul", {T(DType::Float32, {2, 2, 3}), T(DType::Float32, {3, 3, 4})})
                    .startsWith("ValueError: For 'BatchMatMul', x.shape and y.shape need to "
                                "broadcast"));
    }

    void matmulExt() {
        // numpy matmul: the seed's ops.matmul(ones(5), w[5, 3]) is a [3] vector.
        QVERIFY(isTensor(out("MatMulExt", {T(DType::Float32, {5}), T(DType::Float32, {5, 3})}),
                         DType::Float32, {3}));
        QVERIFY(isTensor(out("MatMulExt", {T(DType::Float32, {2, 3}), T(DType::Float32, {3})}),
                         DType::Float32, {2}));
        QVERIFY(isTensor(out("MatMulExt", {T(DType::Float32, {3}), T(DType::Float32, {3})}),
                         DType::Float32, {}));
        QVERIFY(
            isTensor(out("MatMulExt", {T(DType::Float32, {4, 2, 3}), T(DType::Float32, {3, 5})}),
                     DType::Float32, {4, 2, 5}));
        QCOMPARE(errOf("MatMulExt", {T(DType::Float32, {5}), T(DType::Float32, {4, 3})}),
                 QString("ValueError: For 'MatMulExt', the input dimensions must be equal, but got "
                         "'x1_col': 5 and 'x2_row': 4. And 'x' shape [1, 5](transpose_a=False), "
                         "'y' shape [4, 3](transpose_b=False)."));
        QVERIFY(errOf("MatMulExt", {T(DType::Float32, {}), T(DType::Float32, {3})})
                    .startsWith("ValueError: For 'MatMulExt', the inputs must be at least 1-D"));
    }

    void stridedSlice() {
        auto ss = [](Shape in, std::vector<std::int64_t> b, std::vector<std::int64_t> e,
                     std::vector<std::int64_t> st, AttrMap a = {}) {
            return out("StridedSlice",
                       {T(DType::Float32, std::move(in)), Ints(b), Ints(e), Ints(st)}, a);
        };
        auto m = [](std::int64_t v) { return Value::integer(v); };
        QVERIFY(isTensor(ss({5, 4}, {1}, {4}, {1}), DType::Float32, {3, 4}));
        QVERIFY(isTensor(ss({5, 4}, {0, 0}, {5, 4}, {2, -1}), DType::Float32, {3, 0}));
        QVERIFY(isTensor(
            ss({5, 4}, {0, 0}, {0, 0}, {1, -1}, attrs({{"begin_mask", m(3)}, {"end_mask", m(3)}})),
            DType::Float32, {5, 4}));
        // x[2] and x[:, -1] shrink the axis; x[None] adds one; x[..., 1] uses an ellipsis.
        QVERIFY(isTensor(ss({5, 4}, {2}, {3}, {1}, attrs({{"shrink_axis_mask", m(1)}})),
                         DType::Float32, {4}));
        QVERIFY(isTensor(
            ss({5, 4}, {0, -1}, {0, 0}, {1, 1},
               attrs({{"begin_mask", m(1)}, {"end_mask", m(1)}, {"shrink_axis_mask", m(2)}})),
            DType::Float32, {5}));
        QVERIFY(isTensor(ss({5, 4}, {0}, {1}, {1}, attrs({{"new_axis_mask", m(1)}})),
                         DType::Float32, {1, 5, 4}));
        QVERIFY(isTensor(ss({2, 3, 4}, {0, 1}, {0, 2}, {1, 1},
                            attrs({{"ellipsis_mask", m(1)}, {"shrink_axis_mask", m(2)}})),
                         DType::Float32, {2, 3}));
        QVERIFY(isTensor(ss({-1, 4}, {1}, {3}, {1}), DType::Float32, {-1, 4}));
        QCOMPARE(errOf("StridedSlice", {T(DType::Float32, {5}), Ints({7}), Ints({8}), Ints({1})},
                       attrs({{"shrink_axis_mask", m(1)}})),
                 QString("IndexError: For 'StridedSlice', index 7 is out of bounds for dimension 0 "
                         "with size 5."));
        QVERIFY(
            errOf("StridedSlice", {T(DType::Float32, {5}), Ints({0}), Ints({5}), Ints({0})})
                .startsWith("ValueError: For 'StridedSlice', the 'strides' must not contain 0"));
    }

    void gather() {
        QVERIFY(isTensor(out("Gather", {T(DType::Float32, {5, 4}), T(DType::Int32, {2, 3}), I(0)}),
                         DType::Float32, {2, 3, 4}));
        QVERIFY(isTensor(out("Gather", {T(DType::Float32, {5, 4}), T(DType::Int64, {3}), I(-1)}),
                         DType::Float32, {5, 3}));
        QVERIFY(
            isTensor(out("Gather", {T(DType::Float32, {5, 4}), I(2), I(0)}), DType::Float32, {4}));
        QVERIFY(errOf("Gather", {T(DType::Float32, {5, 4}), T(DType::Float32, {2}), I(0)})
                    .startsWith("TypeError"));
    }

    void floatStatus() {
        const auto alloc = inf("NPUAllocFloatStatus", {});
        QVERIFY(isTensor(alloc.abs, DType::Float32, {8}));
        QVERIFY(!alloc.constant);  // never folded away: the seed orders them with Depend
        QVERIFY(
            isTensor(out("NPUClearFloatStatus", {T(DType::Float32, {8})}), DType::Float32, {8}));
        QVERIFY(isTensor(out("NPUGetFloatStatus", {T(DType::Float32, {8})}), DType::Float32, {8}));
        QVERIFY(errOf("NPUGetFloatStatus", {T(DType::Int32, {8})}).startsWith("TypeError"));
    }

    void biasAdd() {
        QVERIFY(isTensor(out("BiasAdd", {T(DType::Float32, {2, 3, 4, 4}), T(DType::Float32, {3})}),
                         DType::Float32, {2, 3, 4, 4}));
        QVERIFY(isTensor(out("BiasAdd", {T(DType::Float32, {2, 4, 4, 3}), T(DType::Float32, {3})},
                             attrs({{"data_format", Value::string("NHWC")}})),
                         DType::Float32, {2, 4, 4, 3}));
        QCOMPARE(errOf("BiasAdd", {T(DType::Float32, {2, 3}), T(DType::Float32, {4})}),
                 QString("ValueError: For 'BiasAdd', the length of 'bias' must be equal to the "
                         "channel dimension of 'input_x' (3), but got 4."));
    }

    void addN() {
        const auto tup =
            Tup({T(DType::Int32, {2, 3}), T(DType::Int32, {2, 3}), T(DType::Int32, {-1, 3})});
        QVERIFY(isTensor(out("AddN", {tup}), DType::Int32, {2, 3}));
        QCOMPARE(errOf("AddN", {Tup({T(DType::Int32, {2}), T(DType::Int32, {3})})}),
                 QString("ValueError: For 'AddN', the shape of 'x[1]' should be the same as "
                         "'x[0]', but got [3] and [2]."));
        QVERIFY(errOf("AddN", {Tup({T(DType::Int32, {2}), T(DType::Float32, {2})})})
                    .startsWith("TypeError"));
    }

    void reshape() {
        QVERIFY(isTensor(out("Reshape", {T(DType::Float32, {2, 3}), Ints({3, 2})}), DType::Float32,
                         {3, 2}));
        QVERIFY(isTensor(out("Reshape", {T(DType::Float32, {2, 3, 4}), Ints({-1, 4})}),
                         DType::Float32, {6, 4}));
        QVERIFY(isTensor(out("Reshape", {T(DType::Float32, {-1, 3}), Ints({-1})}), DType::Float32,
                         {-1}));
        QVERIFY(isTensor(
            out("Reshape", {T(DType::Float32, {2, 3}),
                            InferArg::of(Abstract::tuple({Abstract::scalar(DType::Int64),
                                                          Abstract::scalar(DType::Int64)}))}),
            DType::Float32, {-1, -1}));
        QCOMPARE(errOf("Reshape", {T(DType::Float32, {2, 3}), Ints({4, 2})}),
                 QString("ValueError: For 'Reshape', the product of the 'input_x' shape should be "
                         "equal to product of 'input_shape', but got product of the shape of "
                         "'input_x': 6, product of 'input_shape': 8."));
        QCOMPARE(errOf("Reshape", {T(DType::Float32, {2, 3}), Ints({-1, -1})}),
                 QString("ValueError: For 'Reshape', there can be at most one '-1' in "
                         "'input_shape', but got [-1, -1]."));
    }

    void transposeCast() {
        QVERIFY(isTensor(out("Transpose", {T(DType::Int8, {2, 3, 4}), Ints({2, 0, 1})}),
                         DType::Int8, {4, 2, 3}));
        QCOMPARE(errOf("Transpose", {T(DType::Int8, {2, 3}), Ints({0, 1, 2})}),
                 QString("ValueError: For 'Transpose', the size of 'input_perm' must be equal to "
                         "the rank of 'input_x', but got 3 and 2."));
        QVERIFY(errOf("Transpose", {T(DType::Int8, {2, 3}), Ints({0, 0})})
                    .startsWith("ValueError: For 'Transpose', the 'input_perm' must be a "
                                "permutation"));
        QVERIFY(isTensor(out("Cast", {T(DType::Float32, {2}), Ty(DType::Float16)}), DType::Float16,
                         {2}));
        QCOMPARE(out("Cast", {S(DType::Int64), Ty(DType::Float32)})->kind, Abstract::Kind::Scalar);
        QVERIFY(errOf("Cast", {T(DType::Float32, {2}), I(3)}).startsWith("TypeError"));
    }

    void concatStack() {
        auto tup = Tup({T(DType::Float32, {2, 3}), T(DType::Float32, {2, 5})});
        QVERIFY(isTensor(out("Concat", {tup}, attrs({{"axis", Value::integer(1)}})), DType::Float32,
                         {2, 8}));
        QVERIFY(isTensor(out("Concat", {tup}, attrs({{"axis", Value::integer(-1)}})),
                         DType::Float32, {2, 8}));
        QCOMPARE(errOf("Concat", {tup}),
                 QString("ValueError: For 'Concat', the shape of 'x[1]' must be the same as "
                         "'x[0]' except on 'axis', but got [2, 5] and [2, 3]."));
        auto same =
            Tup({T(DType::Float32, {2, 3}), T(DType::Float32, {2, 3}), T(DType::Float32, {2, 3})});
        QVERIFY(isTensor(out("Stack", {same}), DType::Float32, {3, 2, 3}));
        QVERIFY(isTensor(out("Stack", {same}, attrs({{"axis", Value::integer(-1)}})),
                         DType::Float32, {2, 3, 3}));
        QCOMPARE(errOf("Stack", {same}, attrs({{"axis", Value::integer(3)}})),
                 QString("ValueError: For 'Stack', the 'axis' must be in range [-3, 3), but got "
                         "3."));
        QVERIFY(errOf("Stack", {tup}).startsWith("ValueError: For 'Stack', the shape of 'x[1]'"));
    }

    void squeezeExpandTileBroadcast() {
        QVERIFY(isTensor(out("Squeeze", {T(DType::Float32, {1, 3, 1})}), DType::Float32, {3}));
        QVERIFY(isTensor(
            out("Squeeze", {T(DType::Float32, {1, 3, 1})}, attrs({{"axis", Value::integer(0)}})),
            DType::Float32, {3, 1}));
        QCOMPARE(
            errOf("Squeeze", {T(DType::Float32, {1, 3, 1})}, attrs({{"axis", Value::integer(1)}})),
            QString("ValueError: For 'Squeeze', the shape of 'input_x' at 'axis' 1 must be "
                    "1, but got 3."));
        QVERIFY(isTensor(out("ExpandDims", {T(DType::Float32, {2, 3}), I(0)}), DType::Float32,
                         {1, 2, 3}));
        QVERIFY(isTensor(out("ExpandDims", {T(DType::Float32, {2, 3}), I(-1)}), DType::Float32,
                         {2, 3, 1}));
        QCOMPARE(errOf("ExpandDims", {T(DType::Float32, {2, 3}), I(3)}),
                 QString("ValueError: For 'ExpandDims', the 'axis' must be in range [-3, 3), but "
                         "got 3."));
        QVERIFY(isTensor(out("Tile", {T(DType::Float32, {2, 3}), Ints({2, 2})}), DType::Float32,
                         {4, 6}));
        QVERIFY(
            isTensor(out("Tile", {T(DType::Float32, {3}), Ints({2, 2})}), DType::Float32, {2, 6}));
        QVERIFY(
            isTensor(out("BroadcastTo", {T(DType::Float32, {3})},
                         attrs({{"shape", Value::tuple({Value::integer(2), Value::integer(3)})}})),
                     DType::Float32, {2, 3}));
        QVERIFY(
            isTensor(out("BroadcastTo", {T(DType::Float32, {2, 1})},
                         attrs({{"shape", Value::tuple({Value::integer(-1), Value::integer(4)})}})),
                     DType::Float32, {2, 4}));
        QVERIFY(errOf("BroadcastTo", {T(DType::Float32, {2, 3})},
                      attrs({{"shape", Value::tuple({Value::integer(4), Value::integer(3)})}}))
                    .startsWith("ValueError: For 'BroadcastTo', in order to broadcast"));
    }

    void nn() {
        QVERIFY(isTensor(out("Softmax", {T(DType::Float32, {2, 5})}), DType::Float32, {2, 5}));
        QCOMPARE(
            errOf("Softmax", {T(DType::Float32, {2, 5})}, attrs({{"axis", Value::integer(2)}})),
            QString("ValueError: For 'Softmax', the 'axis' must be in range [-2, 2), but got "
                    "2."));
        QVERIFY(errOf("Softmax", {T(DType::Int32, {2, 5})}).startsWith("TypeError"));
        const auto ln = out("LayerNorm", {T(DType::Float32, {2, 3, 4}), T(DType::Float32, {3, 4}),
                                          T(DType::Float32, {3, 4})});
        QCOMPARE(ln->kind, Abstract::Kind::Tuple);
        QCOMPARE(ln->elements.size(), std::size_t(3));
        QVERIFY(isTensor(ln->elements[0], DType::Float32, {2, 3, 4}));
        QVERIFY(isTensor(ln->elements[1], DType::Float32, {2, 1, 1}));
        QVERIFY(isTensor(ln->elements[2], DType::Float32, {2, 1, 1}));
        const auto ln2 =
            out("LayerNorm",
                {T(DType::Float32, {2, 3, 4}), T(DType::Float32, {4}), T(DType::Float32, {4})},
                attrs({{"begin_norm_axis", Value::integer(-1)},
                       {"begin_params_axis", Value::integer(-1)}}));
        QVERIFY(isTensor(ln2->elements[1], DType::Float32, {2, 3, 1}));
        QCOMPARE(errOf("LayerNorm",
                       {T(DType::Float32, {2, 3}), T(DType::Float32, {4}), T(DType::Float32, {3})}),
                 QString("ValueError: For 'LayerNorm', the shape of 'gamma' must be [3], but got "
                         "[4]."));
        const auto dr = out("Dropout", {T(DType::Float16, {4})});
        QCOMPARE(dr->kind, Abstract::Kind::Tuple);
        QVERIFY(isTensor(dr->elements[1], DType::Float16, {4}));  // the mask
        QVERIFY(
            errOf("Dropout", {T(DType::Float32, {4})}, attrs({{"keep_prob", Value::floating(0.0)}}))
                .startsWith("ValueError: For 'Dropout', the 'keep_prob' must be in range (0, 1]"));
    }

    void fills() {
        QVERIFY(isTensor(out("OnesLike", {T(DType::Int8, {2, 2})}), DType::Int8, {2, 2}));
        QVERIFY(isTensor(out("ZerosLike", {T(DType::Float16, {3})}), DType::Float16, {3}));
        auto ones = inf("Ones", {Ints({2, 3}), Ty(DType::Int32)});
        QVERIFY(isTensor(ones.abs, DType::Int32, {2, 3}));
        QVERIFY(ones.abs->valueKnown && ones.abs->dtype == DType::Int32);
        QCOMPARE(tensorValues(ones.constant), std::vector<double>(6, 1.0));
        QCOMPARE(inf("Zeros", {I(3)}).abs->dtype, DType::Float32);  // default float32
        auto fill = inf("Fill", {Ty(DType::Float32), Ints({2}), F(2.5)});
        QCOMPARE(tensorValues(fill.constant), (std::vector<double>{2.5, 2.5}));
        QCOMPARE(inf("Fill", {C(Value::none()), Ints({2}), I(7)}).abs->dtype, DType::Int64);
        // An unknown shape leaves the dims unknown.
        QVERIFY(
            isTensor(out("Ones", {InferArg::of(Abstract::tuple({Abstract::scalar(DType::Int64)})),
                                  Ty(DType::Float32)}),
                     DType::Float32, {-1}));
        QVERIFY(errOf("Ones", {Ints({2, -3})}).startsWith("ValueError"));
    }

    void stateOps() {
        const auto ref = Ref(DType::Int32, {});
        const auto assigned =
            inf("Assign", {ref, K(DType::Int32, {}, {1}), C(Value::monadValue(ir::MonadKind::U))});
        QCOMPARE(assigned.abs->kind, Abstract::Kind::Ref);
        QVERIFY(!assigned.constant);  // side effects never fold
        QVERIFY(out("Assign", {ref, I(3)})->kind == Abstract::Kind::Ref);
        QCOMPARE(errOf("Assign", {ref, T(DType::Float32, {})}),
                 QString("RuntimeError: For 'Assign', data type conversion of Parameter is not "
                         "supported: 'variable' is Ref[Tensor[Int32]] and 'value' is "
                         "Tensor[Float32]."));
        QVERIFY(out("AssignAdd", {Ref(DType::Float32, {2}), T(DType::Float16, {2})}));
        QVERIFY(errOf("AssignSub", {Ref(DType::Float32, {2}), T(DType::Float32, {3})})
                    .startsWith("ValueError: For 'AssignSub', the shape of 'value' must be the "
                                "same"));
        QVERIFY(
            isTensor(out("Load", {ref, C(Value::monadValue(ir::MonadKind::U))}), DType::Int32, {}));
        QVERIFY(isTensor(out("TensorMove", {T(DType::Int32, {2})}), DType::Int32, {2}));
        const auto u = C(Value::monadValue(ir::MonadKind::U));
        const auto us = out("UpdateState", {u, T(DType::Int32, {})});
        QCOMPARE(us->kind, Abstract::Kind::Monad);
        QVERIFY(isTensor(out("Depend", {T(DType::Float32, {2}), InferArg::of(us)}), DType::Float32,
                         {2}));
        QVERIFY(isTensor(out("Print", {C(Value::string("x:")), T(DType::Float32, {2}),
                                       C(Value::monadValue(ir::MonadKind::IO))}),
                         DType::Int32, {1}));
    }

    void structuralOps() {
        const auto mt = inf("MakeTuple", {T(DType::Float32, {2}), I(3)});
        QCOMPARE(mt.abs->kind, Abstract::Kind::Tuple);
        QVERIFY(!mt.constant);
        const auto known = inf("MakeTuple", {I(1), I(2)});
        QVERIFY(known.constant && known.constant->kind == Value::Kind::Tuple);
        const auto tup = Tup({T(DType::Float32, {2}), T(DType::Int32, {3})});
        QVERIFY(isTensor(out("TupleGetItem", {tup, I(1)}), DType::Int32, {3}));
        QVERIFY(isTensor(out("TupleGetItem", {tup, I(-2)}), DType::Float32, {2}));
        QCOMPARE(inf("TupleGetItem", {C(known.constant), I(1)}).constant->i, 2);
        QCOMPARE(errOf("TupleGetItem", {tup, I(2)}),
                 QString("IndexError: For 'TupleGetItem', the index 2 is out of range for a tuple "
                         "of size 2."));
        const auto sw = inf("Switch", {C(Value::boolean(false)), I(1), I(2)});
        QCOMPARE(sw.constant->i, 2);
        QVERIFY(isTensor(
            out("Switch", {S(DType::Bool), T(DType::Float32, {2, 3}), T(DType::Float32, {2, 4})}),
            DType::Float32, {2, -1}));
        QCOMPARE(out("Switch", {T(DType::Bool, {}), InferArg::of(Abstract::func()),
                                InferArg::of(Abstract::func())})
                     ->kind,
                 Abstract::Kind::Func);
        QVERIFY(errOf("Switch", {S(DType::Bool), T(DType::Float32, {2}), T(DType::Int32, {2})})
                    .startsWith("TypeError: For 'Switch'"));
        QCOMPARE(out("Partial", {InferArg::of(Abstract::func()), I(1)})->kind,
                 Abstract::Kind::Func);
        QCOMPARE(inf("Return", {I(5)}).constant->i, 5);
    }

    void constantFolding() {
        // Tensor constant (+) Python scalar folds through the CPU kernel.
        const auto r = inf("Add", {K(DType::Int32, {3}, {1, 2, 3}), I(10)});
        QVERIFY(r.constant);
        QCOMPARE(r.constant->tensor->dtype, DType::Int32);
        QCOMPARE(tensorValues(r.constant), (std::vector<double>{11, 12, 13}));
        QVERIFY(r.abs->valueKnown);
        // Python scalars fold with Python's semantics.
        QCOMPARE(inf("Add", {I(3), I(4)}).constant->i, 7);
        QCOMPARE(inf("Add", {I(3), I(4)}).constant->dtype, DType::Int64);
        QCOMPARE(inf("FloorDiv", {I(-7), I(2)}).constant->i, -4);
        QCOMPARE(inf("FloorMod", {I(-7), I(2)}).constant->i, 1);
        QCOMPARE(inf("Mod", {I(-7), I(2)}).constant->i, -1);
        const auto half = inf("Div", {I(7), I(2)}).constant;
        QCOMPARE(half->kind, Value::Kind::Float);
        QCOMPARE(half->f, 3.5);
        QCOMPARE(inf("Mul", {F(1.5), I(2)}).constant->f, 3.0);
        QCOMPARE(inf("Pow", {I(2), I(10)}).constant->i, 1024);
        QCOMPARE(inf("Less", {I(2), F(2.5)}).constant->b, true);
        QCOMPARE(inf("Neg", {I(4)}).constant->i, -4);
        QCOMPARE(inf("Maximum", {I(4), I(9)}).constant->i, 9);
        QCOMPARE(errOf("FloorDiv", {I(1), I(0)}),
                 QString("ZeroDivisionError: integer division or modulo by zero"));
        QCOMPARE(errOf("Div", {F(1.0), I(0)}),
                 QString("ZeroDivisionError: float division by zero"));
        // Shape ops fold too; unknown inputs do not.
        const auto rs = inf("Reshape", {K(DType::Float32, {2, 2}, {1, 2, 3, 4}), Ints({4})});
        QCOMPARE(tensorValues(rs.constant), (std::vector<double>{1, 2, 3, 4}));
        QVERIFY(!inf("Add", {T(DType::Int32, {3}), I(1)}).constant);
        const auto sum = inf("ReduceSum", {K(DType::Float32, {2, 2}, {1, 2, 3, 4})});
        QCOMPARE(tensorValues(sum.constant), (std::vector<double>{10}));
        const auto st = inf(
            "Stack", {C(Value::tuple({Value::tensorValue(ir::scalarTensor(DType::Float32, 1)),
                                      Value::tensorValue(ir::scalarTensor(DType::Float32, 2))}))});
        QCOMPARE(tensorValues(st.constant), (std::vector<double>{1, 2}));
        const auto ln =
            inf("LayerNorm", {K(DType::Float32, {1, 2}, {1, 3}), K(DType::Float32, {2}, {1, 1}),
                              K(DType::Float32, {2}, {0, 0})});
        QCOMPARE(ln.constant->kind, Value::Kind::Tuple);
        QVERIFY(ln.abs->elements[0]->valueKnown);
        // Side-effect free but not foldable: Load and TensorMove keep their runtime meaning.
        QVERIFY(!inf("TensorMove", {K(DType::Float32, {1}, {1})}).constant);
    }

    void arity() {
        QCOMPARE(errOf("Add", {T(DType::Float32, {2})}),
                 QString("TypeError: For 'Add', the number of inputs must be 2, but got 1."));
        QCOMPARE(errOf("Neg", {T(DType::Float32, {2}), T(DType::Float32, {2})}),
                 QString("TypeError: For 'Neg', the number of inputs must be 1, but got 2."));
        QCOMPARE(errOf("Assign", {Ref(DType::Float32, {2})}),
                 QString("TypeError: For 'Assign', the number of inputs must be between 2 and 3, "
                         "but got 1."));
        QVERIFY(errOf("MakeTuple", {}).isEmpty());
        QVERIFY(errOf("NoSuchOp", {}).startsWith("RuntimeError"));
    }
};

QTEST_APPLESS_MAIN(TestOpsInfer)
#include "test_ops_infer.moc"
