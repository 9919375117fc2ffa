// MatMul, BatchMatMul (Eigen GEMM) and BiasAdd.
#include <Eigen/Core>

#include "ops/elementwise.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

bool flag(const InferContext& ctx, const char* name) {
    return boolOf(ctx.attr(name)).value_or(false);
}

bool flag(const KernelContext& ctx, const char* name) {
    return boolOf(ctx.attr(name)).value_or(false);
}

// The dtype MatMul computes in: halves in Float32, small integers in Int32.
DType gemmType(std::string_view op, DType t) {
    switch (t) {
        case DType::Float16:
        case DType::BFloat16:
            return DType::Float32;
        case DType::Int8:
        case DType::Int16:
        case DType::UInt8:
            return DType::Int32;
        case DType::Float32:
        case DType::Float64:
        case DType::Int32:
        case DType::Int64:
            return t;
        default:
            typeError(op, "the type of 'x' must be a numeric Tensor, but got Tensor[" + typeStr(t) +
                              "].");
    }
}

void checkOperands(std::string_view op, const AbstractPtr& x, const AbstractPtr& y) {
    if (!isTensorAbs(x)) {
        typeError(op, "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    if (!isTensorAbs(y)) {
        typeError(op, "the input 'y' must be a Tensor, but got " + typeStr(y) + ".");
    }
    if (x->dtype != y->dtype) {
        typeError(op, "the dtypes of 'x' and 'y' must be the same, but got " + typeStr(x) +
                          " and " + typeStr(y) + ".");
    }
    gemmType(op, x->dtype);
}

// Matrix dims [rows, cols] after the optional transpose.
std::pair<std::int64_t, std::int64_t> matDims(const Shape& s, bool transpose) {
    const auto r = s.dims[s.rank() - 2];
    const auto c = s.dims[s.rank() - 1];
    return transpose ? std::pair{c, r} : std::pair{r, c};
}

void checkInner(std::string_view op, const Shape& x, bool ta, const Shape& y, bool tb) {
    const auto k1 = matDims(x, ta).second;
    const auto k2 = matDims(y, tb).first;
    if (k1 >= 0 && k2 >= 0 && k1 != k2) {
        valueError(op,
                   "the input dimensions must be equal, but got 'x1_col': " + std::to_string(k1) +
                       " and 'x2_row': " + std::to_string(k2) + ". And 'x' shape " + shapeStr(x) +
                       "(transpose_a=" + (ta ? "True" : "False") + "), 'y' shape " + shapeStr(y) +
                       "(transpose_b=" + (tb ? "True" : "False") + ").");
    }
}

// MindSpore's MatMul and BatchMatMul give Int32 for Int8 operands (the products would
// overflow Int8); every other dtype is kept.
DType productType(DType t) {
    return t == DType::Int8 ? DType::Int32 : t;
}

InferResult inferMatMul(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const AbstractPtr y = ctx.abs(1);
    checkOperands(ctx.name(), x, y);
    if (x->shape.dynamicRank || y->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, unknownShape(2)), nullptr};
    }
    for (const auto& [a, argName] : {std::pair{x, "x"}, std::pair{y, "y"}}) {
        if (a->shape.rank() != 2) {
            valueError(ctx.name(), std::string("the input '") + argName +
                                       "' must be a 2-D Tensor, but got a " +
                                       std::to_string(a->shape.rank()) + "-D Tensor with shape " +
                                       shapeStr(a->shape) + ".");
        }
    }
    const bool ta = flag(ctx, "transpose_a");
    const bool tb = flag(ctx, "transpose_b");
    checkInner(ctx.name(), x->shape, ta, y->shape, tb);
    return {ir::Abstract::tensor(productType(x->dtype),
                                 Shape{matDims(x->shape, ta).first, matDims(y->shape, tb).second}),
            nullptr};
}

