// Elementwise engine shared by the math, compare and nn families: the result-type rules,
// Python-scalar semantics, and Eigen kernels with numpy broadcasting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "ops/infer_util.h"
#include "ops/kernel_util.h"

namespace irscope::ops {

enum class BinaryOp : std::uint8_t {
    Add,
    Sub,
    Mul,
    Div,       // true division (Div, RealDiv): integers give Float32
    FloorDiv,  // rounds toward -inf (Python //)
    Mod,       // C fmod: the sign of the dividend (MindSpore's Mod)
    FloorMod,  // the sign of the divisor (Python %)
    Pow,
    Maximum,
    Minimum,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
};

bool isCompare(BinaryOp op);
bool isLogical(BinaryOp op);

struct BinaryTypes {
    DType compute;  // the dtype both operands are converted to
    DType out;      // the result dtype
};
// The dtypes for a tensor operation; TypeError for combinations MindSpore rejects.
BinaryTypes binaryTypes(std::string_view opName, BinaryOp op, const Operand& x, const Operand& y);
// The dtype of Python scalar (+) Python scalar.
DType scalarResultType(BinaryOp op, DType x, DType y);
// Python scalar (+) Python scalar (Int, Float or Bool values) with Python's semantics.
ValuePtr scalarBinary(std::string_view opName, BinaryOp op, const ir::Value& x, const ir::Value& y);

// Tensor kernels: x and y hold the compute dtype; shapes broadcast.
Tensor arithKernel(std::string_view opName, BinaryOp op, const Tensor& x, const Tensor& y,
                   DType out);
Tensor compareKernel(std::string_view opName, BinaryOp op, const Tensor& x, const Tensor& y);

// Infer and kernel for a binary primitive over inputs 0 and 1.
InferResult inferBinary(const InferContext& ctx, BinaryOp op);
KernelArg runBinary(const KernelContext& ctx, BinaryOp op);

enum class UnaryOp : std::uint8_t {
    Neg,
    Abs,
    Square,
    Exp,
    Log,
    Sqrt,
    ReLU,
    Sigmoid,
    Tanh,
    GeLU,     // tanh approximation (MindSpore's GeLU kernel)
    GeLUErf,  // exact, with erf (ops.gelu(approximate='none'))
    HSwish,
    LogicalNot,
};

struct UnaryTypes {
    DType compute;
    DType out;
};
UnaryTypes unaryTypes(std::string_view opName, UnaryOp op, DType in);
Tensor unaryKernel(std::string_view opName, UnaryOp op, const Tensor& x);  // x: compute dtype
InferResult inferUnary(const InferContext& ctx, UnaryOp op);
KernelArg runUnary(const KernelContext& ctx, UnaryOp op);
// An OpDef with inputs x and y, the binary infer/kernel and class spellings (math_ops.cpp).
OpDef makeBinaryDef(std::string name, std::string family, std::string summary, BinaryOp op);
// An OpDef with input x, the unary infer/kernel and class spellings (math_ops.cpp).
OpDef makeUnaryDef(std::string name, std::string family, std::string summary, UnaryOp op);

}  // namespace irscope::ops
