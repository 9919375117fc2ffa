// The OpenCL device plugin on PoCL, through runtime::Device: every op the device claims is
// run on random inputs of every dtype it claims for that op (with broadcasting, scalar
// operands, reductions over several axis sets, transposed matmuls) and compared with the
// registry's CPU kernel within a dtype's tolerance. Also: the device is found through the
// install's plugin folder, kernels are cached (a second launch does not rebuild), bad
// launches give messages instead of crashes.
#include <QtTest>

#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <span>

#include "ops/op_registry.h"
#include "runtime/plugin_loader.h"

using namespace irscope;
using ir::DType;
using ir::Shape;
using ir::Value;
using ir::ValuePtr;
using ops::KernelArg;
using runtime::DevicePtr;
using runtime::DeviceTensor;
using runtime::KernelParam;
using ir::Tensor;

namespace {

const DType kDtypes[] = {DType::Bool,    DType::Int32,   DType::Int64,
                         DType::Float16, DType::Float32, DType::Float64};

ValuePtr ints(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> e;
    for (auto x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}

ir::AttrMap attrs(std::initializer_list<std::pair<const char*, ValuePtr>> kv) {
    ir::AttrMap m;
    for (const auto& [k, v] : kv) {
        m.set(k, v);
    }
    return m;
}

// One comparison: the CPU call (inputs incl. constants, attrs) and the device call.
struct Case {
    std::string op;
    std::string label;
    std::vector<KernelArg> cpuInputs;
    ir::AttrMap attrs;
    std::vector<Tensor> deviceInputs;
    std::vector<KernelParam> params;
};

class Random {
public:
    Tensor tensor(DType t, Shape s, double lo = -3.0, double hi = 3.0) {
        const auto n = static_cast<std::size_t>(s.elementCount());
        std::vector<double> v(n);
        for (auto& x : v) {
            if (t == DType::Bool) {
                x = static_cast<double>(gen_() % 2);
            } else if (ir::isFloat(t)) {
                x = std::uniform_real_distribution<double>(lo, hi)(gen_);
            } else {
                x = static_cast<double>(std::uniform_int_distribution<int>(
                    static_cast<int>(lo * 7), static_cast<int>(hi * 7))(gen_));
            }
        }
        return Tensor::fromDoubles(t, std::move(s), v);
    }

private:
    std::mt19937 gen_{20261125};
};

double tolerance(DType t) {
    switch (t) {
        case DType::Float16:
            return 0.0;  // claimed only where the device computes exactly the CPU's halves
        case DType::Float32:
            return 2e-5;
        default:
            return 1e-10;
    }
}

// Empty when equal within tolerance, else the first difference.
QString compare(const Tensor& got, const Tensor& want, double scale = 1.0) {
    if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
        return QStringLiteral("dtype/shape differ");
    }
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (!ir::isFloat(want.dtype())) {
            if (got.getInt(i) != want.getInt(i)) {
                return QStringLiteral("element %1: %2, the CPU gives %3")
                    .arg(i)
                    .arg(got.getInt(i))
                    .arg(want.getInt(i));
            }
            continue;
        }
        const double a = got.getDouble(i);
        const double b = want.getDouble(i);
        if (std::isnan(a) && std::isnan(b)) {
            continue;
        }
        if (std::isinf(a) || std::isinf(b) ? a != b
                                           : std::fabs(a - b) >
                                                 tolerance(want.dtype()) * scale *
                                                     (1.0 + std::fabs(b))) {
            return QStringLiteral("element %1: %2, the CPU gives %3").arg(i).arg(a, 0, 'g', 17).arg(
                b, 0, 'g', 17);
        }
    }
    return {};
}

}  // namespace

class TestOpenclDevice : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void foundInInstallFolder();
    void everyClaimedOpMatchesTheCpu();
    void scalarOperandsAndMixedDtypes();
    void largeMatMulAndReductions();
    void assignWritesInPlace();
    void kernelsAreCached();
    void badLaunchesGiveMessages();

private:
    // Runs `c` on the CPU and, when the device supports it, on the device; records the op
    // as covered. Returns false when the device does not claim these dtypes.
    bool check(const Case& c, double scale = 1.0);
    Tensor upload(const Tensor& t, DeviceTensor& out);
    std::vector<Tensor> runOnDevice(const Case& c, const std::vector<Tensor>& like);

    DevicePtr dev_;
    Random rnd_;
    std::set<std::string> covered_;
    int comparisons_ = 0;
};

