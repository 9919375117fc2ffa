// Higher-order meta operations: MultitypeFuncGraph dispatch, hyper_map / map and vmap. Each
// turns into ordinary calls (then specialized like any call) plus MakeTuple/Stack.
//
// vmap(fn, args...) (attrs in_axes, out_axes): when fn is a graph made only of elementwise
// primitives, every mapped argument is mapped on axis 0, out_axes is 0 and no unmapped
// argument is a tensor, fn's graph runs once on the whole batch (MindSpore's vmap yields
// batched ops, not a loop). Otherwise the call is unrolled: fn runs on each slice (Gather of
// one index along the mapped axis) and the results are stacked on out_axes.
#include <algorithm>
#include <map>
#include <set>

#include "ops/infer_util.h"
#include "passes/meta_ops.h"
#include "passes/type_inference_meta.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::CNode;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

std::vector<ir::Node*> nodesOf(const std::vector<Arg>& args) {
    std::vector<ir::Node*> n;
    for (const Arg& a : args) {
        n.push_back(a.node);
    }
    return n;
}

// Whether an argument matches a MultitypeFuncGraph signature entry.
bool matchesType(const std::string& t, const Arg& a) {
    if (t == "Number") {
        return isNumber(a);
    }
    if (t == "Function" || t == "Func") {
        return a.fn != nullptr;
    }
    static const std::map<std::string_view, PyKind> kSignatureTypes{
        {"Tensor", PyKind::Tensor}, {"Bool", PyKind::Bool},   {"Int", PyKind::Int},
        {"Float", PyKind::Float},   {"String", PyKind::Str},  {"Tuple", PyKind::Tuple},
        {"List", PyKind::List},     {"None", PyKind::None}};
    if (const auto it = kSignatureTypes.find(t); it != kSignatureTypes.end()) {
        return pyKindOf(a) == it->second;
    }
    if (auto d = ir::dtypeFromName(t)) {
        return a.abs && a.abs->kind == Abstract::Kind::Scalar && a.abs->dtype == *d;
    }
    return false;
}

Arg multitype(Engine& e, CNode* c, const ValuePtr& primValue, const std::vector<Arg>& args) {
    const ir::AttrMap& attrs = primValue->prim->attrs;
    const ValuePtr nameV = attrs.get("name");
    const std::string name = nameV && nameV->kind == Value::Kind::String ? nameV->text : "?";
    const ValuePtr sigs = attrs.get("signatures");
    const ValuePtr graphs = attrs.get("graphs");
    if (!sigs || !graphs || sigs->elements.size() != graphs->elements.size()) {
        e.error(c, "RuntimeError",
                "irscope: the MultitypeFuncGraph '" + name + "' has no signatures/graphs attrs.");
    }
    for (std::size_t i = 0; i < sigs->elements.size(); ++i) {
        const auto& sig = sigs->elements[i]->elements;
        if (sig.size() != args.size()) {
            continue;
        }
        bool ok = true;
        for (std::size_t k = 0; k < sig.size() && ok; ++k) {
            ok = matchesType(sig[k]->text, args[k]);
        }
        if (ok) {
            ir::Node* g = e.valueNode(c->graph(), graphs->elements[i]);
            return e.replace(c, e.emitCall(c, g, nodesOf(args)));
        }
    }
    std::string got, supported;
    for (std::size_t k = 0; k < args.size(); ++k) {
        got += (k ? ", " : "") + typeName(args[k]);
    }
    for (std::size_t i = 0; i < sigs->elements.size(); ++i) {
        std::string s;
        for (const auto& t : sigs->elements[i]->elements) {
            s += (s.empty() ? "" : ", ") + t->text;
        }
        supported += (i ? ", [" : "[") + s + "]";
    }
    e.error(c, "TypeError",
            "The '" + name + "' operation does not support the type [" + got +
                "].\nThe supported types of overload function `" + name + "` is: " + supported +
                ".");
}

