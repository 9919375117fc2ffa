// Bprop rules of the array, reduction and state primitives: Reshape Transpose ExpandDims
// Squeeze Cast BroadcastTo ReduceSum ReduceMean, and the ones whose output carries no
// gradient to their inputs. Structural primitives (MakeTuple, TupleGetItem, Depend, Load,
// Assign, UpdateState, StopGradient) are handled by the autodiff pass itself, which owns the
// tuple and monad plumbing (passes/autodiff_sweep.cpp).
#include <algorithm>

#include "ops/bprop.h"
#include "ops/infer_util.h"

namespace irscope::ops {

using ir::Node;
using ir::Value;

namespace {

ValuePtr constOf(const Node* n) {
    if (const auto* v = ir::nodeCast<ir::ValueNode>(n)) {
        return v->value();
    }
    return n->abstract() ? n->abstract()->value : nullptr;
}

ValuePtr intTuple(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> e;
    for (std::int64_t x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}

// Back to the input's shape (Reshape, ExpandDims, Squeeze).
void bpropReshapeLike(BpropContext& c) {
    const ir::Shape& s = c.absOf(0)->shape;
    if (!s.isStatic()) {
        c.fail("irscope: the gradient of a reshape of dynamic shape " + s.toString() +
               " is not supported yet.");
    }
    c.setGrad(0, c.emit("Reshape", {c.dout(), c.constant(intTuple(s.dims))}));
}

void bpropTranspose(BpropContext& c) {
    const ValuePtr perm = constOf(c.input(1));
    if (!perm || (perm->kind != Value::Kind::Tuple && perm->kind != Value::Kind::List)) {
        c.fail("irscope: the gradient of Transpose needs a constant permutation.");
    }
    const auto rank = static_cast<std::int64_t>(perm->elements.size());
    std::vector<std::int64_t> inv(perm->elements.size());
    for (std::int64_t i = 0; i < rank; ++i) {
        std::int64_t p = perm->elements[static_cast<std::size_t>(i)]->i;
        p = p < 0 ? p + rank : p;
        inv[static_cast<std::size_t>(p)] = i;
    }
    c.setGrad(0, c.emit("Transpose", {c.dout(), c.constant(intTuple(inv))}));
}

void bpropCast(BpropContext& c) {
    const ir::AbstractPtr& a = c.absOf(0);
    if (!isTensorAbs(a)) {
        return;  // a Python number cast to a tensor: a constant
    }
    Node* d = c.dout();
    c.setGrad(0, d->abstract()->dtype == a->dtype
                     ? d
                     : c.emit("Cast", {d, c.constant(Value::type(a->dtype))}));
}

void bpropBroadcastTo(BpropContext& c) {
    c.setGradReduced(0, c.dout());
}

// x's shape with the reduced axes (input 1, constant; empty or None: all) kept as 1.
std::vector<std::int64_t> keptShape(BpropContext& c, const ir::Shape& xs) {
    const auto rank = static_cast<std::int64_t>(xs.rank());
    std::vector<std::int64_t> axes;
    const ValuePtr axis = c.inputCount() > 1 ? constOf(c.input(1)) : Value::tuple({});
    if (!axis) {
        c.fail("irscope: the gradient of a reduction needs a constant axis.");
    }
    if (axis->kind == Value::Kind::Int) {
        axes.push_back(axis->i);
    } else {
        for (const ValuePtr& e : axis->elements) {
            axes.push_back(e->i);
        }
    }
    if (axes.empty()) {
        for (std::int64_t i = 0; i < rank; ++i) {
            axes.push_back(i);
        }
    }
    std::vector<std::int64_t> kept = xs.dims;
    for (std::int64_t a : normalizeAxes("Reduce", "axis", axes, rank)) {
        kept[static_cast<std::size_t>(a)] = 1;
    }
    return kept;
}

// What a reduction's bprop works with: x's static shape, the reduced shape with the reduced
// axes kept as 1, and `back`, which takes a reduced value (out, dout) back to x's shape.
struct ReducedShapes {
    ir::Shape xs;
    std::vector<std::int64_t> kept;
    BpropContext* c = nullptr;
    Node* back(Node* n) const {
        if (n->abstract()->shape != ir::Shape(kept)) {
            n = c->emit("Reshape", {n, c->constant(intTuple(kept))});
        }
        return c->broadcastTo(n, xs);
    }
};

ReducedShapes reducedShapes(BpropContext& c) {
    const ir::Shape& xs = c.absOf(0)->shape;
    if (!xs.isStatic()) {
        c.fail("irscope: the gradient of a reduction of dynamic shape " + xs.toString() +
               " is not supported yet.");
    }
    return {xs, keptShape(c, xs), &c};
}

// ReduceSum/ReduceMean(x, axis): dout, reshaped with the reduced axes kept as 1, broadcast
// back to x's shape (and divided by the number of elements reduced, for the mean).
void bpropReduce(BpropContext& c, bool mean) {
    const ReducedShapes r = reducedShapes(c);
    const std::int64_t count =
        r.xs.elementCount() / std::max<std::int64_t>(1, ir::Shape(r.kept).elementCount());
    Node* d = r.back(c.dout());
    if (mean && count != 1) {
        d = c.emit("RealDiv", {d, c.scalar(d->abstract()->dtype, static_cast<double>(count))});
    }
    c.setGrad(0, d);
}

// ReduceMax/ReduceMin: dout shared by the elements equal to the extremum.
void bpropReduceExtremum(BpropContext& c) {
    const ReducedShapes r = reducedShapes(c);
    const ir::Shape& xs = r.xs;
    const ir::DType t = c.dout()->abstract()->dtype;
    Node* hit = c.mask(c.emit("Equal", {c.input(0), r.back(c.out())}), t);
    ir::AttrMap a;
    a.set("keep_dims", Value::boolean(true));
    Node* count = c.emit("ReduceSum", {hit, c.input(1)}, a);
    Node* share = c.emit("RealDiv", {hit, c.broadcastTo(count, xs)});
    c.setGrad(0, c.emit("Mul", {share, r.back(c.dout())}));
}

// ReduceProd: d prod / d x_i is the product of the other elements. Dividing the product by
// x_i fails at zeros, so per reduced group, with z the zeros and p the product of the nonzero
// elements: no zero, p / x_i; exactly one zero, p at the zero and 0 elsewhere; more, 0.
void bpropReduceProd(BpropContext& c) {
    const ReducedShapes r = reducedShapes(c);
    const ir::Shape& xs = r.xs;
    const ir::DType t = c.dout()->abstract()->dtype;
    ir::AttrMap keep;
    keep.set("keep_dims", Value::boolean(true));
    Node* zero = c.mask(c.emit("Equal", {c.input(0), c.scalar(t, 0.0)}), t);
    Node* safe = c.emit("Add", {c.input(0), zero});  // the zeros become ones
    Node* nonzeroProd = c.broadcastTo(c.emit("ReduceProd", {safe, c.input(1)}, keep), xs);
    Node* zeros = c.broadcastTo(c.emit("ReduceSum", {zero, c.input(1)}, keep), xs);
    Node* none = c.mask(c.emit("Equal", {zeros, c.scalar(t, 0.0)}), t);
    Node* one = c.mask(c.emit("Equal", {zeros, c.scalar(t, 1.0)}), t);
    Node* noZero = c.emit("Mul", {none, c.emit("RealDiv", {nonzeroProd, safe})});
    Node* atTheZero = c.emit("Mul", {c.emit("Mul", {one, zero}), nonzeroProd});
    c.setGrad(0, c.emit("Mul", {c.emit("Add", {noZero, atTheZero}), r.back(c.dout())}));
}

}  // namespace

void registerArrayBprops(OpRegistry& reg) {
    for (const char* name : {"Reshape", "ExpandDims", "Squeeze"}) {
        setBprop(reg, name, bpropReshapeLike);
    }
    setBprop(reg, "Transpose", bpropTranspose);
    setBprop(reg, "Cast", bpropCast);
    setBprop(reg, "BroadcastTo", bpropBroadcastTo);
    setBprop(reg, "ReduceSum", [](BpropContext& c) { bpropReduce(c, false); });
    setBprop(reg, "ReduceMean", [](BpropContext& c) { bpropReduce(c, true); });
    setBprop(reg, "ReduceMax", bpropReduceExtremum);
    setBprop(reg, "ReduceMin", bpropReduceExtremum);
    setBprop(reg, "ReduceProd", bpropReduceProd);
    // A copy of the value (load elimination's TensorMove) passes the gradient through.
    setBprop(reg, "TensorMove", [](BpropContext& c) { c.setGrad(0, c.dout()); });
    setBprop(reg, "Dropout", [](BpropContext& c) {
        // (y, mask) = Dropout(x): dx = dy * mask / keep_prob.
        Node* dy = c.doutElement(0);
        if (dy == nullptr) {
            return;
        }
        Node* m = c.emit("TupleGetItem", {c.out(), c.constant(Value::integer(1))});
        const ValuePtr kp = c.attrs().get("keep_prob");
        const double keep =
            kp ? (kp->kind == Value::Kind::Float ? kp->f : static_cast<double>(kp->i)) : 0.5;
        Node* scaled = c.emit("Mul", {c.emit("Mul", {dy, c.mask(m, dy->abstract()->dtype)}),
                                      c.scalar(dy->abstract()->dtype, 1.0 / keep)});
        c.setGrad(0, scaled);
    });
}

}  // namespace irscope::ops
