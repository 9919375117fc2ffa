// Meta operations for Python's containers and builtins: indexing tuples/lists/strings, len,
// range, slices, isinstance, min/max/abs/sum, int/float/bool/tuple/list, zip, enumerate.
// Most only make sense on constants and fold; tuples of graph values become MakeTuple /
// TupleGetItem nodes.
#include <algorithm>
#include <functional>
#include <cmath>
#include <map>
#include <optional>

#include "ir/prim_names.h"
#include "ops/infer_util.h"
#include "passes/meta_ops.h"
#include "passes/type_inference_meta.h"
#include "util/py_text.h"

namespace irscope::passes::infer {

using ir::Abstract;
using ir::CNode;
using ir::Value;
using ir::ValuePtr;
namespace meta = passes::meta;

namespace {

std::int64_t normalizeIndex(Engine& e, const CNode* c, std::int64_t i, std::size_t size,
                            const char* what) {
    const auto n = static_cast<std::int64_t>(size);
    if (i < -n || i >= n) {
        e.error(c, "IndexError", std::string(what) + " index out of range");
    }
    return i < 0 ? i + n : i;
}

// Python's slice.indices(n).
std::vector<std::int64_t> sliceIndices(Engine& e, const CNode* c, const ValuePtr& s,
                                       std::int64_t n) {
    auto bound = [&](const ValuePtr& v,
                     std::optional<std::int64_t> d) -> std::optional<std::int64_t> {
        if (!v || v->kind == Value::Kind::None) {
            return d;
        }
        return ops::intOf(v);
    };
    const std::int64_t step = bound(s->elements.at(2), 1).value_or(1);
    if (step == 0) {
        e.error(c, "ValueError", "slice step cannot be zero");
    }
    auto clampB = [&](std::optional<std::int64_t> v, std::int64_t dflt) {
        if (!v) {
            return dflt;
        }
        std::int64_t x = *v;
        if (x < 0) {
            x += n;
            if (x < 0) {
                x = step < 0 ? -1 : 0;
            }
        } else if (x >= n) {
            x = step < 0 ? n - 1 : n;
        }
        return x;
    };
    const std::int64_t start = clampB(bound(s->elements.at(0), std::nullopt), step < 0 ? n - 1 : 0);
    const std::int64_t stop = clampB(bound(s->elements.at(1), std::nullopt), step < 0 ? -1 : n);
    std::vector<std::int64_t> out;
    for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        out.push_back(i);
    }
    return out;
}

// layers[index] with a tensor index (MindSpore's switch_layer): Switch(index == 0, layers[0],
// Switch(index == 1, layers[1], ...)), a function value a call calls with the layer chosen at
// run time; autodiff differentiates each layer as it does the branches of an if.
Arg switchLayer(Engine& e, CNode* c, const std::vector<Arg>& items, const Arg& idx) {
    const ir::Shape& shape = idx.abs->shape;
    if (!ir::isInteger(idx.abs->dtype) ||
        (shape.isStatic() && shape.elementCount() != 1)) {
        e.error(c, "TypeError",
                "The index of a tuple of Cells chosen at run time (switch_layer) must be an int "
                "tensor of one element, but got " + typeName(idx) + ".");
    }
    // k or, counting from the end as Python does, k - n.
    const auto n = static_cast<std::int64_t>(items.size());
    Arg chosen = items.back();
    for (std::int64_t k = n - 1; k-- > 0;) {
        const Arg at = e.emitConst(c, Value::integer(k));
        const Arg back = e.emitConst(c, Value::integer(k - n));
        const Arg cond = e.emitPrim(c, "LogicalOr", {e.emitPrim(c, "Equal", {idx.node, at.node}).node,
                                                     e.emitPrim(c, "Equal", {idx.node, back.node}).node});
        chosen = e.emitPrim(c, "Switch", {cond.node, items[static_cast<std::size_t>(k)].node, chosen.node});
    }
    return e.replace(c, chosen);
}

Arg getItem(Engine& e, CNode* c, const Arg& seq, const Arg& idx) {
    const ValuePtr vi = valueOf(idx);
    const ValuePtr vs = valueOf(seq);
    if (vs && vs->kind == Value::Kind::String && vi) {
        if (auto i = ops::intOf(vi); i && vi->kind != Value::Kind::Slice) {
            const auto k = normalizeIndex(e, c, *i, vs->text.size(), "string");
            return foldTo(e, c, Value::string(vs->text.substr(static_cast<std::size_t>(k), 1)));
        }
        if (vi->kind == Value::Kind::Slice) {
            std::string s;
            for (auto k : sliceIndices(e, c, vi, static_cast<std::int64_t>(vs->text.size()))) {
                s += vs->text[static_cast<std::size_t>(k)];
            }
            return foldTo(e, c, Value::string(s));
        }
    }
    if (!isSeq(seq)) {
        unsupportedTypes(e, c, meta::kGetItem, {seq, idx}, 0);
    }
    const bool list = seq.abs->kind == Abstract::Kind::List;
    const std::size_t size = seq.abs->elements.size();
    if (vi && vi->kind == Value::Kind::Slice) {
        const auto picks = sliceIndices(e, c, vi, static_cast<std::int64_t>(size));
        if (vs) {
            std::vector<ValuePtr> out;
            for (auto k : picks) {
                out.push_back(vs->elements[static_cast<std::size_t>(k)]);
            }
            return foldTo(e, c, list ? Value::list(out) : Value::tuple(out));
        }
        const std::vector<Arg> all = e.elementsOf(c, seq);
        std::vector<Arg> out;
        for (auto k : picks) {
            out.push_back(all[static_cast<std::size_t>(k)]);
        }
        return e.replace(c, e.makeTuple(c, out, list));
    }
    const auto i = vi && vi->kind != Value::Kind::Tensor ? ops::intOf(vi) : std::nullopt;
    if (!i && isTensor(idx)) {
        // A tuple or list of functions (Cells) indexed by a tensor: MindSpore's switch_layer.
        std::vector<Arg> items = e.elementsOf(c, seq);
        if (!items.empty() &&
            std::all_of(items.begin(), items.end(), [](const Arg& a) { return a.fn != nullptr; })) {
            return switchLayer(e, c, items, idx);
        }
    }
    if (!i) {
        e.error(c, "TypeError",
                "The index of a " + typeName(seq) + " must be a constant int or slice, but got " +
                    typeName(idx) + ".");
    }
    const auto k = normalizeIndex(e, c, *i, size, list ? "list" : "tuple");
    if (vs) {
        return foldTo(e, c, vs->elements[static_cast<std::size_t>(k)]);
    }
    if (auto* mk = ir::nodeCast<CNode>(seq.node); mk && mk->isPrimitive(ir::prim::kMakeTuple) &&
                                                  mk->graph() == c->graph() &&
                                                  mk->size() == size + 1) {
        return e.replace(c, e.argOf(mk->input(static_cast<std::size_t>(k) + 1)));
    }
    return callPrim(e, c, "TupleGetItem", {seq, e.emitConst(c, Value::integer(k))});
}

Arg setItem(Engine& e, CNode* c, const Arg& seq, const Arg& idx, const Arg& value) {
    const auto i = ops::intOf(valueOf(idx));
    if (!isSeq(seq) || !i) {
        unsupportedTypes(e, c, meta::kSetItem, {seq, idx, value}, isSeq(seq) ? 1 : 0);
    }
    std::vector<Arg> all = e.elementsOf(c, seq);
    all[static_cast<std::size_t>(normalizeIndex(e, c, *i, all.size(), "list assignment"))] = value;
    return e.replace(c, e.makeTuple(c, all, seq.abs->kind == Abstract::Kind::List));
}

Arg length(Engine& e, CNode* c, const Arg& a) {
    if (isSeq(a)) {
        return foldTo(e, c, Value::integer(static_cast<std::int64_t>(a.abs->elements.size())));
    }
    if (const ValuePtr v = valueOf(a); v && v->kind == Value::Kind::String) {
        return foldTo(e, c, Value::integer(static_cast<std::int64_t>(v->text.size())));
    }
    if (isTensor(a)) {
        if (a.abs->shape.rank() == 0 && !a.abs->shape.dynamicRank) {
            return foldTo(e, c, Value::integer(1));  // MindSpore's ArrayLen of a 0-d tensor
        }
        if (!a.abs->shape.dynamicRank && a.abs->shape.dims[0] >= 0) {
            return foldTo(e, c, Value::integer(a.abs->shape.dims[0]));
        }
    }
    e.error(c, "TypeError", "object of type '" + typeName(a) + "' has no len()");
}

Arg makeRange(Engine& e, CNode* c, const std::vector<Arg>& args) {
    std::vector<std::int64_t> v;
    for (const Arg& a : args) {
        const ValuePtr x = valueOf(a);
        if (!x || x->kind == Value::Kind::Float || !ops::intOf(x) || isTensor(a)) {
            e.error(c, "TypeError",
                    "The arguments of range() must be constant ints in graph mode, but got " +
                        typeName(a) + ".");
        }
        v.push_back(*ops::intOf(x));
    }
    if (v.empty() || v.size() > 3) {
        e.error(c, "TypeError", "range expected 1 to 3 arguments, got " + std::to_string(v.size()));
    }
    const std::int64_t start = v.size() == 1 ? 0 : v[0];
    const std::int64_t stop = v.size() == 1 ? v[0] : v[1];
    const std::int64_t step = v.size() == 3 ? v[2] : 1;
    if (step == 0) {
        e.error(c, "ValueError", "range() arg 3 must not be zero");
    }
    std::vector<ValuePtr> out;
    for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (out.size() >= 1'000'000) {
            e.error(c, "ValueError", "irscope: range() longer than 1000000 in a graph");
        }
        out.push_back(Value::integer(i));
    }
    return foldTo(e, c, Value::tuple(std::move(out)));
}

