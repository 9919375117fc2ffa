// Loss and normalization primitives: SoftmaxCrossEntropyWithLogits (loss and its gradient),
// SparseSoftmaxCrossEntropyWithLogits, SmoothL1Loss, SigmoidCrossEntropyWithLogits,
// L2Normalize and BatchNorm, whose training form updates its moving mean and variance in place (MindSpore's
// RW inputs, OpDef::writes) like the CPU kernel: moving = moving * (1 - momentum) + batch *
// momentum, with the batch's biased variance.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"
#include "util/py_text.h"

namespace irscope::ops {

using ir::Node;

namespace {

AbstractPtr floatArg(const InferContext& c, std::size_t i, const char* name) {
    const AbstractPtr x = c.abs(i);
    if (!isTensorAbs(x) ||
        (x->dtype != DType::Float16 && x->dtype != DType::Float32 && x->dtype != DType::Float64)) {
        typeError(c.name(), std::string("the type of '") + name +
                                "' must be Tensor[Float16, Float32, Float64], but got " +
                                typeStr(x) + ".");
    }
    return x;
}

Tensor floatTensor(const KernelContext& c, std::size_t i, const char* name) {
    const Tensor t = c.tensor(i);
    if (!ir::isFloat(t.dtype())) {
        typeError(c.name(), std::string("the type of '") + name +
                                "' must be Tensor[Float16, Float32, Float64], but got Tensor[" +
                                typeStr(t.dtype()) + "].");
    }
    return t;
}

void sameShape(std::string_view op, const Shape& a, const Shape& b, const char* an,
               const char* bn) {
    if (a.isStatic() && b.isStatic() && a != b) {
        valueError(op, std::string("the shape of '") + an + "' must be the same as '" + bn +
                           "', but got '" + an + "' shape: " + shapeStr(a) + ", '" + bn +
                           "' shape: " + shapeStr(b) + ".");
    }
}

void rank2(std::string_view op, const Shape& s, const char* name) {
    if (!s.dynamicRank && s.rank() != 2) {
        valueError(op, std::string("the rank of '") + name + "' must be 2, but got " +
                           std::to_string(s.rank()) + ".");
    }
}

// Softmax of row r of a [N, C] tensor into p.
void softmaxRow(const Tensor& x, std::size_t r, std::size_t n, std::vector<double>& p) {
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < n; ++k) {
        m = std::max(m, x.getDouble(r * n + k));
    }
    double sum = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        p[k] = std::exp(x.getDouble(r * n + k) - m);
        sum += p[k];
    }
    for (std::size_t k = 0; k < n; ++k) {
        p[k] /= sum;
    }
}

// ---- SoftmaxCrossEntropyWithLogits ----------------------------------------------------------

InferResult inferSoftmaxCe(const InferContext& c) {
    const AbstractPtr logits = floatArg(c, 0, "logits");
    const AbstractPtr labels = floatArg(c, 1, "labels");
    rank2(c.name(), logits->shape, "logits");
    sameShape(c.name(), logits->shape, labels->shape, "logits", "labels");
    const std::int64_t n = logits->shape.dynamicRank ? -1 : logits->shape.dims[0];
    return {ir::Abstract::tuple({ir::Abstract::tensor(logits->dtype, Shape({n})),
                                 ir::Abstract::tensor(logits->dtype, logits->shape)}),
            nullptr};
}

KernelArg runSoftmaxCe(const KernelContext& c) {
    const Tensor x = floatTensor(c, 0, "logits");
    const Tensor y = floatTensor(c, 1, "labels");
    rank2(c.name(), x.shape(), "logits");
    sameShape(c.name(), x.shape(), y.shape(), "logits", "labels");
    const auto rows = static_cast<std::size_t>(x.shape().dims[0]);
    const auto n = static_cast<std::size_t>(x.shape().dims[1]);
    Tensor loss(x.dtype(), Shape({x.shape().dims[0]}));
    Tensor grad(x.dtype(), x.shape());
    std::vector<double> p(n);
    for (std::size_t r = 0; r < rows; ++r) {
        softmaxRow(x, r, n, p);
        double l = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            const double label = y.getDouble(r * n + k);
            l -= label * std::log(std::max(p[k], std::numeric_limits<double>::min()));
            grad.setDouble(r * n + k, p[k] - label);
        }
        loss.setDouble(r, l);
    }
    return KernelArg::tuple({KernelArg(loss), KernelArg(grad)});
}

