// Gathering and segment primitives: UnsortedSegmentSum (rows summed per segment id; ids
// outside [0, num_segments) dropped, as MindSpore does), GatherD (the elements of x named by
// index along dim) and GatherDGradV2, the primitive GatherD's gradient uses.
#include <algorithm>
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

void requireIndices(std::string_view op, DType t) {
    if (t != DType::Int32 && t != DType::Int64) {
        typeError(op, "the type of 'indices' must be Tensor[Int32, Int64], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

// ---- UnsortedSegmentSum ---------------------------------------------------------------------

std::int64_t numSegments(std::string_view op, const ValuePtr& v) {
    const auto n = v ? intOf(v) : std::nullopt;
    if (!n) {
        typeError(op, "the 'num_segments' must be an int or a 0-D int Tensor.");
    }
    if (*n <= 0) {
        valueError(
            op, "the 'num_segments' must be greater than 0, but got " + std::to_string(*n) + ".");
    }
    return *n;
}

void checkSegments(std::string_view op, const Shape& x, const Shape& ids) {
    if (x.dynamicRank || ids.dynamicRank || !x.isStatic() || !ids.isStatic()) {
        return;
    }
    bool prefix = ids.rank() <= x.rank();
    for (std::size_t d = 0; prefix && d < ids.rank(); ++d) {
        prefix = ids.dims[d] == x.dims[d];
    }
    if (!prefix) {
        valueError(op,
                   "the shape of 'segment_ids' must be a prefix of the shape of 'x', but got "
                   "'segment_ids' shape: " +
                       shapeStr(ids) + ", 'x' shape: " + shapeStr(x) + ".");
    }
}

InferResult inferSegmentSum(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    const AbstractPtr ids = tensorInput(c, 1, "segment_ids");
    if (ids->dtype != DType::Int32 && ids->dtype != DType::Int64) {
        typeError(c.name(), "the type of 'segment_ids' must be Tensor[Int32, Int64], but got " +
                                typeStr(ids) + ".");
    }
    checkSegments(c.name(), x->shape, ids->shape);
    const ValuePtr n = c.arg(2).value;
    if (x->shape.dynamicRank || ids->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, dynamicRankShape()), nullptr};
    }
    Shape out({n ? numSegments(c.name(), n) : -1});
    out.dims.insert(out.dims.end(),
                    x->shape.dims.begin() + static_cast<std::ptrdiff_t>(ids->shape.rank()),
                    x->shape.dims.end());
    return {ir::Abstract::tensor(x->dtype, out), nullptr};
}

KernelArg runSegmentSum(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const Tensor ids = c.tensor(1);
    checkSegments(c.name(), x.shape(), ids.shape());
    const std::int64_t n = numSegments(c.name(), valueFromKernelArg(c.input(2)));
    Shape out({n});
    out.dims.insert(out.dims.end(),
                    x.shape().dims.begin() + static_cast<std::ptrdiff_t>(ids.rank()),
                    x.shape().dims.end());
    Tensor r(x.dtype(), out);
    const std::size_t block = ids.size() == 0 ? 0 : x.size() / ids.size();
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const std::int64_t s = ids.getInt(k);
        if (s < 0 || s >= n) {
            continue;  // MindSpore drops the rows of an id out of [0, num_segments)
        }
        for (std::size_t e = 0; e < block; ++e) {
            const std::size_t at = static_cast<std::size_t>(s) * block + e;
            r.setDouble(at, r.getDouble(at) + x.getDouble(k * block + e));
        }
    }
    return KernelArg(r);
}

// ---- GatherD ------------------------------------------------------------------------------

std::int64_t gatherDim(std::string_view op, const ValuePtr& v, std::size_t rank) {
    const auto d = v ? intOf(v) : std::nullopt;
    if (!d) {
        typeError(op, "the 'dim' must be an int.");
    }
    return normalizeAxis(op, "dim", *d, static_cast<std::int64_t>(std::max<std::size_t>(rank, 1)));
}

void checkGatherD(std::string_view op, const Shape& x, const Shape& index, std::int64_t dim) {
    if (x.dynamicRank || index.dynamicRank) {
        return;
    }
    if (x.rank() != index.rank()) {
        valueError(op, "the rank of 'x' and 'index' must be the same, but got 'x' rank: " +
                           std::to_string(x.rank()) +
                           ", 'index' rank: " + std::to_string(index.rank()) + ".");
    }
    for (std::size_t d = 0; d < x.rank(); ++d) {
        if (static_cast<std::int64_t>(d) != dim && x.dims[d] >= 0 && index.dims[d] >= 0 &&
            index.dims[d] > x.dims[d]) {
            valueError(op,
                       "the shape of 'index' must not exceed the shape of 'x' except on "
                       "'dim', but got 'x' shape: " +
                           shapeStr(x) + ", 'index' shape: " + shapeStr(index) + ".");
        }
    }
}

