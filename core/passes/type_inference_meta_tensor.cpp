// Meta operations on tensors that need more than an Operator spelling: getattr (shape, dtype,
// ndim, size, T and methods), getitem (ints, slices, None, Ellipsis -> one StridedSlice; an
// integer tensor -> Gather) and the functional setitem.
//
// An index holding integer scalar tensors (`x[i, :, 0:2]`, i a loop variable) reads with a
// StridedSlice then a Gather per tensor item, and writes through a run-time mask and Select.
//
// setitem (x[index] = v) is lowered with registry ops only, for static shapes: the positions
// the index selects are computed at compile time by running the StridedSlice kernel on an
// iota tensor, then out = Reshape(Gather(Concat(flat(x), flat(v')), map), x.shape) where map
// sends every position to itself or to its element of v'. MindSpore uses TensorScatterUpdate
// for this; the registry has no scatter op yet.
#include <numeric>

#include "ops/call_binding.h"
#include "ops/infer_util.h"
#include "passes/meta_ops.h"
#include "passes/type_inference_meta.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::CNode;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

ValuePtr ints(const std::vector<std::int64_t>& v) {
    std::vector<ValuePtr> e;
    for (auto x : v) {
        e.push_back(Value::integer(x));
    }
    return Value::tuple(std::move(e));
}

bool isEllipsis(const ValuePtr& v) {
    return v && ((v->kind == Value::Kind::Opaque && (v->text == "Ellipsis" || v->text == "...")) ||
                 (v->kind == Value::Kind::String && v->text == "..."));
}

// A basic index as StridedSlice's inputs and masks.
struct SliceSpec {
    std::vector<std::int64_t> begin, end, strides;
    ir::AttrMap attrs;
};

std::optional<SliceSpec> basicIndex(const ValuePtr& idx) {
    std::vector<ValuePtr> items;
    if (idx->kind == Value::Kind::Tuple) {
        items = idx->elements;
    } else {
        items = {idx};
    }
    SliceSpec s;
    std::int64_t beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0, shrinkMask = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const ValuePtr& it = items[i];
        const std::int64_t bit = std::int64_t{1} << i;
        if (it->kind == Value::Kind::Int || it->kind == Value::Kind::Bool) {
            const std::int64_t k = *ops::intOf(it);
            s.begin.push_back(k);
            s.end.push_back(k + 1);
            s.strides.push_back(1);
            shrinkMask |= bit;
        } else if (it->kind == Value::Kind::Slice) {
            auto get = [&](std::size_t j, std::int64_t dflt, std::int64_t& mask) {
                const ValuePtr& b = it->elements.at(j);
                if (!b || b->kind == Value::Kind::None) {
                    mask |= bit;
                    return dflt;
                }
                return *ops::intOf(b);
            };
            std::int64_t unused = 0;
            s.begin.push_back(get(0, 0, beginMask));
            s.end.push_back(get(1, 0, endMask));
            const ValuePtr& st = it->elements.at(2);
            s.strides.push_back(st && st->kind != Value::Kind::None ? get(2, 1, unused) : 1);
        } else if (it->kind == Value::Kind::None) {
            s.begin.push_back(0);
            s.end.push_back(1);
            s.strides.push_back(1);
            newAxisMask |= bit;
        } else if (isEllipsis(it)) {
            s.begin.push_back(0);
            s.end.push_back(0);
            s.strides.push_back(1);
            ellipsisMask |= bit;
        } else {
            return std::nullopt;
        }
    }
    s.attrs.set("begin_mask", Value::integer(beginMask));
    s.attrs.set("end_mask", Value::integer(endMask));
    s.attrs.set("ellipsis_mask", Value::integer(ellipsisMask));
    s.attrs.set("new_axis_mask", Value::integer(newAxisMask));
    s.attrs.set("shrink_axis_mask", Value::integer(shrinkMask));
    return s;
}

// A tuple index whose items are constants and integer scalar tensors (`x[i, :, 0:2]` with i
// a loop variable of a while on a tensor): the constant index with each tensor item taken
// as a whole-axis slice, and for each tensor item its axis of x. nullopt when the index is
// not of that form.
struct TensorItems {
    ValuePtr basic;                                   // the index with `:` for the tensor items
    std::vector<std::pair<std::int64_t, Arg>> items;  // (axis of x, integer scalar tensor)
    std::vector<std::int64_t> outAxes;                // each one's axis in x[basic]
};

