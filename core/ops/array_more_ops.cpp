// More array primitives: Slice, Split, Unstack, Tril, Triu, Eye, Range, OneHot, Size and the
// N-d indexing trio GatherNd, ScatterNd, TensorScatterUpdate.
#include <algorithm>
#include <cmath>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

std::vector<std::int64_t> intList(std::string_view op, const char* name, const ValuePtr& v) {
    const auto r = v ? intsOf(v) : std::nullopt;
    if (!r) {
        typeError(op, std::string("the '") + name + "' must be a tuple/list of ints.");
    }
    return *r;
}

std::int64_t intValue(std::string_view op, const char* name, const ValuePtr& v) {
    const auto i = v ? intOf(v) : std::nullopt;
    if (!i) {
        typeError(op, std::string("the '") + name + "' must be an int.");
    }
    return *i;
}

// ---- Slice --------------------------------------------------------------------------------

Shape sliceShape(std::string_view op, const Shape& x, const std::vector<std::int64_t>& begin,
                 const std::vector<std::int64_t>& size) {
    if (begin.size() != x.rank() || size.size() != x.rank()) {
        valueError(op,
                   "the length of 'begin' and 'size' must be equal to the rank of 'input_x', "
                   "but got 'begin': " +
                       listStr(begin) + ", 'size': " + listStr(size) +
                       ", rank: " + std::to_string(x.rank()) + ".");
    }
    Shape out = x;
    for (std::size_t d = 0; d < x.rank(); ++d) {
        if (x.dims[d] < 0) {
            out.dims[d] = size[d] >= 0 ? size[d] : -1;
            continue;
        }
        const std::int64_t len = size[d] == -1 ? x.dims[d] - begin[d] : size[d];
        if (begin[d] < 0 || len < 0 || begin[d] + len > x.dims[d]) {
            valueError(op,
                       "the sum of 'begin' and 'size' must not exceed the shape of 'input_x' "
                       "and both must be non-negative ('size' may be -1), but got 'begin': " +
                           listStr(begin) + ", 'size': " + listStr(size) +
                           ", the shape of 'input_x': " + shapeStr(x) + ".");
        }
        out.dims[d] = len;
    }
    return out;
}

InferResult inferSlice(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "input_x");
    const ValuePtr b = c.arg(1).value;
    const ValuePtr s = c.arg(2).value;
    if (!b || !s || x->shape.dynamicRank) {
        return {
            ir::Abstract::tensor(x->dtype, x->shape.dynamicRank ? dynamicRankShape()
                                                                : unknownShape(x->shape.rank())),
            nullptr};
    }
    return {
        ir::Abstract::tensor(x->dtype, sliceShape(c.name(), x->shape, intList(c.name(), "begin", b),
                                                  intList(c.name(), "size", s))),
        nullptr};
}

KernelArg runSlice(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const auto begin = intList(c.name(), "begin", valueFromKernelArg(c.input(1)));
    const Shape out = sliceShape(c.name(), x.shape(), begin,
                                 intList(c.name(), "size", valueFromKernelArg(c.input(2))));
    Tensor r(x.dtype(), out);
    const auto st = strides(x.shape());
    forEachIndex(out, [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
        std::size_t src = 0;
        for (std::size_t d = 0; d < coord.size(); ++d) {
            src += static_cast<std::size_t>(coord[d] + begin[d]) * st[d];
        }
        copyElement(x, src, r, flat);
    });
    return KernelArg(r);
}

// g padded with zeros to `full` along each axis, g starting at begin[d].
ir::Node* padTo(BpropContext& c, ir::Node* g, const Shape& full,
                const std::vector<std::int64_t>& begin) {
    for (std::size_t d = 0; d < full.rank(); ++d) {
        const ir::AbstractPtr ga = g->abstract();
        const std::int64_t len = ga->shape.dims[d];
        std::vector<ir::Node*> parts;
        auto zeros = [&](std::int64_t n) {
            Shape s = ga->shape;
            s.dims[d] = n;
            return c.zerosLike(ir::Abstract::tensor(ga->dtype, s));
        };
        if (begin[d] > 0) {
            parts.push_back(zeros(begin[d]));
        }
        parts.push_back(g);
        if (begin[d] + len < full.dims[d]) {
            parts.push_back(zeros(full.dims[d] - begin[d] - len));
        }
        if (parts.size() > 1) {
            ir::AttrMap a;
            a.set("axis", ir::Value::integer(static_cast<std::int64_t>(d)));
            g = c.emit("Concat", {c.emit("MakeTuple", parts)}, a);
        }
    }
    return g;
}