// Calls f(indexFlat, xFlat) for every element of `index`, xFlat being the element of x it names
// (its coordinates with the one on `dim` replaced by the index value).
template <typename F>
void forEachGatherD(std::string_view op, const Shape& x, const Tensor& index, std::int64_t dim,
                    F f) {
    const auto xs = strides(x);
    const Shape& is = index.shape();
    std::vector<std::int64_t> coord(is.rank(), 0);
    for (std::size_t flat = 0; flat < index.size(); ++flat) {
        std::size_t at = 0;
        for (std::size_t d = 0; d < is.rank(); ++d) {
            std::int64_t v = coord[d];
            if (static_cast<std::int64_t>(d) == dim) {
                v = index.getInt(flat);
                const std::int64_t n = x.dims[d];
                if (v < -n || v >= n) {
                    valueError(op, "the value of 'index' must be in range [" + std::to_string(-n) +
                                       ", " + std::to_string(n) + "), but got " +
                                       std::to_string(v) + ".");
                }
                v = v < 0 ? v + n : v;
            }
            at += static_cast<std::size_t>(v) * xs[d];
        }
        f(flat, at);
        for (std::size_t d = is.rank(); d-- > 0;) {
            if (++coord[d] < is.dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
}

InferResult inferGatherD(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    const AbstractPtr idx = tensorInput(c, 2, "index");
    requireIndices(c.name(), idx->dtype);
    const ValuePtr dim = c.arg(1).value;
    if (dim && !x->shape.dynamicRank) {
        checkGatherD(c.name(), x->shape, idx->shape, gatherDim(c.name(), dim, x->shape.rank()));
    }
    return {ir::Abstract::tensor(x->dtype, idx->shape), nullptr};
}

KernelArg runGatherD(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const Tensor idx = c.tensor(2);
    requireIndices(c.name(), idx.dtype());
    const std::int64_t dim = gatherDim(c.name(), valueFromKernelArg(c.input(1)), x.rank());
    checkGatherD(c.name(), x.shape(), idx.shape(), dim);
    Tensor out(x.dtype(), idx.shape());
    const std::size_t w = ir::dtypeSize(x.dtype());
    forEachGatherD(c.name(), x.shape(), idx, dim, [&](std::size_t to, std::size_t from) {
        std::copy_n(x.bytes() + from * w, w, out.bytes() + to * w);
    });
    return KernelArg(out);
}

// GatherDGradV2(x, dim, index, grad): zeros like x with grad added where GatherD read.
KernelArg runGatherDGrad(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const Tensor idx = c.tensor(2);
    const Tensor g = c.tensor(3);
    const std::int64_t dim = gatherDim(c.name(), valueFromKernelArg(c.input(1)), x.rank());
    Tensor out(g.dtype(), x.shape());
    forEachGatherD(c.name(), x.shape(), idx, dim, [&](std::size_t from, std::size_t to) {
        out.setDouble(to, out.getDouble(to) + g.getDouble(from));
    });
    return KernelArg(out);
}

void registerSegmentBprops(OpRegistry& reg) {
    // d segment_sum: each row of x gets the gradient row of its segment.
    setBprop(reg, "UnsortedSegmentSum", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            ir::AttrMap a;
            a.set("batch_dims", ir::Value::integer(0));
            c.setGrad(0, c.emit("Gather", {c.dout(), c.input(1), c.constant(vInt(0))}, a));
        }
    });
    setBprop(reg, "GatherD", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.emit("GatherDGradV2", {c.input(0), c.input(1), c.input(2), c.dout()}));
        }
    });
}

}  // namespace

void registerSegmentOps(OpRegistry& reg) {
    {
        OpDef d{.name = "UnsortedSegmentSum",
                .family = "array",
                .summary = "the sum of the rows of x with each segment id"};
        d.inputs = {argIn("x"), argIn("segment_ids"), argIn("num_segments", ArgKind::Any)};
        d.infer = inferSegmentSum;
        d.cpuKernel = runSegmentSum;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "unsorted_segment_sum",
                    {toInput("input_x", 0), toInput("segment_ids", 1), toInput("num_segments", 2)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "GatherD",
                .family = "array",
                .summary = "the elements of x named by index along dim"};
        d.inputs = {argIn("x"), argIn("dim", ArgKind::Int), argIn("index")};
        d.infer = inferGatherD;
        d.cpuKernel = runGatherD;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "gather_elements",
                    {toInput("input", 0), toInput("dim", 1), toInput("index", 2)});
        addFunction(d, {"F"}, "gather_d",
                    {toInput("x", 0), toInput("dim", 1), toInput("index", 2)});
        addMethod(d, "gather_elements", {toInput("dim", 1), toInput("index", 2)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "GatherDGradV2",
                .family = "array",
                .summary = "the gradient of GatherD: grad added into zeros like x at index"};
        d.inputs = {argIn("x"), argIn("dim", ArgKind::Int), argIn("index"), argIn("grad")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            const AbstractPtr g = tensorInput(c, 3, "grad");
            return InferResult{ir::Abstract::tensor(g->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runGatherDGrad;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    registerSegmentBprops(reg);
}

}  // namespace irscope::ops
