// More nn primitives: Elu, LogSoftmax and L2Loss, with their bprops.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

AbstractPtr floatInput(const InferContext& c, const char* argName) {
    const AbstractPtr x = c.abs(0);
    if (!isTensorAbs(x) || !ir::isFloat(x->dtype)) {
        typeError(c.name(), std::string("the type of '") + argName +
                                "' must be Tensor[Float16, Float32, Float64], but got " +
                                typeStr(x) + ".");
    }
    return x;
}

Tensor floatTensor(const KernelContext& c, const char* argName) {
    const Tensor x = c.tensor(0);
    if (!ir::isFloat(x.dtype())) {
        typeError(c.name(), std::string("the type of '") + argName +
                                "' must be Tensor[Float16, Float32, Float64], but got Tensor[" +
                                typeStr(x.dtype()) + "].");
    }
    return x;
}

double alphaOf(const ValuePtr& v) {
    return v ? numberOf(v).value_or(1.0) : 1.0;
}

KernelArg runElu(const KernelContext& c) {
    const Tensor x = floatTensor(c, "input_x");
    const double alpha = alphaOf(c.attr("alpha"));
    Tensor out(x.dtype(), x.shape());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x.getDouble(i);
        out.setDouble(i, v > 0 ? v : alpha * std::expm1(v));
    }
    return KernelArg(out);
}

std::int64_t softmaxAxis(std::string_view op, const ValuePtr& v, std::size_t rank) {
    const auto a = intOf(v);
    if (!a) {
        typeError(op, "the 'axis' must be an int.");
    }
    return normalizeAxis(op, "axis", *a,
                         std::max<std::int64_t>(static_cast<std::int64_t>(rank), 1));
}

KernelArg runLogSoftmax(const KernelContext& c) {
    const Tensor x = floatTensor(c, "logits");
    Tensor out(x.dtype(), x.shape());
    if (x.rank() == 0) {
        return KernelArg(out);  // log(e^x / e^x)
    }
    const std::int64_t axis = softmaxAxis(c.name(), c.attr("axis"), x.rank());
    std::size_t outer = 1, inner = 1;
    const auto n = static_cast<std::size_t>(x.shape().dims[static_cast<std::size_t>(axis)]);
    for (std::size_t d = 0; d < x.rank(); ++d) {
        const auto dim = static_cast<std::size_t>(x.shape().dims[d]);
        if (static_cast<std::int64_t>(d) < axis) {
            outer *= dim;
        } else if (static_cast<std::int64_t>(d) > axis) {
            inner *= dim;
        }
    }
    for (std::size_t o = 0; o < outer; ++o) {
        for (std::size_t i = 0; i < inner; ++i) {
            auto at = [&](std::size_t k) { return (o * n + k) * inner + i; };
            double m = -std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k < n; ++k) {
                m = std::max(m, x.getDouble(at(k)));
            }
            double sum = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                sum += std::exp(x.getDouble(at(k)) - m);
            }
            const double logSum = std::log(sum) + m;
            for (std::size_t k = 0; k < n; ++k) {
                out.setDouble(at(k), x.getDouble(at(k)) - logSum);
            }
        }
    }
    return KernelArg(out);
}

KernelArg runL2Loss(const KernelContext& c) {
    const Tensor x = floatTensor(c, "input_x");
    double sum = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x.getDouble(i);
        sum += v * v;
    }
    return KernelArg(Tensor::scalar(x.dtype(), sum / 2.0));
}

void registerNnMoreBprops(OpRegistry& reg) {
    // d elu = 1 where out > 0, else out + alpha.
    setBprop(reg, "Elu", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        const DType t = c.out()->abstract()->dtype;
        ir::Node* positive = c.emit("Greater", {c.out(), c.scalar(t, 0.0)});
        ir::Node* slope = c.emit("Add", {c.out(), c.scalar(t, alphaOf(c.attrs().get("alpha")))});
        c.setGrad(0, c.emit("Select", {positive, c.dout(), c.emit("Mul", {c.dout(), slope})}));
    });
    // d log_softmax: dout - softmax * sum(dout) along the axis.
    setBprop(reg, "LogSoftmax", [](BpropContext& c) {
        if (!c.needsGrad(0)) {
            return;
        }
        ValuePtr axis = c.attrs().get("axis");
        if (!axis) {
            axis = ir::Value::integer(-1);
        }
        ir::AttrMap keep;
        keep.set("keep_dims", ir::Value::boolean(true));
        ir::Node* sum = c.emit("ReduceSum", {c.dout(), c.constant(ir::Value::tuple({axis}))}, keep);
        c.setGrad(0, c.emit("Sub", {c.dout(), c.emit("Mul", {c.emit("Exp", {c.out()}), sum})}));
    });
    // d (sum x^2 / 2) = x dout
    setBprop(reg, "L2Loss", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.emit("Mul", {c.input(0), c.dout()}));
        }
    });
}

}  // namespace

void registerNnMoreOps(OpRegistry& reg) {
    {
        OpDef d{.name = "Elu",
                .family = "nn",
                .summary = "x where x > 0, alpha * (e ** x - 1) elsewhere"};
        d.attrs = {argDefault("alpha", ArgKind::Float, vFloat(1.0))};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatInput(c, "input_x");
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runElu;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "elu",
                    {toInput("input_x", 0), toAttr("alpha", "alpha", vFloat(1.0))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "LogSoftmax", .family = "nn", .summary = "log(softmax(x)) along an axis"};
        d.attrs = {argDefault("axis", ArgKind::Int, vInt(-1))};
        d.inputs = {argIn("logits")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatInput(c, "logits");
            if (!x->shape.dynamicRank) {
                softmaxAxis(c.name(), c.attr("axis"), x->shape.rank());
            }
            return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
        };
        d.cpuKernel = runLogSoftmax;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "log_softmax",
                    {toInput("logits", 0), toAttr("axis", "axis", vInt(-1))});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "L2Loss", .family = "nn", .summary = "sum(x ** 2) / 2"};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = floatInput(c, "input_x");
            return InferResult{ir::Abstract::tensor(x->dtype, Shape{}), nullptr};
        };
        d.cpuKernel = runL2Loss;
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    registerNnMoreBprops(reg);
}

}  // namespace irscope::ops
