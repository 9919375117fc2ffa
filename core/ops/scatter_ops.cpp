// Scatter primitives. The Parameter-writing family (ScatterAdd ... ScatterDiv on the rows of
// input_x named by indices, ScatterNdAdd/Sub/Update on index tuples) updates its first input in
// place, as MindSpore's RW signature does (OpDef::writes, ordered on the U monad like Assign),
// and returns it. The pure forms return a new tensor: TensorScatterAdd ... TensorScatterMin and
// InplaceAdd/Sub/Update (rows named by an attribute).
#include <algorithm>
#include <cmath>
#include <tuple>

#include "ops/bprop.h"
#include "ops/infer_util.h"
#include "ops/kernel_util.h"
#include "ops/op_families.h"

namespace irscope::ops {

namespace {

enum class Rule : std::uint8_t { Update, Add, Sub, Mul, Div, Max, Min };

double apply(Rule r, double old, double u, bool integral) {
    switch (r) {
        case Rule::Update:
            return u;
        case Rule::Add:
            return old + u;
        case Rule::Sub:
            return old - u;
        case Rule::Mul:
            return old * u;
        case Rule::Div:
            if (integral) {
                return u == 0 ? 0.0 : std::trunc(old / u);
            }
            return old / u;
        case Rule::Max:
            return std::max(old, u);
        case Rule::Min:
            return std::min(old, u);
    }
    return u;
}

void requireIndices(std::string_view op, DType t) {
    if (t != DType::Int32 && t != DType::Int64) {
        typeError(op, "the type of 'indices' must be Tensor[Int32, Int64], but got Tensor[" +
                          typeStr(t) + "].");
    }
}

void requireSameType(std::string_view op, const AbstractPtr& x, const AbstractPtr& u) {
    if (u->dtype != x->dtype) {
        typeError(op, "the dtype of 'updates' must be the same as 'input_x', but got 'input_x': " +
                          typeStr(x) + ", 'updates': " + typeStr(u) + ".");
    }
}

// Where each update block goes: flat offsets of the blocks and their size.
struct Plan {
    std::vector<std::size_t> offsets;
    std::size_t block = 1;
};

// ScatterAdd ...: indices address rows (axis 0); updates.shape = indices.shape + x.shape[1:].
Shape rowUpdatesShape(const Shape& x, const Shape& indices) {
    Shape s = indices;
    s.dims.insert(s.dims.end(), x.dims.begin() + 1, x.dims.end());
    return s;
}

// ScatterNdAdd, TensorScatterAdd ...: indices.shape[-1] indexes x's leading dims;
// updates.shape = indices.shape[:-1] + x.shape[indices.shape[-1]:].
Shape ndUpdatesShape(const Shape& x, const Shape& indices) {
    Shape s(std::vector<std::int64_t>(indices.dims.begin(), indices.dims.end() - 1));
    const auto depth = static_cast<std::ptrdiff_t>(indices.dims.back());
    s.dims.insert(s.dims.end(), x.dims.begin() + depth, x.dims.end());
    return s;
}

void checkUpdatesShape(std::string_view op, const Shape& x, const Shape& indices,
                       const Shape& updates, bool nd) {
    if (x.dynamicRank || indices.dynamicRank || updates.dynamicRank || !x.isStatic() ||
        !indices.isStatic() || !updates.isStatic()) {
        return;
    }
    if (nd) {
        if (indices.rank() == 0) {
            valueError(op, "the dimension of 'indices' must be at least 1, but got " +
                               std::to_string(indices.rank()) + ".");
        }
        if (indices.dims.back() > static_cast<std::int64_t>(x.rank())) {
            valueError(op,
                       "the last dimension of 'indices' must be less than or equal to the rank "
                       "of 'input_x', but got the last dimension of 'indices': " +
                           std::to_string(indices.dims.back()) +
                           ", the rank of 'input_x': " + std::to_string(x.rank()) + ".");
        }
        const Shape want = ndUpdatesShape(x, indices);
        if (want != updates) {
            valueError(op,
                       "the shape of 'updates' must be equal to indices.shape[:-1] + "
                       "input_x.shape[indices.shape[-1]:], but got the shape of 'updates': " +
                           shapeStr(updates) + ", the shape of 'indices': " + shapeStr(indices) +
                           ", the shape of 'input_x': " + shapeStr(x) + ".");
        }
        return;
    }
    if (x.rank() == 0) {
        valueError(op, "the rank of 'input_x' must be at least 1, but got 0.");
    }
    const Shape want = rowUpdatesShape(x, indices);
    if (want != updates) {
        valueError(op,
                   "the shape of 'updates' must be equal to indices.shape + input_x.shape[1:], "
                   "but got the shape of 'updates': " +
                       shapeStr(updates) + ", the shape of 'indices': " + shapeStr(indices) +
                       ", the shape of 'input_x': " + shapeStr(x) + ".");
    }
}

Plan rowPlan(std::string_view op, const Shape& x, const Tensor& indices) {
    Plan p;
    for (std::size_t d = 1; d < x.rank(); ++d) {
        p.block *= static_cast<std::size_t>(x.dims[d]);
    }
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const std::int64_t i = indices.getInt(k);
        if (i < 0 || i >= x.dims[0]) {
            fail(ErrorKind::RuntimeError,
                 "For '" + std::string(op) + "', the value of 'indices' must be in range [0, " +
                     std::to_string(x.dims[0]) + "), but got " + std::to_string(i) + ".");
        }
        p.offsets.push_back(static_cast<std::size_t>(i) * p.block);
    }
    return p;
}

// ScatterNdUpdate's CPU kernel bounds only the flat offset of each slice (an index past its
// own axis that still lands inside input_x writes there) and reports a bad index tuple as a
// logged error followed by "Some errors occurred!".
[[noreturn]] void flatIndexError(const std::string& what) {
    fail(ErrorKind::RuntimeError, what + "\nSome errors occurred! The error message is as above");
}

Plan flatNdPlan(std::string_view op, const Shape& x, const Tensor& indices, std::size_t depth,
                Plan p) {
    const auto st = strides(x);
    const std::size_t total = static_cast<std::size_t>(x.elementCount());
    const std::size_t n = depth == 0 ? 0 : indices.size() / depth;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t off = 0;
        std::string tuple;
        for (std::size_t j = 0; j < depth; ++j) {
            const std::int64_t i = indices.getInt(k * depth + j);
            if (i < 0) {
                flatIndexError(
                    "For '" + std::string(op) +
                    "', each element in 'indices' must be greater than or equal to 0, but got " +
                    std::to_string(i));
            }
            tuple += (j == 0 ? "" : ", ") + std::to_string(i);
            off += static_cast<std::size_t>(i) * st[j];
        }
        if (off + p.block > total) {
            flatIndexError(
                "For '" + std::string(op) +
                "', indices out of range for input_x. Please check the indices which is [" + tuple +
                "]");
        }
        p.offsets.push_back(off);
    }
    return p;
}

