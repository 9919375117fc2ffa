// Structural primitives the executor interprets itself (infer only, no kernel): MakeTuple
// TupleGetItem Switch Partial Return. Their infer functions fold constants directly.
#include "ops/infer_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

OpDef structural(std::string name, std::string summary) {
    OpDef d{.name = std::move(name), .family = "structural", .summary = std::move(summary)};
    d.structural = true;
    d.foldable = false;  // no kernel: the infer functions fold what they can themselves
    return d;
}

InferResult inferMakeTuple(const InferContext& ctx) {
    std::vector<AbstractPtr> elems;
    std::vector<ValuePtr> values;
    bool known = true;
    for (const auto& a : ctx.args()) {
        elems.push_back(a.abs);
        known = known && a.value && a.value->kind != ir::Value::Kind::Monad;
        values.push_back(a.value);
    }
    return {ir::Abstract::tuple(std::move(elems)), known ? ir::Value::tuple(values) : nullptr};
}

InferResult inferTupleGetItem(const InferContext& ctx) {
    const InferArg t = ctx.arg(0);
    if (!t.abs ||
        (t.abs->kind != ir::Abstract::Kind::Tuple && t.abs->kind != ir::Abstract::Kind::List)) {
        typeError(ctx.name(),
                  "the input 'input_tuple' must be a tuple, but got " + typeStr(t.abs) + ".");
    }
    const auto index = intOf(ctx.arg(1).value);
    if (!index) {
        typeError(ctx.name(),
                  "the 'index' must be a constant int, but got " + typeStr(ctx.abs(1)) + ".");
    }
    const auto size = static_cast<std::int64_t>(t.abs->elements.size());
    if (*index < -size || *index >= size) {
        fail(ErrorKind::IndexError,
             "For '" + ctx.name() + "', the index " + std::to_string(*index) +
                 " is out of range for a tuple of size " + std::to_string(size) + ".");
    }
    const auto i = static_cast<std::size_t>(*index < 0 ? *index + size : *index);
    ValuePtr constant;
    if (t.value &&
        (t.value->kind == ir::Value::Kind::Tuple || t.value->kind == ir::Value::Kind::List) &&
        i < t.value->elements.size()) {
        constant = t.value->elements[i];
    }
    return {t.abs->elements[i], constant};
}

// The abstract covering both branches of a Switch whose condition is unknown.
AbstractPtr joinAbstracts(std::string_view op, const AbstractPtr& a, const AbstractPtr& b) {
    if (!a || !b) {
        return a ? a : b;
    }
    if (a->equals(*b)) {
        return a;
    }
    if (isTensorAbs(a) && isTensorAbs(b) && a->dtype == b->dtype) {
        if (a->shape.dynamicRank || b->shape.dynamicRank || a->shape.rank() != b->shape.rank()) {
            return ir::Abstract::tensor(a->dtype, dynamicRankShape());
        }
        Shape s = a->shape;
        for (std::size_t i = 0; i < s.rank(); ++i) {
            if (s.dims[i] != b->shape.dims[i]) {
                s.dims[i] = -1;
            }
        }
        return ir::Abstract::tensor(a->dtype, s);
    }
    if (a->kind == b->kind && a->kind == ir::Abstract::Kind::Scalar && a->dtype == b->dtype) {
        return ir::Abstract::scalar(a->dtype);
    }
    if (a->kind == b->kind &&
        (a->kind == ir::Abstract::Kind::Tuple || a->kind == ir::Abstract::Kind::List) &&
        a->elements.size() == b->elements.size()) {
        std::vector<AbstractPtr> elems;
        for (std::size_t i = 0; i < a->elements.size(); ++i) {
            elems.push_back(joinAbstracts(op, a->elements[i], b->elements[i]));
        }
        return a->kind == ir::Abstract::Kind::Tuple ? ir::Abstract::tuple(std::move(elems))
                                                    : ir::Abstract::list(std::move(elems));
    }
    if (a->kind == b->kind && a->kind != ir::Abstract::Kind::Tensor) {
        return a;  // Func with Func, None with None, ...
    }
    typeError(op, "the two branches must have the same type, but got " + typeStr(a) + " and " +
                      typeStr(b) + ".");
}

InferResult inferSwitch(const InferContext& ctx) {
    const InferArg cond = ctx.arg(0);
    const bool boolScalar = cond.abs && cond.abs->kind == ir::Abstract::Kind::Scalar;
    if (!(boolScalar || isTensorAbs(cond.abs))) {
        typeError(ctx.name(),
                  "the 'cond' must be a bool or a Tensor, but got " + typeStr(cond.abs) + ".");
    }
    if (auto known = boolOf(cond.value)) {
        const InferArg picked = ctx.arg(*known ? 1 : 2);
        return {picked.abs, picked.value};
    }
    return {joinAbstracts(ctx.name(), ctx.abs(1), ctx.abs(2)), nullptr};
}

}  // namespace

void registerStructuralOps(OpRegistry& reg) {
    {
        OpDef d = structural("MakeTuple", "builds a tuple from its inputs");
        d.inputs = {argVariadic("elements")};
        d.infer = inferMakeTuple;
        reg.add(std::move(d));
    }
    {
        OpDef d = structural("TupleGetItem", "element `index` of a tuple");
        d.inputs = {argIn("input_tuple", ArgKind::Any), argIn("index", ArgKind::Int)};
        d.infer = inferTupleGetItem;
        reg.add(std::move(d));
    }
    {
        OpDef d = structural("Switch", "selects a branch (usually a graph) by a condition");
        d.inputs = {argIn("cond", ArgKind::Any), argIn("true_branch", ArgKind::Any),
                    argIn("false_branch", ArgKind::Any)};
        d.infer = inferSwitch;
        reg.add(std::move(d));
    }
    {
        OpDef d = structural("Partial", "binds leading arguments of a function");
        d.inputs = {argIn("fn", ArgKind::Any), argVariadic("args")};
        d.infer = [](const InferContext&) { return InferResult{ir::Abstract::func(), nullptr}; };
        // F.partial(fn, *args) and P.Partial()(fn, *args): the function with its leading
        // arguments bound.
        addClassSpellings(d);
        ParamMap args = toInput("args", 1);
        args.variadic = true;
        addFunction(d, {"ops", "F"}, "partial", {toInput("func", 0), args});
        reg.add(std::move(d));
    }
    {
        // A call of a Cell with its own bprop: CustomBprop(out, Partial(@bprop, args..., out)).
        // Its value is out; meta_fg_expand differentiates the call with the bprop and then
        // leaves only out.
        OpDef d = structural("CustomBprop", "a Cell call whose gradient its bprop method gives");
        d.inputs = {argIn("out", ArgKind::Any), argIn("bprop", ArgKind::Any)};
        d.infer = [](const InferContext& c) {
            const InferArg a = c.arg(0);
            return InferResult{a.abs, a.value};
        };
        reg.add(std::move(d));
    }
    {
        OpDef d = structural("Return", "the graph's output");
        d.inputs = {argIn("value", ArgKind::Any)};
        d.infer = [](const InferContext& c) {
            const InferArg a = c.arg(0);
            return InferResult{a.abs, a.value};
        };
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
