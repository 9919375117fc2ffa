// Reductions: ReduceSum ReduceMean ReduceMax ReduceMin ReduceProd (axis int/tuple/empty=all,
// keep_dims), computed with Eigen::Tensor reductions one coalesced axis run at a time.
#include <algorithm>
#include <type_traits>
#include <unsupported/Eigen/CXX11/Tensor>

#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

enum class Reducer : std::uint8_t { Sum, Mean, Max, Min, Prod };

// The normalized, sorted axes a reduction covers (all when empty or None).
std::optional<std::vector<std::int64_t>> reduceAxes(std::string_view op, const ValuePtr& axis,
                                                    std::int64_t rank) {
    std::vector<std::int64_t> axes;
    if (!isNoneValue(axis)) {
        auto given = intsOf(axis);
        if (!given) {
            return std::nullopt;
        }
        axes = normalizeAxes(op, "axis", *given, std::max<std::int64_t>(rank, 1));
        if (rank == 0) {
            axes.clear();  // a 0-d tensor accepts axis 0 / -1 and reduces nothing
            return axes;
        }
    }
    if (axes.empty()) {
        for (std::int64_t i = 0; i < rank; ++i) {
            axes.push_back(i);
        }
    }
    return axes;
}

void checkType(std::string_view op, Reducer r, DType t) {
    if (t == DType::Bool && r != Reducer::Max && r != Reducer::Min) {
        typeError(op, "the type of 'x' must be a numeric Tensor, but got Tensor[Bool].");
    }
}

InferResult inferReduce(const InferContext& ctx, Reducer r) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    checkType(ctx.name(), r, x->dtype);
    const bool keep = boolOf(ctx.attr("keep_dims")).value_or(false);
    const ValuePtr axisValue = ctx.arg(1).value;
    if (x->shape.dynamicRank) {
        return {ir::Abstract::tensor(x->dtype, dynamicRankShape()), nullptr};
    }
    const auto rank = static_cast<std::int64_t>(x->shape.rank());
    if (!axisValue) {  // the axis is only known at run time
        return {ir::Abstract::tensor(x->dtype,
                                     keep ? unknownShape(x->shape.rank()) : dynamicRankShape()),
                nullptr};
    }
    const auto axes = reduceAxes(ctx.name(), axisValue, rank);
    if (!axes) {
        typeError(ctx.name(), "the 'axis' must be an int or a tuple/list of ints, but got " +
                                  typeStr(ctx.abs(1)) + ".");
    }
    Shape out;
    for (std::int64_t i = 0; i < rank; ++i) {
        const bool reduced = std::find(axes->begin(), axes->end(), i) != axes->end();
        if (!reduced) {
            out.dims.push_back(x->shape.dims[static_cast<std::size_t>(i)]);
        } else if (keep) {
            out.dims.push_back(1);
        }
    }
    return {ir::Abstract::tensor(x->dtype, out), nullptr};
}

// Reduces the middle axis of an [outer, n, inner] view.
template <typename T>
Tensor reduceMiddle(const Tensor& in, std::int64_t outer, std::int64_t n, std::int64_t inner,
                    Reducer r) {
    Tensor out(in.dtype(), Shape{outer * inner});
    if (out.size() == 0) {
        return out;
    }
    Eigen::TensorMap<const Eigen::Tensor<T, 3, Eigen::RowMajor>> src(in.data<T>(), outer, n, inner);
    Eigen::TensorMap<Eigen::Tensor<T, 2, Eigen::RowMajor>> dst(out.data<T>(), outer, inner);
    const Eigen::array<Eigen::Index, 1> dims{1};
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        if (r == Reducer::Sum || r == Reducer::Prod) {
            // Signed overflow is undefined in C++; numpy and MindSpore wrap around, which is
            // the same arithmetic done in the unsigned type of the same width.
            using U = std::make_unsigned_t<T>;
            Eigen::TensorMap<const Eigen::Tensor<U, 3, Eigen::RowMajor>> usrc(
                reinterpret_cast<const U*>(in.data<T>()), outer, n, inner);
            Eigen::TensorMap<Eigen::Tensor<U, 2, Eigen::RowMajor>> udst(
                reinterpret_cast<U*>(out.data<T>()), outer, inner);
            if (r == Reducer::Sum) {
                udst = usrc.sum(dims);
            } else {
                udst = usrc.prod(dims);
            }
            return out;
        }
    }
    switch (r) {
        case Reducer::Sum:
            dst = src.sum(dims);
            break;
        case Reducer::Mean:
            if constexpr (std::is_floating_point_v<T>) {
                dst = src.mean(dims);
            }
            break;
        case Reducer::Max:
            dst = src.maximum(dims);
            break;
        case Reducer::Min:
            dst = src.minimum(dims);
            break;
        case Reducer::Prod:
            dst = src.prod(dims);
            break;
    }
    return out;
}

