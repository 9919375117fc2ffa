// Conv2D, MaxPool, AvgPool and Flatten (core/ops/conv_ops.cpp), the ops MindSpore's LeNet and
// MNIST networks need to run from MindIR: values against hand-computed results, MindSpore's
// pad_mode rules for the output size (valid, same, pad), stride, dilation, group, and errors.
#include <QtTest>

#include "ops/op_registry.h"

using namespace irscope;
using namespace irscope::ops;
using ir::AttrMap;
using ir::DType;
using ir::Shape;
using ir::Value;
using ir::Tensor;

namespace {

Tensor iota(Shape s, double start = 1) {
    std::vector<double> v(static_cast<std::size_t>(s.elementCount()));
    for (std::size_t i = 0; i < v.size(); ++i) {
        v[i] = start + static_cast<double>(i);
    }
    return Tensor::fromDoubles(DType::Float32, std::move(s), v);
}

Tensor mk(Shape s, std::vector<double> v) {
    return Tensor::fromDoubles(DType::Float32, std::move(s), v);
}

std::vector<double> vals(const Tensor& t) {
    std::vector<double> v;
    for (std::size_t i = 0; i < t.size(); ++i) {
        v.push_back(t.getDouble(i));
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

Tensor run(std::string_view op, const AttrMap& attrs, std::vector<KernelArg> in) {
    const OpDef* def = OpRegistry::instance().find(op);
    return OpRegistry::instance().run(*def, attrs, in).tensor();
}

}  // namespace

class TestConvOps : public QObject {
    Q_OBJECT

private slots:
    void conv2dValid() {
        // x = 1..16 in 4x4, a 2x2 kernel of ones: each output sums a 2x2 window.
        AttrMap a;
        a.set("kernel_size", ints({2, 2}));
        a.set("pad_mode", Value::string("valid"));
        const Tensor w = mk(Shape{1, 1, 2, 2}, {1, 1, 1, 1});
        const Tensor y = run("Conv2D", a, {iota(Shape{1, 1, 4, 4}), w});
        QCOMPARE(y.shape(), (Shape{1, 1, 3, 3}));
        QCOMPARE(vals(y), (std::vector<double>{14, 18, 22, 30, 34, 38, 46, 50, 54}));
    }

    void conv2dSameStrideDilationGroup() {
        AttrMap a;
        a.set("kernel_size", ints({3, 3}));
        a.set("pad_mode", Value::string("same"));
        a.set("stride", ints({1, 1, 2, 2}));
        const Tensor w = mk(Shape{1, 1, 3, 3}, {0, 0, 0, 0, 1, 0, 0, 0, 0});
        // same with stride 2 on 5x5: out 3x3, the centre tap picks x[2i][2j].
        const Tensor y = run("Conv2D", a, {iota(Shape{1, 1, 5, 5}), w});
        QCOMPARE(y.shape(), (Shape{1, 1, 3, 3}));
        QCOMPARE(vals(y), (std::vector<double>{1, 3, 5, 11, 13, 15, 21, 23, 25}));
        // pad mode with explicit padding and dilation 2: a 3x3 kernel spans 5.
        AttrMap p;
        p.set("kernel_size", ints({3, 3}));
        p.set("pad_mode", Value::string("pad"));
        p.set("pad", ints({1, 1, 1, 1}));
        p.set("dilation", ints({1, 1, 2, 2}));
        const Tensor ones = mk(Shape{1, 1, 3, 3}, std::vector<double>(9, 1));
        QCOMPARE(run("Conv2D", p, {iota(Shape{1, 1, 5, 5}), ones}).shape(), (Shape{1, 1, 3, 3}));
        // group 2: each output channel sees only its own input channel.
        AttrMap g;
        g.set("kernel_size", ints({1, 1}));
        g.set("group", Value::integer(2));
        const Tensor wg = mk(Shape{2, 1, 1, 1}, {10, 100});
        QCOMPARE(vals(run("Conv2D", g, {iota(Shape{1, 2, 1, 2}), wg})),
                 (std::vector<double>{10, 20, 300, 400}));
    }

    void conv2dPaddingValues() {
        // pad 1 around a 3x3 of 1..9 with a 3x3 kernel of ones: each output sums the
        // neighbourhood inside the image (corner 1+2+4+5, centre all nine).
        AttrMap a;
        a.set("kernel_size", ints({3, 3}));
        a.set("pad_mode", Value::string("pad"));
        a.set("pad", Value::integer(1));
        const Tensor ones = mk(Shape{1, 1, 3, 3}, std::vector<double>(9, 1));
        QCOMPARE(vals(run("Conv2D", a, {iota(Shape{1, 1, 3, 3}), ones})),
                 (std::vector<double>{12, 21, 16, 27, 45, 33, 24, 39, 28}));
        // A MindIR file's Conv2D carries MindSpore's inferred pad_list (top, bottom, left,
        // right) next to pad: pad_list decides. Top 1 only on a 4x3 image: a 3x1 output whose
        // first row sees only the image's first two rows.
        AttrMap m;
        m.set("kernel_size", ints({3, 3}));
        m.set("pad_mode", Value::string("pad"));
        m.set("pad", ints({0, 0, 0, 0}));
        m.set("pad_list", ints({1, 0, 0, 0}));
        m.set("format", Value::string("NCHW"));
        const Tensor y = run("Conv2D", m, {iota(Shape{1, 1, 4, 3}), ones});
        QCOMPARE(y.shape(), (Shape{1, 1, 3, 1}));
        QCOMPARE(vals(y), (std::vector<double>{21, 45, 72}));
        // MindSpore's integer pad_mode (0 pad, 1 same, 2 valid) as 1.x files store it.
        AttrMap v;
        v.set("kernel_size", ints({3, 3}));
        v.set("pad_mode", Value::integer(1));
        QCOMPARE(run("Conv2D", v, {iota(Shape{1, 1, 3, 3}), ones}).shape(), (Shape{1, 1, 3, 3}));
    }

    void inferFollowsTheAttributes() {
        // What type_inference and the MindIR reader see: the output abstract from the
        // attributes, without running anything.
        AttrMap a;
        a.set("kernel_size", ints({5, 5}));
        a.set("pad_mode", Value::string("valid"));
        a.set("stride", ints({1, 1, 1, 1}));
        const InferArg in[] = {
            InferArg::of(ir::Abstract::tensor(DType::Float32, Shape{1, 1, 32, 32})),
            InferArg::of(ir::Abstract::tensor(DType::Float32, Shape{6, 1, 5, 5}))};
        QCOMPARE(OpRegistry::instance().infer("Conv2D", in, a).abs->shape, (Shape{1, 6, 28, 28}));
        AttrMap p;
        p.set("kernel_size", ints({1, 1, 2, 2}));
        p.set("strides", ints({1, 1, 2, 2}));
        p.set("pad_mode", Value::string("VALID"));
        const InferArg px[] = {
            InferArg::of(ir::Abstract::tensor(DType::Float32, Shape{1, 6, 28, 28}))};
        QCOMPARE(OpRegistry::instance().infer("MaxPool", px, p).abs->shape, (Shape{1, 6, 14, 14}));
        const InferArg fx[] = {
            InferArg::of(ir::Abstract::tensor(DType::Float32, Shape{1, 16, 5, 5}))};
        QCOMPARE(OpRegistry::instance().infer("Flatten", fx).abs->shape, (Shape{1, 400}));
    }

    void pooling() {
        AttrMap a;
        a.set("kernel_size", ints({1, 1, 2, 2}));
        a.set("strides", ints({1, 1, 2, 2}));
        a.set("pad_mode", Value::string("VALID"));
        const Tensor x = iota(Shape{1, 1, 4, 4});
        QCOMPARE(vals(run("MaxPool", a, {x})), (std::vector<double>{6, 8, 14, 16}));
        QCOMPARE(vals(run("AvgPool", a, {x})), (std::vector<double>{3.5, 5.5, 11.5, 13.5}));
        // SAME on 5x5 with stride 2: 3x3, the last window covers only the edge.
        a.set("pad_mode", Value::string("SAME"));
        const Tensor y = run("MaxPool", a, {iota(Shape{1, 1, 5, 5})});
        QCOMPARE(y.shape(), (Shape{1, 1, 3, 3}));
        QCOMPARE(vals(y), (std::vector<double>{7, 9, 10, 17, 19, 20, 22, 24, 25}));
    }

    void flattenAndErrors() {
        QCOMPARE(run("Flatten", {}, {iota(Shape{2, 3, 4})}).shape(), (Shape{2, 12}));
        AttrMap a;
        a.set("kernel_size", ints({5, 5}));
        const Tensor w = mk(Shape{1, 1, 5, 5}, std::vector<double>(25, 1));
        QVERIFY_THROWS_EXCEPTION(OpError, run("Conv2D", a, {iota(Shape{1, 1, 3, 3}), w}));
        QVERIFY_THROWS_EXCEPTION(OpError, run("Conv2D", a, {iota(Shape{1, 2, 8, 8}), w}));
        QVERIFY_THROWS_EXCEPTION(OpError, run("MaxPool", a, {iota(Shape{4, 4})}));
        // NHWC is refused by name (irscope runs NCHW only), never computed as NCHW.
        AttrMap n;
        n.set("kernel_size", ints({1, 1}));
        n.set("format", Value::string("NHWC"));
        try {
            run("Conv2D", n, {iota(Shape{1, 2, 2, 1}), mk(Shape{1, 1, 1, 1}, {1})});
            QFAIL("NHWC ran");
        } catch (const OpError& e) {
            QVERIFY2(std::string(e.what()).find("NHWC") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestConvOps)
#include "test_conv_ops.moc"