std::optional<TensorItems> tensorItems(Engine& e, CNode* c, const Arg& x, const Arg& idx) {
    if (!idx.abs || idx.abs->kind != Abstract::Kind::Tuple || valueOf(idx) || !isTensor(x) ||
        x.abs->shape.dynamicRank) {
        return std::nullopt;
    }
    const auto rank = static_cast<std::int64_t>(x.abs->shape.dims.size());
    const std::vector<Arg> elems = e.elementsOf(c, idx);
    std::int64_t consumed = 0;  // items that take an axis of x (not None, not Ellipsis)
    for (const Arg& a : elems) {
        const ValuePtr v = valueOf(a);
        consumed += (v && (v->kind == Value::Kind::None || isEllipsis(v))) ? 0 : 1;
    }
    TensorItems t;
    std::vector<ValuePtr> basic;
    std::int64_t inAxis = 0;
    std::int64_t outAxis = 0;
    for (const Arg& a : elems) {
        if (isTensor(a) && ir::isInteger(a.abs->dtype) && a.abs->shape.isStatic() &&
            a.abs->shape.dims.empty()) {
            t.items.emplace_back(inAxis, a);
            t.outAxes.push_back(outAxis);
            basic.push_back(Value::slice(Value::none(), Value::none(), Value::none()));
            ++inAxis;
            ++outAxis;
            continue;
        }
        const ValuePtr v = valueOf(a);
        if (!v) {
            return std::nullopt;
        }
        basic.push_back(v);
        if (v->kind == Value::Kind::None) {
            ++outAxis;
        } else if (isEllipsis(v)) {
            inAxis += rank - consumed;
            outAxis += rank - consumed;
        } else {
            ++inAxis;
            outAxis += v->kind == Value::Kind::Slice ? 1 : 0;
        }
    }
    if (t.items.empty()) {
        return std::nullopt;
    }
    t.basic = Value::tuple(std::move(basic));
    return t;
}

Arg tensorGetItem(Engine& e, CNode* c, const Arg& x, const Arg& idx) {
    if (std::optional<TensorItems> t = tensorItems(e, c, x, idx)) {
        // x[basic], then each tensor item picks its axis (Gather with a scalar index drops
        // the axis, as an int index does), the last axis first.
        std::optional<SliceSpec> s = basicIndex(t->basic);
        if (s) {
            Arg r = e.emitPrim(
                c, "StridedSlice",
                {x.node, e.emitConst(c, ints(s->begin)).node, e.emitConst(c, ints(s->end)).node,
                 e.emitConst(c, ints(s->strides)).node},
                s->attrs);
            for (std::size_t k = t->items.size(); k-- > 0;) {
                r = e.emitPrim(c, "Gather",
                               {r.node, t->items[k].second.node,
                                e.emitConst(c, Value::integer(t->outAxes[k])).node});
            }
            return e.replace(c, r);
        }
    }
    if (isTensor(idx)) {
        if (!ir::isInteger(idx.abs->dtype)) {
            e.error(c, "IndexError",
                    "irscope: only integer tensors can index a tensor in graph mode, got " +
                        typeName(idx) + ".");
        }
        return e.replace(
            c, e.emitPrim(c, "Gather", {x.node, idx.node, e.emitConst(c, Value::integer(0)).node}));
    }
    const ValuePtr v = valueOf(idx);
    std::optional<SliceSpec> s = v ? basicIndex(v) : std::nullopt;
    if (!s) {
        e.error(c, "IndexError",
                "Tensor index must be a constant int, slice, None, Ellipsis, an integer tensor, "
                "or a tuple of constants in graph mode, but got " +
                    typeName(idx) + ".");
    }
    return e.replace(
        c, e.emitPrim(c, "StridedSlice",
                      {x.node, e.emitConst(c, ints(s->begin)).node,
                       e.emitConst(c, ints(s->end)).node, e.emitConst(c, ints(s->strides)).node},
                      s->attrs));
}

// The flat positions in a tensor of static `shape` that the basic index `s` selects, in the
// order of the selection (with its shape): StridedSlice run at compile time on 0, 1, 2...
ir::Tensor selectedFlatIndices(Engine& e, CNode* c, const ir::Shape& shape,
                                    const SliceSpec& s) {
    std::vector<std::int64_t> iota(static_cast<std::size_t>(shape.elementCount()));
    std::iota(iota.begin(), iota.end(), 0);
    std::vector<ops::KernelArg> in{ir::Tensor::fromInts(ir::DType::Int64, shape, iota),
                                   ops::KernelArg(ints(s.begin)), ops::KernelArg(ints(s.end)),
                                   ops::KernelArg(ints(s.strides))};
    try {
        return ops::OpRegistry::instance().run("StridedSlice", in, s.attrs).tensor();
    } catch (const ops::OpError& err) {
        e.error(c, std::string(ops::errorKindName(err.kind())), err.what());
    }
}

