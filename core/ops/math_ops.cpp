// Arithmetic primitives: Add Sub Mul Div RealDiv FloorDiv Mod FloorMod Pow Maximum Minimum,
// the unary math Neg Abs Exp Log Sqrt Square, and AddN.
#include "ops/elementwise.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

OpDef binaryDef(std::string name, std::string summary, BinaryOp op,
                std::string family = "math") {
    OpDef d;
    d.name = std::move(name);
    d.family = std::move(family);
    d.summary = std::move(summary);
    d.inputs = {argIn("x", ArgKind::Number), argIn("y", ArgKind::Number)};
    d.infer = [op](const InferContext& c) { return inferBinary(c, op); };
    d.cpuKernel = [op](const KernelContext& c) { return runBinary(c, op); };
    addClassSpellings(d);
    return d;
}

OpDef unaryDef(std::string name, std::string family, std::string summary, UnaryOp op) {
    OpDef d;
    d.name = std::move(name);
    d.family = std::move(family);
    d.summary = std::move(summary);
    d.inputs = {argIn("x", ArgKind::Number)};
    d.infer = [op](const InferContext& c) { return inferUnary(c, op); };
    d.cpuKernel = [op](const KernelContext& c) { return runUnary(c, op); };
    addClassSpellings(d);
    return d;
}

std::vector<ParamMap> twoInputs(std::string a = "input", std::string b = "other") {
    return {toInput(std::move(a), 0), toInput(std::move(b), 1)};
}

std::vector<ParamMap> other(std::string b = "other") {
    return {toInput(std::move(b), 1)};
}

// ---- AddN ----------------------------------------------------------------------------------

InferResult inferAddN(const InferContext& ctx) {
    const std::vector<AbstractPtr>& elems = sequenceInput(ctx);
    AbstractPtr first;
    Shape shape;
    for (std::size_t i = 0; i < elems.size(); ++i) {
        const AbstractPtr& e = elems[i];
        if (!isTensorAbs(e)) {
            typeError(ctx.name(), "the type of 'x[" + std::to_string(i) +
                                      "]' must be a Tensor, but got " + typeStr(e) + ".");
        }
        if (!first) {
            first = e;
            shape = e->shape;
            continue;
        }
        if (e->dtype != first->dtype) {
            typeError(ctx.name(), "the type of 'x[" + std::to_string(i) +
                                      "]' should be the same as 'x[0]', but got " + typeStr(e) +
                                      " and " + typeStr(first) + ".");
        }
        if (shape.dynamicRank || e->shape.dynamicRank) {
            shape = e->shape.dynamicRank ? shape : e->shape;
            continue;
        }
        bool ok = shape.rank() == e->shape.rank();
        for (std::size_t k = 0; ok && k < shape.rank(); ++k) {
            const auto a = shape.dims[k];
            const auto b = e->shape.dims[k];
            ok = a == b || a == -1 || b == -1;
            if (a == -1) {
                shape.dims[k] = b;
            }
        }
        if (!ok) {
            valueError(ctx.name(), "the shape of 'x[" + std::to_string(i) +
                                       "]' should be the same as 'x[0]', but got " +
                                       shapeStr(e->shape) + " and " + shapeStr(first->shape) + ".");
        }
    }
    return {ir::Abstract::tensor(first->dtype, shape), nullptr};
}

KernelArg runAddN(const KernelContext& ctx) {
    const std::vector<Tensor> ts = tensorList(ctx.name(), ctx.input(0));
    if (ts.empty()) {
        valueError(ctx.name(), "the input 'x' must not be empty.");
    }
    const DType dtype = ts.front().dtype();
    const DType compute = computeType(dtype);
    Tensor acc = castTo(ts.front(), compute);
    for (std::size_t i = 1; i < ts.size(); ++i) {
        if (ts[i].dtype() != dtype) {
            typeError(ctx.name(), "all inputs must have the same data type.");
        }
        if (ts[i].shape() != ts.front().shape()) {
            valueError(ctx.name(), "the shape of 'x[" + std::to_string(i) +
                                       "]' should be the same as 'x[0]', but got " +
                                       shapeStr(ts[i].shape()) + " and " +
                                       shapeStr(ts.front().shape()) + ".");
        }
        acc = arithKernel(ctx.name(), BinaryOp::Add, acc, castTo(ts[i], compute), compute);
    }
    // A single input still yields a fresh tensor, never an alias of the input.
    return KernelArg(ts.size() == 1 ? ts.front().clone() : castTo(acc, dtype));
}

}  // namespace