void TestOpenclDevice::initTestCase() {
    std::vector<std::string> errors;
    dev_ = runtime::findDevice("opencl", &errors);
    QString msg;
    for (const auto& e : errors) {
        msg += QString::fromStdString(e) + "\n";
    }
    QVERIFY2(dev_, qPrintable("no OpenCL device: " + msg));
}

void TestOpenclDevice::foundInInstallFolder() {
    // Found without IRSCOPE_PLUGIN_PATH, from <exe>/../lib/irscope/plugins.
    QVERIFY(qgetenv("IRSCOPE_PLUGIN_PATH").isEmpty());
    const auto& info = dev_->info();
    QCOMPARE(info.name, std::string("opencl"));
    QVERIFY(QString::fromStdString(info.plugin).endsWith("lib/irscope/plugins/libirscope_opencl.so"));
    QVERIFY(!info.description.empty());
    QVERIFY(info.memoryBytes > 0);
    const auto ops = dev_->supportedOps();
    for (const char* op : {"Add", "MatMul", "BatchMatMul", "ReduceSum", "Softmax", "Select",
                           "Cast", "ReLU", "BiasAdd", "Fill"}) {
        QVERIFY2(std::find(ops.begin(), ops.end(), op) != ops.end(), op);
    }
    // Every claimed op is a registry op.
    for (const auto& op : ops) {
        QVERIFY2(ops::OpRegistry::instance().find(op), op.c_str());
    }
}

Tensor TestOpenclDevice::upload(const Tensor& t, DeviceTensor& out) {
    out.dtype = t.dtype();
    out.shape = t.shape();
    out.memory = dev_->allocate(t.nbytes());
    dev_->copyToDevice(*out.memory, t.bytes(), t.nbytes());
    return t;
}

std::vector<Tensor> TestOpenclDevice::runOnDevice(const Case& c, const std::vector<Tensor>& like) {
    std::vector<DeviceTensor> ins(c.deviceInputs.size());
    for (std::size_t i = 0; i < ins.size(); ++i) {
        upload(c.deviceInputs[i], ins[i]);
    }
    std::vector<Tensor> results;
    std::vector<DeviceTensor> outs;
    for (const Tensor& w : like) {
        results.emplace_back(w.dtype(), w.shape());
        outs.push_back({w.dtype(), w.shape(), dev_->allocate(w.nbytes())});
    }
    runtime::KernelLaunch k{c.op, ins, outs, c.params};
    dev_->launch(k);
    dev_->synchronize();
    for (std::size_t i = 0; i < outs.size(); ++i) {
        dev_->copyToHost(results[i].bytes(), *outs[i].memory, results[i].nbytes());
    }
    return results;
}

bool TestOpenclDevice::check(const Case& c, double scale) {
    const ops::OpDef* def = ops::OpRegistry::instance().find(c.op);
    if (!def) {
        qWarning("%s is not a registry op", c.op.c_str());
        return false;
    }
    KernelArg want;
    try {
        want = ops::OpRegistry::instance().run(*def, c.attrs, c.cpuInputs);
    } catch (const ops::OpError&) {
        return false;  // the CPU rejects these dtypes: nothing to compare
    }
    std::vector<Tensor> wants;
    if (want.isTensor()) {
        wants.push_back(want.tensor());
    } else if (want.isTuple()) {  // LayerNorm: y, mean, variance
        for (const KernelArg& e : want.elements()) {
            if (!e.isTensor()) {
                return false;
            }
            wants.push_back(e.tensor());
        }
    } else {
        return false;
    }
    std::vector<DType> in;
    for (const auto& t : c.deviceInputs) {
        in.push_back(t.dtype());
    }
    std::vector<DType> outs;
    for (const auto& w : wants) {
        outs.push_back(w.dtype());
    }
    if (!dev_->supports(c.op, in, outs)) {
        return false;
    }
    std::vector<Tensor> got;
    try {
        got = runOnDevice(c, wants);
    } catch (const runtime::DeviceError& e) {
        QTest::qFail(qPrintable(QString::fromStdString(c.op + " " + c.label + ": " + e.what())),
                     __FILE__, __LINE__);
        return false;
    }
    for (std::size_t i = 0; i < wants.size(); ++i) {
        const QString diff = compare(got[i], wants[i], scale);
        if (!diff.isEmpty()) {
            QTest::qFail(qPrintable(QString::fromStdString(
                                        c.op + " " + c.label + " output " + std::to_string(i) +
                                        " -> " + std::string(ir::dtypeName(wants[i].dtype())) +
                                        ": ") +
                                    diff),
                         __FILE__, __LINE__);
            return false;
        }
    }
    covered_.insert(c.op);
    ++comparisons_;
    return true;
}

