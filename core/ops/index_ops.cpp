// Indexing primitives the front end lowers `x[...]` to: StridedSlice (begin/end/strides with
// begin/end/ellipsis/new_axis/shrink_axis masks) and Gather.
#include <Eigen/Core>
#include <algorithm>
#include <unsupported/Eigen/CXX11/Tensor>

#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

constexpr int kRank = 8;
using Index = Eigen::Index;

// ---- StridedSlice ------------------------------------------------------------------------------

struct DimSlice {
    std::int64_t start = 0;
    std::int64_t stop = 0;
    std::int64_t stride = 1;
    std::int64_t length = 0;  // -1 when the input dim is unknown
};

struct SlicePlan {
    std::vector<DimSlice> dims;  // one per input dim
    Shape out;                   // with new axes inserted and shrunk axes removed
};

std::int64_t maskBit(std::int64_t mask, std::size_t i) {
    return (mask >> i) & 1;
}

std::int64_t maskAttr(std::string_view op, const ValuePtr& v, const char* name) {
    const auto m = intOf(v);
    if (!m) {
        typeError(op, std::string("the '") + name + "' must be an int.");
    }
    return *m;
}

struct Masks {
    std::int64_t begin, end, ellipsis, newAxis, shrink;
};

template <typename Ctx>
Masks masksOf(const Ctx& ctx) {
    return {maskAttr(ctx.name(), ctx.attr("begin_mask"), "begin_mask"),
            maskAttr(ctx.name(), ctx.attr("end_mask"), "end_mask"),
            maskAttr(ctx.name(), ctx.attr("ellipsis_mask"), "ellipsis_mask"),
            maskAttr(ctx.name(), ctx.attr("new_axis_mask"), "new_axis_mask"),
            maskAttr(ctx.name(), ctx.attr("shrink_axis_mask"), "shrink_axis_mask")};
}

SlicePlan planSlice(std::string_view op, const Shape& in, const std::vector<std::int64_t>& begin,
                    const std::vector<std::int64_t>& end, const std::vector<std::int64_t>& strides,
                    const Masks& m) {
    if (begin.size() != end.size() || begin.size() != strides.size()) {
        valueError(op, "the lengths of 'begin', 'end' and 'strides' must be equal, but got " +
                           std::to_string(begin.size()) + ", " + std::to_string(end.size()) +
                           " and " + std::to_string(strides.size()) + ".");
    }
    const std::size_t n = begin.size();
    const std::size_t rank = in.rank();
    SlicePlan plan;
    plan.dims.resize(rank);
    auto full = [&](std::size_t d) {
        const auto size = in.dims[d];
        plan.dims[d] = {0, size, 1, size};
        plan.out.dims.push_back(size);
    };
    std::size_t d = 0;
    bool ellipsisSeen = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (maskBit(m.ellipsis, i) && !ellipsisSeen) {
            ellipsisSeen = true;
            std::size_t consumingAfter = 0;
            for (std::size_t j = i + 1; j < n; ++j) {
                consumingAfter += maskBit(m.newAxis, j) ? 0 : 1;
            }
            while (d + consumingAfter < rank) {
                full(d++);
            }
            continue;
        }
        if (maskBit(m.newAxis, i)) {
            plan.out.dims.push_back(1);
            continue;
        }
        if (d >= rank) {
            valueError(op, "the length of 'begin' " + std::to_string(n) +
                               " indexes more dimensions than the input shape " + shapeStr(in) +
                               " has.");
        }
        const std::int64_t size = in.dims[d];
        const std::int64_t stride = strides[i];
        if (stride == 0) {
            valueError(op, "the 'strides' must not contain 0, but got " + listStr(strides) + ".");
        }
        if (maskBit(m.shrink, i)) {
            std::int64_t idx = begin[i];
            if (size >= 0) {
                if (idx < -size || idx >= size) {
                    fail(ErrorKind::IndexError,
                         "For '" + std::string(op) + "', index " + std::to_string(idx) +
                             " is out of bounds for dimension " + std::to_string(d) +
                             " with size " + std::to_string(size) + ".");
                }
                idx = idx < 0 ? idx + size : idx;
            }
            plan.dims[d++] = {idx, idx + 1, 1, 1};
            continue;
        }
        if (size < 0) {
            plan.dims[d++] = {0, 0, stride, -1};
            plan.out.dims.push_back(-1);
            continue;
        }
        auto clampIndex = [&](std::int64_t v) {
            v = v < 0 ? v + size : v;
            return stride > 0 ? std::clamp<std::int64_t>(v, 0, size)
                              : std::clamp<std::int64_t>(v, -1, size - 1);
        };
        const std::int64_t start =
            maskBit(m.begin, i) ? (stride > 0 ? 0 : size - 1) : clampIndex(begin[i]);
        const std::int64_t stop = maskBit(m.end, i) ? (stride > 0 ? size : -1) : clampIndex(end[i]);
        const std::int64_t span = stride > 0 ? stop - start : start - stop;
        const std::int64_t step = stride > 0 ? stride : -stride;
        const std::int64_t length = span <= 0 ? 0 : (span + step - 1) / step;
        plan.dims[d++] = {start, stop, stride, length};
        plan.out.dims.push_back(length);
    }
    while (d < rank) {
        full(d++);
    }
    return plan;
}