void registerMathOps(OpRegistry& reg) {
    {
        OpDef d = binaryDef("Add", "x + y elementwise, with broadcasting", BinaryOp::Add);
        addFunction(d, {"ops", "F"}, "add", twoInputs());
        addFunction(d, {"F"}, "tensor_add", twoInputs("x", "y"));
        addClassAlias(d, "TensorAdd");
        addMethod(d, "add", other());
        addOperator(d, "+");
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("Sub", "x - y elementwise, with broadcasting", BinaryOp::Sub);
        addFunction(d, {"ops", "F"}, "sub", twoInputs());
        addFunction(d, {"ops", "F"}, "subtract", twoInputs());
        addFunction(d, {"F"}, "tensor_sub", twoInputs("x", "y"));
        addMethod(d, "sub", other());
        addOperator(d, "-");
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("Mul", "x * y elementwise, with broadcasting", BinaryOp::Mul);
        addFunction(d, {"ops", "F"}, "mul", twoInputs());
        addFunction(d, {"ops", "F"}, "multiply", twoInputs());
        addFunction(d, {"F"}, "tensor_mul", twoInputs("x", "y"));
        addMethod(d, "mul", other());
        addOperator(d, "*");
        reg.add(std::move(d));
    }
    {
        // ops.div, and Tensor.div with a rounding_mode, are Python-written
        // (frontend/modules/py/ms_ops_function.py) over Div, TruncateDiv and FloorDiv.
        OpDef d = binaryDef("Div", "x / y (true division; integers give Float32)", BinaryOp::Div);
        addFunction(d, {"ops", "F"}, "true_divide", twoInputs("dividend", "divisor"));
        auto method = other("value");
        method.push_back(pythonOnly("rounding_mode"));
        addMethod(d, "div", method);
        reg.add(std::move(d));
    }
    {
        OpDef d =
            binaryDef("RealDiv", "x / y (true division; integers give Float32)", BinaryOp::Div);
        addFunction(d, {"F"}, "tensor_div", twoInputs("x", "y"));
        addOperator(d, "/");
        reg.add(std::move(d));
    }
    {
        OpDef d =
            binaryDef("FloorDiv", "x // y, rounding toward negative infinity", BinaryOp::FloorDiv);
        addFunction(d, {"ops", "F"}, "floor_div", twoInputs());
        addFunction(d, {"ops", "F"}, "floor_divide", twoInputs());
        addFunction(d, {"F"}, "tensor_floordiv", twoInputs("x", "y"));
        addMethod(d, "floor_divide", other());
        addOperator(d, "//");
        reg.add(std::move(d));
    }
    {
        OpDef d =
            binaryDef("Mod", "remainder with the sign of the dividend (C fmod)", BinaryOp::Mod);
        addFunction(d, {"ops", "F"}, "fmod", twoInputs());
        addMethod(d, "fmod", other());
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("FloorMod", "x % y with the sign of the divisor (Python %)",
                            BinaryOp::FloorMod);
        addFunction(d, {"ops", "F"}, "floor_mod", twoInputs("x", "y"));
        addFunction(d, {"ops", "F"}, "remainder", twoInputs());
        addFunction(d, {"F"}, "tensor_mod", twoInputs("x", "y"));
        addMethod(d, "remainder", other("divisor"));
        addOperator(d, "%");
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("Pow", "x ** y elementwise", BinaryOp::Pow);
        addFunction(d, {"ops", "F"}, "pow", twoInputs("input", "exponent"));
        addFunction(d, {"F"}, "tensor_pow", twoInputs("x", "y"));
        addMethod(d, "pow", other("exponent"));
        addOperator(d, "**");
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("Maximum", "elementwise maximum (NaN propagates)", BinaryOp::Maximum);
        addFunction(d, {"ops", "F"}, "maximum", twoInputs());
        addMethod(d, "maximum", other());
        reg.add(std::move(d));
    }
    {
        OpDef d = binaryDef("Minimum", "elementwise minimum (NaN propagates)", BinaryOp::Minimum);
        addFunction(d, {"ops", "F"}, "minimum", twoInputs());
        addMethod(d, "minimum", other());
        reg.add(std::move(d));
    }
    struct Unary {
        const char* name;
        const char* fn;
        const char* summary;
        UnaryOp op;
    };
    for (const Unary& u :
         {Unary{"Neg", "neg", "-x", UnaryOp::Neg}, Unary{"Abs", "abs", "|x|", UnaryOp::Abs},
          Unary{"Square", "square", "x * x", UnaryOp::Square},
          Unary{"Exp", "exp", "e ** x (integers compute in Float32)", UnaryOp::Exp},
          Unary{"Log", "log", "natural logarithm", UnaryOp::Log},
          Unary{"Sqrt", "sqrt", "square root", UnaryOp::Sqrt}}) {
        OpDef d = unaryDef(u.name, "math", u.summary, u.op);
        addFunction(d, {"ops", "F"}, u.fn, {toInput("input", 0)});
        addMethod(d, u.fn, {});
        if (u.op == UnaryOp::Neg) {
            addFunction(d, {"ops", "F"}, "negative", {toInput("input", 0)});
            addOperator(d, "u-");
        }
        if (u.op == UnaryOp::Abs) {
            addFunction(d, {"builtins"}, "abs", {toInput("x", 0)});
        }
        reg.add(std::move(d));
    }
    {
        OpDef d;
        d.name = "AddN";
        d.family = "math";
        d.summary = "sum of a tuple of tensors of one shape and dtype";
        d.inputs = {argIn("x", ArgKind::TensorTuple)};
        d.infer = inferAddN;
        d.cpuKernel = runAddN;
        addClassSpellings(d);
        addFunction(d, {"ops", "F"}, "addn", {toInput("x", 0)});
        reg.add(std::move(d));
    }
}

// Used by compare_ops.cpp for the comparisons and logical ops.
OpDef makeBinaryDef(std::string name, std::string family, std::string summary, BinaryOp op) {
    return binaryDef(std::move(name), std::move(summary), op, std::move(family));
}

// Used by nn_ops.cpp for the activations.
OpDef makeUnaryDef(std::string name, std::string family, std::string summary, UnaryOp op) {
    return unaryDef(std::move(name), std::move(family), std::move(summary), op);
}

}  // namespace irscope::ops