void bpropSlice(BpropContext& c) {
    if (!c.needsGrad(0)) {
        return;
    }
    const Shape& full = c.absOf(0)->shape;
    const ir::AbstractPtr b = c.absOf(1);
    const auto begin = b && b->value ? intsOf(b->value) : std::nullopt;
    if (!full.isStatic() || !begin || !c.out()->abstract()->shape.isStatic()) {
        c.fail("For 'Slice', the gradient needs a static shape and a constant 'begin'.");
    }
    c.setGrad(0, padTo(c, c.dout(), full, *begin));
}

// ---- Split / Unstack ------------------------------------------------------------------------

struct SplitPlan {
    std::int64_t axis;
    std::int64_t count;
    Shape piece;
};

SplitPlan splitPlan(std::string_view op, const Shape& x, const ValuePtr& axisValue,
                    const ValuePtr& numValue, bool unstack) {
    SplitPlan p{normalizeAxis(op, "axis", intValue(op, "axis", axisValue),
                              static_cast<std::int64_t>(x.rank())),
                0, x};
    const std::int64_t dim = x.dims[static_cast<std::size_t>(p.axis)];
    if (unstack) {
        p.count = dim;
        if (numValue && !isNoneValue(numValue) && intValue(op, "num", numValue) != dim &&
            dim >= 0) {
            valueError(op,
                       "the 'num' must be equal to the dimension of 'input_x' at 'axis', but "
                       "got 'num': " +
                           std::to_string(intValue(op, "num", numValue)) +
                           ", dimension: " + std::to_string(dim) + ".");
        }
        p.piece.dims.erase(p.piece.dims.begin() + p.axis);
        return p;
    }
    p.count = intValue(op, "output_num", numValue);
    if (p.count <= 0) {
        valueError(op, "the 'output_num' must be a positive int, but got " +
                           std::to_string(p.count) + ".");
    }
    if (dim >= 0 && dim % p.count != 0) {
        valueError(op, "x_shape[" + std::to_string(p.axis) +
                           "] must be divisible by output_num = " + std::to_string(p.count) +
                           ", but got " + std::to_string(dim));
    }
    p.piece.dims[static_cast<std::size_t>(p.axis)] = dim < 0 ? -1 : dim / p.count;
    return p;
}

InferResult inferSplit(const InferContext& c, bool unstack) {
    const AbstractPtr x = tensorInput(c, 0, unstack ? "input_x" : "x");
    if (x->shape.dynamicRank) {
        typeError(c.name(), "the rank of the input must be known.");
    }
    const SplitPlan p = splitPlan(c.name(), x->shape, c.attr("axis"),
                                  c.attr(unstack ? "num" : "output_num"), unstack);
    if (p.count < 0) {
        typeError(c.name(), "the dimension of 'input_x' at 'axis' must be known.");
    }
    return {ir::Abstract::tuple(std::vector<AbstractPtr>(static_cast<std::size_t>(p.count),
                                                         ir::Abstract::tensor(x->dtype, p.piece))),
            nullptr};
}

KernelArg runSplit(const KernelContext& c, bool unstack) {
    const Tensor x = c.tensor(0);
    const SplitPlan p = splitPlan(c.name(), x.shape(), c.attr("axis"),
                                  c.attr(unstack ? "num" : "output_num"), unstack);
    const std::size_t dim =
        static_cast<std::size_t>(x.shape().dims[static_cast<std::size_t>(p.axis)]);
    const std::size_t len = dim / static_cast<std::size_t>(p.count);
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < x.rank(); ++d) {
        const auto n = static_cast<std::size_t>(x.shape().dims[d]);
        if (static_cast<std::int64_t>(d) < p.axis) {
            outer *= n;
        } else if (static_cast<std::int64_t>(d) > p.axis) {
            inner *= n;
        }
    }
    const std::size_t w = ir::dtypeSize(x.dtype());
    std::vector<KernelArg> parts;
    for (std::int64_t j = 0; j < p.count; ++j) {
        Tensor part(x.dtype(), p.piece);
        for (std::size_t o = 0; o < outer; ++o) {
            const std::size_t from = (o * dim + static_cast<std::size_t>(j) * len) * inner;
            std::copy_n(x.bytes() + from * w, len * inner * w, part.bytes() + o * len * inner * w);
        }
        parts.emplace_back(part);
    }
    return KernelArg::tuple(std::move(parts));
}