// loop_length(message, seq) or loop_length(message, start, stop, step): a counter loop's
// number of iterations, which must be a constant here (the loop unrolls).
Arg loopLength(Engine& e, CNode* c, const std::vector<Arg>& args) {
    const ValuePtr message = args.empty() ? nullptr : valueOf(args[0]);
    if (!message || message->kind != Value::Kind::String || (args.size() != 2 && args.size() != 4)) {
        e.error(c, "TypeError", "'loop_length' takes a message and a sequence or range bounds.");
    }
    auto unknown = [&]() { e.error(c, "RuntimeError", message->text); };
    if (args.size() == 2) {
        const Arg& seq = args[1];
        if (isTensor(seq) && !seq.abs->shape.dynamicRank && seq.abs->shape.rank() == 0) {
            e.error(c, "TypeError", "iteration over a 0-d tensor");
        }
        if (isTensor(seq) && (seq.abs->shape.dynamicRank || seq.abs->shape.dims[0] < 0)) {
            unknown();
        }
        const ValuePtr v = valueOf(seq);
        if (!isSeq(seq) && !isTensor(seq) && !(v && v->kind == Value::Kind::String)) {
            e.error(c, "TypeError", "'" + typeName(seq) + "' object is not iterable");
        }
        return length(e, c, seq);
    }
    std::int64_t b[3] = {0, 0, 0};
    for (std::size_t k = 0; k < 3; ++k) {
        const Arg& a = args[k + 1];
        const ValuePtr x = valueOf(a);
        const bool intLike = !isTensor(a) && (x ? x->kind != Value::Kind::Float && ops::intOf(x).has_value()
                                                : isNumber(a) && !ir::isFloat(a.abs->dtype));
        if (!intLike) {
            e.error(c, "TypeError", "'" + typeName(a) + "' object cannot be interpreted as an integer");
        }
        if (!x) {
            unknown();
        }
        b[k] = *ops::intOf(x);
    }
    const auto [start, stop, step] = b;
    if (step == 0) {
        e.error(c, "ValueError", "range() arg 3 must not be zero");
    }
    const std::int64_t span = step > 0 ? stop - start : start - stop;
    const std::int64_t by = step > 0 ? step : -step;
    return foldTo(e, c, Value::integer(span <= 0 ? 0 : (span + by - 1) / by));
}