// The value of `x[index] = v` as a tensor of x's dtype: a constant number becomes a scalar
// tensor, a tensor of another dtype is cast.
Arg assignedValue(Engine& e, CNode* c, const Arg& v, ir::DType dt) {
    if (isNumber(v)) {
        const auto num = ops::numberOf(valueOf(v));
        if (!num) {
            e.error(c, "TypeError",
                    "irscope: the number assigned to a tensor item must be a constant in graph "
                    "mode.");
        }
        return e.emitConst(c, Value::tensorValue(ir::scalarTensor(dt, *num)));
    }
    if (!isTensor(v)) {
        e.error(c, "TypeError",
                "The value assigned to a tensor item must be a Tensor or a number, but got " +
                    typeName(v) + ".");
    }
    return v.abs->dtype != dt
               ? e.emitPrim(c, "Cast", {v.node, e.emitConst(c, Value::type(dt)).node})
               : v;
}

// x[index] = v where the index holds integer scalar tensors: a mask of the positions (the
// constant items' positions computed at compile time, each tensor item's axis compared with
// its value at run time) selects v, broadcast to x's shape, over x. v must broadcast there:
// a number, a one-element tensor, or a tensor whose axes cover the selected axes whole.
Arg tensorSetItemMasked(Engine& e, CNode* c, const Arg& x, const TensorItems& t, const Arg& v) {
    const ir::Shape& shape = x.abs->shape;
    std::optional<SliceSpec> s = basicIndex(t.basic);
    if (!s || !shape.isStatic()) {
        e.error(c, "IndexError",
                "irscope: tensor item assignment needs a constant basic index (ints, slices, "
                "None, Ellipsis, integer scalar tensors) and a static shape in graph mode.");
    }
    const auto n = shape.elementCount();
    const ir::Tensor picked = selectedFlatIndices(e, c, shape, *s);
    std::vector<std::int64_t> staticMask(static_cast<std::size_t>(n), 0);
    for (std::size_t k = 0; k < picked.size(); ++k) {
        staticMask[static_cast<std::size_t>(picked.getInt(k))] = 1;
    }
    ir::Tensor maskT = ir::Tensor::fromInts(ir::DType::Bool, shape, staticMask);
    Arg mask = e.emitConst(c, Value::tensorValue(maskT.toValueData()));
    for (const auto& [axis, item] : t.items) {
        const std::int64_t d = shape.dims.at(static_cast<std::size_t>(axis));
        std::vector<std::int64_t> positions(static_cast<std::size_t>(d));
        std::iota(positions.begin(), positions.end(), 0);
        std::vector<std::int64_t> dims(shape.dims.size(), 1);
        dims[static_cast<std::size_t>(axis)] = d;
        Arg pos = e.emitConst(c, Value::tensorValue(ir::Tensor::fromInts(
                                                        item.abs->dtype, ir::Shape(dims), positions)
                                                        .toValueData()));
        Arg hit = e.emitPrim(c, "Equal", {pos.node, item.node});
        mask = e.emitPrim(c, "LogicalAnd", {mask.node, hit.node});
    }
    Arg val = assignedValue(e, c, v, x.abs->dtype);
    if (val.abs->shape != shape) {
        // v has the selected region's shape without the tensor items' axes: put them back as
        // ones, then broadcast (only a region spanning whole axes, or one element, fits).
        const bool one = val.abs->shape.isStatic() && val.abs->shape.elementCount() == 1;
        if (!one) {
            std::vector<std::int64_t> full = picked.shape().dims;
            for (std::int64_t a : t.outAxes) {
                full[static_cast<std::size_t>(a)] = 1;
            }
            if (full.size() != shape.dims.size()) {
                e.error(c, "IndexError",
                        "irscope: assigning a tensor through an index that adds or drops axes "
                        "next to a tensor item is not supported yet in graph mode.");
            }
            for (std::size_t k = 0; k < full.size(); ++k) {
                if (full[k] != 1 && full[k] != shape.dims[k]) {
                    e.error(c, "IndexError",
                            "irscope: assigning a tensor to part of an axis through an index "
                            "holding a tensor is not supported yet in graph mode (assign a "
                            "number, or slice whole axes).");
                }
            }
            val = e.emitPrim(c, "Reshape", {val.node, e.emitConst(c, ints(full)).node});
        }
        ir::AttrMap a;
        a.set("shape", ints(shape.dims));
        val = e.emitPrim(c, "BroadcastTo", {val.node}, a);
    }
    return e.replace(c, e.emitPrim(c, "Select", {mask.node, val.node, x.node}));
}

