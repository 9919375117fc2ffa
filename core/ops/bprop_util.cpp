// BpropContext helpers shared by the rules, and the registration of every rule.
#include <algorithm>

#include "ops/bprop.h"
#include "ops/infer_util.h"

namespace irscope::ops {

using ir::Value;

namespace {

ir::TensorData filled(ir::DType t, const ir::Shape& s, double v) {
    ir::TensorData d;
    d.dtype = t;
    d.shape = s;
    const std::int64_t n = s.elementCount();
    const ir::TensorData one = ir::scalarTensor(t, v);
    d.data.reserve(static_cast<std::size_t>(n) * one.data.size());
    for (std::int64_t k = 0; k < n; ++k) {
        d.data.insert(d.data.end(), one.data.begin(), one.data.end());
    }
    return d;
}

ValuePtr intTuple(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> e;
    for (std::int64_t x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}

}  // namespace

ir::Node* BpropContext::scalar(ir::DType t, double v) {
    return constant(Value::tensorValue(ir::scalarTensor(t, v)));
}

ir::Node* BpropContext::zerosLike(const ir::AbstractPtr& a) {
    if (!a->shape.isStatic()) {
        fail("irscope: the gradient of a tensor of dynamic shape " + a->shape.toString() +
             " is not supported yet.");
    }
    return constant(Value::tensorValue(filled(a->dtype, a->shape, 0.0)));
}

ir::Node* BpropContext::onesLike(const ir::AbstractPtr& a) {
    if (!a->shape.isStatic()) {
        fail("irscope: the gradient of a tensor of dynamic shape " + a->shape.toString() +
             " is not supported yet.");
    }
    return constant(Value::tensorValue(filled(a->dtype, a->shape, 1.0)));
}

ir::Node* BpropContext::reduceToShape(ir::Node* g, const ir::Shape& shape) {
    const ir::Shape& from = g->abstract()->shape;
    if (from == shape) {
        return g;
    }
    if (!from.isStatic() || !shape.isStatic()) {
        fail("irscope: the gradient of a broadcast between dynamic shapes " + from.toString() +
             " and " + shape.toString() + " is not supported yet.");
    }
    const std::size_t lead = from.rank() - std::min(from.rank(), shape.rank());
    std::vector<std::int64_t> axes;
    for (std::size_t i = 0; i < from.rank(); ++i) {
        if (i < lead || (shape.dims[i - lead] == 1 && from.dims[i] != 1)) {
            axes.push_back(static_cast<std::int64_t>(i));
        }
    }
    ir::Node* r = g;
    if (!axes.empty()) {
        ir::AttrMap a;
        a.set("keep_dims", Value::boolean(false));
        r = emit("ReduceSum", {g, constant(intTuple(axes))}, a);
    }
    if (r->abstract()->shape != shape) {
        r = emit("Reshape", {r, constant(intTuple(shape.dims))});
    }
    return r;
}

ir::Node* BpropContext::broadcastTo(ir::Node* g, const ir::Shape& shape) {
    if (g->abstract()->shape == shape) {
        return g;
    }
    ir::AttrMap a;
    a.set("shape", intTuple(shape.dims));
    return emit("BroadcastTo", {g}, a);
}

ir::Node* BpropContext::mask(ir::Node* boolTensor, ir::DType t) {
    return emit("Cast", {boolTensor, constant(Value::type(t))});
}

void BpropContext::setGradReduced(std::size_t i, ir::Node* g) {
    const ir::AbstractPtr& a = absOf(i);
    if (isTensorAbs(a)) {
        g = reduceToShape(g, a->shape);
        if (g->abstract()->dtype != a->dtype) {
            // An input promoted by the op (Int32 * Float32) gets a gradient of its own dtype.
            g = emit("Cast", {g, constant(Value::type(a->dtype))});
        }
    }
    setGrad(i, g);
}

void setBprop(OpRegistry& reg, std::string_view name, BpropFn fn) {
    for (const auto& op : reg.ops()) {
        if (op->name == name) {
            op->bprop = std::move(fn);
            return;
        }
    }
    throw std::logic_error("setBprop: no primitive '" + std::string(name) + "'");
}

void registerBprops(OpRegistry& reg) {
    registerMathBprops(reg);
    registerNnBprops(reg);
    registerArrayBprops(reg);
    registerIndexBprops(reg);
}

}  // namespace irscope::ops