Arg makeSlice(Engine& e, CNode* c, const std::vector<Arg>& args) {
    std::vector<ValuePtr> b;
    for (const Arg& a : args) {
        const ValuePtr v = valueOf(a);
        if (v && v->kind == Value::Kind::None) {
            b.push_back(v);
        } else if (v && (v->kind == Value::Kind::Int || v->kind == Value::Kind::Bool)) {
            b.push_back(Value::integer(*ops::intOf(v)));
        } else {
            e.error(c, "TypeError",
                    "The slice indices must be constant ints or None in graph mode, but got " +
                        typeName(a) + ".");
        }
    }
    while (b.size() < 3) {
        b.push_back(Value::none());
    }
    return foldTo(e, c, Value::slice(b[0], b[1], b[2]));
}

// isinstance(x, cls): cls is a dtype value (int -> Int64, float -> Float32/64, bool -> Bool),
// a builtin's conversion meta op (int, float, bool, str, tuple, list), a class name string
// ("Tensor", "tuple", "list", "int", "float", "bool", "str", "NoneType") or a tuple of those.
bool instanceOf(const Arg& x, const ValuePtr& cls) {
    if (cls->kind == Value::Kind::Tuple || cls->kind == Value::Kind::List) {
        return std::any_of(cls->elements.begin(), cls->elements.end(),
                           [&](const ValuePtr& k) { return instanceOf(x, k); });
    }
    std::string name = cls->kind == Value::Kind::String ? cls->text : std::string();
    if (cls->kind == Value::Kind::Type) {
        name = cls->dtype == ir::DType::Bool ? "bool" : ir::isFloat(cls->dtype) ? "float" : "int";
    }
    if (cls->kind == Value::Kind::Primitive && cls->prim) {
        // A builtin class named in the function: `int` and friends resolve to their
        // conversion meta ops (meta::kToInt = "int", ...), whose names are the classes'.
        name = cls->prim->name;
    }
    const PyKind k = pyKindOf(x);
    if (name == "int") {
        return k == PyKind::Int || k == PyKind::Bool;  // bool is a subclass of int
    }
    static const std::map<std::string_view, PyKind> kClasses{
        {"Tensor", PyKind::Tensor}, {"Parameter", PyKind::Tensor}, {"float", PyKind::Float},
        {"bool", PyKind::Bool},     {"str", PyKind::Str},          {"tuple", PyKind::Tuple},
        {"list", PyKind::List},     {"NoneType", PyKind::None}};
    const auto it = kClasses.find(name);
    return it != kClasses.end() && it->second == k;
}

