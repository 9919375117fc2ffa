// Memory and ordering primitives: Assign AssignAdd AssignSub (side_effect_mem, in place),
// Load (aliases the parameter), TensorMove (a real copy), UpdateState, Depend, Print.
#include "ops/elementwise.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

enum class AssignKind : std::uint8_t { Set, Add, Sub };

// Checks `value` against `variable`; conversion is allowed only toward the variable's dtype.
void checkAssign(std::string_view op, const AbstractPtr& var, const AbstractPtr& value) {
    if (!isTensorAbs(var)) {
        typeError(
            op, "the 'variable' must be a Parameter (Ref[Tensor]), but got " + typeStr(var) + ".");
    }
    const Operand v{true, var->dtype, var->shape};
    const Operand x = operandOf(op, "value", value);
    const Operand both[] = {v, x};
    if (x.dtype != var->dtype && promoteOperands(both) != var->dtype) {
        fail(ErrorKind::RuntimeError,
             "For '" + std::string(op) +
                 "', data type conversion of Parameter is not supported: 'variable' is " +
                 typeStr(var) + " and 'value' is " + typeStr(value) + ".");
    }
    if (!x.tensor || var->shape.dynamicRank || x.shape.dynamicRank) {
        return;
    }
    bool same = x.shape.rank() == var->shape.rank() || x.shape.elementCount() == 1;
    for (std::size_t i = 0; same && x.shape.rank() == var->shape.rank() && i < x.shape.rank();
         ++i) {
        const auto a = x.shape.dims[i];
        const auto b = var->shape.dims[i];
        same = a == b || a == -1 || b == -1;
    }
    if (!same) {
        valueError(op,
                   "the shape of 'value' must be the same as the shape of 'variable', but "
                   "got 'variable' shape: " +
                       shapeStr(var->shape) + ", 'value' shape: " + shapeStr(x.shape) + ".");
    }
}

InferResult inferAssign(const InferContext& ctx) {
    checkAssign(ctx.name(), ctx.abs(0), ctx.abs(1));
    return {ctx.abs(0), nullptr};
}

KernelArg runAssign(const KernelContext& ctx, AssignKind kind) {
    KernelArg varArg = ctx.input(0);
    if (!varArg.isTensor()) {
        typeError(ctx.name(), "the 'variable' must be a Parameter's tensor, not a constant.");
    }
    Tensor var = varArg.tensor();
    const Operand vo{true, var.dtype(), var.shape()};
    const Operand xo = operandOfArg(ctx.name(), "value", ctx.input(1));
    checkAssign(
        ctx.name(), ir::Abstract::tensor(vo.dtype, vo.shape),
        xo.tensor ? ir::Abstract::tensor(xo.dtype, xo.shape) : ir::Abstract::scalar(xo.dtype));
    Tensor value;
    if (kind == AssignKind::Set) {
        value = tensorAs(ctx.name(), ctx.input(1), var.dtype());
    } else {
        const DType compute = computeType(var.dtype());
        const BinaryOp op = kind == AssignKind::Add ? BinaryOp::Add : BinaryOp::Sub;
        const Tensor sum = arithKernel(ctx.name(), op, castTo(var, compute),
                                       tensorAs(ctx.name(), ctx.input(1), compute), compute);
        value = castTo(sum, var.dtype());
    }
    if (value.size() == var.size()) {
        value = value.reshaped(var.shape());
    } else if (value.size() == 1) {
        value = broadcastTo(ctx.name(), value.reshaped(Shape{}), var.shape());
    } else {
        valueError(ctx.name(), "the shape of 'value' " + shapeStr(value.shape()) +
                                   " does not match the shape of 'variable' " +
                                   shapeStr(var.shape()) + ".");
    }
    var.assignFrom(value);
    return KernelArg(var);  // the variable itself: every alias sees the write
}

OpDef assignDef(std::string name, std::string summary, AssignKind kind) {
    OpDef d{.name = std::move(name), .family = "state", .summary = std::move(summary)};
    d.sideEffectMem = true;
    d.writes = {0};
    d.foldable = false;
    d.inputs = {argIn("variable"), argIn("value", ArgKind::Number), argMonad("u")};
    d.infer = inferAssign;
    d.cpuKernel = [kind](const KernelContext& c) { return runAssign(c, kind); };
    addClassSpellings(d);
    return d;
}

// ---- Load / TensorMove
// ---------------------------------------------------------------------------

InferResult inferLoad(const InferContext& ctx) {
    const AbstractPtr p = ctx.abs(0);
    if (!isTensorAbs(p)) {
        typeError(ctx.name(), "the input 'param' must be a Parameter (Ref[Tensor]), but got " +
                                  typeStr(p) + ".");
    }
    return {ir::Abstract::tensor(p->dtype, p->shape), nullptr};
}

