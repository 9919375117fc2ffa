// Bprop rules of the indexing and joining primitives: StridedSlice, Gather, Concat, Stack,
// Tile, and Abs. A slice's gradient is dout padded back with zeros (Concat of zero blocks) or
// scattered by a selection matrix (steps), a gather's the one-hot matrix of the indices
// times dout.
#include <algorithm>

#include "ops/bprop.h"
#include "ops/infer_util.h"

namespace irscope::ops {

using ir::Node;
using ir::Value;

namespace {

ValuePtr intTuple(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> e;
    for (std::int64_t x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}

std::optional<std::vector<std::int64_t>> ints(const Node* n) {
    const auto* v = ir::nodeCast<ir::ValueNode>(n);
    const ValuePtr val =
        v != nullptr ? v->value() : (n->abstract() ? n->abstract()->value : nullptr);
    if (!val || (val->kind != Value::Kind::Tuple && val->kind != Value::Kind::List)) {
        return std::nullopt;
    }
    std::vector<std::int64_t> out;
    for (const ValuePtr& e : val->elements) {
        if (e->kind != Value::Kind::Int) {
            return std::nullopt;
        }
        out.push_back(e->i);
    }
    return out;
}

std::int64_t intAttr(const BpropContext& c, std::string_view name) {
    const ValuePtr v = c.attrs().get(name);
    return v && v->kind == Value::Kind::Int ? v->i : 0;
}

ir::AbstractPtr withDim(const ir::AbstractPtr& a, std::size_t axis, std::int64_t n) {
    ir::Shape s = a->shape;
    s.dims[axis] = n;
    return ir::Abstract::tensor(a->dtype, s);
}

ir::AttrMap axisAttr(std::int64_t axis) {
    ir::AttrMap m;
    m.set("axis", Value::integer(axis));
    return m;
}

// g padded with zeros along `axis` to `size`, g starting at `start`.
Node* padAlong(BpropContext& c, Node* g, std::size_t axis, std::int64_t start, std::int64_t size) {
    const std::int64_t len = g->abstract()->shape.dims[axis];
    std::vector<Node*> parts;
    if (start > 0) {
        parts.push_back(c.zerosLike(withDim(g->abstract(), axis, start)));
    }
    parts.push_back(g);
    if (start + len < size) {
        parts.push_back(c.zerosLike(withDim(g->abstract(), axis, size - start - len)));
    }
    if (parts.size() == 1) {
        return g;
    }
    return c.emit("Concat", {c.emit("MakeTuple", parts)},
                  axisAttr(static_cast<std::int64_t>(axis)));
}

// g (the gradient of a slice taking `len` elements start, start + stride, ... of an axis of
// size n) scattered back along `axis`: g moved to the last axis times the 0/1 selection
// matrix S (len x n), S[k][start + k * stride] = 1.
Node* scatterAlong(BpropContext& c, Node* g, std::size_t axis, std::int64_t start,
                   std::int64_t stride, std::int64_t n) {
    const ir::Shape& gs = g->abstract()->shape;
    const std::size_t rank = gs.rank();
    const std::int64_t len = gs.dims[axis];
    std::vector<std::int64_t> perm;
    for (std::size_t d = 0; d < rank; ++d) {
        if (d != axis) {
            perm.push_back(static_cast<std::int64_t>(d));
        }
    }
    perm.push_back(static_cast<std::int64_t>(axis));
    std::vector<std::int64_t> inverse(rank);
    std::vector<std::int64_t> moved;
    for (std::size_t d = 0; d < rank; ++d) {
        inverse[static_cast<std::size_t>(perm[d])] = static_cast<std::int64_t>(d);
        moved.push_back(gs.dims[static_cast<std::size_t>(perm[d])]);
    }
    const ir::DType t = g->abstract()->dtype;
    ir::TensorData sel;
    sel.dtype = t;
    sel.shape = ir::Shape{len, n};
    const ir::TensorData zero = ir::scalarTensor(t, 0.0);
    const ir::TensorData one = ir::scalarTensor(t, 1.0);
    for (std::int64_t k = 0; k < len; ++k) {
        for (std::int64_t j = 0; j < n; ++j) {
            const ir::TensorData& e = j == start + k * stride ? one : zero;
            sel.data.insert(sel.data.end(), e.data.begin(), e.data.end());
        }
    }
    Node* m = c.emit("Transpose", {g, c.constant(intTuple(perm))});
    m = c.emit("Reshape",
               {m, c.constant(intTuple(
                       {ir::Shape(moved).elementCount() / std::max<std::int64_t>(1, len), len}))});
    m = c.emit("MatMul", {m, c.constant(Value::tensorValue(std::move(sel)))});
    moved.back() = n;
    m = c.emit("Reshape", {m, c.constant(intTuple(moved))});
    return c.emit("Transpose", {m, c.constant(intTuple(inverse))});
}

// StridedSlice with constant bounds (no ellipsis/new axis): dout, with the shrunk axes put
// back, padded with zeros (unit strides) or scattered (other strides) to the input's shape.
void bpropStridedSlice(BpropContext& c) {
    const ir::Shape& xs = c.absOf(0)->shape;
    const auto begin = ints(c.input(1));
    const auto end = ints(c.input(2));
    const auto strides = ints(c.input(3));
    if (!xs.isStatic() || !begin || !end || !strides || begin->size() != strides->size() ||
        end->size() != strides->size() || intAttr(c, "ellipsis_mask") != 0 ||
        intAttr(c, "new_axis_mask") != 0) {
        c.fail(
            "irscope: the gradient of StridedSlice is supported for constant bounds without "
            "ellipsis or new axes only.");
    }
    const std::int64_t bm = intAttr(c, "begin_mask");
    const std::int64_t em = intAttr(c, "end_mask");
    const std::int64_t sm = intAttr(c, "shrink_axis_mask");
    std::vector<std::int64_t> starts(xs.rank(), 0);
    std::vector<std::int64_t> steps(xs.rank(), 1);
    std::vector<std::int64_t> kept = xs.dims;
    for (std::size_t i = 0; i < begin->size() && i < xs.rank(); ++i) {
        const std::int64_t n = xs.dims[i];
        const std::int64_t stride = (*strides)[i];
        if (stride == 0) {
            c.fail("irscope: the gradient of StridedSlice needs non-zero strides.");
        }
        auto clamp = [&](std::int64_t v) {
            v = v < 0 ? v + n : v;
            return stride > 0 ? std::clamp<std::int64_t>(v, 0, n)
                              : std::clamp<std::int64_t>(v, -1, n - 1);
        };
        if ((sm >> i) & 1) {
            starts[i] =
                std::clamp<std::int64_t>((*begin)[i] < 0 ? (*begin)[i] + n : (*begin)[i], 0, n - 1);
            kept[i] = 1;
            continue;
        }
        starts[i] = (bm >> i) & 1 ? (stride > 0 ? 0 : n - 1) : clamp((*begin)[i]);
        const std::int64_t stop = (em >> i) & 1 ? (stride > 0 ? n : -1) : clamp((*end)[i]);
        const std::int64_t span = stride > 0 ? stop - starts[i] : starts[i] - stop;
        const std::int64_t step = stride > 0 ? stride : -stride;
        steps[i] = stride;
        kept[i] = span <= 0 ? 0 : (span + step - 1) / step;
    }
    if (ir::Shape(kept).elementCount() == 0) {
        c.setGrad(0, c.zerosLike(c.absOf(0)));
        return;
    }
    Node* g = c.dout();
    if (g->abstract()->shape != ir::Shape(kept)) {
        g = c.emit("Reshape", {g, c.constant(intTuple(kept))});
    }
    for (std::size_t i = 0; i < xs.rank(); ++i) {
        g = steps[i] == 1 ? padAlong(c, g, i, starts[i], xs.dims[i])
                          : scatterAlong(c, g, i, starts[i], steps[i], xs.dims[i]);
    }
    c.setGrad(0, g);
}

// Gather(params, indices, axis): with the axis moved first, dparams = onehot(indices)^T @ dout
// where onehot = Cast(Equal(indices[..., None], arange(n))); then the axis moves back.
void bpropGather(BpropContext& c) {
    const ir::AbstractPtr& pa = c.absOf(0);
    const ir::AbstractPtr& ia = c.absOf(1);
    const auto* axisNode = ir::nodeCast<ir::ValueNode>(c.input(2));
    if (axisNode == nullptr || axisNode->value()->kind != Value::Kind::Int ||
        intAttr(c, "batch_dims") != 0 || !pa->shape.isStatic() || !ia->shape.isStatic() ||
        pa->shape.rank() == 0) {
        c.fail(
            "irscope: the gradient of Gather needs a constant axis, no batch_dims and static "
            "shapes.");
    }
    const auto rank = static_cast<std::int64_t>(pa->shape.rank());
    const std::int64_t axis = normalizeAxis("Gather", "axis", axisNode->value()->i, rank);
    const auto irank = static_cast<std::int64_t>(ia->shape.rank());
    const std::int64_t n = pa->shape.dims[static_cast<std::size_t>(axis)];
    const std::int64_t count = ia->shape.elementCount();
    if (count == 0) {
        c.setGrad(0, c.zerosLike(pa));
        return;
    }
    // params with the axis first: (n, params.shape[:axis], params.shape[axis+1:]).
    std::vector<std::int64_t> permP{axis};
    std::vector<std::int64_t> movedP{n};
    for (std::int64_t d = 0; d < rank; ++d) {
        if (d != axis) {
            permP.push_back(d);
            movedP.push_back(pa->shape.dims[static_cast<std::size_t>(d)]);
        }
    }
    const std::int64_t rest = ir::Shape(movedP).elementCount() / std::max<std::int64_t>(1, n);
    // dout (params.shape[:axis] + indices.shape + params.shape[axis+1:]) with the indices'
    // axes first.
    Node* d = c.dout();
    if (axis != 0) {
        std::vector<std::int64_t> permD;
        for (std::int64_t k = 0; k < irank; ++k) {
            permD.push_back(axis + k);
        }
        for (std::int64_t k = 0; k < axis; ++k) {
            permD.push_back(k);
        }
        for (std::int64_t k = axis + irank; k < rank - 1 + irank; ++k) {
            permD.push_back(k);
        }
        d = c.emit("Transpose", {d, c.constant(intTuple(permD))});
    }
    ir::TensorData r;  // arange(n) in the indices' dtype
    r.dtype = ia->dtype;
    r.shape = ir::Shape{n};
    for (std::int64_t k = 0; k < n; ++k) {
        const ir::TensorData e = ir::scalarTensor(ia->dtype, static_cast<double>(k));
        r.data.insert(r.data.end(), e.data.begin(), e.data.end());
    }
    Node* idx = c.emit("Reshape", {c.input(1), c.constant(intTuple({count, 1}))});
    Node* onehot = c.mask(c.emit("Equal", {idx, c.constant(Value::tensorValue(std::move(r)))}),
                          c.dout()->abstract()->dtype);
    d = c.emit("Reshape", {d, c.constant(intTuple({count, rest}))});
    ir::AttrMap t;
    t.set("transpose_a", Value::boolean(true));
    t.set("transpose_b", Value::boolean(false));
    Node* g = c.emit("Reshape", {c.emit("MatMul", {onehot, d}, t), c.constant(intTuple(movedP))});
    if (axis != 0) {
        std::vector<std::int64_t> inverse(permP.size());
        for (std::size_t k = 0; k < permP.size(); ++k) {
            inverse[static_cast<std::size_t>(permP[k])] = static_cast<std::int64_t>(k);
        }
        g = c.emit("Transpose", {g, c.constant(intTuple(inverse))});
    }
    c.setGrad(0, g);
}

// Concat/Stack(tensors, axis): each element gets its block of dout.
void bpropJoin(BpropContext& c, bool stack) {
    const ir::AbstractPtr& t = c.absOf(0);
    Node* d = c.dout();
    const ir::Shape& ds = d->abstract()->shape;
    const std::int64_t rank = static_cast<std::int64_t>(ds.rank());
    const std::int64_t axis =
        normalizeAxis(stack ? "Stack" : "Concat", "axis", intAttr(c, "axis"), rank);
    if (!ds.isStatic()) {
        c.fail("irscope: the gradient of a join of dynamic shape is not supported yet.");
    }
    std::vector<Node*> grads;
    std::int64_t offset = 0;
    for (const ir::AbstractPtr& e : t->elements) {
        const std::int64_t len = stack ? 1 : e->shape.dims[static_cast<std::size_t>(axis)];
        std::vector<std::int64_t> begin(ds.rank(), 0);
        std::vector<std::int64_t> end = ds.dims;
        std::vector<std::int64_t> strides(ds.rank(), 1);
        begin[static_cast<std::size_t>(axis)] = offset;
        end[static_cast<std::size_t>(axis)] = offset + len;
        ir::AttrMap m;
        m.set("shrink_axis_mask", Value::integer(stack ? (std::int64_t{1} << axis) : 0));
        grads.push_back(c.emit("StridedSlice",
                               {d, c.constant(intTuple(begin)), c.constant(intTuple(end)),
                                c.constant(intTuple(strides))},
                               m));
        offset += len;
    }
    c.setGradElements(0, grads);
}

// Tile(x, multiples): dout viewed as (m0, n0, m1, n1, ...) summed over the m axes.
void bpropTile(BpropContext& c) {
    const ir::Shape& xs = c.absOf(0)->shape;
    const auto mult = ints(c.input(1));
    if (!mult || !xs.isStatic() || mult->size() < xs.rank()) {
        c.fail("irscope: the gradient of Tile needs constant multiples and a static shape.");
    }
    const std::size_t lead = mult->size() - xs.rank();
    std::vector<std::int64_t> view;
    std::vector<std::int64_t> axes;
    for (std::size_t i = 0; i < mult->size(); ++i) {
        const std::int64_t n = i < lead ? 1 : xs.dims[i - lead];
        axes.push_back(static_cast<std::int64_t>(view.size()));
        view.push_back((*mult)[i]);
        view.push_back(n);
    }
    Node* g = c.emit("Reshape", {c.dout(), c.constant(intTuple(view))});
    ir::AttrMap a;
    a.set("keep_dims", Value::boolean(false));
    g = c.emit("ReduceSum", {g, c.constant(intTuple(axes))}, a);
    c.setGrad(0, c.emit("Reshape", {g, c.constant(intTuple(xs.dims))}));
}

// Abs: dout * sign(x), sign from two masks.
void bpropAbs(BpropContext& c) {
    const ir::DType t = c.dout()->abstract()->dtype;
    Node* zero = c.zerosLike(c.absOf(0));
    Node* pos = c.mask(c.emit("Greater", {c.input(0), zero}), t);
    Node* neg = c.mask(c.emit("Less", {c.input(0), zero}), t);
    c.setGrad(0, c.emit("Mul", {c.dout(), c.emit("Sub", {pos, neg})}));
}

}  // namespace

void registerIndexBprops(OpRegistry& reg) {
    setBprop(reg, "StridedSlice", bpropStridedSlice);
    setBprop(reg, "Gather", bpropGather);
    setBprop(reg, "Concat", [](BpropContext& c) { bpropJoin(c, false); });
    setBprop(reg, "Stack", [](BpropContext& c) { bpropJoin(c, true); });
    setBprop(reg, "Tile", bpropTile);
    setBprop(reg, "Abs", bpropAbs);
}

}  // namespace irscope::ops