Arg mapOver(Engine& e, CNode* c, const Arg& fn, const std::vector<Arg>& seqs, bool recurse,
            std::string_view opName) {
    const bool anySeq = std::any_of(seqs.begin(), seqs.end(), isSeq);
    if (!anySeq || (!recurse && false)) {
        return e.emitCall(c, fn.node, nodesOf(seqs));
    }
    std::size_t n = 0;
    bool first = true;
    for (const Arg& s : seqs) {
        if (!isSeq(s)) {
            e.error(c, "TypeError",
                    "For '" + std::string(opName) +
                        "', the arguments must all be tuples/lists or all be leaves, but got " +
                        typeName(s) + ".");
        }
        if (!first && s.abs->elements.size() != n) {
            e.error(c, "ValueError",
                    "For '" + std::string(opName) +
                        "', the length of the sequences must be the same, but got " +
                        std::to_string(n) + " and " + std::to_string(s.abs->elements.size()) + ".");
        }
        n = s.abs->elements.size();
        first = false;
    }
    std::vector<std::vector<Arg>> elems;
    for (const Arg& s : seqs) {
        elems.push_back(e.elementsOf(c, s));
    }
    std::vector<Arg> results;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Arg> row;
        for (const auto& el : elems) {
            row.push_back(el[i]);
        }
        results.push_back(recurse ? mapOver(e, c, fn, row, true, opName)
                                  : e.emitCall(c, fn.node, nodesOf(row)));
    }
    return e.makeTuple(c, results, seqs[0].abs->kind == Abstract::Kind::List);
}

// ---- vmap ----------------------------------------------------------------------------------

bool elementwiseGraph(const ir::FuncGraph* g) {
    static const std::set<std::string, std::less<>> ok = {
        "Add",       "Sub",        "Mul",          "RealDiv",    "Div",      "FloorDiv",
        "FloorMod",  "Mod",        "Pow",          "Maximum",    "Minimum",  "Neg",
        "Abs",       "Square",     "Exp",          "Log",        "Sqrt",     "ReLU",
        "Sigmoid",   "Tanh",       "GeLU",         "HSwish",     "Softplus", "Less",
        "LessEqual", "Greater",    "GreaterEqual", "Equal",      "NotEqual", "LogicalAnd",
        "LogicalOr", "LogicalXor", "LogicalNot", "Select",       "Cast",       "Return",   "add",
        "sub",       "mul",        "div",          "floordiv",   "mod",      "pow",
        "negative",  "positive",   "less",         "less_equal", "greater",  "greater_equal",
        "equal",     "not_equal"};
    for (const ir::CNode* n : g->topoOrder()) {
        const ir::PrimitiveData* p = n->primitive();
        if (!p || !ok.count(p->name)) {
            return false;
        }
    }
    return true;
}