void TestOpenclDevice::everyClaimedOpMatchesTheCpu() {
    const std::vector<std::pair<Shape, Shape>> binaryShapes = {
        {Shape{3, 4}, Shape{3, 4}}, {Shape{2, 1, 4}, Shape{3, 1}}, {Shape{5}, Shape{}}};
    const char* binary[] = {"Add",       "Sub",          "Mul",     "Div",        "RealDiv",
                            "FloorDiv",  "Mod",          "FloorMod", "Pow",       "Maximum",
                            "Minimum",   "Less",         "LessEqual", "Greater",  "GreaterEqual",
                            "Equal",     "NotEqual",     "LogicalAnd", "LogicalOr"};
    for (const char* op : binary) {
        for (DType t : kDtypes) {
            for (const auto& [sx, sy] : binaryShapes) {
                const bool pow = std::string_view(op) == "Pow";
                Tensor x = rnd_.tensor(t, sx, pow ? 0.1 : -3.0, 3.0);
                Tensor y = rnd_.tensor(t, sy, pow ? -0.4 : -3.0, pow ? 0.7 : 3.0);
                check({op, "x" + std::to_string(sx.rank()), {x, y}, {}, {x, y}, {}});
            }
        }
    }
    const char* unary[] = {"Neg",  "Abs",     "Square", "Exp",    "Log",   "Sqrt",
                           "ReLU", "Sigmoid", "Tanh",   "HSwish", "LogicalNot"};
    for (const char* op : unary) {
        for (DType t : kDtypes) {
            Tensor x = rnd_.tensor(t, Shape{4, 5}, -5.0, 5.0);
            check({op, "", {x}, {}, {x}, {}});
        }
    }
    for (DType t : kDtypes) {
        for (const char* approx : {"tanh", "none"}) {
            Tensor x = rnd_.tensor(t, Shape{3, 7});
            check({"GeLU",
                   approx,
                   {x},
                   attrs({{"approximate", Value::string(approx)}}),
                   {x},
                   {{"approximate", std::string(approx)}}});
        }
    }
    for (DType from : kDtypes) {
        for (DType to : kDtypes) {
            Tensor x = rnd_.tensor(from, Shape{2, 3, 2});
            check({"Cast", std::string(ir::dtypeName(to)), {x, Value::type(to)}, {}, {x}, {}});
        }
    }
    for (DType t : kDtypes) {
        Tensor cond = rnd_.tensor(DType::Bool, Shape{3, 1});
        Tensor x = rnd_.tensor(t, Shape{1, 4});
        Tensor y = rnd_.tensor(t, Shape{3, 4});
        check({"Select", "broadcast", {cond, x, y}, {}, {cond, x, y}, {}});
        Tensor z = rnd_.tensor(t, Shape{2, 3});
        check({"ZerosLike", "", {z}, {}, {z}, {}});
        check({"OnesLike", "", {z}, {}, {z}, {}});
        check({"Zeros", "", {ints({2, 3}), Value::type(t)}, {}, {}, {}});
        check({"Ones", "", {ints({4}), Value::type(t)}, {}, {}, {}});
        check({"Fill",
               "",
               {Value::type(t), ints({3, 2}), Value::floating(2.5)},
               {},
               {},
               {{"value", 2.5}}});
        check({"Fill",
               "int",
               {Value::type(t), ints({2}), Value::integer(-7)},
               {},
               {},
               {{"value", std::int64_t{-7}}}});
        check({"Reshape", "", {z, ints({3, 2})}, {}, {z}, {{"input_shape", std::vector<std::int64_t>{3, 2}}}});
        check({"TensorMove", "", {z}, {}, {z}, {}});
        check({"StopGradient", "", {z}, {}, {z}, {}});
        Tensor one = rnd_.tensor(t, Shape{2, 1, 3});
        check({"Squeeze", "", {one}, attrs({{"axis", ints({1})}}), {one}, {{"axis", std::vector<std::int64_t>{1}}}});
        check({"ExpandDims", "", {z, Value::integer(1)}, {}, {z}, {{"axis", std::int64_t{1}}}});
        Tensor x3 = rnd_.tensor(t, Shape{2, 3, 4});
        check({"Transpose",
               "",
               {x3, ints({2, 0, 1})},
               {},
               {x3},
               {{"input_perm", std::vector<std::int64_t>{2, 0, 1}}}});
        Tensor col = rnd_.tensor(t, Shape{3, 1});
        check({"BroadcastTo", "", {col}, attrs({{"shape", ints({2, 3, 4})}}), {col},
               {{"shape", std::vector<std::int64_t>{2, 3, 4}}}});
        check({"Tile", "", {z, ints({2, 1, 2})}, {}, {z},
               {{"multiples", std::vector<std::int64_t>{2, 1, 2}}}});
        Tensor a = rnd_.tensor(t, Shape{2, 3});
        Tensor b = rnd_.tensor(t, Shape{2, 3});
        check({"AddN", "", {KernelArg::tuple({z, a, b})}, {}, {z, a, b}, {}});
        Tensor c1 = rnd_.tensor(t, Shape{2, 1});
        Tensor c2 = rnd_.tensor(t, Shape{2, 4});
        check({"Concat", "axis 1", {KernelArg::tuple({z, c1, c2})},
               attrs({{"axis", Value::integer(1)}}), {z, c1, c2}, {{"axis", std::int64_t{1}}}});
        check({"Concat", "axis -2", {KernelArg::tuple({z, a})},
               attrs({{"axis", Value::integer(-2)}}), {z, a}, {{"axis", std::int64_t{-2}}}});
        for (std::int64_t axis : {0, 1, -1}) {
            check({"Stack", "axis " + std::to_string(axis), {KernelArg::tuple({z, a, b})},
                   attrs({{"axis", Value::integer(axis)}}), {z, a, b}, {{"axis", axis}}});
        }
        Tensor gp = rnd_.tensor(t, Shape{4, 3, 2});
        const std::vector<std::int64_t> iv{2, -1, 0, 1, -3, 2};
        Tensor i32 = Tensor::fromInts(DType::Int32, Shape{2, 3}, iv);
        Tensor i64 = Tensor::fromInts(DType::Int64, Shape{6}, iv);
        check({"Gather", "axis 1", {gp, i32, Value::integer(1)}, {}, {gp, i32},
               {{"axis", std::int64_t{1}}}});
        check({"Gather", "axis -1", {gp, i64.reshaped(Shape{6, 1}).clone(), Value::integer(-3)}, {},
               {gp, i64.reshaped(Shape{6, 1}).clone()}, {{"axis", std::int64_t{-3}}}});
        check({"Gather", "scalar index", {gp, Value::integer(-2), Value::integer(2)}, {}, {gp},
               {{"input_indices", std::int64_t{-2}}, {"axis", std::int64_t{2}}}});
        struct Slice {
            std::vector<std::int64_t> begin, end, strides;
            std::int64_t beginMask, endMask, ellipsis, newAxis, shrink;
        };
        const Slice slices[] = {{{1, 0, 0}, {3, 5, 6}, {1, 1, 1}, 0, 0, 0, 0, 0},
                                {{0, -1, 0}, {4, 0, 6}, {2, -2, 3}, 0, 0, 0, 0, 0},
                                {{1, 2}, {2, 3}, {1, 1}, 0, 0, 0, 0, 3},
                                {{0, 0, 1}, {0, 0, 3}, {1, 1, 1}, 0, 0, 1, 2, 0},
                                {{0, 0, 0}, {0, 0, 0}, {1, 1, -1}, 7, 7, 0, 0, 0},
                                {{-1, 9, -7}, {-9, 1, 2}, {-1, 1, 2}, 0, 0, 0, 0, 0}};
        Tensor sliced = rnd_.tensor(t, Shape{4, 5, 6});
        for (const Slice& sl : slices) {
            check({"StridedSlice",
                   "masks " + std::to_string(sl.beginMask) + std::to_string(sl.endMask) +
                       std::to_string(sl.ellipsis) + std::to_string(sl.newAxis) +
                       std::to_string(sl.shrink),
                   {sliced, ints(sl.begin), ints(sl.end), ints(sl.strides)},
                   attrs({{"begin_mask", Value::integer(sl.beginMask)},
                          {"end_mask", Value::integer(sl.endMask)},
                          {"ellipsis_mask", Value::integer(sl.ellipsis)},
                          {"new_axis_mask", Value::integer(sl.newAxis)},
                          {"shrink_axis_mask", Value::integer(sl.shrink)}}),
                   {sliced},
                   {{"begin", sl.begin},
                    {"end", sl.end},
                    {"strides", sl.strides},
                    {"begin_mask", sl.beginMask},
                    {"end_mask", sl.endMask},
                    {"ellipsis_mask", sl.ellipsis},
                    {"new_axis_mask", sl.newAxis},
                    {"shrink_axis_mask", sl.shrink}}});
        }
        // Assign* write the variable in place on the CPU: it gets a copy.
        for (const char* op : {"Assign", "AssignAdd", "AssignSub"}) {
            Tensor var = rnd_.tensor(t, Shape{2, 3});
            Tensor val = rnd_.tensor(t, Shape{2, 3});
            Tensor single = rnd_.tensor(DType::Float32, Shape{});
            check({op, "tensor", {var.clone(), val}, {}, {var, val}, {}});
            check({op, "one element", {var.clone(), single}, {}, {var, single}, {}});
            check({op, "number", {var.clone(), Value::integer(3)}, {}, {var},
                   {{"value", std::int64_t{3}}}});
        }
        const std::vector<std::pair<Shape, Shape>> extShapes = {{Shape{5}, Shape{5, 3}},
                                                                {Shape{2, 4, 5}, Shape{5}},
                                                                {Shape{5}, Shape{5}},
                                                                {Shape{2, 1, 3, 5}, Shape{4, 5, 2}}};
        for (const auto& [sx, sy] : extShapes) {
            Tensor ex = rnd_.tensor(t, sx);
            Tensor ey = rnd_.tensor(t, sy);
            check({"MatMulExt", "rank " + std::to_string(sx.rank()) + "@" + std::to_string(sy.rank()),
                   {ex, ey}, {}, {ex, ey}, {}}, 10.0);
        }
    }
    const char* reduce[] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"};
    const std::vector<std::vector<std::int64_t>> axesSets = {{}, {1}, {0, 2}, {-1}};
    for (const char* op : reduce) {
        for (DType t : kDtypes) {
            const bool prod = std::string_view(op) == "ReduceProd";
            Tensor x = rnd_.tensor(t, Shape{3, 4, 5}, prod ? 0.5 : -3.0, prod ? 1.5 : 3.0);
            for (const auto& axes : axesSets) {
                for (bool keep : {false, true}) {
                    check({op,
                           "axes " + std::to_string(axes.size()) + (keep ? " keep" : ""),
                           {x, ints(axes)},
                           attrs({{"keep_dims", Value::boolean(keep)}}),
                           {x},
                           {{"axis", axes}, {"keep_dims", keep}}},
                          10.0);
                }
            }
        }
    }
    for (DType t : kDtypes) {
        for (bool ta : {false, true}) {
            for (bool tb : {false, true}) {
                Tensor x = rnd_.tensor(t, ta ? Shape{7, 5} : Shape{5, 7});
                Tensor y = rnd_.tensor(t, tb ? Shape{3, 7} : Shape{7, 3});
                const ir::AttrMap am = attrs(
                    {{"transpose_a", Value::boolean(ta)}, {"transpose_b", Value::boolean(tb)}});
                const std::vector<KernelParam> params = {{"transpose_a", ta}, {"transpose_b", tb}};
                check({"MatMul", "", {x, y}, am, {x, y}, params}, 10.0);
                Tensor bx = rnd_.tensor(t, ta ? Shape{2, 1, 7, 5} : Shape{2, 1, 5, 7});
                Tensor by = rnd_.tensor(t, tb ? Shape{3, 3, 7} : Shape{3, 7, 3});
                check({"BatchMatMul", "broadcast", {bx, by}, am, {bx, by}, params}, 10.0);
            }
        }
        Tensor x = rnd_.tensor(t, Shape{3, 4, 5});
        for (std::int64_t axis : {-1, 1, 0}) {
            check({"Softmax", "axis " + std::to_string(axis), {x}, attrs({{"axis", Value::integer(axis)}}),
                   {x}, {{"axis", axis}}});
        }
        for (const auto& [norm, params] : {std::pair{1, 1}, std::pair{-1, -1}, std::pair{2, 1}}) {
            Tensor g = rnd_.tensor(t, Shape(std::vector<std::int64_t>(
                                          x.shape().dims.begin() + (params < 0 ? 2 : params),
                                          x.shape().dims.end())));
            Tensor b = rnd_.tensor(t, g.shape());
            check({"LayerNorm", "norm " + std::to_string(norm) + " params " + std::to_string(params),
                   {x, g, b},
                   attrs({{"begin_norm_axis", Value::integer(norm)},
                          {"begin_params_axis", Value::integer(params)},
                          {"epsilon", Value::floating(1e-5)}}),
                   {x, g, b},
                   {{"begin_norm_axis", std::int64_t{norm}},
                    {"begin_params_axis", std::int64_t{params}},
                    {"epsilon", 1e-5}}},
                  10.0);
        }
        Tensor bias = rnd_.tensor(t, Shape{4});
        check({"BiasAdd", "NCHW", {x.reshaped(Shape{3, 4, 5}), bias}, {}, {x, bias}, {}});
        Tensor nhwc = rnd_.tensor(t, Shape{2, 3, 4});
        check({"BiasAdd", "NHWC", {nhwc, bias}, attrs({{"data_format", Value::string("NHWC")}}),
               {nhwc, bias}, {{"data_format", std::string("NHWC")}}});
    }
    // Conv2D, MaxPool, AvgPool (NCHW) with MindSpore's attributes as a MindIR file has them
    // (4-tuples, pad_list) and as a script's primitive has them (ints, pad), and Flatten.
    for (DType t : kDtypes) {
        Tensor x = rnd_.tensor(t, Shape{2, 4, 7, 6});
        Tensor w = rnd_.tensor(t, Shape{6, 4, 3, 3});
        Tensor wg = rnd_.tensor(t, Shape{6, 2, 3, 2});
        struct ConvCase {
            const char* label;
            Tensor weight;
            std::vector<std::pair<const char*, ValuePtr>> attrs;
            std::vector<KernelParam> params;
        };
        const std::vector<ConvCase> convs = {
            {"valid",
             w,
             {{"pad_mode", Value::string("valid")}, {"kernel_size", ints({3, 3})}},
             {{"pad_mode", std::string("valid")},
              {"kernel_size", std::vector<std::int64_t>{3, 3}}}},
            {"same stride 2",
             w,
             {{"pad_mode", Value::string("same")},
              {"kernel_size", ints({3, 3})},
              {"stride", ints({1, 1, 2, 2})}},
             {{"pad_mode", std::string("same")},
              {"kernel_size", std::vector<std::int64_t>{3, 3}},
              {"stride", std::vector<std::int64_t>{1, 1, 2, 2}}}},
            {"pad_list dilation 2",
             w,
             {{"pad_mode", Value::string("pad")},
              {"kernel_size", ints({3, 3})},
              {"pad_list", ints({2, 1, 0, 3})},
              {"dilation", ints({1, 1, 2, 2})}},
             {{"pad_mode", std::string("pad")},
              {"kernel_size", std::vector<std::int64_t>{3, 3}},
              {"pad_list", std::vector<std::int64_t>{2, 1, 0, 3}},
              {"dilation", std::vector<std::int64_t>{1, 1, 2, 2}}}},
            {"group 2",
             wg,
             {{"pad_mode", Value::string("pad")},
              {"pad", Value::integer(1)},
              {"kernel_size", ints({3, 2})},
              {"group", Value::integer(2)}},
             {{"pad_mode", std::string("pad")},
              {"pad", std::int64_t{1}},
              {"kernel_size", std::vector<std::int64_t>{3, 2}},
              {"group", std::int64_t{2}}}},
        };
        for (const ConvCase& cc : convs) {
            ir::AttrMap am;
            for (const auto& [k, v] : cc.attrs) {
                am.set(k, v);
            }
            check({"Conv2D", cc.label, {x, cc.weight}, am, {x, cc.weight}, cc.params}, 10.0);
        }
        for (const char* op : {"MaxPool", "AvgPool"}) {
            for (const char* mode : {"VALID", "SAME"}) {
                check({op,
                       mode,
                       {x},
                       attrs({{"pad_mode", Value::string(mode)},
                              {"kernel_size", ints({1, 1, 3, 2})},
                              {"strides", ints({1, 1, 2, 2})}}),
                       {x},
                       {{"pad_mode", std::string(mode)},
                        {"kernel_size", std::vector<std::int64_t>{1, 1, 3, 2}},
                        {"strides", std::vector<std::int64_t>{1, 1, 2, 2}}}});
            }
        }
        check({"Flatten", "", {x}, {}, {x}, {}});
    }
    // Every op the device claims was compared at least once.
    QStringList missing;
    for (const auto& op : dev_->supportedOps()) {
        if (!covered_.contains(op)) {
            missing << QString::fromStdString(op);
        }
    }
    QVERIFY2(missing.isEmpty(), qPrintable("not compared: " + missing.join(", ")));
    qInfo("%d comparisons over %zu ops", comparisons_, covered_.size());
    // float16 needs no cl_khr_fp16 (halves are loaded and stored through float): it is
    // claimed where the result is exactly the CPU's (and compared above), not for
    // transcendental functions or accumulations.
    const DType h[] = {DType::Float16, DType::Float16};
    const DType hOut[] = {DType::Float16};
    QVERIFY(dev_->supports("Add", h, hOut));
    QVERIFY(dev_->supports("Neg", std::span(h, 1), hOut));
    QVERIFY(!dev_->supports("Exp", std::span(h, 1), hOut));
    QVERIFY(!dev_->supports("ReduceSum", std::span(h, 1), hOut));
    QVERIFY(!dev_->supports("MatMul", h, hOut));
}

