// Meta operations: what the parser emits for Python operators and builtins before types are
// known, named as MindSpore's multitype/meta func graphs. They appear as primitive ValueNodes
// (`add(%a, %b)`) from `parse` until `type_inference` replaces each one with registry
// primitives or a folded constant. The registry (core/ops) does not know them.
//
// What type_inference makes of them (passes/type_inference_meta*.cpp):
//  - operators on tensors: the registry's Operator spelling ("+" -> Add, "/" -> RealDiv,
//    "<" -> Less, unary "-" -> Neg), so dtypes and broadcasting are exactly PyNative's; a
//    constant Python number meeting a tensor becomes a tensor constant of the promoted dtype;
//  - operators on Python numbers: ScalarAdd, ScalarSub, ScalarMul, ScalarDiv, ScalarFloorDiv,
//    ScalarMod, ScalarPow, ScalarEq/Ne/Lt/Le/Gt/Ge, ScalarUsub, BoolNot (registry, scalar
//    family), folded to a constant when both values are known;
//  - tuples/lists/strings: folded or rebuilt with MakeTuple/TupleGetItem; a list is a
//    MakeTuple node with a List abstract;
//  - tensor getitem: StridedSlice (ints, slices, None, Ellipsis) or Gather (an integer tensor);
//    setitem: Reshape/Concat/Gather over a compile-time index map
//    (type_inference_meta_tensor.cpp);
//  - getattr on a tensor: shape/dtype/ndim/size/itemsize/nbytes fold, T is Transpose, any
//    other name is the registry's Method spelling `Tensor.<name>` called with the call's args.
// Value conventions the parser/symbol_resolve use for constants these operations read:
//  - Ellipsis (`...`) is Value::opaque("Ellipsis") (the .ir reader's `...` is accepted too);
//  - isinstance's class is a Type value (int -> Int64, float -> Float32, bool -> Bool), a
//    String naming the class ("Tensor", "Parameter", "tuple", "list", "int", "float", "bool",
//    "str", "NoneType"), or a tuple of those.
#pragma once

#include <string_view>