Arg vmap(Engine& e, CNode* c, const ValuePtr& primValue, const std::vector<Arg>& all) {
    if (all.empty() || !all[0].fn) {
        e.error(c, "TypeError", "For 'vmap', the first argument must be a function.");
    }
    const Arg& fn = all[0];
    const std::vector<Arg> args(all.begin() + 1, all.end());
    const ValuePtr inAxes = primValue->prim->attrs.get("in_axes");
    const ValuePtr outAxesV = primValue->prim->attrs.get("out_axes");
    std::vector<std::optional<std::int64_t>> axes(args.size(), std::int64_t{0});
    if (inAxes && (inAxes->kind == Value::Kind::Tuple || inAxes->kind == Value::Kind::List)) {
        if (inAxes->elements.size() != args.size()) {
            e.error(c, "ValueError",
                    "The length of `in_axes` must be equal to the number of arguments, but got " +
                        std::to_string(inAxes->elements.size()) + " and " +
                        std::to_string(args.size()) + ".");
        }
        for (std::size_t i = 0; i < args.size(); ++i) {
            axes[i] = ops::intOf(inAxes->elements[i]);
        }
    } else if (inAxes && inAxes->kind == Value::Kind::None) {
        std::fill(axes.begin(), axes.end(), std::nullopt);
    } else if (inAxes) {
        std::fill(axes.begin(), axes.end(), ops::intOf(inAxes));
    }
    const std::int64_t outAxis = outAxesV ? ops::intOf(outAxesV).value_or(0) : 0;
    std::int64_t batch = -1;
    bool anyUnmappedTensor = false;
    bool allZero = true;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!axes[i]) {
            anyUnmappedTensor = anyUnmappedTensor || isTensor(args[i]);
            continue;
        }
        if (!isTensor(args[i]) || args[i].abs->shape.dynamicRank) {
            e.error(c, "ValueError",
                    "For 'vmap', a mapped argument must be a Tensor, but got " + typeName(args[i]) +
                        ".");
        }
        const auto rank = static_cast<std::int64_t>(args[i].abs->shape.rank());
        const std::int64_t ax = ops::normalizeAxis("vmap", "in_axes", *axes[i], rank);
        axes[i] = ax;
        allZero = allZero && ax == 0;
        const std::int64_t b = args[i].abs->shape.dims[static_cast<std::size_t>(ax)];
        if (batch >= 0 && b != batch) {
            e.error(c, "ValueError",
                    "The axis size of `in_axes` must be the same, but got " +
                        std::to_string(batch) + " and " + std::to_string(b) + ".");
        }
        batch = b;
    }
    if (batch < 0) {
        e.error(c, "ValueError", "For 'vmap', at least one argument must be mapped (in_axes).");
    }
    // Each row is a copy (Gather): a function that writes its mapped Parameter would write the
    // copies, and the Parameter would keep its values.
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (axes[i] && args[i].abs->kind == Abstract::Kind::Ref &&
            fn.fn->kind == FuncVal::Kind::Graph && reachesSideEffect(fn.fn->graph, false)) {
            e.error(c, "RuntimeError",
                    "irscope: vmap of a function that writes memory (Assign...) over a mapped "
                    "Parameter is not supported yet in graph mode.");
        }
    }
    if (fn.fn->kind == FuncVal::Kind::Graph && allZero && outAxis == 0 && !anyUnmappedTensor &&
        elementwiseGraph(fn.fn->graph)) {
        return e.replace(c, e.emitCall(c, fn.node, nodesOf(args)));
    }
    if (batch > 100000) {
        e.error(c, "ValueError", "irscope: vmap over more than 100000 elements is not unrolled.");
    }
    std::vector<Arg> results;
    for (std::int64_t b = 0; b < batch; ++b) {
        std::vector<Arg> row;
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (!axes[i]) {
                row.push_back(args[i]);
                continue;
            }
            Arg idx = e.emitConst(
                c, Value::tensorValue(ir::scalarTensor(ir::DType::Int64, static_cast<double>(b))));
            row.push_back(e.emitPrim(
                c, "Gather",
                {args[i].node, idx.node, e.emitConst(c, Value::integer(*axes[i])).node}));
        }
        results.push_back(e.emitCall(c, fn.node, nodesOf(row)));
    }
    ir::AttrMap attrs;
    attrs.set("axis", Value::integer(outAxis));
    if (results[0].abs && results[0].abs->kind == Abstract::Kind::Tuple) {
        std::vector<Arg> outs;
        for (std::size_t k = 0; k < results[0].abs->elements.size(); ++k) {
            std::vector<Arg> parts;
            for (const Arg& r : results) {
                parts.push_back(e.elementsOf(c, r)[k]);
            }
            outs.push_back(e.emitPrim(c, "Stack", {e.makeTuple(c, parts).node}, attrs));
        }
        return e.replace(c, e.makeTuple(c, outs));
    }
    return e.replace(c, e.emitPrim(c, "Stack", {e.makeTuple(c, results).node}, attrs));
}

}  // namespace

bool expandFnMeta(Engine& e, CNode* c, const ValuePtr& primValue, const std::vector<Arg>& args,
                  Arg& out) {
    const std::string& name = primValue->prim->name;
    if (name == meta::kMultitype) {
        out = multitype(e, c, primValue, args);
        return true;
    }
    if (name == meta::kHyperMap || name == meta::kMap) {
        if (args.empty() || !args[0].fn) {
            e.error(c, "TypeError", "For '" + name + "', the first argument must be a function.");
        }
        const std::vector<Arg> seqs(args.begin() + 1, args.end());
        out = e.replace(c, mapOver(e, c, args[0], seqs, name == meta::kHyperMap, name));
        return true;
    }
    if (name == meta::kVmap) {
        out = vmap(e, c, primValue, args);
        return true;
    }
    return false;
}

}  // namespace irscope::passes::infer