// ---- SparseSoftmaxCrossEntropyWithLogits -----------------------------------------------------

bool isGrad(const ValuePtr& v) {
    return v && boolOf(v).value_or(false);
}

InferResult inferSparseSoftmaxCe(const InferContext& c) {
    const AbstractPtr logits = floatArg(c, 0, "logits");
    const AbstractPtr labels = tensorInput(c, 1, "labels");
    if (labels->dtype != DType::Int32 && labels->dtype != DType::Int64) {
        typeError(c.name(), "the type of 'labels' must be Tensor[Int32, Int64], but got " +
                                typeStr(labels) + ".");
    }
    const Shape& ls = logits->shape;
    const Shape& ys = labels->shape;
    if (!ls.dynamicRank && !ys.dynamicRank) {
        bool ok = ls.rank() == ys.rank() + 1;
        for (std::size_t d = 0; ok && d < ys.rank(); ++d) {
            ok = ls.dims[d] < 0 || ys.dims[d] < 0 || ls.dims[d] == ys.dims[d];
        }
        if (!ok) {
            valueError(c.name(),
                       "the shape of 'labels' must be the shape of 'logits' without its last "
                       "dimension, but got 'logits' shape: " +
                           shapeStr(ls) + ", 'labels' shape: " + shapeStr(ys) + ".");
        }
    }
    if (isGrad(c.attr("is_grad"))) {
        return {ir::Abstract::tensor(logits->dtype, ls), nullptr};
    }
    return {ir::Abstract::tensor(logits->dtype, Shape{}), nullptr};
}

KernelArg runSparseSoftmaxCe(const KernelContext& c) {
    const Tensor x = floatTensor(c, 0, "logits");
    const Tensor y = c.tensor(1);
    const auto n = static_cast<std::size_t>(x.shape().dims.back());
    const std::size_t rows = y.size();
    if (rows * n != x.size()) {
        valueError(c.name(),
                   "the shape of 'labels' must be the shape of 'logits' without its "
                   "last dimension, but got 'logits' shape: " +
                       shapeStr(x.shape()) + ", 'labels' shape: " + shapeStr(y.shape()) + ".");
    }
    const bool grad = isGrad(c.attr("is_grad"));
    Tensor g(x.dtype(), x.shape());
    double total = 0.0;
    std::vector<double> p(n);
    for (std::size_t r = 0; r < rows; ++r) {
        const std::int64_t label = y.getInt(r);
        if (label < 0 || label >= static_cast<std::int64_t>(n)) {
            valueError(c.name(), "the value of 'labels' must be in range [0, " + std::to_string(n) +
                                     "), but got " + std::to_string(label) + ".");
        }
        softmaxRow(x, r, n, p);
        total -= std::log(
            std::max(p[static_cast<std::size_t>(label)], std::numeric_limits<double>::min()));
        for (std::size_t k = 0; k < n; ++k) {
            const double onehot = static_cast<std::int64_t>(k) == label ? 1.0 : 0.0;
            g.setDouble(r * n + k, (p[k] - onehot) / static_cast<double>(rows));
        }
    }
    if (grad) {
        return KernelArg(g);
    }
    return KernelArg(
        Tensor::scalar(x.dtype(), rows == 0 ? 0.0 : total / static_cast<double>(rows)));
}

// ---- SmoothL1Loss ------------------------------------------------------------------------------
// 0.5 * d^2 / beta where |d| < beta, else |d| - 0.5 * beta, with d = prediction - target;
// reduction 'none' keeps the elements, 'sum' and 'mean' reduce them to a scalar.

std::string lossReduction(std::string_view op, const ValuePtr& v) {
    const std::string r = v && v->kind == ir::Value::Kind::String ? v->text : "none";
    if (r != "none" && r != "sum" && r != "mean") {
        valueError(op, "the 'reduction' must be 'none', 'sum' or 'mean', but got '" + r + "'.");
    }
    return r;
}

