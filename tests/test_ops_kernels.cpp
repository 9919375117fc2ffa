// CPU kernels of the primitive registry: values against hand-computed (or brute-force)
// expectations for every kernel, broadcasting, every dtype family, numpy/MindSpore integer
// division and modulo signs, softmax/layernorm numerics, Assign writing in place so that an
// alias (a Load) sees the write, and TensorMove copying.
#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "ops/op_registry.h"

using namespace irscope;
using namespace irscope::ops;
using ir::AttrMap;
using ir::DType;
using ir::Shape;
using ir::Value;
using ir::Tensor;

namespace {

const OpRegistry& reg() {
    return OpRegistry::instance();
}

Tensor mk(DType t, Shape s, std::vector<double> v) {
    return Tensor::fromDoubles(t, std::move(s), v);
}
Tensor mki(DType t, Shape s, std::vector<std::int64_t> v) {
    return Tensor::fromInts(t, std::move(s), v);
}
Tensor iota(DType t, Shape s, double start = 0) {
    std::vector<double> v(static_cast<std::size_t>(s.elementCount()));
    std::iota(v.begin(), v.end(), start);
    return mk(t, std::move(s), v);
}
std::vector<double> vals(const Tensor& t) {
    std::vector<double> v;
    for (std::size_t i = 0; i < t.size(); ++i) {
        v.push_back(t.getDouble(i));
    }
    return v;
}
std::vector<std::int64_t> ivals(const Tensor& t) {
    std::vector<std::int64_t> v;
    for (std::size_t i = 0; i < t.size(); ++i) {
        v.push_back(t.getInt(i));
    }
    return v;
}
ir::ValuePtr ints(std::vector<std::int64_t> v) {
    std::vector<ir::ValuePtr> e;
    for (auto x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}
AttrMap attrs(std::initializer_list<std::pair<const char*, ir::ValuePtr>> kv) {
    AttrMap m;
    for (const auto& [k, v] : kv) {
        m.set(k, v);
    }
    return m;
}

KernelArg run(const char* op, std::vector<KernelArg> in, const AttrMap& a = {}) {
    return reg().run(op, in, a);
}
Tensor runT(const char* op, std::vector<KernelArg> in, const AttrMap& a = {}) {
    KernelArg r = run(op, std::move(in), a);
    if (!r.isTensor()) {
        throw std::runtime_error(std::string(op) + " did not return a tensor");
    }
    return r.tensor();
}

QString err(const std::function<void()>& f) {
    try {
        f();
    } catch (const OpError& e) {
        return QString::fromStdString(std::string(errorKindName(e.kind())) + ": " + e.what());
    }
    return {};
}

bool near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-6) {
    bool ok = got.size() == want.size();
    for (std::size_t i = 0; ok && i < got.size(); ++i) {
        const bool bothNan = std::isnan(got[i]) && std::isnan(want[i]);
        ok = bothNan || std::abs(got[i] - want[i]) <= tol * std::max(1.0, std::abs(want[i]));
    }
    if (!ok) {
        QString g;
        QString w;
        for (double d : got) {
            g += QString::number(d, 'g', 9) + " ";
        }
        for (double d : want) {
            w += QString::number(d, 'g', 9) + " ";
        }
        qWarning().noquote() << "got:" << g << "\nwant:" << w;
    }
    return ok;
}

// Row-major multi-index helpers for brute-force references.
std::vector<std::int64_t> unravel(std::int64_t flat, const std::vector<std::int64_t>& dims) {
    std::vector<std::int64_t> idx(dims.size());
    for (std::size_t i = dims.size(); i-- > 0;) {
        idx[i] = flat % dims[i];
        flat /= dims[i];
    }
    return idx;
}
std::int64_t ravel(const std::vector<std::int64_t>& idx, const std::vector<std::int64_t>& dims) {
    std::int64_t flat = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        flat = flat * dims[i] + idx[i];
    }
    return flat;
}

// numpy-style broadcast reference for a binary function.
std::vector<double> bcastRef(const Tensor& x, const Tensor& y, const Shape& out,
                             const std::function<double(double, double)>& f) {
    std::vector<double> r;
    const auto n = out.elementCount();
    for (std::int64_t i = 0; i < n; ++i) {
        const auto idx = unravel(i, out.dims);
        auto pick = [&](const Tensor& t) {
            std::vector<std::int64_t> ti(t.rank());
            const std::size_t off = out.rank() - t.rank();
            for (std::size_t k = 0; k < t.rank(); ++k) {
                ti[k] = t.shape().dims[k] == 1 ? 0 : idx[k + off];
            }
            return t.getDouble(static_cast<std::size_t>(ravel(ti, t.shape().dims)));
        };
        r.push_back(f(pick(x), pick(y)));
    }
    return r;
}

}  // namespace

class TestOpsKernels : public QObject {
    Q_OBJECT

private slots:
    void addBroadcasting() {
        QCOMPARE(vals(runT("Add", {iota(DType::Float32, {2, 3}, 1),
                                   mk(DType::Float32, {3}, {10, 20, 30})})),
                 (std::vector<double>{11, 22, 33, 14, 25, 36}));
        QCOMPARE(vals(runT("Add", {mk(DType::Float32, {2, 1}, {1, 2}),
                                   mk(DType::Float32, {1, 3}, {10, 20, 30})})),
                 (std::vector<double>{11, 21, 31, 12, 22, 32}));
        const Tensor x = iota(DType::Float32, {4, 1, 5});
        const Tensor y = iota(DType::Float32, {3, 1}, 100);
        for (const char* op : {"Add", "Sub", "Mul", "Maximum"}) {
            const Tensor r = runT(op, {x, y});
            QCOMPARE(r.shape(), (Shape{4, 3, 5}));
            std::function<double(double, double)> f;
            if (std::string_view(op) == "Add") {
                f = [](double a, double b) { return a + b; };
            } else if (std::string_view(op) == "Sub") {
                f = [](double a, double b) { return a - b; };
            } else if (std::string_view(op) == "Mul") {
                f = [](double a, double b) { return a * b; };
            } else {
                f = [](double a, double b) { return std::max(a, b); };
            }
            QVERIFY(near(vals(r), bcastRef(x, y, r.shape(), f)));
        }
        // Reversed operand order and a broadcast on both sides in many dims.
        const Tensor a = iota(DType::Int32, {2, 1, 3, 1});
        const Tensor b = iota(DType::Int32, {1, 4, 1, 2}, 1);
        const Tensor r = runT("Mul", {b, a});
        QCOMPARE(r.shape(), (Shape{2, 4, 3, 2}));
        QCOMPARE(vals(r), bcastRef(b, a, r.shape(), [](double p, double q) { return p * q; }));
        QCOMPARE(
            runT("Add", {Tensor(DType::Float32, {0, 3}), mk(DType::Float32, {1, 3}, {1, 2, 3})})
                .shape(),
            (Shape{0, 3}));
        QCOMPARE(err([&] {
                     run("Add", {iota(DType::Float32, {2, 3}), iota(DType::Float32, {4})});
                 }),
                 QString("ValueError: For 'Add', x.shape and y.shape need to broadcast, but got "
                         "x.shape: [2, 3], y.shape: [4]."));
    }

