// Selecting and combining primitives: Meshgrid, Diag/DiagPart, Cross, ReduceStd (standard
// deviation and mean), and the data-dependent shapes NonZero, MaskedSelect and Unique (their
// first dimension is known only when run).
#include <algorithm>
#include <cmath>
#include <map>
#include <span>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

// ---- Meshgrid ---------------------------------------------------------------------------------

bool xyIndexing(std::string_view op, const ValuePtr& v) {
    const std::string m = v && v->kind == ir::Value::Kind::String ? v->text : "xy";
    if (m != "xy" && m != "ij") {
        valueError(op, "the 'indexing' must be 'xy' or 'ij', but got '" + m + "'.");
    }
    return m == "xy";
}

Shape meshShape(std::span<const std::int64_t> lens, bool xy) {
    Shape s(std::vector<std::int64_t>(lens.begin(), lens.end()));
    if (xy && s.rank() >= 2) {
        std::swap(s.dims[0], s.dims[1]);
    }
    return s;
}

InferResult inferMeshgrid(const InferContext& c) {
    const AbstractPtr t = c.abs(0);
    if (!t || (t->kind != ir::Abstract::Kind::Tuple && t->kind != ir::Abstract::Kind::List)) {
        typeError(c.name(), "the 'inputs' must be a tuple of Tensors, but got " + typeStr(t) + ".");
    }
    if (t->elements.size() < 2) {
        valueError(c.name(), "the length of 'inputs' must be at least 2, but got " +
                                 std::to_string(t->elements.size()) + ".");
    }
    const bool xy = xyIndexing(c.name(), c.attr("indexing"));
    std::vector<std::int64_t> lens;
    const DType dt = t->elements[0]->dtype;
    for (const AbstractPtr& e : t->elements) {
        if (!isTensorAbs(e) || (!e->shape.dynamicRank && e->shape.rank() != 1)) {
            valueError(c.name(), "each input must be a 1-D Tensor, but got " + typeStr(e) +
                                     (isTensorAbs(e) ? " of shape " + shapeStr(e->shape) : "") +
                                     ".");
        }
        if (e->dtype != dt) {
            typeError(c.name(), "all the inputs must have the same dtype, but got " +
                                    typeStr(t->elements[0]) + " and " + typeStr(e) + ".");
        }
        lens.push_back(e->shape.dynamicRank ? -1 : e->shape.dims[0]);
    }
    const AbstractPtr one = ir::Abstract::tensor(dt, meshShape(lens, xy));
    return {ir::Abstract::tuple(std::vector<AbstractPtr>(lens.size(), one)), nullptr};
}

KernelArg runMeshgrid(const KernelContext& c) {
    const std::vector<Tensor> in = tensorList(c.name(), c.input(0));
    const bool xy = xyIndexing(c.name(), c.attr("indexing"));
    std::vector<std::int64_t> lens;
    for (const Tensor& t : in) {
        lens.push_back(static_cast<std::int64_t>(t.size()));
    }
    const Shape s = meshShape(lens, xy);
    std::vector<KernelArg> outs;
    for (std::size_t k = 0; k < in.size(); ++k) {
        // Input k varies along output axis k (axes 0 and 1 swapped for 'xy').
        std::size_t axis = k;
        if (xy && k < 2) {
            axis = 1 - k;
        }
        Tensor r(in[k].dtype(), s);
        forEachIndex(s, [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
            copyElement(in[k], static_cast<std::size_t>(coord[axis]), r, flat);
        });
        outs.emplace_back(r);
    }
    return KernelArg::tuple(std::move(outs));
}

// ---- Cross
// ---------------------------------------------------------------------------------------

constexpr std::int64_t kCrossDefaultDim = -65530;

