// Shape and layout primitives: Reshape Transpose Cast Concat Stack Squeeze ExpandDims Tile
// BroadcastTo.
#include <algorithm>

#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

AbstractPtr tensorArg(const InferContext& ctx, std::size_t i, const char* argName) {
    AbstractPtr a = ctx.abs(i);
    if (!isTensorAbs(a)) {
        typeError(ctx.name(), std::string("the input '") + argName +
                                  "' must be a Tensor, but got " + typeStr(a) + ".");
    }
    return a;
}

// ints of a constant input or attribute; TypeError when it is known but not ints.
std::optional<std::vector<std::int64_t>> intsArg(std::string_view op, const char* argName,
                                                 const ValuePtr& v) {
    if (!v) {
        return std::nullopt;
    }
    auto r = intsOf(v);
    if (!r) {
        typeError(op, std::string("the '") + argName +
                          "' must be an int or a tuple/list of ints, but got " +
                          typeStr(abstractOfValue(v)) + ".");
    }
    return r;
}

std::vector<std::int64_t> kernelInts(const KernelContext& ctx, std::size_t i, const char* argName) {
    auto v = intsArg(ctx.name(), argName, valueFromKernelArg(ctx.input(i)));
    if (!v) {
        typeError(ctx.name(), std::string("the '") + argName + "' must be given.");
    }
    return *v;
}

// A copy with another shape (never an alias of the input).
Tensor copyAs(const Tensor& t, std::vector<std::int64_t> dims) {
    return t.clone().reshaped(Shape(std::move(dims)));
}

// ---- Reshape ----------------------------------------------------------------------------------

Shape reshapeTarget(std::string_view op, const Shape& in, std::vector<std::int64_t> dims) {
    std::int64_t unknownAt = -1;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1) {
            if (unknownAt >= 0) {
                valueError(op, "there can be at most one '-1' in 'input_shape', but got " +
                                   listStr(dims) + ".");
            }
            unknownAt = static_cast<std::int64_t>(i);
        } else if (dims[i] < 0) {
            valueError(op, "each dimension of 'input_shape' must be -1 or non-negative, but got " +
                               listStr(dims) + ".");
        } else {
            known *= dims[i];
        }
    }
    if (!in.isStatic()) {
        return Shape(std::move(dims));
    }
    const std::int64_t count = in.elementCount();
    if (unknownAt >= 0) {
        if (known == 0 || count % known != 0) {
            valueError(op, "the product of the 'input_x' shape " + shapeStr(in) +
                               " is not divisible by the product of the known dimensions of "
                               "'input_shape' " +
                               listStr(dims) + ".");
        }
        dims[static_cast<std::size_t>(unknownAt)] = count / known;
    } else if (known != count) {
        valueError(op,
                   "the product of the 'input_x' shape should be equal to product of "
                   "'input_shape', but got product of the shape of 'input_x': " +
                       std::to_string(count) +
                       ", product of 'input_shape': " + std::to_string(known) + ".");
    }
    return Shape(std::move(dims));
}

InferResult inferReshape(const InferContext& ctx) {
    const AbstractPtr x = tensorArg(ctx, 0, "input_x");
    const auto dims = intsArg(ctx.name(), "input_shape", ctx.arg(1).value);
    if (!dims) {
        const AbstractPtr s = ctx.abs(1);
        const bool tuple = s && s->kind == ir::Abstract::Kind::Tuple;
        return {ir::Abstract::tensor(x->dtype,
                                     tuple ? unknownShape(s->elements.size()) : dynamicRankShape()),
                nullptr};
    }
    return {ir::Abstract::tensor(x->dtype, reshapeTarget(ctx.name(), x->shape, *dims)), nullptr};
}

KernelArg runReshape(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    const Shape s = reshapeTarget(ctx.name(), x.shape(), kernelInts(ctx, 1, "input_shape"));
    return KernelArg(copyAs(x, s.dims));
}

// ---- Transpose --------------------------------------------------------------------------------