InferResult inferTensorMove(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x)) {
        typeError(ctx.name(), "the input 'x' must be a Tensor, but got " + typeStr(x) + ".");
    }
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

// ---- floating-point overflow status (NPU*FloatStatus) -----------------------------------------

// The 8-element Float32 status register. Their definitions are side-effect free (the seed's
// Depend example orders them explicitly); on the CPU nothing ever overflows into it, so the
// status reads back as zeros.
const Shape kStatusShape{8};

InferResult inferStatusInput(const InferContext& ctx) {
    const AbstractPtr x = ctx.abs(0);
    if (!isTensorAbs(x) || x->dtype != DType::Float32) {
        typeError(ctx.name(), "the input 'x' must be a Tensor[Float32] of shape [8], but got " +
                                  typeStr(x) + ".");
    }
    return {ir::Abstract::tensor(DType::Float32, kStatusShape), nullptr};
}

}  // namespace

void registerStateOps(OpRegistry& reg) {
    {
        OpDef d = assignDef("Assign", "writes value into the variable in place", AssignKind::Set);
        addFunction(d, {"ops", "F"}, "assign", {toInput("variable", 0), toInput("value", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d = assignDef("AssignAdd", "variable += value in place", AssignKind::Add);
        addFunction(d, {"ops", "F"}, "assign_add", {toInput("variable", 0), toInput("value", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d = assignDef("AssignSub", "variable -= value in place", AssignKind::Sub);
        addFunction(d, {"ops", "F"}, "assign_sub", {toInput("variable", 0), toInput("value", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Load",
                .family = "state",
                .summary = "reads a parameter's current value (aliases its storage)"};
        d.foldable = false;
        d.inputs = {argIn("param"), argMonad("u")};
        d.infer = inferLoad;
        d.cpuKernel = [](const KernelContext& c) { return KernelArg(c.tensor(0)); };
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "TensorMove",
                .family = "state",
                .summary = "copies a tensor into a new buffer"};
        d.foldable = false;
        d.inputs = {argIn("x")};
        d.infer = inferTensorMove;
        d.cpuKernel = [](const KernelContext& c) { return KernelArg(c.tensor(0).clone()); };
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "UpdateState",
                .family = "state",
                .summary = "threads the memory state (U monad) through side effects"};
        d.foldable = false;
        d.structural = true;
        d.inputs = {argIn("u", ArgKind::Monad), argVariadic("attach")};
        d.infer = [](const InferContext&) {
            return InferResult{ir::Abstract::monadAbs(ir::MonadKind::U), nullptr};
        };
        reg.add(std::move(d));
    }
    {
        OpDef d{
            .name = "Depend", .family = "state", .summary = "returns value, ordered after expr"};
        d.foldable = false;
        d.structural = true;
        d.inputs = {argIn("value", ArgKind::Any), argIn("expr", ArgKind::Any)};
        d.infer = [](const InferContext& c) { return InferResult{c.abs(0), nullptr}; };
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "depend", {toInput("value", 0), toInput("expr", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "NPUAllocFloatStatus",
                .family = "state",
                .summary = "allocates the float overflow status (8 zeros)"};
        d.foldable = false;
        d.infer = [](const InferContext&) {
            return InferResult{ir::Abstract::tensor(DType::Float32, kStatusShape), nullptr};
        };
        d.cpuKernel = [](const KernelContext&) {
            return KernelArg(Tensor(DType::Float32, kStatusShape));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    for (const char* name : {"NPUGetFloatStatus", "NPUClearFloatStatus"}) {
        const bool clear = std::string_view(name) == "NPUClearFloatStatus";
        OpDef d{.name = name,
                .family = "state",
                .summary = clear ? "clears the float overflow status"
                                 : "reads the float overflow status (zeros: no overflow)"};
        d.foldable = false;
        d.inputs = {argIn("x")};
        d.infer = inferStatusInput;
        d.cpuKernel = [](const KernelContext& c) {
            c.tensor(0);  // validates the input
            return KernelArg(Tensor(DType::Float32, kStatusShape));
        };
        addClassSpellings(d);
        reg.add(std::move(d));
    }
    {
        OpDef d{.name = "Print",
                .family = "state",
                .summary = "prints its inputs (the executor prints; ordered by the IO monad)"};
        d.sideEffectIo = true;
        d.foldable = false;
        d.structural = true;
        d.inputs = {argVariadic("input_x")};
        d.infer = [](const InferContext&) {
            return InferResult{ir::Abstract::tensor(DType::Int32, Shape{1}), nullptr};
        };
        addClassSpellings(d);
        ParamMap all = toInput("input_x", 0);
        all.variadic = true;
        addFunction(d, {"ops", "F"}, "print_", {all});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