std::optional<std::vector<std::int64_t>> constInts(std::string_view op, const char* name,
                                                   const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    auto r = intsOf(v);
    if (!r) {
        typeError(op, std::string("the '") + name + "' must be a tuple of ints.");
    }
    return r;
}

InferResult inferStridedSlice(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'input_x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    const auto b = constInts(ctx.name(), "begin", ctx.arg(1).value);
    const auto e = constInts(ctx.name(), "end", ctx.arg(2).value);
    const auto s = constInts(ctx.name(), "strides", ctx.arg(3).value);
    if (!b || !e || !s || x->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, dynamicRankShape()), nullptr};
    }
    return {ir::Abstract::tensor(x->dtype,
                                 planSlice(ctx.name(), x->shape, *b, *e, *s, masksOf(ctx)).out),
            nullptr};
}

KernelArg runStridedSlice(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    auto ints = [&](std::size_t i, const char* name) {
        auto v = constInts(ctx.name(), name, valueFromKernelArg(ctx.input(i)));
        if (!v) {
            typeError(ctx.name(), std::string("the '") + name + "' must be given.");
        }
        return *v;
    };
    const SlicePlan plan = planSlice(ctx.name(), x.shape(), ints(1, "begin"), ints(2, "end"),
                                     ints(3, "strides"), masksOf(ctx));
    if (x.rank() > static_cast<std::size_t>(kRank)) {
        valueError(ctx.name(), "the CPU kernel supports at most 8 dimensions.");
    }
    Tensor out(x.dtype(), plan.out);
    if (out.size() == 0) {
        return KernelArg(out);
    }
    Eigen::array<Index, kRank> inDims;
    Eigen::array<Index, kRank> start;
    Eigen::array<Index, kRank> stop;
    Eigen::array<Index, kRank> stride;
    Eigen::array<Index, kRank> outDims;
    const std::size_t pad = kRank - x.rank();
    for (std::size_t i = 0; i < static_cast<std::size_t>(kRank); ++i) {
        if (i < pad) {
            inDims[i] = 1;
            start[i] = 0;
            stop[i] = 1;
            stride[i] = 1;
            outDims[i] = 1;
        } else {
            const DimSlice& s = plan.dims[i - pad];
            inDims[i] = x.shape().dims[i - pad];
            start[i] = s.start;
            stop[i] = s.stop;
            stride[i] = s.stride;
            outDims[i] = s.length;
        }
    }
    dispatchBySize(ir::dtypeSize(x.dtype()), [&](auto tag) {
        using E = decltype(tag);
        Eigen::TensorMap<const Eigen::Tensor<E, kRank, Eigen::RowMajor>> src(x.data<E>(), inDims);
        Eigen::TensorMap<Eigen::Tensor<E, kRank, Eigen::RowMajor>> dst(out.data<E>(), outDims);
        dst = src.stridedSlice(start, stop, stride);
    });
    return KernelArg(out);
}

// ---- Gather -------------------------------------------------------------------------------------

InferResult inferGather(const InferContext& ctx) {
    const AbstractPtr params = ctx.abs(0);
    const AbstractPtr indices = ctx.abs(1);
    if (!isTensorAbs(params)) {
        typeError(ctx.name(),
                  "the input 'input_params' must be a Tensor, but got " + typeStr(params) + ".");
    }
    const bool scalarIndex = isScalarAbs(indices) && ir::isInteger(indices->dtype);
    if (!scalarIndex && (!isTensorAbs(indices) || !ir::isInteger(indices->dtype))) {
        typeError(ctx.name(), "the 'input_indices' must be an integer Tensor, but got " +
                                  typeStr(indices) + ".");
    }
    if (intOf(ctx.attr("batch_dims")).value_or(0) != 0) {
        valueError(ctx.name(), "only 'batch_dims' 0 is supported.");
    }
    const auto axis = intOf(ctx.arg(2).value);
    if (params->shape.dynamicRank || (!scalarIndex && indices->shape.dynamicRank) || !axis) {
        return {ir::Abstract::tensor(params->dtype, dynamicRankShape()), nullptr};
    }
    const auto ax = static_cast<std::size_t>(
        normalizeAxis(ctx.name(), "axis", *axis, static_cast<std::int64_t>(params->shape.rank())));
    Shape out(std::vector<std::int64_t>(
        params->shape.dims.begin(), params->shape.dims.begin() + static_cast<std::ptrdiff_t>(ax)));
    if (!scalarIndex) {
        out.dims.insert(out.dims.end(), indices->shape.dims.begin(), indices->shape.dims.end());
    }
    out.dims.insert(out.dims.end(),
                    params->shape.dims.begin() + static_cast<std::ptrdiff_t>(ax) + 1,
                    params->shape.dims.end());
    return {ir::Abstract::tensor(params->dtype, out), nullptr};
}

