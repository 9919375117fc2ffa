// Primitives that walk one axis of a tensor: Argmax, Argmin, ArgMaxWithValue,
// ArgMinWithValue, CumSum, CumProd, Sort, TopK, plus ReverseV2 and Roll, which move elements
// along axes. Each axis is viewed as [outer, n, inner] (row-major) and processed line by line
// in double precision (int64 for integer dtypes, so large ints stay exact).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

void requireNumeric(std::string_view op, const char* argName, DType t) {
    if (t == DType::Bool || !isNumberScalar(t)) {
        typeError(op, std::string("the type of '") + argName +
                          "' must be Tensor[Int8, Int16, Int32, Int64, UInt8, Float16, Float32, "
                          "Float64], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

std::int64_t intValue(std::string_view op, const char* name, const ValuePtr& v) {
    const auto i = intOf(v);
    if (!i || (v && v->kind == ir::Value::Kind::Bool)) {
        typeError(op, std::string("the '") + name + "' must be an int, but got " +
                          (v ? typeStr(abstractOfValue(v)) : std::string("None")) + ".");
    }
    return *i;
}

bool boolValue(const ValuePtr& v) {
    return v && boolOf(v).value_or(false);
}

// One axis of a shape as [outer, n, inner].
struct AxisView {
    std::size_t outer = 1, n = 1, inner = 1;
    std::size_t at(std::size_t o, std::size_t k, std::size_t i) const {
        return (o * n + k) * inner + i;
    }
};

AxisView axisView(const Shape& s, std::int64_t axis) {
    AxisView v;
    for (std::size_t d = 0; d < s.dims.size(); ++d) {
        const auto dim = static_cast<std::size_t>(s.dims[d]);
        if (static_cast<std::int64_t>(d) < axis) {
            v.outer *= dim;
        } else if (static_cast<std::int64_t>(d) == axis) {
            v.n = dim;
        } else {
            v.inner *= dim;
        }
    }
    return v;
}

Shape dropAxis(const Shape& s, std::int64_t axis, bool keep) {
    Shape out = s;
    if (keep) {
        out.dims[static_cast<std::size_t>(axis)] = 1;
    } else {
        out.dims.erase(out.dims.begin() + axis);
    }
    return out;
}

// Whether a is strictly greater than b for the arg ops: NaN counts as the largest.
bool greaterNan(double a, double b) {
    if (std::isnan(a)) {
        return !std::isnan(b);
    }
    return a > b;
}

// ---- Argmax / Argmin / ArgMaxWithValue / ArgMinWithValue -------------------------------

struct ArgOp {
    const char* name;
    bool max;
    bool withValue;  // returns (index, value) with keep_dims
};

// The axis attribute: None (ops.argmax with dim=None) reduces the flattened tensor.
std::optional<std::int64_t> argAxis(std::string_view op, const ValuePtr& v, std::int64_t rank) {
    if (!v || isNoneValue(v)) {
        return std::nullopt;
    }
    return normalizeAxis(op, "axis", intValue(op, "axis", v), std::max<std::int64_t>(rank, 1));
}

DType indexType(std::string_view op, const ValuePtr& v) {
    const DType t = v ? dtypeOf(v).value_or(DType::Int32) : DType::Int32;
    if (t != DType::Int32 && t != DType::Int64) {
        typeError(op, "the 'output_type' must be Int32 or Int64, but got " + typeStr(t) + ".");
    }
    return t;
}

Shape argShape(const Shape& s, std::optional<std::int64_t> axis, bool keep) {
    if (s.rank() == 0) {
        return s;
    }
    if (!axis) {
        return keep ? Shape(std::vector<std::int64_t>(s.rank(), 1)) : Shape{};
    }
    return dropAxis(s, *axis, keep);
}

InferResult inferArg(const ArgOp& a, const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    requireNumeric(a.name, "x", x->dtype);
    if (x->shape.dynamicRank) {
        return {ir::Abstract::tensor(DType::Int32, dynamicRankShape()), nullptr};
    }
    const auto axis = argAxis(a.name, c.attr("axis"), static_cast<std::int64_t>(x->shape.rank()));
    const bool keep = boolValue(c.attr("keep_dims"));
    const Shape out = argShape(x->shape, axis, keep);
    if (a.withValue) {
        return {ir::Abstract::tuple(
                    {ir::Abstract::tensor(DType::Int32, out), ir::Abstract::tensor(x->dtype, out)}),
                nullptr};
    }
    return {ir::Abstract::tensor(indexType(a.name, c.attr("output_type")), out), nullptr};
}

KernelArg runArg(const ArgOp& a, const KernelContext& c) {
    const Tensor x = c.tensor(0);
    requireNumeric(a.name, "x", x.dtype());
    const auto axis = argAxis(a.name, c.attr("axis"), static_cast<std::int64_t>(x.rank()));
    const bool keep = boolValue(c.attr("keep_dims"));
    const Shape out = argShape(x.shape(), axis, keep);
    const AxisView v = axis ? axisView(x.shape(), *axis) : AxisView{1, x.size(), 1};
    if (v.n == 0) {
        valueError(a.name, "the dimension of 'x' at 'axis' must be greater than 0, but got 0.");
    }
    Tensor index(a.withValue ? DType::Int32 : indexType(a.name, c.attr("output_type")), out);
    Tensor value(x.dtype(), out);
    for (std::size_t o = 0; o < v.outer; ++o) {
        for (std::size_t i = 0; i < v.inner; ++i) {
            std::size_t best = 0;
            double bestValue = x.getDouble(v.at(o, 0, i));
            for (std::size_t k = 1; k < v.n; ++k) {
                const double e = x.getDouble(v.at(o, k, i));
                if (a.max ? greaterNan(e, bestValue) : greaterNan(bestValue, e)) {
                    best = k;
                    bestValue = e;
                }
            }
            index.setInt(o * v.inner + i, static_cast<std::int64_t>(best));
            copyElement(x, v.at(o, best, i), value, o * v.inner + i);
        }
    }
    if (a.withValue) {
        return KernelArg::tuple({KernelArg(index), KernelArg(value)});
    }
    return KernelArg(index);
}

void registerArgOps(OpRegistry& reg) {
    static const ArgOp all[] = {{"Argmax", true, false},
                                {"Argmin", false, false},
                                {"ArgMaxWithValue", true, true},
                                {"ArgMinWithValue", false, true}};
    for (const ArgOp& a : all) {
        OpDef d{.name = a.name,
                .family = "reduce",
                .summary = a.max ? "the index of the largest element along an axis"
                                 : "the index of the smallest element along an axis"};
        if (a.withValue) {
            d.attrs = {argDefault("axis", ArgKind::Int, vInt(0)),
                       argDefault("keep_dims", ArgKind::Bool, vBool(false))};
        } else {
            d.attrs = {argDefault("axis", ArgKind::Int, vInt(-1)),
                       argDefault("output_type", ArgKind::Type, ir::Value::type(DType::Int32))};
        }
        d.inputs = {argIn(a.withValue ? "x" : "input_x")};
        d.infer = [&a](const InferContext& c) { return inferArg(a, c); };
        d.cpuKernel = [&a](const KernelContext& c) { return runArg(a, c); };
        addClassSpellings(d);
        if (!a.withValue) {
            // ops.argmax(input, dim=None, keepdim=False) / ops.argmin(input, axis=None,
            // keepdims=False): int64 indices, None reduces the flattened tensor.
            const ParamMap type =
                toAttr("output_type", "output_type", ir::Value::type(DType::Int64));
            if (a.max) {
                addFunction(d, {"ops", "F"}, "argmax",
                            {toInput("input", 0), toAttr("dim", "axis", vNone()),
                             toAttr("keepdim", "keep_dims", vBool(false)), type});
            } else {
                addFunction(d, {"ops", "F"}, "argmin",
                            {toInput("input", 0), toAttr("axis", "axis", vNone()),
                             toAttr("keepdims", "keep_dims", vBool(false)), type});
            }
            addMethod(d, a.max ? "argmax" : "argmin",
                      {toAttr("axis", "axis", vNone()),
                       toAttr("keepdims", "keep_dims", vBool(false)), type});
        }
        reg.add(std::move(d));
    }
}

// ---- CumSum / CumProd -------------------------------------------------------------------------

InferResult inferCum(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    requireNumeric(c.name(), "x", x->dtype);
    const auto axis = intOf(c.arg(1).value);
    if (axis && !x->shape.dynamicRank) {
        normalizeAxis(c.name(), "axis", *axis,
                      std::max<std::int64_t>(static_cast<std::int64_t>(x->shape.rank()), 1));
    }
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

KernelArg runCum(const KernelContext& c, bool product) {
    const Tensor x = c.tensor(0);
    requireNumeric(c.name(), "x", x.dtype());
    const ValuePtr axisValue = valueFromKernelArg(c.input(1));
    const std::int64_t rank = static_cast<std::int64_t>(x.rank());
    const bool flat = isNoneValue(axisValue);  // Tensor.cumsum(axis=None): the flattened tensor
    const AxisView v =
        flat || rank == 0
            ? AxisView{1, x.size(), 1}
            : axisView(x.shape(), normalizeAxis(c.name(), "axis",
                                                intValue(c.name(), "axis", axisValue), rank));
    const bool exclusive = boolValue(c.attr("exclusive"));
    const bool reverse = boolValue(c.attr("reverse"));
    Tensor out(x.dtype(), flat ? Shape({static_cast<std::int64_t>(x.size())}) : x.shape());
    const bool integral = ir::isInteger(x.dtype());
    // The kernel accumulates in the input's dtype: each partial result is rounded to it (a
    // float16 sum drifts from the exact one as numpy's float16 cumsum does).
    Tensor rounded(x.dtype(), Shape{});
    auto toDtype = [&rounded](double d) {
        rounded.setDouble(0, d);
        return rounded.getDouble(0);
    };
    for (std::size_t o = 0; o < v.outer; ++o) {
        for (std::size_t i = 0; i < v.inner; ++i) {
            double acc = product ? 1.0 : 0.0;
            std::int64_t iacc = product ? 1 : 0;
            for (std::size_t step = 0; step < v.n; ++step) {
                const std::size_t k = reverse ? v.n - 1 - step : step;
                const std::size_t at = v.at(o, k, i);
                if (exclusive) {
                    integral ? out.setInt(at, iacc) : out.setDouble(at, acc);
                }
                if (integral) {
                    iacc = product ? iacc * x.getInt(at) : iacc + x.getInt(at);
                } else {
                    acc = toDtype(product ? acc * x.getDouble(at) : acc + x.getDouble(at));
                }
                if (!exclusive) {
                    integral ? out.setInt(at, iacc) : out.setDouble(at, acc);
                }
            }
        }
    }
    return KernelArg(out);
}

void registerCumOps(OpRegistry& reg) {
    for (const bool product : {false, true}) {
        OpDef d{.name = product ? "CumProd" : "CumSum",
                .family = "math",
                .summary =
                    product ? "cumulative product along an axis" : "cumulative sum along an axis"};
        d.attrs = {argDefault("exclusive", ArgKind::Bool, vBool(false)),
                   argDefault("reverse", ArgKind::Bool, vBool(false))};
        d.inputs = {argIn(product ? "x" : "input"), argIn("axis", ArgKind::Int)};
        d.infer = inferCum;
        d.cpuKernel = [product](const KernelContext& c) { return runCum(c, product); };
        addClassSpellings(d);
        // ops.cumsum/cumprod, and the methods called with a dtype, are Python-written
        // (frontend/modules/py/ms_ops_function.py).
        if (product) {
            addMethod(d, "cumprod", {toInput("dim", 1), pythonOnly("dtype")});
        } else {
            addMethod(d, "cumsum", {toInput("axis", 1, vNone()), pythonOnly("dtype")});
        }
        reg.add(std::move(d));
    }
    // The gradient of a cumulative sum is the cumulative sum of dout the other way round.
    setBprop(reg, "CumSum", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        ir::AttrMap a;
        a.set("exclusive", ir::Value::boolean(boolValue(c.attrs().get("exclusive"))));
        a.set("reverse", ir::Value::boolean(!boolValue(c.attrs().get("reverse"))));
        c.setGrad(0, c.emit("CumSum", {c.dout(), c.input(1)}, a));
    });
}

// ---- Sort / TopK ------------------------------------------------------------------------------

// Stable order of line (o, ·, i): ascending or descending, NaN last when ascending.
std::vector<std::size_t> lineOrder(const Tensor& x, const AxisView& v, std::size_t o, std::size_t i,
                                   bool descending) {
    std::vector<std::size_t> idx(v.n);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
        const double ea = x.getDouble(v.at(o, a, i));
        const double eb = x.getDouble(v.at(o, b, i));
        return descending ? greaterNan(ea, eb) : greaterNan(eb, ea);
    });
    return idx;
}

InferResult inferSort(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    if (!x->shape.dynamicRank) {
        normalizeAxis(c.name(), "axis", intValue(c.name(), "axis", c.attr("axis")),
                      static_cast<std::int64_t>(x->shape.rank()));
    }
    return {ir::Abstract::tuple({ir::Abstract::tensor(x->dtype, x->shape),
                                 ir::Abstract::tensor(DType::Int32, x->shape)}),
            nullptr};
}

KernelArg runSort(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const std::int64_t axis =
        normalizeAxis(c.name(), "axis", intValue(c.name(), "axis", c.attr("axis")),
                      static_cast<std::int64_t>(x.rank()));
    const AxisView v = axisView(x.shape(), axis);
    const bool descending = boolValue(c.attr("descending"));
    Tensor values(x.dtype(), x.shape());
    Tensor indices(DType::Int32, x.shape());
    for (std::size_t o = 0; o < v.outer; ++o) {
        for (std::size_t i = 0; i < v.inner; ++i) {
            const auto order = lineOrder(x, v, o, i, descending);
            for (std::size_t k = 0; k < v.n; ++k) {
                copyElement(x, v.at(o, order[k], i), values, v.at(o, k, i));
                indices.setInt(v.at(o, k, i), static_cast<std::int64_t>(order[k]));
            }
        }
    }
    return KernelArg::tuple({KernelArg(values), KernelArg(indices)});
}

std::int64_t topK(std::string_view op, const ValuePtr& kv, const Shape& s) {
    const std::int64_t k = intValue(op, "k", kv);
    const std::int64_t last = s.rank() == 0 ? 1 : s.dims.back();
    if (k < 0 || (last >= 0 && k > last)) {
        valueError(op, "the 'k' must be in range [0, " + std::to_string(last) + "], but got " +
                           std::to_string(k) + ".");
    }
    return k;
}

InferResult inferTopK(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "input_x");
    requireNumeric(c.name(), "input_x", x->dtype);
    Shape out = x->shape;
    if (!x->shape.dynamicRank && x->shape.rank() > 0) {
        const ValuePtr kv = c.arg(1).value;
        out.dims.back() = kv ? topK(c.name(), kv, x->shape) : -1;
    }
    return {ir::Abstract::tuple(
                {ir::Abstract::tensor(x->dtype, out), ir::Abstract::tensor(DType::Int32, out)}),
            nullptr};
}