std::vector<std::int64_t> checkPerm(std::string_view op, std::vector<std::int64_t> perm,
                                    std::size_t rank) {
    if (perm.size() != rank) {
        valueError(op, "the size of 'input_perm' must be equal to the rank of 'input_x', but got " +
                           std::to_string(perm.size()) + " and " + std::to_string(rank) + ".");
    }
    std::vector<bool> seen(rank, false);
    for (auto& p : perm) {
        p = normalizeAxis(op, "input_perm", p, static_cast<std::int64_t>(rank));
        if (seen[static_cast<std::size_t>(p)]) {
            valueError(op, "the 'input_perm' must be a permutation of the axes, but got " +
                               listStr(perm) + ".");
        }
        seen[static_cast<std::size_t>(p)] = true;
    }
    return perm;
}

InferResult inferTranspose(const InferContext& ctx) {
    const AbstractPtr x = tensorArg(ctx, 0, "input_x");
    const auto perm = intsArg(ctx.name(), "input_perm", ctx.arg(1).value);
    if (x->shape.dynamicRank || !perm) {
        return {
            ir::Abstract::tensor(x->dtype, perm ? unknownShape(perm->size()) : dynamicRankShape()),
            nullptr};
    }
    const auto p = checkPerm(ctx.name(), *perm, x->shape.rank());
    Shape out;
    for (auto a : p) {
        out.dims.push_back(x->shape.dims[static_cast<std::size_t>(a)]);
    }
    return {ir::Abstract::tensor(x->dtype, out), nullptr};
}

KernelArg runTranspose(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    const auto p = checkPerm(ctx.name(), kernelInts(ctx, 1, "input_perm"), x.rank());
    return KernelArg(transposeTensor(x, p));
}

// ---- Cast ---------------------------------------------------------------------------------------

DType castTarget(std::string_view op, const ValuePtr& v) {
    auto t = dtypeOf(v);
    if (!t) {
        typeError(op, "the 'dtype' must be a mindspore dtype constant such as mindspore.float32.");
    }
    return *t;
}

InferResult inferCast(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    const DType to = castTarget(ctx.name(), ctx.arg(1).value);
    if (isScalarAbs(x)) {
        return {ir::Abstract::scalar(to), nullptr};
    }
    if (!isTensorAbs(x)) {
        typeError(ctx.name(),
                  "the input 'input_x' must be a Tensor or a number, but got " + typeStr(x) + ".");
    }
    return {ir::Abstract::tensor(to, x->shape), nullptr};
}

KernelArg runCast(const KernelContext& ctx) {
    const DType to = castTarget(ctx.name(), valueFromKernelArg(ctx.input(1)));
    const KernelArg x = ctx.input(0);
    if (!x.isTensor() && x.isValue() && x.value() && x.value()->kind != ir::Value::Kind::Tensor) {
        const Tensor t = tensorAs(ctx.name(), x, to);
        if (to == DType::Bool) {
            return KernelArg(ir::Value::boolean(t.getInt(0) != 0));
        }
        return ir::isFloat(to) ? KernelArg(ir::Value::floating(t.getDouble(0), to))
                               : KernelArg(ir::Value::integer(t.getInt(0), to));
    }
    const Tensor t = ctx.tensor(0);
    return KernelArg(t.cast(to));  // always a new buffer, even for the same dtype
}

// ---- Concat / Stack ---------------------------------------------------------------------------

std::vector<AbstractPtr> tensorTuple(const InferContext& ctx) {
    const std::vector<AbstractPtr>& elems = sequenceInput(ctx);
    for (std::size_t i = 0; i < elems.size(); ++i) {
        const auto& e = elems[i];
        if (!isTensorAbs(e)) {
            typeError(ctx.name(), "the element 'x[" + std::to_string(i) +
                                      "]' must be a Tensor, but got " + typeStr(e) + ".");
        }
        if (e->dtype != elems[0]->dtype) {
            typeError(ctx.name(), "all elements of 'x' must have the same dtype, but got " +
                                      typeStr(elems[0]) + " and " + typeStr(e) + ".");
        }
    }
    return elems;
}