InferResult inferBatchMatMul(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const AbstractPtr y = ctx.abs(1);
    checkOperands(ctx.name(), x, y);
    if (x->shape.dynamicRank || y->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, dynamicRankShape()), nullptr};
    }
    for (const auto& [a, argName] : {std::pair{x, "x"}, std::pair{y, "y"}}) {
        if (a->shape.rank() < 2) {
            valueError(ctx.name(), std::string("the input '") + argName +
                                       "' must be at least 2-D, but got shape " +
                                       shapeStr(a->shape) + ".");
        }
    }
    const bool ta = flag(ctx, "transpose_a");
    const bool tb = flag(ctx, "transpose_b");
    checkInner(ctx.name(), x->shape, ta, y->shape, tb);
    const Shape xb(std::vector<std::int64_t>(x->shape.dims.begin(), x->shape.dims.end() - 2));
    const Shape yb(std::vector<std::int64_t>(y->shape.dims.begin(), y->shape.dims.end() - 2));
    Shape out = broadcastShapes(ctx.name(), xb, yb);
    out.dims.push_back(matDims(x->shape, ta).first);
    out.dims.push_back(matDims(y->shape, tb).second);
    return {ir::Abstract::tensor(productType(x->dtype), out), nullptr};
}

// Swaps the last two axes.
Tensor transposeLast2(const Tensor& t) {
    std::vector<std::int64_t> perm(t.rank());
    for (std::size_t i = 0; i < perm.size(); ++i) {
        perm[i] = static_cast<std::int64_t>(i);
    }
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return transposeTensor(t, perm);
}

template <typename T>
void gemmBatches(const Tensor& a, const Tensor& b, Tensor& out, std::int64_t batches,
                 std::int64_t m, std::int64_t k, std::int64_t n) {
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    for (std::int64_t i = 0; i < batches; ++i) {
        Eigen::Map<const Mat> A(a.data<T>() + i * m * k, m, k);
        Eigen::Map<const Mat> B(b.data<T>() + i * k * n, k, n);
        Eigen::Map<Mat> C(out.data<T>() + i * m * n, m, n);
        C.noalias() = A * B;
    }
}

// x: [..., M, K] (after transposes), y: [..., K, N]; batch dims broadcast.
Tensor batchedGemm(std::string_view op, Tensor x, Tensor y, bool ta, bool tb) {
    const DType dtype = x.dtype();
    const DType compute = gemmType(op, dtype);
    x = castTo(x, compute);
    y = castTo(y, compute);
    if (ta) {
        x = transposeLast2(x);
    }
    if (tb) {
        y = transposeLast2(y);
    }
    const auto& xs = x.shape().dims;
    const auto& ys = y.shape().dims;
    const std::int64_t m = xs[xs.size() - 2];
    const std::int64_t k = xs[xs.size() - 1];
    const std::int64_t n = ys[ys.size() - 1];
    if (ys[ys.size() - 2] != k) {
        valueError(op,
                   "the input dimensions must be equal, but got 'x1_col': " + std::to_string(k) +
                       " and 'x2_row': " + std::to_string(ys[ys.size() - 2]) + ".");
    }
    Shape batch = broadcastShapes(op, Shape(std::vector<std::int64_t>(xs.begin(), xs.end() - 2)),
                                  Shape(std::vector<std::int64_t>(ys.begin(), ys.end() - 2)));
    const std::int64_t batches = batch.elementCount();
    Shape xt = batch;
    xt.dims.insert(xt.dims.end(), {m, k});
    Shape yt = batch;
    yt.dims.insert(yt.dims.end(), {k, n});
    Shape ot = batch;
    ot.dims.insert(ot.dims.end(), {m, n});
    x = broadcastTo(op, x, xt);
    y = broadcastTo(op, y, yt);
    Tensor out(compute, ot);
    if (out.size() != 0) {
        switch (compute) {
            case DType::Float32:
                gemmBatches<float>(x, y, out, batches, m, k, n);
                break;
            case DType::Float64:
                gemmBatches<double>(x, y, out, batches, m, k, n);
                break;
            case DType::Int32:
                gemmBatches<std::int32_t>(x, y, out, batches, m, k, n);
                break;
            default:
                gemmBatches<std::int64_t>(x, y, out, batches, m, k, n);
                break;
        }
    }
    return castTo(out, dtype);
}