std::vector<Arg> flatArgs(Engine& e, CNode* c, const std::vector<Arg>& args) {
    if (args.size() == 1 && isSeq(args[0])) {
        return e.elementsOf(c, args[0]);
    }
    return args;
}

Arg minMax(Engine& e, CNode* c, bool isMax, const std::vector<Arg>& raw) {
    const std::vector<Arg> args = flatArgs(e, c, raw);
    if (args.empty()) {
        e.error(c, "ValueError",
                std::string(isMax ? "max" : "min") + "() arg is an empty sequence");
    }
    if (std::all_of(args.begin(), args.end(), [](const Arg& a) { return isTensor(a); })) {
        Arg acc = args[0];
        for (std::size_t i = 1; i < args.size(); ++i) {
            acc = e.emitPrim(c, isMax ? "Maximum" : "Minimum", {acc.node, args[i].node});
        }
        return e.replace(c, acc);
    }
    ValuePtr best;
    for (const Arg& a : args) {
        const ValuePtr v = valueOf(a);
        if (!isNumber(a) || !v) {
            e.error(c, "TypeError",
                    std::string(isMax ? "max" : "min") +
                        "() needs constant numbers or tensors in graph mode, "
                        "but got " +
                        typeName(a) + ".");
        }
        if (!best || (isMax ? *ops::numberOf(v) > *ops::numberOf(best)
                            : *ops::numberOf(v) < *ops::numberOf(best))) {
            best = v;
        }
    }
    return foldTo(e, c, best);
}

// Python's str() of a constant (repr() inside a tuple or list); nullopt for a value that
// has no such text at compile time (a tensor, a graph).
std::optional<std::string> constantText(const Value& v, bool nested) {
    switch (v.kind) {
        case Value::Kind::String:
            return nested ? util::pyStrRepr(v.text) : v.text;
        case Value::Kind::Int:
            return std::to_string(v.i);
        case Value::Kind::Bool:
            return std::string(v.b ? "True" : "False");
        case Value::Kind::None:
            return std::string("None");
        case Value::Kind::Float:
            return util::pyFloatRepr(v.f);
        case Value::Kind::Tuple:
        case Value::Kind::List: {
            const bool tuple = v.kind == Value::Kind::Tuple;
            std::string out = tuple ? "(" : "[";
            for (std::size_t i = 0; i < v.elements.size(); ++i) {
                std::optional<std::string> item =
                    v.elements[i] ? constantText(*v.elements[i], true) : std::nullopt;
                if (!item) {
                    return std::nullopt;
                }
                out += (i == 0 ? "" : ", ") + *item;
            }
            out += tuple && v.elements.size() == 1 ? ",)" : tuple ? ")" : "]";
            return out;
        }
        default:
            return std::nullopt;
    }
}