KernelArg runTopK(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    requireNumeric(c.name(), "input_x", x.dtype());
    const auto k =
        static_cast<std::size_t>(topK(c.name(), valueFromKernelArg(c.input(1)), x.shape()));
    const AxisView v = x.rank() == 0 ? AxisView{1, 1, 1}
                                     : axisView(x.shape(), static_cast<std::int64_t>(x.rank()) - 1);
    Shape out = x.shape();
    if (x.rank() > 0) {
        out.dims.back() = static_cast<std::int64_t>(k);
    }
    Tensor values(x.dtype(), out);
    Tensor indices(DType::Int32, out);
    const bool sorted = boolOf(c.attr("sorted")).value_or(true);
    for (std::size_t o = 0; o < v.outer; ++o) {
        // The k largest in descending order; with sorted=False the same k in the order they
        // have in the input, as MindSpore's CPU kernel gives them (k = n is the input itself).
        auto order = lineOrder(x, v, o, 0, true);
        if (!sorted) {
            std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k));
        }
        for (std::size_t j = 0; j < k; ++j) {
            copyElement(x, v.at(o, order[j], 0), values, o * k + j);
            indices.setInt(o * k + j, static_cast<std::int64_t>(order[j]));
        }
    }
    return KernelArg::tuple({KernelArg(values), KernelArg(indices)});
}

void registerSortOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Sort",
                .family = "array",
                .summary = "sorted values along an axis and their indices"};
        d.attrs = {argDefault("axis", ArgKind::Int, vInt(-1)),
                   argDefault("descending", ArgKind::Bool, vBool(false))};
        d.inputs = {argIn("x")};
        d.infer = inferSort;
        d.cpuKernel = runSort;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "sort",
                    {toInput("input_x", 0), toAttr("axis", "axis", vInt(-1)),
                     toAttr("descending", "descending", vBool(false))});
        addMethod(
            d, "sort",
            {toAttr("axis", "axis", vInt(-1)), toAttr("descending", "descending", vBool(false))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "TopK",
                .family = "array",
                .summary = "the k largest values of the last axis and their indices"};
        d.attrs = {argDefault("sorted", ArgKind::Bool, vBool(true))};
        d.inputs = {argIn("input_x"), argIn("k", ArgKind::Int)};
        d.infer = inferTopK;
        d.cpuKernel = runTopK;
        addClassSpellings(d);
        // ops.topk and Tensor.topk (input, k, dim=None, largest=True, sorted=True) are
        // Python-written over TopK (frontend/modules/py/ms_ops_function.py).
        // MindSpore 1.x's spellings.
        addFunction(
            d, {"ops", "F"}, "top_k",
            {toInput("input_x", 0), toInput("k", 1), toAttr("sorted", "sorted", vBool(true))});
        addMethod(d, "top_k", {toInput("k", 1), toAttr("sorted", "sorted", vBool(true))});
        reg.add(std::move(d));
    }
}