void TestOpenclDevice::scalarOperandsAndMixedDtypes() {
    covered_.clear();
    Tensor f = rnd_.tensor(DType::Float32, Shape{2, 3});
    Tensor i = rnd_.tensor(DType::Int32, Shape{2, 3});
    // A Python number operand arrives as a param named after the input.
    QVERIFY(check({"Add", "y=2.5", {f, Value::floating(2.5)}, {}, {f}, {{"y", 2.5}}}));
    QVERIFY(check({"Sub", "x=1", {Value::integer(1), i}, {}, {i}, {{"x", std::int64_t{1}}}}));
    QVERIFY(check({"Mul", "int*float", {i, Value::floating(0.5)}, {}, {i}, {{"y", 0.5}}}));
    QVERIFY(check({"Less", "y=0", {f, Value::integer(0)}, {}, {f}, {{"y", std::int64_t{0}}}}));
    // Tensors of different dtypes promote as on the CPU.
    QVERIFY(check({"Add", "i32+f32", {i, f}, {}, {i, f}, {}}));
    QVERIFY(check({"Div", "i32/i32", {i, i}, {}, {i, i}, {}}));
    QVERIFY(check({"Greater", "i32>f32", {i, f}, {}, {i, f}, {}}));
    // Integer division by zero gives 0, as the CPU kernel.
    Tensor z = Tensor::fromDoubles(DType::Int32, Shape{3}, std::vector<double>{0, 0, 0});
    Tensor n = Tensor::fromDoubles(DType::Int32, Shape{3}, std::vector<double>{-7, 0, 9});
    for (const char* op : {"FloorDiv", "Mod", "FloorMod"}) {
        QVERIFY(check({op, "by zero", {n, z}, {}, {n, z}, {}}));
    }
}

