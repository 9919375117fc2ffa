// The primitive registry: one OpDef per primitive with its Python spellings, side-effect
// flags, constructor attributes and call inputs (with defaults), a type/shape infer function,
// a CPU kernel and a bprop rule (ops/bprop*.cpp) for the differentiable ones.
//
// Who uses what:
//  - the front end resolves `ops.ReduceSum`, `ops.reduce_sum`, `x.sum`, `+` ... with
//    findSpelling(), builds a CNode and calls infer() (which also folds constants);
//  - passes read the flags (sideEffectMem/Io, foldable, structural);
//  - the executor calls run() (the CPU kernel) for every non-structural primitive.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ir/abstract.h"
#include "ir/tensor.h"
#include "ir/value.h"
#include "util/string_hash.h"

namespace irscope::ops {

using ir::AbstractPtr;
using ir::DType;
using ir::Shape;
using ir::ValuePtr;

// ---------------------------------------------------------------------------------------
// Errors

// The Python exception MindSpore raises for the same mistake.
enum class ErrorKind : std::uint8_t {
    TypeError,
    ValueError,
    IndexError,
    RuntimeError,
    ZeroDivisionError,  // Python scalar division by zero while folding
};
std::string_view errorKindName(ErrorKind k);

// A MindSpore-like message: "For 'Add', x.shape and y.shape need to broadcast, but got
// x.shape: [2, 3], y.shape: [4]." what() is the message without the kind.
class OpError : public std::runtime_error {
public:
    OpError(ErrorKind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }

private:
    ErrorKind kind_;
};

// ---------------------------------------------------------------------------------------
// Signatures

// What an attribute or input accepts; used for documentation and light validation.
enum class ArgKind : std::uint8_t {
    Tensor,       // a tensor (or a Parameter's Ref)
    Number,       // a tensor or a Python number/bool (implicit type conversion applies)
    Int,          // a Python int
    IntOrTuple,   // an int or a tuple/list of ints (axis)
    IntTuple,     // a tuple/list of ints (shape, perm, multiples)
    Float,        // a Python float
    Bool,         // a Python bool
    String,       // a Python str
    Type,         // a dtype (ms.float32)
    TensorTuple,  // a tuple/list of tensors (AddN, Concat, Stack)
    Monad,        // U or IO: ordering inputs added by the side-effect pass
    Any,          // anything (structural primitives)
};

struct ArgSpec {
    std::string name;
    ArgKind kind = ArgKind::Any;
    ValuePtr defaultValue;  // nullptr: required (unless optional/variadic)
    bool optional = false;  // may be absent without a default (monads)
    bool variadic = false;  // takes all remaining arguments (Print, MakeTuple, UpdateState)
    bool required() const { return !defaultValue && !optional && !variadic; }
};

// ---------------------------------------------------------------------------------------
// Python spellings

enum class SpellingKind : std::uint8_t {
    Class,     // ops.ReduceSum / P.ReduceSum: constructor args are attrs, call args inputs
    Function,  // ops.reduce_sum / F.assign: each parameter maps to an input or an attr
    Method,    // Tensor.sum: like Function, with `self` as input 0 (not listed in params)
    Operator,  // "+", "u-", "<", "@": operands are inputs 0 and 1 (reflected ops swap)
};

// Converts a Python argument before it becomes an attr/input (e.g. dropout's p -> keep_prob).
using ValueConv = ValuePtr (*)(const ValuePtr&);

struct ParamMap {
    // PythonOnly: a parameter the primitive cannot take; a call giving it does not bind to
    // this spelling (the Python-written method of the same name takes it).
    enum class To : std::uint8_t { Input, Attr, Ignore, PythonOnly };
    std::string name;  // the Python parameter name
    To to = To::Input;
    int input = -1;         // To::Input: index among the primitive's call inputs
    std::string attr;       // To::Attr: the attribute name
    ValuePtr defaultValue;  // nullptr: required
    bool variadic = false;  // *args. When the target input's ArgSpec is variadic (Print)
                            // the values become separate inputs; otherwise they are packed
                            // into one tuple (x.reshape(2, 3)), and a single tuple/list
                            // positional is used as the tuple itself (x.reshape((2, 3))).
    ValueConv convert = nullptr;
};

struct Spelling {
    SpellingKind kind = SpellingKind::Class;
    std::string text;              // "ops.ReduceSum", "P.Add", "ops.reduce_sum", "F.assign",
                                   // "Tensor.sum", "+"
    std::vector<ParamMap> params;  // Function/Method only
    int outputIndex = -1;          // >= 0: the spelling returns only this tuple output
};

// ---------------------------------------------------------------------------------------
// Inference

struct InferArg {
    AbstractPtr abs;
    ValuePtr value;  // the constant when known, else nullptr