std::int64_t intAttr(std::string_view op, const char* name, const ValuePtr& v) {
    auto i = intOf(v);
    if (!i) {
        typeError(op, std::string("the '") + name + "' must be an int.");
    }
    return *i;
}

// The concatenated shape; `stack` checks equal shapes and inserts the new axis.
Shape joinShapes(std::string_view op, std::span<const Shape> shapes, std::int64_t axis,
                 bool stack) {
    for (const auto& s : shapes) {
        if (s.dynamicRank) {
            return dynamicRankShape();
        }
    }
    const Shape& first = shapes.front();
    const auto rank = static_cast<std::int64_t>(first.rank());
    const std::int64_t ax = normalizeAxis(op, "axis", axis, rank, stack ? 1 : 0);
    Shape out = first;
    if (stack) {
        out.dims.insert(out.dims.begin() + ax, static_cast<std::int64_t>(shapes.size()));
    } else if (rank == 0) {
        valueError(op, "the input tensors must have at least one dimension.");
    }
    for (std::size_t i = 1; i < shapes.size(); ++i) {
        const Shape& s = shapes[i];
        if (s.rank() != first.rank()) {
            valueError(op, "all tensors must have the same rank, but got 'x[0]' with shape " +
                               shapeStr(first) + " and 'x[" + std::to_string(i) + "]' with shape " +
                               shapeStr(s) + ".");
        }
        for (std::int64_t k = 0; k < rank; ++k) {
            const auto a = first.dims[static_cast<std::size_t>(k)];
            const auto b = s.dims[static_cast<std::size_t>(k)];
            if ((stack || k != ax) && a >= 0 && b >= 0 && a != b) {
                valueError(op, "the shape of 'x[" + std::to_string(i) +
                                   "]' must be the same as 'x[0]'" +
                                   (stack ? "" : " except on 'axis'") + ", but got " + shapeStr(s) +
                                   " and " + shapeStr(first) + ".");
            }
        }
        if (!stack) {
            auto& d = out.dims[static_cast<std::size_t>(ax)];
            const auto b = s.dims[static_cast<std::size_t>(ax)];
            d = (d < 0 || b < 0) ? -1 : d + b;
        }
    }
    return out;
}

InferResult inferJoin(const InferContext& ctx, bool stack) {
    const auto elems = tensorTuple(ctx);
    std::vector<Shape> shapes;
    for (const auto& e : elems) {
        shapes.push_back(e->shape);
    }
    const auto axis = intAttr(ctx.name(), "axis", ctx.attr("axis"));
    return {ir::Abstract::tensor(elems[0]->dtype, joinShapes(ctx.name(), shapes, axis, stack)),
            nullptr};
}

KernelArg runJoin(const KernelContext& ctx, bool stack) {
    std::vector<Tensor> ts = tensorList(ctx.name(), ctx.input(0));
    if (ts.empty()) {
        valueError(ctx.name(), "the input 'x' must not be empty.");
    }
    std::vector<Shape> shapes;
    for (const auto& t : ts) {
        if (t.dtype() != ts[0].dtype()) {
            typeError(ctx.name(), "all elements of 'x' must have the same dtype.");
        }
        shapes.push_back(t.shape());
    }
    const auto axis = intAttr(ctx.name(), "axis", ctx.attr("axis"));
    const Shape out = joinShapes(ctx.name(), shapes, axis, stack);
    auto ax = normalizeAxis(ctx.name(), "axis", axis, static_cast<std::int64_t>(ts[0].rank()),
                            stack ? 1 : 0);
    if (stack) {
        for (auto& t : ts) {
            auto dims = t.shape().dims;
            dims.insert(dims.begin() + ax, 1);
            t = t.reshaped(Shape(dims));
        }
    }
    return KernelArg(concatTensors(ts, ax, out));
}

// ---- Squeeze / ExpandDims ----------------------------------------------------------------------