double smoothL1Beta(std::string_view op, const ValuePtr& v) {
    const double beta = numberOf(v).value_or(1.0);
    if (!(beta > 0.0)) {
        valueError(op, "the 'beta' must be greater than 0, but got " + util::pyFloatRepr(beta) + ".");
    }
    return beta;
}

KernelArg runSmoothL1(const KernelContext& c) {
    const Tensor p = floatTensor(c, 0, "prediction");
    const Tensor t = floatTensor(c, 1, "target");
    sameShape(c.name(), p.shape(), t.shape(), "prediction", "target");
    const double beta = smoothL1Beta(c.name(), c.attr("beta"));
    const std::string reduction = lossReduction(c.name(), c.attr("reduction"));
    Tensor out(p.dtype(), p.shape());
    double total = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double d = std::abs(p.getDouble(i) - t.getDouble(i));
        const double v = d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
        out.setDouble(i, v);
        total += v;
    }
    if (reduction == "none") {
        return KernelArg(out);
    }
    const double n = static_cast<double>(p.size());
    return KernelArg(
        Tensor::scalar(p.dtype(), reduction == "sum" ? total : (n == 0 ? 0.0 : total / n)));
}

// ---- SigmoidCrossEntropyWithLogits --------------------------------------------------------

KernelArg runSigmoidCe(const KernelContext& c) {
    const Tensor x = floatTensor(c, 0, "logits");
    const Tensor z = floatTensor(c, 1, "label");
    sameShape(c.name(), x.shape(), z.shape(), "logits", "label");
    Tensor out(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x.getDouble(i);
        out.setDouble(i,
                      std::max(v, 0.0) - v * z.getDouble(i) + std::log1p(std::exp(-std::abs(v))));
    }
    return KernelArg(out);
}

// ---- L2Normalize ------------------------------------------------------------------------------