    static InferArg of(AbstractPtr a) { return {std::move(a), nullptr}; }
    static InferArg constant(ValuePtr v);  // abstract derived from the value
};

struct InferResult {
    AbstractPtr abs;
    ValuePtr constant;  // the folded value when every input was known and the op is pure
};

struct OpDef;

class InferContext {
public:
    InferContext(const OpDef& op, const ir::AttrMap& attrs, std::span<const InferArg> args)
        : op_(op), attrs_(attrs), args_(args) {}
    const OpDef& op() const { return op_; }
    const std::string& name() const;
    // The attribute given on the primitive, else its default (nullptr when neither).
    ValuePtr attr(std::string_view name) const;
    // Input i; a missing input with a default comes back as that constant.
    std::size_t size() const { return args_.size(); }
    InferArg arg(std::size_t i) const;
    AbstractPtr abs(std::size_t i) const;  // arg(i).abs
    std::span<const InferArg> args() const { return args_; }

private:
    const OpDef& op_;
    const ir::AttrMap& attrs_;
    std::span<const InferArg> args_;
};

// ---------------------------------------------------------------------------------------
// Kernels

// A runtime value: a tensor, a non-tensor constant (axis tuple, dtype, Python scalar, monad,
// string) or a tuple of runtime values (what MakeTuple produces: AddN's, Concat's input).
class KernelArg {
public:
    KernelArg() = default;                              // None
    KernelArg(ir::Tensor t) : v_(std::move(t)) {}  // NOLINT(implicit)
    KernelArg(ValuePtr v) : v_(std::move(v)) {}         // NOLINT(implicit)
    static KernelArg tuple(std::vector<KernelArg> elems);

    bool isNone() const { return std::holds_alternative<std::monostate>(v_); }
    bool isTensor() const { return std::holds_alternative<ir::Tensor>(v_); }
    bool isValue() const { return std::holds_alternative<ValuePtr>(v_); }
    bool isTuple() const { return std::holds_alternative<std::vector<KernelArg>>(v_); }
    const ir::Tensor& tensor() const { return std::get<ir::Tensor>(v_); }
    ir::Tensor& tensor() { return std::get<ir::Tensor>(v_); }
    const ValuePtr& value() const { return std::get<ValuePtr>(v_); }
    const std::vector<KernelArg>& elements() const { return std::get<std::vector<KernelArg>>(v_); }

private:
    std::variant<std::monostate, ir::Tensor, ValuePtr, std::vector<KernelArg>> v_;
};

class KernelContext {
public:
    KernelContext(const OpDef& op, const ir::AttrMap& attrs, std::span<const KernelArg> inputs,
                  bool training = false)
        : op_(op), attrs_(attrs), inputs_(inputs), training_(training) {}
    const OpDef& op() const { return op_; }
    const std::string& name() const;
    ValuePtr attr(std::string_view name) const;  // given or default
    std::size_t size() const { return inputs_.size(); }
    // Input i; a missing input with a default comes back as that constant.
    KernelArg input(std::size_t i) const;
    // Input i as a tensor; a Python scalar input becomes a 0-d tensor of its own dtype
    // (Int64, Float32, Bool). Throws OpError for anything else.
    ir::Tensor tensor(std::size_t i) const;
    bool training() const { return training_; }  // Dropout drops only when training

private:
    const OpDef& op_;
    const ir::AttrMap& attrs_;
    std::span<const KernelArg> inputs_;
    bool training_;
};

using InferFn = std::function<InferResult(const InferContext&)>;
// Returns the output; a tuple output (LayerNorm, Dropout) is a KernelArg::tuple.
using KernelFn = std::function<KernelArg(const KernelContext&)>;
// The gradient rule: emits the gradient of the inputs from dout through a BpropContext
// (ops/bprop.h); the autodiff pass (passes/autodiff*.cpp) implements the context.
struct BpropContext;
using BpropFn = std::function<void(BpropContext&)>;

// ---------------------------------------------------------------------------------------
// The definition

struct OpDef {
    std::string name;             // "ReduceSum", as printed in the IR
    std::string family;           // "math", "compare", "reduce", "array", "nn", "state", ...
    std::string summary;          // one line for the UI
    bool sideEffectMem = false;   // writes memory (Assign): ordered by UMonad
    // The inputs a sideEffectMem op writes in place (MindSpore's RW signature): Assign's
    // variable {0}; Adam's var, m and v {0, 1, 2}. They reach the kernel as the Parameter's
    // own storage, not through a Load.
    std::vector<std::size_t> writes;
    bool sideEffectIo = false;    // does IO (Print): ordered by IOMonad
    bool foldable = true;         // pure and deterministic: constants may be folded
    bool structural = false;      // MakeTuple, Return, Switch, Depend ...: executor handles
    std::vector<ArgSpec> attrs;   // constructor parameters (primitive attributes)
    std::vector<ArgSpec> inputs;  // call inputs
    std::vector<Spelling> spellings;
    InferFn infer;
    KernelFn cpuKernel;  // null for structural primitives
    BpropFn bprop;       // null: no gradient rule (ops/bprop*.cpp fill them)