KernelArg runReduce(const KernelContext& ctx, Reducer r) {
    const Tensor x = ctx.tensor(0);
    checkType(ctx.name(), r, x.dtype());
    const bool keep = boolOf(ctx.attr("keep_dims")).value_or(false);
    const auto rank = static_cast<std::int64_t>(x.rank());
    const KernelArg axisArg = ctx.input(1);
    const ValuePtr axisValue = axisArg.isValue() ? axisArg.value() : valueFromKernelArg(axisArg);
    const auto axes = reduceAxes(ctx.name(), axisValue, rank);
    if (!axes) {
        typeError(ctx.name(), "the 'axis' must be an int or a tuple/list of ints.");
    }
    // Output shape.
    std::vector<std::int64_t> outDims;
    std::vector<std::int64_t> cur = x.shape().dims;
    for (std::int64_t i = 0; i < rank; ++i) {
        const bool reduced = std::find(axes->begin(), axes->end(), i) != axes->end();
        if (!reduced) {
            outDims.push_back(cur[static_cast<std::size_t>(i)]);
        } else if (keep) {
            outDims.push_back(1);
        }
        if (reduced && (r == Reducer::Max || r == Reducer::Min) &&
            cur[static_cast<std::size_t>(i)] == 0) {
            valueError(ctx.name(), "cannot reduce an empty axis with no identity, but got shape " +
                                       shapeStr(x.shape()) + ".");
        }
    }
    // Integers average in Float64 and truncate back; halves compute in Float32.
    const DType dtype = x.dtype();
    const DType compute =
        r == Reducer::Mean && !ir::isFloat(dtype) ? DType::Float64 : computeType(dtype);
    Tensor t = castTo(x, compute);  // shares x when no cast is needed; only read below
    // Reduce runs of adjacent axes, last run first, so earlier axes keep their positions.
    std::size_t i = axes->size();
    while (i > 0) {
        std::size_t j = i - 1;
        while (j > 0 && (*axes)[j - 1] + 1 == (*axes)[j]) {
            --j;
        }
        const auto first = static_cast<std::size_t>((*axes)[j]);
        const auto last = static_cast<std::size_t>((*axes)[i - 1]);
        const auto outer = product(std::span(cur).first(first));
        const auto n = product(std::span(cur).subspan(first, last - first + 1));
        const auto inner = product(std::span(cur).subspan(last + 1));
        t = dispatchNative(ctx.name(), compute, [&](auto tag) {
            return reduceMiddle<decltype(tag)>(t, outer, n, inner, r);
        });
        cur.erase(cur.begin() + static_cast<std::ptrdiff_t>(first),
                  cur.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        i = j;
    }
    if (axes->empty()) {
        t = t.clone();
    }
    return KernelArg(castTo(t, dtype).reshaped(Shape(outDims)));
}

OpDef reduceDef(std::string name, std::string summary, Reducer r) {
    OpDef d;
    d.name = std::move(name);
    d.family = "reduce";
    d.summary = std::move(summary);
    d.attrs = {argDefault("keep_dims", ArgKind::Bool, vBool(false))};
    d.inputs = {argIn("x"), argDefault("axis", ArgKind::IntOrTuple, vInts({}))};
    d.infer = [r](const InferContext& c) { return inferReduce(c, r); };
    d.cpuKernel = [r](const KernelContext& c) { return runReduce(c, r); };
    addClassSpellings(d);
    return d;
}

}  // namespace