Plan ndPlan(std::string_view op, const Shape& x, const Tensor& indices, bool flatBound = false) {
    if (indices.rank() == 0) {
        valueError(op, "the dimension of 'indices' must be at least 1, but got 0.");
    }
    const auto depth = static_cast<std::size_t>(indices.shape().dims.back());
    if (depth > x.rank()) {
        valueError(op,
                   "the last dimension of 'indices' must be less than or equal to the rank of "
                   "'input_x', but got the last dimension of 'indices': " +
                       std::to_string(depth) +
                       ", the rank of 'input_x': " + std::to_string(x.rank()) + ".");
    }
    Plan p;
    for (std::size_t d = depth; d < x.rank(); ++d) {
        p.block *= static_cast<std::size_t>(x.dims[d]);
    }
    if (flatBound) {
        return flatNdPlan(op, x, indices, depth, std::move(p));
    }
    const auto st = strides(x);
    const std::size_t n = depth == 0 ? 0 : indices.size() / depth;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t off = 0;
        for (std::size_t j = 0; j < depth; ++j) {
            const std::int64_t i = indices.getInt(k * depth + j);
            if (i < 0 || i >= x.dims[j]) {
                fail(ErrorKind::RuntimeError,
                     "For '" + std::string(op) + "', the " + std::to_string(k) +
                         "th element of 'indices' is out of bounds: index " + std::to_string(i) +
                         " is not in range [0, " + std::to_string(x.dims[j]) + ").");
            }
            off += static_cast<std::size_t>(i) * st[j];
        }
        p.offsets.push_back(off);
    }
    return p;
}