// str(x) of a value known at compile time (a raise's message names the argument it rejects).
Arg toStr(Engine& e, CNode* c, const std::vector<Arg>& args) {
    if (args.empty()) {
        return foldTo(e, c, Value::string(""));
    }
    const ValuePtr v = valueOf(args[0]);
    if (std::optional<std::string> text = v ? constantText(*v, false) : std::nullopt) {
        return foldTo(e, c, Value::string(std::move(*text)));
    }
    e.error(c, "TypeError",
            "irscope: str() in graph mode is supported for constants (numbers, strings, None, "
            "and tuples and lists of them) only (not supported yet for " + describe(args[0].abs) + ").");
}

Arg convert(Engine& e, CNode* c, std::string_view to, const std::vector<Arg>& args) {
    if (args.empty()) {
        return foldTo(e, c,
                      to == meta::kToInt     ? Value::integer(0)
                      : to == meta::kToFloat ? Value::floating(0)
                      : to == meta::kToBool  ? Value::boolean(false)
                      : to == meta::kToList  ? Value::list({})
                                             : Value::tuple({}));
    }
    const Arg& a = args[0];
    if (to == meta::kToBool) {
        return truthValue(e, c, a);
    }
    if (to == meta::kToTuple || to == meta::kToList) {
        if (!isSeq(a)) {
            unsupportedTypes(e, c, to, args, 0);
        }
        const ValuePtr v = valueOf(a);
        if (v) {
            return foldTo(
                e, c, to == meta::kToList ? Value::list(v->elements) : Value::tuple(v->elements));
        }
        return e.replace(c, e.makeTuple(c, e.elementsOf(c, a), to == meta::kToList));
    }
    const ValuePtr v = valueOf(a);
    if (isTensor(a) && to == meta::kToFloat) {
        return callPrim(e, c, "Cast", {a, e.emitConst(c, Value::type(ir::DType::Float32))});
    }
    if (isTensor(a) && to == meta::kToInt) {
        return callPrim(e, c, "Cast", {a, e.emitConst(c, Value::type(ir::DType::Int64))});
    }
    if (v && v->kind == Value::Kind::String) {
        try {
            return foldTo(e, c,
                          to == meta::kToInt ? Value::integer(std::stoll(v->text))
                                             : Value::floating(std::stod(v->text)));
        } catch (const std::exception&) {
            e.error(c, "ValueError", "could not convert string to number: '" + v->text + "'");
        }
    }
    if (!isNumber(a) || !v) {
        e.error(c, "TypeError",
                std::string(to) + "() needs a constant number in graph mode, but got " +
                    typeName(a) + ".");
    }
    const double d = *ops::numberOf(v);
    if (to == meta::kToInt) {
        return foldTo(e, c, Value::integer(static_cast<std::int64_t>(std::trunc(d))));
    }
    return foldTo(e, c, Value::floating(d));
}

Arg zipOrEnumerate(Engine& e, CNode* c, bool isZip, const std::vector<Arg>& args) {
    std::vector<std::vector<Arg>> seqs;
    std::size_t n = SIZE_MAX;
    std::int64_t start = 0;
    for (std::size_t k = 0; k < args.size(); ++k) {
        if (!isZip && k == 1) {
            const auto s = ops::intOf(valueOf(args[k]));
            if (!s) {
                unsupportedTypes(e, c, meta::kEnumerate, args, k);
            }
            start = *s;
            continue;
        }
        if (!isSeq(args[k])) {
            unsupportedTypes(e, c, isZip ? meta::kZip : meta::kEnumerate, args, k);
        }
        seqs.push_back(e.elementsOf(c, args[k]));
        n = std::min(n, seqs.back().size());
    }
    if (seqs.empty()) {
        n = 0;
    }
    std::vector<Arg> rows;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Arg> row;
        if (!isZip) {
            row.push_back(e.emitConst(c, Value::integer(start + static_cast<std::int64_t>(i))));
        }
        for (const auto& s : seqs) {
            row.push_back(s[i]);
        }
        rows.push_back(e.makeTuple(c, row));
    }
    return e.replace(c, e.makeTuple(c, rows));
}