// Split / Unstack: the pieces' gradients joined again (zeros for the unused ones).
void bpropJoin(BpropContext& c, bool unstack) {
    if (!c.needsGrad(0)) {
        return;
    }
    const ir::AbstractPtr out = c.out()->abstract();
    std::vector<ir::Node*> parts;
    for (std::size_t i = 0; i < out->elements.size(); ++i) {
        ir::Node* g = c.doutElement(i);
        parts.push_back(g != nullptr ? g : c.zerosLike(out->elements[i]));
    }
    ir::AttrMap a;
    a.set("axis", c.attrs().get("axis") ? c.attrs().get("axis") : ir::Value::integer(0));
    c.setGrad(0, c.emit(unstack ? "Stack" : "Concat", {c.emit("MakeTuple", parts)}, a));
}

// ---- Tril / Triu / Eye ------------------------------------------------------------------------

KernelArg runTri(const KernelContext& c, bool lower) {
    const Tensor x = c.tensor(0);
    if (x.rank() < 2) {
        valueError(c.name(),
                   "the rank of 'x' must be at least 2, but got " + std::to_string(x.rank()) + ".");
    }
    const std::int64_t diag = intValue(c.name(), "diagonal", c.attr("diagonal"));
    Tensor out = x.clone();
    const std::int64_t rows = x.shape().dims[x.rank() - 2];
    const std::int64_t cols = x.shape().dims[x.rank() - 1];
    for (std::size_t k = 0; k < x.size(); ++k) {
        const auto j = static_cast<std::int64_t>(k) % cols;
        const auto i = (static_cast<std::int64_t>(k) / cols) % rows;
        if (lower ? j > i + diag : j < i + diag) {
            out.setDouble(k, 0.0);
        }
    }
    return KernelArg(out);
}

DType eyeType(const ValuePtr& v) {
    return v && !isNoneValue(v) ? dtypeOf(v).value_or(DType::Float32) : DType::Float32;
}

Shape eyeShape(std::string_view op, const ValuePtr& n, const ValuePtr& m) {
    const std::int64_t rows = intValue(op, "n", n);
    const std::int64_t cols = m && !isNoneValue(m) ? intValue(op, "m", m) : rows;
    if (rows < 0 || cols < 0) {
        valueError(op, "the 'n' and 'm' must be non-negative, but got n: " + std::to_string(rows) +
                           ", m: " + std::to_string(cols) + ".");
    }
    return Shape({rows, cols});
}

// ---- Range ------------------------------------------------------------------------------------

KernelArg runRange(const KernelContext& c) {
    const Tensor s = c.tensor(0);
    const DType t = s.dtype();
    const Tensor l = tensorAs(c.name(), c.input(1), t);
    const Tensor d = tensorAs(c.name(), c.input(2), t);
    const double start = s.getDouble(0), limit = l.getDouble(0), delta = d.getDouble(0);
    if (delta == 0.0) {
        valueError(c.name(), "the 'delta' can not be zero.");
    }
    if ((delta > 0 && start > limit) || (delta < 0 && start < limit)) {
        valueError(c.name(),
                   "the 'delta' must be positive when 'start' < 'limit' and negative "
                   "when 'start' > 'limit', but got start: " +
                       std::to_string(start) + ", limit: " + std::to_string(limit) +
                       ", delta: " + std::to_string(delta) + ".");
    }
    const auto n = static_cast<std::int64_t>(
        ir::isFloat(t) ? std::ceil((limit - start) / delta)
                       : std::ceil(std::abs(limit - start) / std::abs(delta)));
    const std::int64_t maxlen = intOf(c.attr("maxlen")).value_or(1000000);
    if (n > maxlen) {
        valueError(c.name(), "the number of elements of the output must be less than 'maxlen' (" +
                                 std::to_string(maxlen) + "), but got " + std::to_string(n) + ".");
    }
    Tensor out(t, Shape({n}));
    for (std::int64_t i = 0; i < n; ++i) {
        if (ir::isFloat(t)) {
            out.setDouble(static_cast<std::size_t>(i), start + static_cast<double>(i) * delta);
        } else {
            out.setInt(static_cast<std::size_t>(i), s.getInt(0) + i * d.getInt(0));
        }
    }
    return KernelArg(out);
}