// Applies `rule` to `out` at the plan's blocks, in index order (a repeated index sees the
// updates one after the other).
void scatter(Rule rule, Tensor& out, const Plan& p, const Tensor& updates) {
    const Tensor u = updates.dtype() == out.dtype() ? updates : updates.cast(out.dtype());
    const bool integral = !ir::isFloat(out.dtype());
    const bool copy = rule == Rule::Update;
    const std::size_t w = ir::dtypeSize(out.dtype());
    for (std::size_t k = 0; k < p.offsets.size(); ++k) {
        if (copy) {
            std::copy_n(u.bytes() + k * p.block * w, p.block * w, out.bytes() + p.offsets[k] * w);
            continue;
        }
        for (std::size_t e = 0; e < p.block; ++e) {
            const std::size_t at = p.offsets[k] + e;
            out.setDouble(at,
                          apply(rule, out.getDouble(at), u.getDouble(k * p.block + e), integral));
        }
    }
}

InferResult inferScatter(const InferContext& c, bool nd) {
    const AbstractPtr x = tensorInput(c, 0, "input_x");
    const AbstractPtr idx = tensorInput(c, 1, "indices");
    requireIndices(c.name(), idx->dtype);
    const AbstractPtr u = tensorInput(c, 2, "updates");
    requireSameType(c.name(), x, u);
    checkUpdatesShape(c.name(), x->shape, idx->shape, u->shape, nd);
    return {ir::Abstract::tensor(x->dtype, x->shape), nullptr};
}

// inPlace: input_x is the Parameter itself (written); otherwise a copy is returned.
KernelArg runScatter(const KernelContext& c, Rule rule, bool nd, bool inPlace) {
    KernelArg xa = c.input(0);
    if (inPlace && !xa.isTensor()) {
        typeError(c.name(), "the 'input_x' must be a Parameter's tensor, not a constant.");
    }
    Tensor x = inPlace ? xa.tensor() : c.tensor(0).clone();
    const Tensor idx = c.tensor(1);
    requireIndices(c.name(), idx.dtype());
    const Tensor u = c.tensor(2);
    checkUpdatesShape(c.name(), x.shape(), idx.shape(), u.shape(), nd);
    const Plan p = nd ? ndPlan(c.name(), x.shape(), idx, rule == Rule::Update && inPlace)
                      : rowPlan(c.name(), x.shape(), idx);
    scatter(rule, x, p, u);
    return KernelArg(x);
}

struct ScatterSpec {
    const char* name;
    Rule rule;
    const char* function;  // ops.<f> / F.<f>, or nullptr
    const char* summary;
};

OpDef scatterDef(const ScatterSpec& s, bool nd, bool inPlace) {
    OpDef d{.name = s.name, .family = "array", .summary = s.summary};
    d.inputs = {argIn("input_x"), argIn("indices"), argIn("updates")};
    if (inPlace) {
        d.sideEffectMem = true;
        d.writes = {0};
        d.foldable = false;
        d.attrs = {argDefault("use_locking", ArgKind::Bool, vBool(false))};
        d.inputs.push_back(argMonad("u"));
    }
    d.infer = [nd](const InferContext& c) { return inferScatter(c, nd); };
    d.cpuKernel = [rule = s.rule, nd, inPlace](const KernelContext& c) {
        return runScatter(c, rule, nd, inPlace);
    };
    addClassSpellings(d);
    if (s.function) {
        addFunction(d, {"ops", "F"}, s.function,
                    {toInput("input_x", 0), toInput("indices", 1), toInput("updates", 2)});
    }
    return d;
}

// ---- InplaceAdd / InplaceSub / InplaceUpdate -------------------------------------------------

