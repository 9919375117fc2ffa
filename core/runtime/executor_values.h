// The executor's runtime values and the helpers on them (internal to the executor): a value
// is a kernel argument, a function (a closure over a frame, a Partial application, a
// primitive) or a tuple holding functions; a frame is one activation of a graph.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/module.h"
#include "ops/op_registry.h"
#include "runtime/eval_error.h"

namespace irscope::runtime::detail {

using ir::CNode;
using ir::FuncGraph;
using ir::Node;
using ops::KernelArg;

struct Frame;
using FramePtr = std::shared_ptr<Frame>;
struct Func;
using FuncPtr = std::shared_ptr<const Func>;

// A runtime value: a kernel value (tensor, constant, tuple of those), a function, or a
// tuple holding functions (which KernelArg cannot hold).
struct RValue {
    KernelArg arg;
    FuncPtr fn;
    std::shared_ptr<const std::vector<RValue>> items;

    static RValue of(KernelArg a) { return RValue{std::move(a), nullptr, nullptr}; }
    static RValue func(FuncPtr f) { return RValue{KernelArg(), std::move(f), nullptr}; }
};

struct Func {
    enum class Kind : std::uint8_t { Closure, Partial, Primitive };
    Kind kind = Kind::Closure;
    const FuncGraph* graph = nullptr;               // Closure
    FramePtr parent;                                // Closure: where its free variables are found
    RValue inner;                                   // Partial: the function applied
    std::vector<RValue> bound;                      // Partial: leading arguments
    std::shared_ptr<const ir::PrimitiveData> prim;  // Primitive
};

struct Frame {
    const FuncGraph* graph = nullptr;
    FramePtr parent;
    std::unordered_map<const Node*, RValue> values;

    Frame();
    ~Frame();
    Frame(const Frame&) = delete;
    Frame& operator=(const Frame&) = delete;
    // How many frames exist in the process (every executor's): none outlives its run.
    static std::size_t alive();
};

// "Add (CNode_5) in @Net_construct, net.py:12: out = x + y": what an error message names.
std::string describeNode(const Node& n);
// Throws EvalError with the message and where it happened.
[[noreturn]] void failAt(const Node& n, const std::string& message,
                         const std::string& pyType = "RuntimeError");
// The truth value of a Switch condition: a Bool/number scalar or a one-element tensor.
bool truthOf(const Node& site, const RValue& v);
// A value as a kernel input (TypeError for a function).
KernelArg toKernel(const CNode& site, const RValue& v);
// MakeTuple: constants stay an ir::Value tuple, tensors a KernelArg tuple, functions items.
RValue makeTuple(std::vector<RValue> elems);
// TupleGetItem with a constant (possibly negative) index.
RValue tupleItem(const CNode& site, const RValue& t, const RValue& index);
// The graph's output for the host: functions are an error (EvalError naming `graph`).
KernelArg outputOf(const RValue& v, const std::string& graph);
// Copies the tensors of `a` that share storage with one of `shared` (weights, inputs).
KernelArg detach(const KernelArg& a, const std::unordered_set<const void*>& shared);

}  // namespace irscope::runtime::detail