KernelArg runMatMul(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    const Tensor y = ctx.tensor(1);
    if (x.dtype() != y.dtype()) {
        typeError(ctx.name(), "the dtypes of 'x' and 'y' must be the same, but got Tensor[" +
                                  typeStr(x.dtype()) + "] and Tensor[" + typeStr(y.dtype()) + "].");
    }
    const std::size_t minRank = 2;
    if (x.rank() < minRank || y.rank() < minRank ||
        (ctx.name() == "MatMul" && (x.rank() != 2 || y.rank() != 2))) {
        valueError(ctx.name(),
                   "the inputs must be 2-D Tensors (at least 2-D for BatchMatMul), "
                   "but got shapes " +
                       shapeStr(x.shape()) + " and " + shapeStr(y.shape()) + ".");
    }
    const DType out = productType(x.dtype());
    return KernelArg(batchedGemm(ctx.name(), castTo(x, out), castTo(y, out), flag(ctx, "transpose_a"),
                                 flag(ctx, "transpose_b")));
}

// ---- MatMulExt: numpy's matmul (ops.matmul, @) ------------------------------------------------

// 1-D operands are promoted to a row (x) or a column (y) matrix and the added axis is removed
// from the result; batch dims broadcast.
Shape matmulExtShape(std::string_view op, const Shape& x, const Shape& y) {
    if (x.dynamicRank || y.dynamicRank) {
        return dynamicRankShape();
    }
    if (x.rank() == 0 || y.rank() == 0) {
        valueError(op, "the inputs must be at least 1-D, but got shapes " + shapeStr(x) + " and " +
                           shapeStr(y) + ".");
    }
    const Shape xs = x.rank() == 1 ? Shape{1, x.dims[0]} : x;
    const Shape ys = y.rank() == 1 ? Shape{y.dims[0], 1} : y;
    checkInner(op, xs, false, ys, false);
    Shape out =
        broadcastShapes(op, Shape(std::vector<std::int64_t>(xs.dims.begin(), xs.dims.end() - 2)),
                        Shape(std::vector<std::int64_t>(ys.dims.begin(), ys.dims.end() - 2)));
    if (x.rank() > 1) {
        out.dims.push_back(xs.dims[xs.rank() - 2]);
    }
    if (y.rank() > 1) {
        out.dims.push_back(ys.dims[ys.rank() - 1]);
    }
    return out;
}

InferResult inferMatMulExt(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const AbstractPtr y = ctx.abs(1);
    checkOperands(ctx.name(), x, y);
    return {ir::Abstract::tensor(productType(x->dtype), matmulExtShape(ctx.name(), x->shape, y->shape)),
            nullptr};
}

KernelArg runMatMulExt(const KernelContext& ctx) {
    Tensor x = ctx.tensor(0);
    Tensor y = ctx.tensor(1);
    if (x.dtype() != y.dtype()) {
        typeError(ctx.name(), "the dtypes of 'x' and 'y' must be the same, but got Tensor[" +
                                  typeStr(x.dtype()) + "] and Tensor[" + typeStr(y.dtype()) + "].");
    }
    const Shape out = matmulExtShape(ctx.name(), x.shape(), y.shape());
    if (x.rank() == 1) {
        x = x.reshaped(Shape{1, x.shape().dims[0]});
    }
    if (y.rank() == 1) {
        y = y.reshaped(Shape{y.shape().dims[0], 1});
    }
    const DType t = productType(x.dtype());
    return KernelArg(batchedGemm(ctx.name(), castTo(x, t), castTo(y, t), false, false).reshaped(out));
}

// ---- BiasAdd
// -------------------------------------------------------------------------------------

bool channelsLast(const ValuePtr& format) {
    return format && format->kind == ir::Value::Kind::String && format->text == "NHWC";
}