std::vector<std::int64_t> inplaceIndices(std::string_view op, const ValuePtr& v) {
    if (const auto one = v ? intOf(v) : std::nullopt; one && v->kind != ir::Value::Kind::Tuple) {
        return {*one};
    }
    const auto list = v ? intsOf(v) : std::nullopt;
    if (!list) {
        typeError(op, "the 'indices' must be an int or a tuple of ints.");
    }
    return *list;
}

void checkInplace(std::string_view op, const Shape& x, const Shape& v,
                  const std::vector<std::int64_t>& indices) {
    if (x.dynamicRank || v.dynamicRank) {
        return;
    }
    if (x.rank() != v.rank()) {
        valueError(op, "the rank of 'v' must be equal to the rank of 'x', but got 'v' rank: " +
                           std::to_string(v.rank()) + ", 'x' rank: " + std::to_string(x.rank()) +
                           ".");
    }
    if (v.rank() > 0 && v.dims[0] >= 0 && v.dims[0] != static_cast<std::int64_t>(indices.size())) {
        valueError(op,
                   "the size of 'indices' must be equal to the first dimension of 'v', but got "
                   "the size of 'indices': " +
                       std::to_string(indices.size()) +
                       ", the first dimension of 'v': " + std::to_string(v.dims[0]) + ".");
    }
    for (std::size_t d = 1; d < x.rank(); ++d) {
        if (x.dims[d] >= 0 && v.dims[d] >= 0 && x.dims[d] != v.dims[d]) {
            valueError(op,
                       "the shape of 'v' must be the same as 'x' except the first dimension, "
                       "but got 'v' shape: " +
                           shapeStr(v) + ", 'x' shape: " + shapeStr(x) + ".");
        }
    }
    for (std::int64_t i : indices) {
        if (x.rank() > 0 && x.dims[0] >= 0 && (i < 0 || i >= x.dims[0])) {
            valueError(op, "the value of 'indices' must be in range [0, " +
                               std::to_string(x.dims[0]) + "), but got " + std::to_string(i) + ".");
        }
    }
}

OpDef inplaceDef(const char* name, Rule rule, const char* summary) {
    OpDef d{.name = name, .family = "array", .summary = summary};
    d.attrs = {argIn("indices", ArgKind::IntOrTuple)};
    d.inputs = {argIn("x"), argIn(rule == Rule::Update ? "v" : "input_v")};
    d.infer = [](const InferContext& c) {
        const AbstractPtr x = tensorInput(c, 0, "x");
        const AbstractPtr v = tensorInput(c, 1, "v");
        if (v->dtype != x->dtype) {
            typeError(c.name(), "the dtype of 'v' must be the same as 'x', but got 'x': " +
                                    typeStr(x) + ", 'v': " + typeStr(v) + ".");
        }
        checkInplace(c.name(), x->shape, v->shape, inplaceIndices(c.name(), c.attr("indices")));
        return InferResult{ir::Abstract::tensor(x->dtype, x->shape), nullptr};
    };
    d.cpuKernel = [rule](const KernelContext& c) {
        Tensor x = c.tensor(0).clone();
        const Tensor v = c.tensor(1);
        const auto indices = inplaceIndices(c.name(), c.attr("indices"));
        checkInplace(c.name(), x.shape(), v.shape(), indices);
        Plan p;
        for (std::size_t dd = 1; dd < x.rank(); ++dd) {
            p.block *= static_cast<std::size_t>(x.shape().dims[dd]);
        }
        for (std::int64_t i : indices) {
            p.offsets.push_back(static_cast<std::size_t>(i) * p.block);
        }
        scatter(rule, x, p, v);
        return KernelArg(x);
    };
    addClassSpellings(d);
    return d;
}

// TensorScatterAdd: x's gradient is dout, the updates' the dout slices they landed on.
void registerScatterBprops(OpRegistry& reg) {
    setBprop(reg, "TensorScatterAdd", [](BpropContext& c) {
        if (c.needsGrad(0)) {
            c.setGrad(0, c.dout());
        }
        if (c.needsGrad(2)) {
            c.setGrad(2, c.emit("GatherNd", {c.dout(), c.input(1)}));
        }
    });
}

}  // namespace

