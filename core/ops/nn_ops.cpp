// Neural-network primitives: ReLU Sigmoid Tanh GeLU HSwish Softmax LayerNorm Dropout.
#include <random>
#include <unsupported/Eigen/CXX11/Tensor>

#include "ops/elementwise.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

using Eigen::Index;

AbstractPtr floatTensor(const InferContext& ctx, std::size_t i, const char* argName) {
    const AbstractPtr a = ctx.abs(i);
    if (!isTensorAbs(a)) {
        typeError(ctx.name(), std::string("the input '") + argName +
                                  "' must be a Tensor, but got " + typeStr(a) + ".");
    }
    if (!ir::isFloat(a->dtype)) {
        typeError(ctx.name(), std::string("the type of '") + argName +
                                  "' must be Tensor[Float16, Float32, Float64], but got " +
                                  typeStr(a) + ".");
    }
    return a;
}

Tensor floatInput(const KernelContext& ctx, std::size_t i, const char* argName) {
    const Tensor t = ctx.tensor(i);
    if (!ir::isFloat(t.dtype())) {
        typeError(ctx.name(), std::string("the type of '") + argName +
                                  "' must be Tensor[Float16, Float32, Float64], but got Tensor[" +
                                  typeStr(t.dtype()) + "].");
    }
    return t;
}

// ---- GeLU
// ----------------------------------------------------------------------------------------

UnaryOp geluKind(const ValuePtr& approximate) {
    const bool exact =
        approximate && approximate->kind == ir::Value::Kind::String && approximate->text == "none";
    return exact ? UnaryOp::GeLUErf : UnaryOp::GeLU;
}

// ---- Softmax
// -------------------------------------------------------------------------------------

std::int64_t softmaxAxis(std::string_view op, const ValuePtr& v, std::int64_t rank) {
    auto axes = intsOf(v);
    if (!axes || axes->size() != 1) {
        typeError(op, "the 'axis' must be an int or a tuple of one int, but got " +
                          typeStr(abstractOfValue(v)) + ".");
    }
    return normalizeAxis(op, "axis", axes->front(), std::max<std::int64_t>(rank, 1));
}

template <typename T>
void softmaxTyped(const Tensor& x, Tensor& y, Index outer, Index n, Index inner) {
    using T3 = Eigen::Tensor<T, 3, Eigen::RowMajor>;
    using T2 = Eigen::Tensor<T, 2, Eigen::RowMajor>;
    Eigen::TensorMap<const T3> in(x.data<T>(), outer, n, inner);
    Eigen::TensorMap<T3> out(y.data<T>(), outer, n, inner);
    const Eigen::array<Index, 1> red{1};
    const Eigen::array<Index, 3> keep{outer, 1, inner};
    const Eigen::array<Index, 3> bc{1, n, 1};
    const T2 mx = in.maximum(red);
    out = (in - mx.reshape(keep).broadcast(bc)).exp();
    const T2 sum = out.sum(red);
    out = out / sum.reshape(keep).broadcast(bc);
}

KernelArg runSoftmax(const KernelContext& ctx) {
    const Tensor x = floatInput(ctx, 0, "x");
    const auto rank = static_cast<std::int64_t>(x.rank());
    const auto axis = softmaxAxis(ctx.name(), ctx.attr("axis"), rank);
    const DType compute = computeType(x.dtype());
    const Tensor xc = castTo(x, compute);
    Tensor y(compute, x.shape());
    if (y.size() != 0) {
        const auto& d = x.shape().dims;
        const auto ax = static_cast<std::size_t>(axis);
        const Index outer = rank == 0 ? 1 : product(std::span(d).first(ax));
        const Index n = rank == 0 ? 1 : d[ax];
        const Index inner = rank == 0 ? 1 : product(std::span(d).subspan(ax + 1));
        if (compute == DType::Float64) {
            softmaxTyped<double>(xc, y, outer, n, inner);
        } else {
            softmaxTyped<float>(xc, y, outer, n, inner);
        }
    }
    return KernelArg(castTo(y, x.dtype()));
}

// ---- LayerNorm
// -----------------------------------------------------------------------------------

struct LayerNormAxes {
    std::int64_t norm;
    std::int64_t params;
};

LayerNormAxes layerNormAxes(std::string_view op, const ValuePtr& norm, const ValuePtr& params,
                            std::int64_t rank) {
    auto n = intOf(norm);
    auto p = intOf(params);
    if (!n || !p) {
        typeError(op, "the 'begin_norm_axis' and 'begin_params_axis' must be ints.");
    }
    return {normalizeAxis(op, "begin_norm_axis", *n, rank),
            normalizeAxis(op, "begin_params_axis", *p, rank)};
}

Shape statShape(const Shape& x, std::int64_t normAxis) {
    Shape s = x;
    for (std::size_t i = static_cast<std::size_t>(normAxis); i < s.rank(); ++i) {
        s.dims[i] = 1;
    }
    return s;
}