void TestOpenclDevice::largeMatMulAndReductions() {
    // Sizes that are not multiples of the 16x16 tiles, and a full reduction of 100k values.
    Tensor x = rnd_.tensor(DType::Float32, Shape{67, 45});
    Tensor y = rnd_.tensor(DType::Float32, Shape{45, 33});
    QVERIFY(check({"MatMul", "67x45x33", {x, y}, {}, {x, y}, {}}, 10.0));
    Tensor big = rnd_.tensor(DType::Float32, Shape{100, 1000}, 0.0, 1.0);
    QVERIFY(check({"ReduceSum", "all", {big, ints({})}, {}, {big}, {}}, 100.0));
    QVERIFY(check({"ReduceMean", "axis 0", {big, ints({0})}, {}, {big}, {{"axis", std::vector<std::int64_t>{0}}}}, 10.0));
    Tensor d = rnd_.tensor(DType::Float64, Shape{64, 64});
    QVERIFY(check({"MatMul", "f64 64^3", {d, d}, attrs({{"transpose_b", Value::boolean(true)}}), {d, d},
                   {{"transpose_b", true}}}));
}

void TestOpenclDevice::assignWritesInPlace() {
    // As the executor launches it: the variable's buffer is also the output.
    Tensor var = Tensor::fromDoubles(DType::Float32, Shape{3}, std::vector<double>{1, 2, 3});
    Tensor val = Tensor::fromDoubles(DType::Float32, Shape{3}, std::vector<double>{10, 20, 30});
    DeviceTensor ins[2];
    upload(var, ins[0]);
    upload(val, ins[1]);
    dev_->launch({"AssignAdd", ins, std::span(ins, 1), {}});
    dev_->launch({"AssignSub", ins, std::span(ins, 1), {}});
    dev_->launch({"AssignAdd", ins, std::span(ins, 1), {}});
    Tensor back(DType::Float32, Shape{3});
    dev_->copyToHost(back.bytes(), *ins[0].memory, 12);
    QCOMPARE(back.getDouble(0), 11.0);
    QCOMPARE(back.getDouble(2), 33.0);
    const KernelParam five[] = {{"value", 5.0}};
    dev_->launch({"Assign", std::span(ins, 1), std::span(ins, 1), five});
    dev_->copyToHost(back.bytes(), *ins[0].memory, 12);
    QCOMPARE(back.getDouble(1), 5.0);
}