    const ArgSpec* findAttr(std::string_view attrName) const;
    std::size_t requiredInputs() const;
    bool writesInput(std::size_t i) const;  // i: 0-based call input
};

// A spelling found by findSpelling, with the primitive it names.
struct SpellingRef {
    const OpDef* op = nullptr;
    const Spelling* spelling = nullptr;
};

// ---------------------------------------------------------------------------------------
// Binding a Python call to a primitive's inputs and attributes

// Where one primitive input or attribute comes from in a Python call. Call arguments are
// numbered positionals first, then keywords in the order given.
struct ArgSource {
    enum class Kind : std::uint8_t {
        Arg,      // args[0] is the call argument
        Pack,     // args are packed into one tuple; a single tuple/list argument is used as is
        Default,  // value is the default
        Absent,   // optional and not given (a monad the side-effect pass adds later)
    };
    Kind kind = Kind::Absent;
    std::vector<std::size_t> args;
    ValuePtr value;
    ValueConv convert = nullptr;  // apply to the argument's (constant) value
};

struct CallBinding {
    std::vector<ArgSource> inputs;  // the primitive's call inputs in order (trailing Absent
                                    // dropped); a variadic input spreads into one per argument
    std::vector<std::pair<std::string, ArgSource>> attrs;
    int outputIndex = -1;  // the spelling's outputIndex
};

// Function/Method/Operator spellings: the call `f(a0, ..., k0=..., ...)` with `positional`
// positionals and keyword names `keywords`. For a Method, argument 0 is `self`. For a Class
// spelling this binds the *primitive call* (arguments to inputs); use bindConstructor for the
// constructor. Throws OpError (TypeError) like Python for unknown/missing/duplicate arguments.
CallBinding bindCall(const OpDef& op, const Spelling& spelling, std::size_t positional,
                     std::span<const std::string> keywords = {});
// `ops.ReduceSum(keep_dims=True)`: constructor arguments to attributes (every attribute is
// listed, with its default when not given).
CallBinding bindConstructor(const OpDef& op, std::size_t positional,
                            std::span<const std::string> keywords = {});

// Largest tensor (elements) infer() folds into a constant.
inline constexpr std::int64_t kMaxFoldElements = 1 << 20;

class OpRegistry {
public:
    static const OpRegistry& instance();

    const OpDef* find(std::string_view name) const;
    // "ops.add", "P.Add", "F.tensor_add", "Tensor.sum", "+", also with the long module
    // names ("mindspore.ops.add", "mindspore.ops.operations.Add",
    // "mindspore.ops.functional.assign", "mindspore.Tensor.sum").
    std::optional<SpellingRef> findSpelling(std::string_view text) const;
    const std::vector<std::unique_ptr<OpDef>>& ops() const { return ops_; }
    std::size_t size() const { return ops_.size(); }

    // Arity check, the op's infer function, then constant folding through the CPU kernel
    // when the op is foldable, every input is a known constant and the result is small.
    // Throws OpError.
    InferResult infer(const OpDef& op, const ir::AttrMap& attrs,
                      std::span<const InferArg> args) const;
    InferResult infer(std::string_view name, std::span<const InferArg> args,
                      const ir::AttrMap& attrs = {}) const;
    // Runs the CPU kernel. Throws OpError (also for structural ops, which have none).
    KernelArg run(const OpDef& op, const ir::AttrMap& attrs, std::span<const KernelArg> inputs,
                  bool training = false) const;
    KernelArg run(std::string_view name, std::span<const KernelArg> inputs,
                  const ir::AttrMap& attrs = {}) const;

    // Registration (used by the family files while the registry is built).
    OpDef& add(OpDef def);

    OpRegistry(const OpRegistry&) = delete;
    OpRegistry& operator=(const OpRegistry&) = delete;

private:
    OpRegistry();
    void indexSpellings();

    std::vector<std::unique_ptr<OpDef>> ops_;
    // Hashed: every pass looks up the op of every node it visits by name.
    std::unordered_map<std::string, const OpDef*, util::StringHash, std::equal_to<>> byName_;
    std::unordered_map<std::string, SpellingRef, util::StringHash, std::equal_to<>> bySpelling_;
};

// Converts between runtime values and IR constants (used by folding and by the executor
// when it turns ValueNodes into runtime values).
KernelArg kernelArgFromValue(const ValuePtr& v);  // tensor constants become Tensors
ValuePtr valueFromKernelArg(const KernelArg& a);  // Tensors become tensor constants

}  // namespace irscope::ops