Shape squeezeShape(std::string_view op, const Shape& in, const std::vector<std::int64_t>& axes) {
    if (in.dynamicRank) {
        return in;
    }
    const auto rank = static_cast<std::int64_t>(in.rank());
    Shape out;
    if (axes.empty()) {
        for (auto d : in.dims) {
            if (d == -1) {
                return dynamicRankShape();  // unknown whether it is 1
            }
            if (d != 1) {
                out.dims.push_back(d);
            }
        }
        return out;
    }
    const auto norm = normalizeAxes(op, "axis", axes, std::max<std::int64_t>(rank, 1));
    for (std::int64_t i = 0; i < rank; ++i) {
        const auto d = in.dims[static_cast<std::size_t>(i)];
        if (std::find(norm.begin(), norm.end(), i) == norm.end()) {
            out.dims.push_back(d);
        } else if (d != 1 && d != -1) {
            valueError(op, "the shape of 'input_x' at 'axis' " + std::to_string(i) +
                               " must be 1, but got " + std::to_string(d) + ".");
        }
    }
    return out;
}

std::vector<std::int64_t> squeezeAxes(std::string_view op, const ValuePtr& v) {
    if (!v || isNoneValue(v)) {
        return {};
    }
    return intsArg(op, "axis", v).value_or(std::vector<std::int64_t>{});
}

Shape expandShape(std::string_view op, const Shape& in, std::int64_t axis) {
    if (in.dynamicRank) {
        return in;
    }
    const auto ax = normalizeAxis(op, "axis", axis, static_cast<std::int64_t>(in.rank()), 1);
    Shape out = in;
    out.dims.insert(out.dims.begin() + ax, 1);
    return out;
}

// ---- Tile / BroadcastTo -------------------------------------------------------------------------

// Aligns the ranks of the input shape and the multiples by prepending 1s.
void alignTile(std::vector<std::int64_t>& dims, std::vector<std::int64_t>& mult) {
    while (dims.size() < mult.size()) {
        dims.insert(dims.begin(), 1);
    }
    while (mult.size() < dims.size()) {
        mult.insert(mult.begin(), 1);
    }
}

Shape tileShape(std::string_view op, const Shape& in, std::vector<std::int64_t> mult) {
    for (auto m : mult) {
        if (m < 0) {
            valueError(op, "the elements of 'multiples' must be non-negative, but got " +
                               listStr(mult) + ".");
        }
    }
    if (in.dynamicRank) {
        return in;
    }
    auto dims = in.dims;
    alignTile(dims, mult);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        dims[i] = dims[i] < 0 ? -1 : dims[i] * mult[i];
    }
    return Shape(dims);
}

KernelArg runTile(const KernelContext& ctx) {
    const Tensor x = ctx.tensor(0);
    auto mult = kernelInts(ctx, 1, "multiples");
    const Shape out = tileShape(ctx.name(), x.shape(), mult);
    auto dims = x.shape().dims;
    alignTile(dims, mult);
    // [1, d0, 1, d1, ...] broadcast to [m0, d0, m1, d1, ...] is the tiling.
    std::vector<std::int64_t> from;
    std::vector<std::int64_t> to;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        from.insert(from.end(), {1, dims[i]});
        to.insert(to.end(), {mult[i], dims[i]});
    }
    const Tensor b = broadcastTo(ctx.name(), x.reshaped(Shape(from)), Shape(to));
    return KernelArg(b.sharesStorageWith(x) ? copyAs(b, out.dims) : b.reshaped(out));
}

Shape broadcastTarget(std::string_view op, const Shape& in, std::vector<std::int64_t> target) {
    if (in.dynamicRank) {
        return Shape(target);
    }
    const bool fits = target.size() >= in.rank();
    const std::size_t off = fits ? target.size() - in.rank() : 0;
    for (std::size_t i = 0; fits && i < target.size(); ++i) {
        if (target[i] == -1) {
            if (i < off) {
                valueError(op, "the -1 in 'shape' " + listStr(target) +
                                   " must line up with a dimension of the input.");
            }
            target[i] = in.dims[i - off];
        }
    }
    if (!fits || !broadcastsTo(in, Shape(target))) {
        valueError(op,
                   "in order to broadcast, each dimension pair must be equal, or the input "
                   "dimension must be 1, or the target dimension must be -1, but got x.shape: " +
                       shapeStr(in) + ", target shape: " + listStr(target) + ".");
    }
    return Shape(target);
}

}  // namespace

