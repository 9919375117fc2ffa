// Expansion of meta operations (meta_ops.h) once their argument abstracts are known: into
// registry primitives, folded constants, or calls (MultitypeFuncGraph, hyper_map, vmap).
//   type_inference_meta.cpp         operators, comparisons, truth values, identity, `in`
//   type_inference_meta_builtins.cpp containers and builtins (getitem, len, range, min...)
//   type_inference_meta_tensor.cpp  tensor getitem/setitem, getattr (shape, dtype, T, methods)
//   type_inference_meta_fn.cpp      MultitypeFuncGraph dispatch, hyper_map, map, vmap
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "passes/type_inference_engine.h"

namespace irscope::passes::infer {

bool isMetaOp(std::string_view name);

// Infers the meta-operation CNode c (callee `prim`) on args (none bottom) and replaces it.
Arg expandMeta(Engine& e, ir::CNode* c, const ir::ValuePtr& prim, const std::vector<Arg>& args);

// x.method(args...): `spelling` is a registry Method spelling ("Tensor.sum"); args[0] is self;
// the last keywords.size() args are keyword arguments with those names (`x.sum(axis=1)`).
Arg callMethod(Engine& e, ir::CNode* at, const std::string& spelling, const std::vector<Arg>& args,
               const std::vector<std::string>& keywords = {});

// Per-family entry points, each returning false when the op is not theirs.
bool expandTensorMeta(Engine& e, ir::CNode* c, std::string_view name, const std::vector<Arg>& args,
                      Arg& out);
bool expandBuiltinMeta(Engine& e, ir::CNode* c, std::string_view name, const std::vector<Arg>& args,
                       Arg& out);
bool expandFnMeta(Engine& e, ir::CNode* c, const ir::ValuePtr& prim, const std::vector<Arg>& args,
                  Arg& out);

// Shared helpers.
// Replaces c by the constant v.
Arg foldTo(Engine& e, ir::CNode* c, ir::ValuePtr v);
// Replaces c by the registry primitive `name` applied to args.
Arg callPrim(Engine& e, ir::CNode* c, const std::string& name, const std::vector<Arg>& args,
             const ir::AttrMap& attrs = {});
// The truth value of a condition (bool_): folded, a Bool scalar, or a one-element tensor.
Arg truthValue(Engine& e, ir::CNode* c, const Arg& a);
// TypeError in MindSpore's words for a meta operation applied to unsupported types.
[[noreturn]] void unsupportedTypes(Engine& e, const ir::CNode* c, std::string_view op,
                                   const std::vector<Arg>& args, std::size_t bad);
ir::ValuePtr valueOf(const Arg& a);  // the constant, when known
bool isTensor(const Arg& a);
bool isNumber(const Arg& a);  // a Python bool/int/float scalar
bool isSeq(const Arg& a);     // tuple or list
// What kind of Python object an argument is: the question isinstance() and a
// MultitypeFuncGraph signature both ask, each under its own names for the kinds.
enum class PyKind { Tensor, Bool, Int, Float, Str, Tuple, List, None, Other };
PyKind pyKindOf(const Arg& a);
// "Tensor[Float32]", "Int64", "Tuple", ... as MindSpore names argument types in messages.
std::string typeName(const Arg& a);

}  // namespace irscope::passes::infer