// ---- ReverseV2 / Roll -------------------------------------------------------------------------

std::vector<std::int64_t> intList(std::string_view op, const char* name, const ValuePtr& v) {
    const auto r = v ? intsOf(v) : std::nullopt;
    if (!r) {
        typeError(op, std::string("the '") + name + "' must be an int or a tuple/list of ints.");
    }
    return *r;
}

// out[idx] = x[src(idx)] where each axis's coordinate is remapped by `map(axis, coord)`.
template <typename Map>
Tensor remap(const Tensor& x, Map map) {
    Tensor out(x.dtype(), x.shape());
    const std::size_t rank = x.rank();
    std::vector<std::int64_t> coord(rank, 0);
    for (std::size_t flat = 0; flat < x.size(); ++flat) {
        std::size_t src = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            src = src * static_cast<std::size_t>(x.shape().dims[d]) +
                  static_cast<std::size_t>(map(d, coord[d]));
        }
        copyElement(x, src, out, flat);
        for (std::size_t d = rank; d-- > 0;) {
            if (++coord[d] < x.shape().dims[d]) {
                break;
            }
            coord[d] = 0;
        }
    }
    return out;
}

KernelArg runReverse(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const auto axes = normalizeAxes(c.name(), "axis", intList(c.name(), "axis", c.attr("axis")),
                                    static_cast<std::int64_t>(x.rank()));
    std::vector<bool> flip(x.rank(), false);
    for (auto a : axes) {
        flip[static_cast<std::size_t>(a)] = true;
    }
    return KernelArg(remap(
        x, [&](std::size_t d, std::int64_t i) { return flip[d] ? x.shape().dims[d] - 1 - i : i; }));
}