KernelArg runL2Normalize(const KernelContext& c) {
    const Tensor x = floatTensor(c, 0, "input_x");
    const auto axes = axisAttr(c.name(), c.attr("axis"), x.rank());
    const double eps = numberOf(c.attr("epsilon")).value_or(1e-4);
    const Shape& s = x.shape();
    // Sum of squares per reduced position: index an element by zeroing the reduced coordinates.
    std::vector<bool> reduced(s.rank(), false);
    for (std::int64_t a : axes) {
        reduced[static_cast<std::size_t>(a)] = true;
    }
    std::vector<std::size_t> st(s.rank(), 1);
    for (std::size_t d = s.rank(); d-- > 1;) {
        st[d - 1] = st[d] * static_cast<std::size_t>(s.dims[d]);
    }
    std::vector<std::size_t> key(x.size());
    std::vector<std::int64_t> coord(s.rank(), 0);
    for (std::size_t flat = 0; flat < x.size(); ++flat) {
        std::size_t k = 0;
        for (std::size_t d = 0; d < s.rank(); ++d) {
            k += reduced[d] ? 0 : static_cast<std::size_t>(coord[d]) * st[d];
        }
        key[flat] = k;
        for (std::size_t d = s.rank(); d-- > 0;) {
            if (++coord[d] < s.dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
    std::vector<double> sums(x.size(), 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x.getDouble(i);
        sums[key[i]] += v * v;
    }
    Tensor out(x.dtype(), s);
    for (std::size_t i = 0; i < x.size(); ++i) {
        out.setDouble(i, x.getDouble(i) / std::sqrt(std::max(sums[key[i]], eps)));
    }
    return KernelArg(out);
}

// ---- BatchNorm ----------------------------------------------------------------------------

std::size_t channelAxis(const ValuePtr& fmt, std::size_t rank) {
    return fmt && fmt->kind == ir::Value::Kind::String && fmt->text == "NHWC" ? rank - 1 : 1;
}

const char* const kBatchNormInputs[] = {"input_x", "scale", "bias", "mean", "variance"};

// x is [N, C] or [N, C, H, W] (NHWC: channels last); the four others are [C]. Returns C.
std::int64_t checkBatchNorm(std::string_view op, const Shape& x, const ValuePtr& fmt,
                            std::span<const Shape> params) {
    std::int64_t channels = -1;
    if (!x.dynamicRank) {
        if (x.rank() != 2 && x.rank() != 4) {
            valueError(op, "the rank of 'input_x' must be 2 or 4, but got " +
                               std::to_string(x.rank()) + ".");
        }
        channels = x.dims[channelAxis(fmt, x.rank())];
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        const Shape& p = params[i];
        if (!p.dynamicRank &&
            (p.rank() != 1 || (channels >= 0 && p.dims[0] >= 0 && p.dims[0] != channels))) {
            valueError(op, std::string("the shape of '") + kBatchNormInputs[i + 1] +
                               "' must be (C,) with C the channel dimension of 'input_x' (" +
                               std::to_string(channels) + "), but got " + shapeStr(p) + ".");
        }
    }
    return channels;
}

InferResult inferBatchNorm(const InferContext& c) {
    const AbstractPtr x = floatArg(c, 0, "input_x");
    std::vector<Shape> params;
    for (std::size_t i = 1; i < 5; ++i) {
        params.push_back(floatArg(c, i, kBatchNormInputs[i])->shape);
    }
    const std::int64_t channels = checkBatchNorm(c.name(), x->shape, c.attr("data_format"), params);
    const AbstractPtr stat = ir::Abstract::tensor(c.abs(1)->dtype, Shape({channels}));
    return {ir::Abstract::tuple({ir::Abstract::tensor(x->dtype, x->shape), stat, stat, stat, stat}),
            nullptr};
}

KernelArg runBatchNorm(const KernelContext& c) {
    const Tensor x = floatTensor(c, 0, "input_x");
    const Tensor scale = c.tensor(1);
    const Tensor bias = c.tensor(2);
    KernelArg meanArg = c.input(3);
    KernelArg varArg = c.input(4);
    if (!meanArg.isTensor() || !varArg.isTensor()) {
        typeError(c.name(), "the 'mean' and 'variance' must be tensors.");
    }
    Tensor movingMean = meanArg.tensor();
    Tensor movingVar = varArg.tensor();
    const bool training = boolOf(c.attr("is_training")).value_or(false);
    const double eps = numberOf(c.attr("epsilon")).value_or(1e-5);
    const double momentum = numberOf(c.attr("momentum")).value_or(0.1);
    const Shape params[] = {scale.shape(), bias.shape(), movingMean.shape(), movingVar.shape()};
    checkBatchNorm(c.name(), x.shape(), c.attr("data_format"), params);
    const std::size_t ca = channelAxis(c.attr("data_format"), x.rank());
    const auto channels = static_cast<std::size_t>(x.shape().dims[ca]);
    std::size_t inner = 1;
    for (std::size_t d = ca + 1; d < x.rank(); ++d) {
        inner *= static_cast<std::size_t>(x.shape().dims[d]);
    }
    auto channelOf = [&](std::size_t flat) { return (flat / inner) % channels; };
    std::vector<double> mean(channels, 0.0), var(channels, 0.0);
    const double count = static_cast<double>(x.size()) / static_cast<double>(channels);
    if (training) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            mean[channelOf(i)] += x.getDouble(i);
        }
        for (double& m : mean) {
            m /= count;
        }
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double d = x.getDouble(i) - mean[channelOf(i)];
            var[channelOf(i)] += d * d;
        }
        for (double& v : var) {
            v /= count;
        }
    } else {
        for (std::size_t k = 0; k < channels; ++k) {
            mean[k] = movingMean.getDouble(k);
            var[k] = movingVar.getDouble(k);
        }
    }
    Tensor y(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::size_t k = channelOf(i);
        y.setDouble(i, (x.getDouble(i) - mean[k]) / std::sqrt(var[k] + eps) * scale.getDouble(k) +
                           bias.getDouble(k));
    }
    Tensor batchMean(scale.dtype(), Shape({static_cast<std::int64_t>(channels)}));
    Tensor batchVar(scale.dtype(), Shape({static_cast<std::int64_t>(channels)}));
    for (std::size_t k = 0; k < channels; ++k) {
        batchMean.setDouble(k, mean[k]);
        batchVar.setDouble(k, var[k]);
        if (training) {
            movingMean.setDouble(k,
                                 movingMean.getDouble(k) * (1.0 - momentum) + mean[k] * momentum);
            movingVar.setDouble(k, movingVar.getDouble(k) * (1.0 - momentum) + var[k] * momentum);
        }
    }
    return KernelArg::tuple({KernelArg(y), KernelArg(batchMean), KernelArg(batchVar),
                             KernelArg(batchMean), KernelArg(batchVar)});
}