std::int64_t crossDim(std::string_view op, const ValuePtr& v, const Shape& s) {
    const auto d = v && !isNoneValue(v) ? intOf(v) : std::optional<std::int64_t>(kCrossDefaultDim);
    if (!d) {
        typeError(op, "the 'dim' must be an int.");
    }
    const auto rank = static_cast<std::int64_t>(s.rank());
    if (*d == kCrossDefaultDim) {
        for (std::size_t k = 0; k < s.rank(); ++k) {
            if (s.dims[k] == 3) {
                return static_cast<std::int64_t>(k);
            }
        }
        valueError(op, "no dimension of 'x1' has size 3, but got the shape " + shapeStr(s) + ".");
    }
    const std::int64_t a = normalizeAxis(op, "dim", *d, rank);
    if (s.dims[static_cast<std::size_t>(a)] != 3) {
        valueError(op, "the size of 'x1' at 'dim' must be 3, but got " +
                           std::to_string(s.dims[static_cast<std::size_t>(a)]) + ".");
    }
    return a;
}

ValuePtr crossDimConv(const ValuePtr& v) {
    return isNoneValue(v) ? vInt(kCrossDefaultDim) : v;
}

KernelArg runCross(const KernelContext& c) {
    const Tensor a = c.tensor(0);
    const Tensor b = c.tensor(1);
    if (a.shape() != b.shape()) {
        valueError(c.name(), "the shape of 'x1' and 'x2' must be the same, but got " +
                                 shapeStr(a.shape()) + " and " + shapeStr(b.shape()) + ".");
    }
    const std::int64_t dim = crossDim(c.name(), c.attr("dim"), a.shape());
    const std::size_t step = strides(a.shape())[static_cast<std::size_t>(dim)];
    Tensor r(a.dtype(), a.shape());
    forEachIndex(a.shape(), [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
        const auto k = static_cast<std::size_t>(coord[static_cast<std::size_t>(dim)]);
        const std::size_t base = flat - k * step;
        auto at = [&](const Tensor& t, std::size_t j) { return t.getDouble(base + j * step); };
        const std::size_t j1 = (k + 1) % 3;
        const std::size_t j2 = (k + 2) % 3;
        r.setDouble(flat, at(a, j1) * at(b, j2) - at(a, j2) * at(b, j1));
    });
    return KernelArg(r);
}

// ---- ReduceStd ---------------------------------------------------------------------------------

// ReduceStd's axis: () reduces every dimension.
std::vector<std::int64_t> stdAxes(std::string_view op, const ValuePtr& v, std::size_t rank) {
    std::vector<std::int64_t> axes = axisAttr(op, v, rank);
    if (axes.empty()) {
        for (std::size_t d = 0; d < rank; ++d) {
            axes.push_back(static_cast<std::int64_t>(d));
        }
    }
    return axes;
}

Shape stdShape(const Shape& x, const std::vector<std::int64_t>& axes, bool keep) {
    Shape out;
    for (std::size_t d = 0; d < x.rank(); ++d) {
        const bool reduced =
            std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(d)) != axes.end();
        if (!reduced) {
            out.dims.push_back(x.dims[d]);
        } else if (keep) {
            out.dims.push_back(1);
        }
    }
    return out;
}

KernelArg runReduceStd(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    if (!ir::isFloat(x.dtype())) {
        typeError(c.name(),
                  "the type of 'input_x' must be Tensor[Float16, Float32], but got "
                  "Tensor[" +
                      typeStr(x.dtype()) + "].");
    }
    const auto axes = stdAxes(c.name(), c.attr("axis"), x.rank());
    const bool unbiased = boolOf(c.attr("unbiased")).value_or(true);
    const bool keep = boolOf(c.attr("keep_dims")).value_or(false);
    const Shape out = stdShape(x.shape(), axes, keep);
    const Shape kept = stdShape(x.shape(), axes, true);
    const auto ks = strides(kept);
    std::vector<double> sum(static_cast<std::size_t>(kept.elementCount()), 0.0);
    std::vector<double> sq(sum.size(), 0.0);
    std::vector<std::size_t> key(x.size());
    forEachIndex(x.shape(), [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
        std::size_t k = 0;
        for (std::size_t d = 0; d < coord.size(); ++d) {
            k += kept.dims[d] == 1 ? 0 : static_cast<std::size_t>(coord[d]) * ks[d];
        }
        key[flat] = k;
        sum[k] += x.getDouble(flat);
    });
    const double n =
        sum.empty() ? 1.0 : static_cast<double>(x.size()) / static_cast<double>(sum.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double d = x.getDouble(i) - sum[key[i]] / n;
        sq[key[i]] += d * d;
    }
    Tensor sd(x.dtype(), out);
    Tensor mean(x.dtype(), out);
    for (std::size_t k = 0; k < sum.size(); ++k) {
        mean.setDouble(k, sum[k] / n);
        sd.setDouble(k, std::sqrt(sq[k] / (unbiased ? n - 1.0 : n)));
    }
    return KernelArg::tuple({KernelArg(sd), KernelArg(mean)});
}