KernelArg runRoll(const KernelContext& c) {
    const Tensor x = c.tensor(0);
    const auto shifts = intList(c.name(), "shift", c.attr("shift"));
    const ValuePtr axisValue = c.attr("axis");
    const bool flat = !axisValue || isNoneValue(axisValue);
    const Tensor in = flat ? x.reshaped(Shape({static_cast<std::int64_t>(x.size())})) : x;
    const auto axes = flat ? std::vector<std::int64_t>{0} : intList(c.name(), "axis", axisValue);
    if (shifts.size() != axes.size()) {
        valueError(c.name(),
                   "the shape of 'shift' and the shape of 'axis' must be the same, but "
                   "got " +
                       std::to_string(shifts.size()) + " and " + std::to_string(axes.size()) + ".");
    }
    std::vector<std::int64_t> shift(in.rank(), 0);
    for (std::size_t j = 0; j < axes.size(); ++j) {
        shift[static_cast<std::size_t>(normalizeAxis(
            c.name(), "axis", axes[j], static_cast<std::int64_t>(in.rank())))] += shifts[j];
    }
    Tensor out = remap(in, [&](std::size_t d, std::int64_t i) {
        const std::int64_t n = in.shape().dims[d];
        return n == 0 ? i : (((i - shift[d]) % n) + n) % n;
    });
    return KernelArg(flat ? out.reshaped(x.shape()) : out);
}