// ---- gradients ------------------------------------------------------------------------------

ValuePtr intTuple(const std::vector<std::int64_t>& v) {
    return vInts(v);
}

ir::AttrMap keepDims(bool keep) {
    ir::AttrMap a;
    a.set("keep_dims", ir::Value::boolean(keep));
    return a;
}

// BatchNorm: with xhat = (x - mean) * rstd over the non-channel axes,
//   training:  dx = scale * rstd * (dy - mean(dy) - xhat * mean(dy * xhat))
//   inference: dx = scale * rstd * dy (the moving statistics are constants)
//   dscale = sum(dy * xhat), dbias = sum(dy).
void bpropBatchNorm(BpropContext& c) {
    const ir::AbstractPtr xa = c.absOf(0);
    if (!xa->shape.isStatic()) {
        c.fail("irscope: the gradient of BatchNorm needs a static input shape.");
    }
    const std::size_t rank = xa->shape.rank();
    const std::size_t ca = channelAxis(c.attrs().get("data_format"), rank);
    std::vector<std::int64_t> axes;
    std::vector<std::int64_t> statShape(rank, 1);
    statShape[ca] = xa->shape.dims[ca];
    for (std::size_t d = 0; d < rank; ++d) {
        if (d != ca) {
            axes.push_back(static_cast<std::int64_t>(d));
        }
    }
    const ValuePtr tr = c.attrs().get("is_training");
    const bool training = tr && boolOf(tr).value_or(false);
    const ValuePtr e = c.attrs().get("epsilon");
    const double eps = e ? numberOf(e).value_or(1e-5) : 1e-5;
    Node* axesNode = c.constant(intTuple(axes));
    Node* shapeNode = c.constant(intTuple(statShape));
    Node* dy = c.doutElement(0);
    if (!dy) {
        return;
    }
    Node* x = c.input(0);
    auto asStat = [&](Node* v) { return c.emit("Reshape", {v, shapeNode}); };
    Node* mean = nullptr;
    Node* var = nullptr;
    if (training) {
        mean = c.emit("ReduceMean", {x, axesNode}, keepDims(true));
        Node* centered = c.emit("Sub", {x, mean});
        var = c.emit("ReduceMean", {c.emit("Mul", {centered, centered}), axesNode}, keepDims(true));
    } else {
        mean = asStat(c.input(3));
        var = asStat(c.input(4));
    }
    const DType t = xa->dtype;
    Node* rstd = c.emit("Rsqrt", {c.emit("Add", {var, c.scalar(t, eps)})});
    Node* xhat = c.emit("Mul", {c.emit("Sub", {x, mean}), rstd});
    Node* scale = asStat(c.input(1));
    if (c.needsGrad(0)) {
        Node* inner = dy;
        if (training) {
            Node* meanDy = c.emit("ReduceMean", {dy, axesNode}, keepDims(true));
            Node* meanDyXhat =
                c.emit("ReduceMean", {c.emit("Mul", {dy, xhat}), axesNode}, keepDims(true));
            inner = c.emit("Sub", {c.emit("Sub", {dy, meanDy}), c.emit("Mul", {xhat, meanDyXhat})});
        }
        c.setGrad(0, c.emit("Mul", {c.emit("Mul", {scale, rstd}), inner}));
    }
    if (c.needsGrad(1)) {
        c.setGrad(1, c.emit("ReduceSum", {c.emit("Mul", {dy, xhat}), axesNode}, keepDims(false)));
    }
    if (c.needsGrad(2)) {
        c.setGrad(2, c.emit("ReduceSum", {dy, axesNode}, keepDims(false)));
    }
}