    void dtypeFamilies_data() {
        QTest::addColumn<QString>("dtype");
        for (const char* t :
             {"Int8", "Int16", "Int32", "Int64", "UInt8", "Float16", "Float32", "Float64"}) {
            QTest::newRow(t) << QString(t);
        }
    }
    void dtypeFamilies() {
        QFETCH(QString, dtype);
        const DType t = *ir::dtypeFromName(dtype.toStdString());
        const Tensor x = mk(t, {3}, {1, 2, 3});
        const Tensor y = mk(t, {3}, {4, 5, 6});
        const Tensor s = runT("Add", {x, y});
        QCOMPARE(s.dtype(), t);
        QCOMPARE(vals(s), (std::vector<double>{5, 7, 9}));
        QCOMPARE(vals(runT("Mul", {x, y})), (std::vector<double>{4, 10, 18}));
        QCOMPARE(vals(runT("Sub", {y, x})), (std::vector<double>{3, 3, 3}));
        QCOMPARE(vals(runT("Maximum", {x, mk(t, {1}, {2})})), (std::vector<double>{2, 2, 3}));
        QCOMPARE(vals(runT("Minimum", {x, mk(t, {1}, {2})})), (std::vector<double>{1, 2, 2}));
        QCOMPARE(vals(runT("FloorDiv", {y, x})), (std::vector<double>{4, 2, 2}));
        QCOMPARE(vals(runT("FloorMod", {y, x})), (std::vector<double>{0, 1, 0}));
        QCOMPARE(vals(runT("Pow", {x, mk(t, {3}, {2, 2, 2})})), (std::vector<double>{1, 4, 9}));
        QCOMPARE(vals(runT("Less", {x, mk(t, {3}, {2, 2, 2})})), (std::vector<double>{1, 0, 0}));
        QCOMPARE(runT("Less", {x, y}).dtype(), DType::Bool);
        QCOMPARE(vals(runT("Abs", {x})), (std::vector<double>{1, 2, 3}));
        QCOMPARE(vals(runT("Square", {x})), (std::vector<double>{1, 4, 9}));
        QCOMPARE(vals(runT("ReduceSum", {x})), (std::vector<double>{6}));
        QCOMPARE(vals(runT("ReduceMax", {x})), (std::vector<double>{3}));
        QCOMPARE(vals(runT("Transpose", {mk(t, {2, 2}, {1, 2, 3, 4}), ints({1, 0})})),
                 (std::vector<double>{1, 3, 2, 4}));
        const Tensor sel = runT("Select", {mki(DType::Bool, {3}, {1, 0, 1}), x, y});
        QCOMPARE(sel.dtype(), t);
        QCOMPARE(vals(sel), (std::vector<double>{1, 5, 3}));
    }

    void boolAndWrapping() {
        const Tensor a = mki(DType::Bool, {3}, {1, 0, 1});
        const Tensor b = mki(DType::Bool, {3}, {0, 0, 1});
        QCOMPARE(ivals(runT("Add", {a, b})), (std::vector<std::int64_t>{1, 0, 1}));  // or
        QCOMPARE(ivals(runT("Mul", {a, b})), (std::vector<std::int64_t>{0, 0, 1}));  // and
        QCOMPARE(runT("Add", {a, b}).dtype(), DType::Bool);
        QCOMPARE(ivals(runT("Add", {mki(DType::UInt8, {1}, {250}), mki(DType::UInt8, {1}, {10})})),
                 (std::vector<std::int64_t>{4}));
        QCOMPARE(ivals(runT("Add", {mki(DType::Int8, {1}, {127}), mki(DType::Int8, {1}, {1})})),
                 (std::vector<std::int64_t>{-128}));
        QCOMPARE(ivals(runT("Neg", {mki(DType::UInt8, {1}, {1})})),
                 (std::vector<std::int64_t>{255}));
    }

    void tensorWithPythonScalar() {
        const Tensor i32 = mki(DType::Int32, {2}, {1, 2});
        const Tensor a = runT("Add", {i32, Value::integer(3)});
        QCOMPARE(a.dtype(), DType::Int32);
        QCOMPARE(ivals(a), (std::vector<std::int64_t>{4, 5}));
        const Tensor f = runT("Add", {i32, Value::floating(0.5)});
        QCOMPARE(f.dtype(), DType::Float32);
        QCOMPARE(vals(f), (std::vector<double>{1.5, 2.5}));
        const Tensor b = runT("Add", {mki(DType::Bool, {2}, {1, 0}), Value::integer(1)});
        QCOMPARE(b.dtype(), DType::Int32);
        QCOMPARE(ivals(b), (std::vector<std::int64_t>{2, 1}));
        const Tensor h = runT("Mul", {mk(DType::Float16, {1}, {1.5}), Value::integer(2)});
        QCOMPARE(h.dtype(), DType::Float16);
        QCOMPARE(vals(h), (std::vector<double>{3}));
        QCOMPARE(ivals(runT("Sub", {Value::integer(10), i32})), (std::vector<std::int64_t>{9, 8}));
        const Tensor big =
            runT("Add", {mki(DType::Int64, {1}, {(std::int64_t{1} << 60) + 1}), Value::integer(1)});
        QCOMPARE(big.getInt(0), (std::int64_t{1} << 60) + 2);  // exact in Int64
        // Python scalars alone keep Python semantics.
        const KernelArg s = run("FloorDiv", {Value::integer(-7), Value::integer(2)});
        QVERIFY(s.isValue());
        QCOMPARE(s.value()->i, -4);
        QCOMPARE(run("Div", {Value::integer(1), Value::integer(4)}).value()->f, 0.25);
        QCOMPARE(run("Neg", {Value::integer(5)}).value()->i, -5);
        QCOMPARE(run("Exp", {Value::integer(0)}).value()->f, 1.0);
        QCOMPARE(run("LogicalNot", {Value::boolean(true)}).value()->b, false);
    }