namespace irscope::passes::meta {

// Binary operators: a + b ... (on tensors, scalars, tuples, strings as Python/MindSpore do).
inline constexpr std::string_view kAdd = "add";
inline constexpr std::string_view kSub = "sub";
inline constexpr std::string_view kMul = "mul";
inline constexpr std::string_view kDiv = "div";  // a / b
inline constexpr std::string_view kFloorDiv = "floordiv";
inline constexpr std::string_view kMod = "mod";
inline constexpr std::string_view kPow = "pow";
inline constexpr std::string_view kMatMul = "matmul";  // a @ b
inline constexpr std::string_view kBitAnd = "bitwise_and";
inline constexpr std::string_view kBitOr = "bitwise_or";
inline constexpr std::string_view kBitXor = "bitwise_xor";
// Comparisons.
inline constexpr std::string_view kEqual = "equal";
inline constexpr std::string_view kNotEqual = "not_equal";
inline constexpr std::string_view kLess = "less";
inline constexpr std::string_view kLessEqual = "less_equal";
inline constexpr std::string_view kGreater = "greater";
inline constexpr std::string_view kGreaterEqual = "greater_equal";
inline constexpr std::string_view kIn = "in_";
inline constexpr std::string_view kNotIn = "not_in_";
inline constexpr std::string_view kIs = "is_";
inline constexpr std::string_view kIsNot = "is_not";
// Unary.
inline constexpr std::string_view kNegative = "negative";  // -a
inline constexpr std::string_view kPositive = "positive";  // +a
inline constexpr std::string_view kLogicalNot = "logical_not";  // not a
inline constexpr std::string_view kInvert = "invert";  // ~a
// Truth value of an if/while/assert condition or an and/or operand: a Bool scalar, or a
// Bool tensor of one element.
inline constexpr std::string_view kBool = "bool_";
// Containers and indexing.
inline constexpr std::string_view kMakeTuple = "MakeTuple";  // registry primitive, listed for the parser
inline constexpr std::string_view kMakeList = "make_list";
inline constexpr std::string_view kMakeDict = "make_dict";   // (keys tuple, values tuple)
inline constexpr std::string_view kMakeSlice = "make_slice";  // (start, stop, step), each None or int
inline constexpr std::string_view kGetItem = "getitem";       // tuple/list/dict/str/tensor [index]
inline constexpr std::string_view kSetItem = "setitem";       // functional: returns the updated value
inline constexpr std::string_view kLen = "len";
inline constexpr std::string_view kGetAttr = "getattr";       // (value, "name") on a graph value
// Builtins.
inline constexpr std::string_view kMakeRange = "make_range";  // range(start, stop, step): constant ints
inline constexpr std::string_view kIsInstance = "isinstance";
inline constexpr std::string_view kMax = "max";
inline constexpr std::string_view kMin = "min";
inline constexpr std::string_view kAbs = "abs";
inline constexpr std::string_view kSum = "sum";
inline constexpr std::string_view kToInt = "int";
inline constexpr std::string_view kToFloat = "float";
inline constexpr std::string_view kToBool = "bool";
inline constexpr std::string_view kToStr = "str";  // str(x) of a constant (folded)
// Tensor(x[, dtype]) of a value only type_inference knows: a constant folded to a tensor, a
// tensor cast (symbol_resolve makes it of a Tensor call whose arguments it cannot fold).
inline constexpr std::string_view kTensorOf = "tensor_of";
inline constexpr std::string_view kToTuple = "tuple";
inline constexpr std::string_view kToList = "list";
inline constexpr std::string_view kZip = "zip";
inline constexpr std::string_view kEnumerate = "enumerate";
// Higher-order (composite) operations: input 1 is the function value.
//   multitype: a MultitypeFuncGraph — primitive attrs "name" (String), "signatures" (Tuple
//     of Tuples of type-name Strings: "Tensor", "Number", "Tuple", "List", "String", "Bool",
//     "None") and "graphs" (Tuple of Graph values, one per signature, registration order).
//     Calling it dispatches on the argument abstracts.
inline constexpr std::string_view kMultitype = "MultitypeFuncGraph";
inline constexpr std::string_view kHyperMap = "hyper_map";  // hyper_map(fn, seq...) elementwise over tuples/lists
inline constexpr std::string_view kMap = "map";
// vmap(fn, args...) with attrs in_axes, out_axes (what `vmap(fn, in_axes, out_axes)(args...)`
// becomes; a Partial(vmap, fn) called with args is flattened to it). type_inference runs fn
// once on the whole batch when fn's graph is elementwise, every mapped axis is 0 and out_axes
// is 0; otherwise it unrolls over the mapped axis (Gather per index) and Stacks the results.
inline constexpr std::string_view kVmap = "vmap";
// unpack_call(fn, t1, t2, ...): fn called with the elements of the tuples t1, t2, ... in order
// (`f(a, *args)` where the length of args is known only to type inference: t1 = (a,), t2 = args).
inline constexpr std::string_view kUnpackCall = "unpack_call";

// loop_length(message, seq) / loop_length(message, start, stop, step): the number of
// iterations of a `for` whose length the parser could not know (it lowers the loop to a
// counter loop that type inference unrolls): len(seq) of a tuple, list, string or tensor, or
// the length of range(start, stop, step). A length type_inference cannot know either fails
// the compile there with `message` (a RuntimeError naming the loop's iterable).
inline constexpr std::string_view kLoopLength = "loop_length";

// raise(type, message[, always]): a `raise` under a condition the parser could not decide.
// The branch holding it ends there (as with `return`). type_inference fails the compile with
// that exception when it reaches the node through conditions it decided (MindSpore raises at
// compile time then), and says that a raise at run time is not supported yet otherwise.
// With `always` (True) it is a compile error the parser deferred until the code is reached
// (a loop over a length not known yet): reported wherever type_inference meets it.
inline constexpr std::string_view kRaise = "raise";

// A primitive attribute naming the attributes whose values symbol_resolve could not know
// (`ops.argmax(x, axis)` inside a function whose `axis` is a parameter): a tuple of names,
// their values passed as the last inputs of the call, in that order. type_inference, which
// specializes the function for each constant argument (as MindSpore does), moves the known
// values into the attributes and drops the inputs; a value still unknown there is the
// "must be a constant in graph mode" error.
inline constexpr std::string_view kLateAttrs = "late_attrs";

}  // namespace irscope::passes::meta
