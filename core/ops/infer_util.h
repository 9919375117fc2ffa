// Shared helpers for op definitions: signature/spelling builders, message formatting,
// constant extraction, MindSpore's implicit type conversion, broadcasting and axis checks.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ops/op_registry.h"

namespace irscope::ops {

// ---- signature and spelling builders -------------------------------------------------
ArgSpec argIn(std::string name, ArgKind kind = ArgKind::Tensor);
ArgSpec argDefault(std::string name, ArgKind kind, ValuePtr defaultValue);
ArgSpec argMonad(std::string name = "u");
ArgSpec argVariadic(std::string name, ArgKind kind = ArgKind::Any);

// "ops.Add" and "P.Add".
void addClassSpellings(OpDef& def);
// A former name of the primitive's class (MindSpore 1.x's P.TensorAdd for Add): the same
// class under both names.
void addClassAlias(OpDef& def, std::string_view alias);
// A functional spelling registered under each prefix given, e.g. {"ops", "F"}.
void addFunction(OpDef& def, std::initializer_list<std::string_view> prefixes,
                 std::string_view name, std::vector<ParamMap> params, int outputIndex = -1);
void addMethod(OpDef& def, std::string_view name, std::vector<ParamMap> params);
void addOperator(OpDef& def, std::string_view op);
ParamMap toInput(std::string name, int index, ValuePtr defaultValue = nullptr);
ParamMap toAttr(std::string name, std::string attr, ValuePtr defaultValue = nullptr);
ParamMap ignored(std::string name, ValuePtr defaultValue);
// A parameter only the Python-written form of a method takes (ParamMap::To::PythonOnly).
ParamMap pythonOnly(std::string name);

// ---- values -------------------------------------------------------------------------------
ValuePtr vInt(std::int64_t v);
ValuePtr vFloat(double v);
ValuePtr vBool(bool v);
ValuePtr vInts(std::initializer_list<std::int64_t> v);
ValuePtr vInts(const std::vector<std::int64_t>& v);
ValuePtr vNone();

// The abstract MindSpore gives a constant: Int64 scalar, Tensor[...] with value, tuples...
AbstractPtr abstractOfValue(const ValuePtr& v);
std::optional<std::int64_t> intOf(const ValuePtr& v);  // Int, Bool, 0-d int tensor
std::optional<double> numberOf(const ValuePtr& v);     // Int, Float, Bool, 0-d tensor
std::optional<bool> boolOf(const ValuePtr& v);
std::optional<DType> dtypeOf(const ValuePtr& v);  // a Type value
// An int, a tuple/list of ints or a 1-D int tensor as a list; nullopt otherwise.
std::optional<std::vector<std::int64_t>> intsOf(const ValuePtr& v);
bool isNoneValue(const ValuePtr& v);
// A copy of a tensor abstract with valueKnown set (for folded results).
AbstractPtr withValueKnown(const AbstractPtr& a);

// ---- abstracts -----------------------------------------------------------------------------
bool isTensorAbs(const AbstractPtr& a);  // Tensor or Ref
// Input i, which must be a tensor: "For 'Op', the input 'x' must be a Tensor, but got ...".
AbstractPtr tensorInput(const InferContext& c, std::size_t i, std::string_view argName);
// Input 0 as a non-empty tuple or list (AddN, Concat, Stack), with MindSpore's TypeError or
// ValueError otherwise; each op checks the elements in its own words.
const std::vector<AbstractPtr>& sequenceInput(const InferContext& c);
bool isScalarAbs(const AbstractPtr& a);  // a Python number/bool scalar
bool isNumberScalar(DType t);            // Bool, ints and floats (not String)
// "Tensor[Float32]", "Ref[Tensor[Int32]]", "Int64", "Tuple", "None".
std::string typeStr(const AbstractPtr& a);
std::string typeStr(DType t);  // "Float32"

// ---- messages -------------------------------------------------------------------------------
std::string shapeStr(const Shape& s);                  // "[2, 3]", "[]", "[-1, 3]", "[-2]"
std::string listStr(std::span<const std::int64_t> v);  // "[0, 1]"
[[noreturn]] void fail(ErrorKind kind, const std::string& message);
[[noreturn]] void typeError(std::string_view op, const std::string& rest);  // "For 'op', rest"
[[noreturn]] void valueError(std::string_view op, const std::string& rest);

// ---- implicit type conversion ----------------------------------------------------------
// Tensor (+) tensor: the higher of bool < uint8 < int8 < int16 < int32 < int64 < float16 <
// float32 < float64; uint8 with int8 gives int16.
DType promoteTensorTypes(DType a, DType b);
// Tensor (+) Python scalar: the tensor's type, except a Bool tensor with an int (Int32) or a
// float (Float32), and an integer tensor with a float (Float32).
DType promoteTensorScalar(DType tensor, DType scalar);
// Python scalar (+) Python scalar: int with int is Int64, anything with a float is Float32,
// bool with bool stays Bool (the op decides what that means).
DType promoteScalars(DType a, DType b);

// An elementwise operand: a tensor (dtype, shape) or a Python scalar (dtype).
struct Operand {
    bool tensor = false;
    DType dtype = DType::Float32;
    Shape shape;
};
// Classifies argument `index` named `argName`; TypeError when it is neither.
Operand operandOf(std::string_view op, std::string_view argName, const AbstractPtr& a);
// The common dtype of elementwise operands.
DType promoteOperands(std::span<const Operand> ops);

// ---- shapes -----------------------------------------------------------------------------------
// numpy broadcasting; a -1 dim broadcasts to the other side's dim (or stays -1).
// ValueError "For 'op', x.shape and y.shape need to broadcast, but got x.shape: [2, 3],
// y.shape: [4]."
Shape broadcastShapes(std::string_view op, const Shape& x, const Shape& y,
                      std::string_view xName = "x", std::string_view yName = "y");
// Whether `from` broadcasts to `to` exactly (BroadcastTo, Assign checks).
bool broadcastsTo(const Shape& from, const Shape& to);
// Normalizes a possibly negative axis into [0, rank); ValueError
// "For 'op', the 'axis' must be in range [-rank, rank), but got a." (the range grows by
// `extra` for ExpandDims/Stack, which insert a dimension).
std::int64_t normalizeAxis(std::string_view op, std::string_view argName, std::int64_t axis,
                           std::int64_t rank, std::int64_t extra = 0);
// Normalizes, sorts and deduplicates.
std::vector<std::int64_t> normalizeAxes(std::string_view op, std::string_view argName,
                                        std::span<const std::int64_t> axes, std::int64_t rank);
// An `axis` attribute given as an int or a tuple/list of ints (TypeError otherwise),
// normalized against `rank` (a scalar counts as rank 1); an empty tuple stays empty.
std::vector<std::int64_t> axisAttr(std::string_view op, const ValuePtr& v, std::size_t rank);
Shape dynamicRankShape();
// A shape of `rank` unknown dims.
Shape unknownShape(std::size_t rank);
std::int64_t product(std::span<const std::int64_t> dims);

}  // namespace irscope::ops