InferResult inferBiasAdd(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const AbstractPtr b = ctx.abs(1);
    if (!isTensorAbs(x) || !isTensorAbs(b)) {
        typeError(ctx.name(), "the inputs 'input_x' and 'bias' must be Tensors, but got " +
                                  typeStr(x) + " and " + typeStr(b) + ".");
    }
    if (x->dtype != b->dtype) {
        typeError(ctx.name(), "the dtypes of 'input_x' and 'bias' must be the same, but got " +
                                  typeStr(x) + " and " + typeStr(b) + ".");
    }
    if (x->shape.dynamicRank || b->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
    }
    if (x->shape.rank() < 2) {
        valueError(ctx.name(), "the rank of 'input_x' must be at least 2, but got shape " +
                                   shapeStr(x->shape) + ".");
    }
    if (b->shape.rank() != 1) {
        valueError(ctx.name(),
                   "the rank of 'bias' must be 1, but got shape " + shapeStr(b->shape) + ".");
    }
    const auto c = channelsLast(ctx.attr("data_format")) ? x->shape.dims.back() : x->shape.dims[1];
    const auto len = b->shape.dims[0];
    if (c >= 0 && len >= 0 && c != len) {
        valueError(ctx.name(),
                   "the length of 'bias' must be equal to the channel dimension of "
                   "'input_x' (" +
                       std::to_string(c) + "), but got " + std::to_string(len) + ".");
    }
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

KernelArg runBiasAdd(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    const Tensor b = ctx.tensor(1);
    const bool last = channelsLast(ctx.attr("data_format"));
    if (x.rank() < 2 || b.rank() != 1 ||
        b.size() != static_cast<std::size_t>(last ? x.shape().dims.back() : x.shape().dims[1])) {
        valueError(ctx.name(),
                   "the length of 'bias' must be equal to the channel dimension of "
                   "'input_x', but got shapes " +
                       shapeStr(x.shape()) + " and " + shapeStr(b.shape()) + ".");
    }
    std::vector<std::int64_t> bshape{static_cast<std::int64_t>(b.size())};
    if (!last) {
        bshape.resize(x.rank() - 1, 1);  // [C, 1, 1, ...] lines up with dim 1
    }
    const DType compute = computeType(x.dtype());
    const Tensor r = arithKernel(ctx.name(), BinaryOp::Add, castTo(x, compute),
                                 castTo(b, compute).reshaped(Shape(bshape)), compute);
    return KernelArg(castTo(r, x.dtype()));
}

}  // namespace

void registerMatMulOps(OpRegistry& reg) {
    for (const char* name : {"MatMul", "BatchMatMul"}) {
        const bool batch = std::string_view(name) == "BatchMatMul";
        OpDef d;
        d.name = name;
        d.family = "math";
        d.summary = batch ? "batched matrix product; batch dims broadcast"
                          : "2-D matrix product with optional transposes";
        d.attrs = {argDefault("transpose_a", ArgKind::Bool, vBool(false)),
                   argDefault("transpose_b", ArgKind::Bool, vBool(false))};
        d.inputs = {argIn("x"), argIn("y")};
        d.infer = batch ? InferFn(inferBatchMatMul) : InferFn(inferMatMul);
        d.cpuKernel = runMatMul;
        addClassSpellings(d);
        if (batch) {
            addFunction(d, {"ops", "F"}, "bmm", {toInput("input_x", 0), toInput("mat2", 1)});
            addFunction(d, {"ops", "F"}, "batch_matmul", {toInput("x", 0), toInput("y", 1)});
            addMethod(d, "bmm", {toInput("mat2", 1)});
        }
        reg.add(std::move(d));
    }
    {
        OpDef d;
        d.name = "MatMulExt";
        d.family = "math";
        d.summary = "numpy matmul: 1-D operands promoted, batch dims broadcast (ops.matmul, @)";
        d.inputs = {argIn("input"), argIn("other")};
        d.infer = inferMatMulExt;
        d.cpuKernel = runMatMulExt;
        addClassSpellings(d);
        addFunction(d, {"ops", "F", "mint"}, "matmul", {toInput("input", 0), toInput("other", 1)});
        addMethod(d, "matmul", {toInput("other", 1)});
        addOperator(d, "@");
        reg.add(std::move(d));
    }
    OpDef d;
    d.name = "BiasAdd";
    d.family = "nn";
    d.summary = "adds a 1-D bias along the channel axis";
    d.attrs = {argDefault("data_format", ArgKind::String, ir::Value::string("NCHW"))};
    d.inputs = {argIn("input_x"), argIn("bias")};
    d.infer = inferBiasAdd;
    d.cpuKernel = runBiasAdd;
    addClassSpellings(d);
    addFunction(d, {"ops", "F"}, "bias_add", {toInput("input_x", 0), toInput("bias", 1)});
    reg.add(std::move(d));
}

}  // namespace irscope::ops