KernelArg runGather(const KernelContext& ctx) {
    const Tensor params = ctx.tensor(0);
    const KernelArg idxArg = ctx.input(1);
    const bool scalarIndex = !idxArg.isTensor();
    const Tensor indices = ctx.tensor(1);
    if (!ir::isInteger(indices.dtype())) {
        typeError(ctx.name(), "the 'input_indices' must be an integer Tensor.");
    }
    if (intOf(ctx.attr("batch_dims")).value_or(0) != 0) {
        valueError(ctx.name(), "only 'batch_dims' 0 is supported.");
    }
    const auto axisValue = intOf(valueFromKernelArg(ctx.input(2)));
    if (!axisValue) {
        typeError(ctx.name(), "the 'axis' must be an int.");
    }
    const auto ax = static_cast<std::size_t>(
        normalizeAxis(ctx.name(), "axis", *axisValue, static_cast<std::int64_t>(params.rank())));
    const auto& pd = params.shape().dims;
    const Index outer = product(std::span(pd).first(ax));
    const Index size = pd[ax];
    const Index inner = product(std::span(pd).subspan(ax + 1));
    std::vector<std::int64_t> outDims(pd.begin(), pd.begin() + static_cast<std::ptrdiff_t>(ax));
    if (!scalarIndex) {
        outDims.insert(outDims.end(), indices.shape().dims.begin(), indices.shape().dims.end());
    }
    outDims.insert(outDims.end(), pd.begin() + static_cast<std::ptrdiff_t>(ax) + 1, pd.end());
    Tensor out(params.dtype(), Shape(outDims));
    const auto n = static_cast<Index>(indices.size());
    std::vector<Index> idx(static_cast<std::size_t>(n));
    for (Index j = 0; j < n; ++j) {
        std::int64_t v = indices.getInt(static_cast<std::size_t>(j));
        if (v < -size || v >= size) {
            fail(ErrorKind::IndexError, "For '" + ctx.name() + "', index " + std::to_string(v) +
                                            " is out of bounds for axis " + std::to_string(ax) +
                                            " with size " + std::to_string(size) + ".");
        }
        idx[static_cast<std::size_t>(j)] = v < 0 ? v + size : v;
    }
    if (out.size() == 0) {
        return KernelArg(out);
    }
    dispatchBySize(ir::dtypeSize(params.dtype()), [&](auto tag) {
        using E = decltype(tag);
        using Mat = Eigen::Matrix<E, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        Eigen::Map<const Mat> src(params.data<E>(), outer * size, inner);
        Eigen::Map<Mat> dst(out.data<E>(), outer * n, inner);
        for (Index o = 0; o < outer; ++o) {
            for (Index j = 0; j < n; ++j) {
                dst.row(o * n + j) = src.row(o * size + idx[static_cast<std::size_t>(j)]);
            }
        }
    });
    return KernelArg(out);
}

}  // namespace

void registerIndexOps(OpRegistry& reg) {
    {
        OpDef d{.name = "StridedSlice", .family = "array", .summary = "x[begin:end:strides]"};
        d.attrs = {argDefault("begin_mask", ArgKind::Int, vInt(0)),
                   argDefault("end_mask", ArgKind::Int, vInt(0)),
                   argDefault("ellipsis_mask", ArgKind::Int, vInt(0)),
                   argDefault("new_axis_mask", ArgKind::Int, vInt(0)),
                   argDefault("shrink_axis_mask", ArgKind::Int, vInt(0))};
        d.inputs = {argIn("input_x"), argIn("begin", ArgKind::IntTuple),
                    argIn("end", ArgKind::IntTuple), argIn("strides", ArgKind::IntTuple)};
        d.infer = inferStridedSlice;
        d.cpuKernel = runStridedSlice;
        addClassSpellings(d);
        std::vector<ParamMap> params{toInput("input_x", 0), toInput("begin", 1), toInput("end", 2),
                                     toInput("strides", 3)};
        for (const char* m :
             {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
            params.push_back(toAttr(m, m, vInt(0)));
        }
        addFunction(d, {"ops", "F"}, "strided_slice", params);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Gather",
                .family = "array",
                .summary = "takes slices along an axis at the given indices"};
        d.attrs = {argDefault("batch_dims", ArgKind::Int, vInt(0))};
        d.inputs = {argIn("input_params"), argIn("input_indices"), argIn("axis", ArgKind::Int)};
        d.infer = inferGather;
        d.cpuKernel = runGather;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "gather",
                    {toInput("input_params", 0), toInput("input_indices", 1), toInput("axis", 2),
                     toAttr("batch_dims", "batch_dims", vInt(0))});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