    void divisionSigns() {
        const Tensor a = mki(DType::Int32, {4}, {7, -7, 7, -7});
        const Tensor b = mki(DType::Int32, {4}, {2, 2, -2, -2});
        QCOMPARE(ivals(runT("FloorDiv", {a, b})), (std::vector<std::int64_t>{3, -4, -4, 3}));
        QCOMPARE(ivals(runT("Mod", {a, b})), (std::vector<std::int64_t>{1, -1, 1, -1}));
        QCOMPARE(ivals(runT("FloorMod", {a, b})), (std::vector<std::int64_t>{1, 1, -1, -1}));
        const Tensor d = runT("Div", {a, b});
        QCOMPARE(d.dtype(), DType::Float32);
        QCOMPARE(vals(d), (std::vector<double>{3.5, -3.5, -3.5, 3.5}));
        QCOMPARE(runT("RealDiv", {a, b}).dtype(), DType::Float32);
        QCOMPARE(ivals(runT("FloorDiv", {mki(DType::Int8, {1}, {-7}), mki(DType::Int8, {1}, {2})})),
                 (std::vector<std::int64_t>{-4}));
        QCOMPARE(ivals(runT("FloorMod", {mki(DType::Int64, {3}, {2, 4, -1}), Value::integer(3)})),
                 (std::vector<std::int64_t>{2, 1, 2}));
        // Floats: floor rounding and the remainder signs.
        QCOMPARE(vals(runT("FloorDiv", {mk(DType::Float32, {2}, {7.5, -7.5}), Value::floating(2)})),
                 (std::vector<double>{3, -4}));
        QCOMPARE(vals(runT("FloorMod",
                           {mk(DType::Float64, {2}, {-1, 5.5}), mk(DType::Float64, {2}, {3, -2})})),
                 (std::vector<double>{2, -0.5}));
        QCOMPARE(vals(runT("Mod", {mk(DType::Float32, {3}, {-4, 5, 6}),
                                   mk(DType::Float32, {3}, {3, 2, 3})})),
                 (std::vector<double>{-1, 1, 0}));
        // Integer division by zero gives 0 (numpy); MIN // -1 wraps.
        QCOMPARE(
            ivals(runT("FloorDiv", {mki(DType::Int32, {1}, {5}), mki(DType::Int32, {1}, {0})})),
            (std::vector<std::int64_t>{0}));
        QCOMPARE(
            ivals(runT("FloorMod", {mki(DType::Int32, {1}, {5}), mki(DType::Int32, {1}, {0})})),
            (std::vector<std::int64_t>{0}));
        const auto mn = std::numeric_limits<std::int32_t>::min();
        QCOMPARE(
            ivals(runT("FloorDiv", {mki(DType::Int32, {1}, {mn}), mki(DType::Int32, {1}, {-1})})),
            (std::vector<std::int64_t>{mn}));
        QVERIFY(std::isinf(runT("Div", {mk(DType::Float32, {1}, {1}), mk(DType::Float32, {1}, {0})})
                               .getDouble(0)));
    }

    void powMaxMin() {
        QCOMPARE(ivals(runT("Pow", {mki(DType::Int32, {3}, {2, 3, -2}),
                                    mki(DType::Int32, {3}, {3, 2, 3})})),
                 (std::vector<std::int64_t>{8, 9, -8}));
        QCOMPARE(ivals(runT("Pow", {mki(DType::Int32, {3}, {2, 1, -1}), Value::integer(-1)})),
                 (std::vector<std::int64_t>{0, 1, -1}));
        QVERIFY(near(vals(runT("Pow", {mk(DType::Float32, {2}, {4, 2}),
                                       mk(DType::Float32, {2}, {0.5, -1})})),
                     {2, 0.5}));
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(near(vals(runT("Maximum", {mk(DType::Float32, {3}, {1, nan, 3}),
                                           mk(DType::Float32, {3}, {2, 0, nan})})),
                     {2, nan, nan}));
        QVERIFY(near(vals(runT("Minimum", {mk(DType::Float64, {2}, {1, nan}),
                                           mk(DType::Float64, {2}, {2, 0})})),
                     {1, nan}));
    }

    void unaryMath() {
        QCOMPARE(ivals(runT("Neg", {mki(DType::Int32, {2}, {1, -2})})),
                 (std::vector<std::int64_t>{-1, 2}));
        QCOMPARE(ivals(runT("Abs", {mki(DType::Int8, {2}, {-3, 4})})),
                 (std::vector<std::int64_t>{3, 4}));
        QCOMPARE(vals(runT("Square", {mk(DType::Float64, {1}, {1.5})})),
                 (std::vector<double>{2.25}));
        QVERIFY(near(vals(runT("Exp", {mk(DType::Float32, {2}, {0, 1})})), {1, std::exp(1.0)}));
        const Tensor e = runT("Exp", {mki(DType::Int32, {1}, {0})});
        QCOMPARE(e.dtype(), DType::Float32);
        QCOMPARE(vals(e), (std::vector<double>{1}));
        QVERIFY(
            near(vals(runT("Log", {mk(DType::Float64, {2}, {1, std::exp(1.0)})})), {0, 1}, 1e-12));
        QCOMPARE(vals(runT("Sqrt", {mk(DType::Float32, {2}, {4, 9})})),
                 (std::vector<double>{2, 3}));
        const Tensor h = runT("Sqrt", {mk(DType::Float16, {1}, {2})});
        QCOMPARE(h.dtype(), DType::Float16);
        QCOMPARE(h.getDouble(0), 1.4140625);  // sqrt(2) rounded to half
        QVERIFY(std::isnan(runT("Log", {mk(DType::Float32, {1}, {-1})}).getDouble(0)));
    }

    void compareAndLogical() {
        const Tensor x = iota(DType::Float32, {2, 3});
        const Tensor y = mk(DType::Float32, {3}, {1, 1, 4});
        const struct {
            const char* op;
            std::function<double(double, double)> f;
        } cases[] = {{"Less", [](double a, double b) { return double(a < b); }},
                     {"LessEqual", [](double a, double b) { return double(a <= b); }},
                     {"Greater", [](double a, double b) { return double(a > b); }},
                     {"GreaterEqual", [](double a, double b) { return double(a >= b); }},
                     {"Equal", [](double a, double b) { return double(a == b); }},
                     {"NotEqual", [](double a, double b) { return double(a != b); }}};
        for (const auto& c : cases) {
            const Tensor r = runT(c.op, {x, y});
            QCOMPARE(r.dtype(), DType::Bool);
            QCOMPARE(vals(r), bcastRef(x, y, r.shape(), c.f));
        }
        QCOMPARE(ivals(runT("Equal", {mki(DType::Int32, {3}, {1, 2, 3}), Value::integer(2)})),
                 (std::vector<std::int64_t>{0, 1, 0}));
        QCOMPARE(ivals(runT("GreaterEqual", {mk(DType::Float16, {2}, {0.5, 1}),
                                             mk(DType::Float32, {2}, {0.5, 2})})),
                 (std::vector<std::int64_t>{1, 0}));
        const Tensor p = mki(DType::Bool, {2, 1}, {1, 0});
        const Tensor q = mki(DType::Bool, {2}, {1, 0});
        QCOMPARE(ivals(runT("LogicalAnd", {p, q})), (std::vector<std::int64_t>{1, 0, 0, 0}));
        QCOMPARE(ivals(runT("LogicalOr", {p, q})), (std::vector<std::int64_t>{1, 1, 1, 0}));
        QCOMPARE(ivals(runT("LogicalNot", {q})), (std::vector<std::int64_t>{0, 1}));
        QVERIFY(err([&] {
                    run("LogicalAnd", {p, iota(DType::Int32, {2})});
                }).startsWith("TypeError"));
    }