InferResult inferLayerNorm(const InferContext& ctx) {
    const AbstractPtr x = floatTensor(ctx, 0, "input_x");
    const AbstractPtr gamma = floatTensor(ctx, 1, "gamma");
    const AbstractPtr beta = floatTensor(ctx, 2, "beta");
    for (const auto& p : {gamma, beta}) {
        if (p->dtype != x->dtype) {
            typeError(ctx.name(),
                      "the dtypes of 'input_x', 'gamma' and 'beta' must be the same, "
                      "but got " +
                          typeStr(x) + ", " + typeStr(gamma) + " and " + typeStr(beta) + ".");
        }
    }
    if (x->shape.dynamicRank) {
        const AbstractPtr t = ir::Abstract::tensor(x->dtype, x->shape);
        return {ir::Abstract::tuple({t, t, t}), nullptr};
    }
    const auto rank = static_cast<std::int64_t>(x->shape.rank());
    const auto axes =
        layerNormAxes(ctx.name(), ctx.attr("begin_norm_axis"), ctx.attr("begin_params_axis"), rank);
    const Shape expected(std::vector<std::int64_t>(
        x->shape.dims.begin() + static_cast<std::ptrdiff_t>(axes.params), x->shape.dims.end()));
    for (const auto& [p, argName] : {std::pair{gamma, "gamma"}, std::pair{beta, "beta"}}) {
        if (p->shape.isStatic() && expected.isStatic() && p->shape != expected) {
            valueError(ctx.name(), std::string("the shape of '") + argName + "' must be " +
                                       shapeStr(expected) + ", but got " + shapeStr(p->shape) +
                                       ".");
        }
    }
    const AbstractPtr y = ir::Abstract::tensor(x->dtype, x->shape);
    const AbstractPtr stat = ir::Abstract::tensor(x->dtype, statShape(x->shape, axes.norm));
    return {ir::Abstract::tuple({y, stat, stat}), nullptr};
}

template <typename T>
void layerNormTyped(const Tensor& x, const Tensor& g, const Tensor& b, Tensor& y, Tensor& mean,
                    Tensor& var, Index outer, Index inner, double eps) {
    using Arr = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Col = Eigen::Array<T, Eigen::Dynamic, 1>;
    Eigen::Map<const Arr> X(x.data<T>(), outer, inner);
    Eigen::Map<const Arr> G(g.data<T>(), outer, inner);
    Eigen::Map<const Arr> B(b.data<T>(), outer, inner);
    Eigen::Map<Col> M(mean.data<T>(), outer);
    Eigen::Map<Col> V(var.data<T>(), outer);
    M = X.rowwise().mean();
    const Arr centered = X.colwise() - M;
    V = centered.square().rowwise().mean();
    const Col inv = (V + static_cast<T>(eps)).rsqrt();
    Eigen::Map<Arr>(y.data<T>(), outer, inner) = (centered.colwise() * inv) * G + B;
}

KernelArg runLayerNorm(const KernelContext& ctx) {
    const Tensor x = floatInput(ctx, 0, "input_x");
    const Tensor gamma = floatInput(ctx, 1, "gamma");
    const Tensor beta = floatInput(ctx, 2, "beta");
    const auto rank = static_cast<std::int64_t>(x.rank());
    const auto axes =
        layerNormAxes(ctx.name(), ctx.attr("begin_norm_axis"), ctx.attr("begin_params_axis"), rank);
    const double eps = numberOf(ctx.attr("epsilon")).value_or(1e-7);
    const DType compute = computeType(x.dtype());
    // gamma/beta cover x.shape[begin_params_axis:], so they broadcast to x directly.
    const Tensor xc = castTo(x, compute);
    const Tensor g = broadcastTo(ctx.name(), castTo(gamma, compute), x.shape());
    const Tensor b = broadcastTo(ctx.name(), castTo(beta, compute), x.shape());
    const auto& d = x.shape().dims;
    const Index outer = product(std::span(d).first(static_cast<std::size_t>(axes.norm)));
    const Index inner = product(std::span(d).subspan(static_cast<std::size_t>(axes.norm)));
    Tensor y(compute, x.shape());
    Tensor mean(compute, statShape(x.shape(), axes.norm));
    Tensor var(compute, statShape(x.shape(), axes.norm));
    if (y.size() != 0 && inner != 0) {
        if (compute == DType::Float64) {
            layerNormTyped<double>(xc, g, b, y, mean, var, outer, inner, eps);
        } else {
            layerNormTyped<float>(xc, g, b, y, mean, var, outer, inner, eps);
        }
    }
    return KernelArg::tuple({KernelArg(castTo(y, x.dtype())), KernelArg(castTo(mean, x.dtype())),
                             KernelArg(castTo(var, x.dtype()))});
}

// ---- Dropout
// ---------------------------------------------------------------------------------------

double keepProb(std::string_view op, const ValuePtr& v) {
    const auto p = numberOf(v);
    if (!p || !(*p > 0.0 && *p <= 1.0)) {
        valueError(op, "the 'keep_prob' must be in range (0, 1], but got " +
                           (p ? std::to_string(*p) : std::string("a non-number")) + ".");
    }
    return *p;
}