void registerLossBprops(OpRegistry& reg) {
    // d loss / d logits = backprop * dloss (per row); the labels get none.
    setBprop(reg, "SoftmaxCrossEntropyWithLogits", [](BpropContext& c) {
        Node* dloss = c.doutElement(0);
        if (!c.needsGrad(0) || !dloss) {
            return;
        }
        Node* grad = c.emit("TupleGetItem", {c.out(), c.constant(vInt(1))});
        Node* col = c.emit("ExpandDims", {dloss, c.constant(vInt(-1))});
        c.setGrad(0, c.emit("Mul", {grad, col}));
    });
    setBprop(reg, "SparseSoftmaxCrossEntropyWithLogits", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        ir::AttrMap a;
        a.set("is_grad", ir::Value::boolean(true));
        Node* g = c.emit("SparseSoftmaxCrossEntropyWithLogits", {c.input(0), c.input(1)}, a);
        c.setGrad(0, c.emit("Mul", {g, c.dout()}));
    });
    // d/dprediction = d / beta where |d| < beta, else sign(d); d/dtarget is its negation;
    // times dout, over the element count for 'mean'.
    setBprop(reg, "SmoothL1Loss", [](BpropContext& c) {
        const ir::AbstractPtr pa = c.absOf(0);
        const double beta = smoothL1Beta("SmoothL1Loss", c.attrs().get("beta"));
        const std::string reduction = lossReduction("SmoothL1Loss", c.attrs().get("reduction"));
        Node* d = c.emit("Sub", {c.input(0), c.input(1)});
        Node* inner = c.emit("Less", {c.emit("Abs", {d}), c.scalar(pa->dtype, beta)});
        Node* g = c.emit("Select", {inner, c.emit("RealDiv", {d, c.scalar(pa->dtype, beta)}),
                                    c.emit("Sign", {d})});
        Node* dout = c.dout();
        if (reduction == "mean") {
            if (!pa->shape.isStatic()) {
                c.fail("irscope: the gradient of SmoothL1Loss(reduction='mean') with a dynamic "
                       "shape is not supported yet.");
            }
            const auto count = static_cast<double>(pa->shape.elementCount());
            dout = c.emit("RealDiv", {dout, c.scalar(pa->dtype, count)});
        }
        Node* dp = c.emit("Mul", {g, dout});
        c.setGrad(0, dp);
        if (c.needsGrad(1)) {
            c.setGrad(1, c.emit("Neg", {dp}));
        }
    });
    // d/dx = sigmoid(x) - z; d/dz = -x.
    setBprop(reg, "SigmoidCrossEntropyWithLogits", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            Node* s = c.emit("Sigmoid", {c.input(0)});
            c.setGrad(0, c.emit("Mul", {c.emit("Sub", {s, c.input(1)}), c.dout()}));
        }
        if (c.needsGrad(1)) {
            c.setGrad(1, c.emit("Mul", {c.emit("Neg", {c.input(0)}), c.dout()}));
        }
    });
    // y = x / n with n = sqrt(max(sum(x^2), eps)): dx = (dout - y * sum(dout * y)) / n.
    setBprop(reg, "L2Normalize", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const ir::AbstractPtr xa = c.absOf(0);
        const ValuePtr axis = c.attrs().get("axis");
        const auto axes = axisAttr("L2Normalize", axis ? axis : vInt(0), xa->shape.rank());
        const ValuePtr e = c.attrs().get("epsilon");
        Node* axesNode = c.constant(intTuple(axes));
        Node* x = c.input(0);
        Node* y = c.out();
        Node* sumsq = c.emit("ReduceSum", {c.emit("Mul", {x, x}), axesNode}, keepDims(true));
        Node* norm = c.emit(
            "Sqrt", {c.emit("Maximum",
                            {sumsq, c.scalar(xa->dtype, e ? numberOf(e).value_or(1e-4) : 1e-4)})});
        Node* dot = c.emit("ReduceSum", {c.emit("Mul", {c.dout(), y}), axesNode}, keepDims(true));
        c.setGrad(0, c.emit("RealDiv", {c.emit("Sub", {c.dout(), c.emit("Mul", {y, dot})}), norm}));
    });
    setBprop(reg, "BatchNorm", bpropBatchNorm);
}

}  // namespace

