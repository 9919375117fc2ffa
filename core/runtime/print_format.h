// What the Print operator writes for one of its inputs, in graph mode (the executor) and
// in PyNative (ops.Print / F.print_): each input on its own line, strings as they are,
// tensors as MindSpore's Tensor::ToStringNoLimit (`Tensor(shape=[3], dtype=Float32,
// value=[...])`), Python scalars as Python prints them, tuples element by element.
#pragma once

#include <string>

#include "ops/op_registry.h"

namespace irscope::runtime {

// The text of one Print input, without the newline; monads (ordering inputs the
// side-effect passes add) print nothing and return "".
std::string formatPrintInput(const ops::KernelArg& a);
// formatPrintInput's text when it has at most `limit` characters; else a prefix of it
// longer than `limit`, without formatting the tuple elements past it (a run's record keeps
// the first characters of a 6,000-tensor output).
std::string formatPrintInputPrefix(const ops::KernelArg& a, std::size_t limit);
// The same for a constant (a ValueNode's value).
std::string formatPrintValue(const ir::Value& v);
// Whether Print skips this input (U / IO monads).
bool isPrintSkipped(const ops::KernelArg& a);

}  // namespace irscope::runtime