Arg tensorSetItem(Engine& e, CNode* c, const Arg& x, const Arg& idx, const Arg& v) {
    if (std::optional<TensorItems> t = tensorItems(e, c, x, idx)) {
        return tensorSetItemMasked(e, c, x, *t, v);
    }
    const ValuePtr iv = valueOf(idx);
    std::optional<SliceSpec> s = iv && !isTensor(idx) ? basicIndex(iv) : std::nullopt;
    const ir::Shape& shape = x.abs->shape;
    if (!s || !shape.isStatic()) {
        e.error(c, "IndexError",
                "irscope: tensor item assignment needs a constant basic index (ints, slices, "
                "None, Ellipsis) and a static shape in graph mode.");
    }
    if (!isTensor(v) && !isNumber(v)) {
        e.error(c, "TypeError",
                "The value assigned to a tensor item must be a Tensor or a number, "
                "but got " +
                    typeName(v) + ".");
    }
    const auto n = shape.elementCount();
    const ir::Tensor picked = selectedFlatIndices(e, c, shape, *s);
    std::vector<std::int64_t> iota(static_cast<std::size_t>(n));
    std::iota(iota.begin(), iota.end(), 0);
    std::vector<std::int64_t> map(iota);
    for (std::size_t k = 0; k < picked.size(); ++k) {
        map[static_cast<std::size_t>(picked.getInt(k))] = n + static_cast<std::int64_t>(k);
    }
    const auto m = static_cast<std::int64_t>(picked.size());
    Arg val = assignedValue(e, c, v, x.abs->dtype);
    if (!isTensor(val) || val.abs->shape != picked.shape()) {
        ir::AttrMap a;
        a.set("shape", ints(picked.shape().dims));
        val = e.emitPrim(c, "BroadcastTo", {val.node}, a);
    }
    Arg fx = e.emitPrim(c, "Reshape", {x.node, e.emitConst(c, ints({n})).node});
    Arg fv = e.emitPrim(c, "Reshape", {val.node, e.emitConst(c, ints({m})).node});
    ir::AttrMap axis;
    axis.set("axis", Value::integer(0));
    Arg both = e.emitPrim(c, "Concat", {e.makeTuple(c, {fx, fv}).node}, axis);
    Arg mapT = e.emitConst(
        c, Value::tensorValue(
               ir::Tensor::fromInts(ir::DType::Int64, ir::Shape{n}, map).toValueData()));
    Arg g = e.emitPrim(c, "Gather", {both.node, mapT.node, e.emitConst(c, Value::integer(0)).node});
    return e.replace(c, e.emitPrim(c, "Reshape", {g.node, e.emitConst(c, ints(shape.dims)).node}));
}

Arg getAttr(Engine& e, CNode* c, const Arg& x, const Arg& nameArg) {
    const ValuePtr nv = valueOf(nameArg);
    if (!nv || nv->kind != Value::Kind::String) {
        e.error(c, "TypeError", "getattr(): attribute name must be a constant string");
    }
    const std::string& name = nv->text;
    if (isTensor(x)) {
        const ir::Shape& s = x.abs->shape;
        auto fold = [&](ValuePtr v) { return e.replace(c, e.emitConst(c, std::move(v))); };
        if (name == "shape" && !s.dynamicRank) {
            return fold(ints(s.dims));
        }
        if (name == "dtype") {
            return fold(Value::type(x.abs->dtype));
        }
        if (name == "ndim" && !s.dynamicRank) {
            return fold(Value::integer(static_cast<std::int64_t>(s.rank())));
        }
        if (name == "size" && s.isStatic()) {
            return fold(Value::integer(s.elementCount()));
        }
        if (name == "itemsize") {
            return fold(Value::integer(static_cast<std::int64_t>(ir::dtypeSize(x.abs->dtype))));
        }
        if (name == "nbytes" && s.isStatic()) {
            return fold(Value::integer(s.elementCount() *
                                       static_cast<std::int64_t>(ir::dtypeSize(x.abs->dtype))));
        }
        if (name == "T" && !s.dynamicRank) {
            std::vector<std::int64_t> perm;
            for (std::size_t i = s.rank(); i-- > 0;) {
                perm.push_back(static_cast<std::int64_t>(i));
            }
            return e.replace(c,
                             e.emitPrim(c, "Transpose", {x.node, e.emitConst(c, ints(perm)).node}));
        }
        const std::string spelling = "Tensor." + name;
        if (ops::OpRegistry::instance().findSpelling(spelling)) {
            auto f = std::make_shared<FuncVal>();
            f->kind = FuncVal::Kind::Method;
            f->spelling = spelling;
            f->bound = {x};
            return e.replace(c, Arg{c, Abstract::func(), f});
        }
        e.error(c, "AttributeError", "'Tensor' object has no attribute '" + name + "'");
    }
    e.error(c, "AttributeError", "'" + typeName(x) + "' object has no attribute '" + name + "'");
}

}  // namespace

