// Bprop rules of the nn and matmul primitives: MatMul BatchMatMul BiasAdd ReLU Sigmoid Tanh
// GeLU Softmax Conv2D MaxPool AvgPool MaxPool3D AvgPool3D.
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"

namespace irscope::ops {

using ir::Node;
using ir::Value;

namespace {

bool flag(const BpropContext& c, std::string_view name) {
    const ValuePtr v = c.attrs().get(name);
    return v && v->kind == Value::Kind::Bool && v->b;
}

ir::AttrMap transposes(bool a, bool b) {
    ir::AttrMap m;
    m.set("transpose_a", Value::boolean(a));
    m.set("transpose_b", Value::boolean(b));
    return m;
}

// out = op(x, ta) @ op(y, tb). With dout = dL/dout:
//   ta=0 tb=0: dx = dout @ y^T      dy = x^T @ dout
//   ta=0 tb=1: dx = dout @ y        dy = dout^T @ x
//   ta=1 tb=0: dx = y @ dout^T      dy = x @ dout
//   ta=1 tb=1: dx = y^T @ dout^T    dy = dout^T @ x^T
void bpropMatMul(BpropContext& c, std::string_view op) {
    const bool ta = flag(c, "transpose_a");
    const bool tb = flag(c, "transpose_b");
    Node* x = c.input(0);
    Node* y = c.input(1);
    Node* d = c.dout();
    if (c.needsGrad(0)) {
        Node* dx = ta ? c.emit(op, {y, d}, transposes(tb, true))
                      : c.emit(op, {d, y}, transposes(false, !tb));
        c.setGradReduced(0, dx);
    }
    if (c.needsGrad(1)) {
        Node* dy = tb ? c.emit(op, {d, x}, transposes(true, ta))
                      : c.emit(op, {x, d}, transposes(!ta, false));
        c.setGradReduced(1, dy);
    }
}

// ops.matmul (MatMulExt) on matrices or batches of them: as MatMul without transposes.
void bpropMatMulExt(BpropContext& c) {
    const std::size_t rx = c.absOf(0)->shape.rank();
    const std::size_t ry = c.absOf(1)->shape.rank();
    if (rx < 2 || ry < 2) {
        c.fail("irscope: the gradient of ops.matmul with a 1-D operand is not supported yet.");
    }
    bpropMatMul(c, rx == 2 && ry == 2 ? "MatMul" : "BatchMatMul");
}

// BiasAdd: the bias gets dout summed over every axis but the channel one.
void bpropBiasAdd(BpropContext& c) {
    if (c.needsGrad(0)) {
        c.setGrad(0, c.dout());
    }
    if (c.needsGrad(1)) {
        const ValuePtr fmt = c.attrs().get("data_format");
        const std::size_t rank = c.absOf(0)->shape.rank();
        const std::size_t channel =
            fmt && fmt->kind == Value::Kind::String && fmt->text == "NHWC" ? rank - 1 : 1;
        std::vector<ValuePtr> axes;
        for (std::size_t i = 0; i < rank; ++i) {
            if (i != channel) {
                axes.push_back(Value::integer(static_cast<std::int64_t>(i)));
            }
        }
        ir::AttrMap a;
        a.set("keep_dims", Value::boolean(false));
        c.setGrad(1, c.emit("ReduceSum", {c.dout(), c.constant(Value::tuple(std::move(axes)))}, a));
    }
}

void bpropReLU(BpropContext& c) {
    Node* m = c.mask(c.emit("Greater", {c.out(), c.zerosLike(c.out()->abstract())}),
                     c.dout()->abstract()->dtype);
    c.setGrad(0, c.emit("Mul", {c.dout(), m}));
}

// out = sigmoid(x): dx = dout * out * (1 - out).
void bpropSigmoid(BpropContext& c) {
    Node* out = c.out();
    Node* oneMinus = c.emit("Sub", {c.scalar(out->abstract()->dtype, 1.0), out});
    c.setGrad(0, c.emit("Mul", {c.dout(), c.emit("Mul", {out, oneMinus})}));
}

// out = tanh(x): dx = dout * (1 - out * out).
void bpropTanh(BpropContext& c) {
    Node* out = c.out();
    Node* d = c.emit("Sub", {c.scalar(out->abstract()->dtype, 1.0), c.emit("Mul", {out, out})});
    c.setGrad(0, c.emit("Mul", {c.dout(), d}));
}

// GeLU, tanh form: gelu(x) = 0.5 x (1 + t), t = tanh(k (x + 0.044715 x^3)), k = sqrt(2 / pi);
// gelu'(x) = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 * 0.044715 x^2).
// Exact form: gelu'(x) = Phi(x) + x phi(x), with Phi(x) = gelu(x) / x (x != 0; 0.5 at 0) and
// phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
void bpropGeLU(BpropContext& c) {
    Node* x = c.input(0);
    const ir::DType t = x->abstract()->dtype;
    auto k = [&](double v) { return c.scalar(t, v); };
    const ValuePtr approx = c.attrs().get("approximate");
    Node* x2 = c.emit("Mul", {x, x});
    Node* d = nullptr;
    if (approx && approx->kind == Value::Kind::String && approx->text == "none") {
        Node* pdf = c.emit(
            "Mul", {c.emit("Exp", {c.emit("Mul", {x2, k(-0.5)})}), k(1.0 / std::sqrt(2.0 * M_PI))});
        Node* zero = c.zerosLike(x->abstract());
        Node* isZero = c.emit("Equal", {x, zero});
        Node* safeX = c.emit("Select", {isZero, c.onesLike(x->abstract()), x});
        Node* cdf = c.emit(
            "Select", {isZero, c.emit("Add", {zero, k(0.5)}), c.emit("RealDiv", {c.out(), safeX})});
        d = c.emit("Add", {cdf, c.emit("Mul", {x, pdf})});
    } else {
        const double kk = std::sqrt(2.0 / M_PI);
        Node* inner = c.emit(
            "Mul",
            {c.emit("Add", {x, c.emit("Mul", {c.emit("Mul", {x2, x}), k(0.044715)})}), k(kk)});
        Node* th = c.emit("Tanh", {inner});
        Node* left = c.emit("Mul", {c.emit("Add", {th, k(1.0)}), k(0.5)});
        Node* sech2 = c.emit("Sub", {k(1.0), c.emit("Mul", {th, th})});
        Node* dinner =
            c.emit("Mul", {c.emit("Add", {c.emit("Mul", {x2, k(3.0 * 0.044715)}), k(1.0)}), k(kk)});
        Node* right = c.emit("Mul", {c.emit("Mul", {c.emit("Mul", {x, k(0.5)}), sech2}), dinner});
        d = c.emit("Add", {left, right});
    }
    c.setGrad(0, c.emit("Mul", {c.dout(), d}));
}

// HSwish: x * relu6(x + 3) / 6; its derivative is 0 below -3, 1 above 3, (2x + 3) / 6 between.
void bpropHSwish(BpropContext& c) {
    Node* x = c.input(0);
    const ir::DType t = x->abstract()->dtype;
    Node* above = c.mask(c.emit("GreaterEqual", {x, c.scalar(t, 3.0)}), t);
    Node* inside = c.emit("Sub", {c.mask(c.emit("Greater", {x, c.scalar(t, -3.0)}), t), above});
    Node* slope =
        c.emit("RealDiv", {c.emit("Add", {c.emit("Mul", {x, c.scalar(t, 2.0)}), c.scalar(t, 3.0)}),
                           c.scalar(t, 6.0)});
    Node* d = c.emit("Add", {c.emit("Mul", {inside, slope}), above});
    c.setGrad(0, c.emit("Mul", {c.dout(), d}));
}

// out = softmax(x, axis): dx = out * (dout - sum(dout * out, axis, keep_dims)).
void bpropSoftmax(BpropContext& c) {
    ValuePtr axis = c.attrs().get("axis");
    if (!axis) {
        axis = Value::tuple({Value::integer(-1)});
    }
    ir::AttrMap a;
    a.set("keep_dims", Value::boolean(true));
    Node* s = c.emit("ReduceSum", {c.emit("Mul", {c.dout(), c.out()}), c.constant(axis)}, a);
    c.setGrad(0, c.emit("Mul", {c.out(), c.emit("Sub", {c.dout(), s})}));
}

ValuePtr axesFrom(std::int64_t from, std::int64_t to) {
    std::vector<ValuePtr> e;
    for (std::int64_t i = from; i < to; ++i) {
        e.push_back(Value::integer(i));
    }
    return Value::tuple(std::move(e));
}

// (y, mean, var) = LayerNorm(x, gamma, beta) over the axes from begin_norm_axis; with
// r = 1/sqrt(var + eps), xhat = (x - mean) r and g = dy * gamma:
//   dx = r (g - mean(g) - xhat mean(g xhat)), dgamma = sum(dy xhat), dbeta = sum(dy),
// the means over the normalized axes, the sums over the axes before begin_params_axis.
void bpropLayerNorm(BpropContext& c) {
    if (c.doutElement(1) != nullptr || c.doutElement(2) != nullptr) {
        c.fail(
            "irscope: the gradient through LayerNorm's mean and variance outputs is not supported "
            "yet.");
    }
    Node* dy = c.doutElement(0);
    if (dy == nullptr) {
        return;
    }
    const ir::AbstractPtr& xa = c.absOf(0);
    const auto rank = static_cast<std::int64_t>(xa->shape.rank());
    auto axisAttr = [&](std::string_view name) {
        const ValuePtr v = c.attrs().get(name);
        const std::int64_t a = v && v->kind == Value::Kind::Int ? v->i : 1;
        return normalizeAxis("LayerNorm", name, a, rank);
    };
    const std::int64_t normAxis = axisAttr("begin_norm_axis");
    const std::int64_t paramsAxis = axisAttr("begin_params_axis");
    const ValuePtr epsV = c.attrs().get("epsilon");
    const double eps = epsV && epsV->kind == Value::Kind::Float ? epsV->f : 1e-7;
    const ir::DType t = xa->dtype;
    Node* x = c.input(0);
    auto item = [&](std::int64_t i) {
        return c.emit("TupleGetItem", {c.out(), c.constant(Value::integer(i))});
    };
    Node* r = c.emit("RealDiv", {c.scalar(t, 1.0),
                                 c.emit("Sqrt", {c.emit("Add", {item(2), c.scalar(t, eps)})})});
    Node* xhat = c.emit("Mul", {c.emit("Sub", {x, item(1)}), r});
    ir::AttrMap keep;
    keep.set("keep_dims", Value::boolean(true));
    Node* normAxes = c.constant(axesFrom(normAxis, rank));
    auto meanN = [&](Node* v) { return c.emit("ReduceMean", {v, normAxes}, keep); };
    if (c.needsGrad(0)) {
        Node* g = c.emit("Mul", {dy, c.input(1)});
        Node* inner = c.emit("Sub", {c.emit("Sub", {g, meanN(g)}),
                                     c.emit("Mul", {xhat, meanN(c.emit("Mul", {g, xhat}))})});
        c.setGrad(0, c.emit("Mul", {r, inner}));
    }
    ir::AttrMap drop;
    drop.set("keep_dims", Value::boolean(false));
    auto sumOuter = [&](Node* v) {
        return paramsAxis == 0
                   ? v
                   : c.emit("ReduceSum", {v, c.constant(axesFrom(0, paramsAxis))}, drop);
    };
    if (c.needsGrad(1)) {
        c.setGradReduced(1, sumOuter(c.emit("Mul", {dy, xhat})));
    }
    if (c.needsGrad(2)) {
        c.setGradReduced(2, sumOuter(dy));
    }
}

// Input i's static shape as a constant tuple.
Node* staticShapeOf(BpropContext& c, std::size_t i) {
    std::vector<ValuePtr> dims;
    for (std::int64_t d : c.absOf(i)->shape.dims) {
        dims.push_back(Value::integer(d));
    }
    return c.constant(Value::tuple(std::move(dims)));
}

// Conv2D: Conv2DBackpropInput(dout, w, x's shape) and Conv2DBackpropFilter(dout, x, w's
// shape) with the convolution's attributes.
void bpropConv2D(BpropContext& c) {
    if (!c.absOf(0)->shape.isStatic() || !c.absOf(1)->shape.isStatic()) {
        c.fail("irscope: the gradient of Conv2D with a dynamic shape is not supported yet.");
    }
    if (c.needsGrad(0)) {
        c.setGrad(0, c.emit("Conv2DBackpropInput", {c.dout(), c.input(1), staticShapeOf(c, 0)}, c.attrs()));
    }
    if (c.needsGrad(1)) {
        c.setGrad(1, c.emit("Conv2DBackpropFilter", {c.dout(), c.input(0), staticShapeOf(c, 1)}, c.attrs()));
    }
}

// AvgPool3D: G.AvgPool3DGrad of x's shape (its only use of x), with the pool's attributes.
void bpropAvgPool3D(BpropContext& c) {
    if (!c.absOf(0)->shape.isStatic()) {
        c.fail("irscope: the gradient of AvgPool3D with a dynamic shape is not supported yet.");
    }
    c.setGrad(0, c.emit("AvgPool3DGrad", {staticShapeOf(c, 0), c.dout()}, c.attrs()));
}

// MaxPool / AvgPool / MaxPool3D: their G.*Grad primitive with the pool's attributes.
void bpropPool(BpropContext& c, std::string_view grad) {
    c.setGrad(0, c.emit(grad, {c.input(0), c.out(), c.dout()}, c.attrs()));
}

}  // namespace

void registerNnBprops(OpRegistry& reg) {
    setBprop(reg, "Conv2D", bpropConv2D);
    setBprop(reg, "MaxPool", [](BpropContext& c) { bpropPool(c, "MaxPoolGrad"); });
    setBprop(reg, "AvgPool", [](BpropContext& c) { bpropPool(c, "AvgPoolGrad"); });
    setBprop(reg, "MaxPool3D", [](BpropContext& c) { bpropPool(c, "MaxPool3DGrad"); });
    setBprop(reg, "AvgPool3D", bpropAvgPool3D);
    setBprop(reg, "MatMul", [](BpropContext& c) { bpropMatMul(c, "MatMul"); });
    setBprop(reg, "BatchMatMul", [](BpropContext& c) { bpropMatMul(c, "BatchMatMul"); });
    setBprop(reg, "MatMulExt", bpropMatMulExt);
    setBprop(reg, "BiasAdd", bpropBiasAdd);
    setBprop(reg, "ReLU", bpropReLU);
    setBprop(reg, "Sigmoid", bpropSigmoid);
    setBprop(reg, "Tanh", bpropTanh);
    setBprop(reg, "GeLU", bpropGeLU);
    setBprop(reg, "Softmax", bpropSoftmax);
    setBprop(reg, "HSwish", bpropHSwish);
    setBprop(reg, "LayerNorm", bpropLayerNorm);
}

}  // namespace irscope::ops