void registerArrayOps(OpRegistry& reg) {

    {
        // F.dtype(x): x's dtype, known at compile time (the result folds to a constant).
        OpDef d{.name = "DType", .family = "array", .summary = "the dtype of a tensor"};
        d.inputs = {argIn("x", ArgKind::Tensor)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "x");
            const ValuePtr v = ir::Value::type(x->dtype);
            return InferResult{abstractOfValue(v), v};
        };
        d.cpuKernel = [](const KernelContext& c) {
            return KernelArg(ir::Value::type(c.tensor(0).dtype()));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "dtype", {toInput("x", 0)});
        reg.add(std::move(d));
    }
    {
        // P.Shape()(x) / F.shape(x): x's shape as a tuple of ints, known at compile time.
        OpDef d{.name = "Shape", .family = "array", .summary = "the shape of a tensor"};
        d.inputs = {argIn("input_x", ArgKind::Tensor)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorInput(c, 0, "input_x");
            if (!x->shape.isStatic()) {
                fail(ErrorKind::RuntimeError, "irscope: 'Shape' of a dynamic shape " + shapeStr(x->shape) +
                                                  " is not supported yet.");
            }
            const ValuePtr v = vInts(x->shape.dims);
            return InferResult{abstractOfValue(v), v};
        };
        d.cpuKernel = [](const KernelContext& c) { return KernelArg(vInts(c.tensor(0).shape().dims)); };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "shape", {toInput("input_x", 0)});
        reg.add(std::move(d));
    }    const ParamMap self = toInput("input", 0);
    {
        OpDef d{.name = "Reshape", .family = "array", .summary = "same data, another shape"};
        d.inputs = {argIn("input_x"), argIn("input_shape", ArgKind::IntTuple)};
        d.infer = inferReshape;
        d.cpuKernel = runReshape;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "reshape", {self, toInput("shape", 1)});
        ParamMap shape = toInput("shape", 1);
        shape.variadic = true;
        addMethod(d, "reshape", {shape});
        addMethod(d, "view", {shape});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Transpose", .family = "array", .summary = "permutes the axes"};
        d.inputs = {argIn("input_x"), argIn("input_perm", ArgKind::IntTuple)};
        d.infer = inferTranspose;
        d.cpuKernel = runTranspose;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "transpose", {self, toInput("input_perm", 1)});
        addFunction(d, {"ops", "F"}, "permute", {self, toInput("dims", 1)});
        ParamMap axes = toInput("axes", 1);
        axes.variadic = true;
        addMethod(d, "transpose", {axes});
        addMethod(d, "permute", {axes});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Cast", .family = "array", .summary = "converts to another dtype"};
        d.inputs = {argIn("input_x", ArgKind::Number), argIn("dtype", ArgKind::Type)};
        d.infer = inferCast;
        d.cpuKernel = runCast;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "cast", {self, toInput("dtype", 1)});
        addMethod(d, "astype", {toInput("dtype", 1), ignored("copy", vBool(true))});
        addMethod(d, "to", {toInput("dtype", 1)});
        reg.add(std::move(d));
    }
    for (const bool stack : {false, true}) {
        OpDef d{.name = stack ? "Stack" : "Concat",
                .family = "array",
                .summary = stack ? "stacks equal-shaped tensors along a new axis"
                                 : "joins tensors along an existing axis"};
        d.attrs = {argDefault("axis", ArgKind::Int, vInt(0))};
        d.inputs = {argIn("x", ArgKind::TensorTuple)};
        d.infer = [stack](const InferContext& c) { return inferJoin(c, stack); };
        d.cpuKernel = [stack](const KernelContext& c) { return runJoin(c, stack); };
        addClassSpellings(d);
        if (stack) {
            addClassAlias(d, "Pack");  // MindSpore's older name, still in array_ops
        }
        const std::vector<ParamMap> params{toInput("tensors", 0), toAttr("axis", "axis", vInt(0))};
        addFunction(d, {"ops", "F"}, stack ? "stack" : "concat", params);
        if (!stack) {
            addFunction(d, {"ops", "F"}, "cat", params);
        }
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Squeeze", .family = "array", .summary = "removes axes of size 1"};
        d.attrs = {argDefault("axis", ArgKind::IntOrTuple, vInts({}))};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorArg(c, 0, "input_x");
            return InferResult{
                ir::Abstract::tensor(x->dtype, squeezeShape(c.name(), x->shape,
                                                            squeezeAxes(c.name(), c.attr("axis")))),
                nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            return KernelArg(copyAs(
                x, squeezeShape(c.name(), x.shape(), squeezeAxes(c.name(), c.attr("axis"))).dims));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "squeeze", {self, toAttr("axis", "axis", vNone())});
        addMethod(d, "squeeze", {toAttr("axis", "axis", vNone())});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "ExpandDims", .family = "array", .summary = "inserts an axis of size 1"};
        d.inputs = {argIn("input_x"), argIn("axis", ArgKind::Int)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorArg(c, 0, "input_x");
            const auto axis = intOf(c.arg(1).value);
            if (!axis) {
                return InferResult{
                    ir::Abstract::tensor(x->dtype, x->shape.dynamicRank
                                                       ? x->shape
                                                       : unknownShape(x->shape.rank() + 1)),
                    nullptr};
            }
            return InferResult{
                ir::Abstract::tensor(x->dtype, expandShape(c.name(), x->shape, *axis)), nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            const auto axis = intAttr(c.name(), "axis", valueFromKernelArg(c.input(1)));
            return KernelArg(copyAs(x, expandShape(c.name(), x.shape(), axis).dims));
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "expand_dims", {toInput("input_x", 0), toInput("axis", 1)});
        addFunction(d, {"ops", "F"}, "unsqueeze", {self, toInput("dim", 1)});
        addMethod(d, "expand_dims", {toInput("axis", 1)});
        addMethod(d, "unsqueeze", {toInput("dim", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Tile", .family = "array", .summary = "repeats the tensor along each axis"};
        d.inputs = {argIn("input"), argIn("multiples", ArgKind::IntTuple)};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorArg(c, 0, "input");
            const auto mult = intsArg(c.name(), "multiples", c.arg(1).value);
            if (!mult) {
                return InferResult{ir::Abstract::tensor(x->dtype, dynamicRankShape()), nullptr};
            }
            return InferResult{ir::Abstract::tensor(x->dtype, tileShape(c.name(), x->shape, *mult)),
                               nullptr};
        };
        d.cpuKernel = runTile;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "tile", {self, toInput("multiples", 1)});
        ParamMap reps = toInput("reps", 1);
        reps.variadic = true;
        addMethod(d, "tile", {reps});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "BroadcastTo", .family = "array", .summary = "broadcasts to a shape"};
        d.attrs = {argIn("shape", ArgKind::IntTuple)};
        d.inputs = {argIn("input_x")};
        d.infer = [](const InferContext& c) {
            const AbstractPtr x = tensorArg(c, 0, "input_x");
            const auto target = intsArg(c.name(), "shape", c.attr("shape"));
            if (!target) {
                typeError(c.name(), "the attribute 'shape' must be given.");
            }
            return InferResult{
                ir::Abstract::tensor(x->dtype, broadcastTarget(c.name(), x->shape, *target)),
                nullptr};
        };
        d.cpuKernel = [](const KernelContext& c) {
            const Tensor x = c.tensor(0);
            const auto target = intsArg(c.name(), "shape", c.attr("shape"));
            if (!target) {
                typeError(c.name(), "the attribute 'shape' must be given.");
            }
            const Shape to = broadcastTarget(c.name(), x.shape(), *target);
            const Tensor b = broadcastTo(c.name(), x, to);
            return KernelArg(b.sharesStorageWith(x) ? x.clone().reshaped(to) : b);
        };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "broadcast_to", {self, toAttr("shape", "shape")});
        addMethod(d, "broadcast_to", {toAttr("shape", "shape")});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
