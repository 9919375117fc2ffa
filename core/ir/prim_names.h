// The names of the primitives the compiler's passes, the executor and the views ask about by
// name (`c->isPrimitive(prim::kUpdateState)`), spelled once. Each is MindSpore's own name of
// the primitive (`resolve`, `J`, `grad` and `value_and_grad` are the parser's and the
// grad transforms' lower-case spellings).
#pragma once

#include <string_view>

namespace irscope::ir::prim {

// State and effects.
inline constexpr std::string_view kUpdateState = "UpdateState";
inline constexpr std::string_view kLoad = "Load";
inline constexpr std::string_view kDepend = "Depend";
inline constexpr std::string_view kTensorMove = "TensorMove";
inline constexpr std::string_view kAssign = "Assign";
inline constexpr std::string_view kAssignAdd = "AssignAdd";
inline constexpr std::string_view kAssignSub = "AssignSub";
inline constexpr std::string_view kPrint = "Print";
// Structure.
inline constexpr std::string_view kMakeTuple = "MakeTuple";
inline constexpr std::string_view kMakeList = "MakeList";
inline constexpr std::string_view kTupleGetItem = "TupleGetItem";
inline constexpr std::string_view kListGetItem = "ListGetItem";
inline constexpr std::string_view kSwitch = "Switch";
inline constexpr std::string_view kPartial = "Partial";
inline constexpr std::string_view kReturn = "Return";
inline constexpr std::string_view kResolve = "resolve";
// Differentiation.
inline constexpr std::string_view kStopGradient = "StopGradient";
inline constexpr std::string_view kCustomBprop = "CustomBprop";
inline constexpr std::string_view kJ = "J";
inline constexpr std::string_view kGrad = "grad";
inline constexpr std::string_view kValueAndGrad = "value_and_grad";
inline constexpr std::string_view kGradOperation = "GradOperation";

}  // namespace irscope::ir::prim