void registerReduceOps(OpRegistry& reg) {
    auto fnParams = [](const char* axis, const char* keep) {
        return std::vector<ParamMap>{toInput("input", 0), toInput(axis, 1, vNone()),
                                     toAttr(keep, "keep_dims", vBool(false))};
    };
    {
        OpDef d = reduceDef("ReduceSum", "sum over axes", Reducer::Sum);
        d.attrs.push_back(argDefault("skip_mode", ArgKind::Bool, vBool(false)));
        addFunction(d, {"ops", "F"}, "reduce_sum", fnParams("axis", "keep_dims"));
        // ops.sum, and Tensor.sum called with a dtype or an initial value, are Python-written
        // over reduce_sum (frontend/modules/py/ms_ops_function.py).
        addMethod(d, "sum", {toInput("axis", 1, vNone()), pythonOnly("dtype"),
                             toAttr("keepdims", "keep_dims", vBool(false)), pythonOnly("initial")});
        reg.add(std::move(d));
    }
    {
        OpDef d = reduceDef("ReduceMean", "mean over axes", Reducer::Mean);
        addFunction(d, {"ops", "F"}, "reduce_mean", fnParams("axis", "keep_dims"));
        addFunction(d, {"ops", "F"}, "mean", fnParams("axis", "keep_dims"));
        addMethod(d, "mean",
                  {toInput("axis", 1, vNone()), toAttr("keep_dims", "keep_dims", vBool(false))});
        reg.add(std::move(d));
    }
    {
        OpDef d = reduceDef("ReduceMax", "maximum over axes", Reducer::Max);
        addFunction(d, {"ops", "F"}, "reduce_max", fnParams("axis", "keep_dims"));
        addFunction(d, {"ops", "F"}, "amax", fnParams("axis", "keepdims"));
        const std::vector<ParamMap> method{toInput("axis", 1, vNone()),
                                           toAttr("keepdims", "keep_dims", vBool(false))};
        addMethod(d, "max", method);
        addMethod(d, "amax", method);
        reg.add(std::move(d));
    }
    {
        OpDef d = reduceDef("ReduceMin", "minimum over axes", Reducer::Min);
        addFunction(d, {"ops", "F"}, "reduce_min", fnParams("axis", "keep_dims"));
        addFunction(d, {"ops", "F"}, "amin", fnParams("axis", "keepdims"));
        const std::vector<ParamMap> method{toInput("axis", 1, vNone()),
                                           toAttr("keepdims", "keep_dims", vBool(false))};
        addMethod(d, "min", method);
        addMethod(d, "amin", method);
        reg.add(std::move(d));
    }
    // ReduceAll / ReduceAny: logical and / or over axes of a Bool tensor (the minimum and the
    // maximum of its 0/1 values).
    for (const bool all : {true, false}) {
        OpDef d = reduceDef(all ? "ReduceAll" : "ReduceAny",
                            all ? "logical and over axes" : "logical or over axes",
                            all ? Reducer::Min : Reducer::Max);
        d.infer = [r = all ? Reducer::Min : Reducer::Max](const InferContext& c) {
            const AbstractPtr x = c.abs(0);
            if (isTensorAbs(x) && x->dtype != DType::Bool) {
                typeError(c.name(), "the type of 'x' must be Tensor[Bool], but got Tensor[" +
                                        typeStr(x->dtype) + "].");
            }
            return inferReduce(c, r);
        };
        const char* fn = all ? "all" : "any";
        addFunction(d, {"ops", "F"}, all ? "reduce_all" : "reduce_any",
                    fnParams("axis", "keep_dims"));
        addFunction(d, {"ops", "F"}, fn, fnParams("axis", "keep_dims"));
        addMethod(d, fn,
                  {toInput("axis", 1, vNone()), toAttr("keep_dims", "keep_dims", vBool(false))});
        reg.add(std::move(d));
    }
    {
        OpDef d = reduceDef("ReduceProd", "product over axes", Reducer::Prod);
        addFunction(d, {"ops", "F"}, "reduce_prod", fnParams("axis", "keep_dims"));
        addFunction(d, {"ops", "F"}, "prod", fnParams("axis", "keep_dims"));
        addMethod(d, "prod",
                  {toInput("axis", 1, vNone()), toAttr("keep_dims", "keep_dims", vBool(false))});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