// ---- OneHot -----------------------------------------------------------------------------------

void requireOneHotIndices(std::string_view op, DType t) {
    if (t != DType::Int32 && t != DType::Int64 && t != DType::UInt8) {
        typeError(op, "the type of 'indices' must be Tensor[Int32, Int64, UInt8], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

InferResult inferOneHot(const InferContext& c) {
    const AbstractPtr idx = tensorInput(c, 0, "indices");
    requireOneHotIndices(c.name(), idx->dtype);
    const Operand on = operandOf(c.name(), "on_value", c.abs(2));
    Shape out = idx->shape;
    if (!out.dynamicRank) {
        const std::int64_t axis = intValue(c.name(), "axis", c.attr("axis"));
        const auto rank = static_cast<std::int64_t>(out.rank());
        if (axis < -1 || axis > rank) {
            valueError(c.name(), "the 'axis' must be in range [-1, " + std::to_string(rank) +
                                     "], but got " + std::to_string(axis) + ".");
        }
        const ValuePtr depth = c.arg(1).value;
        const std::int64_t n = depth ? intValue(c.name(), "depth", depth) : -1;
        if (depth && n < 0) {
            valueError(c.name(),
                       "the 'depth' must be non-negative, but got " + std::to_string(n) + ".");
        }
        out.dims.insert(out.dims.begin() + (axis == -1 ? rank : axis), n);
    }
    return {ir::Abstract::tensor(on.dtype, out), nullptr};
}

KernelArg runOneHot(const KernelContext& c) {
    const Tensor idx = c.tensor(0);
    requireOneHotIndices(c.name(), idx.dtype());
    const std::int64_t depth = intValue(c.name(), "depth", valueFromKernelArg(c.input(1)));
    const Tensor on = c.tensor(2);
    const Tensor off = tensorAs(c.name(), c.input(3), on.dtype());
    const std::int64_t rank = static_cast<std::int64_t>(idx.rank());
    std::int64_t axis = intValue(c.name(), "axis", c.attr("axis"));
    axis = axis == -1 ? rank : axis;
    Shape outShape = idx.shape();
    outShape.dims.insert(outShape.dims.begin() + axis, depth);
    Tensor out(on.dtype(), outShape);
    std::size_t inner = 1;
    for (std::int64_t d = axis; d < rank; ++d) {
        inner *= static_cast<std::size_t>(idx.shape().dims[static_cast<std::size_t>(d)]);
    }
    for (std::size_t k = 0; k < idx.size(); ++k) {
        const std::size_t o = k / inner, i = k % inner;
        const std::int64_t hot = idx.getInt(k);
        for (std::int64_t j = 0; j < depth; ++j) {
            const std::size_t at =
                (o * static_cast<std::size_t>(depth) + static_cast<std::size_t>(j)) * inner + i;
            copyElement(j == hot ? on : off, 0, out, at);
        }
    }
    return KernelArg(out);
}

// ---- GatherNd / ScatterNd / TensorScatterUpdate ----------------------------------------------

// The flat offsets into `data` of the index tuples in `indices` (last axis = tuple length),
// each addressing a block of `block` elements.
struct NdPlan {
    std::vector<std::size_t> offsets;
    std::size_t block = 1;
    Shape lead;  // indices.shape[:-1]
};

NdPlan ndPlan(std::string_view op, const Shape& data, const Tensor& indices) {
    if (indices.rank() == 0) {
        valueError(op, "the rank of 'indices' must be at least 1.");
    }
    const auto depth = static_cast<std::size_t>(indices.shape().dims.back());
    if (depth > data.rank()) {
        valueError(op,
                   "the last dimension of 'indices' must be less than or equal to the rank "
                   "of 'input_x', but got " +
                       std::to_string(depth) + " and " + std::to_string(data.rank()) + ".");
    }
    NdPlan p;
    p.lead = Shape(
        std::vector<std::int64_t>(indices.shape().dims.begin(), indices.shape().dims.end() - 1));
    const auto st = strides(data);
    p.block = 1;
    for (std::size_t d = depth; d < data.rank(); ++d) {
        p.block *= static_cast<std::size_t>(data.dims[d]);
    }
    const std::size_t n =
        depth == 0 ? static_cast<std::size_t>(p.lead.elementCount()) : indices.size() / depth;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t off = 0;
        for (std::size_t j = 0; j < depth; ++j) {
            const std::int64_t i = indices.getInt(k * depth + j);
            if (i < 0 || i >= data.dims[j]) {
                valueError(op, "the " + std::to_string(k) +
                                   "th element of 'indices' is out of "
                                   "bounds: index " +
                                   std::to_string(i) + " is not in range [0, " +
                                   std::to_string(data.dims[j]) + ").");
            }
            off += static_cast<std::size_t>(i) * st[j];
        }
        p.offsets.push_back(off);
    }
    return p;
}

void requireIndexType(std::string_view op, DType t) {
    if (t != DType::Int32 && t != DType::Int64) {
        typeError(op, "the type of 'indices' must be Tensor[Int32, Int64], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

Shape gatherNdShape(std::string_view op, const Shape& x, const Shape& idx) {
    if (idx.rank() == 0 || idx.dims.back() < 0) {
        return dynamicRankShape();
    }
    const auto depth = static_cast<std::size_t>(idx.dims.back());
    if (depth > x.rank()) {
        valueError(op,
                   "the last dimension of 'indices' must be less than or equal to the rank "
                   "of 'input_x', but got " +
                       std::to_string(depth) + " and " + std::to_string(x.rank()) + ".");
    }
    Shape out(std::vector<std::int64_t>(idx.dims.begin(), idx.dims.end() - 1));
    out.dims.insert(out.dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(depth),
                    x.dims.end());
    return out;
}

KernelArg runGatherNd(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const Tensor idx = c.tensor(1);
    requireIndexType(c.name(), idx.dtype());
    const NdPlan p = ndPlan(c.name(), x.shape(), idx);
    Tensor out(x.dtype(), gatherNdShape(c.name(), x.shape(), idx.shape()));
    const std::size_t w = ir::dtypeSize(x.dtype()) * p.block;
    for (std::size_t k = 0; k < p.offsets.size(); ++k) {
        std::copy_n(x.bytes() + p.offsets[k] * ir::dtypeSize(x.dtype()), w, out.bytes() + k * w);
    }
    return KernelArg(out);
}

// Writes (or adds) updates' blocks into `out` at the plan's offsets.
void scatterInto(std::string_view op, Tensor& out, const Tensor& indices, const Tensor& updates,
                 bool add) {
    const NdPlan p = ndPlan(op, out.shape(), indices);
    if (updates.size() != p.offsets.size() * p.block) {
        valueError(op,
                   "the shape of 'updates' must be indices.shape[:-1] + "
                   "shape[indices.shape[-1]:], but got the shape of 'updates': " +
                       shapeStr(updates.shape()) + ".");
    }
    const Tensor u = updates.dtype() == out.dtype() ? updates : updates.cast(out.dtype());
    for (std::size_t k = 0; k < p.offsets.size(); ++k) {
        for (std::size_t e = 0; e < p.block; ++e) {
            const std::size_t at = p.offsets[k] + e;
            const std::size_t from = k * p.block + e;
            if (add) {
                out.setDouble(at, out.getDouble(at) + u.getDouble(from));
            } else {
                copyElement(u, from, out, at);
            }
        }
    }
}

void registerShapeOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Slice", .family = "array", .summary = "a block given begin and size"};
        d.inputs = {argIn("input_x"), argIn("begin", ArgKind::IntTuple),
                    argIn("size", ArgKind::IntTuple)};
        d.infer = inferSlice;
        d.cpuKernel = runSlice;
        d.bprop = bpropSlice;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "slice",
                    {toInput("input_x", 0), toInput("begin", 1), toInput("size", 2)});
        reg.add(std::move(d));
    }
    for (const bool unstack : {false, true}) {
        OpDef d{.name = unstack ? "Unstack" : "Split",
                .family = "array",
                .summary = unstack ? "the slices along an axis" : "equal pieces along an axis"};
        d.attrs = {argDefault("axis", ArgKind::Int, vInt(0)),
                   unstack ? argDefault("num", ArgKind::Int, vNone())
                           : argDefault("output_num", ArgKind::Int, vInt(1))};
        d.inputs = {argIn(unstack ? "input_x" : "x")};
        d.infer = [unstack](const InferContext& c) { return inferSplit(c, unstack); };
        d.cpuKernel = [unstack](const KernelContext& c) { return runSplit(c, unstack); };
        d.bprop = [unstack](BpropContext& c) { bpropJoin(c, unstack); };
        addClassSpellings(d);
        if (unstack) {
            addFunction(d, {"ops", "F"}, "unstack",
                        {toInput("input_x", 0), toAttr("axis", "axis", vInt(0))});
        }
        reg.add(std::move(d));
    }
    for (const bool lower : {true, false}) {
        OpDef d{.name = lower ? "Tril" : "Triu",
                .family = "array",
                .summary = lower ? "the lower triangle (zeros above the diagonal)"
                                 : "the upper triangle (zeros below the diagonal)"};
        d.attrs = {argDefault("diagonal", ArgKind::Int, vInt(0))};
        d.inputs = {argIn("x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            if (!x->shape.dynamicRank && x->shape.rank() < 2) {
                valueError(c.name(), "the rank of 'x' must be at least 2, but got " +
                                         std::to_string(x->shape.rank()) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = [lower](const KernelContext& c) { return runTri(c, lower); };
        // The same mask on the gradient.
        d.bprop = [lower](BpropContext& c) {
            if (c.needsGrad(0)) {
                c.setGrad(0, c.emit(lower ? "Tril" : "Triu", {c.dout()}, c.attrs()));
            }
        };
        addClassSpellings(d);
        const char* f = lower ? "tril" : "triu";
        addFunction(d, {"ops", "F"}, f,
                    {toInput("input", 0), toAttr("diagonal", "diagonal", vInt(0))});
        addMethod(d, f, {toAttr("diagonal", "diagonal", vInt(0))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Eye", .family = "array", .summary = "an n x m identity matrix"};
        d.inputs = {argIn("n", ArgKind::Int), argDefault("m", ArgKind::Int, vNone()),
                    argDefault("t", ArgKind::Type, vNone())};
        d.infer = [](const InferContext& c) {
            const ValuePtr n = c.arg(0).value;
            const DType t = eyeType(c.arg(2).value);
            if (!n) {
                return InferResult{ir::Abstract::tensor(t, unknownShape(2)), nullptr};
            }
            return InferResult{ir::Abstract::tensor(t, eyeShape(c.name(), n, c.arg(1).value)),
                               nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Shape s =
                eyeShape(c.name(), valueFromKernelArg(c.input(0)), valueFromKernelArg(c.input(1)));
            Tensor out(eyeType(valueFromKernelArg(c.input(2))), s);
            for (std::int64_t i = 0; i < std::min(s.dims[0], s.dims[1]); ++i) {
                out.setDouble(static_cast<std::size_t>(i * s.dims[1] + i), 1.0);
            }
            return KernelArg(out);
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "eye",
                    {toInput("n", 0), toInput("m", 1, vNone()), toInput("dtype", 2, vNone())});
        reg.add(std::move(d));
    }
}

}  // namespace

void registerArrayMoreOps(OpRegistry& reg) {
    registerShapeOps(reg);
    {
        OpDef d{.name = "Range",
                .family = "array",
                .summary = "start, start + delta, ... up to limit (excluded)"};
        d.attrs = {argDefault("maxlen", ArgKind::Int, vInt(1000000))};
        d.inputs = {argIn("start", ArgKind::Number), argIn("limit", ArgKind::Number),
                    argIn("delta", ArgKind::Number)};
        d.infer = [](const InferContext& c) {
            const Operand s = operandOf(c.name(), "start", c.abs(0));
            if (s.dtype == DType::Bool) {
                typeError(c.name(), "the 'start' must be a number, but got Bool.");
            }
            // Constant bounds (ops.arange(3) in a graph) give the length: a static shape.
            const auto start = numberOf(c.arg(0).value);
            const auto limit = numberOf(c.arg(1).value);
            const auto delta = numberOf(c.arg(2).value);
            if (start && limit && delta && *delta != 0.0) {
                const double n = std::ceil((*limit - *start) / *delta);
                const auto len = static_cast<std::int64_t>(std::max(0.0, n));
                return InferResult{ir::Abstract::tensor(s.dtype, Shape{{len}}), nullptr};
            }
            return InferResult{ir::Abstract::tensor(s.dtype, unknownShape(1)), nullptr};
        };
        d.cpuKernel = runRange;
        addClassSpellings(d);
        addFunction(d, {"ops"}, "range",
                    {toInput("start", 0), toInput("end", 1), toInput("step", 2)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "OneHot",
                .family = "array",
                .summary = "on_value at each index along a new axis, off_value elsewhere"};
        d.attrs = {argDefault("axis", ArgKind::Int, vInt(-1))};
        d.inputs = {argIn("indices"), argIn("depth", ArgKind::Int),
                    argIn("on_value", ArgKind::Number), argIn("off_value", ArgKind::Number)};
        d.infer = inferOneHot;
        d.cpuKernel = runOneHot;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "one_hot",
                    {toInput("indices", 0), toInput("depth", 1), toInput("on_value", 2, vInt(1)),
                     toInput("off_value", 3, vInt(0)), toAttr("axis", "axis", vInt(-1))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Size", .family = "array", .summary = "the number of elements"};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (x->shape.isStatic()) {
                const ValuePtr v = ir::Value::integer(x->shape.elementCount());
                return InferResult{abstractOfValue(v), v};
            }
            return InferResult{ir::Abstract::scalar(DType::Int64), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            return KernelArg(ir::Value::integer(static_cast<std::int64_t>(c.tensor(0).size())));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "size", {toInput("input_x", 0)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "GatherNd",
                .family = "array",
                .summary = "slices of x addressed by index tuples"};
        d.inputs = {argIn("input_x"), argIn("indices")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            const AbstractPtr idx = tensorInput(c, 1, "indices");
            requireIndexType(c.name(), idx->dtype);
            return InferResult{
                ir::Abstract::tensor(x->dtype, gatherNdShape(c.name(), x->shape, idx->shape)),
                nullptr};
        };
        d.cpuKernel = runGatherNd;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "gather_nd", {toInput("input_x", 0), toInput("indices", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "ScatterNd",
                .family = "array",
                .summary = "zeros of shape with updates added at index tuples"};
        d.inputs = {argIn("indices"), argIn("updates"), argIn("shape", ArgKind::IntTuple)};
        d.infer = [](const InferContext& c) {
            requireIndexType(c.name(), tensorInput(c, 0, "indices")->dtype);
            const AbstractPtr u = tensorInput(c, 1, "updates");
            const ValuePtr s = c.arg(2).value;
            return InferResult{
                ir::Abstract::tensor(u->dtype,
                                     s ? Shape(intList(c.name(), "shape", s)) : dynamicRankShape()),
                nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor idx = c.tensor(0);
            requireIndexType(c.name(), idx.dtype());
            const Tensor u = c.tensor(1);
            Tensor out(u.dtype(),
                       Shape(intList(c.name(), "shape", valueFromKernelArg(c.input(2)))));
            scatterInto(c.name(), out, idx, u, true);
            return KernelArg(out);
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "scatter_nd",
                    {toInput("indices", 0), toInput("updates", 1), toInput("shape", 2)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "TensorScatterUpdate",
                .family = "array",
                .summary = "a copy of x with the index tuples' slices replaced by updates"};
        d.inputs = {argIn("input_x"), argIn("indices"), argIn("updates")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            requireIndexType(c.name(), tensorInput(c, 1, "indices")->dtype);
            const AbstractPtr u = tensorInput(c, 2, "updates");
            if (u->dtype != x->dtype) {
                typeError(c.name(),
                          "the dtype of 'updates' must be the same as 'input_x', but "
                          "got " +
                              typeStr(u) + " and " + typeStr(x) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            Tensor out = c.tensor(0).clone();
            const Tensor idx = c.tensor(1);
            requireIndexType(c.name(), idx.dtype());
            scatterInto(c.name(), out, idx, c.tensor(2), false);
            return KernelArg(out);
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "tensor_scatter_update",
                    {toInput("input_x", 0), toInput("indices", 1), toInput("updates", 2)});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