InferResult inferSameShape(const InferContext& c) {
    const AbstractPtr x = tensorInput(c, 0, "x");
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

void registerMoveOps(OpRegistry& reg) {
    {
        OpDef d{.name = "ReverseV2", .family = "array", .summary = "reverses the given axes"};
        d.attrs = {argIn("axis", ArgKind::IntTuple)};
        d.inputs = {argIn("x")};
        d.infer = [](const InferContext& c) {
            const InferResult r = inferSameShape(c);
            if (!r.abs->shape.dynamicRank) {
                normalizeAxes(c.name(), "axis", intList(c.name(), "axis", c.attr("axis")),
                              static_cast<std::int64_t>(r.abs->shape.rank()));
            }
            return r;
        };
        d.cpuKernel = runReverse;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "flip", {toInput("input", 0), toAttr("dims", "axis")});
        addMethod(d, "flip", {toAttr("dims", "axis")});
        reg.add(std::move(d));
    }
    {
        OpDef d{
            .name = "Roll", .family = "array", .summary = "rotates elements along axes by shift"};
        d.attrs = {argIn("shift", ArgKind::IntOrTuple), argIn("axis", ArgKind::IntOrTuple)};
        d.inputs = {argIn("input_x")};
        d.infer = inferSameShape;
        d.cpuKernel = runRoll;
        addClassSpellings(d);
        addFunction(
            d, {"ops", "F"}, "roll",
            {toInput("input", 0), toAttr("shifts", "shift"), toAttr("dims", "axis", vNone())});
        addMethod(d, "roll", {toAttr("shifts", "shift"), toAttr("dims", "axis", vNone())});
        reg.add(std::move(d));
    }
    // Reversing again, and rolling back, send the gradient home.
    setBprop(reg, "ReverseV2", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.emit("ReverseV2", {c.dout()}, c.attrs()));
        }
    });
}

}  // namespace

void registerAxisOps(OpRegistry& reg) {
    registerArgOps(reg);
    registerCumOps(reg);
    registerSortOps(reg);
    registerMoveOps(reg);
}

}  // namespace irscope::ops
