// Comparisons (Less ... NotEqual), logical ops and Select.
#include <Eigen/Core>

#include "ops/elementwise.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

OpDef binaryDef(std::string name, std::string summary, BinaryOp op) {
    return makeBinaryDef(std::move(name), "compare", std::move(summary), op);
}

// ---- Select ----------------------------------------------------------------------------------

InferResult inferSelect(const InferContext& ctx) {
    const AbstractPtr cond = ctx.abs(0);
    if (!isTensorAbs(cond) || cond->dtype != DType::Bool) {
        typeError(ctx.name(),
                  "the type of 'cond' must be Tensor[Bool], but got " + typeStr(cond) + ".");
    }
    const Operand x = operandOf(ctx.name(), "x", ctx.abs(1));
    const Operand y = operandOf(ctx.name(), "y", ctx.abs(2));
    const Operand both[] = {x, y};
    const DType dtype = promoteOperands(both);
    const Shape xy = broadcastShapes(ctx.name(), x.shape, y.shape);
    const Shape out = broadcastShapes(ctx.name(), cond->shape, xy, "cond", "x");
    return {ir::Abstract::tensor(dtype, out), nullptr};
}

KernelArg runSelect(const KernelContext& ctx) {
    const Tensor cond = ctx.tensor(0);
    if (cond.dtype() != DType::Bool) {
        typeError(ctx.name(), "the type of 'cond' must be Tensor[Bool], but got Tensor[" +
                                  typeStr(cond.dtype()) + "].");
    }
    const Operand both[] = {operandOfArg(ctx.name(), "x", ctx.input(1)),
                            operandOfArg(ctx.name(), "y", ctx.input(2))};
    const DType dtype = promoteOperands(both);
    const Tensor x = tensorAs(ctx.name(), ctx.input(1), dtype);
    const Tensor y = tensorAs(ctx.name(), ctx.input(2), dtype);
    const Shape out = broadcastShapes(
        ctx.name(), cond.shape(), broadcastShapes(ctx.name(), x.shape(), y.shape()), "cond", "x");
    const Tensor c = broadcastTo(ctx.name(), cond, out);
    const Tensor xb = broadcastTo(ctx.name(), x, out);
    const Tensor yb = broadcastTo(ctx.name(), y, out);
    Tensor res(dtype, out);
    const auto n = static_cast<Eigen::Index>(res.size());
    dispatchBySize(ir::dtypeSize(dtype), [&](auto tag) {
        using E = decltype(tag);
        using Arr = Eigen::Array<E, Eigen::Dynamic, 1>;
        using Mask = Eigen::Array<std::uint8_t, Eigen::Dynamic, 1>;
        Eigen::Map<const Mask> m(c.data<std::uint8_t>(), n);
        Eigen::Map<Arr>(res.data<E>(), n) = (m != std::uint8_t{0})
                                                .select(Eigen::Map<const Arr>(xb.data<E>(), n),
                                                        Eigen::Map<const Arr>(yb.data<E>(), n));
    });
    return KernelArg(res);
}

}  // namespace

void registerCompareOps(OpRegistry& reg) {
    struct Cmp {
        const char* name;
        const char* fn;
        const char* shortFn;
        const char* op;
        const char* summary;
        BinaryOp bop;
    };
    for (const Cmp& c :
         {Cmp{"Less", "less", "lt", "<", "x < y", BinaryOp::Less},
          Cmp{"LessEqual", "less_equal", "le", "<=", "x <= y", BinaryOp::LessEqual},
          Cmp{"Greater", "greater", "gt", ">", "x > y", BinaryOp::Greater},
          Cmp{"GreaterEqual", "greater_equal", "ge", ">=", "x >= y", BinaryOp::GreaterEqual},
          Cmp{"Equal", "equal", "eq", "==", "x == y", BinaryOp::Equal},
          Cmp{"NotEqual", "not_equal", "ne", "!=", "x != y", BinaryOp::NotEqual}}) {
        OpDef d = binaryDef(c.name, c.summary, c.bop);
        const std::vector<ParamMap> fnParams = {toInput("input", 0), toInput("other", 1)};
        addFunction(d, {"ops", "F"}, c.fn, fnParams);
        addFunction(d, {"ops", "F"}, c.shortFn, fnParams);
        addMethod(d, c.fn, {toInput("other", 1)});
        addMethod(d, c.shortFn, {toInput("other", 1)});
        addOperator(d, c.op);
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("LogicalAnd", "x and y on Bool tensors", BinaryOp::LogicalAnd);
        addFunction(d, {"ops", "F"}, "logical_and", {toInput("input", 0), toInput("other", 1)});
        addMethod(d, "logical_and", {toInput("other", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("LogicalOr", "x or y on Bool tensors", BinaryOp::LogicalOr);
        addFunction(d, {"ops", "F"}, "logical_or", {toInput("input", 0), toInput("other", 1)});
        addMethod(d, "logical_or", {toInput("other", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("LogicalXor", "x xor y on Bool tensors", BinaryOp::LogicalXor);
        addFunction(d, {"ops", "F"}, "logical_xor", {toInput("input", 0), toInput("other", 1)});
        addMethod(d, "logical_xor", {toInput("other", 1)});
        reg.add(std::move(d));
    }
    {
        OpDef d =
            makeUnaryDef("LogicalNot", "compare", "not x on a Bool tensor", UnaryOp::LogicalNot);
        addFunction(d, {"ops", "F"}, "logical_not", {toInput("input", 0)});
        addMethod(d, "logical_not", {});
        addOperator(d, "~");
        reg.add(std::move(d));
    }
    {
        OpDef d;
        d.name = "Select";
        d.family = "compare";
        d.summary = "cond ? x : y elementwise, with broadcasting";
        d.inputs = {argIn("cond"), argIn("x", ArgKind::Number), argIn("y", ArgKind::Number)};
        d.infer = inferSelect;
        d.cpuKernel = runSelect;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "select",
                    {toInput("cond", 0), toInput("input", 1), toInput("other", 2)});
        addFunction(d, {"ops", "F"}, "where",
                    {toInput("condition", 0), toInput("input", 1), toInput("other", 2)});
        reg.add(std::move(d));
    }
}

}  // namespace irscope::ops