// ---- gradients ----------------------------------------------------------------------------------

// Diag: the diagonal of dout.
void registerSelectBprops(OpRegistry& reg) {
    setBprop(reg, "Diag", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.emit("DiagPart", {c.dout()}));
        }
    });
}

// Diag and its inverse DiagPart.
Shape diagShape(const Shape& x) {
    Shape s = x;
    s.dims.insert(s.dims.end(), x.dims.begin(), x.dims.end());
    return s;
}

}  // namespace

void registerSelectOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Meshgrid", .family = "array", .summary = "coordinate grids of 1-D inputs"};
        d.attrs = {argDefault("indexing", ArgKind::String, ir::Value::string("xy"))};
        d.inputs = {argIn("inputs", ArgKind::TensorTuple)};
        d.infer = inferMeshgrid;
        d.cpuKernel = runMeshgrid;
        addClassSpellings(d);
        ParamMap inputs = toInput("inputs", 0);
        inputs.variadic = true;
        addFunction(d, {"ops", "F"}, "meshgrid",
                    {inputs, toAttr("indexing", "indexing", ir::Value::string("xy"))});
        reg.add(std::move(d));
    }
    for (const bool part : {false, true}) {
        OpDef d{.name = part ? "DiagPart" : "Diag",
                .family = "array",
                .summary = part ? "the diagonal of a [s, s] tensor" : "a diagonal tensor of x"};
        d.inputs = {argIn(part ? "input_x" : "input_x")};
        d.infer = [part](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (x->shape.dynamicRank) {
                return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
            }
            if (!part) {
                if (x->shape.rank() == 0) {
                    valueError(c.name(), "the rank of 'input_x' must be at least 1, but got 0.");
                }
                return InferResult{ir::Abstract::tensor(x->dtype, diagShape(x->shape)), nullptr};
            }
            const std::size_t r = x->shape.rank();
            if (r == 0 || r % 2 != 0) {
                valueError(c.name(), "the rank of 'input_x' must be even and positive, but got " +
                                         std::to_string(r) + ".");
            }
            Shape half(std::vector<std::int64_t>(
                x->shape.dims.begin(), x->shape.dims.begin() + static_cast<std::ptrdiff_t>(r / 2)));
            if (diagShape(half) != x->shape) {
                valueError(c.name(), "the shape of 'input_x' must be s + s, but got " +
                                         shapeStr(x->shape) + ".");
            }
            return InferResult{ir::Abstract::tensor(x->dtype, half), nullptr};
        };
        d.cpuKernel = [part](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            const std::size_t n =
                part ? static_cast<std::size_t>(std::sqrt(static_cast<double>(x.size()) + 0.5))
                     : x.size();
            if (part) {
                Shape half(std::vector<std::int64_t>(
                    x.shape().dims.begin(),
                    x.shape().dims.begin() + static_cast<std::ptrdiff_t>(x.rank() / 2)));
                Tensor r(x.dtype(), half);
                for (std::size_t i = 0; i < r.size(); ++i) {
                    copyElement(x, i * r.size() + i, r, i);
                }
                return KernelArg(r);
            }
            if (x.rank() == 0) {
                valueError(c.name(), "the rank of 'input_x' must be at least 1, but got 0.");
            }
            Tensor r(x.dtype(), diagShape(x.shape()));
            for (std::size_t i = 0; i < n; ++i) {
                copyElement(x, i, r, i * n + i);
            }
            return KernelArg(r);
        };
        addClassSpellings(d);
        if (!part) {
            addFunction(d, {"ops", "F"}, "diag", {toInput("input", 0)});
        }
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Cross",
                .family = "math",
                .summary = "the cross product along a dim of size 3"};
        d.attrs = {argDefault("dim", ArgKind::Int, vInt(kCrossDefaultDim))};
        d.inputs = {argIn("x1"), argIn("x2")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr a = tensorInput(c, 0, "x1");
            const AbstractPtr b = tensorInput(c, 1, "x2");
            if (a->dtype != b->dtype) {
                typeError(c.name(), "the dtype of 'x1' and 'x2' must be the same, but got " +
                                        typeStr(a) + " and " + typeStr(b) + ".");
            }
            if (a->shape.isStatic() && b->shape.isStatic()) {
                if (a->shape != b->shape) {
                    valueError(c.name(), "the shape of 'x1' and 'x2' must be the same, but got " +
                                             shapeStr(a->shape) + " and " + shapeStr(b->shape) +
                                             ".");
                }
                crossDim(c.name(), c.attr("dim"), a->shape);
            }
            return InferResult{ir::Abstract::tensor(a->dtype, a->shape), nullptr};
        };
        d.cpuKernel = runCross;
        addClassSpellings(d);
        ParamMap dim = toAttr("dim", "dim", vNone());
        dim.convert = crossDimConv;
        addFunction(d, {"ops", "F"}, "cross", {toInput("input", 0), toInput("other", 1), dim});
        addMethod(d, "cross", {toInput("other", 1), dim});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "NonZero",
                .family = "array",
                .summary = "the coordinates of the non-zero elements"};
        d.foldable = false;
        d.inputs = {argIn("x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            if (!x->shape.dynamicRank && x->shape.rank() == 0) {
                valueError(c.name(), "the rank of 'x' must be at least 1, but got 0.");
            }
            return InferResult{
                ir::Abstract::tensor(
                    DType::Int64,
                    Shape({-1, x->shape.dynamicRank ? -1
                                                    : static_cast<std::int64_t>(x->shape.rank())})),
                nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            if (x.rank() == 0) {
                valueError(c.name(), "the rank of 'x' must be at least 1, but got 0.");
            }
            std::vector<std::int64_t> coords;
            std::int64_t count = 0;
            forEachIndex(x.shape(), [&](std::size_t flat, const std::vector<std::int64_t>& coord) {
                if (x.getDouble(flat) != 0.0) {
                    coords.insert(coords.end(), coord.begin(), coord.end());
                    ++count;
                }
            });
            return KernelArg(Tensor::fromInts(
                DType::Int64, Shape({count, static_cast<std::int64_t>(x.rank())}), coords));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "nonzero", {toInput("input", 0)});
        addMethod(d, "nonzero", {});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "MaskedSelect",
                .family = "array",
                .summary = "the elements of x where mask is True, as a 1-D tensor"};
        d.foldable = false;
        d.inputs = {argIn("x"), argIn("mask")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            const AbstractPtr m = tensorInput(c, 1, "mask");
            if (m->dtype != DType::Bool) {
                typeError(c.name(),
                          "the type of 'mask' must be Tensor[Bool], but got " + typeStr(m) + ".");
            }
            broadcastShapes(c.name(), x->shape, m->shape, "x", "mask");
            return InferResult{ir::Abstract::tensor(x->dtype, Shape({-1})), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x0 = c.tensor(0);
            const Tensor m0 = c.tensor(1);
            if (m0.dtype() != DType::Bool) {
                typeError(c.name(), "the type of 'mask' must be Tensor[Bool], but got Tensor[" +
                                        typeStr(m0.dtype()) + "].");
            }
            const Shape s = broadcastShapes(c.name(), x0.shape(), m0.shape(), "x", "mask");
            const Tensor x = broadcastTo(c.name(), x0, s);
            const Tensor m = broadcastTo(c.name(), m0, s);
            std::vector<std::size_t> picked;
            for (std::size_t i = 0; i < m.size(); ++i) {
                if (m.getInt(i) != 0) {
                    picked.push_back(i);
                }
            }
            Tensor r(x.dtype(), Shape({static_cast<std::int64_t>(picked.size())}));
            for (std::size_t k = 0; k < picked.size(); ++k) {
                copyElement(x, picked[k], r, k);
            }
            return KernelArg(r);
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "masked_select", {toInput("input", 0), toInput("mask", 1)});
        addMethod(d, "masked_select", {toInput("mask", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Unique",
                .family = "array",
                .summary = "the distinct values in first-seen order, and each element's index"};
        d.foldable = false;
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (!x->shape.dynamicRank && x->shape.rank() != 1) {
                valueError(c.name(), "the rank of 'input_x' must be 1, but got " +
                                         std::to_string(x->shape.rank()) + ".");
            }
            const DType it = x->dtype == DType::Int64 ? DType::Int64 : DType::Int32;
            return InferResult{ir::Abstract::tuple({ir::Abstract::tensor(x->dtype, Shape({-1})),
                                                    ir::Abstract::tensor(it, x->shape)}),
                               nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            if (x.rank() != 1) {
                valueError(c.name(), "the rank of 'input_x' must be 1, but got " +
                                         std::to_string(x.rank()) + ".");
            }
            std::map<double, std::int64_t> seen;
            std::vector<std::size_t> firsts;
            std::vector<std::int64_t> idx;
            for (std::size_t i = 0; i < x.size(); ++i) {
                auto [it, fresh] =
                    seen.try_emplace(x.getDouble(i), static_cast<std::int64_t>(firsts.size()));
                if (fresh) {
                    firsts.push_back(i);
                }
                idx.push_back(it->second);
            }
            Tensor y(x.dtype(), Shape({static_cast<std::int64_t>(firsts.size())}));
            for (std::size_t k = 0; k < firsts.size(); ++k) {
                copyElement(x, firsts[k], y, k);
            }
            const DType it = x.dtype() == DType::Int64 ? DType::Int64 : DType::Int32;
            return KernelArg::tuple(
                {KernelArg(y), KernelArg(Tensor::fromInts(it, x.shape(), idx))});
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "unique", {toInput("input", 0)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "ReduceStd",
                .family = "reduce",
                .summary = "the standard deviation and the mean over axes"};
        d.attrs = {argDefault("axis", ArgKind::IntOrTuple, ir::Value::tuple({})),
                   argDefault("unbiased", ArgKind::Bool, vBool(true)),
                   argDefault("keep_dims", ArgKind::Bool, vBool(false))};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (x->dtype != DType::Float16 && x->dtype != DType::Float32) {
                typeError(c.name(),
                          "the type of 'input_x' must be Tensor[Float16, Float32], but got " +
                              typeStr(x) + ".");
            }
            if (x->shape.dynamicRank) {
                const AbstractPtr o = ir::Abstract::tensor(x->dtype, dynamicRankShape());
                return InferResult{ir::Abstract::tuple({o, o}), nullptr};
            }
            const auto axes = stdAxes(c.name(), c.attr("axis"), x->shape.rank());
            const AbstractPtr o = ir::Abstract::tensor(
                x->dtype, stdShape(x->shape, axes, boolOf(c.attr("keep_dims")).value_or(false)));
            return InferResult{ir::Abstract::tuple({o, o}), nullptr};
        };
        d.cpuKernel = runReduceStd;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    registerSelectBprops(reg);
}

}  // namespace irscope::ops
