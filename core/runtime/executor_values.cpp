#include "runtime/executor_values.h"

#include <atomic>

namespace irscope::runtime {

EvalError::EvalError(const std::string& message, std::string pyType, ir::SourceLocation where,
                     const std::string& node)
    : ir::SourceError(node.empty() ? message : message + "\n  at " + node, std::move(pyType),
                      message, std::move(where)) {}

}  // namespace irscope::runtime

namespace irscope::runtime::detail {

std::string describeNode(const Node& n) {
    std::string text;
    const auto* c = ir::nodeCast<CNode>(&n);
    if (c != nullptr && c->primitive() != nullptr) {
        text = c->primitive()->name;
    } else if (c != nullptr && c->calledGraph() != nullptr) {
        text = "call @" + c->calledGraph()->name();
    } else if (c != nullptr) {
        text = "call";
    } else if (const auto* p = ir::nodeCast<ir::Parameter>(&n)) {
        text = "parameter " + p->name();
    }
    if (!n.debug().name.empty()) {
        text += " (" + n.debug().name + ")";
    }
    if (n.graph() != nullptr) {
        text += " in @" + n.graph()->name();
    }
    for (auto it = n.debug().trace.rbegin(); it != n.debug().trace.rend(); ++it) {
        if (it->line > 0) {
            text += ", " + (it->file.empty() ? std::string("line") : it->file) + ":" +
                    std::to_string(it->line);
            std::string_view src = it->text;
            const auto b = src.find_first_not_of(" \t");
            if (b != std::string_view::npos) {
                text += ": " + std::string(src.substr(b));
            }
            break;
        }
    }
    return text;
}

void failAt(const Node& n, const std::string& message, const std::string& pyType) {
    ir::SourceLocation where;
    for (auto it = n.debug().trace.rbegin(); it != n.debug().trace.rend(); ++it) {
        if (it->line > 0) {
            where = *it;
            break;
        }
    }
    throw EvalError(message, pyType, std::move(where), describeNode(n));
}

bool truthOf(const Node& site, const RValue& v) {
    if (v.fn || v.items) {
        return true;
    }
    const KernelArg& a = v.arg;
    if (a.isTensor()) {
        if (a.tensor().size() != 1) {
            failAt(site,
                   "The truth value of a Tensor with " + std::to_string(a.tensor().size()) +
                       " elements is ambiguous: a condition must be a Tensor of one "
                       "element.",
                   "ValueError");
        }
        return a.tensor().getDouble(0) != 0.0;
    }
    if (a.isValue() && a.value()) {
        const ir::Value& x = *a.value();
        switch (x.kind) {
            case ir::Value::Kind::Bool:
                return x.b;
            case ir::Value::Kind::Int:
                return x.i != 0;
            case ir::Value::Kind::Float:
                return x.f != 0.0;
            case ir::Value::Kind::None:
                return false;
            case ir::Value::Kind::String:
                return !x.text.empty();
            case ir::Value::Kind::Tuple:
            case ir::Value::Kind::List:
                return !x.elements.empty();
            default:
                return true;
        }
    }
    if (a.isTuple()) {
        return !a.elements().empty();
    }
    return false;
}

KernelArg toKernel(const CNode& site, const RValue& v) {
    if (v.fn) {
        failAt(site, "A function value cannot be an operator's input.", "TypeError");
    }
    if (v.items) {
        std::vector<KernelArg> elems;
        for (const RValue& e : *v.items) {
            elems.push_back(toKernel(site, e));
        }
        return KernelArg::tuple(std::move(elems));
    }
    return v.arg;
}

RValue makeTuple(std::vector<RValue> elems) {
    bool funcs = false;
    bool allValues = true;
    for (const RValue& e : elems) {
        funcs = funcs || e.fn || e.items;
        allValues = allValues && e.arg.isValue();
    }
    if (funcs) {
        RValue r;
        r.items = std::make_shared<const std::vector<RValue>>(std::move(elems));
        return r;
    }
    if (allValues) {
        // A tuple of constants stays an ir::Value tuple, as folding leaves it.
        std::vector<ir::ValuePtr> vals;
        for (const RValue& e : elems) {
            vals.push_back(e.arg.value());
        }
        return RValue::of(KernelArg(ir::Value::tuple(std::move(vals))));
    }
    std::vector<KernelArg> ka;
    for (RValue& e : elems) {
        ka.push_back(std::move(e.arg));
    }
    return RValue::of(KernelArg::tuple(std::move(ka)));
}

RValue tupleItem(const CNode& site, const RValue& t, const RValue& index) {
    if (!index.arg.isValue() || !index.arg.value() ||
        index.arg.value()->kind != ir::Value::Kind::Int) {
        failAt(site, "For 'TupleGetItem', the 'index' must be a constant int.", "TypeError");
    }
    const std::int64_t i = index.arg.value()->i;
    auto pick = [&](std::size_t size, auto get) -> RValue {
        const auto n = static_cast<std::int64_t>(size);
        if (i < -n || i >= n) {
            failAt(site,
                   "For 'TupleGetItem', the index " + std::to_string(i) +
                       " is out of range for a tuple of size " + std::to_string(n) + ".",
                   "IndexError");
        }
        return get(static_cast<std::size_t>(i < 0 ? i + n : i));
    };
    if (t.items) {
        return pick(t.items->size(), [&](std::size_t k) { return (*t.items)[k]; });
    }
    if (t.arg.isTuple()) {
        return pick(t.arg.elements().size(),
                    [&](std::size_t k) { return RValue::of(t.arg.elements()[k]); });
    }
    if (t.arg.isValue() && t.arg.value() &&
        (t.arg.value()->kind == ir::Value::Kind::Tuple ||
         t.arg.value()->kind == ir::Value::Kind::List)) {
        const auto& elems = t.arg.value()->elements;
        return pick(elems.size(),
                    [&](std::size_t k) { return RValue::of(ops::kernelArgFromValue(elems[k])); });
    }
    failAt(site, "For 'TupleGetItem', the input must be a tuple.", "TypeError");
}

KernelArg outputOf(const RValue& v, const std::string& graph) {
    if (v.fn) {
        throw EvalError("The output of graph @" + graph +
                            " is or contains a function, which cannot be returned to the host.",
                        "TypeError");
    }
    if (v.items) {
        std::vector<KernelArg> elems;
        for (const RValue& e : *v.items) {
            elems.push_back(outputOf(e, graph));
        }
        return KernelArg::tuple(std::move(elems));
    }
    return v.arg;
}

// Tensors of the output that alias a weight or an input are copied: the caller gets a
// value of its own, as MindSpore's graph outputs are (Load aliases the Parameter).
KernelArg detach(const KernelArg& a, const std::unordered_set<const void*>& shared) {
    if (a.isTensor()) {
        return shared.contains(a.tensor().storageId()) ? KernelArg(a.tensor().clone()) : a;
    }
    if (a.isTuple()) {
        std::vector<KernelArg> elems;
        for (const KernelArg& e : a.elements()) {
            elems.push_back(detach(e, shared));
        }
        return KernelArg::tuple(std::move(elems));
    }
    return a;
}

namespace {
std::atomic<std::size_t> framesAlive{0};
}  // namespace

Frame::Frame() { framesAlive.fetch_add(1, std::memory_order_relaxed); }
Frame::~Frame() { framesAlive.fetch_sub(1, std::memory_order_relaxed); }
std::size_t Frame::alive() { return framesAlive.load(std::memory_order_relaxed); }

}  // namespace irscope::runtime::detail