void registerScatterOps(OpRegistry& reg) {
    static const ScatterSpec rows[] = {
        {"ScatterUpdate", Rule::Update, "scatter_update",
         "rows of a Parameter replaced by updates"},
        {"ScatterAdd", Rule::Add, "scatter_add", "updates added to rows of a Parameter"},
        {"ScatterSub", Rule::Sub, nullptr, "updates subtracted from rows of a Parameter"},
        {"ScatterMul", Rule::Mul, "scatter_mul", "rows of a Parameter multiplied by updates"},
        {"ScatterDiv", Rule::Div, "scatter_div", "rows of a Parameter divided by updates"},
        {"ScatterMax", Rule::Max, "scatter_max", "rows of a Parameter: the maximum with updates"},
        {"ScatterMin", Rule::Min, "scatter_min", "rows of a Parameter: the minimum with updates"},
    };
    for (const ScatterSpec& s : rows) {
        reg.add(scatterDef(s, false, true));
    }
    static const ScatterSpec nd[] = {
        {"ScatterNdUpdate", Rule::Update, "scatter_nd_update",
         "slices of a Parameter at index tuples replaced by updates"},
        {"ScatterNdAdd", Rule::Add, "scatter_nd_add",
         "updates added to a Parameter at index tuples"},
        {"ScatterNdSub", Rule::Sub, "scatter_nd_sub",
         "updates subtracted from a Parameter at index tuples"},
        {"ScatterNdMul", Rule::Mul, "scatter_nd_mul",
         "a Parameter multiplied by updates at index tuples"},
        {"ScatterNdDiv", Rule::Div, "scatter_nd_div",
         "a Parameter divided by updates at index tuples"},
        {"ScatterNdMax", Rule::Max, "scatter_nd_max",
         "a Parameter: the maximum with updates at index tuples"},
        {"ScatterNdMin", Rule::Min, "scatter_nd_min",
         "a Parameter: the minimum with updates at index tuples"},
        {"ScatterNonAliasingAdd", Rule::Add, nullptr,
         "updates added to a Parameter at index tuples (returned as well)"},
    };
    for (const ScatterSpec& s : nd) {
        reg.add(scatterDef(s, true, true));
    }
    static const ScatterSpec tensor[] = {
        {"TensorScatterAdd", Rule::Add, "tensor_scatter_add",
         "a copy of x with updates added at index tuples"},
        {"TensorScatterSub", Rule::Sub, "tensor_scatter_sub",
         "a copy of x with updates subtracted at index tuples"},
        {"TensorScatterMul", Rule::Mul, "tensor_scatter_mul",
         "a copy of x multiplied by updates at index tuples"},
        {"TensorScatterDiv", Rule::Div, "tensor_scatter_div",
         "a copy of x divided by updates at index tuples"},
        {"TensorScatterMax", Rule::Max, "tensor_scatter_max",
         "a copy of x: the maximum with updates at index tuples"},
        {"TensorScatterMin", Rule::Min, "tensor_scatter_min",
         "a copy of x: the minimum with updates at index tuples"},
    };
    for (const ScatterSpec& s : tensor) {
        OpDef d = scatterDef(s, true, false);
        const std::string method = std::string("scatter_") + (s.function + 15);
        addMethod(d, method, {toInput("indices", 1), toInput("updates", 2)});
        reg.add(std::move(d));
    }
    // ops.inplace_add(x, v, indices) and the others: the rows as the third argument.
    for (const auto& [name, rule, summary, function] :
         {std::tuple{"InplaceAdd", Rule::Add, "rows of x (attribute indices) plus v",
                     "inplace_add"},
          std::tuple{"InplaceSub", Rule::Sub, "rows of x (attribute indices) minus v",
                     "inplace_sub"},
          std::tuple{"InplaceUpdate", Rule::Update, "rows of x (attribute indices) set to v",
                     "inplace_update"}}) {
        OpDef d = inplaceDef(name, rule, summary);
        addFunction(d, {"ops", "F"}, function,
                    {toInput("x", 0), toInput("v", 1), toAttr("indices", "indices")});
        reg.add(std::move(d));
    }
    registerScatterBprops(reg);
}

}  // namespace irscope::ops