Arg sum(Engine& e, CNode* c, const std::vector<Arg>& args) {
    if (!args.empty() && isTensor(args[0])) {
        // Python's sum over a tensor adds its rows: ReduceSum over axis 0.
        ir::AttrMap keep;
        keep.set("keep_dims", Value::boolean(false));
        Arg rows = e.emitPrim(c, "ReduceSum",
                              {args[0].node, e.emitConst(c, Value::tuple({Value::integer(0)})).node},
                              keep);
        return e.replace(c, args.size() > 1 ? e.emitPrim(c, "Add", {args[1].node, rows.node}) : rows);
    }
    if (args.empty() || !isSeq(args[0])) {
        unsupportedTypes(e, c, meta::kSum, args, 0);
    }
    Arg acc = args.size() > 1 ? args[1] : e.emitConst(c, Value::integer(0));
    for (const Arg& x : e.elementsOf(c, args[0])) {
        const std::vector<Arg> pair{acc, x};
        const bool tensor = isTensor(acc) || isTensor(x);
        if (tensor) {
            acc = e.emitPrim(c, "Add", {acc.node, x.node});
        } else if (isNumber(acc) && isNumber(x)) {
            acc = e.emitPrim(c, "ScalarAdd", {acc.node, x.node});
        } else {
            unsupportedTypes(e, c, meta::kSum, pair, isNumber(acc) ? 1 : 0);
        }
    }
    return e.replace(c, acc);
}

