#include "ops/op_registry.h"
#include <algorithm>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

std::string_view errorKindName(ErrorKind k) {
    switch (k) {
        case ErrorKind::TypeError:
            return "TypeError";
        case ErrorKind::ValueError:
            return "ValueError";
        case ErrorKind::IndexError:
            return "IndexError";
        case ErrorKind::RuntimeError:
            return "RuntimeError";
        case ErrorKind::ZeroDivisionError:
            return "ZeroDivisionError";
    }
    return "RuntimeError";
}

// ---- values <-> runtime values ------------------------------------------------------------

namespace {

bool containsTensor(const ValuePtr& v) {
    if (!v) {
        return false;
    }
    if (v->kind == ir::Value::Kind::Tensor) {
        return true;
    }
    if (v->kind == ir::Value::Kind::Tuple || v->kind == ir::Value::Kind::List) {
        for (const auto& e : v->elements) {
            if (containsTensor(e)) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace

KernelArg KernelArg::tuple(std::vector<KernelArg> elems) {
    KernelArg a;
    a.v_ = std::move(elems);
    return a;
}

KernelArg kernelArgFromValue(const ValuePtr& v) {
    if (!v) {
        return KernelArg();
    }
    if (v->kind == ir::Value::Kind::Tensor && v->tensor->hasData()) {
        return KernelArg(tensorFromValue(v));
    }
    if ((v->kind == ir::Value::Kind::Tuple || v->kind == ir::Value::Kind::List) &&
        containsTensor(v)) {
        std::vector<KernelArg> elems;
        for (const auto& e : v->elements) {
            elems.push_back(kernelArgFromValue(e));
        }
        return KernelArg::tuple(std::move(elems));
    }
    return KernelArg(v);
}

ValuePtr valueFromKernelArg(const KernelArg& a) {
    if (a.isTensor()) {
        return ir::Value::tensorValue(a.tensor().toValueData());
    }
    if (a.isValue()) {
        return a.value();
    }
    if (a.isTuple()) {
        std::vector<ValuePtr> elems;
        for (const auto& e : a.elements()) {
            elems.push_back(valueFromKernelArg(e));
        }
        return ir::Value::tuple(std::move(elems));
    }
    return ir::Value::none();
}

InferArg InferArg::constant(ValuePtr v) {
    auto a = abstractOfValue(v);
    return InferArg{std::move(a), std::move(v)};
}

// ---- OpDef and contexts ---------------------------------------------------------------------

const ArgSpec* OpDef::findAttr(std::string_view attrName) const {
    for (const auto& a : attrs) {
        if (a.name == attrName) {
            return &a;
        }
    }
    return nullptr;
}

std::size_t OpDef::requiredInputs() const {
    std::size_t n = 0;
    for (const auto& in : inputs) {
        n += in.required() ? 1 : 0;
    }
    return n;
}

bool OpDef::writesInput(std::size_t i) const {
    return sideEffectMem && std::find(writes.begin(), writes.end(), i) != writes.end();
}

namespace {

ValuePtr attrOrDefault(const OpDef& op, const ir::AttrMap& attrs, std::string_view name) {
    if (auto v = attrs.get(name)) {
        return v;
    }
    const ArgSpec* spec = op.findAttr(name);
    return spec ? spec->defaultValue : nullptr;
}

ValuePtr inputDefault(const OpDef& op, std::size_t i) {
    if (i < op.inputs.size() && !op.inputs[i].variadic) {
        return op.inputs[i].defaultValue;
    }
    return nullptr;
}

}  // namespace

const std::string& InferContext::name() const {
    return op_.name;
}

ValuePtr InferContext::attr(std::string_view name) const {
    return attrOrDefault(op_, attrs_, name);
}

InferArg InferContext::arg(std::size_t i) const {
    if (i < args_.size()) {
        return args_[i];
    }
    if (auto d = inputDefault(op_, i)) {
        return InferArg::constant(d);
    }
    return InferArg{};
}

AbstractPtr InferContext::abs(std::size_t i) const {
    return arg(i).abs;
}

const std::string& KernelContext::name() const {
    return op_.name;
}

ValuePtr KernelContext::attr(std::string_view name) const {
    return attrOrDefault(op_, attrs_, name);
}

KernelArg KernelContext::input(std::size_t i) const {
    if (i < inputs_.size()) {
        return inputs_[i];
    }
    return kernelArgFromValue(inputDefault(op_, i));
}

ir::Tensor KernelContext::tensor(std::size_t i) const {
    KernelArg a = input(i);
    if (a.isTensor()) {
        return a.tensor();
    }
    if (a.isValue() && a.value()) {
        const auto& v = *a.value();
        if (v.kind == ir::Value::Kind::Int || v.kind == ir::Value::Kind::Float) {
            return tensorAs(op_.name, a, v.dtype);
        }
        if (v.kind == ir::Value::Kind::Bool) {
            return tensorAs(op_.name, a, DType::Bool);
        }
        if (v.kind == ir::Value::Kind::Tensor) {
            return tensorFromValue(a.value());
        }
    }
    const std::string argName = i < op_.inputs.size() ? op_.inputs[i].name : std::to_string(i);
    typeError(op_.name, "the input '" + argName + "' must be a Tensor.");
}

// ---- the registry ------------------------------------------------------------------------------

OpRegistry::OpRegistry() {
    registerMathOps(*this);
    registerElementwiseMathOps(*this);
    registerCompareOps(*this);
    registerMatMulOps(*this);
    registerReduceOps(*this);
    registerArrayOps(*this);
    registerIndexOps(*this);
    registerFillOps(*this);
    registerNnOps(*this);
    registerStateOps(*this);
    registerOptimizerOps(*this);
    registerStructuralOps(*this);
    registerScalarOps(*this);
    registerConvOps(*this);
    registerBinaryMathOps(*this);
    registerAxisOps(*this);
    registerArrayMoreOps(*this);
    registerNnMoreOps(*this);
    registerScatterOps(*this);
    registerSegmentOps(*this);
    registerNnLossOps(*this);
    registerNnActivationOps(*this);
    registerPadOps(*this);
    registerSelectOps(*this);
    registerComplexOps(*this);
    registerBprops(*this);
    indexSpellings();
}

const OpRegistry& OpRegistry::instance() {
    static const OpRegistry registry;
    return registry;
}

OpDef& OpRegistry::add(OpDef def) {
    ops_.push_back(std::make_unique<OpDef>(std::move(def)));
    OpDef& d = *ops_.back();
    byName_[d.name] = &d;
    return d;
}

void OpRegistry::indexSpellings() {
    bySpelling_.clear();
    for (const auto& op : ops_) {
        for (const auto& s : op->spellings) {
            bySpelling_.emplace(s.text, SpellingRef{op.get(), &s});  // first one wins
        }
    }
}

const OpDef* OpRegistry::find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
}

std::optional<SpellingRef> OpRegistry::findSpelling(std::string_view text) const {
    std::string s(text);
    auto replacePrefix = [&s](std::string_view from, std::string_view to) {
        if (s.rfind(from, 0) == 0) {
            s = std::string(to) + s.substr(from.size());
            return true;
        }
        return false;
    };
    replacePrefix("mindspore.", "") || replacePrefix("ms.", "");
    replacePrefix("ops.operations._grad_ops.", "G.") || replacePrefix("ops.operations.", "P.") ||
        replacePrefix("ops.functional.", "F.") ||
        replacePrefix("common.tensor.Tensor.", "Tensor.") || replacePrefix("ops.function.", "ops.");
    auto lookup = [this](const std::string& key) -> std::optional<SpellingRef> {
        auto it = bySpelling_.find(key);
        if (it == bySpelling_.end()) {
            return std::nullopt;
        }
        return it->second;
    };
    if (auto r = lookup(s)) {
        return r;
    }
    // The functional module and the operations module re-export most of ops.*.
    std::string alt = s;
    if (s.rfind("F.", 0) == 0 || s.rfind("P.", 0) == 0) {
        alt = "ops." + s.substr(2);
    }
    if (alt != s) {
        return lookup(alt);
    }
    return std::nullopt;
}

namespace {

void checkArity(const OpDef& op, std::size_t given) {
    bool variadic = false;
    for (const auto& in : op.inputs) {
        variadic = variadic || in.variadic;
    }
    const std::size_t minInputs = op.requiredInputs();
    const std::size_t maxInputs = op.inputs.size();
    if (given >= minInputs && (variadic || given <= maxInputs)) {
        return;
    }
    std::string expected;
    if (variadic) {
        expected = "at least " + std::to_string(minInputs);
    } else if (minInputs == maxInputs) {
        expected = std::to_string(minInputs);
    } else {
        expected = "between " + std::to_string(minInputs) + " and " + std::to_string(maxInputs);
    }
    typeError(op.name, "the number of inputs must be " + expected + ", but got " +
                           std::to_string(given) + ".");
}

bool foldableAbstract(const AbstractPtr& a) {
    if (!a) {
        return false;
    }
    switch (a->kind) {
        case ir::Abstract::Kind::Tensor:
            return a->shape.isStatic() && a->shape.elementCount() <= kMaxFoldElements;
        case ir::Abstract::Kind::Scalar:
            return true;
        case ir::Abstract::Kind::Tuple:
            for (const auto& e : a->elements) {
                if (!foldableAbstract(e)) {
                    return false;
                }
            }
            return true;
        default:
            return false;
    }
}

bool knownConstant(const ValuePtr& v) {
    if (!v) {
        return false;
    }
    switch (v->kind) {
        case ir::Value::Kind::Tensor:
            return v->tensor->hasData();
        case ir::Value::Kind::Monad:
        case ir::Value::Kind::Opaque:
        case ir::Value::Kind::Host:
        case ir::Value::Kind::Graph:
        case ir::Value::Kind::Primitive:
            return false;
        case ir::Value::Kind::Tuple:
        case ir::Value::Kind::List:
            for (const auto& e : v->elements) {
                if (!knownConstant(e)) {
                    return false;
                }
            }
            return true;
        default:
            return true;
    }
}

AbstractPtr markKnown(const AbstractPtr& a) {
    if (a && a->kind == ir::Abstract::Kind::Tuple) {
        std::vector<AbstractPtr> elems;
        for (const auto& e : a->elements) {
            elems.push_back(markKnown(e));
        }
        return ir::Abstract::tuple(std::move(elems));
    }
    return withValueKnown(a);
}

}  // namespace

InferResult OpRegistry::infer(const OpDef& op, const ir::AttrMap& attrs,
                              std::span<const InferArg> args) const {
    checkArity(op, args.size());
    std::vector<InferArg> fixed(args.begin(), args.end());
    for (auto& a : fixed) {
        if (!a.abs && a.value) {
            a.abs = abstractOfValue(a.value);
        }
        if (!a.abs) {
            typeError(op.name, "an input has no abstract (type and shape).");
        }
    }
    InferContext ctx(op, attrs, fixed);
    InferResult r = op.infer(ctx);
    if (r.constant || !op.foldable || !op.cpuKernel || !foldableAbstract(r.abs)) {
        return r;
    }
    std::size_t n = fixed.size();
    for (std::size_t i = n; i < op.inputs.size() && inputDefault(op, i); ++i) {
        n = i + 1;
    }
    std::vector<KernelArg> kargs;
    for (std::size_t i = 0; i < n; ++i) {
        const InferArg a = ctx.arg(i);
        if (!knownConstant(a.value)) {
            return r;
        }
        kargs.push_back(kernelArgFromValue(a.value));
    }
    KernelContext kctx(op, attrs, kargs);
    r.constant = valueFromKernelArg(op.cpuKernel(kctx));
    r.abs = markKnown(r.abs);
    return r;
}

InferResult OpRegistry::infer(std::string_view name, std::span<const InferArg> args,
                              const ir::AttrMap& attrs) const {
    const OpDef* op = find(name);
    if (!op) {
        fail(ErrorKind::RuntimeError, "Unknown primitive '" + std::string(name) + "'.");
    }
    return infer(*op, attrs, args);
}

KernelArg OpRegistry::run(const OpDef& op, const ir::AttrMap& attrs,
                          std::span<const KernelArg> inputs, bool training) const {
    if (!op.cpuKernel) {
        fail(ErrorKind::RuntimeError, "For '" + op.name +
                                          "', there is no CPU kernel: the executor handles "
                                          "this primitive itself.");
    }
    checkArity(op, inputs.size());
    KernelContext ctx(op, attrs, inputs, training);
    return op.cpuKernel(ctx);
}

KernelArg OpRegistry::run(std::string_view name, std::span<const KernelArg> inputs,
                          const ir::AttrMap& attrs) const {
    const OpDef* op = find(name);
    if (!op) {
        fail(ErrorKind::RuntimeError, "Unknown primitive '" + std::string(name) + "'.");
    }
    return run(*op, attrs, inputs);
}

}  // namespace irscope::ops