void TestOpenclDevice::kernelsAreCached() {
    Tensor x = rnd_.tensor(DType::Float32, Shape{1000});
    Case c{"Sigmoid", "", {x}, {}, {x}, {}};
    QVERIFY(check(c));  // built (or already built above)
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 5; ++k) {
        runOnDevice(c, {x});
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
    // A rebuild costs PoCL hundreds of milliseconds per kernel; five cached launches do not.
    QVERIFY2(ms < 2000, qPrintable(QString::number(ms) + " ms"));
}

void TestOpenclDevice::badLaunchesGiveMessages() {
    Tensor x = rnd_.tensor(DType::Float32, Shape{2, 3});
    Tensor y = rnd_.tensor(DType::Float32, Shape{4});
    DeviceTensor ins[2];
    upload(x, ins[0]);
    upload(y, ins[1]);
    DeviceTensor out{DType::Float32, Shape{2, 3}, dev_->allocate(24)};
    // Shapes that do not broadcast.
    try {
        dev_->launch({"Add", ins, std::span(&out, 1), {}});
        QFAIL("no error");
    } catch (const runtime::DeviceError& e) {
        const QString msg = e.what();
        QVERIFY2(msg.contains("For 'Add'") && msg.contains("broadcast"), e.what());
        QVERIFY2(msg.contains("opencl"), e.what());
    }
    // An op the device does not have.
    try {
        dev_->launch({"LayerNorm", std::span(ins, 1), std::span(&out, 1), {}});
        QFAIL("no error");
    } catch (const runtime::DeviceError& e) {
        QVERIFY2(QString(e.what()).contains("LayerNorm"), e.what());
    }
    // An output larger than its buffer.
    DeviceTensor small{DType::Float32, Shape{100}, dev_->allocate(8)};
    QVERIFY_THROWS_EXCEPTION(runtime::DeviceError,
                             dev_->launch({"Neg", std::span(ins, 1), std::span(&small, 1), {}}));
    // Copies larger than the buffer.
    std::vector<float> host(100);
    QVERIFY_THROWS_EXCEPTION(runtime::DeviceError,
                             dev_->copyToDevice(*small.memory, host.data(), 400));
    QVERIFY(!dev_->supports("Add", std::vector<DType>{DType::String, DType::Float32},
                            std::vector<DType>{DType::Float32}));
    QVERIFY(!dev_->supports("NoSuchOp", {}, {}));
    // A Gather index out of range: the CPU's IndexError message.
    Tensor idx = Tensor::fromInts(DType::Int32, Shape{2}, std::vector<std::int64_t>{1, 5});
    DeviceTensor gin[2];
    upload(x, gin[0]);
    upload(idx, gin[1]);
    DeviceTensor gout{DType::Float32, Shape{2, 2}, dev_->allocate(16)};
    const KernelParam axis[] = {{"axis", std::int64_t{1}}};
    try {
        dev_->launch({"Gather", gin, std::span(&gout, 1), axis});
        QFAIL("no error");
    } catch (const runtime::DeviceError& e) {
        QVERIFY2(QString(e.what()).contains(
                     "For 'Gather', index 5 is out of bounds for axis 1 with size 3."),
                 e.what());
    }
    dev_->synchronize();  // the queue is still usable
}

QTEST_GUILESS_MAIN(TestOpenclDevice)
#include "test_opencl_device.moc"