// Tensor(x[, dtype]): a tensor x (cast to dtype), or a constant of numbers, bools and
// (nested, rectangular) tuples and lists of them, as the host's Tensor() makes it: ints give
// Int64, floats Float32, bools Bool, unless dtype says otherwise.
Arg tensorOf(Engine& e, CNode* c, const std::vector<Arg>& args) {
    if (args.empty() || args.size() > 2) {
        e.error(c, "TypeError", "irscope: Tensor() in graph mode takes the data and an optional dtype.");
    }
    std::optional<ir::DType> dtype;
    if (args.size() == 2) {
        const ValuePtr d = valueOf(args[1]);
        if (!d || (d->kind != Value::Kind::Type && d->kind != Value::Kind::None)) {
            e.error(c, "TypeError", "For 'Tensor', the 'dtype' must be a mindspore dtype known at compile time.");
        }
        if (d->kind == Value::Kind::Type) {
            dtype = d->dtype;
        }
    }
    if (isTensor(args[0])) {
        return dtype && *dtype != args[0].abs->dtype
                   ? callPrim(e, c, "Cast", {args[0], e.emitConst(c, Value::type(*dtype))})
                   : e.replace(c, args[0]);
    }
    const ValuePtr v = valueOf(args[0]);
    std::vector<double> flat;
    std::vector<std::int64_t> dims;
    bool anyFloat = false;
    bool allBool = true;
    // The elements in row-major order and the shape, checked rectangular.
    std::function<bool(const ValuePtr&, std::size_t)> walk = [&](const ValuePtr& x, std::size_t depth) {
        if (x->kind == Value::Kind::Tuple || x->kind == Value::Kind::List) {
            if (depth == dims.size()) {
                dims.push_back(static_cast<std::int64_t>(x->elements.size()));
            } else if (dims[depth] != static_cast<std::int64_t>(x->elements.size())) {
                return false;
            }
            for (const ValuePtr& el : x->elements) {
                if (!walk(el, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        const std::optional<double> n = ops::numberOf(x);
        if (!n || x->kind == Value::Kind::Tensor || depth != dims.size()) {
            return false;
        }
        anyFloat = anyFloat || x->kind == Value::Kind::Float;
        allBool = allBool && x->kind == Value::Kind::Bool;
        flat.push_back(*n);
        return true;
    };
    if (!v || !walk(v, 0)) {
        e.error(c, "TypeError",
                "irscope: Tensor() in graph mode of " + describe(args[0].abs) +
                    " is supported for constants (numbers, bools and tuples and lists of them) and "
                    "tensors only (not supported yet for a value known at run time).");
    }
    ir::TensorData data;
    data.dtype = dtype ? *dtype
                       : anyFloat ? ir::DType::Float32
                                  : (allBool && !flat.empty() ? ir::DType::Bool : ir::DType::Int64);
    data.shape.dims = dims;
    for (double x : flat) {
        const ir::TensorData one = ir::scalarTensor(data.dtype, x);
        data.data.insert(data.data.end(), one.data.begin(), one.data.end());
    }
    return foldTo(e, c, Value::tensorValue(std::move(data)));
}

}  // namespace

bool expandBuiltinMeta(Engine& e, CNode* c, std::string_view name, const std::vector<Arg>& args,
                       Arg& out) {
    auto need = [&](std::size_t n) {
        if (args.size() != n) {
            e.error(c, "TypeError",
                    "'" + std::string(name) + "' takes " + std::to_string(n) + " arguments but " +
                        std::to_string(args.size()) + " were given.");
        }
    };
    if (name == meta::kMakeList) {
        out = e.replace(c, e.makeTuple(c, args, true));
        return true;
    }
    if (name == meta::kUnpackCall) {
        if (args.empty()) {
            e.error(c, "TypeError", "'unpack_call' needs the function to call.");
        }
        std::vector<ir::Node*> flat;
        for (std::size_t i = 1; i < args.size(); ++i) {
            const Arg& t = args[i];
            if (!t.abs ||
                (t.abs->kind != Abstract::Kind::Tuple && t.abs->kind != Abstract::Kind::List)) {
                e.error(
                    c, "TypeError",
                    "irscope: a starred argument must be a tuple or list in graph mode, but got " +
                        describe(t.abs) + ".");
            }
            for (const Arg& el : e.elementsOf(c, t)) {
                flat.push_back(el.node);
            }
        }
        out = e.replace(c, e.emitCall(c, args[0].node, flat));
        return true;
    }
    if (name == meta::kMakeSlice) {
        out = makeSlice(e, c, args);
        return true;
    }
    if (name == meta::kGetItem) {
        need(2);
        out = getItem(e, c, args[0], args[1]);
        return true;
    }
    if (name == meta::kSetItem) {
        need(3);
        out = setItem(e, c, args[0], args[1], args[2]);
        return true;
    }
    if (name == meta::kLen) {
        need(1);
        out = length(e, c, args[0]);
        return true;
    }
    if (name == meta::kMakeRange) {
        out = makeRange(e, c, args);
        return true;
    }
    if (name == meta::kLoopLength) {
        out = loopLength(e, c, args);
        return true;
    }
    if (name == meta::kIsInstance) {
        need(2);
        const ValuePtr cls = valueOf(args[1]);
        if (!cls) {
            e.error(c, "TypeError", "isinstance() arg 2 must be a type or tuple of types");
        }
        out = foldTo(e, c, Value::boolean(instanceOf(args[0], cls)));
        return true;
    }
    if (name == meta::kMax || name == meta::kMin) {
        out = minMax(e, c, name == meta::kMax, args);
        return true;
    }
    if (name == meta::kAbs) {
        need(1);
        if (isTensor(args[0])) {
            out = callPrim(e, c, "Abs", args);
            return true;
        }
        const ValuePtr v = valueOf(args[0]);
        if (isNumber(args[0]) && v) {
            if (v->kind == Value::Kind::Float) {
                out = foldTo(e, c, Value::floating(std::fabs(v->f)));
                return true;
            }
            out = foldTo(e, c, Value::integer(std::llabs(*ops::intOf(v))));
            return true;
        }
        unsupportedTypes(e, c, name, args, 0);
    }
    if (name == meta::kSum) {
        out = sum(e, c, args);
        return true;
    }
    if (name == meta::kToStr) {
        out = toStr(e, c, args);
        return true;
    }
    if (name == meta::kTensorOf) {
        out = tensorOf(e, c, args);
        return true;
    }
    if (name == meta::kToInt || name == meta::kToFloat || name == meta::kToBool ||
        name == meta::kToTuple || name == meta::kToList) {
        out = convert(e, c, name, args);
        return true;
    }
    if (name == meta::kZip || name == meta::kEnumerate) {
        out = zipOrEnumerate(e, c, name == meta::kZip, args);
        return true;
    }
    return false;
}

}  // namespace irscope::passes::infer