Arg callMethod(Engine& e, CNode* at, const std::string& spelling, const std::vector<Arg>& args,
               const std::vector<std::string>& keywords) {
    const auto sp = ops::OpRegistry::instance().findSpelling(spelling);
    if (!sp) {
        e.error(at, "AttributeError", "irscope: no method " + spelling);
    }
    ops::CallBinding b;
    try {
        b = ops::bindCall(*sp->op, *sp->spelling, args.size() - keywords.size(), keywords,
                          [&args](std::size_t i) { return isSeq(args.at(i)); });
    } catch (const ops::OpError& err) {
        e.error(at, std::string(ops::errorKindName(err.kind())), err.what());
    }
    auto constOf = [&](const ops::ArgSource& src) -> ValuePtr {
        ValuePtr v;
        if (src.kind == ops::ArgSource::Kind::Default) {
            v = src.value;
        } else if (src.kind == ops::ArgSource::Kind::Arg) {
            v = valueOf(args.at(src.args.at(0)));
        } else if (src.kind == ops::ArgSource::Kind::Pack) {
            if (src.args.size() == 1 && isSeq(args.at(src.args[0]))) {
                v = valueOf(args.at(src.args[0]));
            } else {
                std::vector<ValuePtr> elems;
                for (auto i : src.args) {
                    elems.push_back(valueOf(args.at(i)));
                    if (!elems.back()) {
                        return nullptr;
                    }
                }
                v = Value::tuple(std::move(elems));
            }
        }
        return v && src.convert ? src.convert(v) : v;
    };
    std::vector<ir::Node*> inputs;
    for (const ops::ArgSource& src : b.inputs) {
        switch (src.kind) {
            case ops::ArgSource::Kind::Absent:
                break;
            case ops::ArgSource::Kind::Default:
                inputs.push_back(e.emitConst(at, constOf(src)).node);
                break;
            case ops::ArgSource::Kind::Arg:
                if (src.convert) {
                    const ValuePtr v = constOf(src);
                    if (!v) {
                        e.error(at, "TypeError",
                                "For '" + spelling + "', an argument must be a constant.");
                    }
                    inputs.push_back(e.emitConst(at, v).node);
                } else {
                    inputs.push_back(args.at(src.args.at(0)).node);
                }
                break;
            case ops::ArgSource::Kind::Pack: {
                if (src.args.size() == 1 && isSeq(args.at(src.args[0]))) {
                    inputs.push_back(args.at(src.args[0]).node);
                } else {
                    std::vector<Arg> elems;
                    for (auto i : src.args) {
                        elems.push_back(args.at(i));
                    }
                    inputs.push_back(e.makeTuple(at, elems).node);
                }
                break;
            }
        }
    }
    ir::AttrMap attrs;
    for (const auto& [name, src] : b.attrs) {
        if (src.kind == ops::ArgSource::Kind::Absent) {
            continue;
        }
        const ValuePtr v = constOf(src);
        if (!v) {
            e.error(at, "TypeError",
                    "For '" + spelling + "', the argument '" + name + "' must be a constant.");
        }
        attrs.set(name, v);
    }
    Arg r = e.emitPrim(at, sp->op->name, inputs, attrs);
    if (b.outputIndex >= 0) {
        r = e.emitPrim(at, "TupleGetItem",
                       {r.node, e.emitConst(at, Value::integer(b.outputIndex)).node});
    }
    return r;
}

bool expandTensorMeta(Engine& e, CNode* c, std::string_view name, const std::vector<Arg>& args,
                      Arg& out) {
    if (name == meta::kGetAttr && args.size() == 2) {
        out = getAttr(e, c, args[0], args[1]);
        return true;
    }
    if (name == meta::kGetItem && args.size() == 2 && isTensor(args[0])) {
        out = tensorGetItem(e, c, args[0], args[1]);
        return true;
    }
    if (name == meta::kSetItem && args.size() == 3 && isTensor(args[0])) {
        out = tensorSetItem(e, c, args[0], args[1], args[2]);
        return true;
    }
    return false;
}

}  // namespace irscope::passes::infer