InferResult inferDropout(const InferContext& ctx) {
    const AbstractPtr x = floatTensor(ctx, 0, "x");
    keepProb(ctx.name(), ctx.attr("keep_prob"));
    const AbstractPtr t = ir::Abstract::tensor(x->dtype, x->shape);
    return {ir::Abstract::tuple({t, t}), nullptr};
}

KernelArg runDropout(const KernelContext& ctx) {
    const Tensor x = floatInput(ctx, 0, "x");
    const double keep = keepProb(ctx.name(), ctx.attr("keep_prob"));
    Tensor mask(x.dtype(), x.shape());
    if (!ctx.training() || keep >= 1.0) {  // inference: identity, every element kept
        for (std::size_t i = 0; i < mask.size(); ++i) {
            mask.setDouble(i, 1.0);
        }
        return KernelArg::tuple({KernelArg(x.clone()), KernelArg(mask)});
    }
    const auto s0 = static_cast<std::uint64_t>(intOf(ctx.attr("Seed0")).value_or(0));
    const auto s1 = static_cast<std::uint64_t>(intOf(ctx.attr("Seed1")).value_or(0));
    std::mt19937_64 gen(s0 == 0 && s1 == 0 ? std::random_device{}() : (s0 << 32) ^ s1);
    std::bernoulli_distribution keepDist(keep);
    Tensor out(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const bool k = keepDist(gen);
        mask.setDouble(i, k ? 1.0 : 0.0);
        out.setDouble(i, k ? x.getDouble(i) / keep : 0.0);
    }
    return KernelArg::tuple({KernelArg(out), KernelArg(mask)});
}

}  // namespace

void registerNnOps(OpRegistry& reg) {
    const ParamMap self = toInput("input", 0);
    struct Act {
        const char* name;
        const char* fn;
        const char* summary;
        UnaryOp op;
    };
    for (const Act& a : {Act{"ReLU", "relu", "max(x, 0)", UnaryOp::ReLU},
                         Act{"Sigmoid", "sigmoid", "1 / (1 + exp(-x))", UnaryOp::Sigmoid},
                         Act{"Tanh", "tanh", "hyperbolic tangent", UnaryOp::Tanh},
                         Act{"HSwish", "hardswish", "x * relu6(x + 3) / 6", UnaryOp::HSwish}}) {
        OpDef d = makeUnaryDef(a.name, "nn", a.summary, a.op);
        addFunction(d, {"ops", "F"}, a.fn, {self});
        if (a.op != UnaryOp::HSwish) {
            addMethod(d, a.fn, {});
        }
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "GeLU", .family = "nn", .summary = "Gaussian error linear unit"};
        // Not a MindSpore attribute: lets ops.gelu(approximate='none') pick the exact form.
        d.attrs = {argDefault("approximate", ArgKind::String, ir::Value::string("tanh"))};
        d.inputs = {argIn("x", ArgKind::Tensor)};
        d.infer = [](const InferContext& c) {
            return inferUnary(c, geluKind(c.attr("approximate")));
        };
        d.cpuKernel = [](const KernelContext& c) {
            return runUnary(c, geluKind(c.attr("approximate")));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "gelu",
                    {toInput("input_x", 0),
                     toAttr("approximate", "approximate", ir::Value::string("none"))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Softmax", .family = "nn", .summary = "exp(x) / sum(exp(x)) along axis"};
        d.attrs = {argDefault("axis", ArgKind::IntOrTuple, vInt(-1))};
        d.inputs = {argIn("x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatTensor(c, 0, "x");
            if (!x->shape.dynamicRank) {
                softmaxAxis(c.name(), c.attr("axis"), static_cast<std::int64_t>(x->shape.rank()));
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runSoftmax;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "softmax", {self, toAttr("axis", "axis", vInt(-1))});
        addMethod(d, "softmax", {toAttr("axis", "axis", vInt(-1))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "LayerNorm",
                .family = "nn",
                .summary = "normalizes over trailing axes; outputs (y, mean, variance)"};
        d.attrs = {argDefault("begin_norm_axis", ArgKind::Int, vInt(1)),
                   argDefault("begin_params_axis", ArgKind::Int, vInt(1)),
                   argDefault("epsilon", ArgKind::Float, vFloat(1e-7))};
        d.inputs = {argIn("input_x"), argIn("gamma"), argIn("beta")};
        d.infer = inferLayerNorm;
        d.cpuKernel = runLayerNorm;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Dropout",
                .family = "nn",
                .summary =
                    "zeroes elements with probability 1 - keep_prob when training; "
                    "outputs (output, mask)"};
        d.foldable = false;  // random when training
        d.attrs = {argDefault("keep_prob", ArgKind::Float, vFloat(0.5)),
                   argDefault("Seed0", ArgKind::Int, vInt(0)),
                   argDefault("Seed1", ArgKind::Int, vInt(0))};
        d.inputs = {argIn("x")};
        d.infer = inferDropout;
        d.cpuKernel = runDropout;
        addClassSpellings(d);
        // ops.dropout (training=False returns its input) is Python-written
        // (frontend/modules/py/ms_ops_function.py).
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