void registerNnLossOps(OpRegistry& reg) {
    {
        OpDef d{.name = "SoftmaxCrossEntropyWithLogits",
                .family = "nn",
                .summary = "per-row cross entropy of softmax(logits) and labels, and its gradient"};
        d.inputs = {argIn("logits"), argIn("labels")};
        d.infer = inferSoftmaxCe;
        d.cpuKernel = runSoftmaxCe;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "SparseSoftmaxCrossEntropyWithLogits",
                .family = "nn",
                .summary = "mean cross entropy of softmax(logits) and class indices"};
        d.attrs = {argDefault("is_grad", ArgKind::Bool, vBool(false))};
        d.inputs = {argIn("logits"), argIn("labels")};
        d.infer = inferSparseSoftmaxCe;
        d.cpuKernel = runSparseSoftmaxCe;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "SmoothL1Loss",
                .family = "nn",
                .summary = "elementwise smooth L1 (Huber) loss of prediction and target"};
        d.attrs = {argDefault("beta", ArgKind::Float, vFloat(1.0)),
                   argDefault("reduction", ArgKind::String, ir::Value::string("none"))};
        d.inputs = {argIn("prediction"), argIn("target")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr p = floatArg(c, 0, "prediction");
            const AbstractPtr t = floatArg(c, 1, "target");
            sameShape(c.name(), p->shape, t->shape, "prediction", "target");
            if (t->dtype != p->dtype) {
                typeError(c.name(),
                          "the dtype of 'target' must be the same as 'prediction', but got " +
                              typeStr(t) + " and " + typeStr(p) + ".");
            }
            (void)smoothL1Beta(c.name(), c.attr("beta"));
            const bool keep = lossReduction(c.name(), c.attr("reduction")) == "none";
            return InferResult{ir::Abstract::tensor(p->dtype, keep ? p->shape : Shape{}), nullptr};
        };
        d.cpuKernel = runSmoothL1;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "SigmoidCrossEntropyWithLogits",
                .family = "nn",
                .summary = "elementwise cross entropy of sigmoid(logits) and label"};
        d.inputs = {argIn("logits"), argIn("label")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatArg(c, 0, "logits");
            const AbstractPtr z = floatArg(c, 1, "label");
            sameShape(c.name(), x->shape, z->shape, "logits", "label");
            if (z->dtype != x->dtype) {
                typeError(c.name(), "the dtype of 'label' must be the same as 'logits', but got " +
                                        typeStr(z) + " and " + typeStr(x) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runSigmoidCe;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "L2Normalize",
                .family = "nn",
                .summary = "x / sqrt(max(sum(x ** 2, axis), epsilon))"};
        d.attrs = {argDefault("axis", ArgKind::IntOrTuple, vInt(0)),
                   argDefault("epsilon", ArgKind::Float, vFloat(1e-4))};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatArg(c, 0, "input_x");
            if (!x->shape.dynamicRank) {
                axisAttr(c.name(), c.attr("axis"), x->shape.rank());
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runL2Normalize;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "BatchNorm",
                .family = "nn",
                .summary = "batch normalization; training updates the moving mean and variance"};
        d.sideEffectMem = true;
        d.writes = {3, 4};
        d.foldable = false;
        d.attrs = {argDefault("is_training", ArgKind::Bool, vBool(false)),
                   argDefault("epsilon", ArgKind::Float, vFloat(1e-5)),
                   argDefault("momentum", ArgKind::Float, vFloat(0.1)),
                   argDefault("data_format", ArgKind::String, ir::Value::string("NCHW"))};
        d.inputs = {argIn("input_x"), argIn("scale"),    argIn("bias"),
                    argIn("mean"),    argIn("variance"), argMonad("u")};
        d.infer = inferBatchNorm;
        d.cpuKernel = runBatchNorm;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    registerLossBprops(reg);
}

}  // namespace irscope::ops