    void select() {
        const Tensor r = runT("Select", {mki(DType::Bool, {2, 1}, {1, 0}),
                                         mk(DType::Float32, {1, 3}, {1, 2, 3}), Value::integer(0)});
        QCOMPARE(r.shape(), (Shape{2, 3}));
        QCOMPARE(vals(r), (std::vector<double>{1, 2, 3, 0, 0, 0}));
        const Tensor h =
            runT("Select", {mki(DType::Bool, {2}, {0, 1}), mk(DType::Float16, {2}, {1.5, 2.5}),
                            mk(DType::Float16, {2}, {-1, -2})});
        QCOMPARE(vals(h), (std::vector<double>{-1, 2.5}));
    }

    void matmul() {
        const Tensor x = iota(DType::Float32, {2, 3}, 1);
        const Tensor y = iota(DType::Float32, {3, 2}, 7);
        const std::vector<double> want{58, 64, 139, 154};
        QCOMPARE(vals(runT("MatMul", {x, y})), want);
        const Tensor xt = runT("Transpose", {x, ints({1, 0})});
        const Tensor yt = runT("Transpose", {y, ints({1, 0})});
        QCOMPARE(vals(runT("MatMul", {xt, y}, attrs({{"transpose_a", Value::boolean(true)}}))),
                 want);
        QCOMPARE(vals(runT("MatMul", {x, yt}, attrs({{"transpose_b", Value::boolean(true)}}))),
                 want);
        QCOMPARE(vals(runT("MatMul", {xt, yt},
                           attrs({{"transpose_a", Value::boolean(true)},
                                  {"transpose_b", Value::boolean(true)}}))),
                 want);
        for (DType t : {DType::Int32, DType::Int64, DType::Int16, DType::Float16, DType::Float64}) {
            const Tensor r = runT("MatMul", {x.cast(t), y.cast(t)});
            QCOMPARE(r.dtype(), t);
            QCOMPARE(vals(r), want);
        }
        // Int8 operands give Int32, as MindSpore's infer says: 139 stays 139.
        const Tensor i8 = runT("MatMul", {x.cast(DType::Int8), y.cast(DType::Int8)});
        QCOMPARE(i8.dtype(), DType::Int32);
        QCOMPARE(vals(i8), (std::vector<double>{58, 64, 139, 154}));
        QVERIFY(err([&] { run("MatMul", {x, x}); }).startsWith("ValueError: For 'MatMul'"));
        // BatchMatMul: per-batch products and broadcast batch dims.
        const Tensor a = iota(DType::Float32, {2, 1, 2, 3});
        const Tensor b = iota(DType::Float32, {3, 3, 2}, 1);
        const Tensor r = runT("BatchMatMul", {a, b});
        QCOMPARE(r.shape(), (Shape{2, 3, 2, 2}));
        std::vector<double> ref;
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) {
                for (int m = 0; m < 2; ++m) {
                    for (int n = 0; n < 2; ++n) {
                        double s = 0;
                        for (int k = 0; k < 3; ++k) {
                            s += a.getDouble(std::size_t(i * 6 + m * 3 + k)) *
                                 b.getDouble(std::size_t(j * 6 + k * 2 + n));
                        }
                        ref.push_back(s);
                    }
                }
            }
        }
        QCOMPARE(vals(r), ref);
        const Tensor bt = runT("BatchMatMul", {a, runT("Transpose", {b, ints({0, 2, 1})})},
                               attrs({{"transpose_b", Value::boolean(true)}}));
        QCOMPARE(vals(bt), ref);
    }

    void matmulExt() {
        // The seed's PyNative example: ops.matmul(ops.ones(5), w) + b.
        const Tensor x = runT("Ones", {Value::integer(5), Value::type(DType::Float32)});
        const Tensor w = iota(DType::Float32, {5, 3});
        const Tensor r = runT("MatMulExt", {x, w});
        QCOMPARE(r.shape(), (Shape{3}));
        QCOMPARE(vals(r), (std::vector<double>{30, 35, 40}));
        QCOMPARE(vals(runT("Add", {r, mk(DType::Float32, {3}, {1, 2, 3})})),
                 (std::vector<double>{31, 37, 43}));
        QCOMPARE(vals(runT("MatMulExt", {w, mk(DType::Float32, {3}, {1, 0, -1})})),
                 (std::vector<double>{-2, -2, -2, -2, -2}));
        const Tensor dot = runT(
            "MatMulExt", {mki(DType::Int32, {3}, {1, 2, 3}), mki(DType::Int32, {3}, {4, 5, 6})});
        QCOMPARE(dot.shape(), Shape{});
        QCOMPARE(ivals(dot), (std::vector<std::int64_t>{32}));
        const Tensor batched =
            runT("MatMulExt", {iota(DType::Float64, {2, 1, 3}), iota(DType::Float64, {3, 2})});
        QCOMPARE(batched.shape(), (Shape{2, 1, 2}));
        QCOMPARE(vals(batched), (std::vector<double>{10, 13, 28, 40}));
    }

    void stridedSlice() {
        const Tensor x = iota(DType::Float32, {3, 4});
        auto ss = [&](const Tensor& t, std::vector<std::int64_t> b, std::vector<std::int64_t> e,
                      std::vector<std::int64_t> st, AttrMap a = {}) {
            return runT("StridedSlice", {t, ints(b), ints(e), ints(st)}, a);
        };
        auto m = [](std::int64_t v) { return Value::integer(v); };
        QCOMPARE(vals(ss(x, {1}, {3}, {1})), (std::vector<double>{4, 5, 6, 7, 8, 9, 10, 11}));
        QCOMPARE(vals(ss(x, {0, 1}, {3, 4}, {2, 2})), (std::vector<double>{1, 3, 9, 11}));
        // x[::-1, ::-2]
        const Tensor rev =
            ss(x, {0, 0}, {0, 0}, {-1, -2}, attrs({{"begin_mask", m(3)}, {"end_mask", m(3)}}));
        QCOMPARE(rev.shape(), (Shape{3, 2}));
        QCOMPARE(vals(rev), (std::vector<double>{11, 9, 7, 5, 3, 1}));
        // x[1] and x[:, -1]
        QCOMPARE(vals(ss(x, {1}, {2}, {1}, attrs({{"shrink_axis_mask", m(1)}}))),
                 (std::vector<double>{4, 5, 6, 7}));
        QCOMPARE(
            vals(ss(x, {0, -1}, {0, 0}, {1, 1},
                    attrs({{"begin_mask", m(1)}, {"end_mask", m(1)}, {"shrink_axis_mask", m(2)}}))),
            (std::vector<double>{3, 7, 11}));
        // x[None, 1:2] and x[..., 0] on a 3-D int8 tensor
        QCOMPARE(ss(x, {0, 1}, {0, 2}, {1, 1}, attrs({{"new_axis_mask", m(1)}})).shape(),
                 (Shape{1, 1, 4}));
        const Tensor y = iota(DType::Int8, {2, 2, 3});
        QCOMPARE(vals(ss(y, {0, 0}, {0, 1}, {1, 1},
                         attrs({{"ellipsis_mask", m(1)}, {"shrink_axis_mask", m(2)}}))),
                 (std::vector<double>{0, 3, 6, 9}));
        // Out-of-range bounds clamp like Python slices.
        QCOMPARE(vals(ss(mki(DType::Int64, {3}, {1, 2, 3}), {-10}, {10}, {1})),
                 (std::vector<double>{1, 2, 3}));
        QCOMPARE(ss(mki(DType::Int64, {3}, {1, 2, 3}), {2}, {1}, {1}).shape(), (Shape{0}));
    }

    void gather() {
        const Tensor p = iota(DType::Float32, {3, 2});
        QCOMPARE(vals(runT("Gather", {p, mki(DType::Int32, {2}, {2, 0}), Value::integer(0)})),
                 (std::vector<double>{4, 5, 0, 1}));
        QCOMPARE(
            vals(runT("Gather", {p, mki(DType::Int64, {2, 2}, {1, 1, 0, -1}), Value::integer(1)})),
            (std::vector<double>{1, 1, 0, 1, 3, 3, 2, 3, 5, 5, 4, 5}));
        const Tensor row = runT("Gather", {p, Value::integer(1), Value::integer(0)});
        QCOMPARE(row.shape(), (Shape{2}));
        QCOMPARE(vals(row), (std::vector<double>{2, 3}));
        QCOMPARE(
            err([&] {
                run("Gather", {p, mki(DType::Int32, {1}, {3}), Value::integer(0)});
            }),
            QString("IndexError: For 'Gather', index 3 is out of bounds for axis 0 with size 3."));
    }

    // The seed's overflow-status example: Depend orders the status ops; the result is x - (-x).
    void floatStatusSeed() {
        const Tensor init = runT("NPUAllocFloatStatus", {});
        QCOMPARE(vals(init), std::vector<double>(8, 0.0));
        const Tensor cleared = runT("NPUClearFloatStatus", {init});
        const Tensor x =
            runT("Fill", {Value::type(DType::Float16), ints({2, 3}), Value::integer(5)});
        const Tensor res = runT("Sub", {x, runT("Neg", {x})});
        const Tensor status = runT("NPUGetFloatStatus", {init});
        QCOMPARE(res.dtype(), DType::Float16);
        QCOMPARE(vals(res), std::vector<double>(6, 10.0));
        QCOMPARE(vals(status), std::vector<double>(8, 0.0));
        QCOMPARE(vals(cleared), std::vector<double>(8, 0.0));
    }

    void biasAdd() {
        const Tensor nchw = runT(
            "BiasAdd", {Tensor(DType::Float32, {1, 2, 2, 2}), mk(DType::Float32, {2}, {1, 2})});
        QCOMPARE(vals(nchw), (std::vector<double>{1, 1, 1, 1, 2, 2, 2, 2}));
        const Tensor nhwc =
            runT("BiasAdd", {Tensor(DType::Float32, {1, 2, 2, 2}), mk(DType::Float32, {2}, {1, 2})},
                 attrs({{"data_format", Value::string("NHWC")}}));
        QCOMPARE(vals(nhwc), (std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2}));
        QCOMPARE(vals(runT("BiasAdd",
                           {iota(DType::Float16, {2, 3}), mk(DType::Float16, {3}, {10, 20, 30})})),
                 (std::vector<double>{10, 21, 32, 13, 24, 35}));
    }

    void addN() {
        const Tensor a = mk(DType::Float32, {2}, {1, 2});
        const Tensor b = mk(DType::Float32, {2}, {10, 20});
        const Tensor c = mk(DType::Float32, {2}, {100, 200});
        QCOMPARE(vals(runT("AddN", {KernelArg::tuple({a, b, c})})),
                 (std::vector<double>{111, 222}));
        QCOMPARE(ivals(runT("AddN", {KernelArg::tuple({mki(DType::Int32, {}, {2}),
                                                       mki(DType::Int32, {}, {1})})})),
                 (std::vector<std::int64_t>{3}));
        const Tensor one = runT("AddN", {KernelArg::tuple({a})});
        QCOMPARE(vals(one), vals(a));
        QVERIFY(!one.sharesStorageWith(a));
        // A tuple constant (what a folded MakeTuple gives) works too.
        const ir::ValuePtr tupleConst = Value::tuple(
            {Value::tensorValue(a.toValueData()), Value::tensorValue(b.toValueData())});
        QCOMPARE(vals(runT("AddN", {tupleConst})), (std::vector<double>{11, 22}));
    }

    // Integer sums and products wrap around on overflow as numpy's do (int32: 464486400 * 7
    // is -1043562496), without the undefined behaviour of signed overflow in C++ (UBSan).
    void integerReductionsWrapAround() {
        const Tensor x = mki(DType::Int32, {2}, {464486400, 7});
        QCOMPARE(ivals(runT("ReduceProd", {x, ints({})})),
                 (std::vector<std::int64_t>{-1043562496}));
        const Tensor y = mki(DType::Int32, {2}, {2147483647, 1});
        QCOMPARE(ivals(runT("ReduceSum", {y, ints({})})),
                 (std::vector<std::int64_t>{-2147483648LL}));
    }

    void reductions_data() {
        QTest::addColumn<QString>("op");
        for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"}) {
            QTest::newRow(op) << QString(op);
        }
    }
    void reductions() {
        QFETCH(QString, op);
        const std::vector<std::int64_t> dims{2, 3, 4};
        const Tensor x = iota(DType::Float64, Shape(dims), -5);
        // Every subset of axes, with and without keep_dims, against a brute-force reference.
        for (int mask = 0; mask < 8; ++mask) {
            std::vector<std::int64_t> axes;
            for (int k = 0; k < 3; ++k) {
                if (mask & (1 << k)) {
                    axes.push_back(k - (mask == 5 ? 3 : 0));  // also negative axes
                }
            }
            std::vector<std::int64_t> outDims;
            for (int k = 0; k < 3; ++k) {
                outDims.push_back((mask & (1 << k)) || mask == 0 ? 1 : dims[std::size_t(k)]);
            }
            const auto outCount = std::accumulate(outDims.begin(), outDims.end(), std::int64_t{1},
                                                  std::multiplies<>());
            std::vector<std::vector<double>> groups(static_cast<std::size_t>(outCount));
            for (std::int64_t i = 0; i < 24; ++i) {
                auto idx = unravel(i, dims);
                for (int k = 0; k < 3; ++k) {
                    if ((mask & (1 << k)) || mask == 0) {
                        idx[std::size_t(k)] = 0;
                    }
                }
                groups[std::size_t(ravel(idx, outDims))].push_back(x.getDouble(std::size_t(i)));
            }
            std::vector<double> want;
            for (const auto& g : groups) {
                double r = 0;
                if (op == "ReduceSum") {
                    r = std::accumulate(g.begin(), g.end(), 0.0);
                } else if (op == "ReduceMean") {
                    r = std::accumulate(g.begin(), g.end(), 0.0) / double(g.size());
                } else if (op == "ReduceMax") {
                    r = *std::max_element(g.begin(), g.end());
                } else if (op == "ReduceMin") {
                    r = *std::min_element(g.begin(), g.end());
                } else {
                    r = std::accumulate(g.begin(), g.end(), 1.0, std::multiplies<>());
                }
                want.push_back(r);
            }
            for (bool keep : {false, true}) {
                const Tensor r = runT(op.toLatin1().constData(), {x, ints(axes)},
                                      attrs({{"keep_dims", Value::boolean(keep)}}));
                QVERIFY2(near(vals(r), want, 1e-12), qPrintable(QString("mask %1").arg(mask)));
                if (keep) {
                    QCOMPARE(r.shape(), Shape(outDims));
                }
            }
        }
    }

    void reductionDtypes() {
        const Tensor i = mki(DType::Int32, {2, 2}, {1, 2, -1, -2});
        const Tensor m = runT("ReduceMean", {i, Value::integer(1)});
        QCOMPARE(m.dtype(), DType::Int32);
        QCOMPARE(ivals(m), (std::vector<std::int64_t>{1, -1}));  // 1.5 and -1.5 truncate
        QCOMPARE(ivals(runT("ReduceSum", {i, Value::integer(0)})),
                 (std::vector<std::int64_t>{0, 0}));
        const Tensor h = runT("ReduceSum", {mk(DType::Float16, {3}, {0.5, 0.25, 0.125})});
        QCOMPARE(h.dtype(), DType::Float16);
        QCOMPARE(h.getDouble(0), 0.875);
        QCOMPARE(ivals(runT("ReduceMax", {mki(DType::Bool, {3}, {0, 1, 0})})),
                 (std::vector<std::int64_t>{1}));
        QCOMPARE(ivals(runT("ReduceMin", {mki(DType::UInt8, {3}, {7, 200, 9})})),
                 (std::vector<std::int64_t>{7}));
        QCOMPARE(vals(runT("ReduceSum", {Tensor(DType::Float32, {0, 3}), Value::integer(0)})),
                 (std::vector<double>{0, 0, 0}));
        QVERIFY(err([] {
                    run("ReduceMax", {Tensor(DType::Float32, {0, 3}), Value::integer(0)});
                }).startsWith("ValueError"));
        QCOMPARE(vals(runT("ReduceSum", {mk(DType::Float32, {}, {4})})), (std::vector<double>{4}));
    }

    void transposeAllPerms() {
        for (DType t : {DType::Int8, DType::Int16, DType::Float32, DType::Float64}) {
            const std::vector<std::int64_t> dims{2, 3, 4};
            const Tensor x = iota(t, Shape(dims));
            std::vector<std::int64_t> perm{0, 1, 2};
            do {
                const Tensor r = runT("Transpose", {x, ints(perm)});
                std::vector<std::int64_t> od;
                for (auto p : perm) {
                    od.push_back(dims[std::size_t(p)]);
                }
                QCOMPARE(r.shape(), Shape(od));
                for (std::int64_t i = 0; i < 24; ++i) {
                    const auto oi = unravel(i, od);
                    std::vector<std::int64_t> ii(3);
                    for (std::size_t k = 0; k < 3; ++k) {
                        ii[std::size_t(perm[k])] = oi[k];
                    }
                    QCOMPARE(r.getDouble(std::size_t(i)),
                             x.getDouble(std::size_t(ravel(ii, dims))));
                }
            } while (std::next_permutation(perm.begin(), perm.end()));
        }
        // Unit dims and negative axes.
        const Tensor u = iota(DType::Float32, {1, 3, 1, 2});
        const Tensor r = runT("Transpose", {u, ints({-1, 2, 1, 0})});
        QCOMPARE(r.shape(), (Shape{2, 1, 3, 1}));
        QCOMPARE(vals(r), (std::vector<double>{0, 2, 4, 1, 3, 5}));
    }

    void shapeOps() {
        const Tensor x = iota(DType::Float32, {2, 3});
        const Tensor rs = runT("Reshape", {x, ints({3, -1})});
        QCOMPARE(rs.shape(), (Shape{3, 2}));
        QCOMPARE(vals(rs), vals(x));
        QVERIFY(!rs.sharesStorageWith(x));
        QCOMPARE(runT("ExpandDims", {x, Value::integer(1)}).shape(), (Shape{2, 1, 3}));
        QCOMPARE(runT("Squeeze", {iota(DType::Float32, {1, 3, 1})}).shape(), (Shape{3}));
        QCOMPARE(runT("Squeeze", {iota(DType::Float32, {1, 3, 1})}, attrs({{"axis", ints({2})}}))
                     .shape(),
                 (Shape{1, 3}));
        const Tensor c =
            runT("Cast", {mk(DType::Float32, {3}, {1.7, -1.7, 0.2}), Value::type(DType::Int32)});
        QCOMPARE(c.dtype(), DType::Int32);
        QCOMPARE(ivals(c), (std::vector<std::int64_t>{1, -1, 0}));
        QCOMPARE(ivals(runT("Cast", {mk(DType::Float32, {2}, {0, 0.5}), Value::type(DType::Bool)})),
                 (std::vector<std::int64_t>{0, 1}));
        const KernelArg sc = run("Cast", {Value::integer(3), Value::type(DType::Float32)});
        QCOMPARE(sc.value()->kind, Value::Kind::Float);
        QCOMPARE(sc.value()->f, 3.0);
        const Tensor cat = runT("Concat",
                                {KernelArg::tuple({mk(DType::Float32, {2, 1}, {1, 4}),
                                                   mk(DType::Float32, {2, 2}, {2, 3, 5, 6})})},
                                attrs({{"axis", Value::integer(1)}}));
        QCOMPARE(cat.shape(), (Shape{2, 3}));
        QCOMPARE(vals(cat), (std::vector<double>{1, 2, 3, 4, 5, 6}));
        const Tensor cat0 =
            runT("Concat", {KernelArg::tuple({x, iota(DType::Float32, {1, 3}, 6)})});
        QCOMPARE(vals(cat0), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
        const Tensor st =
            runT("Stack",
                 {KernelArg::tuple({mk(DType::Int32, {2}, {1, 2}), mk(DType::Int32, {2}, {3, 4})})},
                 attrs({{"axis", Value::integer(1)}}));
        QCOMPARE(st.shape(), (Shape{2, 2}));
        QCOMPARE(vals(st), (std::vector<double>{1, 3, 2, 4}));
        const Tensor st0 = runT(
            "Stack",
            {KernelArg::tuple({mk(DType::Int32, {2}, {1, 2}), mk(DType::Int32, {2}, {3, 4})})});
        QCOMPARE(vals(st0), (std::vector<double>{1, 2, 3, 4}));
        const Tensor tile = runT("Tile", {mk(DType::Float32, {2}, {1, 2}), ints({2, 2})});
        QCOMPARE(tile.shape(), (Shape{2, 4}));
        QCOMPARE(vals(tile), (std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2}));
        const Tensor tile2 = runT("Tile", {mk(DType::Int16, {2, 2}, {1, 2, 3, 4}), ints({2, 1})});
        QCOMPARE(vals(tile2), (std::vector<double>{1, 2, 3, 4, 1, 2, 3, 4}));
        const Tensor tile3 = runT("Tile", {mk(DType::Int16, {2, 2}, {1, 2, 3, 4}), ints({1, 2})});
        QCOMPARE(vals(tile3), (std::vector<double>{1, 2, 1, 2, 3, 4, 3, 4}));
        const Tensor bt = runT("BroadcastTo", {mk(DType::Float64, {3}, {1, 2, 3})},
                               attrs({{"shape", ints({2, 3})}}));
        QCOMPARE(vals(bt), (std::vector<double>{1, 2, 3, 1, 2, 3}));
        const Tensor bt2 = runT("BroadcastTo", {mk(DType::Float64, {2, 1}, {1, 2})},
                                attrs({{"shape", ints({-1, 3})}}));
        QCOMPARE(vals(bt2), (std::vector<double>{1, 1, 1, 2, 2, 2}));
    }

    void softmax() {
        QVERIFY(near(vals(runT("Softmax", {mk(DType::Float32, {3}, {1, 2, 3})})),
                     {0.09003057, 0.24472847, 0.66524096}));
        const Tensor x = mk(DType::Float64, {2, 2}, {1, 2, 3, 5});
        const auto e = [](double v) { return std::exp(v); };
        QVERIFY(near(vals(runT("Softmax", {x}, attrs({{"axis", Value::integer(0)}}))),
                     {e(1) / (e(1) + e(3)), e(2) / (e(2) + e(5)), e(3) / (e(1) + e(3)),
                      e(5) / (e(2) + e(5))},
                     1e-12));
        QVERIFY(near(vals(runT("Softmax", {mk(DType::Float32, {2}, {1000, 1000})})), {0.5, 0.5}));
        const Tensor h = runT("Softmax", {mk(DType::Float16, {2}, {0, 0})});
        QCOMPARE(h.dtype(), DType::Float16);
        QCOMPARE(vals(h), (std::vector<double>{0.5, 0.5}));
        const Tensor big =
            runT("Softmax", {iota(DType::Float32, {3, 4, 5})}, attrs({{"axis", ints({1})}}));
        const Tensor sums = runT("ReduceSum", {big, Value::integer(1)});
        QVERIFY(near(vals(sums), std::vector<double>(15, 1.0)));
    }

    void layerNorm() {
        const Tensor x = mk(DType::Float32, {2, 3}, {1, 2, 3, 1, 2, 3});
        const Tensor ones = mk(DType::Float32, {3}, {1, 1, 1});
        const KernelArg r = run("LayerNorm", {x, ones, ones});
        QVERIFY(r.isTuple());
        QCOMPARE(r.elements().size(), std::size_t(3));
        QVERIFY(near(vals(r.elements()[0].tensor()),
                     {-0.2247448, 1, 2.2247448, -0.2247448, 1, 2.2247448}));
        QCOMPARE(r.elements()[1].tensor().shape(), (Shape{2, 1}));
        QCOMPARE(vals(r.elements()[1].tensor()), (std::vector<double>{2, 2}));
        QVERIFY(near(vals(r.elements()[2].tensor()), {2.0 / 3, 2.0 / 3}));
        // Normalizing only the last axis of a 3-D input with gamma/beta over it.
        const Tensor y = mk(DType::Float64, {1, 2, 2}, {0, 2, 10, 30});
        const KernelArg r2 =
            run("LayerNorm", {y, mk(DType::Float64, {2}, {2, 1}), mk(DType::Float64, {2}, {0, 5})},
                attrs({{"begin_norm_axis", Value::integer(-1)},
                       {"begin_params_axis", Value::integer(-1)},
                       {"epsilon", Value::floating(0.0)}}));
        QVERIFY(near(vals(r2.elements()[0].tensor()), {-2, 6, -2, 6}, 1e-12));
        QCOMPARE(vals(r2.elements()[1].tensor()), (std::vector<double>{1, 20}));
        QCOMPARE(vals(r2.elements()[2].tensor()), (std::vector<double>{1, 100}));
        const KernelArg r3 = run("LayerNorm", {x.cast(DType::Float16), ones.cast(DType::Float16),
                                               Tensor(DType::Float16, {3})});
        QVERIFY(near(vals(r3.elements()[0].tensor()),
                     {-1.2247448, 0, 1.2247448, -1.2247448, 0, 1.2247448}, 2e-3));
    }

    void activations() {
        const Tensor x = mk(DType::Float32, {5}, {-4, -1, 0, 1, 4});
        QCOMPARE(vals(runT("ReLU", {x})), (std::vector<double>{0, 0, 0, 1, 4}));
        QCOMPARE(ivals(runT("ReLU", {mki(DType::Int32, {2}, {-3, 3})})),
                 (std::vector<std::int64_t>{0, 3}));
        QVERIFY(
            near(vals(runT("Sigmoid", {x})), {1 / (1 + std::exp(4.0)), 1 / (1 + std::exp(1.0)), 0.5,
                                              1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(-4.0))}));
        QVERIFY(near(vals(runT("Tanh", {x})),
                     {std::tanh(-4.0), std::tanh(-1.0), 0, std::tanh(1.0), std::tanh(4.0)}));
        QVERIFY(near(vals(runT("HSwish", {x})), {0, -1.0 / 3, 0, 2.0 / 3, 4}));
        // Exactly x above 3 (not x*6/6) and +0, not -0, below -3, as MindSpore's kernel.
        const std::vector<double> hs =
            vals(runT("HSwish", {mk(DType::Float32, {2}, {224.08932f, -97.72779f})}));
        QCOMPARE(hs[0], static_cast<double>(224.08932f));
        QVERIFY(hs[1] == 0.0 && !std::signbit(hs[1]));
        QVERIFY(near(vals(runT("GeLU", {mk(DType::Float32, {2}, {1, -1})})), {0.841192, -0.158808},
                     1e-5));
        QVERIFY(near(vals(runT("GeLU", {mk(DType::Float64, {2}, {1, -1})},
                               attrs({{"approximate", Value::string("none")}}))),
                     {0.8413447460685429, -0.15865525393145707}, 1e-12));
    }

    void dropout() {
        const Tensor x = iota(DType::Float32, {8}, 1);
        const KernelArg r = run("Dropout", {x}, attrs({{"keep_prob", Value::floating(0.5)}}));
        QCOMPARE(vals(r.elements()[0].tensor()), vals(x));  // inference passes through
        QCOMPARE(vals(r.elements()[1].tensor()), std::vector<double>(8, 1.0));
        QVERIFY(!r.elements()[0].tensor().sharesStorageWith(x));
        const std::vector<KernelArg> in{x};
        const KernelArg t =
            reg().run(*reg().find("Dropout"),
                      attrs({{"keep_prob", Value::floating(0.5)}, {"Seed0", Value::integer(1)}}),
                      in, /*training=*/true);
        const auto out = vals(t.elements()[0].tensor());
        const auto mask = vals(t.elements()[1].tensor());
        for (std::size_t i = 0; i < 8; ++i) {
            QVERIFY(mask[i] == 0.0 || mask[i] == 1.0);
            QCOMPARE(out[i], mask[i] * x.getDouble(i) * 2);
        }
    }

    void fills() {
        const Tensor o = runT("Ones", {ints({2}), Value::type(DType::Int32)});
        QCOMPARE(o.dtype(), DType::Int32);
        QCOMPARE(ivals(o), (std::vector<std::int64_t>{1, 1}));
        const Tensor z = runT("Zeros", {Value::integer(3)});
        QCOMPARE(z.dtype(), DType::Float32);
        QCOMPARE(vals(z), (std::vector<double>{0, 0, 0}));
        const Tensor f =
            runT("Fill", {Value::type(DType::Float16), ints({2, 2}), Value::floating(1.5)});
        QCOMPARE(f.dtype(), DType::Float16);
        QCOMPARE(vals(f), std::vector<double>(4, 1.5));
        QCOMPARE(runT("Fill", {Value::none(), ints({1}), Value::boolean(true)}).dtype(),
                 DType::Bool);
        QCOMPARE(ivals(runT("OnesLike", {mki(DType::Int8, {3}, {5, 6, 7})})),
                 (std::vector<std::int64_t>{1, 1, 1}));
        QCOMPARE(vals(runT("ZerosLike", {iota(DType::Float64, {2}, 3)})),
                 (std::vector<double>{0, 0}));
    }

    void assignWritesInPlace() {
        Tensor param = mki(DType::Int32, {2}, {0, 0});
        const Tensor loaded = runT("Load", {param, Value::monadValue(ir::MonadKind::U)});
        QVERIFY(loaded.sharesStorageWith(param));  // Load aliases the parameter
        const Tensor r = runT(
            "Assign", {param, mki(DType::Int32, {2}, {5, 6}), Value::monadValue(ir::MonadKind::U)});
        QVERIFY(r.sharesStorageWith(param));
        QCOMPARE(ivals(loaded), (std::vector<std::int64_t>{5, 6}));  // the alias sees the write
        runT("AssignAdd", {param, Value::integer(1)});
        QCOMPARE(ivals(loaded), (std::vector<std::int64_t>{6, 7}));
        runT("AssignSub", {param, mki(DType::Int32, {2}, {6, 6})});
        QCOMPARE(ivals(param), (std::vector<std::int64_t>{0, 1}));
        // A lower-priority value converts to the parameter's dtype; a higher one is refused.
        Tensor fp = mk(DType::Float32, {2}, {0, 0});
        runT("Assign", {fp, mki(DType::Int32, {2}, {3, 4})});
        QCOMPARE(vals(fp), (std::vector<double>{3, 4}));
        runT("Assign", {fp, Value::floating(0.5)});  // a scalar fills every element
        QCOMPARE(vals(fp), (std::vector<double>{0.5, 0.5}));
        QVERIFY(err([&] {
                    run("Assign", {param, mk(DType::Float32, {2}, {1, 2})});
                }).startsWith("RuntimeError: For 'Assign', data type conversion of Parameter"));
        QVERIFY(err([&] {
                    run("Assign", {Value::integer(1), Value::integer(2)});
                }).startsWith("TypeError"));
    }

    void tensorMoveCopies() {
        Tensor param = mki(DType::Int32, {}, {1});
        const Tensor moved = runT("TensorMove", {param});
        QVERIFY(!moved.sharesStorageWith(param));
        runT("Assign", {param, mki(DType::Int32, {}, {9})});
        QCOMPARE(moved.getInt(0), 1);
        QCOMPARE(param.getInt(0), 9);
    }

    // The seed's side-effect example: three Assigns to one parameter, each followed by a Load.
    // With TensorMove after every Load (LOAD_ELIM 0-2) the sum is 2 + 1 + 0 = 3, the expected
    // output; without (LOAD_ELIM 3) every Load aliases the final value: 2 + 2 + 2 = 6.
    void seedLoadElimination() {
        for (const bool tensorMove : {true, false}) {
            Tensor param = mki(DType::Int32, {}, {0});
            std::vector<Tensor> loads;
            for (int i = 0; i < 3; ++i) {
                runT("Assign",
                     {param, mki(DType::Int32, {}, {i}), Value::monadValue(ir::MonadKind::U)});
                Tensor l = runT("Load", {param, Value::monadValue(ir::MonadKind::U)});
                loads.push_back(tensorMove ? runT("TensorMove", {l}) : l);
            }
            const Tensor s1 = runT("AddN", {KernelArg::tuple({loads[2], loads[1]})});
            const Tensor s2 = runT("AddN", {KernelArg::tuple({s1, loads[0]})});
            QCOMPARE(s2.getInt(0), tensorMove ? 3 : 6);
        }
    }

    void structuralOpsHaveNoKernel() {
        for (const char* op : {"MakeTuple", "TupleGetItem", "Switch", "Partial", "Return",
                               "UpdateState", "Depend", "Print"}) {
            QVERIFY2(
                err([&] {
                    reg().run(*reg().find(op), {}, {});
                }).startsWith(QString("RuntimeError: For '%1', there is no CPU kernel").arg(op)),
                op);
        }
        QVERIFY(err([] {
                    run("Add", {Value::string("a"), Value::integer(1)});
                }).startsWith("TypeError"));
    }
};

QTEST_APPLESS_MAIN(TestOpsKernels)
#include "test_ops_kernels.moc"
